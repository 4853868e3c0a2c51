## Thumbstick locomotion for an XROrigin3D: the left stick walks along where the head looks
## (flattened), the right stick's X turns, in snaps or smoothly, about the player's head so the
## view does not slide sideways. The right stick's Y is left to the revolver (down cocks).
class_name Locomotion
extends Node

## The origin that moves.
@export var origin: XROrigin3D
## The headset.
@export var head: XRCamera3D
## Left and right controllers.
@export var left_controller: XRController3D
@export var right_controller: XRController3D
## Walking speed at full stick (metres per second).
@export_range(0.1, 5.0, 0.1, "suffix:m/s") var speed := 1.6
## Turn in snaps (else smoothly).
@export var snap_turn := true
## Snap angle (degrees).
@export_range(5.0, 90.0, 5.0, "suffix:°") var snap_angle_deg := 30.0
## Smooth turn rate (degrees per second).
@export_range(10.0, 360.0, 10.0, "suffix:°/s") var smooth_turn_deg_s := 120.0
## Stick travel ignored around the centre.
@export_range(0.0, 0.9, 0.05) var dead_zone := 0.2

var _snap_armed := true


func _process(delta: float) -> void:
	if origin == null or head == null:
		return
	var move := left_controller.get_vector2("primary") if left_controller else Vector2.ZERO
	var turn := right_controller.get_vector2("primary").x if right_controller else 0.0
	walk(move, delta)
	self.turn(turn, delta)


## Walks the origin by stick `move` (x right, y forward) for `delta` seconds.
func walk(move: Vector2, delta: float) -> void:
	if move.length() <= dead_zone:
		return
	var forward := -head.global_basis.z
	forward.y = 0.0
	if forward.length() < 1e-3:
		return
	forward = forward.normalized()
	var right := forward.cross(Vector3.UP)
	var step := (right * move.x + forward * move.y).limit_length(1.0) * speed * delta
	origin.global_position += step


## Turns by stick `x` (positive: right) for `delta` seconds.
func turn(x: float, delta: float) -> void:
	var angle := 0.0
	if snap_turn:
		if absf(x) < 0.5:
			_snap_armed = true
		elif _snap_armed:
			_snap_armed = false
			angle = -signf(x) * deg_to_rad(snap_angle_deg)
	elif absf(x) > dead_zone:
		angle = -x * deg_to_rad(smooth_turn_deg_s) * delta
	if angle != 0.0:
		rotate_about_head(angle)


## Turns the origin by `angle` (radians, about up) around the head's position.
func rotate_about_head(angle: float) -> void:
	var pivot := head.global_position
	var t := origin.global_transform
	t.origin -= pivot
	t = Transform3D(Basis(Vector3.UP, angle), Vector3.ZERO) * t
	t.origin += pivot
	origin.global_transform = t
