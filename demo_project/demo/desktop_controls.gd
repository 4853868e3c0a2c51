## Desktop mode: mouse and keyboard drive the XRTrackingSimulator, so the demo plays without a
## headset. The head turns with the mouse (right button held), the active hand moves in front of
## the body (left button held; wheel: nearer or farther), and keys grip, pull the trigger, cock,
## reload, walk and turn. The controls are shown on screen.
class_name DesktopControls
extends Node

## Emitted when the reload key is pressed.
signal reload_requested()

const HELP := """DESKTOP MODE (no headset)
right mouse: look around     left mouse: move the active hand     wheel: hand nearer / farther
Tab: switch hand (%s)     G: grip     Space: trigger     C: cock (right stick down)
H: right hand to the holster     R: quick reload     1-4: hand poses (rest, aim, overhead, across)
The gun by hand: T: hammer to half-cock     O: loading gate open / shut     V: turn the cylinder
X: ejector rod     L: a cartridge from the belt into the gate     F: fan (hold Space)     Z: twirl
W A S D: walk     Q / E: snap turn     B: sit down / stand up     Esc: quit"""

@export var simulator: XRTrackingSimulator
@export var locomotion: Locomotion
## The holster the H key brings the right hand to.
@export var holster: Node3D
## The revolver the gun keys work (T, O, V, X, L, F, Z).
@export var gun: Revolver
## The belt the L key takes cartridges from.
@export var belt: Node3D
## The lower body the B key seats and stands up (`LowerBodyRig.seated`).
@export var lower_body: LowerBodyRig
## Head height above the floor (metres), standing.
@export var head_height := 1.65
## How far the head comes down when the player sits (metres).
@export var sit_drop := 0.45
## Mouse sensitivity (radians per pixel).
@export var look_sensitivity := 0.004

## Hand offsets in the head-yaw frame: x right, y up, z forward (metres).
const PRESETS := [
	[Vector3(-0.22, -0.5, 0.18), Vector3(0.22, -0.5, 0.18)],
	[Vector3(-0.2, -0.3, 0.4), Vector3(0.18, -0.28, 0.45)],
	[Vector3(-0.3, 0.4, 0.2), Vector3(0.3, 0.4, 0.2)],
	[Vector3(0.2, -0.3, 0.3), Vector3(-0.2, -0.3, 0.3)],
]

var yaw := PI
var pitch := 0.0
var active := 1
var offsets := [PRESETS[0][0], PRESETS[0][1]]
var grip := [false, false]
var at_holster := false
## Sitting (B), and how far down the head is now (it eases down and up).
var seated := false
var _down := 0.0
## Frames left of a fanning sweep of the left hand over the hammer (F).
var _fan_frames := 0
const FAN_FRAMES := 10
var _label: Label


func _ready() -> void:
	var layer := CanvasLayer.new()
	add_child(layer)
	_label = Label.new()
	_label.position = Vector2(12, 8)
	_label.add_theme_color_override("font_shadow_color", Color.BLACK)
	layer.add_child(_label)


func _unhandled_input(event: InputEvent) -> void:
	if event is InputEventMouseMotion:
		var m := event as InputEventMouseMotion
		if m.button_mask & MOUSE_BUTTON_MASK_RIGHT:
			yaw -= m.relative.x * look_sensitivity
			pitch = clampf(pitch - m.relative.y * look_sensitivity, -1.3, 1.3)
		elif m.button_mask & MOUSE_BUTTON_MASK_LEFT:
			at_holster = false
			offsets[active] += Vector3(m.relative.x, -m.relative.y, 0) * 0.0015
	elif event is InputEventMouseButton and event.pressed:
		var b := event as InputEventMouseButton
		if b.button_index == MOUSE_BUTTON_WHEEL_UP:
			offsets[active].z += 0.03
		elif b.button_index == MOUSE_BUTTON_WHEEL_DOWN:
			offsets[active].z -= 0.03
	elif event is InputEventKey and event.pressed and not event.echo:
		_key(event.physical_keycode)


func _key(key: Key) -> void:
	match key:
		KEY_TAB:
			active = 1 - active
		KEY_G:
			grip[active] = not grip[active]
			simulator.set_input(_hand(active), "grip", 1.0 if grip[active] else 0.0)
		KEY_H:
			at_holster = not at_holster
		KEY_R:
			reload_requested.emit()
		KEY_Q:
			if locomotion:
				locomotion.rotate_about_head(deg_to_rad(locomotion.snap_angle_deg))
		KEY_E:
			if locomotion:
				locomotion.rotate_about_head(-deg_to_rad(locomotion.snap_angle_deg))
		KEY_1, KEY_2, KEY_3, KEY_4:
			var i: int = key - KEY_1
			offsets = [PRESETS[i][0], PRESETS[i][1]]
			at_holster = false
		KEY_T:
			if gun:
				DemoActions.half_cock(gun)
		KEY_O:
			if gun:
				DemoActions.toggle_gate(gun)
		KEY_V:
			if gun:
				gun.turn_cylinder(1)
		KEY_X:
			if gun:
				gun.push_ejector()
		KEY_L:
			if gun and belt:
				DemoActions.load_from_belt(gun, belt)
		KEY_F:
			if gun:
				_fan_frames = FAN_FRAMES
		KEY_Z:
			if gun:
				gun.twirl()
		KEY_B:
			seated = not seated
			if lower_body:
				lower_body.seated = seated
		KEY_ESCAPE:
			get_tree().quit(0)


func _process(delta: float) -> void:
	if simulator == null:
		return
	# The simulator wants poses in the XR origin's space.
	var origin := locomotion.origin.global_transform if locomotion and locomotion.origin else Transform3D()
	var head_basis := Basis(Vector3.UP, yaw) * Basis(Vector3.RIGHT, pitch)
	# Sitting down and standing up take about half a second.
	_down = move_toward(_down, sit_drop if seated else 0.0, sit_drop * 2.0 * delta)
	var head := Vector3(0, head_height - _down, 0)
	simulator.set_head_pose(Transform3D(head_basis, head))
	var body := Basis(Vector3.UP, yaw)
	for i in 2:
		var o: Vector3 = offsets[i]
		var pos := head + body.x * o.x + Vector3.UP * o.y - body.z * o.z
		simulator.set_hand_pose(_hand(i), Transform3D(head_basis, pos))
	if at_holster and holster:
		# The holster's anchor is in world space.
		var t := origin.affine_inverse() * RevolverBuilder.hand_on_holstered_gun(holster)
		simulator.set_hand_pose(VRArms.Hand.RIGHT, t)
	if _fan_frames > 0 and gun:
		# The left palm from 20 cm above the hammer down onto it, at about 2 m/s at 90 frames a
		# second.
		_fan_frames -= 1
		var spur: Vector3 = gun.get_node("Hammer").global_position
		var t := DemoActions.FAN_SWEEP_S * float(FAN_FRAMES - _fan_frames) / FAN_FRAMES
		simulator.set_hand_pose(VRArms.Hand.LEFT, origin.affine_inverse() * Transform3D(Basis(), DemoActions.fan_palm(spur, t)))
	simulator.set_input(_hand(active), "trigger", 1.0 if Input.is_physical_key_pressed(KEY_SPACE) else 0.0)
	simulator.set_input(_hand(1 - active), "trigger", 0.0)
	simulator.set_input(VRArms.Hand.RIGHT, "primary", Vector2(0, -1) if Input.is_physical_key_pressed(KEY_C) else Vector2.ZERO)
	var walk := Vector2(float(Input.is_physical_key_pressed(KEY_D)) - float(Input.is_physical_key_pressed(KEY_A)), float(Input.is_physical_key_pressed(KEY_W)) - float(Input.is_physical_key_pressed(KEY_S)))
	if locomotion and walk != Vector2.ZERO:
		locomotion.walk(walk, delta)
	_label.text = HELP % ["right" if active == 1 else "left"] + "\ngrip: left %s, right %s" % ["on" if grip[0] else "off", "on" if grip[1] else "off"]


static func _hand(i: int) -> VRArms.Hand:
	return VRArms.Hand.LEFT if i == 0 else VRArms.Hand.RIGHT
