## In-engine benchmark: N avatars driven by simulated tracking, with
##   --mode=none       skeletons only (the baseline every other mode is compared with),
##   --mode=twobone    Godot's TwoBoneIK3D doing the two arm solves, targets on the controllers,
##   --mode=arms       our arm pipeline (five stages + VRArmRig) per avatar,
##   --mode=full       the whole body from VRArmsSetup per avatar (pipeline, body follow, spine,
##                     lower body, clavicles, twist, hand poses).
##   --mode=twobone_legs  Godot's TwoBoneIK3D solving both legs to fixed ankle targets (knees bent),
##   --mode=twobone_legs_hips  Godot's own modifiers moving the hips too: a CopyTransformModifier3D
##                     putting the hips bone on a marker, then TwoBoneIK3D on both legs (what
##                     the lower body's bone writes cost Godot, without our solve),
##   --mode=lower      our lower body alone (a LowerBodyRig: hips, spine bend, both legs, feet),
##   --mode=budget     the whole body with the crowd budget: VRArmRig.update_interval_frames = 3.
##   --mode=remote     the whole body as one VRRemoteBody per avatar (VRArmsSetup.setup_remote).
##   --mode=remote_budget  the same with VRRemoteBody.update_interval_frames = 3.
##   --mode=builtins   Godot's built-ins doing the bones a remote body writes, from the same
##                     tracked points: a CopyTransformModifier3D putting the hips under the
##                     headset, a LookAtModifier3D on each of chest, neck and head toward a point
##                     ahead of the headset, TwoBoneIK3D on both arms (to the controllers) and
##                     both legs (to ankle markers), and an AnimationTree per hand blending four
##                     finger poses on grip and trigger (a BlendSpace2D).
##   --mode=remote_avatars  N other players as VRAvatarSync shows them: the simulated player's
##                     state packed at 30 Hz and handed to one VRAvatarSync as N peers' packets
##                     (decoding, checks, jitter buffers, playback, a VRRemoteBody each); no
##                     network, so the figure is the receiving side's CPU alone.
##   --mode=remote_avatars_budget  the same with VRAvatarSync.remote_update_interval_frames = 3.
##   --mode=crowd, crowd_full, crowd_none  the crowd scene (bench_crowd.gd): 32 remote players
##                     around the camera at their levels of detail, all at full detail, or
##                     without bodies (its baseline); `--avatars` is not used.
## `cargo xtask bench` runs each mode for a fixed number of frames and compares the
## process's CPU user time (see ../shared/docs/measuring.md).
extends Node3D

var _mode := "none"
var _avatars := 1
var _frames := 600
## Godot's own comparator, checked on the first avatar: its end bones and their targets, and the
## largest distance between them seen in the skeleton's update after the first frames.
var _checked_skeleton: Skeleton3D
var _checked_ends := {}
var _worst_end_m := 0.0
var _measured_frames := 0
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
## The built-ins' finger poses, a library per hand (shared by every avatar: a mixer writes every
## track of its libraries, so one holding both hands would put the other hand back to rest), and
## each hand's AnimationTree with the controller that drives it.
var _finger_poses := {}
var _finger_trees: Array = []
## The largest curl (radians from rest) the built-ins gave the first avatar's left index finger.
var _finger_curl := 0.0
## The crowd scene, in the crowd modes.
var _crowd: BenchCrowd


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
	var crowd := _mode.begins_with("crowd")
	if crowd:
		# The players' views: the XR camera (one camera without an XR interface).
		(_xr.camera as Camera3D).current = true
		_crowd = BenchCrowd.new(_mode)
		add_child(_crowd)
	for i in (0 if networked or crowd else _avatars):
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
					_check_end(skeleton, side + "Hand", arms[k][1])
					# TwoBoneIK3D solves nothing without a pole: below and behind the shoulder.
					var pole := Marker3D.new()
					character.add_child(pole)
					pole.position = Vector3(0.4 if k == 0 else -0.4, 0.9, -0.3)
					ik.set_pole_node(k, ik.get_path_to(pole))
			"twobone_legs", "twobone_legs_hips":
				if _mode == "twobone_legs_hips":
					# The hips put on a marker 5 cm under their rest height every frame: Godot
					# then works out every bone under them again, as when our lower body moves
					# the hips.
					var hips := skeleton.find_bone("Hips")
					_hips_on_marker(skeleton, character, skeleton.get_bone_global_rest(hips).origin - Vector3(0, 0.05, 0))
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
					_check_end(skeleton, side + "Foot", ankle)
					# The knee forward (TwoBoneIK3D solves nothing without a pole).
					var knee := Marker3D.new()
					character.add_child(knee)
					knee.position = Vector3(ankle.position.x, 0.5, 0.6)
					ik.set_pole_node(k, ik.get_path_to(knee))
			"builtins":
				_builtins(character, skeleton)
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


## A CopyTransformModifier3D putting the hips bone (its position only) on a marker at `at` under
## `parent`, every frame.
func _hips_on_marker(skeleton: Skeleton3D, parent: Node3D, at: Vector3) -> void:
	var hips_at := Marker3D.new()
	parent.add_child(hips_at)
	hips_at.position = at
	var copy := CopyTransformModifier3D.new()
	skeleton.add_child(copy)
	copy.set_setting_count(1)
	copy.set_apply_bone_name(0, "Hips")
	copy.set_reference_type(0, BoneConstraint3D.REFERENCE_TYPE_NODE)
	copy.set_reference_node(0, copy.get_path_to(hips_at))
	copy.set_copy_rotation(0, false)
	copy.set_copy_scale(0, false)


## Godot's built-ins doing the bones `VRRemoteBody` writes (see the modes above), in the order
## the bones hang: the hips, the spine toward the look, then the limbs.
func _builtins(character: Node3D, skeleton: Skeleton3D) -> void:
	# The hips under the headset (at their rest height below the standing eyes).
	var hips := skeleton.find_bone("Hips")
	_hips_on_marker(skeleton, _xr.camera, Vector3(0, skeleton.get_bone_global_rest(hips).origin.y - 1.65, 0))
	# Ahead of the headset (a camera looks along -Z), at chest height: the spine turns with the
	# look without leaning back (which would take the shoulders out of the hands' reach).
	var look_at := Marker3D.new()
	_xr.camera.add_child(look_at)
	look_at.position = Vector3(0, -0.35, -2)
	for bone in ["Chest", "Neck", "Head"]:
		var look := LookAtModifier3D.new()
		skeleton.add_child(look)
		look.bone_name = bone
		look.target_node = look.get_path_to(look_at)
	var ik := TwoBoneIK3D.new()
	skeleton.add_child(ik)
	ik.set_setting_count(4)
	var limbs := [
		["LeftUpperArm", "LeftLowerArm", "LeftHand", _xr.left, Vector3(0.4, 0.9, -0.3)],
		["RightUpperArm", "RightLowerArm", "RightHand", _xr.right, Vector3(-0.4, 0.9, -0.3)],
	]
	for k in 2:
		var ankle := Marker3D.new()
		character.add_child(ankle)
		ankle.position = Vector3(0.09 if k == 0 else -0.09, 0.2, 0.1)
		var side: String = ["Left", "Right"][k]
		limbs.append([side + "UpperLeg", side + "LowerLeg", side + "Foot", ankle, Vector3(ankle.position.x, 0.5, 0.6)])
	for k in limbs.size():
		var limb: Array = limbs[k]
		ik.set_root_bone_name(k, limb[0])
		ik.set_middle_bone_name(k, limb[1])
		ik.set_end_bone_name(k, limb[2])
		ik.set_target_node(k, ik.get_path_to(limb[3]))
		_check_end(skeleton, limb[2], limb[3])
		# TwoBoneIK3D solves nothing without a pole.
		var pole := Marker3D.new()
		character.add_child(pole)
		pole.position = limb[4]
		ik.set_pole_node(k, ik.get_path_to(pole))
	for side in ["Left", "Right"]:
		if not _finger_poses.has(side):
			_finger_poses[side] = _make_finger_poses(skeleton, side)
		var tree := AnimationTree.new()
		character.add_child(tree)
		tree.add_animation_library("", _finger_poses[side])
		var space := AnimationNodeBlendSpace2D.new()
		for pose in [["open", Vector2(0, 0)], ["grip", Vector2(1, 0)], ["trigger", Vector2(0, 1)], ["fist", Vector2(1, 1)]]:
			var node := AnimationNodeAnimation.new()
			node.animation = "%s_%s" % [pose[0], side]
			space.add_blend_point(node, pose[1])
		tree.tree_root = space
		tree.active = true
		_finger_trees.append([tree, _xr.left if side == "Left" else _xr.right])


## Four finger poses of one hand: open, the grip's fingers curled (thumb, middle, ring, little),
## the trigger's (index), and a fist; a rotation track for each finger bone, from its rest.
func _make_finger_poses(skeleton: Skeleton3D, side: String) -> AnimationLibrary:
	var library := AnimationLibrary.new()
	for pose in ["open", "grip", "trigger", "fist"]:
		var animation := Animation.new()
		for b in skeleton.get_bone_count():
			var bone := skeleton.get_bone_name(b)
			if not bone.begins_with(side) or skeleton.get_bone_parent(b) < 0:
				continue
			var finger := bone.trim_prefix(side)
			if not (finger.begins_with("Thumb") or finger.begins_with("Index") or finger.begins_with("Middle") or finger.begins_with("Ring") or finger.begins_with("Little")):
				continue
			var index := finger.begins_with("Index")
			var curled: bool = pose == "fist" or (pose == "grip" and not index) or (pose == "trigger" and index)
			var rest := skeleton.get_bone_rest(b).basis.get_rotation_quaternion()
			var track := animation.add_track(Animation.TYPE_ROTATION_3D)
			animation.track_set_path(track, NodePath("%s:%s" % [skeleton.name, bone]))
			animation.rotation_track_insert_key(track, 0.0, rest * Quaternion(Vector3.RIGHT, 1.2 if curled else 0.0))
		library.add_animation("%s_%s" % [pose, side], animation)
	return library


## Checks that Godot's own comparator solves: `bone` of `skeleton` (the first avatar's) must reach
## `target`, or the run fails (a TwoBoneIK3D without a pole solves nothing and costs little).
func _check_end(skeleton: Skeleton3D, bone: String, target: Node3D) -> void:
	if _checked_skeleton == null:
		_checked_skeleton = skeleton
		skeleton.skeleton_updated.connect(_measure_ends)
	if skeleton == _checked_skeleton:
		_checked_ends[skeleton.find_bone(bone)] = target


func _measure_ends() -> void:
	if _frame < 3:
		return
	_measured_frames += 1
	if not _finger_trees.is_empty():
		var index := _checked_skeleton.find_bone("LeftIndexProximal")
		var rest := _checked_skeleton.get_bone_rest(index).basis.get_rotation_quaternion()
		_finger_curl = maxf(_finger_curl, rest.angle_to(_checked_skeleton.get_bone_pose_rotation(index)))
	for bone in _checked_ends:
		var at := _checked_skeleton.global_transform * _checked_skeleton.get_bone_global_pose(bone).origin
		_worst_end_m = maxf(_worst_end_m, at.distance_to((_checked_ends[bone] as Node3D).global_position))


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
	# Grip and trigger moving, so that every mode's fingers have something to follow.
	sim.set_input(VRArms.Hand.LEFT, "grip", 0.5 + 0.5 * sin(t * 2.0))
	sim.set_input(VRArms.Hand.LEFT, "trigger", 0.5 + 0.5 * cos(t * 1.7))
	sim.set_input(VRArms.Hand.RIGHT, "grip", 0.5 + 0.5 * cos(t * 2.3))
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 0.5 + 0.5 * sin(t * 1.1))
	for pair in _finger_trees:
		var controller: XRController3D = pair[1]
		(pair[0] as AnimationTree).set("parameters/blend_position", Vector2(controller.get_float("grip"), controller.get_float("trigger")))
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.3 + 0.1 * cos(t), 1.2 + 0.2 * sin(t * 1.3), 0.3)))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.3 - 0.1 * sin(t), 1.15 + 0.15 * cos(t * 0.7), 0.3)))
	if _frame >= _frames:
		if _checked_skeleton:
			# Far targets (out of reach) would fail this too: the bench's targets are in reach.
			print("bench: comparator end bones within %.4f m of their targets over %d updates" % [_worst_end_m, _measured_frames])
			# A modifier that writes nothing leaves the skeleton without an update to measure.
			if not _finger_trees.is_empty():
				print("bench: the built-ins' fingers curled up to %.2f rad" % _finger_curl)
				if _finger_curl < 0.2:
					push_error("bench: the built-ins' AnimationTree did not move the fingers")
					get_tree().quit(1)
					return
			if _worst_end_m > 0.01 or _measured_frames < (_frames - 3) / 2:
				push_error("bench: Godot's comparator did not solve (%.3f m off, %d updates)" % [_worst_end_m, _measured_frames])
				get_tree().quit(1)
				return
		if _crowd:
			print(_crowd.report())
		if _receiver:
			# So that the bench can tell a run that drew nobody from a cheap one.
			var playing := 0
			for peer in _receiver.get_remote_peers():
				if _receiver.get_remote_playback(peer) == "interpolated":
					playing += 1
			print("bench: remote avatars playing: %d" % playing)
		get_tree().quit(0)
