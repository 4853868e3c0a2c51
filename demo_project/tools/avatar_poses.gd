## One character posed by the simulated headset and controllers, as a player moves, and rendered
## front, side and from the player's own camera: standing with the arms relaxed, a crouch, a bow,
## a reach to the floor, a squat and mid-step in a walk. What the pictures show is checked from
## the bones: the hips behind the head and the torso leaning forward in a crouch, the spine bent
## further than the knees in a bow, the hand on its controller at the floor, the toes never
## under the floor (nor the legs' skinned mesh), the head on the headset while the feet step
## (a walk, a turn on the spot, a snap turn), and none of the head seen from inside by the
## player's camera.
##
## `cargo xtask avatar-test` runs it for every test character under Xvfb with Vulkan on lavapipe:
##   godot --xr-mode off --rendering-driver vulkan --fixed-fps 60 --path demo_project
##       -s res://tools/avatar_poses.gd -- --character=FILE|/ABSOLUTE/PATH|demo [--vrm] --out=PNG
##       [--lower=NAME:VALUE]   (a LowerBodyRig property set, to see what a setting does)
## It prints one `avatar poses: FAIL` line per failed check, then one `avatar poses: {JSON}` line
## (the character, its figures, the failed checks), and exits 1 if any check failed.
extends SceneTree

const PhotoStage := preload("res://tools/photo_stage.gd")
const Skinning := preload("res://tools/skinning.gd")
const AVATARS := "res://tests/avatars/"
const FPS := 60.0
const PANEL := Vector2i(220, 330)
const VIEWS := ["front", "side", "player"]
## The pictures: name, time (s).
const SHOTS := [["standing", 2.0], ["crouch", 3.8], ["bow", 6.6], ["floor reach", 10.0], ["squat", 13.5], ["mid-step", 15.75]]
## Where the head is checked against the headset while the feet step (name, from, to in s).
const STEPPING := [["walk", 15.0, 17.5], ["turn", 17.5, 19.0], ["snap turn", 19.0, 19.8]]
const END := 20.0
## The head bone off its standing place under the headset while stepping (m), at most.
const MAX_HEAD_M := 0.01
## The hand off its controller at the floor (m), at most, beyond what the avatar's arm cannot
## reach from the nearest place the torso could put its shoulder.
const MAX_REACH_M := 0.01
## A squatting knee's sideways distance from its ankle, as a share of the leg (thigh and shin),
## at most: the knees over the feet.
const MAX_SPLAY_SHARE := 0.1
## The share of its reach an arm lands its hand exactly within (the arm solve's soft reach).
const REACH_SHARE := 0.97
## A foot or toe bone below its standing height (m), at most; the legs' mesh as far below its
## lowest standing vertex.
const MAX_SINK_M := 0.01
## The legs' mesh is skinned every this many frames (10 a second) for its lowest vertex.
const MESH_EVERY := 6
## The player's camera sees within this half angle (degrees) of where it looks (a headset's 90
## degrees of view, and a little more).
const VIEW_HALF_DEG := 50.0
## The area (m²) of the avatar's head (the triangles the head bone and those below it move most)
## the player's camera may see, at most (1 cm²): none of it from inside.
const MAX_HEAD_SEEN_M2 := 1e-4

var options := {}
var sim: XRTrackingSimulator
var origin: XROrigin3D
var camera: XRCamera3D
var skeleton: Skeleton3D
var character: Node3D
## The character's height standing (m, its meshes' top): the cameras frame it.
var top := 1.8
var body: Dictionary
var frame := 0
var views := {}
var pending := -1
var images := {}
var failures: PackedStringArray = []
## The figures by name (cm and degrees), printed as JSON.
var figures := {}
## Measured standing, at 1.4 s: the headset's height, each hand's relaxed place and reach-forward
## place and shoulder from the head (player's frame), the head bone in the headset's frame, foot and toe heights.
var height := 1.65
var relaxed: Array[Vector3] = []
var forward_reach: Array[Vector3] = []
## Straight ahead a quarter further than the arm reaches (a player's arms longer than the avatar's).
var out_of_reach: Array[Vector3] = []
var shoulders: Array[Vector3] = []
var head_in_headset := Vector3.ZERO
var standing_heights := {}
var lowest_sink := {}
## When each foot or toe bone was lowest (s).
var lowest_at := {}
## The legs' skinned vertices (`Skinning.influenced`, per surface: those the humanoid leg bones
## move), their lowest height standing (or the floor's, if lower), and how far below it they
## went, when.
var leg_vertices: Array[Dictionary] = []
var mesh_standing_low := INF
var mesh_sink := 0.0
var mesh_sink_at := 0.0
var worst_head := {}
## The head's bones (the head and those below it), the largest area of the head's mesh the
## player's camera saw, and in which picture's pose.
var head_bones := PackedInt32Array()
var head_seen_m2 := 0.0
var head_seen_at := ""
## A picture's pose, whose camera view is checked in this frame's `skeleton_updated`.
var view_due := ""
## The bones' places this frame (world), read in `skeleton_updated`.
var bones := {}
var finished := false


func _initialize() -> void:
	for a in OS.get_cmdline_user_args():
		var kv := a.trim_prefix("--").split("=", true, 1)
		options[kv[0]] = kv[1] if kv.size() > 1 else ""
	_run.call_deferred()


func _fail(message: String) -> void:
	printerr("avatar poses: " + message)
	quit(1)


func _run() -> void:
	PhotoStage.build(root)
	origin = XROrigin3D.new()
	root.add_child(origin)
	camera = XRCamera3D.new()
	origin.add_child(camera)
	sim = XRTrackingSimulator.new()
	root.add_child(sim)
	sim.set_head_pose(Transform3D(Basis(), Vector3(0, height, 0)))
	character = _load(options.get("character", "demo"))
	if character == null:
		return
	root.add_child(character)
	for found in character.find_children("*", "Skeleton3D", true, false):
		if skeleton == null or found.get_bone_count() > skeleton.get_bone_count():
			skeleton = found
	var file: String = options.get("character", "demo")
	var map: BoneMap = VRArmsSetup.bone_map_from_vrm(_path(file)) if options.has("vrm") else null
	body = VRArmsSetup.setup_skeleton(skeleton, origin, map)
	if body.is_empty():
		_fail("the one-click setup did not take %s" % file)
		return
	# Without a lower body (the setup said why) the legs keep their pose: the poses still run
	# and are pictured, and the checks say what that does.
	if body.get("lower_body") == null:
		failures.append("setup: no lower body (the hips and legs keep their pose)")
	# --lower=NAME:VALUE sets a LowerBodyRig property (to see what a setting does).
	elif options.has("lower"):
		var kv: PackedStringArray = options.lower.split(":")
		body.lower_body.set(kv[0], float(kv[1]))
	skeleton.skeleton_updated.connect(_read_bones)
	for v in VIEWS:
		var vp := SubViewport.new()
		vp.size = PANEL
		vp.render_target_update_mode = SubViewport.UPDATE_DISABLED
		vp.msaa_3d = Viewport.MSAA_2X
		var cam := Camera3D.new()
		# The player's view: a headset's field of view, as near as the XR camera sees.
		cam.fov = 90.0 if v == "player" else 40.0
		cam.near = camera.near
		vp.add_child(cam)
		root.add_child(vp)
		cam.current = true
		views[v] = [vp, cam]
	root.disable_3d = true
	RenderingServer.frame_post_draw.connect(_take_shot)
	# The player moves before the body's nodes in each frame; the standing measures are taken
	# after them (where this frame's body carries the shoulders).
	_add_driver(-5000, "step")
	_add_driver(0, "measure")


## A node calling this script's `method` in its `_process` at `priority`.
func _add_driver(priority: int, method: String) -> void:
	var driver := Node.new()
	driver.process_priority = priority
	var s := GDScript.new()
	s.source_code = "extends Node\nfunc _process(_delta):\n\tget_meta(\"tree\").%s()\n" % method
	s.reload()
	driver.set_script(s)
	driver.set_meta("tree", self)
	root.add_child(driver)


## The character: `demo` (the demo's humanoid, built in code) or a file in tests/avatars.
func _load(file: String) -> Node3D:
	if file == "demo":
		return CharacterBuilder.build()
	var doc := GLTFDocument.new()
	var state := GLTFState.new()
	var err := doc.append_from_file(_path(file), state)
	if err != OK:
		_fail("%s does not load as glTF: %s" % [file, error_string(err)])
		return null
	return doc.generate_scene(state)


## A file of the test characters by its name, or any other by its absolute path.
func _path(file: String) -> String:
	return file if file.is_absolute_path() else AVATARS + file


func _bone(name: String) -> Vector3:
	return (skeleton.global_transform * skeleton.get_bone_global_pose(skeleton.find_bone(name))).origin


func _read_bones() -> void:
	for name in ["Hips", "Head", "LeftUpperLeg", "RightUpperLeg", "LeftLowerLeg", "RightLowerLeg", "LeftFoot", "RightFoot", "LeftToes", "RightToes", "LeftHand", "RightHand", "RightUpperArm"]:
		if skeleton.find_bone(name) >= 0:
			bones[name] = _bone(name)
	bones["Neck"] = _bone("Neck" if skeleton.find_bone("Neck") >= 0 else "Head")
	bones["head_in_headset"] = camera.global_transform.affine_inverse() * bones["Head"]
	if view_due != "":
		_check_view(view_due)
		view_due = ""
	# Posed (this is `skeleton_updated`): the legs' mesh against the floor it stood on.
	if leg_vertices.is_empty():
		return
	# The first posed frame after the standing measures: the lowest standing vertex, or the
	# floor if that is lower (a rig whose feet are skinned to other bones: its shins may kneel
	# on the floor, not under it).
	if mesh_standing_low == INF:
		mesh_standing_low = minf(_legs_lowest(), origin.global_position.y)
	elif frame % MESH_EVERY == 0:
		var sink := _legs_lowest() - mesh_standing_low
		if sink < mesh_sink:
			mesh_sink = sink
			mesh_sink_at = (frame - 1) / FPS


## The legs' mesh's lowest vertex now (world height).
func _legs_lowest() -> float:
	var low := INF
	for prepared in leg_vertices:
		low = minf(low, Skinning.lowest_y(prepared, skeleton))
	return low


## One frame of the player's motion, then the checks and the pictures due this frame.
func step() -> void:
	var t := frame / FPS
	frame += 1
	if t >= END:
		_finish()
		return
	_pose_player(t)
	if not standing_heights.is_empty():
		for name in standing_heights:
			var sink: float = bones[name].y - standing_heights[name]
			if sink < lowest_sink.get(name, 0.0):
				lowest_sink[name] = sink
				lowest_at[name] = t
		for phase in STEPPING:
			if t >= phase[1] and t < phase[2]:
				var off: float = bones["head_in_headset"].distance_to(head_in_headset)
				worst_head[phase[0]] = maxf(worst_head.get(phase[0], 0.0), off)
	for k in SHOTS.size():
		if absf(t - SHOTS[k][1]) < 0.5 / FPS:
			_check(SHOTS[k][0])
			view_due = SHOTS[k][0]
			_aim_cameras()
			pending = k
			for v in VIEWS:
				views[v][0].render_target_update_mode = SubViewport.UPDATE_ONCE


## After the body's nodes ran this frame: the standing measures, at 1.4 s.
func measure() -> void:
	if absf((frame - 1) / FPS - 1.4) < 0.5 / FPS:
		_measure_standing()


## The meshes skinned to the avatar's skeleton (the first-person copies too).
func _skinned_meshes() -> Array:
	return root.find_children("*", "MeshInstance3D", true, false).filter(
		func(m): return m.mesh != null and m.skin != null and m.get_node_or_null(m.skeleton) == skeleton)


## The area of the avatar's head the player's camera sees (the inside of the head, were it
## not hidden from it), in `shot`.
func _check_view(shot: String) -> void:
	if head_bones.is_empty():
		var head := skeleton.find_bone("Head")
		if head < 0:
			return
		for b in skeleton.get_bone_count():
			var up := b
			while up >= 0 and up != head:
				up = skeleton.get_bone_parent(up)
			if up == head:
				head_bones.append(b)
	var area := 0.0
	var eye := camera.global_position
	var look := -camera.global_basis.z
	for m in _skinned_meshes():
		if m.is_visible_in_tree() and (m.layers & camera.cull_mask) != 0:
			area += Skinning.area_in_view(m, skeleton, eye, look, cos(deg_to_rad(VIEW_HALF_DEG)), head_bones)
	if area > head_seen_m2:
		head_seen_m2 = area
		head_seen_at = shot


func _measure_standing() -> void:
	figures.standing_torso_forward_deg = _lean_deg()
	figures.standing_ankles_apart_cm = bones.LeftFoot.distance_to(bones.RightFoot) * 100.0
	figures.standing_hips_apart_cm = bones.LeftUpperLeg.distance_to(bones.RightUpperLeg) * 100.0
	figures.standing_knees_deg = maxf(_knee_deg("Left"), _knee_deg("Right"))
	var head := camera.global_transform
	height = head.origin.y
	head_in_headset = bones["head_in_headset"]
	var rig: VRArmRig = body.rig
	var arm := rig.get_arm_length(0) * skeleton.global_basis.get_scale().x
	relaxed.clear()
	forward_reach.clear()
	out_of_reach.clear()
	shoulders.clear()
	for i in 2:
		var shoulder := rig.get_shoulder_global_position(i)
		shoulders.append(shoulder - head.origin)
		var out := Vector3(shoulder.x - head.origin.x, 0, 0).normalized()
		relaxed.append(shoulder + out * 0.15 * arm + Vector3(0, -0.85 * arm, -0.1 * arm) - head.origin)
		forward_reach.append(shoulder + Vector3(0, 0, -0.85 * arm) - head.origin)
		out_of_reach.append(shoulder + Vector3(0, 0, -1.25 * arm) - head.origin)
	for name in ["LeftFoot", "RightFoot", "LeftToes", "RightToes"]:
		if bones.has(name):
			standing_heights[name] = bones[name].y
	top = 0.0
	# The humanoid leg bones (not helper bones below them: a test rig's constraint cubes hang
	# there, well away from the leg).
	var legs := PackedInt32Array()
	for side in ["Left", "Right"]:
		for part in ["UpperLeg", "LowerLeg", "Foot", "Toes"]:
			if skeleton.find_bone(side + part) >= 0:
				legs.append(skeleton.find_bone(side + part))
	for mesh: MeshInstance3D in character.find_children("*", "MeshInstance3D", true, false):
		for v in Skinning.skinned_vertices(mesh, skeleton, 25):
			top = maxf(top, v.y)
		# Skinned in `skeleton_updated`, where the pose is the body's (here it is the animation's).
		leg_vertices.append_array(Skinning.influenced(mesh, skeleton, legs, 3))


## The player: stands, crouches, bows, reaches to the floor, walks, turns and snap-turns (the
## player looks down -Z; everything is eased, as a person moves).
func _pose_player(t: float) -> void:
	var down := 0.0
	var ahead := 0.0
	var pitch := 0.0
	var walked := 0.0
	var yaw := 0.0
	var hands := relaxed
	var reach := 0.0
	var crouch := _hold(t, 2.0, 3.0, 3.8, 4.8)
	var bow := _hold(t, 4.8, 5.8, 6.6, 7.6)
	var floor := _hold(t, 7.6, 9.0, 10.0, 11.5)
	var squat := _hold(t, 11.5, 12.7, 13.5, 14.5)
	# The squat is without kneeling (held this low, the body would kneel).
	if body.get("lower_body") != null:
		(body.lower_body as LowerBodyRig).kneel = t < 11.5 or t > 14.5
	if crouch > 0.0:
		down = 0.25 * height * crouch
		hands = out_of_reach
	elif bow > 0.0:
		down = 0.18 * height * bow
		ahead = 0.18 * height * bow
		pitch = deg_to_rad(45.0) * bow
	elif floor > 0.0:
		down = 0.5 * height * floor
		ahead = 0.25 * floor
		pitch = deg_to_rad(50.0) * floor
		reach = floor
	elif squat > 0.0:
		down = 0.4 * height * squat
		hands = forward_reach
	walked = 1.3 * smoothstep(15.0, 16.5, t)
	yaw = deg_to_rad(90.0) * smoothstep(17.5, 18.0, t)
	if t >= 19.0 and origin.rotation.y == 0.0:
		# A snap turn: the origin turns 45 degrees about the player's head.
		var pivot := camera.global_position
		origin.global_transform = Transform3D(Basis(Vector3.UP, deg_to_rad(45.0)), Vector3.ZERO).translated(pivot) * Transform3D(Basis(), -pivot) * origin.global_transform
	var turn := Basis(Vector3.UP, yaw)
	var head := Vector3(0, height - down, -ahead - walked)
	sim.set_head_pose(Transform3D(turn * Basis(Vector3.RIGHT, -pitch), head))
	if relaxed.is_empty():
		return
	var level := Vector3(0, height, -walked)
	for i in 2:
		# The hands move with the shoulders: the head's move, and the torso's lean as the head pitches.
		var lean := Basis(Vector3.RIGHT, -pitch) * shoulders[i] - shoulders[i]
		var at: Vector3 = level + turn * (hands[i] + lean) + Vector3(0, -down, -ahead)
		if i == 1 and reach > 0.0:
			# The right hand to the floor, in front of the right foot: the wrist 12 cm up.
			at = at.lerp(Vector3(0.18, 0.12, -0.35), reach)
		sim.set_hand_pose(VRArms.Hand.LEFT if i == 0 else VRArms.Hand.RIGHT, Transform3D(turn, at))


## 0 before `a`, eased to 1 by `b`, held to `c`, eased back to 0 by `d`.
func _hold(t: float, a: float, b: float, c: float, d: float) -> float:
	return smoothstep(a, b, t) * (1.0 - smoothstep(c, d, t))


func _knee_deg(side: String) -> float:
	var u: Vector3 = bones[side + "UpperLeg"]
	var l: Vector3 = bones[side + "LowerLeg"]
	return rad_to_deg((l - u).angle_to(bones[side + "Foot"] - l))


## The torso's lean forward from upright (degrees), hips to neck, the player's forward being -Z.
func _lean_deg() -> float:
	var spine: Vector3 = bones["Neck"] - bones["Hips"]
	return rad_to_deg(atan2(-spine.z, spine.y))


func _expect(ok: bool, what: String) -> void:
	if not ok:
		failures.append(what)


func _check(shot: String) -> void:
	var knees := maxf(_knee_deg("Left"), _knee_deg("Right"))
	match shot:
		"crouch":
			var behind: float = bones["Hips"].z - bones["Head"].z
			figures.crouch_hips_behind_head_cm = behind * 100.0
			figures.crouch_torso_forward_deg = _lean_deg()
			figures.crouch_knees_deg = knees
			figures.crouch_knees_apart_cm = bones.LeftLowerLeg.distance_to(bones.RightLowerLeg) * 100.0
			figures.crouch_ankles_apart_cm = bones.LeftFoot.distance_to(bones.RightFoot) * 100.0
			_expect(behind > 0.0, "crouch: the hips are %.1f cm in front of the head" % [-behind * 100.0])
			_expect(_lean_deg() > 0.0, "crouch: the torso leans %.0f deg back" % [-_lean_deg()])
		"bow":
			figures.bow_spine_forward_deg = _lean_deg()
			figures.bow_knees_deg = knees
			_expect(_lean_deg() > knees, "bow: the spine leans %.0f deg, less than the knees bend (%.0f)" % [_lean_deg(), knees])
		"squat":
			# Each knee's sideways distance from its ankle, across the hips.
			var across: Vector3 = (bones.LeftUpperLeg - bones.RightUpperLeg).normalized()
			var splay := 0.0
			for side in ["Left", "Right"]:
				splay = maxf(splay, absf((bones[side + "LowerLeg"] - bones[side + "Foot"]).dot(across)))
			var leg: float = bones.LeftUpperLeg.distance_to(bones.LeftLowerLeg) + bones.LeftLowerLeg.distance_to(bones.LeftFoot)
			figures.squat_knees_deg = knees
			figures.squat_knee_beside_ankle_cm = splay * 100.0
			figures.squat_knees_apart_cm = bones.LeftLowerLeg.distance_to(bones.RightLowerLeg) * 100.0
			figures.squat_ankles_apart_cm = bones.LeftFoot.distance_to(bones.RightFoot) * 100.0
			_expect(splay <= MAX_SPLAY_SHARE * leg, "squat: a knee is %.1f cm to the side of its ankle (at most %.1f, a tenth of the leg)" % [splay * 100.0, MAX_SPLAY_SHARE * leg * 100.0])
		"floor reach":
			var target := (body.right_controller as Node3D).global_position
			var off: float = bones["RightHand"].distance_to(target)
			# The nearest the torso could bring the shoulder, turning about the head, and how
			# far the avatar's own arm then is from the target (its arms may be shorter than
			# the player's): the hand must come that close, within 1 cm.
			var arm := (body.rig as VRArmRig).get_arm_length(1) * skeleton.global_basis.get_scale().x
			var head: Vector3 = bones["Head"]
			var nearest := head.distance_to(target) - head.distance_to(bones["RightUpperArm"])
			var beyond := maxf(nearest - REACH_SHARE * arm, 0.0)
			figures.floor_reach_hand_off_cm = off * 100.0
			figures.floor_reach_beyond_arm_cm = beyond * 100.0
			_expect(off <= beyond + MAX_REACH_M, "floor reach: the right hand stops %.1f cm short of its controller (at most %.1f: the arm reaches to %.1f cm of it at best)" % [off * 100.0, (beyond + MAX_REACH_M) * 100.0, beyond * 100.0])


func _aim_cameras() -> void:
	var head := camera.global_position
	var look := Vector3(head.x, 0.5 * top, head.z)
	# The whole character and a little floor in the camera's 40 degrees.
	var away := 0.65 * top / tan(deg_to_rad(20.0))
	(views.front[1] as Camera3D).look_at_from_position(look + Vector3(0, 0.1, -away), look)
	(views.side[1] as Camera3D).look_at_from_position(look + Vector3(away, 0.1, 0), look)
	# What the player sees: the XR camera's place and layers (the first-person head hides the
	# avatar's head from them).
	var player: Camera3D = views.player[1]
	player.global_transform = camera.global_transform
	player.cull_mask = camera.cull_mask


func _take_shot() -> void:
	if pending < 0:
		return
	for v in VIEWS:
		images[SHOTS[pending][0] + "/" + v] = (views[v][0] as SubViewport).get_texture().get_image()
	pending = -1


func _finish() -> void:
	if finished:
		return
	finished = true
	for name in lowest_sink:
		_expect(lowest_sink[name] >= -MAX_SINK_M, "%s went %.1f cm below its standing height (at %.2f s)" % [name, -lowest_sink[name] * 100.0, lowest_at[name]])
	var sink := 0.0
	for name in lowest_sink:
		sink = minf(sink, lowest_sink[name])
	figures.feet_below_standing_cm = -sink * 100.0
	figures.legs_mesh_below_standing_cm = -mesh_sink * 100.0
	figures.player_sees_head_cm2 = head_seen_m2 * 1e4
	_expect(not head_bones.is_empty(), "no head bone to hide from the player's camera")
	_expect(head_seen_m2 <= MAX_HEAD_SEEN_M2, "the player's camera sees %.1f cm² of the head (%s)" % [head_seen_m2 * 1e4, head_seen_at])
	_expect(not leg_vertices.is_empty(), "no skinned leg mesh to check against the floor")
	_expect(mesh_sink >= -MAX_SINK_M, "the legs' mesh went %.1f cm below the floor or its lowest standing vertex (at %.2f s)" % [-mesh_sink * 100.0, mesh_sink_at])
	for phase in STEPPING:
		var off: float = worst_head.get(phase[0], 0.0)
		figures[phase[0].replace(" ", "_") + "_head_off_cm"] = off * 100.0
		_expect(off <= MAX_HEAD_M, "%s: the head bone leaves its place under the headset by %.1f cm (at most %.0f)" % [phase[0], off * 100.0, MAX_HEAD_M * 100.0])
	var out: String = options.get("out", "")
	if out != "":
		var sheet := Image.create(PANEL.x * SHOTS.size(), PANEL.y * VIEWS.size(), false, Image.FORMAT_RGBA8)
		for k in SHOTS.size():
			for r in VIEWS.size():
				var image: Image = images.get(SHOTS[k][0] + "/" + VIEWS[r])
				if image == null:
					_fail("no picture of %s from the %s" % [SHOTS[k][0], VIEWS[r]])
					return
				image.convert(Image.FORMAT_RGBA8)
				sheet.blit_rect(image, Rect2i(Vector2i.ZERO, PANEL), Vector2i(PANEL.x * k, PANEL.y * r))
		var err := sheet.save_png(out)
		if err != OK:
			_fail("cannot write %s: %s" % [out, error_string(err)])
			return
	var file: String = options.get("character", "demo")
	for f in failures:
		print("avatar poses: FAIL %s: %s" % [file, f])
	print("avatar poses: " + JSON.stringify({"character": file, "figures": figures, "failures": failures}))
	quit(1 if failures.size() > 0 else 0)
