## The demo's multiplayer: `--host` listens, `--join=ADDRESS` (default 127.0.0.1) connects, on
## `--port=N` (default 7350), over ENet. Each player's body is sent by a `VRAvatarSync` and the
## other's is shown in the room (and so in the mirror); the other's shots hit the targets here
## too, where the shooter's machine said they hit.
##
## For `cargo xtask net-test`:
## - `--net-record=FILE`: a line a frame, `L clock lx ly lz rx ry rz` (this player's hand bones,
##   with this peer's `VRAvatarSync` clock) and `R peer sender_time playback lx ... rz` per
##   remote avatar (its hand bones, and the sender's time they show); at the end `S key value`
##   lines (the counts, ENet's bytes) and `E sent|played name` per revolver event;
## - `--net-drop=R`, `--net-delay=S`: the receiving path drops a share R of the state packets
##   and delays the rest by up to S seconds;
## - `--quit-when-alone`: the host quits once the last player who joined has left;
## - `--hostile`: join, send malformed and absurd packets, leave.
class_name NetSession
extends Node

## Options of the demo's command line.
var options := {}
## The local player.
var avatar_root: Node3D
var head: Node3D
var left_hand: Node3D
var right_hand: Node3D
var skeleton: Skeleton3D
var revolver: Revolver
var targets: Array = []

var sync: VRAvatarSync
var peer: ENetMultiplayerPeer
var _record: FileAccess
var _sent: Array = []
var _played: Array = []
var _joined := 0
var _pending := {}
## Updates of a remote avatar with its revolver in the hand, and with the muzzle flash showing.
var _gun_shown_frames := 0
var _flash_frames := 0


func start() -> bool:
	var port := int(options.get("port", "7350"))
	peer = ENetMultiplayerPeer.new()
	var err: int
	if options.has("host"):
		err = peer.create_server(port, 32)
	else:
		var address: String = options.get("join", "")
		err = peer.create_client(address if address != "" else "127.0.0.1", port)
	if err != OK:
		printerr("vr_arms demo: cannot %s on port %d (error %d)" % ["host" if options.has("host") else "join", port, err])
		return false
	multiplayer.multiplayer_peer = peer
	if options.has("hostile"):
		multiplayer.connected_to_server.connect(_send_hostile)
		return true
	sync = VRAvatarSync.new()
	sync.name = "VRAvatarSync"
	sync.avatar_root = avatar_root
	sync.head = head
	sync.left_hand = left_hand
	sync.right_hand = right_hand
	sync.revolver = revolver
	sync.remote_avatar_scene = _remote_scene()
	sync.remote_revolver_scene = _packed(RevolverBuilder.build_look())
	sync.test_drop_ratio = float(options.get("net-drop", "0"))
	sync.test_extra_delay_s = float(options.get("net-delay", "0"))
	sync.remote_revolver_event.connect(_on_remote_revolver_event)
	sync.revolver_event_sent.connect(func(e: String): _sent.append(e))
	sync.remote_avatar_added.connect(_on_joined)
	sync.remote_avatar_removed.connect(_on_left)
	add_child(sync)
	if options.has("net-record"):
		_record = FileAccess.open(options["net-record"], FileAccess.WRITE)
		skeleton.skeleton_updated.connect(_record_frame)
	print("vr_arms demo: %s on port %d" % ["hosting" if options.has("host") else "joining %s" % options.get("join", "127.0.0.1"), port])
	return true


func _on_joined(id: int, avatar: Node3D) -> void:
	_joined += 1
	if _record:
		# Read after that skeleton's own modifiers ran.
		var s: Skeleton3D = avatar.get_node("Skeleton3D")
		s.skeleton_updated.connect(_record_remote.bind(id, s))
	print("vr_arms demo: player %d joined" % id)


func _on_left(id: int) -> void:
	print("vr_arms demo: player %d left" % id)
	if options.has("quit-when-alone") and sync.get_remote_peers().is_empty():
		get_parent().call_deferred("_quit", 0)


## What another player looks like here: the demo's own character.
func _remote_scene() -> PackedScene:
	return _packed(CharacterBuilder.build())


func _packed(root: Node) -> PackedScene:
	_own(root, root)
	var scene := PackedScene.new()
	scene.pack(root)
	root.free()
	return scene


func _own(node: Node, root: Node) -> void:
	for c in node.get_children():
		c.owner = root
		_own(c, root)


## The other player shot: their machine decided where it hit; the target here takes it.
func _on_remote_revolver_event(_peer_id: int, event: String, hit: bool, point: Vector3, normal: Vector3) -> void:
	_played.append(event)
	if event != "fire" or not hit:
		return
	for t in targets:
		if is_instance_valid(t) and t.global_position.distance_to(point) < 0.6:
			t.take_damage(revolver.damage, point, normal)
			break


## Malformed packets (short, long, unknown, a rotation no quaternion has, an event that does not
## exist) and a body with a hand 3 m from its head: what a hostile peer sends.
static func hostile_packets() -> Array[PackedByteArray]:
	# The state packet's layout (version 3): docs/multiplayer.md, "The state stream".
	var good := PackedByteArray()
	good.resize(47)
	good[0] = 0x13
	var bad_rotation := good.duplicate()
	for i in range(19, 23):
		bad_rotation[i] = 0xff
	var too_long := good.duplicate()
	too_long.append(0)
	# Head and right hand tracked, the hand 3 m to the side (identity rotations: the smallest
	# three at zero are 511 each, w largest).
	var absurd := good.duplicate()
	absurd[4] = 0b101
	var identity := (3 << 30) | (511 << 20) | (511 << 10) | 511
	absurd[6] = 85  # scale 1.0
	for pose in 3:
		var at := 13 + pose * 10
		absurd.encode_u32(at + 6, identity)
	absurd.encode_s16(13 + 2, int(1.6 * 4096))
	absurd.encode_s16(33, int(3.0 * 4096))
	return [PackedByteArray([0x13, 1]), too_long, PackedByteArray([0x99, 0, 0, 0]), bad_rotation, absurd, PackedByteArray([0x21, 0, 0, 77])]


## Sends the hostile packets to the host, then leaves.
func _send_hostile() -> void:
	for p in hostile_packets():
		multiplayer.send_bytes(p, 1, MultiplayerPeer.TRANSFER_MODE_RELIABLE)
	print("vr_arms demo: hostile packets sent")
	await get_tree().create_timer(0.5).timeout
	get_parent().call_deferred("_quit", 0)


func _line(kind: String, head_fields: Array, s: Skeleton3D) -> String:
	var fields := [kind] + head_fields
	for bone in ["LeftHand", "RightHand"]:
		var p := (s.global_transform * s.get_bone_global_pose(s.find_bone(bone))).origin
		fields.append_array(["%.5f" % p.x, "%.5f" % p.y, "%.5f" % p.z])
	return " ".join(fields)


func _record_frame() -> void:
	if _record == null:
		return
	_record.store_line(_line("L", ["%.5f" % sync.get_clock()], skeleton))


## A skeleton can update more than once in a frame (a read before its modifiers ran makes it
## update early); the last update of the frame is the one drawn, so it is kept and written at the
## start of the next frame.
func _record_remote(id: int, s: Skeleton3D) -> void:
	if _record == null:
		return
	var gun := s.get_node_or_null("RemoteRevolver/RevolverLook") as Node3D
	if gun and gun.visible:
		_gun_shown_frames += 1
		if gun.get_node("MuzzleFlash").visible:
			_flash_frames += 1
	_pending[id] = _line("R", [str(id), "%.5f" % sync.get_remote_sender_time(id), sync.get_remote_playback(id)], s)


func _process(_delta: float) -> void:
	if _record:
		for id in _pending:
			_record.store_line(_pending[id])
	_pending.clear()


## Counts for the test, written at the end.
func finish() -> void:
	if _record == null:
		return
	var stats: Dictionary = sync.get_stats()
	stats["clock"] = sync.get_clock()
	stats["players_joined"] = _joined
	stats["remote_gun_shown_frames"] = _gun_shown_frames
	stats["remote_flash_frames"] = _flash_frames
	var host := peer.get_host() if peer else null
	if host:
		stats["enet_sent_bytes"] = host.pop_statistic(ENetConnection.HOST_TOTAL_SENT_DATA)
		stats["enet_sent_packets"] = host.pop_statistic(ENetConnection.HOST_TOTAL_SENT_PACKETS)
	for k in stats:
		_record.store_line("S %s %s" % [k, stats[k]])
	for e in _sent:
		_record.store_line("E sent %s" % e)
	for e in _played:
		_record.store_line("E played %s" % e)
	_record.close()
	_record = null
