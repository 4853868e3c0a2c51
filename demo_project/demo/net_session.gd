## The demo's multiplayer: `--host` listens, `--join=ADDRESS` (default 127.0.0.1) connects, on
## `--port=N` (default 7350), over ENet. Each player's body is sent by a `VRAvatarSync` and the
## other's is shown in the room (and so in the mirror); the other's shots hit the targets here
## too, where the shooter's machine said they hit.
##
## For `cargo xtask net-test`: `--net-record=FILE` writes one JSON line a frame (the local hand
## bones with this peer's clock; each remote avatar's hand bones with the sender's time they
## show), and `--net-drop=R` / `--net-delay=S` make the receiving path lossy and late.
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
var _events: Array = []


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
	sync = VRAvatarSync.new()
	sync.name = "VRAvatarSync"
	sync.avatar_root = avatar_root
	sync.head = head
	sync.left_hand = left_hand
	sync.right_hand = right_hand
	sync.revolver = revolver
	sync.remote_avatar_scene = _remote_scene()
	sync.test_drop_ratio = float(options.get("net-drop", "0"))
	sync.test_extra_delay_s = float(options.get("net-delay", "0"))
	sync.remote_revolver_event.connect(_on_remote_revolver_event)
	sync.remote_avatar_added.connect(func(id: int, _a: Node3D): print("vr_arms demo: player %d joined" % id))
	sync.remote_avatar_removed.connect(func(id: int): print("vr_arms demo: player %d left" % id))
	add_child(sync)
	if options.has("net-record"):
		_record = FileAccess.open(options["net-record"], FileAccess.WRITE)
		skeleton.skeleton_updated.connect(_record_frame)
	print("vr_arms demo: %s on port %d" % ["hosting" if options.has("host") else "joining %s" % options.get("join", "127.0.0.1"), port])
	return true


## What another player looks like here: the demo's own character.
func _remote_scene() -> PackedScene:
	var character := CharacterBuilder.build()
	_own(character, character)
	var scene := PackedScene.new()
	scene.pack(character)
	character.free()
	return scene


func _own(node: Node, root: Node) -> void:
	for c in node.get_children():
		c.owner = root
		_own(c, root)


## The other player shot: their machine decided where it hit; the target here takes it.
func _on_remote_revolver_event(peer_id: int, event: String, hit: bool, point: Vector3, normal: Vector3) -> void:
	_events.append(event)
	if event != "fire" or not hit:
		return
	for t in targets:
		if is_instance_valid(t) and t.global_position.distance_to(point) < 0.6:
			t.take_damage(revolver.damage, point, normal)
			break


func _bones(s: Skeleton3D) -> Array:
	var out := []
	for bone in ["LeftHand", "RightHand"]:
		var p := (s.global_transform * s.get_bone_global_pose(s.find_bone(bone))).origin
		out.append([p.x, p.y, p.z])
	return out


func _record_frame() -> void:
	if _record == null:
		return
	var line := {"clock": sync.get_clock(), "local": _bones(skeleton), "remote": {}, "stats": {}}
	for id in sync.get_remote_peers():
		var avatar := sync.get_remote_avatar(id)
		var s: Skeleton3D = avatar.get_node("Skeleton3D")
		line.remote[str(id)] = {"sender_time": sync.get_remote_sender_time(id), "playback": sync.get_remote_playback(id), "bones": _bones(s)}
	_record.store_line(JSON.stringify(line))


## Counts for the test, written at the end.
func finish() -> void:
	if _record:
		var stats: Dictionary = sync.get_stats()
		stats["events"] = _events
		stats["peer_id"] = multiplayer.get_unique_id()
		if peer and peer.get_host():
			var host := peer.get_host()
			stats["enet_sent_bytes"] = host.pop_statistic(ENetConnection.HOST_TOTAL_SENT_DATA)
			stats["enet_sent_packets"] = host.pop_statistic(ENetConnection.HOST_TOTAL_SENT_PACKETS)
			stats["enet_received_bytes"] = host.pop_statistic(ENetConnection.HOST_TOTAL_RECEIVED_DATA)
		stats["clock"] = sync.get_clock()
		_record.store_line(JSON.stringify({"final": stats}))
		_record.close()
		_record = null
