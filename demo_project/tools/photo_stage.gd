## The room the rendered pictures are taken in (`motion_strip.gd`, `avatar_poses.gd`): a light
## grey background, a floor with a half-metre checker (feet that slide show against it), a sun
## with shadows (feet on the floor show), soft ambient light.
extends RefCounted


static func build(parent: Node) -> void:
	var environment := Environment.new()
	environment.background_mode = Environment.BG_COLOR
	environment.background_color = Color(0.93, 0.93, 0.95)
	environment.ambient_light_source = Environment.AMBIENT_SOURCE_COLOR
	environment.ambient_light_color = Color(0.75, 0.75, 0.8)
	environment.ambient_light_energy = 0.6
	var world := WorldEnvironment.new()
	world.environment = environment
	parent.add_child(world)
	var sun := DirectionalLight3D.new()
	sun.shadow_enabled = true
	sun.rotation_degrees = Vector3(-60, 30, 0)
	parent.add_child(sun)
	var checker := Image.create(2, 2, false, Image.FORMAT_RGB8)
	checker.fill(Color(0.8, 0.8, 0.78))
	checker.set_pixel(0, 0, Color(0.68, 0.68, 0.66))
	checker.set_pixel(1, 1, Color(0.68, 0.68, 0.66))
	var material := StandardMaterial3D.new()
	material.albedo_texture = ImageTexture.create_from_image(checker)
	material.texture_filter = BaseMaterial3D.TEXTURE_FILTER_NEAREST
	material.uv1_scale = Vector3(20, 20, 1)
	var floor_mesh := PlaneMesh.new()
	floor_mesh.size = Vector2(20, 20)
	var floor := MeshInstance3D.new()
	floor.mesh = floor_mesh
	floor.material_override = material
	parent.add_child(floor)


## A marker drawn in one colour (the headset, a controller).
static func marker(parent: Node, mesh: Mesh, color: Color) -> MeshInstance3D:
	var m := MeshInstance3D.new()
	m.mesh = mesh
	var material := StandardMaterial3D.new()
	material.albedo_color = color
	m.material_override = material
	parent.add_child(m)
	return m
