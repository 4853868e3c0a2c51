## Finger poses: the pose state machine, copying from a source rig, procedural curl.
extends EngineTest

var _states: Array = []


func _on_pose_state_changed(state: int, state_name: String) -> void:
	_states.append(state_name)


## A hidden source rig (skeleton + AnimationPlayer) with one animation per pose state, each
## bending the right index finger by a different angle.
func _make_source_rig() -> Dictionary:
	var rig := Node3D.new()
	rig.name = "SourceRig"
	rig.visible = false
	add_child(rig)
	var skeleton := HumanoidBuilder.build()
	rig.add_child(skeleton)
	var player := AnimationPlayer.new()
	rig.add_child(player)
	var library := AnimationLibrary.new()
	var angles := {"Default": 0.0, "PreGrip": 20.0, "GripReady": 60.0, "HammerCock": 40.0, "Shoot": 80.0}
	var rest := skeleton.get_bone_rest(skeleton.find_bone("RightIndexProximal")).basis.get_rotation_quaternion()
	for state_name in angles:
		var a := Animation.new()
		a.length = 1.0
		a.loop_mode = Animation.LOOP_LINEAR
		var t := a.add_track(Animation.TYPE_ROTATION_3D)
		a.track_set_path(t, "Skeleton3D:RightIndexProximal")
		a.rotation_track_insert_key(t, 0.0, rest * Quaternion(Vector3.BACK, deg_to_rad(angles[state_name])))
		library.add_animation(state_name, a)
	player.add_animation_library("", library)
	return {"rig": rig, "skeleton": skeleton, "player": player, "angles": angles}


func _index_angle(s: Skeleton3D) -> float:
	var idx := s.find_bone("RightIndexProximal")
	var rest := s.get_bone_rest(idx).basis.get_rotation_quaternion()
	return rad_to_deg(s.get_bone_pose_rotation(idx).angle_to(rest))


func test_pose_state_follows_the_flags_and_the_live_hand_copies_it() -> void:
	var p := make_tracked_rig()
	var src := _make_source_rig()
	var copy := HandPoseCopy.new()
	copy.source_skeleton = src.skeleton
	p.skeleton.add_child(copy)
	var driver := HandPoseDriver.new()
	driver.hand = 1
	driver.animation_player = src.player
	driver.source_skeleton = src.skeleton
	driver.pose_state_changed.connect(_on_pose_state_changed)
	add_child(driver)
	await frames(3)
	driver.hand_in_holster_zone = true
	await frames(3)
	check(driver.get_pose_state() == VRArms.HandPoseState.PRE_GRIP and src.player.current_animation == "PreGrip", "hand in holster zone: PreGrip")
	driver.pistol_held = true
	await frames(3)
	check(driver.get_pose_state() == VRArms.HandPoseState.GRIP_READY and src.player.current_animation == "GripReady", "pistol held: GripReady")
	await p.skeleton.skeleton_updated
	check_near(_index_angle(p.skeleton), 60.0, 1.0, "the live index finger copies the GripReady pose")
	driver.play_shoot()
	await frames(2)
	check(driver.get_pose_state() == VRArms.HandPoseState.SHOOT, "shoot one-shot playing")
	await seconds(0.4)  # longer than the 0.24 s shoot pose
	check(driver.get_pose_state() == VRArms.HandPoseState.GRIP_READY, "back to GripReady after the shot")
	driver.pistol_held = false
	driver.hand_in_holster_zone = false
	await frames(2)
	check(_states == ["PreGrip", "GripReady", "Shoot", "GripReady", "Default"], "states in order: %s" % [_states])


func test_wrist_copies_at_reduced_weight() -> void:
	var p := make_tracked_rig()
	var src := _make_source_rig()
	var s: Skeleton3D = src.skeleton
	var hand := s.find_bone("RightHand")
	var copy := HandPoseCopy.new()
	copy.source_skeleton = s
	p.skeleton.add_child(copy)
	# Only the copy moves the wrist: no target for the right arm.
	p.rig.right_target = null
	await frames(2)
	var live: Skeleton3D = p.skeleton
	var rest := live.get_bone_rest(hand).basis.get_rotation_quaternion()
	s.set_bone_pose_rotation(hand, rest * Quaternion(Vector3.RIGHT, deg_to_rad(40.0)))
	await live.skeleton_updated
	var got := rad_to_deg(live.get_bone_pose_rotation(hand).angle_to(rest))
	check_near(got, 40.0 * 0.35, 0.5, "wrist copied at 0.35")
	expect_warnings(1)  # the rig reports the missing right target once


## A tracked rig whose live hand copies a hidden source skeleton, and a right-hand
## `HandPoseDriver` on that source, not yet in the tree (so its settings can be changed first).
func _make_curl_rig() -> Dictionary:
	var p := make_tracked_rig()
	var source := HumanoidBuilder.build()
	source.visible = false
	add_child(source)
	var copy := HandPoseCopy.new()
	copy.source_skeleton = source
	p.skeleton.add_child(copy)
	var driver := HandPoseDriver.new()
	driver.hand = 1
	driver.source_skeleton = source
	driver.controller = p.right
	p.merge({"source": source, "driver": driver})
	return p


func test_grip_and_trigger_curl_the_fingers() -> void:
	var p := _make_curl_rig()
	var source: Skeleton3D = p.source
	add_child(p.driver)
	p.simulator.set_input(VRArms.Hand.RIGHT, "grip", 1.0)
	p.simulator.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	await frames(3)
	await p.skeleton.skeleton_updated
	var s: Skeleton3D = p.skeleton
	var middle := s.find_bone("RightMiddleIntermediate")
	var curl := rad_to_deg(s.get_bone_pose_rotation(middle).angle_to(s.get_bone_rest(middle).basis.get_rotation_quaternion()))
	check_near(curl, 75.0, 1.0, "full grip curls the middle finger")
	check(_index_angle(s) < 1.0, "no trigger: the index stays straight")
	# The fingertips move toward the palm: down in the source rig's T-pose (palms down).
	var tip := source.get_bone_global_pose(source.find_bone("RightMiddleDistal")).origin
	var base := source.get_bone_global_pose(source.find_bone("RightMiddleProximal")).origin
	check(tip.y < base.y - 0.01, "fingers curl toward the palm (tip %s, base %s)" % [tip, base])


func test_the_action_names_are_the_users() -> void:
	var p := _make_curl_rig()
	var driver: HandPoseDriver = p.driver
	check(driver.grip_action == &"grip" and driver.trigger_action == &"trigger", "the defaults are the usual names")
	driver.grip_action = &"squeeze"
	add_child(driver)
	# The usual name no longer curls; the user's action does.
	p.simulator.set_input(VRArms.Hand.RIGHT, "grip", 1.0)
	await frames(3)
	await p.skeleton.skeleton_updated
	var s: Skeleton3D = p.skeleton
	var middle := s.find_bone("RightMiddleIntermediate")
	var rest := s.get_bone_rest(middle).basis.get_rotation_quaternion()
	check(rad_to_deg(s.get_bone_pose_rotation(middle).angle_to(rest)) < 1.0, "\"grip\" is not the action any more")
	p.simulator.set_input(VRArms.Hand.RIGHT, "squeeze", 1.0)
	await frames(3)
	await p.skeleton.skeleton_updated
	check_near(rad_to_deg(s.get_bone_pose_rotation(middle).angle_to(rest)), 75.0, 1.0, "\"squeeze\" curls the fingers")


func test_without_animations_the_revolver_poses_are_procedural() -> void:
	var p := make_tracked_rig()
	var source := HumanoidBuilder.build()
	source.visible = false
	add_child(source)
	var driver := HandPoseDriver.new()
	driver.hand = 1
	driver.source_skeleton = source
	driver.controller = p.right
	add_child(driver)
	var bone := func(name: String) -> float:
		var i := source.find_bone(name)
		return rad_to_deg(source.get_bone_pose_rotation(i).angle_to(source.get_bone_rest(i).basis.get_rotation_quaternion()))
	# The gun in the hand, no animation player at all: gripped, the index follows the trigger.
	driver.set_pistol_held(true)
	p.simulator.set_input(VRArms.Hand.RIGHT, "grip", 0.0)
	p.simulator.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	await frames(3)
	check(driver.get_pose_state() == VRArms.HandPoseState.GRIP_READY, "GripReady while held (state %d)" % driver.get_pose_state())
	check_near(bone.call("RightMiddleIntermediate"), 75.0, 1.0, "held: the grip fingers close on the gun")
	check(bone.call("RightIndexProximal") < 1.0, "held, trigger off: the index lies straight")
	p.simulator.set_input(VRArms.Hand.RIGHT, "trigger", 1.0)
	await frames(2)
	check(bone.call("RightIndexProximal") > 20.0, "held, trigger pulled: the index follows (%.1f deg)" % bone.call("RightIndexProximal"))
	p.simulator.set_input(VRArms.Hand.RIGHT, "trigger", 0.0)
	driver.play_hammer_cock()
	await frames(2)
	check(driver.get_pose_state() == VRArms.HandPoseState.HAMMER_COCK, "HammerCock state")
	check(bone.call("RightThumbProximal") < 1.0, "cocking: the thumb is raised onto the hammer (%.1f deg)" % bone.call("RightThumbProximal"))


## A skeleton whose fingers are named otherwise (a Mixamo-style name) lists them in
## `copied_bones`, and that finger follows the source.
func test_copied_bones_are_the_users() -> void:
	var p := make_tracked_rig()
	var live: Skeleton3D = p.skeleton
	var source := HumanoidBuilder.build()
	source.visible = false
	add_child(source)
	const NAME := "mixamorig_RightHandIndex1"
	for s: Skeleton3D in [live, source]:
		s.set_bone_name(s.find_bone("RightIndexProximal"), NAME)
	var copy := HandPoseCopy.new()
	copy.source_skeleton = source
	copy.copied_bones = PackedStringArray([NAME])
	live.add_child(copy)
	var i := source.find_bone(NAME)
	var rest := source.get_bone_rest(i).basis.get_rotation_quaternion()
	source.set_bone_pose_rotation(i, rest * Quaternion(Vector3.BACK, deg_to_rad(50.0)))
	await frames(2)
	await live.skeleton_updated
	check_near(curl_of(live, NAME), 50.0, 0.5, "the renamed index finger copies the source")
	check(copy.get_setup_problems().is_empty(), "the listed bone is in both skeletons: no warning (%s)" % [copy.get_setup_problems()])
	copy.copied_bones = PackedStringArray(["mixamorig_NoSuchBone"])
	check("mixamorig_NoSuchBone" in " ".join(copy.get_setup_problems()), "a listed bone the skeleton lacks is a warning")
