## What the demo's buttons do, shared by the controllers, the keyboard and the autopilot.
class_name DemoActions
extends RefCounted


## The quick reload: open the cylinder, shake out the spent cases, fill all six chambers, close.
static func quick_reload(gun: Revolver) -> void:
	gun.open_cylinder()
	gun.eject_spent()
	for i in 6:
		gun.load_round()
	gun.close_cylinder()


## Stands every target back up.
static func reset_targets(targets: Array) -> void:
	for t in targets:
		t.reset()
