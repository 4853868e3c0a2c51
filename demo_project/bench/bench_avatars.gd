## In-engine benchmark: N avatars driven by simulated tracking, with
##   --mode=none       skeletons only (the baseline every other mode is compared with),
##   --mode=twobone    Godot's TwoBoneIK3D doing the two arm solves, targets on the controllers,
##   --mode=arms       our arm pipeline (five stages + VRArmRig) per avatar,
##   --mode=full       the whole body from VRArmsSetup per avatar (pipeline, body follow, spine,
##                     clavicles, twist, hand poses).
##   --mode=budget     the whole body with the crowd budget: VRArmRig.update_interval_frames = 3.
##   --mode=remote     the whole body as one VRRemoteBody per avatar (VRArmsSetup.setup_remote).
##   --mode=remote_budget  the same with VRRemoteBody.update_interval_frames = 3.
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
	for i in _avatars:
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


func _process(_delta: float) -> void:
	_frame += 1
	var t := _frame / 90.0
	var sim: XRTrackingSimulator = _xr.simulator
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.3 + 0.1 * cos(t), 1.2 + 0.2 * sin(t * 1.3), 0.3)))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.3 - 0.1 * sin(t), 1.15 + 0.15 * cos(t * 0.7), 0.3)))
	if _frame >= _frames:
		get_tree().quit(0)
