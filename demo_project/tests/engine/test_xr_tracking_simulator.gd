## XRTrackingSimulator drives XRCamera3D and XRController3D like a headset would.
extends EngineTest

var _finished := 0


func _on_trace_finished() -> void:
	_finished += 1


func test_poses_and_inputs_reach_the_xr_nodes() -> void:
	var p := make_tracked_rig()
	var sim: XRTrackingSimulator = p.simulator
	var pose := Transform3D(Basis.from_euler(Vector3(0.2, 0.4, 0)), Vector3(0.2, 1.1, -0.4))
	sim.set_hand_pose(VRArms.Hand.RIGHT, pose)
	# Moves at once, without waiting for a frame.
	check_vec_near(p.right.global_position, pose.origin, 1e-5, "right controller moved at once")
	sim.set_head_pose(Transform3D(Basis(), Vector3(0, 1.7, 0.1)))
	await frames(1)
	check_vec_near(p.camera.position, Vector3(0, 1.7, 0.1), 1e-4, "camera follows the head tracker")
	sim.set_input(VRArms.Hand.LEFT, "trigger", 0.75)
	sim.set_input(VRArms.Hand.LEFT, "primary", Vector2(0, -1))
	await frames(1)
	var left: XRController3D = p.left
	check_near(left.get_float("trigger"), 0.75, 1e-6, "trigger value")
	check(left.get_vector2("primary").is_equal_approx(Vector2(0, -1)), "thumbstick value")
	check(XRServer.get_tracker("left_hand") is XRControllerTracker, "left_hand tracker registered")


func test_trackers_are_removed_with_the_simulator() -> void:
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	check(XRServer.get_tracker("head") != null, "head tracker registered")
	remove_child(sim)
	sim.free()
	check(XRServer.get_tracker("head") == null, "head tracker removed")
	check(XRServer.get_tracker("right_hand") == null, "right_hand tracker removed")


func test_trace_replays_poses_and_inputs() -> void:
	var p := make_tracked_rig()
	var sim: XRTrackingSimulator = p.simulator
	var header := "time,head_px,head_py,head_pz,head_qx,head_qy,head_qz,head_qw,left_px,left_py,left_pz,left_qx,left_qy,left_qz,left_qw,right_px,right_py,right_pz,right_qx,right_qy,right_qz,right_qw,left_grip,left_trigger,left_stick_x,left_stick_y,right_grip,right_trigger,right_stick_x,right_stick_y"
	var lines := [header]
	for i in 11:
		var t := i * 0.02
		var x := 0.1 + t
		lines.append("%f,0,1.6,0,0,0,0,1,%f,1.0,0.3,0,0,0,1,-0.3,1.0,0.3,0,0,0,1,1,0,0,0,0,%f,0,0" % [t, x, 1.0 if i >= 5 else 0.0])
	var path := "user://test_trace.csv"
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_string("\n".join(lines) + "\n")
	f.close()
	sim.trace_finished.connect(_on_trace_finished)
	check(sim.play_trace(path), "trace loads")
	check(sim.is_playing(), "trace playing")
	for i in 120:
		await frames(1)
		if _finished > 0:
			break
	check(_finished == 1, "trace_finished emitted once")
	check_vec_near(p.left.global_position, Vector3(0.3, 1.0, 0.3), 1e-4, "left controller at the trace's last pose")
	check_near(p.right.get_float("trigger"), 1.0, 1e-6, "right trigger from the trace")
	check_near(p.left.get_float("grip"), 1.0, 1e-6, "left grip from the trace")
	sim.trace_finished.disconnect(_on_trace_finished)


func test_bad_trace_is_refused_with_the_line() -> void:
	expect_errors(1)
	var p := make_tracked_rig()
	var path := "user://bad_trace.csv"
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_string("time,nonsense\n1,2\n")
	f.close()
	check(not p.simulator.play_trace(path), "a bad trace is refused")
	check(not p.simulator.is_playing(), "nothing plays")
