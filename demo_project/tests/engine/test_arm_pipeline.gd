## The arm target pipeline as a node graph in Godot.
extends EngineTest

const OffsetStage := preload("res://tests/engine/helpers/offset_stage.gd")

var _parts: Dictionary
var _probe: VRBodySolver
var _expected: Array = []
var _worst := 0.0
var _compared := 0
var _probe_active := false
const ARM_BONES := ["LeftUpperArm", "LeftLowerArm", "LeftHand", "RightUpperArm", "RightLowerArm", "RightHand"]
var _events: Array = []


func _on_engaged(hand: int) -> void:
	_events.append("engaged %d" % hand)


func _on_released(hand: int) -> void:
	_events.append("released %d" % hand)


func _process(delta: float) -> void:
	# Priority 0: after every pipeline stage (-1000..-600), before the skeleton update. The
	# skeleton still shows the unmodified pose here, as the core pipeline expects.
	if not _probe_active:
		return
	var p := _parts
	var s: Skeleton3D = p.skeleton
	var out: Dictionary = _probe.step(s, p.avatar.global_transform, null, p.left.global_transform, p.right.global_transform, delta)
	_expected = ARM_BONES.map(func(n): return out.bones.get(s.find_bone(n), Quaternion()))


func _on_skeleton_updated() -> void:
	if not _probe_active or _expected.size() != 6:
		return
	var s: Skeleton3D = _parts.skeleton
	for i in 6:
		var got := s.get_bone_pose_rotation(s.find_bone(ARM_BONES[i]))
		_worst = maxf(_worst, _angle_between(got, _expected[i]))
	_compared += 1


## Angle between two rotations, accurate for tiny angles (angle_to's acos is not, in float32).
static func _angle_between(a: Quaternion, b: Quaternion) -> float:
	var d := a * b.inverse()
	return 2.0 * atan2(Vector3(d.x, d.y, d.z).length(), absf(d.w))


## Motion through reach, overhead, across the chest and near the body, so every stateful stage
## (recoil, avoidance and guard smoothing, soft IK, hint smoothing) is exercised.
func _motion(t: float) -> Array:
	var left := Vector3(0.3 + 0.25 * sin(t * 2.0), 1.2 + 0.7 * sin(t * 1.3), 0.2 + 0.3 * cos(t * 1.7))
	var right := Vector3(-0.1 + 0.3 * cos(t * 2.3), 1.1 + 0.3 * sin(t * 3.1), 0.05 + 0.35 * sin(t * 0.9))
	var rot := Basis.from_euler(Vector3(0.4 * sin(t), 0.8 * cos(t * 0.7), 0.3 * sin(t * 2.0)))
	return [Transform3D(rot, left), Transform3D(rot.inverse(), right)]


func test_node_graph_matches_the_core_pipeline() -> void:
	_parts = make_pipeline_rig()
	_probe = VRBodySolver.new()
	# The arm pipeline's nodes only: the core's body with its other steps off.
	for step in ["follow_head", "spine", "clavicles", "forearm_twist", "fingers"]:
		_probe.set(step, false)
	check(_probe.configure(_parts.skeleton), "the core's body configured on the same skeleton")
	var s: Skeleton3D = _parts.skeleton
	s.skeleton_updated.connect(_on_skeleton_updated)
	var sim: XRTrackingSimulator = _parts.simulator
	var poses := _motion(0.0)
	sim.set_hand_pose(VRArms.Hand.LEFT, poses[0])
	sim.set_hand_pose(VRArms.Hand.RIGHT, poses[1])
	_probe_active = true
	# The same kick on both: recoil jitter is deterministic, so they stay in step.
	_parts.controller_targets.add_recoil(VRArms.Hand.RIGHT, Vector3(0, 0.02, 0.05), Vector3(15, 0, 0))
	_probe.add_recoil(1, Vector3(0, 0.02, 0.05), Vector3(15, 0, 0))
	for i in 150:
		var t := i / 60.0
		poses = _motion(t)
		sim.set_hand_pose(VRArms.Hand.LEFT, poses[0])
		sim.set_hand_pose(VRArms.Hand.RIGHT, poses[1])
		await frames(1)
	_probe_active = false
	s.skeleton_updated.disconnect(_on_skeleton_updated)
	check(_compared >= 140, "compared %d frames" % _compared)
	check(_worst < 1e-4, "node graph and core pipeline agree on every bone within 1e-4 rad (worst %.7f rad)" % _worst)


func test_a_user_stage_between_two_priorities_is_respected() -> void:
	var p := make_pipeline_rig()
	var m: Dictionary = p.markers
	var user := OffsetStage.new()
	user.name = "UserStage"
	user.process_priority = -850  # between BodyAvoidance (-900) and ReachClamp (-800)
	user.input = m.left_avoided
	var shifted := Marker3D.new()
	add_child(shifted)
	user.output = shifted
	user.offset = Vector3(0, 0.05, 0)
	add_child(user)
	var rc: ReachClamp = p.reach_clamp
	rc.left_input = shifted
	var target := Vector3(0.35, 1.1, 0.3)
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), target))
	await frames(3)
	# Move, then check the very same frame: the user stage saw BodyAvoidance's output of this
	# frame and ReachClamp used the user's output.
	target = Vector3(0.3, 1.0, 0.35)
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), target))
	await p.skeleton.skeleton_updated
	check_vec_near(bone_global_position(p.skeleton, "LeftHand"), target + Vector3(0, 0.05, 0), 0.001, "hand = controller + user offset in the same frame")
	var order := [ControllerTargets.new(), BodyAvoidance.new(), ReachClamp.new(), TargetRouter.new(), ElbowHintSolver.new()]
	var priorities := order.map(func(n): return n.process_priority)
	check(priorities == [-1098, -900, -800, -700, -600], "default priorities follow the design's order: %s" % [priorities])
	for n in order:
		n.free()


func test_router_override_blends_in_and_out_with_signals() -> void:
	var p := make_pipeline_rig()
	var tr: TargetRouter = p.router
	_events.clear()
	var events := _events
	tr.override_engaged.connect(_on_engaged)
	tr.override_released.connect(_on_released)
	var draw_target := Marker3D.new()
	add_child(draw_target)
	draw_target.global_position = Vector3(-0.25, 1.0, 0.15)
	p.simulator.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.3, 1.2, 0.35)))
	await frames(2)
	tr.set_override(1, draw_target)
	await frames(40)
	check(events == ["engaged 1"], "engaged once: %s" % [events])
	await p.skeleton.skeleton_updated
	check_vec_near(bone_global_position(p.skeleton, "RightHand"), draw_target.global_position, 0.002, "arm follows the override")
	tr.clear_override(1)
	await frames(40)
	check(events == ["engaged 1", "released 1"], "released once: %s" % [events])
	await p.skeleton.skeleton_updated
	check_vec_near(bone_global_position(p.skeleton, "RightHand"), Vector3(-0.3, 1.2, 0.35), 0.002, "back on the controller")


func test_recoil_kicks_the_hand_and_returns() -> void:
	var p := make_pipeline_rig()
	var target := Vector3(-0.25, 1.25, 0.4)
	p.simulator.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), target))
	await frames(3)
	p.controller_targets.add_recoil(VRArms.Hand.RIGHT, Vector3(0, 0.03, 0.06), Vector3(20, 0, 0))
	var peak := 0.0
	for i in 10:
		await p.skeleton.skeleton_updated
		peak = maxf(peak, bone_global_position(p.skeleton, "RightHand").distance_to(target))
	check(peak > 0.03, "recoil moved the hand (%.3f m)" % peak)
	await frames(150)
	await p.skeleton.skeleton_updated
	check_vec_near(bone_global_position(p.skeleton, "RightHand"), target, 0.001, "hand back on the controller")


func test_profiles_round_trip_and_bad_toml_keeps_settings() -> void:
	expect_errors(1)
	var p := make_pipeline_rig()
	var rc: ReachClamp = p.reach_clamp
	var eh: ElbowHintSolver = p.elbow_hints
	rc.exact_hands_mode = false
	rc.overhead_clamp_ratio = 0.9
	eh.forearm_cue_weight = 0.25
	var path := "user://test_profile.toml"
	DirAccess.remove_absolute(ProjectSettings.globalize_path(path))
	check(rc.save_profile(path) and eh.save_profile(path), "profiles saved")
	var text := FileAccess.get_file_as_string(path)
	check(text.contains("[reach_clamp]") and text.contains("[elbow_hint]"), "both sections in one file")
	rc.exact_hands_mode = true
	rc.overhead_clamp_ratio = 0.8
	eh.forearm_cue_weight = 1.0
	check(rc.load_profile(path) and eh.load_profile(path), "profiles loaded")
	check(rc.exact_hands_mode == false, "exact_hands_mode restored")
	check_near(rc.overhead_clamp_ratio, 0.9, 1e-6, "overhead_clamp_ratio restored")
	check_near(eh.forearm_cue_weight, 0.25, 1e-6, "forearm_cue_weight restored")
	var bad := "user://bad_profile.toml"
	var f := FileAccess.open(bad, FileAccess.WRITE)
	f.store_string("[reach_clamp]\nexact_hands_mode = true\noverhead_clamp_ratio = \"high\"\n")
	f.close()
	check(not rc.load_profile(bad), "bad TOML refused")
	check(rc.exact_hands_mode == false and is_equal_approx(rc.overhead_clamp_ratio, 0.9), "previous settings kept")


func test_shipped_profiles_load() -> void:
	var p := make_pipeline_rig()
	for name in ["local_player", "remote_player"]:
		var path := "res://addons/vr_arms/profiles/%s.toml" % name
		for stage in [p.controller_targets, p.body_avoidance, p.reach_clamp, p.router, p.elbow_hints, p.rig, BodyFollow.new(), UpperBodyFollow.new(), ClavicleFollow.new(), ForearmTwist.new()]:
			check(stage.load_profile(path), "%s loads %s" % [stage.get_class(), path])
			if not stage.is_inside_tree():
				stage.free()
	check(p.reach_clamp.exact_hands_mode == false, "remote profile: full clamp mode")
	await frames(1)


func test_debug_view_draws_the_markers() -> void:
	var p := make_pipeline_rig()
	var target := Vector3(0.3, 1.1, 0.35)
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), target))
	p.controller_targets.debug_draw = true
	p.reach_clamp.debug_draw = true
	p.rig.debug_draw = true
	await frames(3)
	for node in [p.controller_targets, p.reach_clamp, p.rig]:
		var spheres: Array = node.get_children(true).filter(func(c): return c is MeshInstance3D)
		check(spheres.size() >= 2, "%s draws markers (%d)" % [node.name, spheres.size()])
		var near: Array = spheres.filter(func(c): return c.visible and c.global_position.distance_to(target) < 0.01)
		check(near.size() >= 1, "%s has a visible marker on the left target" % node.name)
	p.controller_targets.debug_draw = false
	await frames(2)
	var left: Array = p.controller_targets.get_children(true).filter(func(c): return c is MeshInstance3D and not c.is_queued_for_deletion())
	check(left.is_empty(), "markers removed when debug drawing is off")


func test_body_avoidance_uses_the_avatars_own_torso() -> void:
	var p := make_pipeline_rig()
	var s: Skeleton3D = p.skeleton
	var sim: XRTrackingSimulator = p.simulator
	await frames(2)
	# The torso hangs from the upper-arm bones: 0.25 of their span ahead of their midpoint.
	var l_sh := bone_global_position(s, "LeftUpperArm")
	var r_sh := bone_global_position(s, "RightUpperArm")
	var mid := (l_sh + r_sh) * 0.5
	var front := 0.25 * l_sh.distance_to(r_sh)
	var avoided: Node3D = p.markers["left_avoided"]
	var avoidance: BodyAvoidance = p.body_avoidance
	# Exact hands (the default): a controller inside the chest (0.2 m under the shoulder line,
	# 2 cm ahead of it), within the arm's reach, stays where it is.
	check(avoidance.exact_hands, "exact hands by default")
	var inside := mid + Vector3(0.0, -0.2, 0.02)
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), inside))
	await frames(90)
	check(VRArmTargets.global_position_of(avoided).distance_to(inside) < 1e-4, "exact hands: a reachable hand inside the chest stays on its controller: %s" % VRArmTargets.global_position_of(avoided))
	# Full mode (remote players): it comes out through the chest's front.
	avoidance.exact_hands = false
	await frames(90)
	var out := VRArmTargets.global_position_of(avoided)
	check(absf(out.z - (mid.z + front)) < 1e-3 and out.distance_to(Vector3(inside.x, inside.y, mid.z + front)) < 1e-3,
		"pushed to the torso's front at z %.4f: %s" % [mid.z + front, out])
	# Just in front of the chest it is not inside: the hand stays on its controller.
	var outside := mid + Vector3(0.0, -0.2, front + 0.01)
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), outside))
	await frames(90)
	check(VRArmTargets.global_position_of(avoided).distance_to(outside) < 1e-4, "a hand in front passes: %s" % VRArmTargets.global_position_of(avoided))
	# A narrower avatar (the same skeleton scaled down) has a narrower torso: a point inside the
	# first one's front is outside the smaller one's.
	p.avatar.scale = Vector3.ONE * 0.8
	await frames(2)
	l_sh = bone_global_position(s, "LeftUpperArm")
	r_sh = bone_global_position(s, "RightUpperArm")
	mid = (l_sh + r_sh) * 0.5
	var small_front := 0.25 * l_sh.distance_to(r_sh)
	var between := mid + Vector3(0.0, -0.15, (small_front + front) * 0.5)
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), between))
	await frames(90)
	check(VRArmTargets.global_position_of(avoided).distance_to(between) < 1e-4, "outside the smaller torso: %s" % VRArmTargets.global_position_of(avoided))


## A target node that only our stages read is handed over in memory and not moved every frame;
## scripts read it through VRArmTargets; debug drawing moves it again; a stage that leaves the
## tree leaves its node at its last output.
func test_targets_only_our_stages_read_are_handed_over_in_memory() -> void:
	var p := make_pipeline_rig()
	var m: Dictionary = p.markers
	var sim: XRTrackingSimulator = p.simulator
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.3, 1.1, 0.3)))
	await frames(5)
	var avoided: Node3D = m.left_avoided
	var held := avoided.global_position
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.2, 1.2, 0.2)))
	await frames(3)
	var now := VRArmTargets.global_position_of(avoided)
	var raw := VRArmTargets.global_position_of(m.left_raw)
	check(now.distance_to(held) > 0.05, "the target moved (%s -> %s)" % [held, now])
	check(now.distance_to(raw) < 1e-4, "a reachable hand in front passes body avoidance: %s vs %s" % [now, raw])
	check(avoided.global_position.distance_to(held) < 1e-6, "the node only ReachClamp reads is not moved: %s" % avoided.global_position)
	await p.skeleton.skeleton_updated
	check_vec_near(bone_global_position(p.skeleton, "LeftHand"), now, 0.001, "the hand is where the relayed target is")
	# Debug drawing shows the targets: ReachClamp's nodes move again.
	var rc: ReachClamp = p.reach_clamp
	rc.debug_draw = true
	await frames(2)
	var clamped: Node3D = m.left_clamped
	check(clamped.global_position.distance_to(VRArmTargets.global_position_of(clamped)) < 1e-5, "with debug drawing the node is current: %s" % clamped.global_position)
	rc.debug_draw = false
	# Every node every frame, when asked (scripts that read the nodes themselves).
	check(not VRArmTargets.is_always_updating_nodes(), "off by default")
	const SETTING := "vr_arms/pipeline/always_update_target_nodes"
	check(ProjectSettings.has_setting(SETTING) and ProjectSettings.get_setting(SETTING) == false, "the project setting is registered, off")
	VRArmTargets.set_always_update_nodes(true)
	await frames(2)
	check(avoided.global_position.distance_to(VRArmTargets.global_position_of(avoided)) < 1e-5, "always updated: the node is current")
	VRArmTargets.set_always_update_nodes(false)
	# A removed stage leaves its node at its last output; the next stage then reads the node.
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.35, 1.2, 0.25)))
	await frames(3)
	var last := VRArmTargets.global_position_of(avoided)
	var ba: BodyAvoidance = p.body_avoidance
	ba.get_parent().remove_child(ba)
	check(avoided.global_position.distance_to(last) < 1e-5, "left at its last output: %s vs %s" % [avoided.global_position, last])
	await frames(2)
	check(VRArmTargets.global_position_of(clamped).distance_to(last) < 1e-4, "ReachClamp reads the node now")
	ba.free()
	# An output rewired at runtime: the old node is left at its last output, the new one is fed.
	var old_clamped := VRArmTargets.global_position_of(clamped)
	var other := Marker3D.new()
	add_child(other)
	rc.left_output = other
	check(clamped.global_position.distance_to(old_clamped) < 1e-5, "the old output node is left at its last pose: %s vs %s" % [clamped.global_position, old_clamped])
	await frames(2)
	check(VRArmTargets.global_position_of(other).distance_to(old_clamped) < 1e-4, "the new output node gets the target")
	other.queue_free()


## The crowd budget: with `update_interval_frames = 3` the stages that share the rig work one
## frame in three, the hand still moves every frame (blended between solves), and it settles on
## a target that stops.
func test_an_update_budget_solves_every_third_frame_and_blends_between() -> void:
	var p := make_pipeline_rig()
	var rig: VRArmRig = p.rig
	rig.update_interval_frames = 3
	var sim: XRTrackingSimulator = p.simulator
	var start := Vector3(0.3, 1.1, 0.3)
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), start))
	await frames(6)
	var hands: Array[Vector3] = []
	var record := func() -> void: hands.append(bone_global_position(p.skeleton, "LeftHand"))
	p.skeleton.skeleton_updated.connect(record)
	var clamped: Node3D = p.markers.left_clamped
	var target_changes := 0
	var last_target := VRArmTargets.global_position_of(clamped)
	for i in 12:
		sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), start + Vector3(0.0, 0.01 * (i + 1), 0.0)))
		await frames(1)
		var t := VRArmTargets.global_position_of(clamped)
		if t.distance_to(last_target) > 1e-6:
			target_changes += 1
		last_target = t
	check(target_changes >= 3 and target_changes <= 5, "ReachClamp worked one frame in three (%d of 12)" % target_changes)
	var moving := 0
	for i in range(1, hands.size()):
		if hands[i].distance_to(hands[i - 1]) > 1e-5:
			moving += 1
	check(moving >= hands.size() - 2, "the hand moves every frame between solves (%d of %d)" % [moving, hands.size() - 1])
	await frames(8)
	await p.skeleton.skeleton_updated
	var final := start + Vector3(0.0, 0.12, 0.0)
	check_vec_near(bone_global_position(p.skeleton, "LeftHand"), final, 0.001, "settles on a target that stopped")
	p.skeleton.skeleton_updated.disconnect(record)
	# The budget counts idle frames: with modifiers per physics tick it is off, and says so.
	var skeleton: Skeleton3D = p.skeleton
	skeleton.modifier_callback_mode_process = Skeleton3D.MODIFIER_CALLBACK_MODE_PROCESS_PHYSICS
	var problems := rig.get_setup_problems()
	check(Array(problems).any(func(m): return "modifier_callback_mode_process" in m), "a physics-mode skeleton is reported: %s" % [problems])
	skeleton.modifier_callback_mode_process = Skeleton3D.MODIFIER_CALLBACK_MODE_PROCESS_IDLE
	rig.update_interval_frames = 1
	check(rig.get("update_interval_frames") == 1, "back to every frame")
	check(rig.get_setup_problems().is_empty(), "no problem at interval 1")
