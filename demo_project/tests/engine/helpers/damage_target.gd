## A shooting target for tests: records every take_damage call.
extends StaticBody3D

var hits: Array = []


func take_damage(damage: float, point: Vector3, normal: Vector3) -> void:
	hits.append([damage, point, normal])
