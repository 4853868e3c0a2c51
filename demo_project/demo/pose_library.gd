## Authors the demo's animations in code, as bone rotation tracks on the generated skeleton:
## hand poses for `HandPoseDriver` (states Default = relaxed, PreGrip, GripReady = revolver
## grip, HammerCock, Shoot = trigger pull, GateLoading, Fanning, Twirl, Pinch) and a leg set (idle, walk) for the locomotion blend.
##
## A finger curls about `finger direction x palm normal` (the rule `HandPoseCopy`'s procedural
## curl uses); a leg swings about the character's X axis. Both are written as the bone's rest
## rotation followed by a rotation about that axis expressed in the bone's rest frame.
class_name PoseLibrary
extends RefCounted

## Curl per joint (degrees) for thumb, index and the other three fingers.
const HAND_POSES := {
	"Default": {"thumb": 10.0, "index": 12.0, "rest": 18.0},
	"PreGrip": {"thumb": 25.0, "index": 35.0, "rest": 40.0},
	"GripReady": {"thumb": 45.0, "index": 28.0, "rest": 82.0},
	# The revolver's handling: the gun hand at the open gate (index along the frame, thumb on
	# the cylinder), the off hand's flat palm poised to fan, the index through the trigger
	# guard for the twirl.
	"GateLoading": {"thumb": 20.0, "index": 4.0, "rest": 82.0},
	"Fanning": {"thumb": 0.0, "index": 0.0, "rest": 0.0},
	"Twirl": {"thumb": 8.0, "index": 55.0, "rest": 12.0},
	# A cartridge held between thumb and index.
	"Pinch": {"thumb": 35.0, "index": 40.0, "rest": 60.0},
}
const FINGERS := ["Thumb", "Index", "Middle", "Ring", "Little"]

## Walk cycle length (seconds) and the speed it is authored for (metres per second).
const WALK_CYCLE_S := 1.0
const WALK_SPEED := 1.3


## Hand-pose animations for one hand (`side` "Left" or "Right") of `skeleton`, with track paths
## `skeleton_path:Bone`.
static func hand_library(skeleton: Skeleton3D, side: String, skeleton_path: String) -> AnimationLibrary:
	var lib := AnimationLibrary.new()
	for pose_name in HAND_POSES:
		var p: Dictionary = HAND_POSES[pose_name]
		lib.add_animation(pose_name, _hand_animation(skeleton, side, skeleton_path, [[0.0, p], [0.12, p]]))
	var grip: Dictionary = HAND_POSES.GripReady
	var thumb_back := grip.duplicate()
	thumb_back.thumb = 5.0
	lib.add_animation("HammerCock", _hand_animation(skeleton, side, skeleton_path, [[0.0, grip], [0.2, thumb_back], [0.45, grip]]))
	var pulled := grip.duplicate()
	pulled.index = 65.0
	lib.add_animation("Shoot", _hand_animation(skeleton, side, skeleton_path, [[0.0, grip], [0.06, pulled], [0.22, grip]]))
	return lib


## "idle" and "walk" for the legs of `skeleton`, track paths `skeleton_path:Bone`; `across`
## is the character's left-right axis in the skeleton's frame (its +X for the generated one).
static func leg_library(skeleton: Skeleton3D, skeleton_path: String, across := Vector3.RIGHT) -> AnimationLibrary:
	var lib := AnimationLibrary.new()
	var idle := Animation.new()
	idle.length = 3.0
	idle.loop_mode = Animation.LOOP_LINEAR
	# Idle: a slow, slight knee flex, as weight shifts.
	for side in ["Left", "Right"]:
		var phase := 0.0 if side == "Left" else PI
		_leg_track(idle, skeleton, skeleton_path, side + "UpperLeg", func(t): return -2.0 - 1.5 * sin(TAU * t / 3.0 + phase), 3.0, across)
		_leg_track(idle, skeleton, skeleton_path, side + "LowerLeg", func(t): return 3.0 + 3.0 * sin(TAU * t / 3.0 + phase), 3.0, across)
	lib.add_animation("idle", idle)
	var walk := Animation.new()
	walk.length = WALK_CYCLE_S
	walk.loop_mode = Animation.LOOP_LINEAR
	for side in ["Left", "Right"]:
		var phase := 0.0 if side == "Left" else PI
		# Thigh: +25 degrees forward to -25 back; knee: bent in swing; foot: toe-off.
		_leg_track(walk, skeleton, skeleton_path, side + "UpperLeg", func(t): return -25.0 * cos(TAU * t / WALK_CYCLE_S + phase), WALK_CYCLE_S, across)
		_leg_track(walk, skeleton, skeleton_path, side + "LowerLeg", func(t): return 8.0 + 32.0 * maxf(0.0, sin(TAU * t / WALK_CYCLE_S + phase)), WALK_CYCLE_S, across)
		_leg_track(walk, skeleton, skeleton_path, side + "Foot", func(t): return -12.0 * sin(TAU * t / WALK_CYCLE_S + phase + 0.6), WALK_CYCLE_S, across)
	lib.add_animation("walk", walk)
	return lib


## A rotation track for `bone` turning it by `degrees_at(t)` about the character's left-right
## axis `across` (positive: the part below the joint swings backward), sampled 12 times over
## `length`. Nothing for a bone the skeleton lacks.
static func _leg_track(anim: Animation, skeleton: Skeleton3D, path: String, bone: String, degrees_at: Callable, length: float, across: Vector3) -> void:
	var b := skeleton.find_bone(bone)
	if b < 0:
		return
	var track := anim.add_track(Animation.TYPE_ROTATION_3D)
	anim.track_set_path(track, "%s:%s" % [path, bone])
	var steps := 12
	for i in steps + 1:
		var t := length * i / steps
		anim.rotation_track_insert_key(track, t, _turned(skeleton, b, across, deg_to_rad(degrees_at.call(t))))


static func _hand_animation(skeleton: Skeleton3D, side: String, path: String, keys: Array) -> Animation:
	var anim := Animation.new()
	anim.length = keys[-1][0]
	# The palm as the rig has it at rest (measured from its finger bones, as the pipeline does).
	var hand := VRArmsSetup.measure_hand(skeleton, VRArms.Hand.LEFT if side == "Left" else VRArms.Hand.RIGHT)
	var axis: Vector3 = (hand.fingers as Vector3).cross(hand.palm_normal).normalized()
	for finger in FINGERS:
		var names: Array = ["ThumbMetacarpal", "ThumbProximal", "ThumbDistal"] if finger == "Thumb" else [finger + "Proximal", finger + "Intermediate", finger + "Distal"]
		var key := "thumb" if finger == "Thumb" else ("index" if finger == "Index" else "rest")
		for n in names:
			var bone := skeleton.find_bone(side + n)
			if bone < 0:
				continue
			var track := anim.add_track(Animation.TYPE_ROTATION_3D)
			anim.track_set_path(track, "%s:%s%s" % [path, side, n])
			for k in keys:
				anim.rotation_track_insert_key(track, k[0], _turned(skeleton, bone, axis, deg_to_rad(k[1][key])))
	return anim


## The bone's rest rotation turned by `angle` about `axis` (given in the skeleton's frame).
static func _turned(skeleton: Skeleton3D, bone: int, axis: Vector3, angle: float) -> Quaternion:
	var rest_local := skeleton.get_bone_rest(bone).basis.get_rotation_quaternion()
	var rest_global := skeleton.get_bone_global_rest(bone).basis.get_rotation_quaternion()
	return (rest_local * Quaternion((rest_global.inverse() * axis).normalized(), angle)).normalized()
