## A round shooting target on a post. `take_damage` (called by `Revolver`) marks the hit, counts
## it, flashes, and knocks the target down when its health is gone; `reset` stands it back up and
## clears the marks.
class_name ShootingTarget
extends StaticBody3D

## A hit landed: where, and the health left.
signal hit(point: Vector3, health_left: float)
## The health reached zero.
signal knocked_down()

## Health at the start and after `reset`.
@export var max_health := 100.0
## Target radius (metres).
@export var radius := 0.25

var health := 100.0
var hits := 0
var _face: MeshInstance3D
var _marks: Node3D
var _label: Label3D
var _material: StandardMaterial3D
var _flash := 0.0


func _ready() -> void:
	health = max_health
	var shape := CollisionShape3D.new()
	var cyl := CylinderShape3D.new()
	cyl.radius = radius
	cyl.height = 0.04
	shape.shape = cyl
	shape.rotation_degrees = Vector3(90, 0, 0)
	add_child(shape)
	_face = MeshInstance3D.new()
	var mesh := CylinderMesh.new()
	mesh.top_radius = radius
	mesh.bottom_radius = radius
	mesh.height = 0.04
	mesh.radial_segments = 32
	_face.mesh = mesh
	_face.rotation_degrees = Vector3(90, 0, 0)
	_material = StandardMaterial3D.new()
	_material.albedo_color = Color(0.92, 0.9, 0.85)
	_face.material_override = _material
	add_child(_face)
	for i in 3:
		var ring := MeshInstance3D.new()
		var torus := TorusMesh.new()
		var r := radius * (0.25 + 0.3 * i)
		torus.inner_radius = r - 0.012
		torus.outer_radius = r
		torus.rings = 32
		ring.mesh = torus
		ring.rotation_degrees = Vector3(90, 0, 0)
		ring.position = Vector3(0, 0, 0.021)
		ring.scale = Vector3(1, 0.1, 1)
		var red := StandardMaterial3D.new()
		red.albedo_color = Color(0.75, 0.1, 0.08)
		ring.material_override = red
		add_child(ring)
	_marks = Node3D.new()
	_marks.name = "Hits"
	add_child(_marks)
	_label = Label3D.new()
	_label.position = Vector3(0, radius + 0.12, 0)
	_label.font_size = 48
	_label.pixel_size = 0.0025
	add_child(_label)
	_update_label()


func take_damage(damage: float, point: Vector3, normal: Vector3) -> void:
	if health <= 0.0:
		return
	hits += 1
	health = maxf(health - damage, 0.0)
	var mark := MeshInstance3D.new()
	var sphere := SphereMesh.new()
	sphere.radius = 0.015
	sphere.height = 0.03
	mark.mesh = sphere
	var black := StandardMaterial3D.new()
	black.albedo_color = Color(0.05, 0.05, 0.05)
	mark.material_override = black
	_marks.add_child(mark)
	mark.global_position = point + normal * 0.005
	_flash = 0.15
	_update_label()
	hit.emit(point, health)
	if health <= 0.0:
		rotation_degrees.x = 80.0  # falls backward, away from the shooter
		knocked_down.emit()


## Stands the target up with full health and no marks.
func reset() -> void:
	health = max_health
	hits = 0
	rotation_degrees.x = 0.0
	for m in _marks.get_children():
		m.queue_free()
	_update_label()


func _process(delta: float) -> void:
	if _flash > 0.0:
		_flash -= delta
		_material.albedo_color = Color(1.0, 0.75, 0.3) if _flash > 0.0 else Color(0.92, 0.9, 0.85)


func _update_label() -> void:
	_label.text = "hits %d   health %d" % [hits, int(health)]
