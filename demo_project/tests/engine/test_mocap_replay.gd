## The evaluation measures what the engine runs: a clip of real motion capture replayed through
## the one-click setup, on a skeleton built with that clip's bone lengths, puts every evaluated
## joint where the evaluation's full mode puts it (within 1 mm): karate, crouching included,
## and a walk from the everyday group, arms swinging at the sides (another skeleton, read by
## the same name recognition).
##
## `cargo xtask engine-test` writes the replays (`vr_arms_eval --replay`) from ../shared/mocap
## before Godot starts: the skeleton, each frame's headset and controllers, and the joints.
extends EngineTest

const REPLAY := "res://tests/replay/mocap_replay.json"
const REPLAY_WALK := "res://tests/replay/mocap_replay_walk.json"
const MAX_ERROR := 0.001

var _joints := {}
var _frames: Array = []
var _sim: XRTrackingSimulator
## The replay frame whose tracking this engine frame plays (-1: not playing), and the next.
var _playing := -1
var _next := -1


## Godot transform from the replay's seven numbers (position, then quaternion x, y, z, w).
static func _pose(v: Array) -> Transform3D:
	return Transform3D(Basis(Quaternion(v[3], v[4], v[5], v[6])), Vector3(v[0], v[1], v[2]))


## The skeleton the evaluation builds: its bones' rest poses in skeleton space, under a Hips
## bone that stays at rest (the evaluation's chest has no parent: identity).
func _skeleton(bones: Array) -> Skeleton3D:
	var s := Skeleton3D.new()
	var chest_rest := _pose(bones[0].rest)
	var hips := s.add_bone("Hips")
	s.set_bone_rest(hips, Transform3D(Basis(), chest_rest.origin - Vector3(0, 0.3, 0)))
	var globals := {"Hips": s.get_bone_rest(hips)}
	for b in bones:
		var i := s.add_bone(b.name)
		var parent: String = b.parent if b.parent != null else "Hips"
		s.set_bone_parent(i, s.find_bone(parent))
		var global := _pose(b.rest)
		globals[b.name] = global
		s.set_bone_rest(i, globals[parent].affine_inverse() * global)
	s.reset_bone_poses()
	return s


## Plays one replay frame per engine frame, before every stage of the body (this node's
## priority is the lowest), so the frame's tracking is what the stages and the modifiers see.
func _process(_delta: float) -> void:
	if _next < 0:
		return
	if _next >= _frames.size():
		_playing = -1
		_next = -1
		return
	_playing = _next
	_next += 1
	var f: Dictionary = _frames[_playing]
	_sim.set_head_pose(_pose(f.head))
	_sim.set_hand_pose(VRArms.Hand.LEFT, _pose(f.left))
	_sim.set_hand_pose(VRArms.Hand.RIGHT, _pose(f.right))


func _record(skeleton: Skeleton3D) -> void:
	if _playing < 0:
		return
	var frame := _playing
	var joints := {}
	for name in ["Head", "Neck", "Chest", "LeftUpperArm", "RightUpperArm", "LeftLowerArm", "RightLowerArm", "LeftHand", "RightHand"]:
		joints[name] = skeleton.global_transform * skeleton.get_bone_global_pose(skeleton.find_bone(name)).origin
	_joints[frame] = joints


func test_the_one_click_setup_puts_every_evaluated_joint_where_the_evaluation_does() -> void:
	var low := await _replay(REPLAY, "karate")
	check(low > 30, "the replay has the head well below the avatar's (%d frames more than 10 cm under)" % low)


func test_a_walk_with_the_arms_swinging_replays_as_the_evaluation_runs_it() -> void:
	await _replay(REPLAY_WALK, "walk")
	# A walk: the headset travels, the hands are down at the sides, below the chest.
	var text := FileAccess.get_file_as_string(REPLAY_WALK)
	if text.is_empty():
		return
	var frames: Array = JSON.parse_string(text).frames
	var start := _pose(frames[0].head).origin
	var end := _pose(frames[frames.size() - 1].head).origin
	var travel := Vector2(end.x - start.x, end.z - start.z).length()
	check(travel > 2.0, "the walk travels over two metres (%.2f m)" % travel)
	var down := 0
	for f in frames:
		var chest: float = f.joints.Chest[1]
		if _pose(f.left).origin.y < chest - 0.2 and _pose(f.right).origin.y < chest - 0.2:
			down += 1
	check(down > 300, "the hands are down at the sides for over 2.5 s (%d of %d frames)" % [down, frames.size()])


## Replays `path` through the one-click setup and checks every evaluated joint against the
## evaluation's; returns how many frames have the head more than 10 cm under the avatar's.
func _replay(path: String, what: String) -> int:
	_joints = {}
	_frames = []
	_playing = -1
	_next = -1
	var text := FileAccess.get_file_as_string(path)
	if text.is_empty():
		check(false, "%s is missing: run the engine tests through `cargo xtask engine-test`, which writes it from ../shared/mocap" % path)
		return 0
	var replay: Dictionary = JSON.parse_string(text)
	# The engine tests run at a fixed 120 frames a second: the clip must be captured at that rate
	# (the delta is read a few frames in: run first, by a filter, the first frames' are not yet
	# the fixed rate's).
	await frames(3)
	check(absf(replay.frame_time - get_process_delta_time()) < 1e-6, "the clip's frame time is the test's (%s s against %s s)" % [replay.frame_time, get_process_delta_time()])
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	_sim = sim
	var character := Node3D.new()
	character.name = "MocapCharacter_" + what
	add_child(character)
	var skeleton := _skeleton(replay.bones)
	character.add_child(skeleton)
	var setup := VRArmsSetup.setup_skeleton(skeleton, null, null)
	check(not setup.is_empty(), "the one-click setup took the clip's skeleton")
	setup.calibrator.scale_at_tracking_start = false
	# The evaluation's controllers are the wrists plus one grip offset, calibrated out as its
	# profile does.
	var offsets: Array = replay.controller_position_offset
	var ct: ControllerTargets = setup.controller_targets
	ct.left_position_offset = Vector3(offsets[0][0], offsets[0][1], offsets[0][2])
	ct.right_position_offset = Vector3(offsets[1][0], offsets[1][1], offsets[1][2])
	skeleton.skeleton_updated.connect(_record.bind(skeleton))
	var frames: Array = replay.frames
	_frames = frames
	process_priority = -2000
	_next = 0
	while _next >= 0:
		await frames(1)
	var first := 0
	var worst := 0.0
	var worst_at := ""
	var compared := 0
	var low := 0
	for k in frames.size():
		var seen: Dictionary = _joints.get(first + k, {})
		if seen.is_empty():
			check(false, "no skeleton update in frame %d" % k)
			continue
		compared += 1
		var expected: Dictionary = frames[k].joints
		if _pose(frames[k].head).origin.y < expected.Head[1] - 0.1:
			low += 1
		for name in expected:
			var e: Array = expected[name]
			var d: float = seen[name].distance_to(Vector3(e[0], e[1], e[2]))
			if d > worst:
				worst = d
				worst_at = "%s, frame %d" % [name, k]
	check(compared == frames.size(), "%s: compared %d of %d frames" % [what, compared, frames.size()])
	check(worst < MAX_ERROR, "%s: every evaluated joint within 1 mm of the evaluation's (worst %.3f mm, %s)" % [what, worst * 1000.0, worst_at])
	sim.queue_free()
	character.queue_free()
	await frames(1)
	return low
