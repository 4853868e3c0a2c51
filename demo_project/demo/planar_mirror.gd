## A real planar mirror: a second camera, reflected through the mirror's plane, renders into a
## SubViewport with an off-axis (frustum) projection that exactly covers the mirror's rectangle,
## and the mirror's quad shows that image flipped left-right.
##
## The mirror faces its local +Z; its size is `size` (metres). It follows whichever camera the
## main viewport uses (the headset's XRCamera3D in VR: the mirror is rendered once from the
## centre of the eyes, which reads correctly at room distances). `cull_mask` lets the mirror
## see what the player's own camera hides (the avatar's head).
class_name PlanarMirror
extends Node3D

## Mirror width and height (metres).
@export var size := Vector2(2.4, 2.0)
## Texture height (pixels); the width follows the mirror's aspect.
@export var resolution := 720
## Render layers the reflection shows.
@export_flags_3d_render var cull_mask := 0xFFFFF
## Tint of the glass.
@export var tint := Color(0.94, 0.96, 1.0)

var viewport: SubViewport
var camera: Camera3D
var _quad: MeshInstance3D


func _ready() -> void:
	viewport = SubViewport.new()
	viewport.name = "Reflection"
	viewport.size = Vector2i(int(resolution * size.x / size.y), resolution)
	viewport.render_target_update_mode = SubViewport.UPDATE_ALWAYS
	viewport.msaa_3d = Viewport.MSAA_2X
	add_child(viewport)
	camera = Camera3D.new()
	camera.name = "MirrorCamera"
	camera.projection = Camera3D.PROJECTION_FRUSTUM
	camera.keep_aspect = Camera3D.KEEP_HEIGHT
	camera.cull_mask = cull_mask
	# A view for remote players' levels of detail: one behind the player, seen in the mirror, is
	# solved (VRRemoteBody culls what no view sees).
	camera.add_to_group("vr_arms_views")
	viewport.add_child(camera)
	_quad = MeshInstance3D.new()
	_quad.name = "Glass"
	var quad := QuadMesh.new()
	quad.size = size
	_quad.mesh = quad
	var material := StandardMaterial3D.new()
	material.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	material.albedo_texture = viewport.get_texture()
	material.albedo_color = tint
	# A mirror image is the window's image turned left-right.
	material.uv1_scale = Vector3(-1, 1, 1)
	material.uv1_offset = Vector3(1, 0, 0)
	_quad.material_override = material
	add_child(_quad)
	# A frame around the glass.
	var frame := MeshInstance3D.new()
	var box := BoxMesh.new()
	box.size = Vector3(size.x + 0.08, size.y + 0.08, 0.03)
	frame.mesh = box
	frame.position = Vector3(0, 0, -0.02)
	var wood := StandardMaterial3D.new()
	wood.albedo_color = Color(0.3, 0.2, 0.12)
	frame.material_override = wood
	add_child(frame)


func _process(_delta: float) -> void:
	var eye := get_viewport().get_camera_3d()
	if eye == null or camera == null:
		return
	var plane := global_transform.orthonormalized()
	var n := plane.basis.z
	var p := eye.global_position
	var reflected := p - 2.0 * n * (p - plane.origin).dot(n)
	# The reflected eye looks through the glass into the room: along +n, with the mirror's up.
	camera.global_transform = Transform3D(Basis(plane.basis.x * -1.0, plane.basis.y, -n), reflected)
	var local := camera.global_transform.affine_inverse() * plane.origin
	var distance := maxf(-local.z, 0.01)
	camera.frustum_offset = Vector2(local.x, local.y)
	camera.size = size.y
	camera.near = distance
	camera.far = 60.0
