## Builds a plain humanoid Skeleton3D in T-pose with Godot's SkeletonProfileHumanoid bone names.
##
## The character faces +Z, its left is +X, and every bone's +Y axis points to its first child,
## like a skeleton retargeted onto the humanoid profile. Used by the engine tests and, until the
## generated character exists, by the demo.
class_name HumanoidBuilder
extends RefCounted

## name, parent, global position (metres) for a 1.75 m tall character.
const BONES := [
	["Root", "", Vector3(0, 0, 0)],
	["Hips", "Root", Vector3(0, 0.95, 0)],
	["Spine", "Hips", Vector3(0, 1.05, 0)],
	["Chest", "Spine", Vector3(0, 1.18, 0)],
	["UpperChest", "Chest", Vector3(0, 1.30, 0)],
	["Neck", "UpperChest", Vector3(0, 1.46, 0)],
	["Head", "Neck", Vector3(0, 1.56, 0.01)],
	["LeftEye", "Head", Vector3(0.032, 1.64, 0.08)],
	["RightEye", "Head", Vector3(-0.032, 1.64, 0.08)],
	["Jaw", "Head", Vector3(0, 1.58, 0.05)],
	["LeftShoulder", "UpperChest", Vector3(0.03, 1.41, 0)],
	["LeftUpperArm", "LeftShoulder", Vector3(0.17, 1.41, 0)],
	["LeftLowerArm", "LeftUpperArm", Vector3(0.45, 1.41, 0)],
	["LeftHand", "LeftLowerArm", Vector3(0.69, 1.41, 0)],
	["RightShoulder", "UpperChest", Vector3(-0.03, 1.41, 0)],
	["RightUpperArm", "RightShoulder", Vector3(-0.17, 1.41, 0)],
	["RightLowerArm", "RightUpperArm", Vector3(-0.45, 1.41, 0)],
	["RightHand", "RightLowerArm", Vector3(-0.69, 1.41, 0)],
	["LeftUpperLeg", "Hips", Vector3(0.09, 0.92, 0)],
	["LeftLowerLeg", "LeftUpperLeg", Vector3(0.09, 0.50, 0)],
	["LeftFoot", "LeftLowerLeg", Vector3(0.09, 0.08, 0)],
	["LeftToes", "LeftFoot", Vector3(0.09, 0.02, 0.12)],
	["RightUpperLeg", "Hips", Vector3(-0.09, 0.92, 0)],
	["RightLowerLeg", "RightUpperLeg", Vector3(-0.09, 0.50, 0)],
	["RightFoot", "RightLowerLeg", Vector3(-0.09, 0.08, 0)],
	["RightToes", "RightFoot", Vector3(-0.09, 0.02, 0.12)],
]

const FINGERS := ["Thumb", "Index", "Middle", "Ring", "Little"]

## Which child a bone's +Y points at when it has several (as in Godot's humanoid profile: the
## hand along the middle finger, the upper chest up the neck).
const AIM_CHILD := {
	"Hips": "Spine", "UpperChest": "Neck", "Head": "Jaw",
	"LeftHand": "LeftMiddleProximal", "RightHand": "RightMiddleProximal",
}


## Forearm twist bones (not in Godot's humanoid profile): leaves of the lower arm, halfway to the
## wrist, for a character whose skin spreads the forearm's roll (see `ForearmTwist`).
const TWIST_BONES := [
	["LeftLowerArmTwist", "LeftLowerArm", Vector3(0.57, 1.41, 0)],
	["RightLowerArmTwist", "RightLowerArm", Vector3(-0.57, 1.41, 0)],
]


## A new Skeleton3D in T-pose. With `fingers`, each hand gets three bones per finger; with
## `twist`, each forearm gets a twist bone.
static func build(fingers: bool = true, twist: bool = false) -> Skeleton3D:
	var entries: Array = BONES.duplicate()
	if fingers:
		for side in ["Left", "Right"]:
			entries.append_array(_finger_entries(side))
	if twist:
		entries.append_array(TWIST_BONES)
	return build_entries(entries)


## A new Skeleton3D of `entries` ([name, parent name or "", global position], parents first),
## each bone's +Y toward its first child (or the one `AIM_CHILD` names): a rig of any naming.
static func build_entries(entries: Array) -> Skeleton3D:
	var skeleton := Skeleton3D.new()
	skeleton.name = "Skeleton3D"
	var globals := {}
	for e in entries:
		globals[e[0]] = e[2]
	var first_child := {}
	for e in entries:
		if e[1] != "" and not first_child.has(e[1]):
			first_child[e[1]] = e[0]
	for bone_name in AIM_CHILD:
		if globals.has(AIM_CHILD[bone_name]):
			first_child[bone_name] = AIM_CHILD[bone_name]
	var global_basis := {}
	for e in entries:
		var bone_name: String = e[0]
		var parent_name: String = e[1]
		var pos: Vector3 = e[2]
		var basis := Basis.IDENTITY
		if first_child.has(bone_name):
			basis = _basis_y_along(globals[first_child[bone_name]] - pos)
		elif parent_name != "":
			basis = global_basis[parent_name]
		global_basis[bone_name] = basis
		var idx := skeleton.add_bone(bone_name)
		var rest := Transform3D(basis, pos)
		if parent_name != "":
			skeleton.set_bone_parent(idx, skeleton.find_bone(parent_name))
			var parent_global := Transform3D(global_basis[parent_name], globals[parent_name])
			rest = parent_global.affine_inverse() * rest
		skeleton.set_bone_rest(idx, rest)
	skeleton.reset_bone_poses()
	return skeleton


static func _finger_entries(side: String) -> Array:
	var s := 1.0 if side == "Left" else -1.0
	var hand := Vector3(0.69 * s, 1.41, 0)
	var out := []
	for i in FINGERS.size():
		var finger: String = FINGERS[i]
		var names: Array
		var base: Vector3
		var step: Vector3
		if finger == "Thumb":
			names = ["ThumbMetacarpal", "ThumbProximal", "ThumbDistal"]
			base = hand + Vector3(0.02 * s, -0.01, 0.03)
			step = Vector3(0.022 * s, 0, 0.018)
		else:
			names = [finger + "Proximal", finger + "Intermediate", finger + "Distal"]
			base = hand + Vector3(0.085 * s, 0, 0.03 - 0.02 * (i - 1))
			step = Vector3(0.03 * s, 0, 0)
		var parent := side + "Hand"
		for j in names.size():
			var bone_name: String = side + names[j]
			out.append([bone_name, parent, base + step * j])
			parent = bone_name
	return out


static func _basis_y_along(dir: Vector3) -> Basis:
	var y := dir.normalized()
	var z_hint := Vector3.FORWARD if absf(y.dot(Vector3.BACK)) > 0.9 else Vector3.BACK
	var x := y.cross(z_hint).normalized()
	var z := x.cross(y).normalized()
	return Basis(x, y, z)


## A character scene: a Node3D root named `root_name` with a humanoid skeleton (`build`) that
## it owns, packed, as a game's avatar scene would be.
static func build_scene(root_name: String) -> PackedScene:
	var root := Node3D.new()
	root.name = root_name
	var skeleton := build()
	root.add_child(skeleton)
	skeleton.owner = root
	var scene := PackedScene.new()
	scene.pack(root)
	root.free()
	return scene
