## Editor gizmos: a HolsterZone's zone (its sphere and the draw line to `draw_clear_point`) and
## an ElbowHintSolver's hints (a line from each wrist target to its elbow hint, a cross at the
## hint). Drawn from the nodes' settings; they change as the inspector does.
@tool
extends EditorNode3DGizmoPlugin

const Shapes := preload("res://addons/vr_arms/editor/gizmo_shapes.gd")


func _init() -> void:
	create_material("holster", Color(0.99, 0.5, 0.5))
	create_material("hint", Color(0.56, 0.94, 0.6))


func _get_gizmo_name() -> String:
	return "vr_arms"


func _has_gizmo(node: Node3D) -> bool:
	return node.is_class("HolsterZone") or node.is_class("ElbowHintSolver")


func _redraw(gizmo: EditorNode3DGizmo) -> void:
	gizmo.clear()
	var node := gizmo.get_node_3d()
	var lines := lines_for(node)
	if not lines.is_empty():
		gizmo.add_lines(lines, get_material("holster" if node.is_class("HolsterZone") else "hint", gizmo))


## The gizmo's lines for `node` in its local space (empty when there is nothing to draw).
static func lines_for(node: Node3D) -> PackedVector3Array:
	var to_local := node.global_transform.affine_inverse() if node.is_inside_tree() else Transform3D.IDENTITY
	if node.is_class("HolsterZone"):
		var clear: Node3D = node.get("draw_clear_point")
		var clear_at: Variant = to_local * clear.global_position if clear != null and clear.is_inside_tree() else null
		return Shapes.holster_lines(node.get("zone_radius_m"), clear_at)
	if node.is_class("ElbowHintSolver"):
		var pairs := []
		for side in ["left", "right"]:
			var target: Node3D = node.get(side + "_input")
			var hint: Node3D = node.get(side + "_output")
			if target != null and hint != null and target.is_inside_tree() and hint.is_inside_tree():
				pairs.append([to_local * target.global_position, to_local * hint.global_position])
		return Shapes.hint_lines(pairs)
	return PackedVector3Array()
