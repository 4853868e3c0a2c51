## Base of every engine test file: assertions, frame waiting and scene-building helpers.
class_name EngineTest
extends Node3D

var failures: Array[String] = []
## How many engine errors this test must log, exactly (see `expect_errors`).
var expected_errors := 0
## How many warnings this test must log, exactly, or -1 when they are not counted (see
## `expect_warnings`).
var expected_warnings := -1
## How many checks the test made; the runner fails a test that made none.
var checks_made := 0


func check(condition: bool, message: String) -> bool:
	checks_made += 1
	if not condition:
		failures.append(message)
	return condition


func check_near(a: float, b: float, tolerance: float, message: String) -> bool:
	return check(absf(a - b) <= tolerance, "%s: %f vs %f (tolerance %f)" % [message, a, b, tolerance])


func check_vec_near(a: Vector3, b: Vector3, tolerance: float, message: String) -> bool:
	return check(a.distance_to(b) <= tolerance, "%s: %s vs %s, %.5f m apart (tolerance %.5f)" % [message, a, b, a.distance_to(b), tolerance])


## The test expects exactly `count` engine errors (for example one clear configuration error):
## fewer fail the test as surely as more.
func expect_errors(count: int) -> void:
	expected_errors = count


## The test expects exactly `count` warnings (a configuration problem reported once at runtime,
## say), however long it runs: fewer fail the test as surely as more. Without this call warnings
## are not counted.
func expect_warnings(count: int) -> void:
	expected_warnings = count


func frames(count: int = 1) -> void:
	for i in count:
		await get_tree().process_frame


## Waits until at least `duration` seconds of process time have passed (the runner uses
## `--fixed-fps 120`, so this is simulated time, the same on a busy machine).
func seconds(duration: float) -> void:
	var waited := 0.0
	while waited < duration:
		await get_tree().process_frame
		waited += get_process_delta_time()


## An XR origin with camera and two controllers, a simulator feeding them, and a humanoid avatar
## with a `VRArmRig` whose targets are the controllers. Returns the parts by name.
func make_tracked_rig(fingers: bool = true, twist: bool = false) -> Dictionary:
	var xr := XRSetup.make(self)
	var avatar := Node3D.new()
	avatar.name = "Avatar"
	add_child(avatar)
	var skeleton := HumanoidBuilder.build(fingers, twist)
	avatar.add_child(skeleton)
	var hints := {}
	for side in ["left", "right"]:
		var h := Marker3D.new()
		h.name = side.capitalize() + "Hint"
		var s := 1.0 if side == "left" else -1.0
		h.position = Vector3(0.45 * s, 0.9, -0.3)
		avatar.add_child(h)
		hints[side] = h
	var rig := VRArmRig.new()
	rig.name = "VRArmRig"
	rig.left_target = xr.left
	rig.right_target = xr.right
	rig.left_hint = hints.left
	rig.right_hint = hints.right
	skeleton.add_child(rig)
	xr.merge({"avatar": avatar, "skeleton": skeleton, "rig": rig, "left_hint": hints.left, "right_hint": hints.right})
	return xr


## A character of tests/avatars loaded at run time as glTF (as a user loads one the game did
## not import) and added under this test; null, with a failed check, if it does not load.
func load_test_avatar(file: String) -> Node3D:
	var doc := GLTFDocument.new()
	var state := GLTFState.new()
	var err := doc.append_from_file("res://tests/avatars/" + file, state)
	if not check(err == OK, "%s loads as glTF (%s)" % [file, error_string(err)]):
		return null
	var character: Node3D = doc.generate_scene(state)
	add_child(character)
	return character


## A "walk" animation that holds `bone` of `skeleton` turned to `rotation` (local), looped and
## playing on an AnimationPlayer added under `holder`: a user's walk animation, as a test needs it.
func play_held_pose(holder: Node, skeleton: Skeleton3D, bone: String, rotation: Quaternion) -> AnimationPlayer:
	var walk := Animation.new()
	var track := walk.add_track(Animation.TYPE_ROTATION_3D)
	walk.track_set_path(track, NodePath("%s:%s" % [holder.get_path_to(skeleton), bone]))
	walk.rotation_track_insert_key(track, 0.0, rotation)
	walk.length = 1.0
	walk.loop_mode = Animation.LOOP_LINEAR
	var library := AnimationLibrary.new()
	library.add_animation("walk", walk)
	var player := AnimationPlayer.new()
	holder.add_child(player)
	player.add_animation_library("", library)
	player.play("walk")
	return player


## Global position of a bone as the skeleton shows it after the modifiers ran.
func bone_global_position(skeleton: Skeleton3D, bone: String) -> Vector3:
	var idx := skeleton.find_bone(bone)
	return (skeleton.global_transform * skeleton.get_bone_global_pose(idx)).origin


## How far a bone is turned from its rest (degrees), as the skeleton shows it now.
func curl_of(skeleton: Skeleton3D, bone: String) -> float:
	var i := skeleton.find_bone(bone)
	return rad_to_deg(skeleton.get_bone_pose_rotation(i).angle_to(skeleton.get_bone_rest(i).basis.get_rotation_quaternion()))


## The hand a player sees, measured from the skeleton's posed finger bones: at the hand bone,
## -Z along the fingers (wrist to the knuckles' mean), +Y across the knuckles toward the index
## finger (the thumb's side), +X = Y x Z (out of the left palm, out of the back of the right
## hand). A player's hand holding a controller has the controller's grip frame: this is what it
## is compared with. `side` is "Left" or "Right".
func palm_transform(skeleton: Skeleton3D, side: String) -> Transform3D:
	var hand := bone_global_position(skeleton, side + "Hand")
	var knuckles: Array[Vector3] = []
	for finger in ["Index", "Middle", "Ring", "Little"]:
		if skeleton.find_bone(side + finger + "Proximal") >= 0:
			knuckles.append(bone_global_position(skeleton, side + finger + "Proximal"))
	if knuckles.size() < 2:
		check(false, "%s hand: at least two knuckles to see its palm" % side)
		return Transform3D(Basis(), hand)
	var centre := Vector3.ZERO
	for k in knuckles:
		centre += k
	centre /= knuckles.size()
	var fingers := (centre - hand).normalized()
	var line: Vector3 = knuckles[0] - knuckles[knuckles.size() - 1]
	var y := (line - fingers * line.dot(fingers)).normalized()
	var z := -fingers
	return Transform3D(Basis(y.cross(z), y, z), hand)


## Angle (degrees) between two rotations.
func angle_deg(a: Basis, b: Basis) -> float:
	return rad_to_deg(a.orthonormalized().get_rotation_quaternion().angle_to(b.orthonormalized().get_rotation_quaternion()))


func bone_global_basis(skeleton: Skeleton3D, bone: String) -> Basis:
	var idx := skeleton.find_bone(bone)
	return (skeleton.global_transform * skeleton.get_bone_global_pose(idx)).basis


## `make_tracked_rig` plus the whole target pipeline between the controllers and the rig (see
## `VRArmsSetup.wire_pipeline`).
func make_pipeline_rig() -> Dictionary:
	var p := make_tracked_rig()
	p.merge(VRArmsSetup.wire_pipeline(self, p.left, p.right, p.rig))
	return p


## A box on physics layer 3 (a crate, or a hit box; 20 cm high by default), under `parent`,
## centred at `at`.
func make_crate(parent: Node, at: Vector3, size := Vector3(0.14, 0.2, 0.5)) -> StaticBody3D:
	var body := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var cube := BoxShape3D.new()
	cube.size = size
	shape.shape = cube
	body.add_child(shape)
	body.collision_layer = 4
	parent.add_child(body)
	body.global_position = at
	return body


## A bare humanoid under a "Character" node, set up in one call by `VRArmsSetup`, with an
## `XRTrackingSimulator`: VRArmsSetup's dictionary plus "character", "skeleton", "simulator".
func make_set_up_body() -> Dictionary:
	var character := Node3D.new()
	character.name = "Character"
	add_child(character)
	var skeleton := HumanoidBuilder.build()
	character.add_child(skeleton)
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	var b := VRArmsSetup.setup_skeleton(skeleton, null, null)
	b.merge({"skeleton": skeleton, "character": character, "simulator": sim})
	return b


## The player stands at the origin looking forward (+Z for the avatar), hands in front; after
## the stages settle, both of the set-up avatar's hands must be on their controllers.
func check_hands_reach_the_controllers(sim: XRTrackingSimulator, skeleton: Skeleton3D) -> void:
	sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	var left := Vector3(0.3, 1.15, 0.25)
	var right := Vector3(-0.3, 1.2, 0.2)
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), left))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), right))
	await frames(10)
	await skeleton.skeleton_updated
	check_vec_near(bone_global_position(skeleton, "LeftHand"), left, 0.001, "left hand on its controller")
	check_vec_near(bone_global_position(skeleton, "RightHand"), right, 0.001, "right hand on its controller")


## OpenXR joints of each finger's first bone (thumb metacarpal, index ... little proximal).
const FINGER_BASES := {"Thumb": 2, "Index": 7, "Middle": 12, "Ring": 17, "Little": 22}


## Joint positions of a `side` ("Left"/"Right") hand shaped like the avatar's rest hand, the index curled by
## `curl_deg` at each of its three joints, then turned and moved into a tracker space of its own
## (only the hand's shape may matter).
func hand_joints(skeleton: Skeleton3D, side: String, curl_deg: float) -> Array:
	var at := func(bone: String) -> Vector3:
		return skeleton.get_bone_global_rest(skeleton.find_bone(side + bone)).origin
	# The palms face down (-Y) in the T-pose: curling turns the left fingers (+X) and the right
	# ones (-X) toward -Y.
	var turn := -1.0 if side == "Left" else 1.0
	var joints := []
	joints.resize(26)
	joints.fill(Vector3.ZERO)
	joints[1] = at.call("Hand")
	joints[0] = at.call("Hand") + Vector3(0.04, 0, 0)
	for finger in FINGER_BASES:
		var base: int = FINGER_BASES[finger]
		var names := ["ThumbMetacarpal", "ThumbProximal", "ThumbDistal"] if finger == "Thumb" else [finger + "Proximal", finger + "Intermediate", finger + "Distal"]
		var p: Vector3 = at.call(names[0])
		joints[base] = p
		if finger != "Thumb":
			joints[base - 1] = (at.call("Hand") + p) * 0.5  # metacarpal
		var curl := deg_to_rad(curl_deg) if finger == "Index" else 0.0
		var dir := Vector3.ZERO
		for i in 3:
			var next: Vector3 = at.call(names[i + 1]) if i < 2 else p + dir.normalized() * 0.025
			if i < 2:
				dir = next - p
			var seg := dir.rotated(Vector3.BACK, turn * curl * (i + 1)) if curl != 0.0 else dir
			if i == 2:
				seg = seg.normalized() * 0.025
			joints[base + i + 1] = joints[base + i] + seg
			p = next
	var into_tracker := Transform3D(Basis(Vector3(0.3, 1, 0.2).normalized(), 1.1), Vector3(0.4, 1.2, -0.3))
	return joints.map(func(j): return into_tracker * j)


func make_tracker(joints: Array, side: String = "Left") -> XRHandTracker:
	var t := XRHandTracker.new()
	t.name = StringName("/user/hand_tracker/" + side.to_lower())
	t.hand = XRPositionalTracker.TRACKER_HAND_LEFT if side == "Left" else XRPositionalTracker.TRACKER_HAND_RIGHT
	for i in 26:
		t.set_hand_joint_transform(i, Transform3D(Basis(), joints[i]))
		t.set_hand_joint_flags(i, XRHandTracker.HAND_JOINT_FLAG_POSITION_VALID | XRHandTracker.HAND_JOINT_FLAG_POSITION_TRACKED)
	t.has_tracking_data = true
	XRServer.add_tracker(t)
	return t


## A character node (named `name`) holding a HumanoidBuilder skeleton, in the test's tree: its
## skeleton.
func make_humanoid_character(name: String) -> Skeleton3D:
	var character := Node3D.new()
	character.name = name
	add_child(character)
	var skeleton := HumanoidBuilder.build()
	character.add_child(skeleton)
	return skeleton
