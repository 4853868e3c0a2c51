## VRArmsSetup: one call turns a bare humanoid skeleton into a working VR body.
extends EngineTest


func test_setup_on_a_bare_humanoid_gives_a_working_rig() -> void:
	var created := make_set_up_body()
	var character: Node3D = created.character
	var skeleton: Skeleton3D = created.skeleton
	var sim: XRTrackingSimulator = created.simulator
	for key in ["origin", "camera", "left_controller", "right_controller", "rig", "upper_body_follow", "lower_body", "clavicle_follow", "forearm_twist", "hand_pose_copy", "body_follow", "controller_targets", "body_avoidance", "reach_clamp", "router", "elbow_hints", "left_hand_pose", "right_hand_pose", "calibrator", "first_person_head"]:
		check(created.has(key) and created[key] != null, "created %s" % key)
	var order := skeleton.get_children().map(func(c): return c.get_class())
	check(order == ["UpperBodyFollow", "LowerBodyRig", "ClavicleFollow", "VRArmRig", "ForearmTwist", "HandPoseCopy"], "modifiers in order: %s" % [order])
	for key in ["rig", "upper_body_follow", "lower_body", "clavicle_follow", "forearm_twist", "hand_pose_copy", "body_follow", "controller_targets", "body_avoidance", "reach_clamp", "router", "elbow_hints"]:
		var problems: PackedStringArray = created[key].get_setup_problems()
		check(problems.is_empty(), "%s is fully configured: %s" % [key, problems])
	await check_hands_reach_the_controllers(sim, skeleton)
	check(character.global_position.distance_to(Vector3(0, 0, -0.08)) < 0.01, "the character stands under the head (%s)" % character.global_position)
	# The hidden hand-pose source runs no modifier pass (Godot's compatibility physical bone
	# simulator would run one over its bones every frame), yet a grip still curls the fingers.
	var source: Skeleton3D = created.hand_pose_copy.source_skeleton
	check(source.modifier_callback_mode_process == Skeleton3D.MODIFIER_CALLBACK_MODE_PROCESS_MANUAL, "the hand-pose source's modifiers do not run by themselves")
	sim.set_input(VRArms.Hand.LEFT, "grip", 1.0)
	await frames(3)
	await skeleton.skeleton_updated
	check_near(curl_of(skeleton, "LeftMiddleIntermediate"), 75.0, 1.0, "a full grip curls the avatar's middle finger through the setup")
	# Setting up twice is refused, with one error.
	expect_errors(1)
	check(VRArmsSetup.setup_skeleton(skeleton, null, null).is_empty(), "a second setup is refused")


## A rig whose hips the names do not tell: the body is set up without its lower half, and
## setup says so once (before, nothing was said and the legs just kept their pose).
func test_a_rig_without_hips_is_set_up_without_legs_and_says_so_once() -> void:
	var skeleton := make_humanoid_character("NoHips")
	skeleton.set_bone_name(skeleton.find_bone("Hips"), "Body")
	expect_warnings(1)
	var created := VRArmsSetup.setup_skeleton(skeleton, null, null)
	check(created.has("rig") and created.rig != null, "the arms are set up")
	check(created.get("lower_body") == null, "no lower body")
	await frames(3)


func test_setup_refuses_a_non_humanoid_skeleton() -> void:
	expect_errors(1)
	var s := Skeleton3D.new()
	s.add_bone("root")
	add_child(s)
	check(VRArmsSetup.setup_skeleton(s, null, null).is_empty(), "nothing created")
	check(s.get_child_count() == 0, "skeleton untouched")
	await frames(1)


func test_null_arguments_give_a_clear_error() -> void:
	expect_errors(2)
	check(VRArmsSetup.setup_skeleton(null, null, null).is_empty(), "setup_skeleton(null) creates nothing")
	check(VRArmsSetup.wire_pipeline(null, null, null, null).is_empty(), "wire_pipeline(null, ...) creates nothing")
	await frames(1)


func test_setup_problems_are_right_just_after_add_child() -> void:
	# Each modifier, unconfigured, also reports its (real) problems once at runtime, as a warning.
	expect_warnings(12)
	for in_tree in [false, true]:
		var skeleton := HumanoidBuilder.build()
		if in_tree:
			add_child(skeleton)
		for cls in ["VRArmRig", "UpperBodyFollow", "LowerBodyRig", "ClavicleFollow", "ForearmTwist", "HandPoseCopy"]:
			var modifier: Node = ClassDB.instantiate(cls)
			skeleton.add_child(modifier)
			var problems := Array(modifier.get_setup_problems())
			check(problems.all(func(p): return not "must be a child of a Skeleton3D" in p), "%s right after add_child (skeleton in the tree: %s): %s" % [cls, in_tree, problems])
		if not in_tree:
			add_child(skeleton)


func test_a_freed_rig_is_reported_as_freed_not_as_unset() -> void:
	var skeleton := HumanoidBuilder.build()
	add_child(skeleton)
	var rig := VRArmRig.new()
	for side in ["left", "right"]:
		var target := Marker3D.new()
		add_child(target)
		rig.set(side + "_target", target)
	skeleton.add_child(rig)
	var clavicles := ClavicleFollow.new()
	clavicles.rig = rig
	skeleton.add_child(clavicles)
	var twist := ForearmTwist.new()
	twist.rig = rig
	skeleton.add_child(twist)
	var clamp := ReachClamp.new()
	clamp.rig = rig
	add_child(clamp)
	rig.free()
	for stage in [clavicles, twist, clamp]:
		var problems := Array(stage.get_setup_problems())
		check(problems.any(func(p): return "has been freed" in p), "%s says its rig was freed: %s" % [stage.get_class(), problems])
		check(problems.all(func(p): return not p.begins_with("Set \"rig\"")), "%s does not ask to set an unset rig: %s" % [stage.get_class(), problems])
	# Freed now, before a frame: their runtime report of the same problem is not this test's.
	skeleton.free()
	clamp.free()


## Modifiers run in the skeleton's child order: each bone writer that must run before or after
## the rig says so when it is on the wrong side of it.
func test_a_wrong_modifier_order_is_a_configuration_warning() -> void:
	var b := make_set_up_body()
	var skeleton: Skeleton3D = b.skeleton
	var rig: VRArmRig = b.rig
	for key in ["upper_body_follow", "clavicle_follow", "forearm_twist", "hand_pose_copy"]:
		check(not Array(b[key].get_setup_problems()).any(func(p): return "must run" in p), "%s in the setup's order has no order problem" % key)
	# The rig first: the spine and clavicles now run after it.
	skeleton.move_child(rig, 0)
	for key in ["upper_body_follow", "clavicle_follow"]:
		var problems := Array(b[key].get_setup_problems())
		check(problems.any(func(p): return "must run before the VRArmRig" in p), "%s after the rig: %s" % [key, problems])
	# The rig last: twist and finger copy now run before it.
	skeleton.move_child(rig, skeleton.get_child_count() - 1)
	for key in ["forearm_twist", "hand_pose_copy"]:
		var problems := Array(b[key].get_setup_problems())
		check(problems.any(func(p): return "must run after the VRArmRig" in p), "%s before the rig: %s" % [key, problems])
	check(not Array(b.upper_body_follow.get_setup_problems()).any(func(p): return "must run" in p), "the spine before the rig again is fine")
	await frames(1)


func test_two_characters_get_readable_pipeline_names() -> void:
	var names := []
	for i in 2:
		var character := Node3D.new()
		character.name = "Character%d" % i
		add_child(character)
		var skeleton := HumanoidBuilder.build()
		character.add_child(skeleton)
		var made := VRArmsSetup.setup_skeleton(skeleton, null, null)
		names.append(String(made.pipeline.name))
	check(names == ["VRArmsStages", "VRArmsStages2"], "readable names: %s" % [names])
	await frames(1)


## A character instanced from a scene at run time (its nodes owned by its own root), set up from
## code with a multiplayer sync: no owner errors for the nodes placed beside it, which the
## character's root cannot own, and the character's own nodes keep their owner.
func test_a_character_instanced_at_run_time_sets_up_without_owner_errors() -> void:
	var scene := HumanoidBuilder.build_scene("Character")
	var character: Node3D = scene.instantiate()
	var holder := Node3D.new()
	add_child(holder)
	holder.add_child(character)
	var sk: Skeleton3D = character.get_node("Skeleton3D")
	check(sk.owner == character, "the instanced skeleton is owned by its scene's root")
	var setup := VRArmsSetup.setup_skeleton(sk, null, null)
	check(not setup.is_empty(), "set up")
	var sync := VRArmsSetup.add_avatar_sync(setup, scene)
	check(sync != null, "and a VRAvatarSync added")
	var remote_character: Node3D = scene.instantiate()
	holder.add_child(remote_character)
	var remote := VRArmsSetup.setup_remote(remote_character.get_node("Skeleton3D"), null, null, null)
	check(not remote.is_empty(), "a remote body set up on another instance")
	# The rig under the skeleton is inside the character: its root owns it, as before.
	check((setup.rig as Node).owner == character, "the nodes inside the character are owned by it")
	check((setup.origin as Node).owner == null and sync.owner == null, "the nodes beside it are left unowned")
	# (The runner fails the test on any engine error: Godot refuses an owner that is no ancestor
	# with one error per node.)
	holder.queue_free()


func test_the_players_origin_is_found_above_an_imported_characters_nodes() -> void:
	# An imported file's character sits nodes deep (Character > RootNode > Skeleton3D); the
	# player's XROrigin3D is beside the character, not beside the skeleton's parent.
	var level := Node3D.new()
	add_child(level)
	var origin := XROrigin3D.new()
	level.add_child(origin)
	var character := Node3D.new()
	character.name = "Character"
	level.add_child(character)
	var root_node := Node3D.new()
	root_node.name = "RootNode"
	character.add_child(root_node)
	var skeleton := HumanoidBuilder.build()
	root_node.add_child(skeleton)
	var setup := VRArmsSetup.setup_skeleton(skeleton, null, null)
	check(not setup.is_empty(), "set up")
	check(setup.origin == origin, "the level's own XROrigin3D is used")
	var origins := level.find_children("*", "XROrigin3D", true, false)
	check(origins.size() == 1, "no second XROrigin3D is made (%d)" % origins.size())
	level.queue_free()


## A game rig lacking the bones avatars often lack (KayKit's mannequin: no neck, no shoulder
## bones, no fingers, no eyes) sets up with at most one warning, at most one line about each
## lacking bone, no configuration warning on the nodes it made, and nothing more while the body
## runs for a second.
func test_a_rig_lacking_neck_shoulders_fingers_and_eyes_says_each_at_most_once() -> void:
	var character := load_test_avatar("manny_med_mod.gltf")
	var skeleton: Skeleton3D = character.find_children("*", "Skeleton3D", true, false)[0]
	for lacking in ["Neck", "LeftShoulder", "LeftThumbMetacarpal", "LeftEye"]:
		check(skeleton.find_bone(lacking) < 0, "the rig has no %s" % lacking)
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	TestLogger.current.take_messages()
	TestLogger.current.take_warnings()
	var created := VRArmsSetup.setup_skeleton(skeleton, null, null)
	check(created.has("rig") and created.rig != null, "the rig is set up")
	await seconds(1.0)
	var warnings := TestLogger.current.take_warnings()
	var said := TestLogger.current.take_messages()
	check(warnings.size() <= 1, "at most one warning: %s" % [warnings])
	for word in ["neck", "shoulder", "finger", "eye"]:
		var about := (said + warnings).filter(func(m: String) -> bool: return m.to_lower().contains(word))
		check(about.size() <= 1, "at most one line about the %s: %s" % [word, about])
	# Nor a configuration warning in the editor on any node it made (the first-person head
	# hiding a "Neck" the rig lacks would be one, and a broken first-person view).
	for key in created:
		var node = created[key]
		if node is Node and node.has_method("get_setup_problems"):
			check(node.get_setup_problems().is_empty(), "%s: %s" % [key, node.get_setup_problems()])


## A game rig without finger bones (KayKit's mannequin) is told so in one short line, not with
## the thirty humanoid finger names it lacks; the hands keep their pose.
func test_a_rig_without_fingers_is_told_so_in_one_short_line() -> void:
	var character := load_test_avatar("manny_med_mod.gltf")
	var skeleton: Skeleton3D = character.find_children("*", "Skeleton3D", true, false)[0]
	TestLogger.current.take_messages()
	var created := VRArmsSetup.setup_skeleton(skeleton, null, null)
	check(created.has("rig") and created.rig != null, "the rig is set up")
	var said := TestLogger.current.take_messages().filter(func(m: String) -> bool: return m.contains("finger") or m.contains("Thumb"))
	check(said.size() == 1, "one line about the fingers: %s" % [said])
	check(said.size() == 1 and said[0].contains("no finger bones") and not said[0].contains("LeftThumbProximal"), "it says the rig has none, naming no bone: %s" % [said])
	await frames(3)
