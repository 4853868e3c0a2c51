## FirstPersonHead: the player's own camera does not see the inside of the avatar's head, other
## cameras (a mirror) see the whole avatar.
extends EngineTest

const Skinning := preload("res://tools/skinning.gd")


## The demo's generated character (a skinned body and a skinned head) set up in one call, with a
## simulator: the setup's dictionary plus "skeleton", "simulator".
func make_character() -> Dictionary:
	var character := CharacterBuilder.build()
	add_child(character)
	var skeleton: Skeleton3D = character.get_node("Skeleton3D")
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	var b := VRArmsSetup.setup_skeleton(skeleton, null, null)
	b.merge({"skeleton": skeleton, "simulator": sim})
	return b


## Total area (m²) of the meshes' skinned triangles with a corner within `radius` of `point`:
## what a camera there could see. A bone's vertices collapsed onto one point make triangles of
## no area, which cover no pixel.
func area_near(meshes: Array, skeleton: Skeleton3D, point: Vector3, radius: float) -> float:
	var area := 0.0
	for m in meshes:
		var v := Skinning.skinned_vertices(m, skeleton)
		var index: PackedInt32Array = m.mesh.surface_get_arrays(0)[Mesh.ARRAY_INDEX]
		var count := index.size() if index.size() > 0 else v.size()
		for t in range(0, count, 3):
			var c := [t, t + 1, t + 2] if index.is_empty() else [index[t], index[t + 1], index[t + 2]]
			var a: Vector3 = v[c[0]]
			var b: Vector3 = v[c[1]]
			var d: Vector3 = v[c[2]]
			if minf(a.distance_to(point), minf(b.distance_to(point), d.distance_to(point))) < radius:
				area += 0.5 * (b - a).cross(d - a).length()
	return area


func test_the_players_camera_sees_no_head_the_mirror_sees_it_all() -> void:
	var made := make_character()
	var skeleton: Skeleton3D = made.skeleton
	var camera: XRCamera3D = made.camera
	var fph: FirstPersonHead = made.first_person_head
	check(fph.get_setup_problems().is_empty(), "configured by the setup: %s" % [fph.get_setup_problems()])
	var originals := [skeleton.get_node("Body"), skeleton.get_node("Head")]
	var copies := fph.get_first_person_meshes()
	check(copies.size() == 2, "a first-person copy of the body and of the head: %d" % copies.size())
	var fp := 1 << (fph.first_person_layer - 1)
	var tp := 1 << (fph.third_person_layer - 1)
	check(camera.cull_mask & fp != 0 and camera.cull_mask & tp == 0, "the player's camera sees the first-person layer only: %x" % camera.cull_mask)
	for m in originals:
		check(m.layers == tp, "%s is on the third-person layer: %x" % [m.name, m.layers])
		check(m.cast_shadow == GeometryInstance3D.SHADOW_CASTING_SETTING_ON, "%s still casts its shadow" % m.name)
	for m in copies:
		check(m.layers == fp, "%s is on the first-person layer" % m.name)
		check(m.get_node_or_null(m.skeleton) == skeleton, "%s is skinned to the avatar" % m.name)
	var mirror := Camera3D.new()
	add_child(mirror)
	fph.exclude_from_camera(mirror)
	check(mirror.cull_mask & fp == 0 and mirror.cull_mask & tp != 0, "a mirror sees the originals, not the copies: %x" % mirror.cull_mask)
	# The player stands looking forward; the avatar's head is around the camera.
	made.simulator.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	await frames(10)
	await skeleton.skeleton_updated
	var eye := camera.global_position
	var seen_whole := area_near(originals, skeleton, eye, 0.15)
	var seen_first := area_near(copies, skeleton, eye, 0.15)
	check(seen_whole > 0.02, "the whole head surrounds the eyes: %.4f m² within 15 cm" % seen_whole)
	check(seen_first < 1e-6, "what the player's camera sees has no surface within 15 cm of the eyes: %.7f m²" % seen_first)
	# Below the neck the first-person body is the body.
	var body_copy: MeshInstance3D = copies.filter(func(m): return m.name == "BodyFirstPerson")[0]
	for bone in ["LeftHand", "RightLowerArm", "Hips"]:
		var at := bone_global_position(skeleton, bone)
		check_near(area_near([body_copy], skeleton, at, 0.08), area_near([originals[0]], skeleton, at, 0.08), 1e-6, "the first-person body is whole at %s" % bone)
	# Off: all restored.
	fph.enabled = false
	check(fph.get_first_person_meshes().is_empty(), "copies removed")
	check(originals[0].layers == 1 and originals[1].layers == 1 << (CharacterBuilder.HEAD_LAYER - 1), "originals back on their layers")
	check(camera.cull_mask == 0xFFFFF, "the camera's mask restored (Godot's default): %x" % camera.cull_mask)
	fph.enabled = true
	check(fph.get_first_person_meshes().size() == 2, "on again")


## A rig without a neck bone (KayKit's): the setup hides the head bone and what hangs from it,
## so the player's camera is not inside the head, and turns chest and head only; no warning.
func test_a_rig_without_a_neck_hides_its_head() -> void:
	var character := CharacterBuilder.build()
	var skeleton: Skeleton3D = character.get_node("Skeleton3D")
	skeleton.set_bone_name(skeleton.find_bone("Neck"), "Throat")
	add_child(character)
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	var made := VRArmsSetup.setup_skeleton(skeleton, null, null)
	var fph: FirstPersonHead = made.first_person_head
	var follow: UpperBodyFollow = made.upper_body_follow
	check(follow.neck_bone == "" and follow.get_setup_problems().is_empty(), "the upper body turns without a neck: %s" % [follow.get_setup_problems()])
	check(fph.hidden_bone == &"Head", "the head bone is hidden: %s" % fph.hidden_bone)
	check(fph.get_setup_problems().is_empty(), "nothing to report: %s" % [fph.get_setup_problems()])
	var copies := fph.get_first_person_meshes()
	check(copies.size() == 2, "a first-person copy of the body and of the head: %d" % copies.size())
	sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	await frames(10)
	await skeleton.skeleton_updated
	var eye := (made.camera as XRCamera3D).global_position
	var head: MeshInstance3D = skeleton.get_node("Head")
	var head_copy := copies.filter(func(m): return m.name == "HeadFirstPerson")
	check(area_near([head], skeleton, eye, 0.15) > 0.02, "the head surrounds the eyes")
	if check(head_copy.size() == 1, "the head has its copy"):
		var seen := area_near(head_copy, skeleton, eye, 0.15)
		check(seen < 1e-6, "the player's camera sees none of the head within 15 cm of the eyes: %.7f m²" % seen)


## KayKit's mannequin (CC0, tests/avatars), loaded as a user loads a character: no neck, a big
## head around the eyes. Its head meshes' first-person copies show the player's camera no
## surface at all (within 60 cm of the eyes, the whole head), the originals do.
func test_the_kaykit_mannequins_big_head_is_hidden_from_the_players_camera() -> void:
	var character := load_test_avatar("manny_med_mod.gltf")
	if character == null:
		return
	var skeleton: Skeleton3D = character.find_children("*", "Skeleton3D", true, false)[0]
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	sim.set_head_pose(Transform3D(Basis(), Vector3(0, 1.65, 0)))
	var made := VRArmsSetup.setup_skeleton(skeleton, null, null)
	var fph: FirstPersonHead = made.first_person_head
	check(fph.hidden_bone == &"Head", "the head bone is hidden (no neck): %s" % fph.hidden_bone)
	await frames(10)
	await skeleton.skeleton_updated
	var eye := (made.camera as XRCamera3D).global_position
	var heads := []
	for name in ["Mannequin_Medium_Head", "Mannequin_Medium_Head_Screen"]:
		var found := character.find_children(name, "MeshInstance3D", true, false)
		if check(found.size() == 1, "%s is there" % name):
			heads.append(found[0])
	var copies := fph.get_first_person_meshes().filter(func(m): return String(m.name).begins_with("Mannequin_Medium_Head"))
	check(copies.size() == 2, "both head meshes have first-person copies: %d" % copies.size())
	check(area_near(heads, skeleton, eye, 0.6) > 0.05, "the head surrounds the eyes")
	var seen := area_near(copies, skeleton, eye, 0.6)
	check(seen < 1e-6, "the player's camera sees none of the head: %.7f m²" % seen)


func test_a_missing_bone_or_camera_is_a_configuration_warning() -> void:
	expect_warnings(1)  # both problems, in one line
	var skeleton := HumanoidBuilder.build()
	add_child(skeleton)
	var fph := FirstPersonHead.new()
	fph.skeleton = skeleton
	fph.hidden_bone = &"Helmet"
	add_child(fph)
	var problems := Array(fph.get_setup_problems())
	check(problems.size() == 2, "two problems: %s" % [problems])
	check(problems.any(func(p): return "camera" in p) and problems.any(func(p): return "Helmet" in p), "the camera and the bone are named: %s" % [problems])
	check(fph.get_first_person_meshes().is_empty(), "nothing done")
	await frames(1)


func test_two_avatars_on_one_camera_keep_each_others_layers() -> void:
	var camera := Camera3D.new()
	add_child(camera)
	var heads := []
	for i in 2:
		var skeleton := HumanoidBuilder.build()
		add_child(skeleton)
		var fph := FirstPersonHead.new()
		fph.skeleton = skeleton
		fph.camera = camera
		add_child(fph)
		heads.append(fph)
	var fp: int = 1 << (heads[0].first_person_layer - 1)
	var tp: int = 1 << (heads[0].third_person_layer - 1)
	# The first avatar goes (an avatar switch); the second still hides its head.
	heads[0].queue_free()
	await frames(1)
	check(camera.cull_mask & fp != 0 and camera.cull_mask & tp == 0, "the second avatar's layers stay set: %x" % camera.cull_mask)
	heads[1].queue_free()
	await frames(1)
	check(camera.cull_mask == 0xFFFFF, "both gone: the camera's own mask: %x" % camera.cull_mask)
