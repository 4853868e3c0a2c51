## The bone pass: consecutive vr_arms modifiers share their bones and write them once at the end
## of the row; anything that must see them as written ends the row first.
extends EngineTest


## A modifier of the user's: records a bone's local rotation as it finds it in the skeleton.
class Probe extends SkeletonModifier3D:
	var bone := -1
	var seen := Quaternion.IDENTITY

	func _process_modification() -> void:
		seen = get_skeleton().get_bone_pose_rotation(bone)


func _reach_far(created: Dictionary) -> void:
	var sim: XRTrackingSimulator = created.simulator
	sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	# The left hand far out and up: the clavicle follows it.
	sim.set_hand_pose("left", Transform3D(Basis(), Vector3(0.75, 1.75, 0.2)))
	sim.set_hand_pose("right", Transform3D(Basis(), Vector3(-0.3, 1.2, 0.2)))


func test_a_modifier_between_two_of_ours_sees_the_bones_written_before_it() -> void:
	var created := make_set_up_body()
	var skeleton: Skeleton3D = created.skeleton
	var probe := Probe.new()
	probe.bone = skeleton.find_bone("LeftShoulder")
	skeleton.add_child(probe)
	# Between ClavicleFollow and VRArmRig.
	skeleton.move_child(probe, created.rig.get_index())
	_reach_far(created)
	await frames(10)
	await skeleton.skeleton_updated
	var final := skeleton.get_bone_pose_rotation(probe.bone)
	var rest := skeleton.get_bone_rest(probe.bone).basis.get_rotation_quaternion()
	check(rad_to_deg(final.angle_to(rest)) > 2.0, "the clavicle follows the far hand (%.1f deg)" % rad_to_deg(final.angle_to(rest)))
	check(rad_to_deg(probe.seen.angle_to(final)) < 0.01, "the modifier after ClavicleFollow sees its clavicle (%.3f deg off)" % rad_to_deg(probe.seen.angle_to(final)))


func _rotations(skeleton: Skeleton3D) -> Array:
	var out := []
	for b in skeleton.get_bone_count():
		out.append(skeleton.get_bone_pose_rotation(b))
	return out


func test_a_row_of_ours_gives_the_same_bones_as_one_broken_at_every_modifier() -> void:
	var created := make_set_up_body()
	var skeleton: Skeleton3D = created.skeleton
	_reach_far(created)
	await frames(400)
	await skeleton.skeleton_updated
	var shared := _rotations(skeleton)
	var hand := bone_global_position(skeleton, "LeftHand")
	# A probe after each of our modifiers ends every row: each modifier writes its bones at
	# once, as before the shared pass.
	var ours := skeleton.get_children().filter(func(c): return c is SkeletonModifier3D and not c is PhysicalBoneSimulator3D)
	check(ours.size() == 5, "five modifiers of ours (%d)" % ours.size())
	for m in ours:
		var probe := Probe.new()
		probe.bone = 0
		skeleton.add_child(probe)
		skeleton.move_child(probe, m.get_index() + 1)
	await frames(400)
	await skeleton.skeleton_updated
	var broken := _rotations(skeleton)
	var worst := 0.0
	var worst_bone := ""
	for b in skeleton.get_bone_count():
		var d := rad_to_deg((shared[b] as Quaternion).angle_to(broken[b]))
		if d > worst:
			worst = d
			worst_bone = skeleton.get_bone_name(b)
	check(worst < 0.05, "every bone as without the shared pass (worst %s, %.4f deg)" % [worst_bone, worst])
	check_vec_near(bone_global_position(skeleton, "LeftHand"), hand, 0.0005, "the left hand in the same place")


func test_one_of_ours_at_half_influence_is_blended_by_godot() -> void:
	var created := make_set_up_body()
	var skeleton: Skeleton3D = created.skeleton
	_reach_far(created)
	await frames(400)
	await skeleton.skeleton_updated
	var upper := skeleton.find_bone("LeftUpperArm")
	var before := skeleton.get_bone_rest(upper).basis.get_rotation_quaternion()
	var whole := rad_to_deg(before.angle_to(skeleton.get_bone_pose_rotation(upper)))
	var clavicle := skeleton.find_bone("LeftShoulder")
	var clavicle_full := skeleton.get_bone_pose_rotation(clavicle)
	created.rig.influence = 0.5
	await frames(400)
	await skeleton.skeleton_updated
	var part := rad_to_deg(before.angle_to(skeleton.get_bone_pose_rotation(upper)))
	# ClavicleFollow, before the rig, is at full influence: Godot must not blend its bones too.
	var clavicle_off := rad_to_deg(clavicle_full.angle_to(skeleton.get_bone_pose_rotation(clavicle)))
	check(rad_to_deg(clavicle_full.angle_to(skeleton.get_bone_rest(clavicle).basis.get_rotation_quaternion())) > 2.0, "the clavicle follows the far hand")
	check(clavicle_off < 0.05, "the clavicle keeps its full turn (%.3f deg off)" % clavicle_off)
	check(whole > 10.0, "the full-influence rig turns the upper arm (%.1f deg)" % whole)
	check(part > 0.2 * whole and part < 0.8 * whole, "the half-influence rig turns it part of the way (%.1f of %.1f deg)" % [part, whole])


func test_an_inactive_modifier_of_ours_ends_the_row_before_it() -> void:
	var created := make_set_up_body()
	var skeleton: Skeleton3D = created.skeleton
	# The modifier after the rig does not run: the rig must write its arms itself.
	created.forearm_twist.active = false
	var sim: XRTrackingSimulator = created.simulator
	sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	var left := Vector3(0.3, 1.15, 0.25)
	sim.set_hand_pose("left", Transform3D(Basis(), left))
	sim.set_hand_pose("right", Transform3D(Basis(), Vector3(-0.3, 1.2, 0.2)))
	await frames(10)
	await skeleton.skeleton_updated
	check_vec_near(bone_global_position(skeleton, "LeftHand"), left, 0.001, "the left hand on its controller with ForearmTwist off")
