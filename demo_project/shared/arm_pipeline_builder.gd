## Wires the arm target pipeline between two controllers and a VRArmRig, the way the one-click
## setup will: ControllerTargets -> BodyAvoidance -> ReachClamp -> TargetRouter ->
## ElbowHintSolver, each writing into a Marker3D that the next stage reads; the rig solves toward
## the final targets and the hints.
class_name ArmPipelineBuilder
extends RefCounted


## Adds the stages and their markers under `parent` and points `rig` at them. Returns the stages
## ("controller_targets", "body_avoidance", "reach_clamp", "router", "elbow_hints") and the markers
## ("markers": "left_raw", "right_final", ...).
static func wire(parent: Node, left_controller: Node3D, right_controller: Node3D, rig: VRArmRig) -> Dictionary:
	var stages := Node3D.new()
	stages.name = "ArmPipeline"
	parent.add_child(stages)
	var markers := {}
	for stage_name in ["raw", "avoided", "clamped", "final", "hint"]:
		for side in ["left", "right"]:
			var m := Marker3D.new()
			m.name = "%s_%s" % [side, stage_name]
			stages.add_child(m)
			markers["%s_%s" % [side, stage_name]] = m
	var ct := ControllerTargets.new()
	ct.name = "ControllerTargets"
	ct.left_controller = left_controller
	ct.right_controller = right_controller
	ct.left_output = markers.left_raw
	ct.right_output = markers.right_raw
	var ba := BodyAvoidance.new()
	ba.name = "BodyAvoidance"
	var rc := ReachClamp.new()
	rc.name = "ReachClamp"
	var tr := TargetRouter.new()
	tr.name = "TargetRouter"
	var eh := ElbowHintSolver.new()
	eh.name = "ElbowHintSolver"
	var chain := [[ba, "raw", "avoided"], [rc, "avoided", "clamped"], [tr, "clamped", "final"], [eh, "final", "hint"]]
	for link in chain:
		var stage: Node3D = link[0]
		for side in ["left", "right"]:
			stage.set(side + "_input", markers["%s_%s" % [side, link[1]]])
			stage.set(side + "_output", markers["%s_%s" % [side, link[2]]])
		if "rig" in stage:
			stage.set("rig", rig)
	for stage in [ct, ba, rc, tr, eh]:
		stages.add_child(stage)
	rig.left_target = markers.left_final
	rig.right_target = markers.right_final
	rig.left_hint = markers.left_hint
	rig.right_hint = markers.right_hint
	return {"controller_targets": ct, "body_avoidance": ba, "reach_clamp": rc, "router": tr, "elbow_hints": eh, "markers": markers}
