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
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.86, 1.45, 0)))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.86, 1.45, 0)))
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


## A HumanoidBuilder skeleton (1.75 m) with every bone's offset scaled to make it `height` tall.
func _avatar_of_height(height: float) -> Skeleton3D:
	var s := HumanoidBuilder.build()
	var k := height / 1.75
	for i in s.get_bone_count():
		var rest := s.get_bone_rest(i)
		rest.origin *= k
		s.set_bone_rest(i, rest)
	s.reset_bone_poses()
	return s


var _scaled: Array = []


func _on_scaled(height: float, scale: float) -> void:
	_scaled.append([height, scale])


func test_the_avatar_is_fitted_to_the_headset_when_tracking_starts() -> void:
	# No saved calibration for the setup's default player (it would come first): a developer's
	# own is put back afterwards.
	const DEFAULT := "user://vr_arms/calibration_default.toml"
	var kept := FileAccess.get_file_as_string(DEFAULT) if FileAccess.file_exists(DEFAULT) else ""
	for avatar_height in [1.5, 2.0]:
		_scaled.clear()
		DirAccess.remove_absolute(ProjectSettings.globalize_path(DEFAULT))
		var character := Node3D.new()
		add_child(character)
		var skeleton := _avatar_of_height(avatar_height)
		character.add_child(skeleton)
		var sim := XRTrackingSimulator.new()
		add_child(sim)
		var made := VRArmsSetup.setup_skeleton(skeleton, null, null)
		var calibrator: AvatarCalibrator = made.calibrator
		calibrator.scaled_to_headset.connect(_on_scaled)
		var eyes := func() -> float:
			return (bone_global_position(skeleton, "LeftEye").y + bone_global_position(skeleton, "RightEye").y) * 0.5
		# The headset lies on the floor, then the 1.75 m player puts it on and stands.
		sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 0.05, 0)))
		await seconds(1.0)
		check(_scaled.is_empty() and character.scale.is_equal_approx(Vector3.ONE), "%.1f m avatar: no fit while the headset is not at a standing height" % avatar_height)
		sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.64, 0)))
		await seconds(0.3)
		await skeleton.skeleton_updated
		var before: float = eyes.call()
		var hips_standing: float = skeleton.get_bone_global_rest(skeleton.find_bone("Hips")).origin.y
		var hips_before: float = bone_global_position(skeleton, "Hips").y
		await seconds(0.5)
		await skeleton.skeleton_updated
		check(_scaled.size() == 1, "%.1f m avatar: fitted once (%s)" % [avatar_height, _scaled])
		check_near(character.scale.x, 1.75 / avatar_height, 0.002, "%.1f m avatar: scaled to the 1.75 m player" % avatar_height)
		# Before the fit a short avatar's eyes fall short of the headset; a tall one crouches
		# (its lower body brings its head down to the headset).
		check(absf(before - 1.64) > 0.15 or hips_before < hips_standing - 0.1, "%.1f m avatar: before, its eyes were %.3f m from the headset and its hips %.3f m under standing" % [avatar_height, before - 1.64, hips_standing - hips_before])
		check_near(bone_global_position(skeleton, "Hips").y, hips_standing * character.scale.y, 0.01, "%.1f m avatar: fitted, it stands up straight" % avatar_height)
		check_near(eyes.call(), 1.64, 0.005, "%.1f m avatar: its eyes at the headset's height" % avatar_height)
		# A calibration refines it: a 1.90 m player, arms out.
		sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.79, 0)))
		sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.86, 1.45, 0)))
		sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.86, 1.45, 0)))
		calibrator.player_name = "test_start_height"
		calibrator.start_calibration()
		await seconds(1.3)
		# The calibration fits heights: 1.90 m over the avatar's eyes (1.64 m x its size) + 0.11.
		var calibrated: float = 1.90 / (1.64 * avatar_height / 1.75 + 0.11)
		check_near(character.scale.x, calibrated, 0.002, "%.1f m avatar: the calibration refines the scale" % avatar_height)
		check(_scaled.size() == 1, "no second fit from the headset")
		DirAccess.remove_absolute(ProjectSettings.globalize_path(calibrator.get_calibration_path()))
		for key in made:
			var n = made[key]
			if n is Node and is_instance_valid(n) and not n.is_queued_for_deletion() and n != skeleton:
				n.queue_free()
		character.queue_free()
		sim.queue_free()
		await frames(2)
	if kept != "":
		var f := FileAccess.open(DEFAULT, FileAccess.WRITE)
		f.store_string(kept)
		f.close()


## A player's saved calibration is the player's height and span: loaded with another character
## it scales that character to the player, not by the first character's scale.
func test_a_saved_calibration_fits_a_character_it_was_not_made_on() -> void:
	var scales := []
	for avatar_height in [1.5, 2.0]:
		var character := Node3D.new()
		add_child(character)
		var skeleton := _avatar_of_height(avatar_height)
		character.add_child(skeleton)
		var sim := XRTrackingSimulator.new()
		add_child(sim)
		var made := VRArmsSetup.setup_skeleton(skeleton, null, null)
		var calibrator: AvatarCalibrator = made.calibrator
		calibrator.player_name = "test_two_characters"
		if avatar_height == 1.5:
			DirAccess.remove_absolute(ProjectSettings.globalize_path(calibrator.get_calibration_path()))
			# A 1.90 m player, arms out, calibrates on the first character.
			sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.79, 0)))
			sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.86, 1.45, 0)))
			sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.86, 1.45, 0)))
			calibrator.start_calibration()
			await seconds(1.3)
		else:
			check(calibrator.load_calibration(), "the second character loads the player's calibration")
		check_near(calibrator.get_player_height(), 1.90, 0.001, "%.1f m character: the player's height" % avatar_height)
		var fitted: float = 1.90 / (1.64 * avatar_height / 1.75 + 0.11)
		check_near(character.scale.x, fitted, 0.002, "%.1f m character: scaled to the player" % avatar_height)
		scales.append(character.scale.x)
		sim.queue_free()
		character.queue_free()
		for key in made:
			var n = made[key]
			if n is Node and is_instance_valid(n) and not n.is_queued_for_deletion() and n.is_inside_tree() and not character.is_ancestor_of(n):
				n.queue_free()
		await frames(2)
	check(absf(scales[0] - scales[1]) > 0.1, "the two characters got scales of their own (%.3f, %.3f)" % scales)
	DirAccess.remove_absolute(ProjectSettings.globalize_path("user://vr_arms/calibration_test_two_characters.toml"))
