## Starts OpenXR when a runtime is there, and tells the demo how the session goes.
##
## The project enables OpenXR (`xr/openxr/enabled`); Godot initialises the interface at start-up
## when a runtime answers. If it did, the main viewport renders to the headset, V-Sync is left to
## the runtime, and the physics rate follows the headset's refresh rate. Otherwise (no runtime,
## `--xr-mode off`, `--headless`) the demo runs in desktop mode with simulated tracking.
class_name XRStart
extends Node

## The session began (the runtime shows our frames).
signal session_begun()
## The headset is worn and the app has input focus.
signal session_focused()
## The session is ending (the user quit from the runtime's menu).
signal session_stopping()

var interface: OpenXRInterface
var focused := false


## True when OpenXR is running; the viewport then renders to the headset.
func start() -> bool:
	interface = XRServer.find_interface("OpenXR") as OpenXRInterface
	if interface == null or not interface.is_initialized():
		interface = null
		return false
	get_viewport().use_xr = true
	DisplayServer.window_set_vsync_mode(DisplayServer.VSYNC_DISABLED)
	interface.session_begun.connect(_on_begun)
	interface.session_focussed.connect(_on_focused)
	interface.session_visible.connect(_on_visible)
	interface.session_stopping.connect(_on_stopping)
	return true


func _on_begun() -> void:
	var rate := interface.display_refresh_rate
	if rate > 0.0:
		Engine.physics_ticks_per_second = int(round(rate))
	print("vr_arms demo: OpenXR session begun (%.0f Hz)" % rate)
	session_begun.emit()


func _on_focused() -> void:
	focused = true
	print("vr_arms demo: OpenXR session focused")
	session_focused.emit()


func _on_visible() -> void:
	# Visible but not focused: the runtime's own menu is in front; our input is paused.
	focused = false


func _on_stopping() -> void:
	print("vr_arms demo: OpenXR session stopping")
	session_stopping.emit()
