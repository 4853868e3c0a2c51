## One body: the one-click node graph, VRRemoteBody and the core's composition (VRBodySolver)
## give the same bones from the same tracking, from the first frame.
extends EngineTest

## Position and angle tolerances: 0.2 mm and 0.1 degrees. The node graph writes each stage's
## bones into the Skeleton3D and reads them back, float round trips the core does not make; with
## the arms hanging nearly straight (the shoulders no longer drop toward hanging hands), two-bone
## IK magnifies them to about 0.1 mm and 0.05 degrees. A stage missing or out of order moves the
## bones by millimetres and degrees.
const MAX_POSITION := 2e-4
const MAX_ANGLE := 0.1 * PI / 180.0
const FRAMES := 240

var _seen := {}
var _solver: VRBodySolver
var _reference: Skeleton3D
var _bones: Array = []
var _inputs := {}


func _store(key: String, world: Array) -> void:
	var frame := Engine.get_process_frames()
	if not _seen.has(frame):
		_seen[frame] = {}
	_seen[frame][key] = world


## Every compared bone's world transform as `skeleton` shows it now.
func _world_bones(skeleton: Skeleton3D) -> Array:
	var out := []
	for b in _bones:
		out.append(skeleton.global_transform * skeleton.get_bone_global_pose(b))
	return out


func _record(skeleton: Skeleton3D, key: String) -> void:
	_store(key, _world_bones(skeleton))


## Angle between two rotations, accurate for tiny angles (angle_to's acos is not, in float32).
static func _angle_between(a: Quaternion, b: Quaternion) -> float:
	var d := a * b.inverse()
	return 2.0 * atan2(Vector3(d.x, d.y, d.z).length(), absf(d.w))


## The recorded trace at frame `i` (60 Hz): the head turning, nodding and stepping; the hands
## through reach, overhead and across the chest; grip and trigger changing; the left controller
## lost for 40 frames, the headset for 15; two shots kick the right hand; three hostile poses;
## the left hand hand-tracked for a second, its fingers fading onto the tracked curls and back.
func _frame(i: int) -> Dictionary:
	var t := i / 60.0
	var head_basis := Basis(Vector3.UP, PI + 0.6 * sin(t * 0.8)) * Basis(Vector3.RIGHT, 0.3 * sin(t * 1.1))
	var rot := Basis.from_euler(Vector3(0.4 * sin(t), 0.8 * cos(t * 0.7), 0.3 * sin(t * 2.0)))
	var right := Transform3D(rot.inverse(), Vector3(-0.1 + 0.3 * cos(t * 2.3), 1.1 + 0.3 * sin(t * 3.1), 0.1 + 0.35 * sin(t * 0.9)))
	# Hostile input: the right controller reported 5 km away for two frames, then NaN for one.
	if i == 60 or i == 61:
		right.origin = Vector3(5000, 0, 0)
	elif i == 62:
		right.origin = Vector3(NAN, 1, 0)
	return {
		"head": Transform3D(head_basis, Vector3(0.1 * sin(t), 1.65, 0.05 * cos(t))),
		"left": Transform3D(rot, Vector3(0.3 + 0.25 * sin(t * 2.0), 1.2 + 0.6 * sin(t * 1.3), 0.25 + 0.3 * cos(t * 1.7))),
		"right": right,
		"left_grip": 0.5 + 0.5 * sin(t * 1.9),
		"right_trigger": 0.5 + 0.5 * cos(t * 1.4),
		"left_tracked": i < 100 or i >= 140,
		"head_tracked": i < 170 or i >= 185,
		# Two shots from the right hand.
		"recoil": i == 30 or i == 200,
		# The left hand hand-tracked (fingers curled 40 degrees) for a second.
		"hand_tracked": i >= 150 and i < 210,
	}


## The core's composition, on a skeleton nothing else moves: it starts each frame from the rest
## pose, as the engine gives the modifiers.
func _process(delta: float) -> void:
	if _solver == null or _inputs.is_empty():
		return
	var f := _inputs
	_reference.reset_bone_poses()
	var root: Node3D = _reference.get_parent()
	var out: Dictionary = _solver.step(_reference, root.global_transform,
		f.head if f.head_tracked else null,
		f.left if f.left_tracked else null,
		f.right, delta)
	root.global_transform = out.root
	for bone in out.bones:
		_reference.set_bone_pose_rotation(bone, out.bones[bone])
	if out.hips != null:
		_reference.set_bone_pose_position(out.hips[0], out.hips[1])
	_store("core", _world_bones(_reference))


func test_the_node_graph_and_the_remote_body_give_the_cores_bones_from_the_first_frame() -> void:
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	var graph_skeleton := make_humanoid_character("GraphCharacter")
	var graph := VRArmsSetup.setup_skeleton(graph_skeleton, null, null)
	# The poses are compared, so every avatar keeps its size.
	graph.calibrator.scale_at_tracking_start = false
	var remote_skeleton := make_humanoid_character("RemoteCharacter")
	var made := VRArmsSetup.setup_remote(remote_skeleton, graph.camera, graph.left_controller, graph.right_controller)
	var body: VRRemoteBody = made.body
	body.profile = ""  # the node graph's own defaults
	_reference = make_humanoid_character("CoreCharacter")
	_solver = VRBodySolver.new()
	check(_solver.configure(_reference), "the core's body configured")
	# Every bone the core writes is compared.
	_solver.follow_head = false
	var probe: Dictionary = _solver.step(_reference, Transform3D(), Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.6, 0)), null, null, 0.0)
	_solver = VRBodySolver.new()
	_solver.configure(_reference)
	_reference.reset_bone_poses()
	_bones = probe.bones.keys()
	_bones.sort()
	check(_bones.size() >= 40, "the core writes %d bones (spine, clavicles, arms, fingers)" % _bones.size())
	graph_skeleton.skeleton_updated.connect(_record.bind(graph_skeleton, "graph"))
	remote_skeleton.skeleton_updated.connect(_record.bind(remote_skeleton, "remote"))
	_seen.clear()
	var first := -1
	var tracker := make_tracker(hand_joints(_reference, "Left", 40.0))
	tracker.has_tracking_data = false
	var tracked_seen := 0.0
	for i in FRAMES:
		var f := _frame(i)
		tracker.has_tracking_data = f.hand_tracked
		var curls := VRBodySolver.finger_curls_from_tracker(tracker.name, VRArms.Hand.LEFT)
		check(curls.is_empty() != f.hand_tracked, "the tracker's curls read while it tracks (frame %d)" % i)
		body.set_tracked_finger_curls(VRArms.Hand.LEFT, curls)
		_solver.set_tracked_finger_curls(VRArms.Hand.LEFT, curls)
		tracked_seen = maxf(tracked_seen, graph.left_hand_pose.get_hand_tracking_weight())
		sim.set_head_pose(f.head)
		sim.set_hand_pose(VRArms.Hand.LEFT, f.left)
		sim.set_hand_pose(VRArms.Hand.RIGHT, f.right)
		sim.set_input(VRArms.Hand.LEFT, "grip", f.left_grip)
		sim.set_input(VRArms.Hand.RIGHT, "trigger", f.right_trigger)
		sim.set_hand_tracked(VRArms.Hand.LEFT, f.left_tracked)
		sim.set_head_tracked(f.head_tracked)
		_solver.set_hand_input(VRArms.Hand.LEFT, f.left_grip, 0.0)
		_solver.set_hand_input(VRArms.Hand.RIGHT, 0.0, f.right_trigger)
		if f.recoil:
			for kicked in [graph.controller_targets, body, _solver]:
				kicked.add_recoil(VRArms.Hand.RIGHT, Vector3(0, 0.02, 0.06), Vector3(18, 0, 0))
		_inputs = f
		if first < 0:
			first = Engine.get_process_frames() + 1
		await frames(1)
	_inputs = {}
	XRServer.remove_tracker(tracker)
	check(tracked_seen == 1.0, "the node graph's fingers faded fully onto the tracked curls")
	var worst := {"graph": [0.0, 0.0, -1, ""], "remote": [0.0, 0.0, -1, ""]}
	var compared := 0
	for frame in _seen:
		var seen: Dictionary = _seen[frame]
		if frame < first or not seen.has("core"):
			continue
		compared += 1
		for key in ["graph", "remote"]:
			if not seen.has(key):
				check(false, "%s has no bones in frame %d" % [key, frame - first])
				continue
			for k in _bones.size():
				var a: Transform3D = seen.core[k]
				var b: Transform3D = seen[key][k]
				var d := a.origin.distance_to(b.origin)
				var ang := _angle_between(a.basis.get_rotation_quaternion(), b.basis.get_rotation_quaternion())
				var w: Array = worst[key]
				if d > w[0] or ang > w[1]:
					worst[key] = [maxf(d, w[0]), maxf(ang, w[1]), frame - first, _reference.get_bone_name(_bones[k])]
	# ONE_BODY_DEBUG=1 prints each frame's worst bone per entry point.
	if OS.has_environment("ONE_BODY_DEBUG"):
		for frame in _seen:
			var seen: Dictionary = _seen[frame]
			if frame < first or not seen.has("core"):
				continue
			var line := "frame %d:" % (frame - first)
			for key in ["graph", "remote"]:
				if not seen.has(key):
					continue
				var wd := 0.0
				var wa := 0.0
				var wb := ""
				for k in _bones.size():
					var a: Transform3D = seen.core[k]
					var b: Transform3D = seen[key][k]
					var ang := _angle_between(a.basis.get_rotation_quaternion(), b.basis.get_rotation_quaternion())
					wd = maxf(wd, a.origin.distance_to(b.origin))
					if ang > wa:
						wa = ang
						wb = _reference.get_bone_name(_bones[k])
				line += " %s %.4f mm %.4f deg (%s)" % [key, wd * 1000.0, rad_to_deg(wa), wb]
			print(line)
	check(compared >= FRAMES - 2, "compared %d frames from the first" % compared)
	for key in worst:
		var w: Array = worst[key]
		check(w[0] < MAX_POSITION and w[1] < MAX_ANGLE, "%s: every bone on the core's within 0.2 mm and 0.1 deg from the first frame (worst %.5f mm, %.4f deg; last worse at frame %d, %s)" % [key, w[0] * 1000.0, rad_to_deg(w[1]), w[2], w[3]])


func test_the_core_body_routes_a_hand_to_an_interaction_target_and_back() -> void:
	var skeleton := make_humanoid_character("Interacting")
	var solver := VRBodySolver.new()
	solver.follow_head = false
	check(solver.configure(skeleton), "configured")
	var root: Transform3D = skeleton.get_parent().global_transform
	var head := Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.6, 0.05))
	var controller := Transform3D(Basis(), Vector3(0.3, 1.1, 0.3))
	var handle := Transform3D(Basis(), Vector3(0.25, 1.3, 0.45))
	var hand := skeleton.find_bone("LeftHand")
	var out: Dictionary = {}
	solver.set_override_target(VRArms.Hand.LEFT, handle)
	for i in 90:
		out = solver.step(skeleton, root, head, controller, null, 1.0 / 90.0)
	var target: Transform3D = out.targets[0]
	check_vec_near(target.origin, handle.origin, 1e-3, "the left target is the handle once blended in")
	solver.set_override_target(VRArms.Hand.LEFT, null)
	for i in 90:
		out = solver.step(skeleton, root, head, controller, null, 1.0 / 90.0)
	target = out.targets[0]
	check(target.origin.distance_to(handle.origin) > 0.1, "back toward the controller once cleared (%.3f m from the handle)" % target.origin.distance_to(handle.origin))
	check(out.bones.has(hand), "the hand is written")


## The core's composition on a rig without a neck, shoulder bones or fingers (KayKit's
## mannequin, tests/avatars): it configures, and each frame writes the head and both hands,
## every rotation finite.
func test_the_core_body_runs_a_rig_without_neck_shoulders_or_fingers() -> void:
	var character := load_test_avatar("manny_med_mod.gltf")
	if character == null:
		return
	var skeleton: Skeleton3D = character.find_children("*", "Skeleton3D", true, false)[0]
	# Humanoid names, as the setup's bone map gives them (the solver reads them).
	VRArmsSetup.setup_remote(skeleton, null, null, null)
	var solver := VRBodySolver.new()
	solver.follow_head = false
	if not check(solver.configure(skeleton), "configured"):
		return
	var root: Transform3D = skeleton.get_parent().global_transform
	var head := Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.2, 0.05))
	var left := Transform3D(Basis(), Vector3(0.25, 0.8, 0.3))
	var right := Transform3D(Basis(), Vector3(-0.25, 0.8, 0.3))
	var out: Dictionary = {}
	for i in 90:
		out = solver.step(skeleton, root, head, left, right, 1.0 / 90.0)
	for bone in ["Head", "LeftHand", "RightHand"]:
		check(out.bones.has(skeleton.find_bone(bone)), "%s is written" % bone)
	var finite := true
	for q in out.bones.values():
		finite = finite and (q as Quaternion).is_finite()
	check(finite, "every rotation finite")
