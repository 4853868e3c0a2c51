## The vr_arms demo: a room with a mirror, the generated character set up by VRArmsSetup, a
## holstered revolver and three targets. OpenXR when a runtime is there; otherwise desktop mode
## (mouse and keyboard drive simulated tracking).
##
## Command-line options (after `--`):
## - `--autopilot`: play the scripted session (see Autopilot), print a summary and quit;
## - `--screenshots=DIR`: with `--autopilot` and rendering, save mirror screenshots in DIR;
## - `--render-check`: with `--autopilot` and rendering, check that the mirror shows the character;
## - `--loop-seconds=N`: with `--autopilot`, loop the session for at least N seconds (the
##   session under way then finishes);
## - `--move-speed=M`: with `--autopilot`, the hands and head ease to each pose at up to M m/s
##   (and 8 rad/s) as a person would, instead of jumping to it;
## - `--soak`: with `--autopilot`, add random tracking dropouts and hitches and check every bone
##   on every frame (see Soak); with `--loop-seconds` this is the soak test;
## - `--demo-seconds=N`: quit after N seconds;
## - `--xr-smoke-test`: quit with status 0 once an OpenXR session is focused, both controllers
##   are tracked and the hands reached them, and two remote players placed ahead of and behind the
##   headset are at full detail and culled by the eyes' views (status 1 otherwise, or after 90 s);
## - `--host`, `--join=ADDRESS`, `--port=N`: multiplayer (see NetSession): each player sees the
##   other's body, and the other's shots hit the targets for both.
extends Node3D

## Options as on the command line ("autopilot", "screenshots", ...); read from the command line
## when empty at `_ready`.
var options := {}
## Quit when the autopilot or `--demo-seconds` ends (tests keep the tree running).
var quit_when_done := true
## The autopilot's summary once it finished.
var summary := {}

var parts := {}
var body := {}
var gun: Revolver
var holster: HolsterZone
## The holster belt, with the cartridge loops.
var belt: HolsterBelt
var targets: Array = []
var mirror: PlanarMirror
var autopilot: Autopilot
var soak: Soak
var _finished := false
var xr: XRStart
var vr := false
var net: NetSession

var _time := 0.0
var _frames := 0
var _speed := 0.0
var _last_avatar_position := Vector3.ZERO
var _legs: AnimationTree
## The path of the user's own character playing (UserCharacter), or "" for the generated one.
var own_character := ""


func _ready() -> void:
	if options.is_empty():
		options = _parseoptions(OS.get_cmdline_user_args())
	xr = XRStart.new()
	xr.name = "XRStart"
	add_child(xr)
	vr = xr.start()
	parts = XRSetup.make(self, not vr)
	var room := RoomBuilder.build(self)
	mirror = room.mirror
	targets = room.targets
	# The generated character, or one of your own (UserCharacter: --character=PATH).
	var own := {}
	var own_path := UserCharacter.path_from(options)
	if own_path != "":
		own = UserCharacter.load_character(own_path)
	var character: Node3D = own.get("character", null)
	if character == null:
		character = CharacterBuilder.build()
	add_child(character)
	var skeleton: Skeleton3D = own.get("skeleton", character.get_node_or_null("Skeleton3D"))
	parts.skeleton = skeleton
	body = VRArmsSetup.setup_skeleton(skeleton, parts.origin, own.get("bone_map", null))
	if body.is_empty() and not own.is_empty():
		push_error("vr_arms demo: the character \"%s\" could not be set up; the generated one plays" % own_path)
		character.queue_free()
		character = CharacterBuilder.build()
		add_child(character)
		skeleton = character.get_node("Skeleton3D")
		parts.skeleton = skeleton
		body = VRArmsSetup.setup_skeleton(skeleton, parts.origin, null)
	if not own.is_empty() and skeleton == own.skeleton:
		own_character = own_path
	_setup_body(body.avatar, skeleton)
	_setup_revolver()
	# The player's own eyes do not see the inside of the avatar's head (FirstPersonHead, made by
	# the setup); the mirror sees the whole avatar.
	body.first_person_head.exclude_from_camera(mirror.camera)
	var locomotion := Locomotion.new()
	locomotion.name = "Locomotion"
	locomotion.origin = parts.origin
	locomotion.head = parts.camera
	locomotion.left_controller = parts.left
	locomotion.right_controller = parts.right
	add_child(locomotion)
	for c in [parts.left, parts.right]:
		c.button_pressed.connect(_on_button)
	if options.has("host") or options.has("join"):
		_start_net()
	if options.has("autopilot"):
		_start_autopilot()
	elif not vr:
		var desktop := DesktopControls.new()
		desktop.name = "DesktopControls"
		desktop.process_priority = -2000
		desktop.simulator = parts.simulator
		desktop.lower_body = body.get("lower_body")
		desktop.locomotion = locomotion
		desktop.holster = holster
		desktop.gun = gun
		desktop.belt = belt
		desktop.reload_requested.connect(DemoActions.quick_reload.bind(gun))
		add_child(desktop)
	if options.has("xr-smoke-test") and vr:
		xr.session_focused.connect(_check_xr_bound)
	# The player quit from the runtime's own menu.
	xr.session_stopping.connect(get_tree().quit)
	print("vr_arms demo: %s; %s" % ["OpenXR" if vr else "desktop mode (no OpenXR runtime)", "autopilot" if autopilot else "interactive"])


func _parseoptions(args: PackedStringArray) -> Dictionary:
	var out := {}
	for a in args:
		if a.begins_with("--"):
			var kv := a.trim_prefix("--").split("=", true, 1)
			out[kv[0]] = kv[1] if kv.size() > 1 else ""
	return out


## Forearm twist bones, hand-pose animations, leg animations.
func _setup_body(character: Node3D, skeleton: Skeleton3D) -> void:
	var twist = body.forearm_twist
	# The generated character's twist bones (another character may have none, or its own).
	if skeleton.find_bone("LeftLowerArmTwist") >= 0:
		twist.left_wrist_twist_bone = "LeftLowerArmTwist"
		twist.right_wrist_twist_bone = "RightLowerArmTwist"
	var source: Skeleton3D = body.hand_pose_source
	for side in ["Left", "Right"]:
		var player := AnimationPlayer.new()
		player.name = side + "HandPoses"
		player.playback_default_blend_time = 0.12
		source.get_parent().add_child(player)
		player.add_animation_library("", PoseLibrary.hand_library(source, side, String(player.get_node(player.root_node).get_path_to(source))))
		body[side.to_lower() + "_hand_pose"].animation_player = player
	_legs = AnimationTree.new()
	_legs.name = "Legs"
	character.add_child(_legs)
	# The legs swing about the character's left-right axis, in the skeleton's own axes.
	var across := (skeleton.global_basis.inverse() * character.global_basis.x).normalized()
	_legs.add_animation_library("", PoseLibrary.leg_library(skeleton, String(character.get_path_to(skeleton)), across))
	var blend := AnimationNodeBlendSpace1D.new()
	var idle := AnimationNodeAnimation.new()
	idle.animation = "idle"
	var walk := AnimationNodeAnimation.new()
	walk.animation = "walk"
	blend.add_blend_point(idle, 0.0)
	blend.add_blend_point(walk, PoseLibrary.WALK_SPEED)
	blend.min_space = 0.0
	blend.max_space = PoseLibrary.WALK_SPEED
	_legs.tree_root = blend
	_legs.active = true
	# While the thumbstick walks the player, the legs play this walk (the procedural feet step
	# for steps taken in the room).
	if body.get("lower_body") != null:
		body.lower_body.walk_animation_share = 1.0
	_last_avatar_position = character.global_position


func _setup_revolver() -> void:
	var belt := HolsterBelt.new()
	belt.name = "HolsterBelt"
	belt.head = parts.camera
	belt.body_root = body.avatar
	add_child(belt)
	holster = HolsterZone.new()
	holster.name = "Holster"
	holster.transform = Transform3D(RevolverBuilder.holster_basis(), Vector3(-0.2, -0.04, 0.02))
	holster.hand_node = parts.right
	belt.add_child(holster)
	var clear := Marker3D.new()
	clear.name = "DrawClear"
	clear.position = Vector3(0, 0, 0.25)  # 25 cm up: the anchor's Z is the body's up
	holster.add_child(clear)
	holster.draw_clear_point = clear
	holster.add_child(RevolverBuilder.build_holster_mesh())
	# Twelve cartridges in loops on the belt; the left hand takes them to the open gate.
	RevolverBuilder.fill_cartridge_loops(belt)
	self.belt = belt
	var cartridges := CartridgeHand.new()
	cartridges.name = "CartridgeHand"
	cartridges.controller = parts.left
	cartridges.hand_pose = body.left_hand_pose
	add_child(cartridges)
	gun = RevolverBuilder.build()
	gun.hand_controller = parts.right
	gun.hand_attach = parts.right
	gun.support_controller = parts.left
	gun.holster = holster
	gun.controller_targets = body.controller_targets
	gun.router = body.router
	gun.hand_pose = body.right_hand_pose
	gun.support_hand_pose = body.left_hand_pose
	gun.hand = 1
	add_child(gun)
	# Held, the gun follows the visible hand bone after the arm solve (not the controller), so
	# recoil, body avoidance or the reach clamp never pull hand and gun apart.
	var hold := RevolverHold.new()
	hold.name = "RevolverHold"
	hold.revolver = gun
	parts.skeleton.add_child(hold)
	parts.skeleton.move_child(hold, body.hand_pose_copy.get_index())


func _start_net() -> void:
	net = NetSession.new()
	net.name = "NetSession"
	net.options = options
	net.avatar_root = body.avatar
	net.head = parts.camera
	net.left_hand = parts.left
	net.right_hand = parts.right
	net.skeleton = parts.skeleton
	net.revolver = gun
	net.targets = targets
	add_child(net)
	if not net.start():
		get_tree().quit(1)


func _start_autopilot() -> void:
	autopilot = Autopilot.new()
	autopilot.name = "Autopilot"
	autopilot.simulator = parts.simulator
	autopilot.gun = gun
	autopilot.holster = holster
	autopilot.belt = belt
	autopilot.targets = targets
	autopilot.mirror = mirror
	autopilot.loop = options.has("loop-seconds")
	autopilot.render_check = options.has("render-check")
	autopilot.move_speed = float(options.get("move-speed", "0"))
	autopilot.character = body.avatar
	# A character of your own is calibrated first (its arms fitted to the player's reach), under
	# a player name of its own.
	if own_character != "":
		body.calibrator.player_name = "demo_" + own_character.get_file().get_basename().validate_filename()
		autopilot.calibrator = body.calibrator
	if options.has("screenshots"):
		var dir: String = options.screenshots
		DirAccess.make_dir_recursive_absolute(dir)
		autopilot.screenshot_dir = dir
	autopilot.finished.connect(_on_autopilot_finished)
	add_child(autopilot)
	if options.has("soak"):
		soak = Soak.new()
		soak.name = "Soak"
		soak.simulator = parts.simulator
		soak.skeleton = parts.skeleton
		add_child(soak)


func _on_autopilot_finished(result: Dictionary) -> void:
	if _finished:
		return
	_finished = true
	summary = result
	if soak:
		soak.stop()
		summary.soak = soak.report()
		var ok := soak.non_finite_frames == 0 and soak.frames_checked > 0
		print("vr_arms demo soak %s: %.0f s simulated, %s" % ["passed" if ok else "FAILED", summary.seconds, summary.soak])
	print("vr_arms demo autopilot: %d frames, %.1f s of play" % [summary.frames, summary.seconds])
	print("  events: %s" % ", ".join(summary.events))
	print("  targets hit: %d of %d %s" % [summary.targets_hit, targets.size(), summary.hits])
	if summary.screenshots.size() > 0:
		print("  screenshots: %s" % ", ".join(summary.screenshots))
	elif DisplayServer.get_name() == "headless":
		print("  screenshots: none (headless: nothing is rendered)")
	if quit_when_done:
		_quit(0)


func _process(delta: float) -> void:
	_time += delta
	_frames += 1
	# The legs walk at the avatar's horizontal speed (BodyFollow moves it after the head).
	var avatar: Node3D = body.avatar
	if delta > 0.0:
		var moved := avatar.global_position - _last_avatar_position
		moved.y = 0.0
		var speed := moved.length() / delta
		_speed = lerpf(_speed, speed, 1.0 - exp(-delta / 0.15))
	_last_avatar_position = avatar.global_position
	_legs.set("parameters/blend_position", clampf(_speed, 0.0, PoseLibrary.WALK_SPEED))
	if autopilot and autopilot.loop and _time >= float(options["loop-seconds"]):
		# The session under way finishes first: quitting mid-session would leave coroutines.
		autopilot.loop = false
	elif options.has("demo-seconds") and _time >= float(options["demo-seconds"]):
		print("vr_arms demo: %d frames in %.1f s" % [_frames, _time])
		if quit_when_done:
			_quit(0)
	elif options.has("xr-smoke-test") and _time > 90.0:
		printerr("vr_arms demo: the OpenXR smoke test did not reach a focused session with both controllers tracked")
		get_tree().quit(1)


## Quits cleanly: sounds still playing would hold their streams past the exit.
func _quit(code: int) -> void:
	if net:
		net.finish()
	for c in gun.get_children():
		if c is AudioStreamPlayer3D:
			c.stop()
			c.stream = null
	# The audio server lets go of stopped playbacks on its own (real-time) mixing thread.
	for i in 3:
		OS.delay_msec(20)
		await get_tree().process_frame
	get_tree().quit(code)


func _on_button(button: String) -> void:
	match button:
		"by_button":
			DemoActions.toggle_gate(gun)
		"ax_button":
			DemoActions.reset_targets(targets)
			RevolverBuilder.fill_cartridge_loops(belt)


## The smoke test: wait until both controllers carry tracking data, let the body settle on
## them for a second, check that each hand bone is at its controller, then quit cleanly.
func _check_xr_bound() -> void:
	for i in 600:
		if parts.left.get_has_tracking_data() and parts.right.get_has_tracking_data():
			break
		await get_tree().process_frame
	if not (parts.left.get_has_tracking_data() and parts.right.get_has_tracking_data()):
		printerr("vr_arms demo: XR smoke test failed: the controllers never got tracking data")
		get_tree().quit(1)
		return
	var settle := 0.0
	while settle < 1.0:
		await get_tree().process_frame
		settle += get_process_delta_time()
	var s: Skeleton3D = parts.skeleton
	# After the modifiers ran: in _process the skeleton shows its unmodified pose.
	await s.skeleton_updated
	var gaps := []
	for side in ["left", "right"]:
		var hand := (s.global_transform * s.get_bone_global_pose(s.find_bone(side.capitalize() + "Hand"))).origin
		gaps.append(hand.distance_to(parts[side].global_position))
	var ok: bool = gaps[0] < 0.15 and gaps[1] < 0.15
	var culled: String = await _check_xr_views()
	print("vr_arms demo: XR smoke test %s: session focused, controllers bound (left %s, right %s), wrists %.3f and %.3f m from them; %s" % ["passed" if ok and culled.is_empty() else "FAILED", parts.left.global_position, parts.right.global_position, gaps[0], gaps[1], "remote players culled by the eyes' views" if culled.is_empty() else culled])
	get_tree().quit(0 if ok and culled.is_empty() else 1)


## The levels of detail see through the headset's two eyes: a remote player 3 m ahead of where
## the XR camera looks is at full detail, one 3 m behind it is off (no eye sees it; the mirror's
## camera is left out of the views for the check). What is wrong, or an empty string.
func _check_xr_views() -> String:
	var camera: Node3D = parts.camera
	# Only the eyes: the mirror's camera (in the views' group) would see the player behind.
	var others := get_tree().get_nodes_in_group("vr_arms_views")
	for n in others:
		n.remove_from_group("vr_arms_views")
	var forward := -camera.global_transform.basis.z
	forward.y = 0.0
	forward = forward.normalized() if forward.length() > 0.1 else Vector3.FORWARD
	var bodies := {}
	for side in [1.0, -1.0]:
		var character := Node3D.new()
		add_child(character)
		var skeleton := HumanoidBuilder.build()
		character.add_child(skeleton)
		var made := VRArmsSetup.setup_remote(skeleton, null, null, null)
		var at: Vector3 = camera.global_position + forward * 3.0 * side
		at.y = 0.0
		(made.head as Node3D).global_position = at + Vector3(0, 1.65, 0)
		(made.left_hand as Node3D).global_position = at + Vector3(0.25, 1.2, 0.0)
		(made.right_hand as Node3D).global_position = at + Vector3(-0.25, 1.2, 0.0)
		bodies[side] = made.body
	for i in 10:
		await get_tree().process_frame
	var ahead: int = (bodies[1.0] as VRRemoteBody).get_detail_level()
	var behind: int = (bodies[-1.0] as VRRemoteBody).get_detail_level()
	for n in others:
		n.add_to_group("vr_arms_views")
	if ahead == VRArms.BodyDetail.FULL and behind == VRArms.BodyDetail.OFF:
		return ""
	return "remote players' levels through the eyes wrong: ahead %d (want FULL), behind %d (want OFF)" % [ahead, behind]
