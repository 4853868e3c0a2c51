## A scaled avatar (as AvatarCalibrator scales a player's avatar): the target stages compare the
## arm's length with world distances in world units, so the reach clamp holds a far target at
## `hard_clamp_ratio` x the arm's world length whatever the skeleton's scale.
extends EngineTest


func _clamped_reach_ratio(scale: float) -> float:
	var p := make_pipeline_rig()
	var skeleton: Skeleton3D = p.skeleton
	skeleton.scale = Vector3.ONE * scale
	var clamp: ReachClamp = p.reach_clamp
	clamp.exact_hands_mode = false
	p.simulator.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.3, 1.4, 2.5) * scale))
	await seconds(1.0)
	var rig: VRArmRig = p.rig
	var shoulder := rig.get_shoulder_global_position(1)
	var clamped: Node3D = p.markers.right_clamped
	var world_arm := rig.get_arm_length(1) * scale
	return shoulder.distance_to(VRArmTargets.global_position_of(clamped)) / world_arm


func test_the_reach_clamp_uses_the_arms_world_length() -> void:
	for scale in [0.8, 1.0, 1.25]:
		var ratio: float = await _clamped_reach_ratio(scale)
		check_near(ratio, 0.98, 0.01, "skeleton x%.2f: a far target is held at 0.98 of the arm's world length" % scale)


## Controller positions for an unscaled player, head at (0, 1.65, 0) looking down -Z: in
## front, overhead, across the body, and out of reach.
const REACHES := [
	Vector3(0.2, 1.25, -0.35),
	Vector3(0.15, 2.05, -0.1),
	Vector3(-0.15, 1.2, -0.3),
	Vector3(0.3, 1.45, -0.9),
]


## Right elbow and hand (world, divided by `scale`) for each reach, the whole scene scaled by
## `scale` about the origin: the avatar, the head and the controllers.
func _poses(scale: float) -> Array:
	var character := Node3D.new()
	add_child(character)
	# Scaled at the character root, as AvatarCalibrator scales a calibrated player's avatar.
	character.scale = Vector3.ONE * scale
	var skeleton := HumanoidBuilder.build()
	character.add_child(skeleton)
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	var created := VRArmsSetup.setup_skeleton(skeleton, null, null)
	# The scale is this test's, not the headset's.
	created.calibrator.scale_at_tracking_start = false
	sim.set_head_pose(Transform3D(Basis(), Vector3(0, 1.65, 0) * scale))
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(-0.2, 1.15, -0.3) * scale))
	var out := []
	for reach in REACHES:
		sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), reach * scale))
		await seconds(1.0)
		await skeleton.skeleton_updated
		out.append([bone_global_position(skeleton, "RightLowerArm") / scale, bone_global_position(skeleton, "RightHand") / scale])
	for key in created:
		var n = created[key]
		if n is Node and is_instance_valid(n) and not n.is_queued_for_deletion():
			n.queue_free()
	character.queue_free()
	sim.queue_free()
	await frames(2)
	return out


func test_scaled_skeletons_reach_the_same_relative_pose() -> void:
	var plain: Array = await _poses(1.0)
	for scale in [0.8, 1.25]:
		var scaled: Array = await _poses(scale)
		for i in REACHES.size():
			check_vec_near(scaled[i][0], plain[i][0], 0.01, "x%.2f, reach %s: elbow (relative)" % [scale, REACHES[i]])
			check_vec_near(scaled[i][1], plain[i][1], 0.01, "x%.2f, reach %s: hand (relative)" % [scale, REACHES[i]])


## VRBodySolver (no nodes) on an avatar scaled 1.25 (its root, as AvatarCalibrator scales it)
## with its tracked points scaled alike gives the same bone rotations as unscaled: every bone it
## writes, the spine, clavicles and fingers too.
func test_the_body_solver_gives_a_scaled_skeleton_the_same_rotations() -> void:
	var answers := []
	for scale in [1.0, 1.25]:
		var avatar := Node3D.new()
		avatar.scale = Vector3.ONE * scale
		add_child(avatar)
		var skeleton := HumanoidBuilder.build()
		avatar.add_child(skeleton)
		var solver := VRBodySolver.new()
		solver.follow_head = false
		check(solver.configure(skeleton), "configured")
		solver.set_hand_input(VRArms.Hand.LEFT, 0.6, 0.2)
		var head := Transform3D(Basis(Vector3.UP, PI - 0.4), Vector3(0.0, 1.6, 0.05) * scale)
		var left := Transform3D(Basis(), Vector3(0.35, 1.25, 0.3) * scale)
		var right := Transform3D(Basis(), Vector3(-0.2, 1.9, 0.15) * scale)
		var out: Dictionary = {}
		for i in 60:
			out = solver.step(skeleton, avatar.global_transform, head, left, right, 1.0 / 90.0)
		answers.append(out.bones)
		avatar.free()
	check(answers[0].size() > 20 and answers[0].keys() == answers[1].keys(), "the same %d bones written" % answers[0].size())
	var worst := 0.0
	var worst_bone := -1
	for bone in answers[0]:
		var a := rad_to_deg(answers[0][bone].angle_to(answers[1][bone]))
		if a > worst:
			worst = a
			worst_bone = bone
	check(worst < 0.5, "every bone turned alike at scale 1.25 (worst %.3f deg apart, bone %d)" % [worst, worst_bone])
