## The demo's blockout room: floor, walls and ceiling with collision, warm and cool lights, a
## planar mirror on the front wall, three shooting targets to the front right, and the controls
## panel on the left wall. The player starts at the origin facing +Z (the mirror).
class_name RoomBuilder
extends RefCounted

const SIZE := Vector3(7.0, 3.0, 6.0)
const CENTRE := Vector3(0.0, 0.0, 0.5)
const MIRROR_POSITION := Vector3(0.0, 1.35, 3.44)
const TARGETS := [Vector3(-1.6, 1.45, 3.0), Vector3(-2.4, 1.15, 2.7), Vector3(-3.1, 1.6, 2.3)]

const PANEL_TEXT := """vr_arms demo

VR CONTROLLERS
grip: hold the revolver (draw from the right hip)
trigger: fire    right stick down: cock the hammer
B / Y: reload    A / X: reset the targets
left stick: walk    right stick left/right: turn

See your whole body in the mirror.
Without a headset: mouse and keyboard (help on screen)."""


## Adds the room under `parent`; returns "mirror", "targets", "panel", "floor".
static func build(parent: Node3D) -> Dictionary:
	var env := WorldEnvironment.new()
	var e := Environment.new()
	e.background_mode = Environment.BG_COLOR
	e.background_color = Color(0.1, 0.11, 0.13)
	e.ambient_light_source = Environment.AMBIENT_SOURCE_COLOR
	e.ambient_light_color = Color(0.55, 0.57, 0.62)
	e.ambient_light_energy = 0.55
	e.tonemap_mode = Environment.TONE_MAPPER_FILMIC
	env.environment = e
	parent.add_child(env)
	var floor_mat := _material(Color(0.42, 0.36, 0.3))
	var wall_mat := _material(Color(0.78, 0.76, 0.72))
	var accent := _material(Color(0.35, 0.45, 0.55))
	var floor := _slab(parent, "Floor", Vector3(SIZE.x, 0.2, SIZE.z), CENTRE + Vector3(0, -0.1, 0), floor_mat)
	_slab(parent, "Ceiling", Vector3(SIZE.x, 0.2, SIZE.z), CENTRE + Vector3(0, SIZE.y + 0.1, 0), wall_mat)
	_slab(parent, "FrontWall", Vector3(SIZE.x, SIZE.y, 0.2), CENTRE + Vector3(0, SIZE.y / 2, SIZE.z / 2 + 0.1), wall_mat)
	_slab(parent, "BackWall", Vector3(SIZE.x, SIZE.y, 0.2), CENTRE + Vector3(0, SIZE.y / 2, -SIZE.z / 2 - 0.1), wall_mat)
	_slab(parent, "LeftWall", Vector3(0.2, SIZE.y, SIZE.z), CENTRE + Vector3(SIZE.x / 2 + 0.1, SIZE.y / 2, 0), wall_mat)
	_slab(parent, "RightWall", Vector3(0.2, SIZE.y, SIZE.z), CENTRE + Vector3(-SIZE.x / 2 - 0.1, SIZE.y / 2, 0), wall_mat)
	_slab(parent, "Skirting", Vector3(SIZE.x, 0.12, 0.04), CENTRE + Vector3(0, 0.06, SIZE.z / 2 - 0.02), accent)
	# A box and a bench to give the mirror some depth.
	_slab(parent, "Crate", Vector3(0.6, 0.6, 0.6), Vector3(2.6, 0.3, -1.6), accent)
	_slab(parent, "Bench", Vector3(1.6, 0.45, 0.4), Vector3(-2.6, 0.225, -1.8), _material(Color(0.45, 0.3, 0.18)))
	for l in [[Vector3(0.5, 2.7, 0.6), Color(1.0, 0.93, 0.82), 1.4], [Vector3(-2.0, 2.7, 2.0), Color(0.85, 0.9, 1.0), 1.0]]:
		var light := OmniLight3D.new()
		light.position = l[0]
		light.light_color = l[1]
		light.light_energy = l[2]
		light.omni_range = 9.0
		light.shadow_enabled = true
		parent.add_child(light)
	var mirror := PlanarMirror.new()
	mirror.name = "Mirror"
	mirror.size = Vector2(2.0, 2.3)
	mirror.position = MIRROR_POSITION
	mirror.rotation_degrees = Vector3(0, 180, 0)
	parent.add_child(mirror)
	var targets := []
	for i in TARGETS.size():
		var t := ShootingTarget.new()
		t.name = "Target%d" % (i + 1)
		t.position = TARGETS[i]
		t.rotation_degrees = Vector3(0, 180, 0)  # face (and label) toward the player
		parent.add_child(t)
		var post := MeshInstance3D.new()
		var pole := CylinderMesh.new()
		pole.top_radius = 0.02
		pole.bottom_radius = 0.03
		pole.height = TARGETS[i].y
		post.mesh = pole
		post.material_override = _material(Color(0.2, 0.2, 0.2))
		post.position = Vector3(TARGETS[i].x, TARGETS[i].y / 2, TARGETS[i].z + 0.04)
		parent.add_child(post)
		targets.append(t)
	var panel := Label3D.new()
	panel.name = "ControlsPanel"
	panel.text = PANEL_TEXT
	panel.font_size = 40
	panel.pixel_size = 0.002
	panel.modulate = Color(0.1, 0.1, 0.12)
	panel.outline_size = 0
	panel.position = Vector3(SIZE.x / 2 - 0.01 + CENTRE.x, 1.5, 0.6)
	panel.rotation_degrees = Vector3(0, -90, 0)
	parent.add_child(panel)
	return {"mirror": mirror, "targets": targets, "panel": panel, "floor": floor}


static func _material(color: Color) -> StandardMaterial3D:
	var m := StandardMaterial3D.new()
	m.albedo_color = color
	m.roughness = 0.85
	return m


static func _slab(parent: Node3D, name: String, size: Vector3, pos: Vector3, material: Material) -> StaticBody3D:
	var body := StaticBody3D.new()
	body.name = name
	body.position = pos
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = size
	shape.shape = box
	body.add_child(shape)
	var mesh := MeshInstance3D.new()
	var bm := BoxMesh.new()
	bm.size = size
	mesh.mesh = bm
	mesh.material_override = material
	body.add_child(mesh)
	parent.add_child(body)
	return body
