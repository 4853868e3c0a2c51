## The bench's crowd scene (`bench_avatars.tscn --mode=crowd...`): 32 remote players standing
## around the camera as a game would have them, half behind it, most beyond 5 m, four close, each
## a humanoid with a VRRemoteBody replaying the same recorded ten seconds of tracking from its own
## offset (head turning and bobbing, hands moving, grips held half closed).
##   crowd       the bodies at their levels of detail (the defaults: by distance and view),
##   crowd_full  every body forced to full detail (what the levels save),
##   crowd_none  the same skeletons and moving tracked points without bodies (the baseline).
class_name BenchCrowd
extends Node3D

const PLAYERS := 32
## Trace samples (10 s at 90 Hz).
const TRACE_FRAMES := 900

var _mode := "crowd"
## Per sample: the head's and the two hands' transforms in the player's own space.
var _trace: Array = []
## Per player: [head, left hand, right hand, its offset into the trace].
var _players: Array = []
var _bodies: Array[VRRemoteBody] = []
var _frame := 0


func _init(mode: String) -> void:
	_mode = mode
	name = "Crowd"


func _ready() -> void:
	_record()
	for i in PLAYERS:
		var angle := TAU * (i + 0.5) / PLAYERS
		# Four close by (one behind, one ahead, two to the sides), the others 6 to 30 m away.
		var distance: float = [2.0, 2.5, 3.0, 4.0][int(i / 8.0)] if i % 8 == 0 else 6.0 + fmod(i * 7.3, 24.0)
		var at := Vector3(sin(angle) * distance, 0.0, cos(angle) * distance)
		var spot := Node3D.new()
		add_child(spot)
		# Facing the camera: the player's forward is its +Z, as the humanoid's.
		spot.transform = Transform3D(Basis(Vector3.UP, atan2(-at.x, -at.z)), at)
		var points := []
		for part in ["Head", "LeftHand", "RightHand"]:
			var point := Node3D.new()
			point.name = part
			spot.add_child(point)
			points.append(point)
		points.append((i * 97) % TRACE_FRAMES)
		_players.append(points)
		var character := Node3D.new()
		character.name = "CrowdCharacter%d" % i
		add_child(character)
		character.transform = spot.transform
		var skeleton := HumanoidBuilder.build()
		character.add_child(skeleton)
		if _mode == "crowd_none":
			continue
		var made := VRArmsSetup.setup_remote(skeleton, points[0], points[1], points[2])
		var body: VRRemoteBody = made.body
		body.read_controller_input = false
		body.left_grip = 0.5
		body.right_grip = 0.5
		if _mode == "crowd_full":
			body.detail = VRArms.BodyDetail.FULL
		_bodies.append(body)
	_drive()


func _process(_delta: float) -> void:
	_frame += 1
	_drive()


## Every player's tracked points at its place in the trace this frame.
func _drive() -> void:
	for p: Array in _players:
		var sample: Array = _trace[(_frame + int(p[3])) % TRACE_FRAMES]
		for k in 3:
			(p[k] as Node3D).transform = sample[k]


## The trace, recorded once: a standing player facing +Z (its camera looks along -Z, so turned
## round) looking about, bobbing a little, hands moving in front of the body.
func _record() -> void:
	for f in TRACE_FRAMES:
		var t := f / 90.0
		var head := Transform3D(Basis(Vector3.UP, PI + 0.5 * sin(t * 0.9)) * Basis(Vector3.RIGHT, 0.15 * sin(t * 1.3)), Vector3(0.03 * sin(t * 0.7), 1.65 + 0.02 * sin(t * 2.1), 0.0))
		var left := Transform3D(Basis(Vector3.RIGHT, -0.4 + 0.3 * sin(t)), Vector3(0.25 + 0.1 * cos(t), 1.15 + 0.2 * sin(t * 1.3), 0.3 + 0.1 * sin(t * 0.8)))
		var right := Transform3D(Basis(Vector3.RIGHT, -0.4 + 0.3 * cos(t * 1.1)), Vector3(-0.25 - 0.1 * sin(t), 1.1 + 0.15 * cos(t * 0.7), 0.3 + 0.1 * cos(t * 0.6)))
		_trace.append([head, left, right])


## How many bodies are at each level now (the crowd's line of the bench's output).
func report() -> String:
	var counts := [0, 0, 0, 0]
	for body in _bodies:
		counts[body.get_detail_level() - VRArms.BodyDetail.FULL] += 1
	return "bench: crowd levels full=%d reduced=%d low=%d off=%d" % counts
