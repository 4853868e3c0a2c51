## What the demo's buttons do, shared by the controllers, the keyboard and the autopilot.
class_name DemoActions
extends RefCounted


## The quick reload (the desktop's R key): the hammer to half-cock and the gate open, the cylinder
## turned once round under the gate pushing out the spent cases, then turned to each empty
## chamber to load it, the gate closed.
static func quick_reload(gun: Revolver) -> void:
	gun.open_cylinder()
	gun.eject_spent()
	while gun.get_loaded_count() < 6 and gun.load_round() >= 0:
		pass
	gun.close_cylinder()


## A fanning sweep lasts this long (seconds): 20 cm at 2 m/s.
const FAN_SWEEP_S := 0.1


## Where the fanning palm is `t` seconds into a sweep over the hammer's spur at `spur`: from
## 20 cm above it (4 cm behind) straight down onto it at 2 m/s, then resting on it.
static func fan_palm(spur: Vector3, t: float) -> Vector3:
	return spur + Vector3(0, 0.2 * (1.0 - clampf(t / FAN_SWEEP_S, 0.0, 1.0)), 0.04)


## Stands every target back up.
static func reset_targets(targets: Array) -> void:
	for t in targets:
		t.reset()


## The thumb draws the hammer to half-cock (the loading notch) and lets go.
static func half_cock(gun: Revolver) -> void:
	gun.thumb_hammer(HAMMER_HALF_COCK_TRAVEL)
	gun.release_hammer()


## Opens the loading gate (the hammer brought to half-cock first), or closes it when open.
static func toggle_gate(gun: Revolver) -> void:
	if gun.is_gate_open():
		gun.close_gate()
	else:
		gun.open_cylinder()


## A cartridge from the belt into the chamber at the open gate; the belt keeps it when the gun
## refuses (gate closed, chamber full). Returns the chamber, or -1.
static func load_from_belt(gun: Revolver, belt: Node3D) -> int:
	var cartridges := RevolverBuilder.belt_cartridges(belt)
	if cartridges.is_empty():
		return -1
	var chamber := gun.insert_cartridge()
	if chamber >= 0:
		cartridges[0].queue_free()
	return chamber


## The hammer's travel at half-cock.
const HAMMER_HALF_COCK_TRAVEL := 0.45
