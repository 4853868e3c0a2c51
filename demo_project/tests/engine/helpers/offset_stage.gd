## A user's own stage: reads one target, moves it by `offset`, writes another.
extends Node

var input: Node3D
var output: Node3D
var offset := Vector3.ZERO


func _process(_delta: float) -> void:
	output.global_transform = Transform3D(input.global_transform.basis, input.global_position + offset)
