## The soak test's disturbances, on top of the looping autopilot: random tracking dropouts of
## each controller and of the headset (0.1 to 2 s), and hitches (single frames 10 to 60 times
## longer than usual, through `Engine.time_scale`). Every skeleton update, every bone of the
## character is checked for finite values. Seeded, so a run can be repeated.
class_name Soak
extends Node

var simulator: XRTrackingSimulator
var skeleton: Skeleton3D

var frames_checked := 0
var non_finite_frames := 0
var dropouts := 0
var hitches := 0
var longest_hitch_s := 0.0

var _rng := RandomNumberGenerator.new()
## Seconds left untracked, per tracker ("head", "left", "right").
var _lost := {}
var _next_dropout := 2.0
var _next_hitch := 3.0
var _hitch_frame := false


func _ready() -> void:
	process_priority = -2100  # before the autopilot moves the trackers
	_rng.seed = 8
	skeleton.skeleton_updated.connect(_check_bones)


func _process(delta: float) -> void:
	if _hitch_frame:
		_hitch_frame = false
		Engine.time_scale = 1.0
		longest_hitch_s = maxf(longest_hitch_s, delta)
	for who in _lost.keys():
		_lost[who] -= delta
		if _lost[who] <= 0.0:
			_lost.erase(who)
			_set_tracked(who, true)
	_next_dropout -= delta
	if _next_dropout <= 0.0:
		_next_dropout = _rng.randf_range(1.0, 6.0)
		var who: String = ["head", "left", "right"][_rng.randi_range(0, 2)]
		if not _lost.has(who):
			_lost[who] = _rng.randf_range(0.1, 2.0)
			_set_tracked(who, false)
			dropouts += 1
	_next_hitch -= delta
	if _next_hitch <= 0.0:
		_next_hitch = _rng.randf_range(2.0, 8.0)
		Engine.time_scale = _rng.randf_range(10.0, 60.0)
		_hitch_frame = true
		hitches += 1


func _set_tracked(who: String, tracked: bool) -> void:
	if who == "head":
		simulator.set_head_tracked(tracked)
	else:
		simulator.set_hand_tracked(VRArms.Hand.LEFT if who == "left" else VRArms.Hand.RIGHT, tracked)


func _check_bones() -> void:
	frames_checked += 1
	if not bones_finite(skeleton):
		non_finite_frames += 1


## Whether every bone's global pose in `s` is finite.
static func bones_finite(s: Skeleton3D) -> bool:
	for i in s.get_bone_count():
		var t := s.get_bone_global_pose(i)
		if not (t.origin.is_finite() and t.basis.x.is_finite() and t.basis.y.is_finite() and t.basis.z.is_finite()):
			return false
	return true


func report() -> String:
	return "%d skeleton updates checked, %d with a non-finite bone; %d tracking dropouts, %d hitches (longest frame %.2f s)" % [frames_checked, non_finite_frames, dropouts, hitches, longest_hitch_s]


## Restores tracking and time scale (at the end of the run).
func stop() -> void:
	Engine.time_scale = 1.0
	for who in _lost.keys():
		_set_tracked(who, true)
	_lost.clear()
