## Robustness: tracking loss, hostile input, odd rigs, freed references, hostile files.
extends EngineTest

var _tracking_events: Array = []
var _head_events: Array = []


func _on_tracking_changed(hand: int, tracked: bool) -> void:
	_tracking_events.append([hand, tracked])


func _on_head_tracking_changed(tracked: bool) -> void:
	_head_events.append(tracked)


## A humanoid set up in one call, with the simulator; returns VRArmsSetup's dictionary plus
## "skeleton", "character" and "simulator".
func _body() -> Dictionary:
	var b := make_set_up_body()
	var sim: XRTrackingSimulator = b.simulator
	sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.3, 1.2, 0.3)))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.3, 1.25, 0.35)))
	return b


func test_a_lost_controller_holds_then_eases_to_rest_and_blends_back() -> void:
	var b := _body()
	var sim: XRTrackingSimulator = b.simulator
	var ct: ControllerTargets = b.controller_targets
	ct.tracking_changed.connect(_on_tracking_changed)
	await seconds(1.0)
	var raw: Node3D = b.markers.right_raw
	var held := VRArmTargets.global_position_of(raw)
	sim.set_hand_tracked(VRArms.Hand.RIGHT, false)
	# The controller moves while untracked: the arm must not follow it.
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.6, 1.8, 0.6)))
	await frames(1)
	check(_tracking_events == [[1, false]], "lost reported once: %s" % [_tracking_events])
	check_vec_near(VRArmTargets.global_position_of(raw), held, 0.01, "the hand holds its last good pose at first")
	check(not ct.is_hand_tracked(1), "reported untracked")
	var biggest := 0.0
	var last := VRArmTargets.global_position_of(raw)
	for i in 72:  # 0.6 s at 120 fps
		await frames(1)
		biggest = maxf(biggest, VRArmTargets.global_position_of(raw).distance_to(last))
		last = VRArmTargets.global_position_of(raw)
	var rest: Vector3 = (b.avatar as Node3D).global_transform * ct.right_rest_position
	check_vec_near(VRArmTargets.global_position_of(raw), rest, 0.01, "at rest beside the body after 0.5 s")
	check(biggest < 0.02, "eased: no step over 2 cm per frame (largest %.4f m)" % biggest)
	check(Soak.bones_finite(b.skeleton), "bones finite")
	sim.set_hand_tracked(VRArms.Hand.RIGHT, true)
	await frames(1)
	check(_tracking_events == [[1, false], [1, true]], "regained reported once: %s" % [_tracking_events])
	check(VRArmTargets.global_position_of(raw).distance_to(last) < 0.05, "blends back from where it was, no jump")
	await seconds(0.4)
	var target: Vector3 = (b.right_controller as Node3D).global_position
	check(VRArmTargets.global_position_of(raw).distance_to(target) < 0.15, "back on the controller (raw target %.3f m from it, calibration offset included)" % VRArmTargets.global_position_of(raw).distance_to(target))
	check(_tracking_events.size() == 2, "no further events")


func test_headset_loss_freezes_the_body() -> void:
	var b := _body()
	var sim: XRTrackingSimulator = b.simulator
	b.body_follow.head_tracking_changed.connect(_on_head_tracking_changed)
	await seconds(1.0)
	var character: Node3D = b.character
	var before := character.global_transform
	sim.set_head_tracked(false)
	sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI + 1.0), Vector3(1.0, 1.65, 1.0)))
	await seconds(0.5)
	check(_head_events == [false], "head loss reported once: %s" % [_head_events])
	check(character.global_transform.is_equal_approx(before), "the body did not move while the headset was lost")
	sim.set_head_tracked(true)
	await seconds(1.0)
	check(_head_events == [false, true], "head regained reported: %s" % [_head_events])
	check(character.global_position.distance_to(before.origin) > 0.5, "and the body follows again")


func test_hostile_poses_are_rejected_counted_and_reported_once() -> void:
	var b := _body()
	var sim: XRTrackingSimulator = b.simulator
	var ct: ControllerTargets = b.controller_targets
	await seconds(0.5)
	TestLogger.current.take_warnings()
	var nan := NAN
	for i in 60:
		var bad: Transform3D
		match i % 3:
			0: bad = Transform3D(Basis(), Vector3(nan, 1.0, 0.0))
			1: bad = Transform3D(Basis(), Vector3(1e9, 1.0, 0.0))
			2: bad = Transform3D(Basis(Vector3.ZERO, Vector3.ZERO, Vector3.ZERO), Vector3(0.3, 1.2, 0.3))
		sim.set_hand_pose(VRArms.Hand.LEFT, bad)
		await frames(1)
		check(Soak.bones_finite(b.skeleton), "bones finite on frame %d" % i)
		if failures.size() > 0:
			break
	var counts: Dictionary = ct.get_input_counts()
	check(counts.left.non_finite >= 20 and counts.left.too_far >= 20, "non-finite and far poses counted: %s" % [counts])
	var warnings := TestLogger.current.take_warnings().filter(func(w): return "unusable poses" in w)
	check(warnings.size() >= 1 and warnings.size() <= 2, "reported once, not every frame (%d warnings)" % warnings.size())
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.3, 1.2, 0.3)))
	await seconds(0.5)
	check(ct.is_hand_tracked(0), "a good pose brings the hand back")
	# The headset: a NaN or far pose freezes the body instead of moving it.
	var character: Node3D = b.character
	var before := character.global_transform
	for i in 30:
		var bad := Transform3D(Basis(), Vector3(nan, 1.6, 0.0)) if i % 2 == 0 else Transform3D(Basis(), Vector3(0.0, 1.6, 5e8))
		sim.set_head_pose(bad)
		await frames(1)
		check(Soak.bones_finite(b.skeleton), "bones finite with a bad headset pose (frame %d)" % i)
		if failures.size() > 0:
			break
	check(character.global_transform.is_equal_approx(before), "the body stays where it was")
	var head_warnings := TestLogger.current.take_warnings().filter(func(w): return "headset gave unusable poses" in w)
	check(head_warnings.size() == 1, "the headset's bad poses reported once (%d)" % head_warnings.size())


func test_hostile_time_steps_through_the_body_stay_finite_and_bounded() -> void:
	var p := make_tracked_rig()
	var s: Skeleton3D = p.skeleton
	var root: Transform3D = p.avatar.global_transform
	var head := Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.6, 0.05))
	var solver := VRBodySolver.new()
	check(solver.configure(s), "configured")
	var left := Transform3D(Basis(), Vector3(0.3, 1.2, 0.3))
	var right := Transform3D(Basis(), Vector3(-0.3, 1.2, 0.3))
	for i in 60:
		solver.step(s, root, head, left, right, 1.0 / 90.0)
	# A big move of the controllers, then hostile dt: every output finite; a 0, negative or NaN
	# dt must not move anything that smooths, and a 1 s hitch lands no further than the settled
	# answer for the new target would.
	var far_left := Transform3D(Basis(), Vector3(0.6, 1.6, 0.2))
	var reference := VRBodySolver.new()
	reference.configure(s)
	var target_answer: Dictionary = {}
	for i in 200:
		target_answer = reference.step(s, root, head, far_left, right, 1.0 / 90.0)
	for dt in [0.0, -1.0, NAN, INF, 1.0, 1e30]:
		var out: Dictionary = solver.step(s, root, head, far_left, right, dt)
		check(out.bones.size() > 20, "every bone written for dt %s (%d)" % [dt, out.bones.size()])
		check((out.root as Transform3D).is_finite(), "a finite root for dt %s" % dt)
		for q in out.bones.values():
			check(q.is_finite() and absf(q.length() - 1.0) < 1e-3, "unit, finite rotation for dt %s: %s" % [dt, q])
	var after_hitch: Dictionary = solver.step(s, root, head, far_left, right, 1.0)
	for bone in ["LeftUpperArm", "LeftLowerArm", "LeftHand"]:
		var i := s.find_bone(bone)
		var angle: float = after_hitch.bones[i].angle_to(target_answer.bones[i])
		check(angle < deg_to_rad(20.0), "a 1 s hitch does not overshoot the new answer (%s: %.1f deg off)" % [bone, rad_to_deg(angle)])


func test_odd_rigs_warn_and_stay_finite() -> void:
	# One clear runtime warning: the rig (zero length and scale, found by one check). The
	# finger-less body's hand copy has nothing to copy and says nothing (one line at setup lists
	# the fingers).
	expect_warnings(1)
	# Zero-length forearm.
	var p := make_tracked_rig()
	var s: Skeleton3D = p.skeleton
	var hand := s.find_bone("LeftHand")
	s.set_bone_rest(hand, Transform3D(s.get_bone_rest(hand).basis, Vector3.ZERO))
	s.reset_bone_pose(hand)
	var problems: PackedStringArray = p.rig.get_setup_problems()
	check(Array(problems).any(func(x): return "zero length" in x), "zero-length bone reported: %s" % [problems])
	# Non-uniform scale on the skeleton.
	s.scale = Vector3(1.0, 1.3, 0.8)
	problems = p.rig.get_setup_problems()
	check(Array(problems).any(func(x): return "non-uniform scale" in x), "non-uniform scale reported: %s" % [problems])
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.5, 1.4, 0.2)))
	p.simulator.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.5, 1.4, 0.2)))
	for i in 10:
		await s.skeleton_updated
		check(Soak.bones_finite(s), "bones finite with a zero-length bone and a squashed skeleton")
	# No fingers: the hand-pose nodes fall back quietly (a body set up without finger bones).
	var character := Node3D.new()
	add_child(character)
	var bare := HumanoidBuilder.build(false)
	character.add_child(bare)
	var b := VRArmsSetup.setup_skeleton(bare, null, null)
	check(not b.is_empty(), "a humanoid without fingers can still be set up")
	var copy_problems: PackedStringArray = b.hand_pose_copy.get_setup_problems()
	check(copy_problems.is_empty(), "the hand copy has nothing to report: %s" % [copy_problems])
	await seconds(0.3)
	check(Soak.bones_finite(bare), "finite without finger bones")


func test_a_skeleton_swapped_at_runtime_is_picked_up() -> void:
	var p := make_tracked_rig()
	var rig: VRArmRig = p.rig
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.4, 1.3, 0.3)))
	await seconds(0.2)
	var other := HumanoidBuilder.build()
	other.position = Vector3(0, 0, 0)
	p.avatar.add_child(other)
	rig.reparent(other, false)
	p.skeleton.queue_free()
	await seconds(0.2)
	await other.skeleton_updated
	check_vec_near(bone_global_position(other, "LeftHand"), Vector3(0.4, 1.3, 0.3), 0.01, "the new skeleton's hand reaches the target")
	check(Soak.bones_finite(other), "finite")


func test_freeing_referenced_nodes_at_runtime_is_safe() -> void:
	expect_errors(0)
	var b := _body()
	await seconds(0.3)
	# The controllers, the head, the markers between the stages and the hint go away.
	(b.right_controller as Node).free()
	await frames(3)
	(b.markers.left_raw as Node).free()
	await frames(3)
	(b.camera as Node).free()
	await frames(3)
	(b.markers.left_hint as Node).free()
	await frames(3)
	check(Soak.bones_finite(b.skeleton), "bones finite after the references went away")
	await seconds(0.5)
	check(Soak.bones_finite(b.skeleton), "and stay so")
	b.character.queue_free()
	await frames(2)


func test_hostile_profile_files_keep_the_previous_settings() -> void:
	var ct := ControllerTargets.new()
	add_child(ct)
	ct.recoil_out_speed = 33.0
	var cases := {
		"wrong type": "[controller_targets.recoil]\nout_speed = \"fast\"\n",
		"unknown key": "[controller_targets]\nnot_a_setting = 1\n",
		"deep nesting": "x = " + "[".repeat(5000) + "]".repeat(5000) + "\n",
		"syntax": "[controller_targets\n",
	}
	# One error per refused file; the bare node's missing controllers are one warning.
	expect_errors(cases.size() + 1)
	expect_warnings(1)
	for name in cases:
		var path := "user://hostile_%s.toml" % name.replace(" ", "_")
		var f := FileAccess.open(path, FileAccess.WRITE)
		f.store_string(cases[name])
		f.close()
		check(not ct.load_profile(path), "%s: refused" % name)
		check(ct.recoil_out_speed == 33.0, "%s: previous settings kept" % name)
		DirAccess.remove_absolute(path)
	# A 100 MB file is refused by its size before it is read into a string.
	var big := "user://hostile_big.toml"
	var f := FileAccess.open(big, FileAccess.WRITE)
	var chunk := PackedByteArray()
	chunk.resize(1 << 20)
	chunk.fill(35)  # '#': a comment, so only the size can refuse it
	for i in 100:
		f.store_buffer(chunk)
	f.close()
	check(not ct.load_profile(big), "100 MB: refused")
	check(ct.recoil_out_speed == 33.0, "100 MB: previous settings kept")
	DirAccess.remove_absolute(big)
	ct.queue_free()
	await frames(1)
