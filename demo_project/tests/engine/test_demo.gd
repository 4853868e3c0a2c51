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
	await demo.autopilot.finished
	var s: Dictionary = demo.summary
	var events: Array = s.events
	var key := events.filter(func(e): return e in ["drawn", "cocked", "fired_hit", "fired_miss", "cylinder_closed", "holstered", "dropped"])
	var expected := ["drawn"]
	for t in demo.targets:
		expected.append_array(["cocked", "fired_hit"])
	expected.append_array(["cylinder_closed", "holstered"])
	check(key == expected, "events in order: %s\nexpected %s\n(all: %s)" % [key, expected, events])
	check(s.targets_hit == demo.targets.size(), "every target hit: %s" % [s.hits])
	for t in demo.targets:
		check(t.hits >= 1 and t.get_node("Hits").get_child_count() >= 1, "%s shows its hit" % t.name)
	check(events.count("round_loaded") == demo.targets.size(), "reloaded the fired chambers (%d)" % events.count("round_loaded"))
	check(demo.gun.get_loaded_count() == 6, "six rounds after the reload")
	check(demo.gun.get_state() == VRArms.RevolverState.HOLSTERED, "back in the holster (%s)" % demo.gun.get_state_name())
	var warnings := TestLogger.current.take_warnings()
	check(warnings.is_empty(), "no warnings: %s" % [warnings])
	DemoActions.reset_targets(demo.targets)
	await frames(2)
	for t in demo.targets:
		check(t.hits == 0 and t.health == t.max_health, "%s reset" % t.name)
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


func test_walking_blends_the_legs_and_snap_turn_pivots_on_the_head() -> void:
	var demo = _make_demo({"desktop": ""})
	await seconds(1.5)  # the body settles under the head first
	var legs: AnimationTree = demo.get_node("Character/Legs")
	check(float(legs.get("parameters/blend_position")) < 0.2, "standing: idle (%.2f)" % float(legs.get("parameters/blend_position")))
	var locomotion: Locomotion = demo.get_node("Locomotion")
	var desktop: DesktopControls = demo.get_node("DesktopControls")
	var peak := 0.0
	for i in 120:
		locomotion.walk(Vector2(0, 1), 1.0 / 120.0)
		await frames(1)
		peak = maxf(peak, float(legs.get("parameters/blend_position")))
	check(peak > 0.8, "walking forward blends in the walk (blend position up to %.2f m/s)" % peak)
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
