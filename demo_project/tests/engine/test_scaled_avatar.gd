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
	p.simulator.set_hand_pose("right", Transform3D(Basis(), Vector3(-0.3, 1.4, 2.5) * scale))
	await seconds(1.0)
	var rig: VRArmRig = p.rig
	var shoulder := rig.get_shoulder_global_position(1)
	var clamped: Node3D = p.markers.right_clamped
	var world_arm := rig.get_arm_length(1) * scale
	return shoulder.distance_to(clamped.global_position) / world_arm


func test_the_reach_clamp_uses_the_arms_world_length() -> void:
	for scale in [0.8, 1.0, 1.25]:
		var ratio: float = await _clamped_reach_ratio(scale)
		check_near(ratio, 0.98, 0.01, "skeleton x%.2f: a far target is held at 0.98 of the arm's world length" % scale)
