## Package smoke test: run from the exported pack of a fresh project that has only the unzipped
## release of vr_arms. Sets a humanoid up in one call, drives it with simulated tracking and
## checks the hand lands on the controller, and that a profile of the addon loads. Prints
## "SMOKE PASS" or "SMOKE FAIL: ..." and quits with 0 or 1.
extends Node

var _failures: Array[String] = []


func _ready() -> void:
	_run.call_deferred()


func _check(ok: bool, what: String) -> void:
	if not ok:
		_failures.append(what)


func _run() -> void:
	for cls in ["VRArmsSetup", "VRArmRig", "VRRemoteBody", "Revolver", "XRTrackingSimulator"]:
		_check(ClassDB.class_exists(cls), "class %s registered" % cls)
	if not _failures.is_empty():
		_finish()
		return
	var scene := Node3D.new()
	add_child(scene)
	var character := Node3D.new()
	character.name = "Character"
	scene.add_child(character)
	var skeleton := HumanoidBuilder.build()
	character.add_child(skeleton)
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	var created := VRArmsSetup.setup_skeleton(skeleton, null, null)
	_check(created.has("rig"), "one-click setup made a rig")
	var profile := "res://addons/vr_arms/profiles/local_player.toml"
	_check(FileAccess.file_exists(profile), "%s is in the game" % profile)
	_check(created.rig.load_profile(profile), "the rig loads %s" % profile)
	sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	var target := Vector3(0.3, 1.15, 0.25)
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), target))
	for i in 10:
		await get_tree().process_frame
	await skeleton.skeleton_updated
	var hand := (skeleton.global_transform * skeleton.get_bone_global_pose(skeleton.find_bone("LeftHand"))).origin
	_check(hand.distance_to(target) < 0.005, "the left hand on its controller (%.4f m off)" % hand.distance_to(target))
	_finish()


func _finish() -> void:
	if _failures.is_empty():
		print("SMOKE PASS")
	else:
		printerr("SMOKE FAIL: %s" % ", ".join(_failures))
	get_tree().quit(0 if _failures.is_empty() else 1)
