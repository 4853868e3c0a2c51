## The XR side of a scene: an XROrigin3D with an XRCamera3D and left/right XRController3Ds bound
## to the `left_hand` / `right_hand` trackers, plus an XRTrackingSimulator feeding those trackers
## when no headset provides them.
class_name XRSetup
extends RefCounted


## Adds the nodes under `parent`; returns "origin", "camera", "left", "right", "simulator" (null
## without `simulated`, when a real runtime provides the trackers).
static func make(parent: Node, simulated: bool = true) -> Dictionary:
	var origin := XROrigin3D.new()
	origin.name = "XROrigin3D"
	parent.add_child(origin)
	var camera := XRCamera3D.new()
	camera.name = "XRCamera3D"
	origin.add_child(camera)
	var out := {"origin": origin, "camera": camera}
	for side in ["left", "right"]:
		var c := XRController3D.new()
		c.name = side.capitalize() + "Controller"
		c.tracker = StringName(side + "_hand")
		origin.add_child(c)
		out[side] = c
	out.simulator = null
	if not simulated:
		return out
	var simulator := XRTrackingSimulator.new()
	simulator.name = "XRTrackingSimulator"
	parent.add_child(simulator)
	out.simulator = simulator
	return out
