## Generates the demo's low-poly character: HumanoidBuilder's skeleton (three bones per finger,
## thumb included, and a twist bone per forearm) with a skinned mesh of tubes along the bones.
##
## Skin weights: every tube belongs to its bone and blends to 50 % with the neighbouring bone
## over `BLEND` of its length at each joint (smoothstep), so joints bend as a smooth curve. The
## elbow belongs to a helper bone that takes half the elbow's bend (`ElbowHelperModifier`), so a
## fully bent elbow keeps its volume. The forearm's weight moves linearly from the lower-arm bone
## (elbow) to the twist bone (wrist), so a rolled wrist twists the forearm gradually.
## The head is a separate skinned mesh on render layer 2 (the setup's FirstPersonHead hides it from
## the player's own camera).
class_name CharacterBuilder
extends RefCounted

## Sides of every tube.
const SIDES := 10
## Share of a tube's length over which its weight blends into the next bone, at each end.
const BLEND := 0.3
## The same at the elbow, where the helper bone already takes half the bend.
const ELBOW_BLEND := 0.12
## Render layer of the head mesh.
const HEAD_LAYER := 2

const SKIN := Color(0.87, 0.68, 0.55)
const SHIRT := Color(0.22, 0.38, 0.62)
const PANTS := Color(0.22, 0.22, 0.27)
const SHOES := Color(0.09, 0.08, 0.08)
const DARK := Color(0.05, 0.05, 0.06)

var _skeleton: Skeleton3D
var _tool: SurfaceTool


## A character root ("Character", faces +Z) holding "Skeleton3D" with the skinned "Body" and
## "Head" meshes. The skeleton is in T-pose at rest.
static func build() -> Node3D:
	var root := Node3D.new()
	root.name = "Character"
	var skeleton := HumanoidBuilder.build(true, true)
	ElbowHelperModifier.add_helper_bones(skeleton)
	root.add_child(skeleton)
	var helpers := ElbowHelperModifier.new()
	helpers.name = "ElbowHelpers"
	skeleton.add_child(helpers)
	var skin := Skin.new()
	for i in skeleton.get_bone_count():
		skin.add_bind(i, skeleton.get_bone_global_rest(i).affine_inverse())
	var material := StandardMaterial3D.new()
	material.vertex_color_use_as_albedo = true
	material.roughness = 0.75
	# Both faces: the tubes' winding is not checked, their normals are.
	material.cull_mode = BaseMaterial3D.CULL_DISABLED
	var b := CharacterBuilder.new()
	b._skeleton = skeleton
	var body := MeshInstance3D.new()
	body.name = "Body"
	body.mesh = b._body_mesh()
	body.skin = skin
	body.material_override = material
	skeleton.add_child(body)
	body.skeleton = body.get_path_to(skeleton)
	var head := MeshInstance3D.new()
	head.name = "Head"
	head.mesh = b._head_mesh()
	head.skin = skin
	head.material_override = material
	head.layers = 1 << (HEAD_LAYER - 1)
	skeleton.add_child(head)
	head.skeleton = head.get_path_to(skeleton)
	return root


func _p(bone: String) -> Vector3:
	return _skeleton.get_bone_global_rest(_skeleton.find_bone(bone)).origin


func _body_mesh() -> ArrayMesh:
	_tool = SurfaceTool.new()
	_tool.begin(Mesh.PRIMITIVE_TRIANGLES)
	_vertex_count = 0
	var up := Vector3.RIGHT  # the torso's cross-section is wide along X
	# Torso: pelvis, belly, chest and the shoulders' yoke.
	_tube(_p("Hips") + Vector3(0, -0.1, 0), _p("Hips"), 0.135, 0.13, SHIRT.darkened(0.2), up, Vector2(1, 0.72), _limb("Hips", "", ""), true, false)
	_tube(_p("Hips"), _p("Spine"), 0.13, 0.125, SHIRT, up, Vector2(1, 0.72), _limb("Hips", "", "Spine"))
	_tube(_p("Spine"), _p("Chest"), 0.125, 0.135, SHIRT, up, Vector2(1, 0.72), _limb("Spine", "Hips", "Chest"))
	_tube(_p("Chest"), _p("UpperChest"), 0.135, 0.15, SHIRT, up, Vector2(1, 0.7), _limb("Chest", "Spine", "UpperChest"))
	_tube(_p("UpperChest"), _p("Neck"), 0.15, 0.06, SHIRT, up, Vector2(1, 0.65), _limb("UpperChest", "Chest", "Neck"), false, false)
	_tube(_p("Neck") + Vector3(0, -0.03, 0), _p("Head"), 0.05, 0.045, SKIN, up, Vector2.ONE, _limb("Neck", "UpperChest", "Head"))
	for side in ["Left", "Right"]:
		var s := 1.0 if side == "Left" else -1.0
		var fwd := Vector3.BACK
		_tube(_p(side + "Shoulder") + Vector3(-0.02 * s, 0, 0), _p(side + "UpperArm"), 0.06, 0.055, SHIRT, fwd, Vector2.ONE, _limb(side + "Shoulder", "UpperChest", side + "UpperArm"))
		_tube(_p(side + "UpperArm"), _p(side + "LowerArm"), 0.055, 0.045, SHIRT, fwd, Vector2.ONE, _upper_arm(side), true, true, [0.0, 0.12, 0.3, 0.5, 0.65, 0.76, 0.88, 0.94, 1.0])
		_tube(_p(side + "LowerArm"), _p(side + "Hand"), 0.043, 0.032, SKIN, fwd, Vector2(1, 0.8), _forearm(side), true, true, [0.0, 0.06, 0.12, 0.24, 0.4, 0.55, 0.7, 0.85, 1.0])
		_tube(_p(side + "Hand"), _p(side + "MiddleProximal"), 0.032, 0.045, SKIN, fwd, Vector2(1.0, 0.42), _limb(side + "Hand", side + "LowerArmTwist", ""), false, false)
		for finger in ["Index", "Middle", "Ring", "Little"]:
			_finger(side, [finger + "Proximal", finger + "Intermediate", finger + "Distal"], 0.0095)
		_finger(side, ["ThumbMetacarpal", "ThumbProximal", "ThumbDistal"], 0.011)
		# Legs and feet.
		_tube(_p(side + "UpperLeg"), _p(side + "LowerLeg"), 0.085, 0.058, PANTS, fwd, Vector2.ONE, _limb(side + "UpperLeg", "Hips", side + "LowerLeg"))
		_tube(_p(side + "LowerLeg"), _p(side + "Foot"), 0.056, 0.04, PANTS, fwd, Vector2.ONE, _limb(side + "LowerLeg", side + "UpperLeg", side + "Foot"))
		_tube(_p(side + "Foot") + Vector3(0, 0, -0.05), _p(side + "Toes"), 0.045, 0.04, SHOES, Vector3.RIGHT, Vector2(1, 0.6), _limb(side + "Foot", side + "LowerLeg", side + "Toes"))
		_tube(_p(side + "Toes"), _p(side + "Toes") + Vector3(0, 0, 0.07), 0.04, 0.03, SHOES, Vector3.RIGHT, Vector2(1, 0.5), _limb(side + "Toes", side + "Foot", ""), false, true)
	# A belt, for the holster to hang on.
	_tube(_p("Hips") + Vector3(0, 0.02, 0), _p("Hips") + Vector3(0, 0.07, 0), 0.138, 0.138, SHOES.lightened(0.25), up, Vector2(1, 0.74), _limb("Hips", "", ""), false, false)
	return _tool.commit()


func _head_mesh() -> ArrayMesh:
	_tool = SurfaceTool.new()
	_tool.begin(Mesh.PRIMITIVE_TRIANGLES)
	_vertex_count = 0
	var head := _p("Head")
	var w := _limb("Head", "", "")
	_tube(head + Vector3(0, 0.0, 0.0), head + Vector3(0, 0.22, 0.0), 0.07, 0.06, SKIN, Vector3.RIGHT, Vector2(1, 1.1), w, true, true, [0.0, 0.08, 0.25, 0.5, 0.75, 0.92, 1.0], [0.55, 0.85, 1.38, 1.5, 1.35, 1.0, 0.45])
	for s in [1.0, -1.0]:
		_tube(head + Vector3(0.035 * s, 0.1, 0.085), head + Vector3(0.035 * s, 0.1, 0.1), 0.014, 0.012, DARK, Vector3.RIGHT, Vector2.ONE, w, true, true)
	_tube(head + Vector3(0, 0.06, 0.09), head + Vector3(0, 0.07, 0.12), 0.016, 0.006, SKIN.darkened(0.1), Vector3.RIGHT, Vector2.ONE, w, true, true)
	return _tool.commit()


func _finger(side: String, names: Array, radius: float) -> void:
	for i in names.size():
		var bone: String = side + names[i]
		var a := _p(bone)
		var b: Vector3
		if i + 1 < names.size():
			b = _p(side + names[i + 1])
		else:
			b = a + (a - _p(side + names[i - 1])).normalized() * 0.024
		var parent: String = side + "Hand" if i == 0 else side + names[i - 1]
		var child: String = side + names[i + 1] if i + 1 < names.size() else ""
		var r := radius * (1.0 - 0.1 * i)
		_tube(a, b, r, r * 0.92, SKIN, Vector3.UP, Vector2.ONE, _limb(bone, parent, child), i == 0, i + 1 == names.size())


## Weights along a tube of `bone`: full weight in the middle, blending to 50 % with `parent`
## at the start and with `child` at the end.
func _limb(bone: String, parent: String, child: String) -> Callable:
	var b := _skeleton.find_bone(bone)
	var p := _skeleton.find_bone(parent) if parent != "" else -1
	var c := _skeleton.find_bone(child) if child != "" else -1
	return func(t: float) -> Dictionary:
		var w := {}
		var to_parent := 0.5 * (1.0 - smoothstep(0.0, BLEND, t)) if p >= 0 else 0.0
		var to_child := 0.5 * smoothstep(1.0 - BLEND, 1.0, t) if c >= 0 else 0.0
		w[b] = 1.0 - to_parent - to_child
		if p >= 0:
			w[p] = to_parent
		if c >= 0:
			w[c] = to_child
		return w


## The upper arm: blends from the shoulder into the elbow helper, which owns the elbow itself.
func _upper_arm(side: String) -> Callable:
	var upper := _skeleton.find_bone(side + "UpperArm")
	var shoulder := _skeleton.find_bone(side + "Shoulder")
	var helper := _skeleton.find_bone(side + "ElbowHelper")
	return func(t: float) -> Dictionary:
		var to_shoulder := 0.5 * (1.0 - smoothstep(0.0, BLEND, t))
		var to_helper := smoothstep(1.0 - ELBOW_BLEND, 1.0, t)
		return {shoulder: to_shoulder, helper: to_helper, upper: 1.0 - to_shoulder - to_helper}


## The forearm: from the elbow helper into the lower-arm bone, then the lower-arm bone at the
## elbow to the twist bone at the wrist (linear), blending into the hand at the wrist.
func _forearm(side: String) -> Callable:
	var lower := _skeleton.find_bone(side + "LowerArm")
	var twist := _skeleton.find_bone(side + "LowerArmTwist")
	var helper := _skeleton.find_bone(side + "ElbowHelper")
	var hand := _skeleton.find_bone(side + "Hand")
	return func(t: float) -> Dictionary:
		var to_helper := 1.0 - smoothstep(0.0, ELBOW_BLEND, t)
		var to_hand := 0.5 * smoothstep(1.0 - BLEND, 1.0, t)
		var own := 1.0 - to_helper - to_hand
		return {helper: to_helper, hand: to_hand, lower: own * (1.0 - t), twist: own * t}


## A tube from `a` to `b` (radius `r0` to `r1`), elliptical by `ellipse` along `side_hint` and
## across it, with optional end caps. `ts` are the rings' positions (0..1) and `scales` their
## radius factors.
func _tube(a: Vector3, b: Vector3, r0: float, r1: float, color: Color, side_hint: Vector3, ellipse: Vector2, weights: Callable, cap_start := true, cap_end := true, ts: Array = [0.0, 0.12, 0.3, 0.5, 0.7, 0.88, 1.0], scales: Array = []) -> void:
	var axis := (b - a).normalized()
	var u := (side_hint - axis * side_hint.dot(axis)).normalized()
	if u.length() < 0.5:
		u = axis.cross(Vector3.FORWARD).normalized()
	var v := axis.cross(u)
	var first := _vertex_count
	for k in ts.size():
		var t: float = ts[k]
		var centre := a.lerp(b, t)
		var r: float = lerpf(r0, r1, t) * (scales[k] if k < scales.size() else 1.0)
		var w: Dictionary = weights.call(t)
		for j in SIDES:
			var ang := TAU * j / SIDES
			var dir := u * cos(ang) * ellipse.x + v * sin(ang) * ellipse.y
			_add_vertex(centre + dir * r, dir.normalized(), color, w)
	for k in ts.size() - 1:
		for j in SIDES:
			var i0 := first + k * SIDES + j
			var i1 := first + k * SIDES + (j + 1) % SIDES
			var i2 := i0 + SIDES
			var i3 := i1 + SIDES
			_tri(i0, i2, i1)
			_tri(i1, i2, i3)
	if cap_start:
		var c := _vertex_count
		_add_vertex(a, -axis, color, weights.call(0.0))
		for j in SIDES:
			_tri(c, first + j, first + (j + 1) % SIDES)
	if cap_end:
		var last := first + (ts.size() - 1) * SIDES
		var c := _vertex_count
		_add_vertex(b, axis, color, weights.call(1.0))
		for j in SIDES:
			_tri(c, last + (j + 1) % SIDES, last + j)


var _vertex_count := 0


func _add_vertex(pos: Vector3, normal: Vector3, color: Color, weights: Dictionary) -> void:
	var pairs := []
	for bone in weights:
		if weights[bone] > 1e-4:
			pairs.append([weights[bone], bone])
	pairs.sort_custom(func(x, y): return x[0] > y[0])
	var bones := PackedInt32Array([0, 0, 0, 0])
	var ws := PackedFloat32Array([0, 0, 0, 0])
	var total := 0.0
	for i in mini(4, pairs.size()):
		total += pairs[i][0]
	for i in mini(4, pairs.size()):
		bones[i] = pairs[i][1]
		ws[i] = pairs[i][0] / total
	_tool.set_color(color)
	_tool.set_normal(normal)
	_tool.set_bones(bones)
	_tool.set_weights(ws)
	_tool.add_vertex(pos)
	_vertex_count += 1


func _tri(i0: int, i1: int, i2: int) -> void:
	_tool.add_index(i0)
	_tool.add_index(i1)
	_tool.add_index(i2)
