## Drives the character's elbow helper bones: each takes half of its lower arm's rotation, so the
## skin at the elbow follows a bone bent half-way and keeps its volume at full bend (linear blend
## skinning between two bones 145 degrees apart pinches the joint to cos(72.5) = 30 % of its
## radius; between a helper and either arm bone, 72.5 degrees apart, to cos(36) = 81 %).
##
## A helper is a leaf of the upper arm with the lower arm's rest. Place this modifier under the
## Skeleton3D after every modifier that writes the arms.
class_name ElbowHelperModifier
extends SkeletonModifier3D

## Helper bone name -> the bone whose rotation it halves.
const HELPERS := {"LeftElbowHelper": "LeftLowerArm", "RightElbowHelper": "RightLowerArm"}


## Adds the helper bones to `skeleton` (a leaf of each upper arm, with the lower arm's rest).
static func add_helper_bones(skeleton: Skeleton3D) -> void:
	for helper in HELPERS:
		var driver := skeleton.find_bone(HELPERS[helper])
		var i := skeleton.add_bone(helper)
		skeleton.set_bone_parent(i, skeleton.get_bone_parent(driver))
		skeleton.set_bone_rest(i, skeleton.get_bone_rest(driver))
		skeleton.reset_bone_pose(i)


## Sets every helper's pose from its driver's current pose.
static func drive(skeleton: Skeleton3D) -> void:
	for helper in HELPERS:
		var h := skeleton.find_bone(helper)
		var d := skeleton.find_bone(HELPERS[helper])
		if h < 0 or d < 0:
			continue
		var rest := skeleton.get_bone_rest(d).basis.get_rotation_quaternion()
		var relative := rest.inverse() * skeleton.get_bone_pose_rotation(d)
		skeleton.set_bone_pose_rotation(h, rest * Quaternion.IDENTITY.slerp(relative, 0.5))


func _process_modification() -> void:
	var skeleton := get_skeleton()
	if skeleton:
		drive(skeleton)
