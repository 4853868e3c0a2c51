## In-engine benchmark: N avatars driven by simulated tracking, with
##   --mode=none       skeletons only (the baseline every other mode is compared with),
##   --mode=twobone    Godot's TwoBoneIK3D doing the two arm solves, targets on the controllers,
##   --mode=arms       our arm pipeline (five stages + VRArmRig) per avatar,
##   --mode=full       the whole body from VRArmsSetup per avatar (pipeline, body follow, spine,
##                     lower body, clavicles, twist, hand poses).
##   --mode=twobone_legs  Godot's TwoBoneIK3D solving both legs to fixed ankle targets (knees bent),
##   --mode=lower      our lower body alone (a LowerBodyRig: hips, spine bend, both legs, feet),
##   --mode=budget     the whole body with the crowd budget: VRArmRig.update_interval_frames = 3.
##   --mode=remote     the whole body as one VRRemoteBody per avatar (VRArmsSetup.setup_remote).
##   --mode=remote_budget  the same with VRRemoteBody.update_interval_frames = 3.
##   --mode=remote_avatars  N other players as VRAvatarSync shows them: the simulated player's
##                     state packed at 30 Hz and handed to one VRAvatarSync as N peers' packets
##                     (decoding, checks, jitter buffers, playback, a VRRemoteBody each); no
##                     network, so the figure is the receiving side's CPU alone.
##   --mode=remote_avatars_budget  the same with VRAvatarSync.remote_update_interval_frames = 3.
## `cargo xtask bench` runs each mode for a fixed number of frames and compares the
## process's CPU user time (see ../shared/docs/measuring.md).
extends Node3D

var _mode := "none"
var _avatars := 1
var _frames := 600
var _frame := 0
var _xr: Dictionary
## Classes switched off after the setup (`--off=HandPoseCopy,ForearmTwist`): modifiers are made
## inactive, other nodes stop processing. Says what each stage costs.
var _off: PackedStringArray = []
## The remote-avatars modes' sender (the simulated player) and receiver (the N remote avatars).
var _sender: VRAvatarSync
var _receiver: VRAvatarSync
var _next_packet_s := 0.0
var _clock_s := 0.0


func _ready() -> void:
	for arg in OS.get_cmdline_user_args():
		var kv := arg.trim_prefix("--").split("=")
		if kv.size() == 2:
			match kv[0]:
				"mode": _mode = kv[1]
				"avatars": _avatars = int(kv[1])
				"frames": _frames = int(kv[1])
				"off": _off = kv[1].split(",")
	process_priority = -2000
	_xr = XRSetup.make(self)
	_xr.simulator.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	var networked := _mode.begins_with("remote_avatars")
	if networked:
		_networked()
	for i in (0 if networked else _avatars):
		var character := Node3D.new()
		character.name = "Character%d" % i
		add_child(character)
		var skeleton := HumanoidBuilder.build()
		character.add_child(skeleton)
		match _mode:
			"twobone":
				var ik := TwoBoneIK3D.new()
				skeleton.add_child(ik)
				ik.set_setting_count(2)
				var arms := [["Left", _xr.left], ["Right", _xr.right]]
				for k in 2:
					var side: String = arms[k][0]
					ik.set_root_bone_name(k, side + "UpperArm")
					ik.set_middle_bone_name(k, side + "LowerArm")
					ik.set_end_bone_name(k, side + "Hand")
					ik.set_target_node(k, ik.get_path_to(arms[k][1]))
			"twobone_legs":
				var ik := TwoBoneIK3D.new()
				skeleton.add_child(ik)
				ik.set_setting_count(2)
				for k in 2:
					var side: String = ["Left", "Right"][k]
					var ankle := Marker3D.new()
					character.add_child(ankle)
					ankle.position = Vector3(0.09 if k == 0 else -0.09, 0.2, 0.1)
					ik.set_root_bone_name(k, side + "UpperLeg")
					ik.set_middle_bone_name(k, side + "LowerLeg")
					ik.set_end_bone_name(k, side + "Foot")
					ik.set_target_node(k, ik.get_path_to(ankle))
			"lower":
				var lower := LowerBodyRig.new()
				lower.head = _xr.camera
				lower.body_root = character
				lower.origin = _xr.origin
				skeleton.add_child(lower)
			"arms":
				var rig := VRArmRig.new()
				VRArmsSetup.wire_pipeline(character, _xr.left, _xr.right, rig)
				skeleton.add_child(rig)
			"full":
				VRArmsSetup.setup_skeleton(skeleton, _xr.origin, null)
			"remote":
				VRArmsSetup.setup_remote(skeleton, _xr.camera, _xr.left, _xr.right)
			"remote_budget":
				var made := VRArmsSetup.setup_remote(skeleton, _xr.camera, _xr.left, _xr.right)
				(made.body as VRRemoteBody).update_interval_frames = 3
			"budget":
				var body := VRArmsSetup.setup_skeleton(skeleton, _xr.origin, null)
				(body.rig as VRArmRig).update_interval_frames = 3
	for node in find_children("*", "", true, false):
		if node.get_class() in _off:
			if node is SkeletonModifier3D:
				(node as SkeletonModifier3D).active = false
			else:
				node.process_mode = Node.PROCESS_MODE_DISABLED
	print("bench: mode=%s avatars=%d frames=%d off=%s" % [_mode, _avatars, _frames, ",".join(_off)])


func _networked() -> void:
	var root := Node3D.new()
	root.name = "Player"
	add_child(root)
	_sender = VRAvatarSync.new()
	_sender.avatar_root = root
	_sender.head = _xr.camera
	_sender.left_hand = _xr.left
	_sender.right_hand = _xr.right
	add_child(_sender)
	var scene := HumanoidBuilder.build_scene("RemoteCharacter")
	_receiver = VRAvatarSync.new()
	_receiver.remote_avatar_scene = scene
	# The profile `setup_remote` gives the "remote" modes, so that the modes differ only by the
	# stream.
	_receiver.remote_profile = "res://addons/vr_arms/profiles/remote_player.toml"
	if _mode == "remote_avatars_budget":
		_receiver.remote_update_interval_frames = 3
	add_child(_receiver)


func _process(delta: float) -> void:
	_clock_s += delta
	if _receiver and _clock_s >= _next_packet_s:
		# On schedule, without a burst after a long frame (as VRAvatarSync sends).
		_next_packet_s = maxf(_next_packet_s + 1.0 / 30.0, _clock_s)
		var packet := _sender.get_state_packet()
		for i in _avatars:
			_receiver.receive_packet(i + 2, packet)
	_frame += 1
	var t := _frame / 90.0
	var sim: XRTrackingSimulator = _xr.simulator
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.3 + 0.1 * cos(t), 1.2 + 0.2 * sin(t * 1.3), 0.3)))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.3 - 0.1 * sin(t), 1.15 + 0.15 * cos(t * 0.7), 0.3)))
	if _frame >= _frames:
		if _receiver:
			# So that the bench can tell a run that drew nobody from a cheap one.
			var playing := 0
			for peer in _receiver.get_remote_peers():
				if _receiver.get_remote_playback(peer) == "interpolated":
					playing += 1
			print("bench: remote avatars playing: %d" % playing)
		get_tree().quit(0)
