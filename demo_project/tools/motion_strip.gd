## Renders the demo's character playing a clip of real motion as a strip of frames seen from
## the side: the clip's headset and controllers (from `vr_arms_eval --replay`) drive the
## one-click setup through the tracking simulator, exactly as a player's would, and the avatar
## is scaled to the performer when tracking starts, as in a game. The headset is drawn as a dark
## box and the controllers as orange balls, so where the body leaves them shows, and the
## performer's own skeleton as thin red lines drawn over everything, so where the body differs
## from the performer's shows. The clip's first frame is held for a second first, as a player
## stands when a game starts, so the avatar has been scaled to the performer.
##
## `cargo xtask strips` writes the replays and runs this under Xvfb with Vulkan on lavapipe:
##   godot --xr-mode off --rendering-driver vulkan --fixed-fps FPS --resolution WxH
##       --path demo_project -s res://tools/motion_strip.gd --
##       --replay=FILE --out=PNG --panels=N [--from=S --to=S | --around-lowest=S] [--seated]
##       [--profile]
## `--from`/`--to` (seconds) pick the part of the clip the panels are spread over (the whole
## clip by default); `--around-lowest` the seconds either side of the headset's lowest frame.
## `--seated`: the game says when the player sits, as the replay's `seated` says
## (`LowerBodyRig.seated`). `--profile`: every frame seen from the side the headset faces
## across (for a clip that turns about), not from one side of the whole clip.
extends SceneTree

const PhotoStage := preload("res://tools/photo_stage.gd")

const HEADSET_COLOR := Color(0.1, 0.1, 0.12)
const CONTROLLER_COLOR := Color(1.0, 0.55, 0.1)
const PERFORMER_COLOR := Color(0.85, 0.05, 0.05, 0.75)
## The camera's distance from the character (m) and height (share of the headset's first height).
const CAMERA_DISTANCE := 3.4
const CAMERA_HEIGHT := 0.55


class Player:
	extends Node
	## Plays one replay frame per engine frame, before any stage of the body.
	var frames: Array = []
	var next := 0
	## Engine frames left to hold the first frame for.
	var hold := 0
	var sim: XRTrackingSimulator
	var headset: Node3D
	var controllers: Array[Node3D] = []
	var camera: Camera3D
	## The lower body the game tells when the player sits (`--seated`), or null.
	var seat: LowerBodyRig
	var performer: ImmediateMesh
	var segments: Array = []
	var side := Vector3.RIGHT
	## See every frame across the way the headset faces (`--profile`).
	var profile := false
	var camera_height := 1.0

	func _process(_delta: float) -> void:
		if next >= frames.size():
			return
		var f: Dictionary = frames[next]
		if hold > 0:
			hold -= 1
		else:
			next += 1
		var head := Player.pose(f.head)
		if seat != null:
			seat.seated = f.get("seated", false)
		sim.set_head_pose(head)
		sim.set_hand_pose(VRArms.Hand.LEFT, Player.pose(f.left))
		sim.set_hand_pose(VRArms.Hand.RIGHT, Player.pose(f.right))
		headset.global_transform = head
		controllers[0].global_position = Player.pose(f.left).origin
		controllers[1].global_position = Player.pose(f.right).origin
		performer.clear_surfaces()
		var points: Array = f.get("performer", [])
		if not points.is_empty():
			# Each bone a flat ribbon facing the camera, a centimetre and a half wide.
			performer.surface_begin(Mesh.PRIMITIVE_TRIANGLES)
			for s in segments:
				if s[1] >= points.size():
					continue
				var a := Vector3(points[s[0]][0], points[s[0]][1], points[s[0]][2])
				var b := Vector3(points[s[1]][0], points[s[1]][1], points[s[1]][2])
				var w := (b - a).cross(side).normalized() * 0.0075
				for v in [a - w, a + w, b + w, a - w, b + w, b - w]:
					performer.surface_add_vertex(v)
			performer.surface_end()
		# The camera follows the headset along the floor, from the same side (or across the
		# headset's facing: its view, helped by its up axis when looking down).
		if profile:
			var flat := -head.basis.z - head.basis.y * (-head.basis.z).y
			flat.y = 0.0
			if flat.length() > 0.1:
				side = flat.normalized().cross(Vector3.UP)
		var at := Vector3(head.origin.x, camera_height, head.origin.z)
		camera.look_at_from_position(at + side * CAMERA_DISTANCE, at, Vector3.UP)

	## Godot transform from the replay's seven numbers (position, then quaternion x, y, z, w).
	static func pose(v: Array) -> Transform3D:
		return Transform3D(Basis(Quaternion(v[3], v[4], v[5], v[6])), Vector3(v[0], v[1], v[2]))


var _options := {}


func _initialize() -> void:
	for a in OS.get_cmdline_user_args():
		var kv := a.trim_prefix("--").split("=", true, 1)
		_options[kv[0]] = kv[1] if kv.size() > 1 else ""
	_run.call_deferred()


func _fail(message: String) -> void:
	printerr("motion strip: " + message)
	quit(1)


func _run() -> void:
	var text := FileAccess.get_file_as_string(_options.get("replay", ""))
	if text.is_empty():
		_fail("no replay (--replay=FILE, written by vr_arms_eval --replay)")
		return
	var replay: Dictionary = JSON.parse_string(text)
	var frames: Array = replay.frames
	var frame_time: float = replay.frame_time
	var panels := int(_options.get("panels", "8"))
	var from := int(float(_options.get("from", "0")) / frame_time)
	var to := mini(int(float(_options.get("to", "1e9")) / frame_time), frames.size() - 1)
	if _options.has("around-lowest"):
		var lowest := 0
		for k in frames.size():
			if Player.pose(frames[k].head).origin.y < Player.pose(frames[lowest].head).origin.y:
				lowest = k
		var either := int(float(_options["around-lowest"]) / frame_time)
		from = maxi(lowest - either, 0)
		to = mini(lowest + either, frames.size() - 1)
	if panels < 1 or from >= to:
		_fail("nothing to show (%d panels, frames %d to %d)" % [panels, from, to])
		return
	var shots := {}
	for i in panels:
		shots[from + int(round(float(to - from) * i / maxf(panels - 1, 1)))] = i

	PhotoStage.build(root)
	var sim := XRTrackingSimulator.new()
	root.add_child(sim)
	var character := CharacterBuilder.build()
	root.add_child(character)
	var skeleton: Skeleton3D = character.get_node("Skeleton3D")
	var body := VRArmsSetup.setup_skeleton(skeleton, null, null)
	if body.is_empty():
		_fail("the one-click setup did not take the demo character")
		return
	body.forearm_twist.left_wrist_twist_bone = "LeftLowerArmTwist"
	body.forearm_twist.right_wrist_twist_bone = "RightLowerArmTwist"

	var player := Player.new()
	player.process_priority = -2000
	player.frames = frames
	if _options.has("seated"):
		player.seat = body.lower_body
	player.profile = _options.has("profile")
	player.hold = int(1.0 / frame_time)
	player.sim = sim
	player.headset = _marker(BoxMesh.new(), HEADSET_COLOR)
	(player.headset.mesh as BoxMesh).size = Vector3(0.17, 0.09, 0.1)
	for k in 2:
		var ball := SphereMesh.new()
		ball.radius = 0.035
		ball.height = 0.07
		player.controllers.append(_marker(ball, CONTROLLER_COLOR))
	player.performer = ImmediateMesh.new()
	player.segments = replay.get("performer_segments", [])
	var lines := _marker(player.performer, PERFORMER_COLOR)
	var line_material := lines.material_override as StandardMaterial3D
	line_material.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	line_material.no_depth_test = true
	line_material.transparency = BaseMaterial3D.TRANSPARENCY_ALPHA
	line_material.cull_mode = BaseMaterial3D.CULL_DISABLED
	player.camera = Camera3D.new()
	player.camera.fov = 40.0
	root.add_child(player.camera)
	player.camera.make_current()
	# Seen from the side: across the walk (first to last headset), or across the way the
	# headset faces at the start when it hardly travels.
	var start := Player.pose(frames[from].head)
	var end := Player.pose(frames[to].head)
	var travel := Vector3(end.origin.x - start.origin.x, 0, end.origin.z - start.origin.z)
	var forward := travel if travel.length() > 0.5 else -start.basis.z
	forward.y = 0
	player.side = forward.normalized().cross(Vector3.UP)
	player.camera_height = CAMERA_HEIGHT * start.origin.y
	var label := Label.new()
	label.add_theme_color_override("font_color", Color(0.1, 0.1, 0.1))
	label.add_theme_font_size_override("font_size", 18)
	label.position = Vector2(10, 6)
	root.add_child(label)
	root.add_child(player)

	var strip: Image = null
	var size := Vector2i.ZERO
	for k in player.hold:
		await process_frame
	for k in to + 1:
		label.text = "%.1f s" % (k * frame_time)
		await process_frame
		if not shots.has(k):
			continue
		await RenderingServer.frame_post_draw
		var image := root.get_texture().get_image()
		if strip == null:
			size = image.get_size()
			strip = Image.create(size.x * panels, size.y, false, image.get_format())
		strip.blit_rect(image, Rect2i(Vector2i.ZERO, size), Vector2i(size.x * shots[k], 0))
	if strip == null:
		_fail("no frame was rendered")
		return
	var out: String = _options.get("out", "strip.png")
	var err := strip.save_png(out)
	if err != OK:
		_fail("cannot write %s: %s" % [out, error_string(err)])
		return
	print("motion strip: %s (%d panels, %.1f to %.1f s of %s)" % [out, panels, from * frame_time, to * frame_time, replay.clip])
	quit(0)


func _marker(mesh: Mesh, color: Color) -> MeshInstance3D:
	return PhotoStage.marker(root, mesh, color)
