## AvatarCalibrator: measure, fit, save, load; bad files.
extends EngineTest

var _completed: Array = []


func _on_completed(height: float, span: float, scale: float) -> void:
	_completed.append([height, span, scale])


func _calibrator(p: Dictionary, player: String) -> AvatarCalibrator:
	var c := AvatarCalibrator.new()
	c.head = p.camera
	c.left_controller = p.left
	c.right_controller = p.right
	c.origin = p.origin
	c.avatar_root = p.avatar
	c.skeleton = p.skeleton
	c.player_name = player
	return c


func test_calibration_measures_fits_saves_and_loads() -> void:
	var p := make_tracked_rig()
	var sim: XRTrackingSimulator = p.simulator
	var c := _calibrator(p, "test_tall")
	DirAccess.remove_absolute(ProjectSettings.globalize_path(c.get_calibration_path()))
	add_child(c)
	c.calibration_completed.connect(_on_completed)
	sim.set_head_pose(Transform3D(Basis(), Vector3(0, 1.79, 0)))
	sim.set_hand_pose("left", Transform3D(Basis(), Vector3(0.86, 1.45, 0)))
	sim.set_hand_pose("right", Transform3D(Basis(), Vector3(-0.86, 1.45, 0)))
	c.start_calibration()
	await seconds(1.3)
	check(_completed.size() == 1, "calibration completed once")
	check_near(c.get_player_height(), 1.90, 0.001, "height = eye height + 0.11")
	check_near(c.get_arm_span(), 1.92, 0.001, "span = controllers + 2 x 0.1")
	var scale: float = c.get_avatar_scale()
	check(scale > 1.05 and scale < 1.2, "a taller player scales the avatar up (%.3f)" % scale)
	check_near(p.avatar.scale.x, scale, 1e-5, "avatar scaled")
	check(FileAccess.file_exists(c.get_calibration_path()), "saved")
	# A new session loads it.
	p.avatar.scale = Vector3.ONE
	var again := _calibrator(p, "test_tall")
	add_child(again)
	check_near(again.get_avatar_scale(), scale, 1e-5, "loaded on start")
	check_near(p.avatar.scale.x, scale, 1e-5, "and applied")


func test_bad_calibration_file_gives_an_error_and_defaults_and_is_kept() -> void:
	expect_errors(1)
	var p := make_tracked_rig()
	var c := _calibrator(p, "test_bad")
	DirAccess.make_dir_recursive_absolute("user://vr_arms")
	var f := FileAccess.open(c.get_calibration_path(), FileAccess.WRITE)
	f.store_string("player_height_m = 1.8\navatar_scale = \"huge\"\n")
	f.close()
	add_child(c)
	check_near(c.get_avatar_scale(), 1.0, 1e-6, "defaults used")
	check(FileAccess.get_file_as_string(c.get_calibration_path()).contains("huge"), "the bad file is not overwritten")
	await frames(1)
