## The off hand takes cartridges: gripping within reach of one (a node in the group
## `vr_arms_rounds`, from the belt's loops or dropped) holds it in the hand; bring it to the
## revolver's open loading gate and the gun loads it. Let go of one that was not loaded and it
## goes back to its loop (or falls where it is, when it had none).
class_name CartridgeHand
extends Node

## The hand's controller (its grip action takes a cartridge).
@export var controller: XRController3D
## How near the hand must be to take a cartridge (metres).
@export var reach_m := 0.07

var held: Node3D
var _home: Node
var _gripping := false


func _process(_delta: float) -> void:
	if controller == null:
		return
	var grip := controller.get_float("grip") > 0.5
	if grip and not _gripping:
		_take()
	elif not grip and _gripping:
		_let_go()
	_gripping = grip


func _take() -> void:
	var best: Node3D
	var best_d := reach_m
	for n in get_tree().get_nodes_in_group("vr_arms_rounds"):
		var round := n as Node3D
		if round == null or round.is_queued_for_deletion():
			continue
		var d := round.global_position.distance_to(controller.global_position)
		if d <= best_d:
			best = round
			best_d = d
	if best == null:
		return
	held = best
	_home = best.get_parent() if best.get_parent().name.begins_with("Loop") else null
	if best is RigidBody3D:
		(best as RigidBody3D).freeze = true
	best.reparent(controller)
	# Between thumb and fingers, nose forward.
	best.transform = Transform3D(Basis(), Vector3(0, -0.01, -0.05))


func _let_go() -> void:
	if not is_instance_valid(held) or held.is_queued_for_deletion():
		held = null
		return
	if _home != null and is_instance_valid(_home):
		held.reparent(_home)
		held.transform = Transform3D(Basis(Vector3.RIGHT, PI / 2), Vector3.ZERO)
	else:
		held.reparent(get_tree().current_scene if get_tree().current_scene else get_parent())
		if held is RigidBody3D:
			(held as RigidBody3D).freeze = false
	held = null
