## VRRemoteBody: the whole upper body in one modifier poses the bones as the node graph does.
extends EngineTest

const BONES := ["Chest", "Neck", "Head", "LeftShoulder", "LeftUpperArm", "LeftLowerArm", "LeftHand",
	"RightShoulder", "RightUpperArm", "RightLowerArm", "RightHand",
	"LeftIndexProximal", "LeftMiddleIntermediate", "LeftThumbDistal", "RightLittleDistal", "RightIndexIntermediate"]

var _seen := {}


func _record(skeleton: Skeleton3D, key: String) -> void:
	var poses := []
	for b in BONES:
		poses.append(skeleton.get_bone_global_pose(skeleton.find_bone(b)))
	var frame := Engine.get_process_frames()
	if not _seen.has(frame):
		_seen[frame] = {}
	_seen[frame][key] = [skeleton.global_transform, poses]


## Angle between two rotations, accurate for tiny angles (angle_to's acos is not, in float32).
static func _angle_between(a: Quaternion, b: Quaternion) -> float:
	var d := a * b.inverse()
	return 2.0 * atan2(Vector3(d.x, d.y, d.z).length(), absf(d.w))


## Head turning and nodding, hands through reach, overhead and across the chest, grip and
## trigger changing: every stage and its smoothing at work (the caller adds tracking loss).
func _drive(sim: XRTrackingSimulator, t: float) -> void:
	var head_basis := Basis(Vector3.UP, PI + 0.6 * sin(t * 0.8)) * Basis(Vector3.RIGHT, 0.3 * sin(t * 1.1))
	sim.set_head_pose(Transform3D(head_basis, Vector3(0.1 * sin(t), 1.65, 0.05 * cos(t))))
	var rot := Basis.from_euler(Vector3(0.4 * sin(t), 0.8 * cos(t * 0.7), 0.3 * sin(t * 2.0)))
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(rot, Vector3(0.3 + 0.25 * sin(t * 2.0), 1.2 + 0.6 * sin(t * 1.3), 0.25 + 0.3 * cos(t * 1.7))))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(rot.inverse(), Vector3(-0.1 + 0.3 * cos(t * 2.3), 1.1 + 0.3 * sin(t * 3.1), 0.1 + 0.35 * sin(t * 0.9))))
	sim.set_input(VRArms.Hand.LEFT, "grip", 0.5 + 0.5 * sin(t * 1.9))
	sim.set_input(VRArms.Hand.RIGHT, "trigger", 0.5 + 0.5 * cos(t * 1.4))


func test_the_remote_body_poses_the_bones_like_the_node_graph() -> void:
	var graph_skeleton := make_humanoid_character("GraphCharacter")
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	var graph := VRArmsSetup.setup_skeleton(graph_skeleton, null, null)
	# The poses are compared, so both avatars keep their size (a remote body's scale is the
	# sender's to set).
	graph.calibrator.scale_at_tracking_start = false
	var remote_skeleton := make_humanoid_character("RemoteCharacter")
	var made := VRArmsSetup.setup_remote(remote_skeleton, graph.camera, graph.left_controller, graph.right_controller)
	var body: VRRemoteBody = made.body
	check(body != null and body.get_parent() == remote_skeleton, "setup_remote put a VRRemoteBody under the skeleton")
	check(body.profile == "res://addons/vr_arms/profiles/remote_player.toml", "with the remote-player profile")
	check(body.get_setup_problems().is_empty(), "fully configured: %s" % [body.get_setup_problems()])
	# Compared with the node graph's own defaults.
	body.profile = ""
	graph_skeleton.skeleton_updated.connect(_record.bind(graph_skeleton, "graph"))
	remote_skeleton.skeleton_updated.connect(_record.bind(remote_skeleton, "remote"))
	var worst_position := 0.0
	var worst_angle := 0.0
	var worst_root := 0.0
	var compared := 0
	var moved := 0.0
	# The left controller is lost for 40 frames (its hand holds, eases to rest, blends back)
	# and the headset for 15 (the body freezes).
	var lost_events := []
	body.tracking_changed.connect(func(hand: int, tracked: bool): lost_events.append([hand, tracked]))
	for i in 220:
		_drive(sim, i / 60.0)
		sim.set_hand_tracked(VRArms.Hand.LEFT, i < 100 or i >= 140)
		sim.set_head_tracked(i < 170 or i >= 185)
		await frames(1)
	check(lost_events == [[0, false], [0, true]], "tracking_changed for the lost hand: %s" % [lost_events])
	# The first 30 frames are not compared. At setup Godot runs each skeleton's modifiers once
	# before any _process: the node graph's rig has no target yet and does not solve, and its
	# twist filter starts from the rest pose, where VRRemoteBody works its targets out in that
	# pass; the smoothing starts from different states and the difference (0.25 rad in the first
	# frame) is gone within 20 frames.
	var first: int = _seen.keys().min()
	for frame in _seen:
		if frame < first + 30:
			continue
		var f: Dictionary = _seen[frame]
		if not (f.has("graph") and f.has("remote")):
			continue
		compared += 1
		var g: Array = f.graph
		var r: Array = f.remote
		worst_root = maxf(worst_root, (g[0] as Transform3D).origin.distance_to((r[0] as Transform3D).origin))
		for k in BONES.size():
			var a: Transform3D = g[0] * g[1][k]
			var b: Transform3D = r[0] * r[1][k]
			worst_position = maxf(worst_position, a.origin.distance_to(b.origin))
			worst_angle = maxf(worst_angle, _angle_between(a.basis.get_rotation_quaternion(), b.basis.get_rotation_quaternion()))
			var rest := graph_skeleton.get_bone_global_rest(graph_skeleton.find_bone(BONES[k]))
			moved = maxf(moved, (g[1][k] as Transform3D).basis.get_rotation_quaternion().angle_to(rest.basis.get_rotation_quaternion()))
	check(compared >= 185, "compared %d frames" % compared)
	check(moved > 0.5, "the motion moved the bones (up to %.2f rad from rest)" % moved)
	check(worst_root < 1e-4, "the avatar roots follow the head alike (worst %.6f m)" % worst_root)
	# As in test_one_body: the graph's round trips through the skeleton, magnified by two-bone
	# IK near a straight (hanging) arm, to about 0.1 mm and 0.001 rad; a wrong stage is far more.
	check(worst_position < 2e-4, "every compared bone in the same place (worst %.6f m)" % worst_position)
	check(worst_angle < 2e-3, "and turned alike (worst %.6f rad)" % worst_angle)


func test_setup_remote_creates_what_is_missing_and_refuses_a_second_setup() -> void:
	var skeleton := make_humanoid_character("Remote")
	var made := VRArmsSetup.setup_remote(skeleton, null, null, null)
	var body: VRRemoteBody = made.body
	for key in ["head", "left_hand", "right_hand"]:
		var n: Node3D = made[key]
		check(n != null and n.get_parent().name == "RemoteTracking", "created %s under RemoteTracking" % key)
	# A network script moves the created nodes: the hand follows.
	(made.head as Node3D).global_transform = Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0))
	var target := Vector3(0.3, 1.15, 0.3)
	(made.left_hand as Node3D).global_position = target
	(made.right_hand as Node3D).global_position = Vector3(-0.3, 1.15, 0.3)
	await frames(30)
	await skeleton.skeleton_updated
	check_vec_near(bone_global_position(skeleton, "LeftHand"), target, 0.03, "the left hand follows its node")
	expect_errors(3)
	check(VRArmsSetup.setup_remote(skeleton, null, null, null).is_empty(), "a second remote setup is refused")
	check(VRArmsSetup.setup_skeleton(skeleton, null, null).is_empty(), "and so is a node-graph setup over it")
	var bare := Skeleton3D.new()
	bare.add_bone("root")
	add_child(bare)
	check(VRArmsSetup.setup_remote(bare, null, null, null).is_empty(), "a non-humanoid skeleton is refused")
	check(bare.get_child_count() == 0, "and left untouched")
	body.head = null
	check(body.get_setup_problems().size() == 1, "an unset head is a configuration warning: %s" % [body.get_setup_problems()])


func test_a_scaled_bone_in_or_above_the_chain_is_read_as_the_engine_places_it() -> void:
	# A scaled bone moves everything under it further than its unscaled local poses say: the
	# body then reads global poses instead, and the hand still lands on its controller. Spine is
	# in the chest-to-hand chain the body reads; Hips is above it.
	for scaled in ["Spine", "Hips"]:
		var skeleton := make_humanoid_character("Scaled" + scaled)
		skeleton.set_bone_pose_scale(skeleton.find_bone(scaled), Vector3.ONE * 1.15)
		var made := VRArmsSetup.setup_remote(skeleton, null, null, null)
		var body: VRRemoteBody = made.body
		body.follow_head = false
		body.profile = ""  # exact hands (the remote-player profile eases them short of full reach)
		(made.head as Node3D).global_transform = Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.8, 0))
		var target := Vector3(0.35, 1.3, 0.3)
		(made.left_hand as Node3D).global_position = target
		(made.right_hand as Node3D).global_position = Vector3(-0.3, 1.3, 0.3)
		await frames(30)
		await skeleton.skeleton_updated
		check_vec_near(bone_global_position(skeleton, "LeftHand"), target, 0.003, "%s scaled: the hand is on its node" % scaled)


func test_network_code_can_say_a_hand_is_lost() -> void:
	var skeleton := make_humanoid_character("Lossy")
	var made := VRArmsSetup.setup_remote(skeleton, null, null, null)
	var body: VRRemoteBody = made.body
	(made.head as Node3D).global_transform = Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0))
	var target := Vector3(0.3, 1.3, 0.35)
	(made.left_hand as Node3D).global_position = target
	(made.right_hand as Node3D).global_position = Vector3(-0.3, 1.15, 0.3)
	var events := []
	body.tracking_changed.connect(func(hand: int, tracked: bool): events.append([hand, tracked]))
	await frames(20)
	await skeleton.skeleton_updated
	var held := bone_global_position(skeleton, "LeftHand")
	body.left_hand_tracked = false
	await frames(60)
	await skeleton.skeleton_updated
	check(events == [[0, false]], "tracking_changed(0, false): %s" % [events])
	check(bone_global_position(skeleton, "LeftHand").y < held.y - 0.2, "the lost hand eased down to rest")
	body.left_hand_tracked = true
	await frames(60)
	await skeleton.skeleton_updated
	check(events == [[0, false], [0, true]], "and tracking_changed(0, true) when it is back: %s" % [events])
	check_vec_near(bone_global_position(skeleton, "LeftHand"), held, 0.01, "the hand is back on its node")


## The crowd budget: at `update_interval_frames = 3` the stages run one frame in three, the hand
## still moves every frame (blended between solves), and it settles where a body solving every
## frame puts it.
func test_an_update_budget_solves_one_frame_in_three_and_blends_between() -> void:
	var every := make_humanoid_character("EveryFrame")
	var made := VRArmsSetup.setup_remote(every, null, null, null)
	var budgeted := make_humanoid_character("Budgeted")
	var made3 := VRArmsSetup.setup_remote(budgeted, made.head, made.left_hand, made.right_hand)
	var body: VRRemoteBody = made3.body
	for b: VRRemoteBody in [made.body, body]:
		b.follow_head = false
	body.update_interval_frames = 3
	check(body.get_setup_problems().is_empty(), "interval 3 on an idle-mode skeleton is fine: %s" % [body.get_setup_problems()])
	(made.head as Node3D).global_transform = Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0))
	var start := Vector3(0.3, 1.1, 0.3)
	(made.left_hand as Node3D).global_position = start
	(made.right_hand as Node3D).global_position = Vector3(-0.3, 1.15, 0.3)
	await frames(6)
	var hands: Array[Vector3] = []
	var record := func() -> void: hands.append(bone_global_position(budgeted, "LeftHand"))
	budgeted.skeleton_updated.connect(record)
	var solved_before := body.get_solved_frames()
	for i in 30:
		(made.left_hand as Node3D).global_position = start + Vector3(0.0, 0.004 * (i + 1), 0.0)
		await frames(1)
	var solved := body.get_solved_frames() - solved_before
	check(solved >= 9 and solved <= 11, "the stages ran one frame in three (%d of 30)" % solved)
	check((made.body as VRRemoteBody).get_solved_frames() >= 36, "the body without a budget solves every frame")
	var moving := 0
	var largest_step := 0.0
	for i in range(1, hands.size()):
		var step := hands[i].distance_to(hands[i - 1])
		largest_step = maxf(largest_step, step)
		if step > 1e-5:
			moving += 1
	check(hands.size() >= 29 and moving >= hands.size() - 3, "the hand moves every frame between solves (%d of %d)" % [moving, hands.size() - 1])
	check(largest_step < 0.015, "smoothly: at most %.4f m a frame (its node moves 0.004 m a frame)" % largest_step)
	budgeted.skeleton_updated.disconnect(record)
	# Each skeleton's solved pose is seen in its own skeleton_updated (restored after).
	var last := {}
	every.skeleton_updated.connect(func() -> void: last.every = bone_global_position(every, "LeftHand"))
	budgeted.skeleton_updated.connect(func() -> void: last.budgeted = bone_global_position(budgeted, "LeftHand"))
	await frames(30)
	check_vec_near(last.budgeted, last.every, 0.001, "settles where the every-frame body is")
	check_vec_near(last.budgeted, start + Vector3(0.0, 0.12, 0.0), 0.01, "on the hand's node, where it stopped")
	# The budget counts idle frames: with modifiers per physics tick it is off, and says so.
	budgeted.modifier_callback_mode_process = Skeleton3D.MODIFIER_CALLBACK_MODE_PROCESS_PHYSICS
	var problems := body.get_setup_problems()
	check(Array(problems).any(func(m): return "modifier_callback_mode_process" in m), "a physics-mode skeleton is reported: %s" % [problems])
	budgeted.modifier_callback_mode_process = Skeleton3D.MODIFIER_CALLBACK_MODE_PROCESS_IDLE


## The crowd budget with the lower body: a remote player crouching at 60 cm/s, solved one frame
## in three. Between solves the hips move in step with the legs' rotations, so the ankles stay
## on the floor every frame (the hips had shown the last solve's height while the legs blended
## toward it, the feet bobbing through the floor).
func test_a_budgeted_remote_body_keeps_its_feet_on_the_floor_while_crouching() -> void:
	var skeleton := make_humanoid_character("Budgeted")
	var made := VRArmsSetup.setup_remote(skeleton, null, null, null)
	var body: VRRemoteBody = made.body
	body.update_interval_frames = 3
	var head: Node3D = made.head
	head.global_transform = Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.6, 0))
	(made.left_hand as Node3D).global_position = Vector3(0.3, 1.1, 0.3)
	(made.right_hand as Node3D).global_position = Vector3(-0.3, 1.1, 0.3)
	await seconds(1.0)
	var rest_ankle: float = skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin.y
	var floor_y: float = skeleton.get_parent().global_position.y
	var worst := [0.0]
	var watch := func() -> void:
		for side in ["Left", "Right"]:
			worst[0] = maxf(worst[0], absf(bone_global_position(skeleton, side + "Foot").y - floor_y - rest_ankle))
	skeleton.skeleton_updated.connect(watch)
	for i in 60:
		head.global_position += Vector3(0, -0.005, 0)
		for hand in [made.left_hand, made.right_hand]:
			(hand as Node3D).global_position += Vector3(0, -0.005, 0)
		await frames(1)
	skeleton.skeleton_updated.disconnect(watch)
	check(worst[0] < 0.003, "the ankles on the floor every frame (at most %.1f mm off)" % (worst[0] * 1000.0))
	await skeleton.skeleton_updated
	var u := bone_global_position(skeleton, "LeftUpperLeg")
	var l := bone_global_position(skeleton, "LeftLowerLeg")
	var knee := rad_to_deg((l - u).angle_to(bone_global_position(skeleton, "LeftFoot") - l))
	check(knee > 40.0, "it crouched (knees %.0f degrees, hips %.2f m)" % [knee, bone_global_position(skeleton, "Hips").y])

## A bent UpperChest (between Chest and Neck) keeps its bend: with the headset looking straight
## ahead the head stays as the bent spine holds it (not bent twice), as in the node graph.
func test_a_bent_upper_chest_keeps_the_head_where_it_was() -> void:
	var skeleton := make_humanoid_character("BentSpine")
	var uc := skeleton.find_bone("UpperChest")
	skeleton.set_bone_pose_rotation(uc, Quaternion(Vector3.RIGHT, 0.4) * skeleton.get_bone_rest(uc).basis.get_rotation_quaternion())
	var head := skeleton.find_bone("Head")
	var animated := skeleton.get_bone_global_pose(head).basis.get_rotation_quaternion()
	var made := VRArmsSetup.setup_remote(skeleton, null, null, null)
	(made.body as VRRemoteBody).follow_head = false
	# The upper body alone: the lower body turns the head bone as the headset turns.
	(made.body as VRRemoteBody).lower_body = false
	(made.head as Node3D).global_transform = Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0.05))
	(made.left_hand as Node3D).global_position = Vector3(0.3, 1.15, 0.3)
	(made.right_hand as Node3D).global_position = Vector3(-0.3, 1.15, 0.3)
	await frames(3)
	await skeleton.skeleton_updated
	var off := _angle_between(skeleton.get_bone_global_pose(head).basis.get_rotation_quaternion(), animated)
	check(off < 1e-3, "the head is as the bent spine holds it (%.4f rad off)" % off)


## Network code that receives hand-tracked finger curls hands them to the body: the fingers take
## them, faded in, and fade back to grip and trigger when they end.
func test_tracked_finger_curls_pose_the_fingers_and_fade_out() -> void:
	var skeleton := make_humanoid_character("Tracked")
	var made := VRArmsSetup.setup_remote(skeleton, null, null, null)
	var body: VRRemoteBody = made.body
	(made.head as Node3D).global_transform = Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0))
	(made.left_hand as Node3D).global_position = Vector3(0.3, 1.15, 0.3)
	(made.right_hand as Node3D).global_position = Vector3(-0.3, 1.15, 0.3)
	body.left_grip = 1.0
	body.set_tracked_finger_curls(VRArms.Hand.LEFT, PackedFloat32Array([0.0, 1.0, 0.0, 0.5, 0.0]))
	await seconds(0.3)
	await skeleton.skeleton_updated
	check_near(curl_of(skeleton, "LeftIndexProximal"), 70.0, 0.5, "the index takes its curl (70 degrees at full)")
	check_near(curl_of(skeleton, "LeftMiddleProximal"), 0.0, 0.5, "the middle is straight though the grip is full")
	check_near(curl_of(skeleton, "LeftRingProximal"), 37.5, 0.5, "the ring finger half curled")
	check_near(curl_of(skeleton, "RightMiddleProximal"), 0.0, 0.5, "the other hand keeps its (open) grip")
	expect_errors(1)
	body.set_tracked_finger_curls(VRArms.Hand.LEFT, PackedFloat32Array([1.0, 1.0]))
	body.set_tracked_finger_curls(VRArms.Hand.LEFT, PackedFloat32Array())
	await frames(1)
	await skeleton.skeleton_updated
	var midway := curl_of(skeleton, "LeftMiddleProximal")
	check(midway > 1.0 and midway < 74.0, "the grip comes back through a fade (%.1f degrees a frame after)" % midway)
	await seconds(0.3)
	await skeleton.skeleton_updated
	check_near(curl_of(skeleton, "LeftMiddleProximal"), 75.0, 0.5, "then the full grip's 75 degrees")


## A remote player standing beside a crate: with `floor_ray` on, the left foot stands on the
## 20 cm crate under its place and the right on the floor, through a hit box on the avatar's own
## left shin (under its root) and, once excepted, through the crate too. Off (the default), both
## stand on the floor.
func test_a_remote_body_with_floor_ray_stands_a_foot_on_a_crate_under_it() -> void:
	var skeleton := make_humanoid_character("OnACrate")
	var made := VRArmsSetup.setup_remote(skeleton, null, null, null)
	var body: VRRemoteBody = made.body
	check(not body.floor_ray, "off by default")
	var head: Node3D = made.head
	head.global_transform = Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.6, 0))
	(made.left_hand as Node3D).global_position = Vector3(0.3, 1.1, 0.3)
	(made.right_hand as Node3D).global_position = Vector3(-0.3, 1.1, 0.3)
	var rest_ankle: float = skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin.y
	var left := skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin
	# 30 cm wide, from 5 cm left of the middle: under the left foot however wide it stands.
	var wide := Vector3(0.3, 0.2, 0.5)
	var crate := make_crate(self, Vector3(0.2, 0.1, left.z), wide)
	make_crate(skeleton.get_parent(), Vector3(0.2, 0.25, left.z), wide)
	body.floor_collision_mask = 4
	var heights := func(on: bool) -> Array:
		body.floor_ray = on
		body.reset()
		await seconds(1.0)
		await skeleton.skeleton_updated
		return [bone_global_position(skeleton, "LeftFoot").y - rest_ankle, bone_global_position(skeleton, "RightFoot").y - rest_ankle]
	var seen: Array = await heights.call(false)
	check_near(seen[0], 0.0, 0.01, "ray off: the left ankle on the floor, in the crate (%.3f m up)" % seen[0])
	seen = await heights.call(true)
	check_near(seen[0], 0.2, 0.01, "ray on: the left ankle on the crate, not on its own hit box (%.3f m up)" % seen[0])
	check_near(seen[1], 0.0, 0.01, "ray on: the right ankle on the floor (%.3f m up)" % seen[1])
	body.add_floor_ray_exception(crate)
	seen = await heights.call(true)
	check_near(seen[0], 0.0, 0.01, "the crate excepted: the left ankle on the floor (%.3f m up)" % seen[0])
	body.clear_floor_ray_exceptions()
	seen = await heights.call(true)
	check_near(seen[0], 0.2, 0.01, "the exceptions cleared: on the crate again (%.3f m up)" % seen[0])


## `VRBodySolver` with `floor_ray` stands a foot on the crate under it (in the skeleton's
## physics world), and on the floor without it: its bones, written back, put the left ankle
## 20 cm up.
func test_the_core_body_with_floor_ray_stands_a_foot_on_a_crate_under_it() -> void:
	var skeleton := make_humanoid_character("SolvedOnACrate")
	var solver := VRBodySolver.new()
	check(not solver.floor_ray, "off by default")
	check(solver.configure(skeleton), "configured")
	var rest_ankle: float = skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin.y
	var left := skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin
	# 30 cm wide, from 5 cm left of the middle: under the left foot however wide it stands.
	make_crate(self, Vector3(0.2, 0.1, left.z), Vector3(0.3, 0.2, 0.5))
	solver.floor_collision_mask = 4
	await frames(2)
	var head := Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.6, 0))
	var lh := Transform3D(Basis(), Vector3(0.3, 1.1, 0.3))
	var rh := Transform3D(Basis(), Vector3(-0.3, 1.1, 0.3))
	var root: Transform3D = skeleton.get_parent().global_transform
	for on in [false, true]:
		solver.floor_ray = on
		# Configured afresh: the feet start under the body again (a planted foot stays put).
		check(solver.configure(skeleton), "configured")
		var out: Dictionary = {}
		for i in 90:
			skeleton.reset_bone_poses()
			out = solver.step(skeleton, root, head, lh, rh, 1.0 / 90.0)
			root = out.root
		skeleton.get_parent().global_transform = root
		var bones: Dictionary = out.bones
		for bone in bones:
			skeleton.set_bone_pose_rotation(bone, bones[bone])
		if out.hips != null:
			skeleton.set_bone_pose_position(out.hips[0], out.hips[1])
		var up := bone_global_position(skeleton, "LeftFoot").y - rest_ankle
		check_near(up, 0.2 if on else 0.0, 0.01, "ray %s: the left ankle %.3f m up" % ["on" if on else "off", up])
		skeleton.reset_bone_poses()
