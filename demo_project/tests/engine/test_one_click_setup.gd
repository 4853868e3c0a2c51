## VRArmsSetup: one call turns a bare humanoid skeleton into a working VR body.
extends EngineTest


func test_setup_on_a_bare_humanoid_gives_a_working_rig() -> void:
	var created := make_set_up_body()
	var character: Node3D = created.character
	var skeleton: Skeleton3D = created.skeleton
	var sim: XRTrackingSimulator = created.simulator
	for key in ["origin", "camera", "left_controller", "right_controller", "rig", "upper_body_follow", "clavicle_follow", "forearm_twist", "hand_pose_copy", "body_follow", "controller_targets", "body_avoidance", "reach_clamp", "router", "elbow_hints", "left_hand_pose", "right_hand_pose", "calibrator"]:
		check(created.has(key) and created[key] != null, "created %s" % key)
	var order := skeleton.get_children().map(func(c): return c.get_class())
	check(order == ["UpperBodyFollow", "ClavicleFollow", "VRArmRig", "ForearmTwist", "HandPoseCopy"], "modifiers in order: %s" % [order])
	for key in ["rig", "upper_body_follow", "clavicle_follow", "forearm_twist", "hand_pose_copy", "body_follow", "controller_targets", "body_avoidance", "reach_clamp", "router", "elbow_hints"]:
		var problems: PackedStringArray = created[key].get_setup_problems()
		check(problems.is_empty(), "%s is fully configured: %s" % [key, problems])
	# The player stands at the origin looking forward (+Z for the avatar), hands in front.
	sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	var left := Vector3(0.3, 1.15, 0.25)
	var right := Vector3(-0.3, 1.2, 0.2)
	sim.set_hand_pose("left", Transform3D(Basis(), left))
	sim.set_hand_pose("right", Transform3D(Basis(), right))
	await frames(10)
	await skeleton.skeleton_updated
	check_vec_near(bone_global_position(skeleton, "LeftHand"), left, 0.001, "left hand on its controller")
	check_vec_near(bone_global_position(skeleton, "RightHand"), right, 0.001, "right hand on its controller")
	check(character.global_position.distance_to(Vector3(0, 0, -0.08)) < 0.01, "the character stands under the head (%s)" % character.global_position)
	# Setting up twice is refused, with one error.
	expect_errors(1)
	check(VRArmsSetup.setup_skeleton(skeleton, null).is_empty(), "a second setup is refused")


func test_setup_refuses_a_non_humanoid_skeleton() -> void:
	expect_errors(1)
	var s := Skeleton3D.new()
	s.add_bone("root")
	add_child(s)
	check(VRArmsSetup.setup_skeleton(s, null).is_empty(), "nothing created")
	check(s.get_child_count() == 0, "skeleton untouched")
	await frames(1)
