## The lines the vr_arms editor gizmos draw, in the node's local space (pairs of points, as
## `EditorNode3DGizmo.add_lines` takes them). Kept apart from the gizmo plugin so that tests can
## check them without the editor.
@tool
extends RefCounted

## Segments per circle.
const SEGMENTS := 32
## Half size of the cross drawn at an elbow hint (metres).
const CROSS := 0.03


## A holster zone: its sphere (three circles of `radius` about the anchor) and, when
## `clear_point` is not null, the draw line from the anchor to it.
static func holster_lines(radius: float, clear_point: Variant) -> PackedVector3Array:
	var lines := PackedVector3Array()
	for axes in [[Vector3.RIGHT, Vector3.UP], [Vector3.UP, Vector3.BACK], [Vector3.BACK, Vector3.RIGHT]]:
		for i in SEGMENTS:
			for k in [i, i + 1]:
				var a: float = TAU * k / SEGMENTS
				var u: Vector3 = axes[0]
				var v: Vector3 = axes[1]
				lines.append((u * cos(a) + v * sin(a)) * radius)
	if clear_point is Vector3:
		lines.append(Vector3.ZERO)
		lines.append(clear_point)
	return lines


## Elbow hints: for each [wrist target, hint] pair, a line from the target to the hint and a
## cross at the hint.
static func hint_lines(pairs: Array) -> PackedVector3Array:
	var lines := PackedVector3Array()
	for pair in pairs:
		var target: Vector3 = pair[0]
		var hint: Vector3 = pair[1]
		lines.append_array([target, hint])
		for axis in [Vector3.RIGHT, Vector3.UP, Vector3.BACK]:
			lines.append_array([hint - axis * CROSS, hint + axis * CROSS])
	return lines
