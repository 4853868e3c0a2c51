## The editor gizmos' lines (addons/vr_arms/editor/gizmo_plugin.gd): a holster zone's sphere and
## draw line, the elbow hints' lines and crosses, in the node's local space.
extends EngineTest

const Shapes := preload("res://addons/vr_arms/editor/gizmo_shapes.gd")
const GizmoPlugin := preload("res://addons/vr_arms/editor/gizmo_plugin.gd")


func test_a_holster_zone_draws_its_radius_and_its_draw_line() -> void:
	var zone := HolsterZone.new()
	zone.zone_radius_m = 0.2
	zone.position = Vector3(1, 2, 3)
	add_child(zone)
	var clear := Node3D.new()
	zone.add_child(clear)
	clear.position = Vector3(0, 0.25, 0)
	zone.draw_clear_point = clear
	var lines: PackedVector3Array = GizmoPlugin.lines_for(zone)
	var circles := 3 * Shapes.SEGMENTS * 2
	check(lines.size() == circles + 2, "three circles and the draw line: %d points" % lines.size())
	var off := 0
	for i in circles:
		if absf(lines[i].length() - 0.2) > 1e-5:
			off += 1
	check(off == 0, "every circle point at the zone radius, about the anchor (%d off)" % off)
	check_vec_near(lines[circles], Vector3.ZERO, 1e-6, "the draw line starts at the anchor")
	check_vec_near(lines[circles + 1], Vector3(0, 0.25, 0), 1e-5, "and ends at the clear point, in local space")
	zone.draw_clear_point = null
	check(GizmoPlugin.lines_for(zone).size() == circles, "no clear point, no draw line")
	await frames(1)


func test_the_elbow_hints_draw_a_line_from_each_target() -> void:
	var solver := ElbowHintSolver.new()
	solver.position = Vector3(0, 1, 0)
	add_child(solver)
	var nodes := {}
	for n in ["left_input", "left_output", "right_input", "right_output"]:
		var m := Marker3D.new()
		add_child(m)
		nodes[n] = m
	nodes.left_input.position = Vector3(0.3, 1.2, 0.3)
	nodes.left_output.position = Vector3(0.4, 0.9, -0.2)
	nodes.right_input.position = Vector3(-0.3, 1.2, 0.3)
	nodes.right_output.position = Vector3(-0.4, 0.9, -0.2)
	for n in nodes:
		solver.set(n, nodes[n])
	var lines: PackedVector3Array = GizmoPlugin.lines_for(solver)
	check(lines.size() == 2 * 8, "per side a line and a three-axis cross: %d points" % lines.size())
	check_vec_near(lines[0], Vector3(0.3, 0.2, 0.3), 1e-5, "the left line starts at the wrist target (local)")
	check_vec_near(lines[1], Vector3(0.4, -0.1, -0.2), 1e-5, "and ends at the left hint")
	check_vec_near((lines[2] + lines[3]) * 0.5, lines[1], 1e-5, "the cross is centred on the hint")
	solver.right_output = null
	check(GizmoPlugin.lines_for(solver).size() == 8, "an unwired side draws nothing")
	await frames(1)
