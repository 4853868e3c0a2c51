## Fingers from OpenXR hand tracking (a simulated XRHandTracker) through the one-click setup,
## and back to the controller-driven poses when tracking stops.
extends EngineTest

const CURL_DEG := 50.0
## How far the index fingertip's bone lies on the palm side of the hand (metres, in the hand's
## own frame; the palm faces down in the T-pose rest).
func palm_side(skeleton: Skeleton3D, side: String) -> float:
	var hand := skeleton.find_bone(side + "Hand")
	var tip := skeleton.find_bone(side + "IndexDistal")
	var offset := (skeleton.get_bone_global_pose(hand).affine_inverse() * skeleton.get_bone_global_pose(tip)).origin
	var palm := skeleton.get_bone_global_rest(hand).basis.inverse() * Vector3.DOWN
	return offset.dot(palm.normalized())


func test_tracked_fingers_drive_the_avatar_and_fall_back_to_the_controller() -> void:
	var b := make_set_up_body()
	var skeleton: Skeleton3D = b.skeleton
	var sim: XRTrackingSimulator = b.simulator
	var driver: HandPoseDriver = b.left_hand_pose
	sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.3, 1.15, 0.25)))
	# The controller's grip would curl the lower fingers 75 degrees.
	sim.set_input(VRArms.Hand.LEFT, "grip", 1.0)
	var tracker := make_tracker(hand_joints(skeleton, "Left", CURL_DEG))
	await seconds(0.3)
	await skeleton.skeleton_updated
	check_near(driver.get_hand_tracking_weight(), 1.0, 1e-6, "tracking fully blended in")
	for joint in ["IndexProximal", "IndexIntermediate", "IndexDistal"]:
		check_near(curl_of(skeleton, "Left" + joint), CURL_DEG, 1.0, "the avatar's %s follows the tracked curl" % joint)
	check(palm_side(skeleton, "Left") > 0.02, "the left index curls toward the palm (%.3f m)" % palm_side(skeleton, "Left"))
	for joint in ["MiddleIntermediate", "RingProximal", "LittleDistal", "ThumbProximal"]:
		check_near(curl_of(skeleton, "Left" + joint), 0.0, 1.0, "the tracked straight %s wins over the grip" % joint)
	check_near(curl_of(skeleton, "RightMiddleIntermediate"), 0.0, 1.0, "the untracked right hand keeps its controller pose (no grip)")
	# Tracking stops: after the fade, the controller's grip again.
	tracker.has_tracking_data = false
	await frames(3)
	await skeleton.skeleton_updated
	var mid: float = curl_of(skeleton, "LeftMiddleIntermediate")
	check(mid > 5.0 and mid < 70.0, "the fall-back blends, not jumps (%.1f deg after 3 frames)" % mid)
	await seconds(0.3)
	await skeleton.skeleton_updated
	check_near(driver.get_hand_tracking_weight(), 0.0, 1e-6, "tracking blended out")
	check_near(curl_of(skeleton, "LeftMiddleIntermediate"), 75.0, 1.0, "the grip curls the middle finger again")
	XRServer.remove_tracker(tracker)


func test_hand_tracking_can_be_turned_off() -> void:
	var b := make_set_up_body()
	var skeleton: Skeleton3D = b.skeleton
	var driver: HandPoseDriver = b.left_hand_pose
	driver.hand_tracking = false
	var tracker := make_tracker(hand_joints(skeleton, "Left", CURL_DEG))
	await seconds(0.3)
	await skeleton.skeleton_updated
	check_near(curl_of(skeleton, "LeftIndexIntermediate"), 0.0, 1.0, "the tracked curl is ignored")
	check(driver.get_hand_tracking_weight() == 0.0, "weight 0")
	XRServer.remove_tracker(tracker)


func test_the_right_hand_follows_its_own_tracker() -> void:
	var b := make_set_up_body()
	var skeleton: Skeleton3D = b.skeleton
	var tracker := make_tracker(hand_joints(skeleton, "Right", CURL_DEG), "Right")
	await seconds(0.3)
	await skeleton.skeleton_updated
	for joint in ["IndexProximal", "IndexIntermediate", "IndexDistal"]:
		check_near(curl_of(skeleton, "Right" + joint), CURL_DEG, 1.0, "the avatar's right %s follows the tracked curl" % joint)
	check_near(curl_of(skeleton, "LeftIndexIntermediate"), 0.0, 1.0, "the left hand has no tracker")
	# Toward the palm, not away from it: the fingertip ends below the knuckle.
	check(palm_side(skeleton, "Right") > 0.02, "the right index curls toward the palm (%.3f m)" % palm_side(skeleton, "Right"))
	XRServer.remove_tracker(tracker)


func test_without_a_controller_curl_the_fingers_come_back_from_tracking() -> void:
	# Nothing rewrites the fingers in the Default state: after tracking they must not stay curled.
	var b := make_set_up_body()
	var skeleton: Skeleton3D = b.skeleton
	var driver: HandPoseDriver = b.left_hand_pose
	driver.curl_from_controller = false
	var tracker := make_tracker(hand_joints(skeleton, "Left", CURL_DEG))
	await seconds(0.3)
	await skeleton.skeleton_updated
	check_near(curl_of(skeleton, "LeftIndexIntermediate"), CURL_DEG, 1.0, "tracked curl shown")
	tracker.has_tracking_data = false
	await seconds(0.3)
	await skeleton.skeleton_updated
	check_near(curl_of(skeleton, "LeftIndexIntermediate"), 0.0, 1.0, "back to the pose from before tracking")
	# Turned off while tracking: at once.
	tracker.has_tracking_data = true
	await seconds(0.3)
	driver.hand_tracking = false
	await frames(2)
	await skeleton.skeleton_updated
	check_near(curl_of(skeleton, "LeftIndexIntermediate"), 0.0, 1.0, "hand tracking turned off: the fingers come back")
	XRServer.remove_tracker(tracker)
