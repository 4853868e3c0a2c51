## The revolver with simulated controllers: draw, cock, fire, dry fire, empty, reload, holster,
## drop.
extends EngineTest

const DamageTarget := preload("res://tests/engine/helpers/damage_target.gd")

var _events: Array = []
var _engaged := 0
var _released := 0
var _pulls := 0


func _on(name: String) -> void:
	_events.append(name)


func _on_latched() -> void: _on("latched")
func _on_drawn() -> void: _on("drawn")
func _on_holstered() -> void: _on("holstered")
func _on_dropped() -> void: _on("dropped")
func _on_cocked() -> void: _on("cocked")
func _on_dry_fired() -> void: _on("dry_fired")
func _on_empty_clicked() -> void: _on("empty_clicked")
func _on_cylinder_opened() -> void: _on("cylinder_opened")
func _on_cylinder_closed() -> void: _on("cylinder_closed")
func _on_round_loaded(_chamber: int) -> void: _on("round_loaded")
func _on_fired(hit: bool, _point: Vector3, _normal: Vector3, _collider: Object) -> void: _on("fired_hit" if hit else "fired_miss")
func _on_ammo_empty() -> void: _on("ammo_empty")
func _on_trigger_pulled() -> void: _pulls += 1
func _on_engaged(_hand: int) -> void: _engaged += 1
func _on_released(_hand: int) -> void: _released += 1


func _make_scene() -> Dictionary:
	var p := make_pipeline_rig()
	var floor := StaticBody3D.new()
	var floor_shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(20, 0.2, 20)
	floor_shape.shape = box
	floor.add_child(floor_shape)
	floor.position = Vector3(0, -0.1, 0)
	add_child(floor)
	var zone := HolsterZone.new()
	zone.position = Vector3(-0.25, 0.95, 0.05)
	var clear := Marker3D.new()
	clear.position = Vector3(0, 0.25, 0)
	zone.add_child(clear)
	add_child(zone)
	zone.hand_node = p.right
	zone.draw_clear_point = clear
	var gun := Revolver.new()
	for part in ["Muzzle", "HolsterPoint", "Hammer", "Trigger", "Cylinder", "Mesh", "MuzzleFlash"]:
		var n := Marker3D.new()
		n.name = part
		gun.add_child(n)
	gun.get_node("Muzzle").position = Vector3(0, 0, -0.2)
	# On top at the back, as on the gun.
	gun.get_node("Hammer").position = Vector3(0, 0.05, 0.06)
	var gun_shape := CollisionShape3D.new()
	var gbox := BoxShape3D.new()
	gbox.size = Vector3(0.05, 0.12, 0.25)
	gun_shape.shape = gbox
	gun.add_child(gun_shape)
	gun.hand_controller = p.right
	gun.hand_attach = p.right
	gun.holster = zone
	gun.controller_targets = p.controller_targets
	gun.router = p.router
	gun.hand = 1
	add_child(gun)
	var target := DamageTarget.new()
	var tshape := CollisionShape3D.new()
	var tbox := BoxShape3D.new()
	tbox.size = Vector3(1, 1, 0.1)
	tshape.shape = tbox
	target.add_child(tshape)
	target.position = Vector3(-0.2, 1.3, 3.0)
	add_child(target)
	for sig in ["latched", "drawn", "holstered", "dropped", "cocked", "dry_fired", "empty_clicked", "cylinder_opened", "cylinder_closed", "round_loaded", "fired", "ammo_empty", "trigger_pulled"]:
		gun.connect(sig, Callable(self, "_on_" + sig))
	p.router.override_engaged.connect(_on_engaged)
	p.router.override_released.connect(_on_released)
	p.merge({"zone": zone, "gun": gun, "target": target})
	return p


## Loads a revolver profile of `text` into `gun` (through a file, removed after).
func _load_profile(gun: Revolver, text: String) -> bool:
	var path := "user://revolver_test_profile.toml"
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_string(text)
	f.close()
	var ok := gun.load_profile(path)
	DirAccess.remove_absolute(ProjectSettings.globalize_path(path))
	return ok


## Aim forward (+Z, where the avatar faces): the controller's -Z points at the target.
func _aim() -> Transform3D:
	return Transform3D(Basis(Vector3.UP, PI), Vector3(-0.2, 1.3, 0.3))


func _cock(sim: XRTrackingSimulator) -> void:
	sim.set_input(VRArms.Hand.RIGHT, "primary", Vector2(0, -1))
	await seconds(0.8)
	sim.set_input(VRArms.Hand.RIGHT, "primary", Vector2.ZERO)
	await frames(2)


func _pull_trigger(sim: XRTrackingSimulator) -> void:
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 1.0)
	await seconds(0.35)
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	await frames(2)


func _draw(p: Dictionary) -> void:
	var sim: XRTrackingSimulator = p.simulator
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.25, 0.95, 0.05)))
	await frames(2)
	sim.set_input(VRArms.Hand.RIGHT, "grip", 1.0)
	# The router blends in over 1/8 s: let the override engage before pulling.
	await seconds(0.25)
	var max_weight := 0.0
	for i in 20:
		sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.25, 0.95 + 0.02 * (i + 1), 0.05)))
		await frames(1)
		max_weight = maxf(max_weight, p.router.get_override_weight(1))
	p["max_draw_weight"] = max_weight


func test_a_whole_revolver_session() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	check(gun.get_state() == VRArms.RevolverState.HOLSTERED, "starts in the holster")
	await _draw(p)
	check(gun.get_state() == VRArms.RevolverState.HELD, "drawn by pulling up 0.4 m (state %s)" % gun.get_state_name())
	check(p.max_draw_weight > 0.3, "the arm followed the draw path (router override weight up to %.2f)" % p.max_draw_weight)
	await seconds(0.5)
	check(_engaged >= 1 and _released >= 1, "the override engaged during the draw and was released after (engaged %d, released %d)" % [_engaged, _released])
	check(p.router.get_override_weight(1) == 0.0, "back on the controller after the draw")
	sim.set_hand_pose(VRArms.Hand.RIGHT, _aim())
	await frames(3)
	await _cock(sim)
	check(gun.is_hammer_cocked(), "cocked")
	await _pull_trigger(sim)
	var target = p.target
	check(target.hits.size() == 1, "the target took one hit (%d)" % target.hits.size())
	if target.hits.size() == 1:
		var point: Vector3 = target.hits[0][1]
		check_near(point.z, 2.95, 0.01, "hit on the target's front face")
		check_near(point.x, -0.2, 0.05, "hit where the gun points (x)")
		check_near(target.hits[0][0], gun.damage, 1e-6, "damage from the bullet config")
	await _pull_trigger(sim)  # not cocked
	for i in 5:
		await _cock(sim)
		await _pull_trigger(sim)
	check(gun.get_loaded_count() == 0, "cylinder empty (%d)" % gun.get_loaded_count())
	await _cock(sim)
	await _pull_trigger(sim)
	gun.open_cylinder()
	check(gun.eject_spent() == 6, "six spent cases ejected")
	for i in 6:
		gun.load_round()
	gun.close_cylinder()
	check(gun.get_loaded_count() == 6, "reloaded")
	# Release at the holster: it goes back in.
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.25, 0.97, 0.05)))
	await frames(2)
	sim.set_input(VRArms.Hand.RIGHT, "grip", 0.0)
	await frames(2)
	check(gun.get_state() == VRArms.RevolverState.HOLSTERED, "re-holstered near the belt (%s)" % gun.get_state_name())
	var expected := ["latched", "drawn", "cocked", "fired_hit", "dry_fired"]
	for i in 5:
		expected.append_array(["cocked", "fired_hit"])
	expected.append("ammo_empty")
	expected.append_array(["cocked", "empty_clicked", "cylinder_opened"])
	for i in 6:
		expected.append("round_loaded")
	expected.append_array(["cylinder_closed", "holstered"])
	# Every live shot is aimed at the target and must hit it.
	check(_events == expected, "events in order:\n%s\nexpected\n%s" % [_events, expected])
	check(target.hits.size() == 6, "all six live rounds hit (%d)" % target.hits.size())
	# Every pull, whatever its outcome: 6 live, 1 dry fire, 1 click.
	check(_pulls == 8, "trigger_pulled on every pull (%d of 8)" % _pulls)


func test_released_far_away_the_gun_drops_and_falls() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	await _draw(p)
	check(gun.get_state() == VRArms.RevolverState.HELD, "drawn")
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(0.3, 1.5, 0.5)))
	await frames(3)
	var y0: float = gun.global_position.y
	sim.set_input(VRArms.Hand.RIGHT, "grip", 0.0)
	await frames(2)
	check(gun.get_state() == VRArms.RevolverState.DROPPED, "dropped far from the holster")
	await seconds(0.5)
	check(gun.global_position.y < y0 - 0.3, "and it falls (%.2f -> %.2f)" % [y0, gun.global_position.y])
	check(_events.has("dropped"), "dropped signal")


func test_holster_belt_sits_at_its_height_and_follows_the_body_yaw() -> void:
	var p := _make_scene()
	var belt := HolsterBelt.new()
	belt.head = p.camera
	belt.body_root = p.avatar
	add_child(belt)
	p.avatar.rotation.y = 0.6
	p.simulator.set_head_pose(Transform3D(Basis(), Vector3(0.1, 1.7, 0.2)))
	await frames(3)
	check_near(belt.global_position.y, 1.7 * (1.0 - belt.belt_height_offset), 0.01, "belt height from the floor ray")
	var f := belt.global_basis * Vector3.BACK
	check_near(atan2(f.x, f.z), 0.6, 0.01, "belt faces the body's yaw")
	# The hands moving does not move the belt.
	var before := belt.global_transform
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.5, 1.5, 0.5)))
	await frames(2)
	check(belt.global_transform.is_equal_approx(before), "hands do not swing the belt")


func _on_support_grabbed() -> void: _on("support_grabbed")
func _on_support_released() -> void: _on("support_released")


## Draws, aims in front of the chest and takes hold with the left hand `offset` from the gun's
## new `SupportPoint` child, which it returns.
func _support(p: Dictionary, offset: Vector3, share: float = 0.5) -> Marker3D:
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	var support := Marker3D.new()
	support.name = "SupportPoint"
	support.position = Vector3(0.0, -0.04, -0.1)
	gun.add_child(support)
	gun.support_controller = p.left
	gun.support_recoil_share = share
	await _draw(p)
	# Aim in front of the chest, where the left hand can reach the support point.
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(Vector3.UP, PI), Vector3(-0.05, 1.3, 0.35)))
	await frames(3)
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), support.global_position + offset))
	sim.set_input(VRArms.Hand.LEFT, "grip", 1.0)
	await seconds(0.5)
	return support


func test_two_handed_support_routes_the_other_arm_and_splits_recoil() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	gun.support_grabbed.connect(_on_support_grabbed)
	gun.support_released.connect(_on_support_released)
	var support := await _support(p, Vector3(0.03, 0, 0))
	check(gun.is_supported(), "the support hand took hold")
	check_near(p.router.get_override_weight(0), 1.0, 1e-6, "the left arm is routed to the support point")
	await p.skeleton.skeleton_updated
	var left_hand := bone_global_position(p.skeleton, "LeftHand")
	check_vec_near(left_hand, support.global_position, 0.005, "the left hand is on the gun")
	await _cock(sim)
	var rest := bone_global_position(p.skeleton, "LeftHand")
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 1.0)
	var peak := 0.0
	for i in 40:
		await p.skeleton.skeleton_updated
		peak = maxf(peak, bone_global_position(p.skeleton, "LeftHand").distance_to(rest))
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	check(peak > 0.01, "the support arm takes part of the recoil (%.3f m)" % peak)
	sim.set_input(VRArms.Hand.LEFT, "grip", 0.0)
	await seconds(0.4)
	check(not gun.is_supported(), "let go")
	check(p.router.get_override_weight(0) == 0.0, "the left arm is back on its controller")
	check(_events.has("support_grabbed") and _events.has("support_released"), "signals: %s" % [_events])


func test_a_round_brought_to_the_open_gate_loads_the_empty_chamber_there() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	await _draw(p)
	sim.set_hand_pose(VRArms.Hand.RIGHT, _aim())
	await frames(2)
	await _cock(sim)
	await _pull_trigger(sim)
	check(gun.get_loaded_count() == 5, "one round fired")
	gun.open_cylinder()
	gun.eject_spent()
	# The gate's chamber is loaded: a round brought there stays where it is.
	var round := Marker3D.new()
	round.add_to_group("vr_arms_rounds")
	add_child(round)
	round.global_position = gun.get_node("Cylinder").global_position + Vector3(0.02, 0, 0)
	await frames(3)
	check(gun.get_loaded_count() == 5 and is_instance_valid(round) and not round.is_queued_for_deletion(), "not loaded while the gate's chamber is full")
	# One click brings the emptied chamber to the gate.
	gun.turn_cylinder(1)
	var empty_at: int = gun.get_gate_chamber()
	await frames(3)
	check(gun.get_loaded_count() == 6 and gun.get_chambers()[empty_at] == "loaded", "the round went into the gate's chamber %d (%s)" % [empty_at, gun.get_chambers()])
	check(not is_instance_valid(round) or round.is_queued_for_deletion(), "and the round object is gone")


func _hold(p: Dictionary) -> RevolverHold:
	var hold := RevolverHold.new()
	hold.revolver = p.gun
	p.skeleton.add_child(hold)
	return hold


func test_a_held_gun_stays_on_the_hand_bone_through_recoil() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	var hold := _hold(p)
	await _draw(p)
	sim.set_hand_pose(VRArms.Hand.RIGHT, _aim())
	await frames(3)
	await _cock(sim)
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 1.0)
	var worst := 0.0
	var hand_off_controller := 0.0
	for i in 40:
		await p.skeleton.skeleton_updated
		var hand: Transform3D = p.skeleton.global_transform * p.skeleton.get_bone_global_pose(p.skeleton.find_bone("RightHand"))
		var want: Transform3D = palm_transform(p.skeleton, "Right") * hold.attach_offset * gun.grip_offset
		worst = maxf(worst, gun.global_position.distance_to(want.origin))
		worst = maxf(worst, (gun.global_basis * Vector3.FORWARD).distance_to(want.basis * Vector3.FORWARD))
		hand_off_controller = maxf(hand_off_controller, hand.origin.distance_to(p.right.global_position))
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	check(hand_off_controller > 0.01, "recoil moved the hand off the controller (%.3f m)" % hand_off_controller)
	check(worst < 1e-3, "the gun stayed on the hand bone, %.5f apart at worst" % worst)


func test_grip_point_alignment_puts_the_grip_point_on_the_hand() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var grip := Marker3D.new()
	grip.name = "GripPoint"
	grip.transform = Transform3D(Basis.from_euler(Vector3(0.3, 0.2, 0.0)), Vector3(0.0, -0.05, 0.04))
	gun.add_child(grip)
	gun.grip_alignment = 1
	var hold := _hold(p)
	await _draw(p)
	await frames(3)
	await p.skeleton.skeleton_updated
	var attach: Transform3D = palm_transform(p.skeleton, "Right") * hold.attach_offset
	check_vec_near(grip.global_position, attach.origin, 1e-3, "GripPoint on the attach point")
	check((grip.global_basis * Vector3.FORWARD).distance_to(attach.basis * Vector3.FORWARD) < 1e-3, "GripPoint turned like the attach point")


## Peak distance of each hand's raw target from its controller over a supported shot.
func _split_peaks(share: float) -> Dictionary:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	await _support(p, Vector3.ZERO, share)
	check(gun.is_supported(), "share %.1f: supported" % share)
	await _cock(sim)
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 1.0)
	var peak := {"left": 0.0, "right": 0.0}
	for i in 40:
		await frames(1)
		for side in ["left", "right"]:
			var raw: Node3D = p.markers[side + "_raw"]
			peak[side] = maxf(peak[side], VRArmTargets.global_position_of(raw).distance_to(p[side].global_position))
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	check(peak.right > 0.01, "share %.1f: the gun hand kicks (%.3f m)" % [share, peak.right])
	return peak


func test_two_handed_recoil_is_split_half_and_half_by_default() -> void:
	var peak := await _split_peaks(0.5)
	check(absf(peak.left - peak.right) < 0.1 * peak.right, "half and half: left %.4f m, right %.4f m" % [peak.left, peak.right])


func test_two_handed_recoil_share_zero_leaves_the_support_hand_still() -> void:
	var peak := await _split_peaks(0.0)
	check(peak.left < 1e-4, "share 0: the support hand takes no recoil (%.5f m)" % peak.left)


func test_a_grip_held_before_the_zone_does_not_latch() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	sim.set_input(VRArms.Hand.RIGHT, "grip", 1.0)
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(0.2, 1.2, 0.4)))
	await frames(3)
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.25, 0.95, 0.05)))
	await frames(5)
	check(gun.get_state() == VRArms.RevolverState.HOLSTERED, "a held grip entering the zone does not latch (%s)" % gun.get_state_name())
	sim.set_input(VRArms.Hand.RIGHT, "grip", 0.0)
	await frames(2)
	sim.set_input(VRArms.Hand.RIGHT, "grip", 1.0)
	await frames(2)
	check(gun.get_state() == VRArms.RevolverState.LATCHED, "pressing in the zone latches (%s)" % gun.get_state_name())


func test_cocking_takes_the_hand_pose_length_and_every_pull_plays_shoot() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	var driver := HandPoseDriver.new()
	driver.hand = 1
	driver.hammer_cock_duration_s = 1.2
	add_child(driver)
	gun.hand_pose = driver
	await _draw(p)
	sim.set_hand_pose(VRArms.Hand.RIGHT, _aim())
	await frames(3)
	# A dry pull (hammer down) still plays the Shoot pose, at once.
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 1.0)
	await frames(2)
	check(driver.get_pose_state() == VRArms.HandPoseState.SHOOT, "Shoot pose on a dry pull (state %d)" % driver.get_pose_state())
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	await seconds(0.5)
	# Cocking: the hammer arrives at 0.675 of the hand's 1.2 s, not of the default 0.6 s.
	sim.set_input(VRArms.Hand.RIGHT, "primary", Vector2(0, -1))
	var cocked_at := -1.0
	var t := 0.0
	while t < 1.5:
		await frames(1)
		t += get_process_delta_time()
		if cocked_at < 0.0 and gun.is_hammer_cocked():
			cocked_at = t
	sim.set_input(VRArms.Hand.RIGHT, "primary", Vector2.ZERO)
	check_near(cocked_at, 0.675 * 1.2, 0.03, "cocked at the hand pose's timing")


var _pose_states: Array = []


func _on_pose(state: int, _name: String) -> void:
	_pose_states.append(state)


func test_the_hand_keeps_its_grip_pose_through_the_draw() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var driver := HandPoseDriver.new()
	driver.hand = 1
	add_child(driver)
	gun.hand_pose = driver
	driver.pose_state_changed.connect(_on_pose)
	await _draw(p)
	await frames(3)
	check(gun.get_state() == VRArms.RevolverState.HELD, "drawn")
	var after_latch: Array = _pose_states.slice(_pose_states.find(1) + 1)
	check(_pose_states.has(1) and not after_latch.has(0), "PreGrip at the holster, then never Default during the draw: %s" % [_pose_states])
	check(driver.get_pose_state() == VRArms.HandPoseState.GRIP_READY, "GripReady once drawn (%d)" % driver.get_pose_state())


## The Single Action Army by hand, through the node: half-cock, open the gate, turn and eject six
## spent cases (they fall as objects), the left hand takes six cartridges from the belt's loops
## and brings each to the gate (a `CartridgeHand`), close, then six times thumb the hammer to full
## cock and pull: the mechanism's signals in order, six hits, and every case and cartridge where
## it should be.
func test_a_reload_by_hand_from_the_belt_then_six_shots() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	var log: Array = []
	gun.hammer_moved.connect(func(pos: int): log.append("hammer %d" % pos))
	gun.gate_toggled.connect(func(open: bool): log.append("gate %s" % open))
	gun.cylinder_indexed.connect(func(c: int): log.append("index %d" % c))
	gun.case_ejected.connect(func(c: int, spent: bool): log.append("eject %d %s" % [c, spent]))
	gun.cartridge_loaded.connect(func(c: int): log.append("load %d" % c))
	gun.refused.connect(func(a: String): log.append("refused " + a))
	await _draw(p)
	sim.set_hand_pose(VRArms.Hand.RIGHT, _aim())
	await seconds(0.3)
	# Fire the six rounds it came with, cocked by the thumb, to have six spent cases.
	for i in 6:
		gun.thumb_hammer(1.0)
		gun.release_hammer()
		await _pull_trigger(sim)
	check(gun.get_loaded_count() == 0 and gun.get_chambers().count("spent") == 6, "six spent cases: %s" % [gun.get_chambers()])
	log.clear()
	# The gate is shut with the hammer down.
	gun.open_gate()
	check(log == ["refused open_cylinder"], "the gate opens only at half-cock: %s" % [log])
	log.clear()
	gun.thumb_hammer(0.5)
	gun.release_hammer()
	check(gun.get_hammer_position() == VRArms.HammerPosition.HALF_COCK, "half-cock")
	gun.open_gate()
	var gate: int = gun.get_gate_chamber()
	var cases_before := get_tree().get_nodes_in_group("vr_arms_cases")
	for i in 6:
		gun.push_ejector()
		gun.turn_cylinder(1)
	check(gun.push_ejector() == -1, "nothing left to eject")
	log.pop_back()  # that refusal
	# The stick at the open gate: right turns a click, up works the rod (nothing at the gate
	# now: refused).
	sim.set_input(VRArms.Hand.RIGHT, "primary", Vector2(1, 0))
	await frames(2)
	sim.set_input(VRArms.Hand.RIGHT, "primary", Vector2(0, 1))
	await frames(2)
	sim.set_input(VRArms.Hand.RIGHT, "primary", Vector2.ZERO)
	await frames(2)
	check(log.slice(-2) == ["index %d" % ((gun.get_current_chamber()) % 6), "refused eject"], "stick right: a click; up: the rod (%s)" % [log.slice(-2)])
	log.resize(log.size() - 2)
	gun.turn_cylinder(5)  # once round again
	log.resize(log.size() - 5)
	gun.push_ejector()
	# Each case is a physical object that falls from the gate.
	# (Cases of earlier tests may still lie about: counted are this test's.)
	var cases := get_tree().get_nodes_in_group("vr_arms_cases").filter(func(c): return not cases_before.has(c))
	check(cases.size() == 6, "six cases in the world (%d)" % cases.size())
	var gate_y: float = gun.get_node("Cylinder").global_position.y
	await seconds(0.5)
	check(cases.all(func(c): return c is RigidBody3D and c.global_position.y < gate_y - 0.3), "and they fell")
	# Six cartridges from the belt's loops, one at a time, by the left hand: taken from its loop,
	# brought to the open gate, loaded there (and freed), the cylinder turned a click.
	var belt := Node3D.new()
	belt.name = "Belt"
	add_child(belt)
	belt.global_position = Vector3(0.3, 0.95, 0.1)
	RevolverBuilder.fill_cartridge_loops(belt)
	var hand := CartridgeHand.new()
	hand.controller = p.left
	var fingers := HandPoseDriver.new()
	fingers.hand = VRArms.Hand.LEFT
	add_child(fingers)
	hand.hand_pose = fingers
	add_child(hand)
	var taken := []
	hand.cartridge_taken.connect(func(c: Node3D): taken.append(c))
	var returned := []
	hand.cartridge_let_go.connect(func(c: Node3D, back: bool): returned.append(back))
	var gate_at: Vector3 = gun.get_node("Cylinder").global_position
	# One taken and let go away from the gun goes back into its loop.
	var first: Node3D = RevolverBuilder.belt_cartridges(belt)[0]
	var first_loop := first.get_parent()
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), first.global_position))
	await frames(2)
	sim.set_input(VRArms.Hand.LEFT, "grip", 1.0)
	await frames(2)
	check(hand.get_held() == first and first.get_parent() == p.left, "the grip takes the cartridge at the hand")
	check(fingers.get_pose_state() == VRArms.HandPoseState.PINCH, "and holds it in a pinch (%d)" % fingers.get_pose_state())
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), first.global_position + Vector3(0.2, 0.2, 0.0)))
	await frames(2)
	sim.set_input(VRArms.Hand.LEFT, "grip", 0.0)
	await frames(2)
	check(first.get_parent() == first_loop and returned == [true] and hand.get_held() == null, "let go away from the gun, it goes back into its loop")
	check(fingers.get_pose_state() != VRArms.HandPoseState.PINCH, "the pinch opens (%d)" % fingers.get_pose_state())
	var loaded_rounds := []
	for i in 6:
		var round: Node3D = RevolverBuilder.belt_cartridges(belt)[0]
		sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), round.global_position))
		await frames(2)
		sim.set_input(VRArms.Hand.LEFT, "grip", 1.0)
		await frames(2)
		check(hand.get_held() == round, "cartridge %d in the hand" % i)
		# The cartridge to the gate: the hand moves by where it holds it.
		var hand_to_round: Vector3 = round.global_position - (p.left as Node3D).global_position
		sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), gate_at - hand_to_round))
		var before := gun.get_loaded_count()
		for k in 30:
			await frames(1)
			if gun.get_loaded_count() > before:
				break
		sim.set_input(VRArms.Hand.LEFT, "grip", 0.0)
		await frames(2)
		loaded_rounds.append(round)
		sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.4, 1.0, 0.3)))
		gun.turn_cylinder(1)
	check(taken.size() == 7 and returned == [true], "seven taken, one let go (%d, %s)" % [taken.size(), returned])
	check(loaded_rounds.all(func(r): return not is_instance_valid(r)), "each loaded cartridge is gone from the world (now in the cylinder)")
	check(RevolverBuilder.belt_cartridges(belt).size() == RevolverBuilder.BELT_CARTRIDGES - 6, "six loops empty, the rest in theirs (%d left)" % RevolverBuilder.belt_cartridges(belt).size())
	check(gun.insert_cartridge() == -1, "a full cylinder takes no more")
	gun.close_gate()
	var want := ["hammer 1", "hammer 2", "gate true"]
	for i in 6:
		want.append("eject %d true" % ((gate + i) % 6))
		want.append("index %d" % ((gun.get_current_chamber() + i + 1) % 6))
	want.append("refused eject")
	for i in 6:
		want.append("load %d" % ((gate + i) % 6))
		want.append("index %d" % ((gun.get_current_chamber() + i + 1) % 6))
	want.append_array(["refused load", "gate false"])
	check(log == want, "the reload's signals in order:\n%s\nwanted\n%s" % [log, want])
	check(gun.get_loaded_count() == 6, "six loaded")
	# The trigger is locked at half-cock.
	_events.clear()
	await _pull_trigger(sim)
	check(log[-1] == "refused fire" and not _events.has("fired_hit"), "no shot at half-cock")
	var hits_before: int = p.target.hits.size()
	for i in 6:
		gun.thumb_hammer(1.0)
		gun.release_hammer()
		await _pull_trigger(sim)
	check(_events.count("fired_hit") == 6, "six shots hit: %s" % [_events])
	check(p.target.hits.size() - hits_before == 6, "the target took six hits (%d)" % (p.target.hits.size() - hits_before))
	# The six cases still lie about (freed after case_lifetime_s), nothing else of the reload.
	check(cases.all(func(c): return is_instance_valid(c)), "the six cases lie on the floor")


## Fanning through the node: the trigger held back, the other hand sweeps over the hammer six
## times at 2 m/s; each sweep is a full cycle and a shot that hits. A slow sweep does nothing.
func test_a_fanned_string_of_six_hits() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	gun.support_controller = p.left
	var fans := [0]
	gun.fanned.connect(func(): fans[0] += 1)
	await _draw(p)
	sim.set_hand_pose(VRArms.Hand.RIGHT, _aim())
	await seconds(0.3)
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 1.0)
	await frames(30)
	_events.clear()
	var hammer: Node3D = gun.get_node("Hammer")
	# Slowly (0.5 m/s): no fan.
	for k in 48:
		sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), hammer.global_position + Vector3(0, 0.2 - 0.2 * k / 48.0, 0.05)))
		await frames(1)
	check(fans[0] == 0, "a slow hand does not fan")
	for sweep in 6:
		# 2 m/s: 20 cm in 12 frames at 120 frames a second, then back out.
		for k in 12:
			sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), hammer.global_position + Vector3(0, 0.2 - 0.2 * k / 12.0, 0.05)))
			await frames(1)
		for k in 12:
			sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), hammer.global_position + Vector3(0, 0.02 * k, 0.05 + 0.02 * k)))
			await frames(1)
		await seconds(0.2)
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	check(fans[0] == 6, "six fans (%d)" % fans[0])
	check(_events.count("fired_hit") == 6 and gun.get_loaded_count() == 0, "six shots that hit: %s" % [_events])


## The twirl: the button spins the gun once round the trigger on the trigger finger and it comes
## back into the grip (`twirled`); no shot in the middle of it; a wrist flick does it too when
## the profile allows flicks.
func test_the_twirl_spins_the_gun_round_the_trigger_and_back() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	var twirls := [0]
	gun.twirled.connect(func(): twirls[0] += 1)
	await _draw(p)
	sim.set_hand_pose(VRArms.Hand.RIGHT, _aim())
	await seconds(0.5)
	var hand: Node3D = p.right
	var rest := hand.global_transform.affine_inverse() * gun.global_transform
	sim.set_input(VRArms.Hand.RIGHT, "primary_click", true)
	await frames(2)
	sim.set_input(VRArms.Hand.RIGHT, "primary_click", false)
	check(gun.is_twirling(), "the button starts a twirl")
	await seconds(0.3)
	var mid := hand.global_transform.affine_inverse() * gun.global_transform
	var turned := rad_to_deg(mid.basis.get_rotation_quaternion().angle_to(rest.basis.get_rotation_quaternion()))
	check(turned > 90.0, "mid-spin the gun is turned about the trigger (%.0f degrees)" % turned)
	var trigger_pivot: Vector3 = gun.get_node("Trigger").global_position
	check(trigger_pivot.distance_to(hand.global_transform * rest * gun.get_node("Trigger").position) < 0.002, "round the trigger: it stays on the finger")
	_events.clear()
	await _pull_trigger(sim)
	check(not _events.has("fired_hit") and not _events.has("dry_fired"), "no pull mid-spin: %s" % [_events])
	await seconds(0.6)
	check(twirls[0] == 1 and not gun.is_twirling(), "twirled once (%d)" % twirls[0])
	var back := hand.global_transform.affine_inverse() * gun.global_transform
	check(back.origin.distance_to(rest.origin) < 0.001 and rad_to_deg(back.basis.get_rotation_quaternion().angle_to(rest.basis.get_rotation_quaternion())) < 0.5, "back in the grip")
	# A flick of the wrist, with flicks on in the profile.
	check(_load_profile(gun, "[twirl]\nflick_speed_rad_s = 12.0\n"), "a profile with flicks")
	var aim := _aim()
	for k in 4:
		sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(aim.basis * Basis(Vector3.RIGHT, -0.25 * (k + 1)), aim.origin))
		await frames(1)
	sim.set_hand_pose(VRArms.Hand.RIGHT, aim)
	await seconds(1.0)
	check(twirls[0] == 2, "a flick twirls (%d)" % twirls[0])


## Drops the drawn gun far from the holster, then holds it still at `at`, turned by `basis`,
## and lets it fall: the events of the fall.
func _drop_from(p: Dictionary, basis: Basis, at: Vector3) -> Array:
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	if gun.get_state() != VRArms.RevolverState.DROPPED:
		await _draw(p)
		sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(0.3, 1.5, 0.5)))
		await frames(3)
		sim.set_input(VRArms.Hand.RIGHT, "grip", 0.0)
		await frames(2)
		# The hand goes away: no grip press near the gun picks it up again.
		sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.4, 1.0, 0.3)))
	gun.global_transform = Transform3D(basis, at)
	gun.linear_velocity = Vector3.ZERO
	gun.angular_velocity = Vector3.ZERO
	_events.clear()
	await seconds(1.2)
	return _events.duplicate()


## The Single Action Army has no drop safety: landing hard on its hammer, down on a live round,
## fires it. The dropped gun notices its landings itself.
func test_a_dropped_gun_that_lands_on_its_hammer_fires() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var upright := await _drop_from(p, Basis(), Vector3(1.0, 1.6, 1.0))
	check(gun.get_state() == VRArms.RevolverState.DROPPED and gun.global_position.y < 0.2, "it fell to the floor (%.2f m)" % gun.global_position.y)
	check(not upright.has("fired_miss") and not upright.has("fired_hit") and gun.get_loaded_count() == 6, "right way up it does not fire: %s" % [upright])
	var low := await _drop_from(p, Basis(Vector3.BACK, PI), Vector3(1.0, 0.25, 1.0))
	check(not low.has("fired_miss") and gun.get_loaded_count() == 6, "upside down from 20 cm it does not: %s" % [low])
	var high := await _drop_from(p, Basis(Vector3.BACK, PI), Vector3(1.0, 1.6, 1.0))
	check(high.count("fired_miss") + high.count("fired_hit") == 1 and gun.get_loaded_count() == 5, "upside down from 1.6 m it fires, once: %s" % [high])


func test_with_a_transfer_bar_a_dropped_gun_never_fires() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	check(_load_profile(gun, "[fanning]\ntransfer_bar = true\n"), "a profile with a transfer bar")
	var high := await _drop_from(p, Basis(Vector3.BACK, PI), Vector3(1.0, 1.6, 1.0))
	check(gun.global_position.y < 0.2 and not high.has("fired_miss") and gun.get_loaded_count() == 6, "upside down from 1.6 m it does not fire: %s" % [high])


## The hands' handling poses: the gun hand twirling and at the open gate, the off hand poised
## over the hammer to fan.
func test_the_hands_take_the_handling_poses() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	var drivers := []
	for side in [VRArms.Hand.LEFT, VRArms.Hand.RIGHT]:
		var d := HandPoseDriver.new()
		d.hand = side
		add_child(d)
		drivers.append(d)
	var off: HandPoseDriver = drivers[0]
	var hand: HandPoseDriver = drivers[1]
	gun.hand_pose = hand
	gun.support_hand_pose = off
	gun.support_controller = p.left
	await _draw(p)
	sim.set_hand_pose(VRArms.Hand.RIGHT, _aim())
	await seconds(0.3)
	check(hand.get_pose_state() == VRArms.HandPoseState.GRIP_READY, "in the hand: GripReady (%d)" % hand.get_pose_state())
	sim.set_input(VRArms.Hand.RIGHT, "primary_click", true)
	await frames(2)
	sim.set_input(VRArms.Hand.RIGHT, "primary_click", false)
	await frames(2)
	check(hand.get_pose_state() == VRArms.HandPoseState.TWIRL, "twirling: Twirl (%d)" % hand.get_pose_state())
	await seconds(1.0)
	check(hand.get_pose_state() == VRArms.HandPoseState.GRIP_READY, "back in the grip: GripReady (%d)" % hand.get_pose_state())
	# The off hand over the hammer, the trigger held: poised to fan.
	var hammer: Node3D = gun.get_node("Hammer")
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 1.0)
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), hammer.global_position + Vector3(0, 0.2, 0.05)))
	await frames(3)
	check(off.get_pose_state() == VRArms.HandPoseState.FANNING, "the off hand over the hammer: Fanning (%d)" % off.get_pose_state())
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), hammer.global_position + Vector3(-0.5, -0.3, 0.0)))
	await frames(3)
	check(off.get_pose_state() == VRArms.HandPoseState.DEFAULT, "and away: Default (%d)" % off.get_pose_state())
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	# (The pull played the Shoot pose.)
	await seconds(0.6)
	gun.thumb_hammer(0.45)
	gun.release_hammer()
	gun.open_gate()
	await frames(3)
	check(gun.is_gate_open() and hand.get_pose_state() == VRArms.HandPoseState.GATE_LOADING, "the gate open: GateLoading (%d)" % hand.get_pose_state())
	gun.close_gate()
	await frames(3)
	check(hand.get_pose_state() == VRArms.HandPoseState.GRIP_READY, "shut: GripReady (%d)" % hand.get_pose_state())


## At the open gate, the other hand's open palm on the cylinder rolls it the Colt's way
## (clockwise from behind): a click a sixth of a turn. Gripping (a cartridge), it rolls nothing.
func test_the_other_hand_rolls_the_cylinder_at_the_open_gate() -> void:
	var p := _make_scene()
	var gun: Revolver = p.gun
	var sim: XRTrackingSimulator = p.simulator
	gun.support_controller = p.left
	var clicks := []
	gun.cylinder_indexed.connect(func(c: int): clicks.append(c))
	await _draw(p)
	sim.set_hand_pose(VRArms.Hand.RIGHT, _aim())
	await seconds(0.3)
	DemoActions.half_cock(gun)
	gun.open_gate()
	await frames(2)
	clicks.clear()
	var cylinder: Vector3 = gun.get_node("Cylinder").position
	var roll := func(grip: float) -> void:
		sim.set_input(VRArms.Hand.LEFT, "grip", grip)
		for k in 31:
			var a := deg_to_rad(90.0 - 130.0 * k / 30.0)
			var at: Vector3 = gun.global_transform * (cylinder + Vector3(cos(a), sin(a), 0.0) * 0.045)
			sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), at))
			await frames(1)
		sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.4, 1.0, 0.3)))
		await frames(2)
	var from: int = gun.get_current_chamber()
	await roll.call(0.0)
	check(clicks.size() == 2 and gun.get_current_chamber() == (from + 2) % 6, "130 degrees of the open palm: two clicks (%s)" % [clicks])
	await roll.call(1.0)
	check(clicks.size() == 2, "a gripping hand rolls nothing (%s)" % [clicks])
