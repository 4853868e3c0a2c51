## A scripted session through the simulated tracking: look around, reach in all directions,
## draw the revolver, cock and fire at each target, reload by hand at the loading gate (cases
## ejected one by one, cartridges taken from the belt by the left hand), fan two shots, holster. It records the revolver's
## and the targets' events in order, saves mirror screenshots at key moments when the scene is
## rendered, and emits `finished` with a summary.
class_name Autopilot
extends Node

## The session is over: `summary` has "frames", "seconds", "events", "hits", "targets_hit",
## "screenshots".
signal finished(summary: Dictionary)

var simulator: XRTrackingSimulator
var gun: Revolver
var holster: HolsterZone
## The belt with the cartridge loops (refilled every session).
var belt: Node3D
var targets: Array = []
var mirror: PlanarMirror
## Folder for screenshots ("" = none).
var screenshot_dir := ""
## Play the session again and again (the soak test) instead of finishing once.
var loop := false
## Check once that the character's pixels are in the mirror (needs rendering).
var render_check := false
## The character, hidden for one frame by the render check.
var character: Node3D
## Calibrate first (arms out for a second), as a player with an avatar of their own does: a
## short-armed one gets arms that reach the holster. Null: no calibration.
var calibrator: AvatarCalibrator

var events: Array[String] = []
var frames := 0
var elapsed := 0.0
var screenshots: Array[String] = []
## Fastest the hands and head move (m/s) as a person would, easing to each pose; 0: they jump
## to it at once. With a speed, each pause of the session starts when they arrived.
var move_speed := 0.0
## Fastest they turn (rad/s) when `move_speed` is set.
var turn_speed := 8.0
var _head := Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0))
var _hits := {}
## Where each hand (by VRArms.Hand) and the head ("head") is going, and where it is, when moving
## at `move_speed`.
var _goal := {}
var _at := {}


func _ready() -> void:
	# Before the pipeline's stages (-1000 and later) read the controllers.
	process_priority = -2000
	for s in ["latched", "drawn", "cocked", "dry_fired", "empty_clicked", "cylinder_opened", "cylinder_closed", "holstered", "dropped", "fanned"]:
		gun.connect(s, _record.bind(s))
	gun.fired.connect(_on_fired)
	gun.round_loaded.connect(func(_c: int) -> void: _record("round_loaded"))
	gun.case_ejected.connect(func(_c: int, spent: bool) -> void: _record("case_ejected" if spent else "round_ejected"))
	for t in targets:
		t.hit.connect(_on_target_hit.bind(t.name))
	_run.call_deferred()


func _process(delta: float) -> void:
	frames += 1
	elapsed += delta
	for key in _goal:
		var now: Transform3D = _at[key]
		var goal: Transform3D = _goal[key]
		var from := now.basis.get_rotation_quaternion()
		var to := goal.basis.get_rotation_quaternion()
		var angle := from.angle_to(to)
		var basis := goal.basis if angle <= turn_speed * delta else Basis(from.slerp(to, turn_speed * delta / angle))
		_at[key] = Transform3D(basis, now.origin.move_toward(goal.origin, move_speed * delta))
		_apply(key, _at[key])


func _apply(key, t: Transform3D) -> void:
	if key is String:
		simulator.set_head_pose(t)
	else:
		simulator.set_hand_pose(key, t)


## Sends a hand (or the head, key "head") to `t`: at once, or at `move_speed`.
func _move(key, t: Transform3D) -> void:
	if move_speed <= 0.0 or not _at.has(key):
		_at[key] = t
		_apply(key, t)
		if move_speed <= 0.0:
			return
	_goal[key] = t


func _set_hand(side: int, t: Transform3D) -> void:
	_move(side, t)


func _arrived() -> bool:
	for key in _goal:
		if not _at[key].is_equal_approx(_goal[key]):
			return false
	return true


func _record(name: String) -> void:
	events.append(name)


func _on_fired(hit: bool, _point: Vector3, _normal: Vector3, collider: Object) -> void:
	events.append("fired_hit" if hit else "fired_miss")


func _on_target_hit(_point: Vector3, _health: float, target_name: String) -> void:
	_hits[target_name] = _hits.get(target_name, 0) + 1
	events.append("hit:" + target_name)


func _run() -> void:
	while true:
		await _session()
		if not loop:
			break
		for t in targets:
			t.reset()
		if belt:
			RevolverBuilder.fill_cartridge_loops(belt)
	finished.emit(summary())


func summary() -> Dictionary:
	var targets_hit := 0
	for t in targets:
		if _hits.get(t.name, 0) > 0:
			targets_hit += 1
	return {"frames": frames, "seconds": elapsed, "events": events.duplicate(), "hits": _hits.duplicate(), "targets_hit": targets_hit, "screenshots": screenshots.duplicate()}


func _session() -> void:
	if calibrator != null and frames < 10:
		await _calibrate()
	await _look_around()
	await _reach_everywhere()
	await _crouch()
	await _draw()
	await _shot("drawn")
	for t in targets:
		await _fire_at(t)
		if t == targets[0]:
			await _shot("aiming")
			if render_check:
				await _check_character_in_mirror()
				render_check = false
	await _reload()
	await _fan_at(targets[0])
	await _holster()
	await _shot("holstered")


func _seconds(s: float) -> void:
	while not _arrived():
		await get_tree().process_frame
	var end := elapsed + s
	while elapsed < end:
		await get_tree().process_frame


## Moves the head through `yaw_pitch` pairs (radians from facing the mirror).
func _look_around() -> void:
	_hands_at_rest()
	for yp in [Vector2(0.6, 0.0), Vector2(-0.6, 0.0), Vector2(0.0, 0.4), Vector2(0.0, -0.4), Vector2.ZERO]:
		var from := _head.basis
		var to := Basis(Vector3.UP, PI + yp.x) * Basis(Vector3.RIGHT, yp.y)
		for i in 20:
			_set_head(Transform3D(from.slerp(to, (i + 1) / 20.0), _head.origin))
			await get_tree().process_frame
		await _seconds(0.15)


func _hands_at_rest() -> void:
	_set_hand(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.22, 1.0, 0.12)))
	_set_hand(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.22, 1.0, 0.12)))


## Forward, up, out to the side, across the body, down and back to the chest, both hands.
func _reach_everywhere() -> void:
	var spots := [Vector3(0.2, 1.4, 0.65), Vector3(0.25, 2.1, 0.2), Vector3(0.8, 1.4, 0.0), Vector3(-0.3, 1.3, 0.35), Vector3(0.3, 0.75, 0.2), Vector3(0.15, 1.3, 0.15)]
	for spot in spots:
		var mirrored := Vector3(-spot.x, spot.y, spot.z)
		_set_hand(VRArms.Hand.LEFT, Transform3D(Basis(), spot))
		_set_hand(VRArms.Hand.RIGHT, Transform3D(Basis(), mirrored))
		await _seconds(0.45)
		if spot == spots[1]:
			await _shot("reach_up")
	_hands_at_rest()
	await _seconds(0.3)


## Ducks 40 cm as behind cover, hands forward and low, then stands back up.
func _crouch() -> void:
	var standing := _head
	_set_head(Transform3D(standing.basis, standing.origin + Vector3(0, -0.4, 0.05)))
	_set_hand(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.22, 0.8, 0.35)))
	_set_hand(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.22, 0.8, 0.35)))
	await _seconds(0.6)
	await _shot("crouch")
	_set_head(standing)
	_hands_at_rest()
	await _seconds(0.4)


func _draw() -> void:
	_set_hand(VRArms.Hand.RIGHT, RevolverBuilder.hand_on_holstered_gun(holster))
	await _seconds(0.15)
	simulator.set_input(VRArms.Hand.RIGHT, "grip", 1.0)
	await _seconds(0.3)
	var start := RevolverBuilder.hand_on_holstered_gun(holster)
	for i in 24:
		_set_hand(VRArms.Hand.RIGHT, Transform3D(start.basis, start.origin + Vector3.UP * 0.02 * (i + 1)))
		await get_tree().process_frame
	await _seconds(0.2)


func _aim_at(target: Node3D) -> void:
	var hand := Vector3(-0.2, 1.38, 0.42)
	var look := Basis.looking_at(target.global_position - hand, Vector3.UP)
	# The barrel is 6.6 cm above the hand: tilt down so the shot meets the target's centre.
	var tilt := atan2(RevolverBuilder.MUZZLE.y, hand.distance_to(target.global_position))
	_set_hand(VRArms.Hand.RIGHT, Transform3D(look * Basis(Vector3.RIGHT, -tilt), hand))
	_set_head(Transform3D(Basis.looking_at(target.global_position - _head.origin, Vector3.UP), _head.origin))


func _fire_at(target: Node3D) -> void:
	_aim_at(target)
	await _seconds(0.35)
	simulator.set_input(VRArms.Hand.RIGHT, "primary", Vector2(0, -1))
	await _seconds(0.75)
	simulator.set_input(VRArms.Hand.RIGHT, "primary", Vector2.ZERO)
	await _seconds(0.05)
	simulator.set_input(VRArms.Hand.RIGHT, "trigger", 1.0)
	await _seconds(0.3)
	simulator.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	await _seconds(0.3)


## The reload by hand, as on the real gun: the hammer to half-cock, the gate open, the cylinder
## turned under it a click at a time; the ejector pushes out each spent case, and for each
## empty chamber the left hand takes a cartridge from the belt to the gate. Then the gate shuts.
func _reload() -> void:
	_set_head(_head)
	# The gun up in front, turned a little to show its right side (the gate).
	_set_hand(VRArms.Hand.RIGHT, Transform3D(Basis(Vector3.UP, PI) * Basis(Vector3.FORWARD, 0.5) * Basis(Vector3.RIGHT, 0.4), Vector3(-0.1, 1.2, 0.35)))
	await _seconds(0.4)
	DemoActions.half_cock(gun)
	await _seconds(0.15)
	gun.open_gate()
	for i in 6:
		if gun.get_chambers()[gun.get_gate_chamber()] == "spent":
			gun.push_ejector()
			await _seconds(0.12)
		gun.turn_cylinder(1)
		await _seconds(0.08)
	for i in 6:
		if gun.get_chambers()[gun.get_gate_chamber()] == "empty":
			await _load_one_from_belt()
		gun.turn_cylinder(1)
		await _seconds(0.08)
	gun.close_gate()
	_set_hand(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.22, 1.0, 0.12)))
	await _seconds(0.2)


## The left hand takes a cartridge from the belt and brings it to the open gate (the gun loads
## it there); quick reload when the demo has no belt.
func _load_one_from_belt() -> void:
	var loaded := gun.get_loaded_count()
	var cartridges := RevolverBuilder.belt_cartridges(belt) if belt else []
	if cartridges.is_empty():
		gun.insert_cartridge()
		return
	var round: Node3D = cartridges[0]
	_set_hand(VRArms.Hand.LEFT, Transform3D(Basis(), round.global_position))
	await _seconds(0.1)
	simulator.set_input(VRArms.Hand.LEFT, "grip", 1.0)
	await _seconds(0.1)
	# The cartridge sits 5 cm ahead of the hand and 1 cm below: put it on the gate.
	var gate: Vector3 = gun.get_node("Gate").global_position
	_set_hand(VRArms.Hand.LEFT, Transform3D(Basis(), gate + Vector3(0, 0.01, 0.05)))
	var waited := 0.0
	while gun.get_loaded_count() == loaded and waited < 1.0:
		await get_tree().process_frame
		waited += get_process_delta_time()
	simulator.set_input(VRArms.Hand.LEFT, "grip", 0.0)
	await _seconds(0.05)


## Fans two shots at `target`: the trigger held back, the left hand's palm sweeps over the
## hammer, fast, twice.
func _fan_at(target: Node3D) -> void:
	_aim_at(target)
	await _seconds(0.35)
	var hammer: Node3D = gun.get_node("Hammer")
	# The left hand above the hammer first (on the way it may pass the hammer: the trigger is not
	# held yet, so that is no fan).
	_set_hand(VRArms.Hand.LEFT, Transform3D(Basis(), DemoActions.fan_palm(hammer.global_position, 0.0)))
	await _seconds(0.05)
	simulator.set_input(VRArms.Hand.RIGHT, "trigger", 1.0)
	await _seconds(0.1)
	for sweep in 2:
		# From 20 cm above the spur, in at 2 m/s (or as fast as the hands may move), then out.
		_set_hand(VRArms.Hand.LEFT, Transform3D(Basis(), DemoActions.fan_palm(hammer.global_position, 0.0)))
		await _seconds(0.05)
		var t := 0.0
		while t < DemoActions.FAN_SWEEP_S:
			_set_hand(VRArms.Hand.LEFT, Transform3D(Basis(), DemoActions.fan_palm(hammer.global_position, t)))
			await get_tree().process_frame
			t += get_process_delta_time()
		await _seconds(0.02)
		_set_hand(VRArms.Hand.LEFT, Transform3D(Basis(), hammer.global_position + Vector3(0, 0.25, 0.15)))
		await _seconds(0.3)
	simulator.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	_set_hand(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.22, 1.0, 0.12)))
	await _seconds(0.3)


func _holster() -> void:
	var above := RevolverBuilder.hand_on_holstered_gun(holster)
	for i in 20:
		_set_hand(VRArms.Hand.RIGHT, Transform3D(above.basis, above.origin + Vector3.UP * 0.02 * (20 - i)))
		await get_tree().process_frame
	_set_hand(VRArms.Hand.RIGHT, RevolverBuilder.hand_on_holstered_gun(holster))
	await _seconds(0.15)
	simulator.set_input(VRArms.Hand.RIGHT, "grip", 0.0)
	await _seconds(0.3)
	_hands_at_rest()
	await _seconds(0.5)


## Arms out to the sides, the controllers 1.56 m apart (a 1.76 m player), for a calibration.
func _calibrate() -> void:
	_set_head(_head)
	_set_hand(VRArms.Hand.LEFT, Transform3D(_head.basis, _head * Vector3(-0.78, -0.2, 0.0)))
	_set_hand(VRArms.Hand.RIGHT, Transform3D(_head.basis, _head * Vector3(0.78, -0.2, 0.0)))
	await _seconds(0.3)
	calibrator.start_calibration()
	await _seconds(1.3)


func _set_head(t: Transform3D) -> void:
	_move("head", t)


## Saves the mirror's image as `<n>_<label>.png` (and the player's view as
## `<n>_<label>_view.png`) when the scene is rendered.
func _shot(label: String) -> void:
	if screenshot_dir == "" or mirror == null or DisplayServer.get_name() == "headless":
		return
	await RenderingServer.frame_post_draw
	var n := screenshots.size() + 1
	var image := mirror.viewport.get_texture().get_image()
	if image:
		image.flip_x()  # as the glass shows it
		var path := screenshot_dir.path_join("%02d_%s.png" % [n, label])
		if image.save_png(path) == OK:
			screenshots.append(path)
	var view := get_viewport().get_texture().get_image()
	if view:
		var path := screenshot_dir.path_join("%02d_%s_view.png" % [n, label])
		if view.save_png(path) == OK:
			screenshots.append(path)


## Compares the mirror's image with and without the character: the pixels that change are the
## character's (and its shadow's). Prints the count; passes above 0.5 % of the mirror.
func _check_character_in_mirror() -> void:
	if DisplayServer.get_name() == "headless":
		print("vr_arms demo: render check not run (headless: nothing is rendered)")
		return
	await RenderingServer.frame_post_draw
	var with_image := mirror.viewport.get_texture().get_image()
	character.visible = false
	await get_tree().process_frame
	await RenderingServer.frame_post_draw
	var without := mirror.viewport.get_texture().get_image()
	character.visible = true
	var changed := 0
	for y in with_image.get_height():
		for x in with_image.get_width():
			var a := with_image.get_pixel(x, y)
			var b := without.get_pixel(x, y)
			if maxf(absf(a.r - b.r), maxf(absf(a.g - b.g), absf(a.b - b.b))) > 0.08:
				changed += 1
	var total := with_image.get_width() * with_image.get_height()
	var share := 100.0 * changed / total
	for pair in [["with_character", with_image], ["without_character", without]]:
		pair[1].flip_x()
		var path := screenshot_dir.path_join("render_check_%s.png" % pair[0]) if screenshot_dir != "" else ""
		if path != "" and pair[1].save_png(path) == OK:
			screenshots.append(path)
	print("vr_arms demo: render check %s: %d of %d mirror pixels (%.2f %%) show the character" % ["passed" if share > 0.5 else "FAILED", changed, total, share])
