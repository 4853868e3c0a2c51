@tool
## Hot reload of the extension in the editor (run by `cargo xtask hot-reload-test`): opens this
## scene in a headless editor, reloads vr_arms through GDExtensionManager, and checks that the
## classes are registered again, a node created before the reload still answers, and a new rig
## solves. Does nothing unless the editor was started with `-- --hot-reload-check`.
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
	if problems.is_empty():
		print("hot reload check passed: vr_arms reloaded, classes registered, old and new nodes answer")
	else:
		printerr("hot reload check FAILED: %s" % "; ".join(problems))
	get_tree().quit(0 if problems.is_empty() else 1)
