## The whole body follows the player: a character set up in one click (a bare humanoid,
## simulated headset and controllers) crouches, squats, bows, leans and picks things up with its
## head on the headset, its hands on the controllers and its feet on the floor; turning in
## place, its feet step round without sliding.
extends EngineTest

## The humanoid's standing eyes (between LeftEye and RightEye at rest).
const EYES := Vector3(0, 1.64, 0.08)


## Watches both feet frame by frame: a foot more than 5 mm over its standing height is stepping;
## back down, it is planted where it landed. Counts the steps and keeps the worst horizontal
## slide of a planted foot.
class FootWatch:
	var skeleton: Skeleton3D
	var rest_ankle: float
	var planted_at := {}
	var steps := {"Left": 0, "Right": 0}
	var worst_slide := 0.0

	func _init(watched: Skeleton3D) -> void:
		skeleton = watched
		rest_ankle = skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin.y
		for side in ["Left", "Right"]:
			planted_at[side] = foot(side)

	func foot(side: String) -> Vector3:
		return (skeleton.global_transform * skeleton.get_bone_global_pose(skeleton.find_bone(side + "Foot"))).origin

	## One frame's look at both feet.
	func see() -> void:
		for side in ["Left", "Right"]:
			var at := foot(side)
			if at.y > rest_ankle + 0.005:
				if planted_at[side] != null:
					steps[side] += 1
				planted_at[side] = null
				continue
			if planted_at[side] == null:
				planted_at[side] = at
			var slide := Vector2(at.x - planted_at[side].x, at.z - planted_at[side].z).length()
			worst_slide = maxf(worst_slide, slide)


## The player's head looking ahead (the avatar's +Z), pitched down by `down_deg`.
func _head(at: Vector3, down_deg: float = 0.0) -> Transform3D:
	return Transform3D(Basis(Vector3.UP, PI) * Basis(Vector3.RIGHT, -deg_to_rad(down_deg)), at)


func _eyes(skeleton: Skeleton3D) -> Vector3:
	return (bone_global_position(skeleton, "LeftEye") + bone_global_position(skeleton, "RightEye")) * 0.5


func _knee_bend_deg(skeleton: Skeleton3D, side: String) -> float:
	var u := bone_global_position(skeleton, side + "UpperLeg")
	var l := bone_global_position(skeleton, side + "LowerLeg")
	var f := bone_global_position(skeleton, side + "Foot")
	return rad_to_deg((l - u).angle_to(f - l))


## The larger of the two ankles' distances from their standing height, leaving out a leg whose
## knee is on the floor (kneeling: its ankle is raised on the toes).
func _ankles_off(skeleton: Skeleton3D, rest_ankle: float) -> float:
	var off := 0.0
	for side in ["Left", "Right"]:
		if bone_global_position(skeleton, side + "LowerLeg").y > 0.1:
			off = maxf(off, absf(bone_global_position(skeleton, side + "Foot").y - rest_ankle))
	return off


## Holds a pose for `settle` seconds; what the player sees of it.
func _hold(b: Dictionary, head: Transform3D, left: Vector3, right: Vector3, settle: float = 1.5) -> Dictionary:
	var sim: XRTrackingSimulator = b.simulator
	var skeleton: Skeleton3D = b.skeleton
	sim.set_head_pose(head)
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), left))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), right))
	await seconds(settle)
	await skeleton.skeleton_updated
	var rest_ankle: float = skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin.y
	return {
		"head": _eyes(skeleton).distance_to(head.origin),
		"left": bone_global_position(skeleton, "LeftHand").distance_to(left),
		"right": bone_global_position(skeleton, "RightHand").distance_to(right),
		"knees": minf(_knee_bend_deg(skeleton, "Left"), _knee_bend_deg(skeleton, "Right")),
		# How far each ankle is from its standing height over the floor (the floor is at 0), but
		# a kneeling leg's (its knee on the floor, its ankle raised on the toes).
		"feet": _ankles_off(skeleton, rest_ankle),
		"hips": bone_global_position(skeleton, "Hips").y,
		# The spine's forward bend: from Spine to Neck against upright.
		"spine": rad_to_deg((bone_global_position(skeleton, "Neck") - bone_global_position(skeleton, "Spine")).angle_to(Vector3.UP)),
	}


## The eyes of `skeleton` sitting on a chair at its knee height: standing eye height less the
## thigh's drop from hip to knee.
func _seated_eyes(skeleton: Skeleton3D) -> Vector3:
	var hip_y := skeleton.get_bone_global_rest(skeleton.find_bone("LeftUpperLeg")).origin.y
	var knee_y := skeleton.get_bone_global_rest(skeleton.find_bone("LeftLowerLeg")).origin.y
	return EYES - Vector3(0, hip_y - knee_y, 0)


## The issue's table of poses, each after the one before, as a player moves: the avatar's
## eyes on the headset (1 cm), its hands on the controllers (1 cm), its ankles at their standing
## height over the floor (1 cm), the knees nearly straight standing and bent in a crouch, a
## squat and a pick-up (a bow and a side lean may bend them or not), the spine bent forward in
## the bow. Picking something off the floor, the torso turns toward the hand (the reach bend);
## without it the hand stops short.
func test_the_players_poses_keep_head_hands_and_feet_where_they_are() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var poses := [
		# name, head, head pitch down, left hand, right hand, knees at least / at most
		["standing", EYES, 0.0, Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3), 0.0, 15.0],
		["crouch 40 cm", EYES + Vector3(0, -0.4, 0.05), 10.0, Vector3(0.3, 0.8, 0.35), Vector3(-0.3, 0.8, 0.35), 40.0, 180.0],
		["deep squat 70 cm (held: kneels)", EYES + Vector3(0, -0.7, 0.1), 10.0, Vector3(0.25, 0.55, 0.4), Vector3(-0.25, 0.55, 0.4), 80.0, 180.0],
		["standing up again", EYES, 0.0, Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3), 0.0, 15.0],
		["bow 45 degrees", Vector3(0, 1.42, 0.42), 45.0, Vector3(0.25, 1.0, 0.5), Vector3(-0.25, 1.0, 0.5), 0.0, 180.0],
		["lean sideways 25 cm", EYES + Vector3(0.25, -0.04, 0), 0.0, Vector3(0.45, 1.15, 0.3), Vector3(-0.1, 1.15, 0.3), 0.0, 180.0],
		["pick something off the floor (the wrist 10 cm over it)", Vector3(0, 0.7, 0.4), 60.0, Vector3(0.25, 0.7, 0.35), Vector3(-0.15, 0.10, 0.5), 30.0, 180.0],
	]
	var report := []
	for p in poses:
		# Picking something off the floor kneels (held low and still for `kneel_after_s`), and
		# the kneeling foot steps to its place behind the knee: wait for it.
		var settle := 2.5 if p[0].begins_with("pick") else 1.5
		var seen: Dictionary = await _hold(b, _head(p[1], p[2]), p[3], p[4], settle)
		report.append("%s: head %.1f cm, hands %.1f / %.1f cm, knees %.0f deg, ankles %.1f cm off, hips %.2f m, spine %.0f deg from upright" % [p[0], seen.head * 100, seen.left * 100, seen.right * 100, seen.knees, seen.feet * 100, seen.hips, seen.spine])
		check(seen.head < 0.01, "%s: the eyes on the headset (%.1f cm)" % [p[0], seen.head * 100])
		check(seen.left < 0.01 and seen.right < 0.01, "%s: hands on the controllers (%.1f, %.1f cm)" % [p[0], seen.left * 100, seen.right * 100])
		check(seen.feet < 0.01, "%s: feet on the floor (ankles %.1f cm from their standing height)" % [p[0], seen.feet * 100])
		check(seen.knees >= p[5] and seen.knees <= p[6], "%s: knees bent %.0f degrees (%.0f to %.0f)" % [p[0], seen.knees, p[5], p[6]])
		if p[0].begins_with("bow"):
			var forward := bone_global_position(b.skeleton, "Neck").z > bone_global_position(b.skeleton, "Spine").z
			check(seen.spine > 10.0 and forward, "bow: the spine bent forward (%.0f degrees from upright)" % seen.spine)
			# A bow hinges at the hips: the torso leans further than the knees bend.
			check(seen.spine > seen.knees, "bow: the spine (%.0f degrees) leans further than the knees bend (%.0f)" % [seen.spine, seen.knees])
	print("  " + "\n  ".join(report))
	# The pick-up without the reach bend: the torso stays where the head puts it and the hand
	# stops short of the floor.
	var last: Array = poses[poses.size() - 1]
	b.lower_body.reach_bend_max_deg = 0.0
	var plain: Dictionary = await _hold(b, _head(last[1], last[2]), last[3], last[4])
	check(plain.right > 0.01, "without the reach bend the hand stops short of the floor (%.1f cm)" % (plain.right * 100))


## Turning 90 degrees in place: the body turns with the headset, each foot steps round (it ends
## turned with the body), and no planted foot slides more than 2 cm.
func test_turning_in_place_steps_the_feet_round_without_sliding() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	var sim: XRTrackingSimulator = b.simulator
	await _hold(b, _head(EYES), Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3))
	var watch := FootWatch.new(skeleton)
	# A quarter turn over a second, hands turning with the head, then two seconds still.
	for i in 270:
		var yaw := deg_to_rad(90.0) * clampf(i / 90.0, 0.0, 1.0)
		var turn := Basis(Vector3.UP, yaw)
		sim.set_head_pose(Transform3D(turn * Basis(Vector3.UP, PI), turn * EYES))
		sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(turn, turn * Vector3(0.3, 1.15, 0.3)))
		sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(turn, turn * Vector3(-0.3, 1.15, 0.3)))
		await frames(1)
		await skeleton.skeleton_updated
		watch.see()
	var steps: Dictionary = watch.steps
	var worst_slide: float = watch.worst_slide
	var body_forward: Vector3 = (b.character as Node3D).global_basis.z
	check(absf(rad_to_deg(body_forward.signed_angle_to(Vector3.RIGHT, Vector3.UP))) < 15.0, "the body turned a quarter with the head (forward %s)" % body_forward)
	check(steps.Left >= 1 and steps.Right >= 1, "each foot stepped: %s" % [steps])
	check(worst_slide < 0.02, "no planted foot slid more than 2 cm (%.1f cm)" % (worst_slide * 100))
	for side in ["Left", "Right"]:
		var toes := bone_global_position(skeleton, side + "Toes") - bone_global_position(skeleton, side + "Foot")
		var angle := rad_to_deg(Vector2(toes.x, toes.z).angle_to(Vector2(body_forward.x, body_forward.z)))
		check(absf(angle) < 30.0, "%s foot turned round with the body (%.0f degrees off)" % [side, angle])


## The game walks the XR origin forward at 1.2 m/s (a frame at 90 Hz) for 180 frames, then 90
## frames still; `watch` sees every frame, then `each` is called with the frame's number.
func _walk_the_origin(origin: XROrigin3D, skeleton: Skeleton3D, watch: FootWatch, each := Callable()) -> void:
	for i in 270:
		if i < 180:
			origin.global_position += Vector3(0, 0, 1.2 / 90.0)
		await frames(1)
		await skeleton.skeleton_updated
		watch.see()
		if each.is_valid():
			each.call(i)


## Thumbstick walking: the game moves the XR origin at 1.2 m/s for two seconds and stops. The
## feet walk: each steps again and again, lands ahead of the moving body (it stays over its
## feet), and no planted foot slides more than 2 cm.
func test_thumbstick_walking_walks_the_feet_without_skating() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	var origin: XROrigin3D = b.origin
	await _hold(b, _head(EYES), Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3))
	var watch := FootWatch.new(skeleton)
	var lag := [0.0]
	await _walk_the_origin(origin, skeleton, watch, func(i: int) -> void:
		if i > 45:
			var between: Vector3 = (watch.foot("Left") + watch.foot("Right")) * 0.5
			var hips := bone_global_position(skeleton, "Hips")
			lag[0] = maxf(lag[0], Vector2(between.x - hips.x, between.z - hips.z).length()))
	var worst_lag: float = lag[0]
	var steps: Dictionary = watch.steps
	var worst_slide: float = watch.worst_slide
	check(steps.Left >= 2 and steps.Right >= 2, "each foot stepped again and again: %s" % [steps])
	check(worst_slide < 0.02, "no planted foot slid more than 2 cm (%.1f cm)" % (worst_slide * 100))
	check(worst_lag < 0.45, "the body stays over its feet (at most %.2f m between them)" % worst_lag)
	var hips := bone_global_position(skeleton, "Hips")
	for side in ["Left", "Right"]:
		var foot := bone_global_position(skeleton, side + "Foot")
		check(Vector2(foot.x - hips.x, foot.z - hips.z).length() < 0.3, "stopped, the %s foot is under the body again" % side)



## The left thigh's local rotation against `q`, in degrees.
func _thigh_off_deg(skeleton: Skeleton3D, q: Quaternion) -> float:
	return rad_to_deg(skeleton.get_bone_pose_rotation(skeleton.find_bone("LeftUpperLeg")).angle_to(q))


## Thumbstick walking with `walk_animation_share` at 1: while the game moves the XR origin, the
## legs play the user's walk animation (here an AnimationPlayer holding the left thigh swung 30
## degrees forward); stopped, the procedural legs have them back with the feet on the floor.
## With the share at 0 (the default) the same walk keeps the procedural legs.
func test_thumbstick_walking_plays_the_users_walk_animation_on_the_legs() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	var origin: XROrigin3D = b.origin
	var rig: LowerBodyRig = b.lower_body
	check_near(rig.walk_animation_share, 0.0, 0.0, "off by default")
	var thigh := skeleton.find_bone("LeftUpperLeg")
	var swung: Quaternion = skeleton.get_bone_rest(thigh).basis.get_rotation_quaternion() * Quaternion(Vector3.RIGHT, deg_to_rad(-30.0))
	play_held_pose(b.character, skeleton, "LeftUpperLeg", swung)
	await _hold(b, _head(EYES), Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3))
	var rest_ankle: float = skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin.y
	for share in [0.0, 1.0]:
		rig.walk_animation_share = share
		var worst := 0.0
		var best := 180.0
		for i in 90:
			origin.global_position += Vector3(0, 0, 1.2 / 90.0)
			await frames(1)
			await skeleton.skeleton_updated
			if i >= 30:
				worst = maxf(worst, _thigh_off_deg(skeleton, swung))
				best = minf(best, _thigh_off_deg(skeleton, swung))
		if share > 0.0:
			check(worst < 1.0, "walking, the thigh is the animation's (%.1f degrees off it at most)" % worst)
		else:
			check(best > 10.0, "share 0: the thigh is the procedural leg's (%.1f degrees off the animation at least)" % best)
		await seconds(1.5)
		await skeleton.skeleton_updated
		check(_thigh_off_deg(skeleton, swung) > 10.0, "stopped, the procedural leg again (%.1f degrees off the animation)" % _thigh_off_deg(skeleton, swung))
		var ankle := bone_global_position(skeleton, "LeftFoot").y
		check_near(ankle, rest_ankle, 0.01, "stopped, the foot on the floor")


## With `floor_ray` on, a foot stands on what a physics ray finds under it: a 20 cm crate under
## the left foot's place holds the left ankle 20 cm up, the right on the floor. Off (the
## default), both stand on the XR origin's floor, the left in the crate.
func test_floor_ray_stands_a_foot_on_a_crate_under_it() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	var rig: LowerBodyRig = b.lower_body
	check(not rig.floor_ray, "off by default")
	var rest_ankle: float = skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin.y
	var left_x: float = skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin.x
	make_crate(self, Vector3(left_x, 0.1, 0.0))
	rig.floor_collision_mask = 4
	await frames(3)
	var heights := {}
	for on in [false, true]:
		rig.floor_ray = on
		rig.reset()
		await _hold(b, _head(EYES), Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3), 1.0)
		heights[on] = [bone_global_position(skeleton, "LeftFoot").y - rest_ankle, bone_global_position(skeleton, "RightFoot").y - rest_ankle]
	check_near(heights[true][0], 0.2, 0.01, "ray on: the left ankle on the crate (%.3f m up)" % heights[true][0])
	check_near(heights[true][1], 0.0, 0.01, "ray on: the right ankle on the floor (%.3f m up)" % heights[true][1])
	check_near(heights[false][0], 0.0, 0.01, "ray off: the left ankle on the origin's floor (%.3f m up)" % heights[false][0])


## The feet's rays pass through the avatar's own colliders (a hit box on its shin, under the
## avatar root: the foot would stand on its own leg) and through a body the game excepts (a crate
## the player carries), and stand on that crate again once the exception is removed.
func test_floor_ray_passes_through_the_avatars_own_hit_boxes_and_the_games_exceptions() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	var rig: LowerBodyRig = b.lower_body
	var rest_ankle: float = skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin.y
	var left := skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin
	var right := skeleton.get_bone_global_rest(skeleton.find_bone("RightFoot")).origin
	# A hit box on the left shin (the avatar's own, under its root), a crate under the right foot.
	make_crate(rig.body_root, Vector3(left.x, 0.25, left.z))
	var crate := make_crate(self, Vector3(right.x, 0.1, right.z))
	rig.floor_collision_mask = 4
	rig.floor_ray = true
	var heights := func() -> Array:
		rig.reset()
		await _hold(b, _head(EYES), Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3), 1.0)
		return [bone_global_position(skeleton, "LeftFoot").y - rest_ankle, bone_global_position(skeleton, "RightFoot").y - rest_ankle]
	var seen: Array = await heights.call()
	check_near(seen[0], 0.0, 0.01, "the left foot on the floor under its own hit box (%.3f m up)" % seen[0])
	check_near(seen[1], 0.2, 0.01, "the right foot on the crate (%.3f m up)" % seen[1])
	rig.add_floor_ray_exception(crate)
	seen = await heights.call()
	check_near(seen[1], 0.0, 0.01, "the crate excepted: the right foot on the floor (%.3f m up)" % seen[1])
	rig.remove_floor_ray_exception(crate)
	seen = await heights.call()
	check_near(seen[1], 0.2, 0.01, "the exception removed: on the crate again (%.3f m up)" % seen[1])


## The lower of the two knees (the lower-leg bones' heights, m) over `seconds` with the player's
## eyes `down` metres under standing and the hands ahead.
func _lowest_knee(b: Dictionary, down: float, seconds: float) -> float:
	var sim: XRTrackingSimulator = b.simulator
	var skeleton: Skeleton3D = b.skeleton
	sim.set_head_pose(_head(EYES + Vector3(0, -down, 0.05), 10.0))
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(0.3, 1.15 - down, 0.35)))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(-0.3, 1.15 - down, 0.35)))
	var lowest := INF
	for i in int(seconds * 120.0):
		await frames(1)
		await skeleton.skeleton_updated
		lowest = minf(lowest, minf(bone_global_position(skeleton, "LeftLowerLeg").y, bone_global_position(skeleton, "RightLowerLeg").y))
	return lowest


## Staying low kneels on one knee: the player's eyes 55 cm down for 2 s put one knee on the
## floor (its joint 3 to 8 cm over it), the other foot ahead of its hip, the eyes still on the
## headset, the hands on the controllers, and the kneeling foot's toes flat on the floor. A quick duck (0.3 s) squats, and with `kneel` off
## the body squats however long it stays low.
func test_staying_low_kneels_on_one_knee_a_quick_duck_squats() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	var rig: LowerBodyRig = b.lower_body
	check(rig.kneel, "on by default")
	await _hold(b, _head(EYES), Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3), 1.0)
	var standing_toes := {}
	for side in ["Left", "Right"]:
		standing_toes[side] = skeleton.global_transform * skeleton.get_bone_global_pose(skeleton.find_bone(side + "Toes"))
	var duck := await _lowest_knee(b, 0.55, 0.3)
	check(duck > 0.15, "a quick duck squats (the lowest knee %.2f m up)" % duck)
	await _hold(b, _head(EYES), Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3), 1.0)
	await _lowest_knee(b, 0.55, 2.0)
	var seen := {}
	for side in ["Left", "Right"]:
		seen[side] = bone_global_position(skeleton, side + "LowerLeg").y
	var down: String = "Left" if seen.Left < seen.Right else "Right"
	var up: String = "Right" if down == "Left" else "Left"
	check(seen[down] > 0.03 and seen[down] < 0.08, "held low: the %s knee on the floor (%.3f m up)" % [down, seen[down]])
	var forward: float = bone_global_position(skeleton, up + "Foot").z - bone_global_position(skeleton, up + "UpperLeg").z
	check(forward > 0.15, "the %s foot ahead of its hip (%.2f m)" % [up, forward])
	var eyes_off := _eyes(skeleton).distance_to(EYES + Vector3(0, -0.55, 0.05))
	check(eyes_off < 0.01, "kneeling, the eyes on the headset (%.1f cm)" % (eyes_off * 100))
	var hand_off := bone_global_position(skeleton, "LeftHand").distance_to(Vector3(0.3, 0.6, 0.35))
	check(hand_off < 0.01, "kneeling, the hand on its controller (%.1f cm)" % (hand_off * 100))
	# The kneeling foot's toes bent back flat on the floor: the ball of the foot (the toes'
	# joint) as high as standing, the toes turned from standing only about the vertical.
	var toes := skeleton.global_transform * skeleton.get_bone_global_pose(skeleton.find_bone(down + "Toes"))
	var stood: Transform3D = standing_toes[down]
	var ball_off := absf(toes.origin.y - stood.origin.y)
	check(ball_off < 0.01, "the kneeling ball of the foot at its standing height (%.1f cm off)" % (ball_off * 100))
	var tilt := 0.0
	for axis in 3:
		tilt = maxf(tilt, absf(toes.basis[axis].normalized().y - stood.basis[axis].normalized().y))
	check(tilt < 0.05, "the kneeling toes flat on the floor (axes tilted %.2f)" % tilt)
	await _hold(b, _head(EYES), Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3), 1.5)
	check(_knee_bend_deg(skeleton, down) < 15.0, "stood up again (the %s knee %.0f degrees)" % [down, _knee_bend_deg(skeleton, down)])
	rig.kneel = false
	var squat := await _lowest_knee(b, 0.55, 2.0)
	check(squat > 0.15, "kneeling off: a squat (the lowest knee %.2f m up)" % squat)


## A scaled avatar (fitted to a player 1.2 times its height, as `AvatarCalibrator` does at the
## start of tracking) walked by the thumbstick: its planted feet stay where they were planted
## in the world. (The lower body's frame was scaled about the moving skeleton: a planted foot
## slid by a fifth of the body's motion.)
func test_a_scaled_avatars_planted_feet_do_not_slide() -> void:
	var b := make_set_up_body()
	var skeleton: Skeleton3D = b.skeleton
	var origin: XROrigin3D = b.origin
	await _hold(b, _head(EYES * 1.2), Vector3(0.36, 1.38, 0.36), Vector3(-0.36, 1.38, 0.36), 2.0)
	var scale := skeleton.global_basis.get_scale().x
	check(absf(scale - 1.2) < 0.05, "fitted to the player: scale %.2f" % scale)
	var watch := FootWatch.new(skeleton)
	watch.rest_ankle *= scale
	await _walk_the_origin(origin, skeleton, watch)
	check(watch.steps.Left >= 2 and watch.steps.Right >= 2, "each foot stepped: %s" % [watch.steps])
	check(watch.worst_slide < 0.02, "no planted foot slid more than 2 cm (%.1f cm)" % (watch.worst_slide * 100))

## Every lower-body setting is in the inspector and the profile, validated as the core does:
## `step_lead` too (it was missing from the node: the profile's value was dropped), the floor
## ray and kneeling.
func test_the_step_lead_is_a_setting_of_the_node_and_its_profile() -> void:
	var rig := LowerBodyRig.new()
	rig.step_lead = 5.0
	check_near(rig.step_lead, 2.0, 1e-6, "clamped to its range as the core clamps it")
	rig.step_lead = 1.25
	check(not rig.floor_ray and rig.floor_collision_mask == 1, "the floor ray off, layer 1, by default")
	rig.floor_ray = true
	rig.floor_collision_mask = 6
	rig.kneel = false
	const PATH := "user://lower_body_lead.toml"
	check(rig.save_profile(PATH), "saved")
	var other := LowerBodyRig.new()
	check(other.load_profile(PATH), "loaded")
	check_near(other.step_lead, 1.25, 1e-6, "the profile carries it")
	check(other.floor_ray and other.floor_collision_mask == 6 and not other.kneel, "and the floor ray, its layers and kneeling")
	DirAccess.remove_absolute(ProjectSettings.globalize_path(PATH))
	rig.free()
	other.free()


## The chest's yaw against the hips' (degrees), as the player sees it.
func _chest_yaw_deg(skeleton: Skeleton3D) -> float:
	var hips := skeleton.get_bone_global_pose(skeleton.find_bone("Hips")).basis
	var chest := skeleton.get_bone_global_pose(skeleton.find_bone("Chest")).basis
	var f := (hips.inverse() * chest) * Vector3.FORWARD
	return rad_to_deg(atan2(f.x, -f.z))


## The chest turns with the head through UpperBodyFollow, and LowerBodyRig (which bends the
## spine after it) keeps that turn, also when the follow's bones are set while the game runs:
## LowerBodyRig used to keep the follow's bones from when it started and wrote its own chest
## over the follow's, so a chest named late never turned with the head.
func test_the_lower_body_keeps_the_chest_turn_of_a_follow_renamed_at_runtime() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	var follow: UpperBodyFollow
	for c in skeleton.get_children():
		if c is UpperBodyFollow:
			follow = c
	check(follow != null, "the setup made an UpperBodyFollow")
	if follow == null:
		return
	# The follow starts without its chest (a name the skeleton does not have) ...
	follow.chest_bone = "NoSuchBone"
	var hands := [Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3)]
	# Looking 35 degrees to the left (the body follows only past its dead zone).
	var turned := Transform3D(Basis(Vector3.UP, PI + deg_to_rad(35.0)), EYES)
	await _hold(b, turned, hands[0], hands[1], 0.3)
	var without := _chest_yaw_deg(skeleton)
	# ... and gets it while the game runs.
	follow.chest_bone = "Chest"
	await _hold(b, turned, hands[0], hands[1], 0.3)
	var with_chest := _chest_yaw_deg(skeleton)
	print("  chest turned %.1f degrees against the hips without the follow's chest, %.1f with it" % [without, with_chest])
	check(absf(without) < 1.0, "without its chest the follow does not turn it (%.1f degrees)" % without)
	check(absf(with_chest) > 3.0, "named while the game runs, the chest turns with the head (%.1f degrees)" % with_chest)


## In a low stance (the headset 45 cm down: a lunge, a deep stance) the chest stays with the
## hips and the neck turns the head toward where the headset looks; standing, the chest takes its
## share of the look. LowerBodyRig runs the follow again with how far the head is down (the
## follow alone does not know the standing height).
func test_in_a_low_stance_the_chest_stays_with_the_hips_and_the_neck_turns_the_head() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	var look := Basis(Vector3.UP, PI + deg_to_rad(35.0))
	await _hold(b, Transform3D(look, EYES), Vector3(0.3, 1.15, 0.3), Vector3(-0.3, 1.15, 0.3), 0.45)
	var standing := _chest_yaw_deg(skeleton)
	var down := Vector3(0, 0.45, 0)
	# Held shorter than the kneel's wait: a crouch, not a kneel.
	var low := await _hold(b, Transform3D(look, EYES - down), Vector3(0.3, 0.75, 0.35), Vector3(-0.3, 0.75, 0.35), 0.45)
	var crouched := _chest_yaw_deg(skeleton)
	print("  chest turned %.1f degrees against the hips standing, %.1f in a low stance; eyes %.1f cm off the headset" % [standing, crouched, low.head * 100.0])
	check(absf(standing) > 3.0, "standing, the chest turns with the look (%.1f degrees)" % standing)
	check(absf(crouched) < 1.0, "in a low stance the chest stays with the hips (%.1f degrees)" % crouched)
	check(low.head < 0.02, "the eyes stay on the headset (%.1f cm)" % (low.head * 100.0))


## `get_head_miss()` is in the world's metres whatever the skeleton's scale: a half-size avatar
## (the skeleton scaled by 0.5, as a centimetre rig is scaled by 0.01) under a headset it cannot
## reach reports the distance the player sees between its eyes and the headset. It reported
## that distance in the skeleton's own units (here twice as much).
func test_the_head_miss_is_in_metres_on_a_scaled_skeleton() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	skeleton.scale = Vector3.ONE * 0.5
	var rig: LowerBodyRig = b.lower_body
	var seen: Dictionary = await _hold(b, _head(EYES), Vector3(0.2, 0.6, 0.2), Vector3(-0.2, 0.6, 0.2), 1.0)
	print("  eyes %.3f m from the headset, get_head_miss() %.3f" % [seen.head, rig.get_head_miss()])
	check(seen.head > 0.3, "the headset is out of the half-size avatar's reach (%.2f m)" % seen.head)
	check_near(rig.get_head_miss(), seen.head, 0.02, "the miss in metres of the world")


## `VRArmRig.get_shoulder_global_position()` read in `skeleton_updated` is where the shoulder is
## (within the clavicle's lift), also in a crouch: it added the lower body's move a second time
## to a pose that already had it (40 cm under the real shoulder in a 40 cm crouch).
func test_the_shoulder_read_after_the_modifiers_is_where_the_shoulder_is() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	var rig: VRArmRig = b.rig
	await _hold(b, _head(EYES + Vector3(0, -0.4, 0.05), 10.0), Vector3(0.3, 0.8, 0.35), Vector3(-0.3, 0.8, 0.35))
	var seen := {}
	var look := func() -> void:
		seen["reported"] = rig.get_shoulder_global_position(VRArms.Hand.LEFT)
		seen["bone"] = bone_global_position(skeleton, "LeftUpperArm")
	skeleton.skeleton_updated.connect(look)
	await frames(3)
	skeleton.skeleton_updated.disconnect(look)
	var off: float = seen.reported.distance_to(seen.bone)
	print("  crouched: shoulder reported at %s, the bone at %s (%.1f cm)" % [seen.reported, seen.bone, off * 100])
	check(seen.bone.y < 1.2, "the avatar crouches (shoulder %.2f m up)" % seen.bone.y)
	check(off < 0.03, "the shoulder reported within 3 cm of the bone (%.1f cm)" % [off * 100])


## A seated player (the game sets `seated`): the headset at the eyes' seated height (the hip
## joints down at the knees' height), held past the kneeling time. The hips sit under the
## upright torso at the knees' height, the feet stand ahead under the knees, no knee goes to the
## floor, the eyes stay on the headset and the hands on the controllers. The same headset
## without `seated` crouches: the feet stay under the body. Standing up again (`seated` off,
## the headset back up), the feet come back under the body.
func test_a_seated_player_sits_with_the_feet_ahead_and_stands_up_again() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	var rig: LowerBodyRig = b.lower_body
	var seated_eyes := _seated_eyes(skeleton)
	var left := Vector3(0.25, 0.9, 0.35)
	var right := Vector3(-0.25, 0.9, 0.35)
	var sat := {}
	for seated in [true, false]:
		rig.seated = seated
		await _hold(b, _head(EYES), left + Vector3(0, 0.25, 0), right + Vector3(0, 0.25, 0), 1.0)
		var seen: Dictionary = await _hold(b, _head(seated_eyes), left, right, 3.0)
		var hips := bone_global_position(skeleton, "Hips")
		var ahead := 0.0
		var lowest_knee := 10.0
		for side in ["Left", "Right"]:
			ahead += 0.5 * (bone_global_position(skeleton, side + "Foot").z - hips.z)
			lowest_knee = minf(lowest_knee, bone_global_position(skeleton, side + "LowerLeg").y)
		if seated:
			sat = seen
			check(seen.head < 0.01, "seated: the eyes on the headset (%.1f cm)" % (seen.head * 100))
			check(seen.left < 0.01 and seen.right < 0.01, "seated: hands on the controllers (%.1f, %.1f cm)" % [seen.left * 100, seen.right * 100])
			check(seen.feet < 0.01, "seated: feet on the floor (%.1f cm)" % (seen.feet * 100))
			check(ahead > 0.3, "seated: the feet ahead of the hips (%.2f m)" % ahead)
			check(lowest_knee > 0.3, "seated: no knee on the floor (the lower knee %.2f m up)" % lowest_knee)
			check(seen.knees > 60.0 and seen.knees < 120.0, "seated: knees near a right angle (%.0f deg)" % seen.knees)
			check(seen.spine < 15.0, "seated: the torso upright (%.0f deg)" % seen.spine)
		else:
			check(ahead < 0.25, "crouched at the same height, the feet stay under the body (%.2f m ahead)" % ahead)
	rig.seated = true
	await _hold(b, _head(seated_eyes), left, right, 2.0)
	rig.seated = false
	var standing: Dictionary = await _hold(b, _head(EYES), left + Vector3(0, 0.25, 0), right + Vector3(0, 0.25, 0), 2.0)
	var hips := bone_global_position(skeleton, "Hips")
	var foot := bone_global_position(skeleton, "LeftFoot")
	check(standing.head < 0.01, "standing up: the eyes on the headset (%.1f cm)" % (standing.head * 100))
	check(absf(foot.z - hips.z) < 0.15, "standing up: the feet back under the body (%.2f m)" % (foot.z - hips.z))
	print("  seated: hips %.2f m, knees %.0f deg, spine %.0f deg" % [sat.get("hips", 0.0), sat.get("knees", 0.0), sat.get("spine", 0.0)])


## With `sit_from_headset` and nobody telling it, the headset comes down to seated eye height
## and stays there: the body sits (one `sitting_changed(true)`, read back in the handler), its
## feet ahead, and stands up with the headset (`sitting_changed(false)`). Off, the same headset
## crouches and no signal comes.
func test_sitting_is_seen_from_the_headset_when_asked() -> void:
	var b := make_set_up_body()
	b.calibrator.scale_at_tracking_start = false
	var skeleton: Skeleton3D = b.skeleton
	var rig: LowerBodyRig = b.lower_body
	var seated_eyes := _seated_eyes(skeleton)
	var left := Vector3(0.25, 0.9, 0.35)
	var right := Vector3(-0.25, 0.9, 0.35)
	var raised := Vector3(0, 0.25, 0)
	var changes: Array = []
	rig.sitting_changed.connect(func(sitting: bool): changes.append([sitting, rig.is_sitting()]))
	for on in [true, false]:
		rig.sit_from_headset = on
		await _hold(b, _head(EYES), left + raised, right + raised, 1.0)
		changes.clear()
		await _hold(b, _head(seated_eyes), left, right, 3.0)
		var hips := bone_global_position(skeleton, "Hips")
		var ahead := 0.5 * (bone_global_position(skeleton, "LeftFoot").z + bone_global_position(skeleton, "RightFoot").z) - hips.z
		if on:
			check(changes == [[true, true]], "seen sitting: one sitting_changed(true) (%s)" % [changes])
			check(ahead > 0.3, "seen sitting: the feet ahead of the hips (%.2f m)" % ahead)
			var standing: Dictionary = await _hold(b, _head(EYES), left + raised, right + raised, 2.0)
			check(changes == [[true, true], [false, false]], "seen standing up: sitting_changed(false) (%s)" % [changes])
			var foot := bone_global_position(skeleton, "LeftFoot")
			hips = bone_global_position(skeleton, "Hips")
			check(standing.head < 0.01 and absf(foot.z - hips.z) < 0.15, "standing up: eyes on the headset (%.1f cm), feet under the body (%.2f m)" % [standing.head * 100, foot.z - hips.z])
		else:
			check(changes.is_empty() and not rig.is_sitting(), "off: never sits (%s)" % [changes])
			check(ahead < 0.25, "off: crouched, the feet stay under the body (%.2f m ahead)" % ahead)
