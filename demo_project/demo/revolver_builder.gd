## Builds the demo's Peacemaker-style single-action revolver from primitives, as a `Revolver`
## whose moving parts are the children the node animates, and a leather holster for it.
##
## Gun frame: the origin is where the hand holds the grip (`GripPoint`), -Z along the barrel, +Y
## up. The hammer and trigger pivots are turned half a turn about Y, so the node's rotation about
## their X cocks the hammer backward and pulls the trigger back. Holstered, the gun hangs barrel
## down, grip backward: the holster anchor's basis is the gun's (see `holster_basis`).
class_name RevolverBuilder
extends RefCounted

## Where the barrel ends (the shot's origin), in the gun frame.
const MUZZLE := Vector3(0, 0.066, -0.19)
## The point that sits on the holster anchor (the cylinder's centre).
const HOLSTER_POINT := Vector3(0, 0.06, -0.02)
## Where the support hand cups the shooting hand (two-handed hold).
const SUPPORT_POINT := Vector3(0.025, -0.045, -0.01)
## The loading gate, where cartridges go in and the ejector pushes cases out.
const GATE := Vector3(0.016, 0.052, 0.0)
## Cartridges in the belt's loops.
const BELT_CARTRIDGES := 12


## A holstered gun hangs barrel down (gun -Z = body down) with the sights forward (gun +Y =
## body forward, +Z): the holster anchor's basis in the belt's frame.
static func holster_basis() -> Basis:
	return Basis(Vector3(-1, 0, 0), Vector3(0, 0, 1), Vector3(0, 1, 0))


## Where the hand (the controller the gun attaches to) is when it holds the gun sitting in
## `holster`: the gun's HolsterPoint on the holster's anchor, in world space.
static func hand_on_holstered_gun(holster: Node3D) -> Transform3D:
	return holster.global_transform * Transform3D(Basis(), HOLSTER_POINT).affine_inverse()


static func build() -> Revolver:
	var gun := Revolver.new()
	gun.name = "Revolver"
	gun.mass = 1.05
	# A gun dropped during a long frame (a hitch: physics steps then cover long times) must not
	# pass through the floor: continuous collision detection.
	gun.continuous_cd = true
	var steel := _material(Color(0.22, 0.24, 0.28), 0.9, 0.32)
	var wood := _material(Color(0.42, 0.22, 0.1), 0.0, 0.6)
	var brass := _material(Color(0.78, 0.6, 0.25), 0.8, 0.3)
	var dark := _material(Color(0.02, 0.02, 0.02), 0.2, 0.8)
	var mesh := Node3D.new()
	mesh.name = "Mesh"
	gun.add_child(mesh)
	# Frame, barrel, ejector housing, front sight, grip and trigger guard.
	_box(mesh, "Frame", Vector3(0.026, 0.042, 0.075), Vector3(0, 0.05, -0.012), steel)
	_box(mesh, "TopStrap", Vector3(0.018, 0.008, 0.05), Vector3(0, 0.083, -0.02), steel)
	_cylinder(mesh, "Barrel", 0.0085, 0.14, Vector3(0, 0.066, -0.12), steel, Vector3.RIGHT * 90)
	_cylinder(mesh, "Bore", 0.004, 0.002, MUZZLE + Vector3(0, 0, -0.0005), dark, Vector3.RIGHT * 90)
	_cylinder(mesh, "EjectorHousing", 0.0045, 0.1, Vector3(0.009, 0.054, -0.1), steel, Vector3.RIGHT * 90)
	_box(mesh, "FrontSight", Vector3(0.003, 0.008, 0.01), Vector3(0, 0.078, -0.18), steel)
	var grip := _box(mesh, "Grip", Vector3(0.028, 0.1, 0.034), Vector3(0, -0.015, 0.03), wood)
	grip.rotation_degrees = Vector3(-18, 0, 0)
	_box(mesh, "BackStrap", Vector3(0.012, 0.1, 0.006), Vector3(0, -0.012, 0.05), steel).rotation_degrees = Vector3(-18, 0, 0)
	var torus := TorusMesh.new()
	torus.inner_radius = 0.013
	torus.outer_radius = 0.017
	torus.rings = 16
	var guard := _part(mesh, "TriggerGuard", torus, brass, Vector3(0, 0.02, -0.012))
	guard.rotation_degrees = Vector3(0, 0, 90)
	guard.scale = Vector3(1, 0.45, 1.1)
	# Moving parts (children of the gun, so the node finds them by name).
	var cylinder := Node3D.new()
	cylinder.name = "Cylinder"
	cylinder.position = Vector3(0, 0.06, -0.02)
	gun.add_child(cylinder)
	_cylinder(cylinder, "Drum", 0.021, 0.04, Vector3.ZERO, steel, Vector3.RIGHT * 90)
	for i in 6:
		var a := TAU * i / 6.0
		var p := Vector3(cos(a), sin(a), 0) * 0.0125
		_cylinder(cylinder, "Chamber%d" % i, 0.0045, 0.041, p, brass, Vector3.RIGHT * 90)
		# Flutes between the chambers show the cylinder turning.
		var f := Vector3(cos(a + PI / 6), sin(a + PI / 6), 0) * 0.021
		_box(cylinder, "Flute%d" % i, Vector3(0.004, 0.004, 0.03), f, dark).rotation = Vector3(0, 0, a + PI / 6)
	var hammer := Node3D.new()
	hammer.name = "Hammer"
	hammer.position = Vector3(0, 0.062, 0.026)
	hammer.rotation_degrees = Vector3(0, 180, 0)
	gun.add_child(hammer)
	_box(hammer, "Body", Vector3(0.007, 0.03, 0.01), Vector3(0, 0.014, 0), steel)
	_box(hammer, "Spur", Vector3(0.009, 0.006, 0.014), Vector3(0, 0.029, 0.006), steel)
	var trigger := Node3D.new()
	trigger.name = "Trigger"
	trigger.position = Vector3(0, 0.03, -0.012)
	trigger.rotation_degrees = Vector3(0, 180, 0)
	gun.add_child(trigger)
	_box(trigger, "Blade", Vector3(0.004, 0.022, 0.005), Vector3(0, -0.011, 0.002), brass)
	# Marked points.
	_marker(gun, "Muzzle", MUZZLE)
	_marker(gun, "GripPoint", Vector3.ZERO)
	_marker(gun, "SupportPoint", SUPPORT_POINT)
	_marker(gun, "HolsterPoint", HOLSTER_POINT)
	# The loading gate: the right side of the cylinder's rear face.
	_marker(gun, "Gate", GATE)
	var cone := CylinderMesh.new()
	cone.top_radius = 0.0
	cone.bottom_radius = 0.03
	cone.height = 0.09
	var glow := StandardMaterial3D.new()
	glow.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	glow.albedo_color = Color(1.0, 0.8, 0.35)
	var flash := _part(gun, "MuzzleFlash", cone, glow, MUZZLE + Vector3(0, 0, -0.045))
	flash.rotation_degrees = Vector3(-90, 0, 0)
	flash.visible = false
	var shape := CollisionShape3D.new()
	shape.name = "Shape"
	var box := BoxShape3D.new()
	box.size = Vector3(0.035, 0.12, 0.22)
	shape.shape = box
	shape.position = Vector3(0, 0.03, -0.07)
	gun.add_child(shape)
	for s in [["ShotSound", SoundMaker.shot()], ["CockSound", SoundMaker.click(0.09, 1800.0)], ["DryFireSound", SoundMaker.click(0.05, 3200.0)], ["ClickSound", SoundMaker.click(0.03, 5000.0)], ["HammerSound", SoundMaker.click(0.04, 2400.0)], ["IndexSound", SoundMaker.click(0.03, 4200.0)], ["GateSound", SoundMaker.click(0.05, 1400.0)], ["EjectSound", SoundMaker.click(0.04, 2900.0)], ["LoadSound", SoundMaker.click(0.04, 1100.0)]]:
		var player := AudioStreamPlayer3D.new()
		player.name = s[0]
		player.stream = s[1]
		gun.add_child(player)
	return gun


## The gun's look alone (the same parts under a plain Node3D, no physics, no `Revolver`): what
## another player's revolver is drawn as (`VRAvatarSync.remote_revolver_scene`).
static func build_look() -> Node3D:
	var gun := build()
	var look := Node3D.new()
	look.name = "RevolverLook"
	for child in gun.get_children():
		if child is CollisionShape3D:
			continue
		gun.remove_child(child)
		look.add_child(child)
	gun.free()
	return look


## A holster: an open leather pocket around the anchor, hanging barrel down.
static func build_holster_mesh() -> Node3D:
	var leather := _material(Color(0.36, 0.2, 0.1), 0.0, 0.7)
	var root := Node3D.new()
	root.name = "HolsterMesh"
	# In the anchor's frame (the holstered gun's frame): the pocket is around the barrel and
	# cylinder, which run along -Z from the anchor.
	_box(root, "Pocket", Vector3(0.045, 0.06, 0.19), Vector3(0, 0.0, -0.07), leather)
	_box(root, "Loop", Vector3(0.05, 0.02, 0.05), Vector3(0, -0.04, 0.01), leather)
	return root


static func _material(color: Color, metallic: float, roughness: float) -> StandardMaterial3D:
	var m := StandardMaterial3D.new()
	m.albedo_color = color
	m.metallic = metallic
	m.roughness = roughness
	return m


## A mesh instance named `name` under `parent`, at `pos`.
static func _part(parent: Node3D, name: String, mesh: Mesh, material: Material, pos: Vector3) -> MeshInstance3D:
	var m := MeshInstance3D.new()
	m.name = name
	m.mesh = mesh
	m.material_override = material
	m.position = pos
	parent.add_child(m)
	return m


static func _box(parent: Node3D, name: String, size: Vector3, pos: Vector3, material: Material) -> MeshInstance3D:
	var box := BoxMesh.new()
	box.size = size
	return _part(parent, name, box, material, pos)


static func _cylinder(parent: Node3D, name: String, radius: float, length: float, pos: Vector3, material: Material, rotation_deg: Vector3) -> MeshInstance3D:
	var c := CylinderMesh.new()
	c.top_radius = radius
	c.bottom_radius = radius
	c.height = length
	c.radial_segments = 16
	c.rings = 1
	var m := _part(parent, name, c, material, pos)
	m.rotation_degrees = rotation_deg
	return m


static func _marker(parent: Node3D, name: String, pos: Vector3) -> Marker3D:
	var m := Marker3D.new()
	m.name = name
	m.position = pos
	parent.add_child(m)
	return m


## One cartridge: a brass case with a lead nose, 4 cm long along its Z, in the group
## `vr_arms_rounds` (a `Revolver` loads it when it is brought to its open gate).
static func build_cartridge() -> Node3D:
	var round := Node3D.new()
	round.name = "Cartridge"
	_cylinder(round, "Case", 0.0061, 0.033, Vector3(0, 0, 0.0035), _material(Color(0.78, 0.6, 0.25), 0.8, 0.3), Vector3.RIGHT * 90)
	_cylinder(round, "Bullet", 0.0057, 0.007, Vector3(0, 0, -0.0165), _material(Color(0.45, 0.45, 0.47), 0.5, 0.5), Vector3.RIGHT * 90)
	round.add_to_group("vr_arms_rounds")
	return round


## Twelve cartridges standing in loops along the belt's front left (belt frame: +Z forward, +X
## the body's left), each under a node "Loop<n>" (a holder, group `vr_arms_cartridge_holders`)
## it goes back to when let go. Fills empty loops
## again (a refill).
static func fill_cartridge_loops(belt: Node3D) -> void:
	for i in BELT_CARTRIDGES:
		var loop_name := "Loop%d" % i
		var loop: Node3D = belt.get_node_or_null(loop_name)
		if loop == null:
			var a := deg_to_rad(20.0 + 6.5 * i)
			loop = _marker(belt, loop_name, Vector3(sin(a) * 0.16, -0.02, cos(a) * 0.13))
			# A cartridge taken from it and let go goes back in (CartridgeHand).
			loop.add_to_group("vr_arms_cartridge_holders")
		if loop.get_child_count() == 0:
			var round := build_cartridge()
			# Standing up: the nose (its -Z) toward the sky.
			round.rotation = Vector3(PI / 2, 0, 0)
			loop.add_child(round)


## The cartridges still in the belt's loops.
static func belt_cartridges(belt: Node3D) -> Array:
	var out := []
	for i in BELT_CARTRIDGES:
		var loop := belt.get_node_or_null("Loop%d" % i)
		if loop and loop.get_child_count() > 0:
			out.append(loop.get_child(0))
	return out
