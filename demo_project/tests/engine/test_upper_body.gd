## Upper body: head follow over the spine, clavicles, forearm twist, body follow.
extends EngineTest


func _camera_looking(yaw_deg: float, pitch_deg: float = 0.0) -> Basis:
	# The avatar faces +Z and cameras look along -Z: turn around, then yaw (to the avatar's left
	# for positive) and pitch.
	return Basis.from_euler(Vector3(deg_to_rad(pitch_deg), PI + deg_to_rad(yaw_deg), 0.0), EULER_ORDER_YXZ)


## Yaw (degrees) of a bone relative to its rest, seen from above.
func _bone_yaw(s: Skeleton3D, bone: String) -> float:
	var idx := s.find_bone(bone)
	var delta := s.get_bone_global_pose(idx).basis * s.get_bone_global_rest(idx).basis.inverse()
	var f := delta * Vector3.BACK
	return rad_to_deg(atan2(f.x, f.z))


## An UpperBodyFollow on the rig's skeleton, before every other modifier, following its camera.
func _upper_body_follow(p: Dictionary) -> UpperBodyFollow:
	var ubf := UpperBodyFollow.new()
	ubf.head = p.camera
	var s: Skeleton3D = p.skeleton
	s.add_child(ubf)
	s.move_child(ubf, 0)
	return ubf


func test_looking_left_turns_chest_neck_and_head_by_their_shares() -> void:
	var p := make_tracked_rig()
	var s: Skeleton3D = p.skeleton
	var ubf := _upper_body_follow(p)
	p.simulator.set_head_pose(Transform3D(_camera_looking(60.0), Vector3(0, 1.6, 0.05)))
	await frames(2)
	await s.skeleton_updated
	var w: Vector3 = ubf.yaw_weights
	check_near(_bone_yaw(s, "Chest"), 60.0 * w.x, 0.1, "chest share")
	check_near(_bone_yaw(s, "Neck"), 60.0 * (w.x + w.y), 0.1, "chest + neck share")
	check_near(_bone_yaw(s, "Head"), 60.0 * (w.x + w.y + w.z), 0.1, "head faces where the headset looks")
	check(absf(_bone_yaw(s, "Chest")) > 5.0, "the chest turned, not only the head")


## Angle between two rotations, accurate for tiny angles (angle_to's acos is not, in float32).
static func _angle(a: Quaternion, b: Quaternion) -> float:
	var d := a * b.inverse()
	return 2.0 * atan2(Vector3(d.x, d.y, d.z).length(), absf(d.w))


## A humanoid's UpperChest sits between Chest and Neck: bent (as an animation or a rig's curved
## spine may hold it), it keeps its bend, and the neck and head are where the follow puts them
## under it (the bend is not applied twice).
func test_a_bent_upper_chest_between_chest_and_neck_keeps_the_head_where_it_looks() -> void:
	var p := make_tracked_rig()
	var s: Skeleton3D = p.skeleton
	var ubf := _upper_body_follow(p)
	var uc := s.find_bone("UpperChest")
	check(s.get_bone_parent(s.find_bone("Neck")) == uc, "the test rig has an UpperChest above the neck")
	s.set_bone_pose_rotation(uc, Quaternion(Vector3.RIGHT, 0.4) * s.get_bone_rest(uc).basis.get_rotation_quaternion())
	var head := s.find_bone("Head")
	var animated := s.get_bone_global_pose(head).basis.get_rotation_quaternion()
	p.simulator.set_head_pose(Transform3D(_camera_looking(0.0), Vector3(0, 1.6, 0.05)))
	await frames(2)
	await s.skeleton_updated
	var straight := _angle(s.get_bone_global_pose(head).basis.get_rotation_quaternion(), animated)
	check(straight < 1e-3, "looking straight ahead leaves the bent spine's head as it was (%.4f rad off)" % straight)
	p.simulator.set_head_pose(Transform3D(_camera_looking(60.0), Vector3(0, 1.6, 0.05)))
	await frames(2)
	await s.skeleton_updated
	var turn := s.get_bone_global_pose(head).basis.get_rotation_quaternion() * animated.inverse()
	var w: Vector3 = ubf.yaw_weights
	var want := Quaternion(Vector3.UP, deg_to_rad(60.0 * (w.x + w.y + w.z)))
	check(_angle(turn, want) < 2e-3, "looking left turns the head by the whole follow about up (%.4f rad off)" % _angle(turn, want))


## A ClavicleFollow on the rig's skeleton, before the arm solve.
func _clavicle_follow(p: Dictionary) -> ClavicleFollow:
	var cf := ClavicleFollow.new()
	cf.rig = p.rig
	var s: Skeleton3D = p.skeleton
	s.add_child(cf)
	s.move_child(cf, 0)
	return cf


func test_far_forward_reach_moves_the_clavicle_and_the_hand_still_lands() -> void:
	var p := make_tracked_rig()
	var s: Skeleton3D = p.skeleton
	_clavicle_follow(p)
	# 0.55 m from the rest shoulder: out of reach without the clavicle, within reach with it.
	var target := Vector3(0.2, 1.42, 0.55)
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), target))
	await frames(3)
	await s.skeleton_updated
	var clavicle := s.get_bone_pose_rotation(s.find_bone("LeftShoulder"))
	var rest := s.get_bone_rest(s.find_bone("LeftShoulder")).basis.get_rotation_quaternion()
	check(clavicle.angle_to(rest) > deg_to_rad(10.0), "clavicle turned toward the hand (%.1f deg)" % rad_to_deg(clavicle.angle_to(rest)))
	check_vec_near(bone_global_position(s, "LeftHand"), target, 0.001, "hand on the target from the moved shoulder")
	# A near, low target leaves the clavicle at rest.
	var shoulder := s.global_transform * s.get_bone_global_rest(s.find_bone("LeftUpperArm")).origin
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), shoulder + Vector3(0.03, -0.22, 0.1)))
	await frames(3)
	await s.skeleton_updated
	clavicle = s.get_bone_pose_rotation(s.find_bone("LeftShoulder"))
	check(clavicle.angle_to(rest) < 0.01, "clavicle at rest for a near, low hand")


## The shoulder rises with the arm at any reach, as a shoulder girdle does: a near hand held
## level ahead of the shoulder (well inside the reach where the clavicle follows far hands)
## raises it, and the hand stays on its controller.
func test_a_raised_arm_raises_the_shoulder_at_any_reach() -> void:
	var p := make_tracked_rig()
	var s: Skeleton3D = p.skeleton
	var follow := _clavicle_follow(p)
	await frames(2)
	await s.skeleton_updated
	var shoulder := bone_global_position(s, "LeftUpperArm")
	var target := shoulder + Vector3(0.0, 0.0, 0.2)
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), target))
	await frames(3)
	await s.skeleton_updated
	var raised := bone_global_position(s, "LeftUpperArm").y
	check_vec_near(bone_global_position(s, "LeftHand"), target, 0.001, "the hand on its controller")
	var clavicle := s.find_bone("LeftShoulder")
	var rest := s.get_bone_rest(clavicle).basis.get_rotation_quaternion()
	follow.rise_max_deg = 0.0
	await frames(3)
	await s.skeleton_updated
	var still := bone_global_position(s, "LeftUpperArm").y
	check(raised - still > 0.02, "the shoulder rose %.1f cm over where it stays without the rise" % ((raised - still) * 100.0))
	check(s.get_bone_pose_rotation(clavicle).angle_to(rest) < 0.01, "without the rise the clavicle is at rest")



func test_an_overhead_reach_lifts_the_shoulder() -> void:
	var p := make_tracked_rig()
	var s: Skeleton3D = p.skeleton
	_clavicle_follow(p)
	await frames(2)
	await s.skeleton_updated
	var rest_shoulder := bone_global_position(s, "LeftUpperArm")
	# Straight up and out of reach: the clavicle lifts the shoulder joint toward the hand.
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.2, 2.1, 0.05)))
	await frames(3)
	await s.skeleton_updated
	var lifted := bone_global_position(s, "LeftUpperArm")
	check(lifted.y > rest_shoulder.y + 0.02, "shoulder lifted %.3f m" % (lifted.y - rest_shoulder.y))


## The left controller rolled 90 degrees about the solved forearm from the hand's neutral
## orientation at `target` (found first with the wrist rotation off); returns the rolled basis.
func _roll_left_hand(p: Dictionary, target: Vector3) -> Basis:
	var s: Skeleton3D = p.skeleton
	p.rig.apply_hand_rotation = false
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), target))
	await frames(3)
	await s.skeleton_updated
	var neutral := palm_transform(s, "Left").basis
	var forearm := (bone_global_position(s, "LeftHand") - bone_global_position(s, "LeftLowerArm")).normalized()
	var rolled := Basis(forearm, deg_to_rad(90.0)) * neutral
	p.rig.apply_hand_rotation = true
	p.simulator.set_hand_pose(VRArms.Hand.LEFT, Transform3D(rolled, target))
	await frames(30)
	await s.skeleton_updated
	return rolled


func test_ninety_degree_wrist_roll_is_shared_with_the_forearm() -> void:
	var p := make_tracked_rig()
	var s: Skeleton3D = p.skeleton
	var ft := ForearmTwist.new()
	ft.rig = p.rig
	s.add_child(ft)  # after the arm solve
	var target := Vector3(0.62, 1.38, 0.1)
	var rolled := await _roll_left_hand(p, target)
	var seen := palm_transform(s, "Left").basis
	check(angle_deg(seen, rolled) < 0.5, "the hand keeps the controller's rotation (%.2f deg off)" % angle_deg(seen, rolled))
	var hand_local := s.get_bone_pose_rotation(s.find_bone("LeftHand"))
	# Twist of the wrist joint about the forearm axis (swing-twist), relative to rest.
	var q := hand_local * s.get_bone_rest(s.find_bone("LeftHand")).basis.get_rotation_quaternion().inverse()
	var axis := s.get_bone_rest(s.find_bone("LeftHand")).origin.normalized()
	var wrist_twist := absf(rad_to_deg(2.0 * atan2(Vector3(q.x, q.y, q.z).dot(axis), q.w)))
	check(wrist_twist < 50.0, "the wrist joint keeps only part of the roll (%.1f deg)" % wrist_twist)
	check(wrist_twist > 30.0, "... and the forearm the rest (wrist %.1f deg)" % wrist_twist)
	check_vec_near(bone_global_position(s, "LeftHand"), target, 0.001, "hand on the target")


## A BodyFollow moving the rig's avatar from its camera and controllers.
func _body_follow(p: Dictionary) -> BodyFollow:
	var bf := BodyFollow.new()
	bf.head = p.camera
	bf.left_controller = p.left
	bf.right_controller = p.right
	bf.body_root = p.avatar
	add_child(bf)
	return bf


func test_body_follow_turns_toward_aiming_hands_and_follows_the_head_at_rest() -> void:
	var p := make_tracked_rig()
	_body_follow(p)
	var sim: XRTrackingSimulator = p.simulator
	sim.set_head_pose(Transform3D(_camera_looking(30.0), Vector3(0.5, 1.65, 0.2)))
	# Hands hanging at the sides of a body turned the same way as the head.
	var turn := Basis(Vector3.UP, deg_to_rad(30.0))
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.5, 0.95, 0.2) + turn * Vector3(0.25, 0, 0)))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(0.5, 0.95, 0.2) + turn * Vector3(-0.25, 0, 0)))
	await seconds(1.0)
	var avatar: Node3D = p.avatar
	var f := avatar.global_basis * Vector3.BACK
	check_near(rad_to_deg(atan2(f.x, f.z)), 30.0, 1.0, "at rest the body faces where the head looks")
	check_near(avatar.global_position.y, 0.0, 1e-4, "feet on the floor, no pitch")
	check(Vector2(avatar.global_position.x - 0.5, avatar.global_position.z - 0.2).length() < 0.15, "under the head")
	# Aim both hands forward-right (the avatar's right is -X): the body turns toward them.
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.4, 1.45, 0.7)))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(0.3, 1.42, 0.65)))
	sim.set_head_pose(Transform3D(_camera_looking(0.0), Vector3(0.5, 1.65, 0.2)))
	await seconds(1.0)
	f = avatar.global_basis * Vector3.BACK
	var yaw := rad_to_deg(atan2(f.x, f.z))
	check(yaw < -5.0, "body turned toward the hands (yaw %.1f deg)" % yaw)


## With twist bones the roll goes to them at their weights (elbow side 0.25, wrist side 0.5 by
## default), not to the lower arm.
func _twist_bone_share(bone_property: String) -> float:
	var p := make_tracked_rig(true, true)
	var s: Skeleton3D = p.skeleton
	var ft := ForearmTwist.new()
	ft.rig = p.rig
	ft.set(bone_property, "LeftLowerArmTwist")
	s.add_child(ft)
	await _roll_left_hand(p, Vector3(0.62, 1.38, 0.1))
	var bone := s.find_bone("LeftLowerArmTwist")
	return rad_to_deg(s.get_bone_pose_rotation(bone).angle_to(s.get_bone_rest(bone).basis.get_rotation_quaternion()))


func test_a_wrist_side_twist_bone_takes_half_the_roll() -> void:
	var share: float = await _twist_bone_share("left_wrist_twist_bone")
	check_near(share, 45.0, 2.0, "wrist-side twist bone turned 0.5 x 90 deg")


func test_an_elbow_side_twist_bone_takes_a_quarter_of_the_roll() -> void:
	var share: float = await _twist_bone_share("left_elbow_twist_bone")
	check_near(share, 22.5, 2.0, "elbow-side twist bone turned 0.25 x 90 deg")


## Every setting of the core stage is bridged: a profile sets the wrist line's weight at rest and
## its full-confidence span, the body follows them, and save_profile keeps them.
func test_a_profile_sets_the_wrist_line_weight_and_span() -> void:
	var p := make_tracked_rig()
	var bf := _body_follow(p)
	var sim: XRTrackingSimulator = p.simulator
	sim.set_head_pose(Transform3D(_camera_looking(0.0), Vector3(0.5, 1.65, 0.2)))
	# Hands held 0.5 m apart at the hips of a body turned 40 degrees from the head (0.6 m below
	# it: hanging lower, from hands_hanging_start_m, their line gives the body no yaw).
	var turn := Basis(Vector3.UP, deg_to_rad(40.0))
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.5, 1.05, 0.2) + turn * Vector3(0.25, 0, 0)))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(0.5, 1.05, 0.2) + turn * Vector3(-0.25, 0, 0)))
	var avatar: Node3D = p.avatar
	var yaw_of := func() -> float:
		var f := avatar.global_basis * Vector3.BACK
		return rad_to_deg(atan2(f.x, f.z))
	var head_only := "user://body_follow_head_only.toml"
	var line := "user://body_follow_line.toml"
	var file := FileAccess.open(head_only, FileAccess.WRITE)
	file.store_string("[body_follow]\nhands_weight_rest = 0.0\nwrist_span_full_m = 0.5\n")
	file.close()
	file = FileAccess.open(line, FileAccess.WRITE)
	file.store_string("[body_follow]\nhands_weight_rest = 1.0\nwrist_span_full_m = 0.3\n")
	file.close()
	check(bf.load_profile(head_only), "head-only profile loaded")
	check_near(bf.hands_weight_rest, 0.0, 1e-6, "hands_weight_rest from the profile")
	check_near(bf.wrist_span_full_m, 0.5, 1e-6, "wrist_span_full_m from the profile")
	await seconds(1.0)
	check_near(yaw_of.call(), 0.0, 1.0, "no weight at rest: the body faces the head")
	check(bf.load_profile(line), "wrist-line profile loaded")
	await seconds(1.0)
	check_near(yaw_of.call(), 40.0, 2.0, "full weight at rest: the body faces the wrist line's normal")
	var saved := "user://body_follow_saved.toml"
	DirAccess.remove_absolute(ProjectSettings.globalize_path(saved))
	check(bf.save_profile(saved), "saved")
	var other := BodyFollow.new()  # not in the tree: it only reads the file
	check(other.load_profile(saved), "read back")
	check_near(other.hands_weight_rest, 1.0, 1e-6, "save_profile keeps hands_weight_rest")
	check_near(other.wrist_span_full_m, 0.3, 1e-6, "save_profile keeps wrist_span_full_m")
	other.free()
