## The demo scene: it loads without errors or warnings, and its autopilot session completes:
## drawn, cocked, every target hit, reloaded, holstered. Headless (nothing rendered; the
## rendering and OpenXR checks are `cargo xtask render-test` and `xr-test`).
extends EngineTest


## The demo scene with `options` (as on its command line), kept running when it is done.
func _make_demo(options: Dictionary) -> Node:
	var demo = load("res://demo.tscn").instantiate()
	demo.options = options
	demo.quit_when_done = false
	add_child(demo)
	return demo


func test_the_demo_loads_cleanly_and_the_autopilot_session_completes() -> void:
	TestLogger.current.take_warnings()
	var demo = _make_demo({"autopilot": ""})
	check(not demo.vr, "desktop mode in headless Godot")
	check(demo.autopilot != null, "the autopilot runs")
	var poses := {"left": [], "right": []}
	for side in poses:
		demo.body[side + "_hand_pose"].pose_state_changed.connect(func(state: int, _n: String): poses[side].append(state))
	await demo.autopilot.finished
	check(poses.right.has(VRArms.HandPoseState.GATE_LOADING) and poses.left.has(VRArms.HandPoseState.PINCH) and poses.left.has(VRArms.HandPoseState.FANNING), "the hands take the loading, cartridge and fanning poses (right %s, left %s)" % [poses.right, poses.left])
	var s: Dictionary = demo.summary
	var events: Array = s.events
	var key := events.filter(func(e): return e in ["drawn", "cocked", "fired_hit", "fired_miss", "cylinder_opened", "cylinder_closed", "fanned", "holstered", "dropped"])
	var expected := ["drawn"]
	for t in demo.targets:
		expected.append_array(["cocked", "fired_hit"])
	expected.append_array(["cylinder_opened", "cylinder_closed"])
	for i in 2:
		expected.append_array(["fanned", "cocked", "fired_hit"])
	expected.append("holstered")
	# The fanned shots hit too.
	check(key == expected, "events in order: %s\nexpected %s\n(all: %s)" % [key, expected, events])
	check(events.count("case_ejected") == demo.targets.size(), "a spent case ejected for each shot (%d)" % events.count("case_ejected"))
	check(s.targets_hit == demo.targets.size(), "every target hit: %s" % [s.hits])
	for t in demo.targets:
		check(t.hits >= 1 and t.get_node("Hits").get_child_count() >= 1, "%s shows its hit" % t.name)
	check(events.count("round_loaded") == demo.targets.size(), "reloaded the fired chambers (%d)" % events.count("round_loaded"))
	check(RevolverBuilder.belt_cartridges(demo.belt).size() == RevolverBuilder.BELT_CARTRIDGES - demo.targets.size(), "each from the belt, by the left hand (%d left)" % RevolverBuilder.belt_cartridges(demo.belt).size())
	check(demo.gun.get_loaded_count() == 4, "four rounds after the reload and two fanned shots (%d)" % demo.gun.get_loaded_count())
	check(demo.gun.get_state() == VRArms.RevolverState.HOLSTERED, "back in the holster (%s)" % demo.gun.get_state_name())
	var warnings := TestLogger.current.take_warnings()
	check(warnings.is_empty(), "no warnings: %s" % [warnings])
	DemoActions.reset_targets(demo.targets)
	await frames(2)
	for t in demo.targets:
		check(t.hits == 0 and t.health == t.max_health, "%s reset" % t.name)
	demo.queue_free()
	await frames(2)


## A character of the user's own (`--character=PATH`): someone else's model, loaded and set up
## by its bone names, plays the whole autopilot session: every target hit, back in the holster.
func test_the_demo_plays_with_a_character_of_ones_own() -> void:
	TestLogger.current.take_warnings()
	var demo = _make_demo({"autopilot": "", "character": "res://tests/avatars/mannequiny.glb"})
	var skeleton: Skeleton3D = demo.parts.skeleton
	check(skeleton.get_bone_count() == 45 and skeleton.find_bone("LeftUpperArm") >= 0, "the avatar is the given model, its bones renamed (%d bones)" % skeleton.get_bone_count())
	check(demo.body.get("rig_naming", "") == "Unreal mannequin", "recognised by its names (%s)" % demo.body.get("rig_naming", ""))
	await demo.autopilot.finished
	var s: Dictionary = demo.summary
	check(s.targets_hit == demo.targets.size(), "every target hit: %s" % [s.hits])
	check(demo.gun.get_state() == VRArms.RevolverState.HOLSTERED, "back in the holster (%s)" % demo.gun.get_state_name())
	var up := (bone_global_position(skeleton, "Head") - bone_global_position(skeleton, "Hips")).normalized()
	check(up.dot(Vector3.UP) > 0.9, "the avatar stands upright (%s)" % up)
	var warnings := TestLogger.current.take_warnings()
	check(warnings.is_empty(), "no warnings: %s" % [warnings])
	demo.queue_free()
	await frames(2)


func test_a_character_that_cannot_load_gives_one_error_and_the_generated_one_plays() -> void:
	expect_errors(1)
	var demo = _make_demo({"character": "res://tests/avatars/no_such_file.glb"})
	await frames(3)
	check(demo.parts.skeleton.find_bone("LeftLowerArmTwist") >= 0, "the generated character plays")
	demo.queue_free()
	await frames(2)


func test_desktop_mode_keys_move_the_hands_and_grip() -> void:
	var demo = _make_demo({"desktop": ""})
	var desktop: DesktopControls = demo.get_node("DesktopControls")
	check(desktop != null, "desktop controls without a headset")
	await frames(3)
	var right: XRController3D = demo.parts.right
	var before := right.global_position
	desktop._key(KEY_2)  # aim preset
	await frames(2)
	check(right.global_position.distance_to(before) > 0.1, "a hand preset moves the right controller")
	desktop._key(KEY_G)
	await frames(1)
	check(right.get_float("grip") == 1.0, "G grips with the active (right) hand")
	desktop._key(KEY_G)
	await frames(1)
	check(right.get_float("grip") == 0.0, "G again lets go")
	demo.queue_free()
	await frames(2)


## B in desktop mode sits the player down (the head comes down, the lower body is told) and
## stands them up again.
func test_desktop_b_sits_down_and_stands_up() -> void:
	var demo = _make_demo({"desktop": ""})
	var desktop: DesktopControls = demo.get_node("DesktopControls")
	# Standing still first: the avatar is scaled to the player's height once tracking settles.
	await seconds(1.5)
	var rig: LowerBodyRig = demo.body.lower_body
	var skeleton: Skeleton3D = demo.parts.skeleton
	await skeleton.skeleton_updated
	var hips_standing := bone_global_position(skeleton, "Hips").y
	desktop._key(KEY_B)
	await seconds(1.5)
	await skeleton.skeleton_updated
	check(rig.seated, "B tells the lower body the player sits")
	var hips := bone_global_position(skeleton, "Hips")
	var foot := bone_global_position(skeleton, "LeftFoot")
	check(hips.y < hips_standing - 0.3, "seated, the hips come down (%.2f m from %.2f)" % [hips.y, hips_standing])
	var forward: Vector3 = demo.body.avatar.global_basis.z
	check((foot - hips).dot(forward) > 0.25, "seated, the feet stand ahead (%.2f m)" % (foot - hips).dot(forward))
	desktop._key(KEY_B)
	await seconds(1.5)
	await skeleton.skeleton_updated
	check(not rig.seated, "B again stands the player up")
	var up := bone_global_position(skeleton, "Hips").y
	check(up > hips_standing - 0.05, "standing, the hips back up (%.2f m, %.2f before)" % [up, hips_standing])
	demo.queue_free()
	await frames(2)


## The gun's keys in desktop mode: draw, half-cock, open the gate, eject, load from the belt,
## turn, shut, then fan with Space held.
func test_desktop_keys_work_the_gun_by_hand() -> void:
	var demo = _make_demo({"desktop": ""})
	var desktop: DesktopControls = demo.get_node("DesktopControls")
	var gun: Revolver = demo.gun
	await seconds(1.0)
	desktop._key(KEY_H)
	await seconds(0.3)
	desktop._key(KEY_G)
	await seconds(0.3)
	desktop._key(KEY_2)  # the hand up and forward: the draw
	await seconds(0.5)
	check(gun.get_state() == VRArms.RevolverState.HELD, "drawn (%s)" % gun.get_state_name())
	desktop._key(KEY_T)
	check(gun.get_hammer_position() == VRArms.HammerPosition.HALF_COCK, "T: half-cock")
	desktop._key(KEY_O)
	check(gun.is_gate_open(), "O: the gate opens")
	var gate: int = gun.get_gate_chamber()
	desktop._key(KEY_X)
	check(gun.get_chambers()[gate] == "empty" and gun.get_loaded_count() == 5, "X: the rod pushes the live round out of the gate's chamber")
	await seconds(0.6)
	var loose := get_tree().get_nodes_in_group("vr_arms_rounds").filter(func(r): return r is RigidBody3D)
	check(loose.size() == 1, "and it falls as a round one can pick up (%d)" % loose.size())
	var on_belt: int = RevolverBuilder.belt_cartridges(demo.belt).size()
	desktop._key(KEY_L)
	await frames(1)
	check(gun.get_loaded_count() == 6 and RevolverBuilder.belt_cartridges(demo.belt).size() == on_belt - 1, "L: a cartridge from the belt into the gate")
	var current: int = gun.get_current_chamber()
	desktop._key(KEY_V)
	check(gun.get_current_chamber() == (current + 1) % 6, "V: one click")
	desktop._key(KEY_O)
	check(not gun.is_gate_open(), "O: shut")
	var fans := [0]
	gun.fanned.connect(func(): fans[0] += 1)
	var space := InputEventKey.new()
	space.physical_keycode = KEY_SPACE
	space.pressed = true
	Input.parse_input_event(space)
	await frames(3)
	desktop._key(KEY_F)
	await seconds(0.3)
	space.pressed = false
	Input.parse_input_event(space)
	await frames(2)
	check(fans[0] == 1 and gun.get_loaded_count() == 5, "F with Space held: one fanned shot (%d fans, %d loaded)" % [fans[0], gun.get_loaded_count()])
	await seconds(0.3)
	desktop._key(KEY_Z)
	check(gun.is_twirling(), "Z: a twirl")
	demo.queue_free()
	await frames(2)


func test_walking_blends_the_legs_and_snap_turn_pivots_on_the_head() -> void:
	var demo = _make_demo({"desktop": ""})
	await seconds(1.5)  # the body settles under the head first
	var legs: AnimationTree = demo.get_node("Character/Legs")
	check(float(legs.get("parameters/blend_position")) < 0.2, "standing: idle (%.2f)" % float(legs.get("parameters/blend_position")))
	var locomotion: Locomotion = demo.get_node("Locomotion")
	var desktop: DesktopControls = demo.get_node("DesktopControls")
	var peak := 0.0
	# The walk is what the player sees on the legs: the thigh as the animation poses it (read
	# before the modifiers, a frame's swing apart) is the thigh shown.
	var skeleton: Skeleton3D = demo.parts.skeleton
	var thigh := skeleton.find_bone("LeftUpperLeg")
	var off_walk := 0.0
	var swing := 0.0
	var first := Quaternion()
	for i in 120:
		locomotion.walk(Vector2(0, 1), 1.0 / 120.0)
		await frames(1)
		var animated := skeleton.get_bone_pose_rotation(thigh)
		await skeleton.skeleton_updated
		var shown := skeleton.get_bone_pose_rotation(thigh)
		if i == 60:
			first = shown
		if i > 60:
			off_walk = maxf(off_walk, rad_to_deg(shown.angle_to(animated)))
			swing = maxf(swing, rad_to_deg(shown.angle_to(first)))
		peak = maxf(peak, float(legs.get("parameters/blend_position")))
	check(peak > 0.8, "walking forward blends in the walk (blend position up to %.2f m/s)" % peak)
	check(off_walk < 4.0, "the legs play the walk animation (the thigh %.1f degrees off it at most)" % off_walk)
	check(swing > 20.0, "the thigh swings as the walk does (%.0f degrees)" % swing)
	await seconds(1.0)
	check(float(legs.get("parameters/blend_position")) < 0.2, "stopping blends back to idle")
	var camera: XRCamera3D = demo.parts.camera
	var origin: XROrigin3D = demo.parts.origin
	var head_before := camera.global_position
	var yaw_before := origin.global_rotation.y
	desktop._key(KEY_E)
	await frames(1)
	check_near(wrapf(origin.global_rotation.y - yaw_before, -PI, PI), -deg_to_rad(30.0), 1e-3, "E snaps 30 degrees right")
	check_vec_near(camera.global_position, head_before, 1e-3, "about the head")
	demo.queue_free()
	await frames(2)
