@tool
## Hot reload of the extension in the editor (run by `cargo xtask hot-reload-test`): opens this
## scene in a headless editor, reloads vr_arms through GDExtensionManager, and checks that the
## classes are registered again, a node created before the reload still answers, and a new rig
## solves; and that in the editor the bone writers leave the skeleton alone unless their
## `editor_preview` is on. Does nothing unless the editor was started with `-- --hot-reload-check`.
extends Node3D

const EXTENSION := "res://addons/vr_arms/vr_arms.gdextension"

func _ready() -> void:
	if not Engine.is_editor_hint() or not OS.get_cmdline_user_args().has("--hot-reload-check"):
		return
	_run.call_deferred()


func _run() -> void:
	var problems: Array[String] = []
	var before := ControllerTargets.new()
	add_child(before)
	var rig_before := VRArmRig.new()
	add_child(rig_before)
	var status := GDExtensionManager.reload_extension(EXTENSION)
	for i in 5:
		await get_tree().process_frame
	if status != GDExtensionManager.LOAD_STATUS_OK:
		problems.append("reload_extension returned %d" % status)
	for cls in ["VRArmRig", "ControllerTargets", "Revolver", "XRTrackingSimulator", "VRArmsSetup"]:
		if not ClassDB.class_exists(cls):
			problems.append("%s is not registered after the reload" % cls)
	if not is_instance_valid(before) or before.get_setup_problems().is_empty():
		problems.append("a ControllerTargets made before the reload does not answer")
	if not is_instance_valid(rig_before) or rig_before.get_setup_problems().is_empty():
		problems.append("a VRArmRig made before the reload does not answer")
	# A fresh rig on a fresh skeleton after the reload: its setup is complete once wired.
	var skeleton := Skeleton3D.new()
	for n in ["LeftShoulder", "LeftUpperArm", "LeftLowerArm", "LeftHand", "RightShoulder", "RightUpperArm", "RightLowerArm", "RightHand"]:
		skeleton.add_bone(n)
	add_child(skeleton)
	var rig := VRArmRig.new()
	skeleton.add_child(rig)
	var missing := Array(rig.get_setup_problems()).filter(func(p): return "is not in the skeleton" in p)
	if not missing.is_empty():
		problems.append("a rig made after the reload does not find its bones: %s" % [missing])
	problems.append_array(await _editor_preview_problems())
	if problems.is_empty():
		print("hot reload check passed: vr_arms reloaded, classes registered, old and new nodes answer")
	else:
		printerr("hot reload check FAILED: %s" % "; ".join(problems))
	get_tree().quit(0 if problems.is_empty() else 1)


## A rig whose targets sit at the origin: in the editor it must not move the hand unless
## `editor_preview` is on. The skeleton is updated on demand and the hand read in
## `skeleton_updated` (the only place that shows the modifiers' result).
func _editor_preview_problems() -> Array[String]:
	var out: Array[String] = []
	var skeleton := HumanoidBuilder.build()
	add_child(skeleton)
	var rig := VRArmRig.new()
	for side in ["left", "right"]:
		var target := Marker3D.new()
		add_child(target)
		rig.set(side + "_target", target)
	skeleton.add_child(rig)
	var hand := skeleton.find_bone("LeftHand")
	var rest := skeleton.get_bone_global_rest(hand).origin
	var seen: Array[Vector3] = []
	skeleton.skeleton_updated.connect(func(): seen.append(skeleton.get_bone_global_pose(hand).origin))
	await _update(skeleton)
	var still: Vector3 = seen.back() if not seen.is_empty() else rest
	if seen.is_empty():
		out.append("the skeleton did not update on demand in the editor")
	elif still.distance_to(rest) > 1e-4:
		out.append("in the editor, the rig moved the hand %.3f m without editor_preview" % still.distance_to(rest))
	rig.editor_preview = true
	seen.clear()
	await _update(skeleton)
	var moved: Vector3 = seen.back() if not seen.is_empty() else rest
	if moved.distance_to(rest) < 0.05:
		out.append("with editor_preview on, the rig did not solve in the editor (hand %.3f m from rest)" % moved.distance_to(rest))
	skeleton.queue_free()
	return out


## Marks the skeleton dirty and waits for its next update.
func _update(skeleton: Skeleton3D) -> void:
	skeleton.set_bone_pose_position(0, skeleton.get_bone_pose_position(0))
	for i in 3:
		await get_tree().process_frame
