## Minimal demo: an XR origin and a humanoid set up in one call by VRArmsSetup, driven by
## simulated tracking (the hands reach forward, overhead and across). With `--demo-seconds=N` it
## quits after N seconds and prints what it did. The full demo scene comes with issue 7.
extends Node3D

var _parts := {}
var _time := 0.0
var _frames := 0
var _quit_after := -1.0
var _hand_error_max := 0.0
var _solved_frames := 0


func _ready() -> void:
	# Drive the simulated controllers before the pipeline stages (-1000..-600) read them.
	process_priority = -2000
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--demo-seconds="):
			_quit_after = float(arg.trim_prefix("--demo-seconds="))
	_parts = XRSetup.make(self)
	var character := Node3D.new()
	character.name = "Character"
	add_child(character)
	var skeleton := HumanoidBuilder.build()
	character.add_child(skeleton)
	# One call wires the whole body: pipeline, upper body, clavicles, twist, hand poses.
	var body := VRArmsSetup.setup_skeleton(skeleton, _parts.origin)
	body.rig.debug_draw = true
	body.controller_targets.debug_draw = true
	body.reach_clamp.debug_draw = true
	# The simulated player looks along the avatar's forward (+Z); cameras look along -Z.
	_parts.simulator.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	_parts.skeleton = skeleton
	skeleton.skeleton_updated.connect(_on_skeleton_updated)
	var light := DirectionalLight3D.new()
	light.rotation = Vector3(-0.8, 0.6, 0)
	add_child(light)
	print("vr_arms demo: humanoid set up by VRArmsSetup (body follow, upper body, arm pipeline, twist, hand poses), simulated controllers")


func _process(delta: float) -> void:
	_time += delta
	_frames += 1
	var sim: XRTrackingSimulator = _parts.simulator
	var a := _time * 1.5
	# Reach forward, up overhead and across, so every correction layer shows.
	sim.set_hand_pose("left", Transform3D(Basis(), Vector3(0.3 + 0.1 * cos(a), 1.3 + 0.4 * sin(a), 0.3)))
	sim.set_hand_pose("right", Transform3D(Basis(), Vector3(-0.15 + 0.3 * cos(a * 0.7), 1.2 + 0.15 * sin(a * 1.3), 0.35)))
	if _quit_after >= 0.0 and _time >= _quit_after:
		print("vr_arms demo: %d frames in %.1f s, %d solved; wrists at most %.1f cm from their controllers (out-of-reach targets, overhead guard and body avoidance move them)" % [_frames, _time, _solved_frames, _hand_error_max * 100.0])
		get_tree().quit(0)


## After the modifiers ran: measure how far each hand is from its controller.
func _on_skeleton_updated() -> void:
	var s: Skeleton3D = _parts.skeleton
	_solved_frames += 1
	if _time < 0.5:
		return  # the pipeline's markers start at the origin on the very first update
	for side in ["left", "right"]:
		var bone := s.find_bone(side.capitalize() + "Hand")
		var hand := (s.global_transform * s.get_bone_global_pose(bone)).origin
		_hand_error_max = maxf(_hand_error_max, hand.distance_to(_parts[side].global_position))
