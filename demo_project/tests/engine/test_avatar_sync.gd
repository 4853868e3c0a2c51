## VRAvatarSync between two multiplayer APIs in one process, over real ENet on 127.0.0.1: the
## client's body on the host, the revolver's events once and in order, hostile packets dropped,
## a departure cleaned up. (The multi-process test is `cargo xtask net-test`.)
extends EngineTest

const DELAY := 0.1

var _added: Array = []
var _removed: Array = []
var _events: Array = []


func _on_added(peer_id: int, avatar: Node3D) -> void:
	_added.append([peer_id, avatar])


func _on_removed(peer_id: int) -> void:
	_removed.append(peer_id)


func _on_event(peer_id: int, event: String, hit: bool, point: Vector3, normal: Vector3) -> void:
	_events.append([event, hit, point])


## A character scene: a Node3D root with a humanoid skeleton.
func _avatar_scene() -> PackedScene:
	return HumanoidBuilder.build_scene("RemoteCharacter")


## A remote revolver's look: a mesh, a muzzle flash and a shot sound.
func _gun_scene() -> PackedScene:
	var gun := Node3D.new()
	gun.name = "Gun"
	for part in ["Mesh", "MuzzleFlash"]:
		var n := Node3D.new()
		n.name = part
		gun.add_child(n)
		n.owner = gun
	gun.get_node("MuzzleFlash").visible = false
	var sound := AudioStreamPlayer3D.new()
	sound.name = "ShotSound"
	var tone := AudioStreamGenerator.new()
	sound.stream = tone
	gun.add_child(sound)
	sound.owner = gun
	var scene := PackedScene.new()
	scene.pack(gun)
	gun.free()
	return scene


## A local player under `parent`: a root, a head and two hands standing still (plain nodes), and
## the VRAvatarSync that sends them ("sync"; "root", "points" head, left, right).
func _standing_player(parent: Node, scene: PackedScene = null) -> Dictionary:
	var root := Node3D.new()
	parent.add_child(root)
	var points := []
	for p in [Vector3(0, 1.62, 0), Vector3(-0.25, 1.2, -0.35), Vector3(0.25, 1.2, -0.35)]:
		var n := Node3D.new()
		parent.add_child(n)
		n.global_position = p
		points.append(n)
	var sync := VRAvatarSync.new()
	sync.avatar_root = root
	sync.head = points[0]
	sync.left_hand = points[1]
	sync.right_hand = points[2]
	sync.remote_avatar_scene = scene
	parent.add_child(sync)
	return {"sync": sync, "root": root, "points": points}


## A host showing a client's standing player (`_standing_player`) over ENet: the pair
## (`_host_and_client`) with the player and `connected`, true once they are.
func _watched_player() -> Dictionary:
	var pair := _host_and_client()
	pair.player = _standing_player(pair.client)
	var receiver := VRAvatarSync.new()
	receiver.remote_avatar_scene = _avatar_scene()
	receiver.remote_avatar_added.connect(_on_added)
	(pair.host as Node3D).add_child(receiver)
	pair.connected = await _connect(pair.host_peer, pair.client_peer)
	return pair


## Closes both peers of `pair` and takes their multiplayer APIs off the tree.
func _close(pair: Dictionary) -> void:
	for p in [pair.client_peer, pair.host_peer]:
		(p as ENetMultiplayerPeer).close()
	for n in [pair.host, pair.client]:
		get_tree().set_multiplayer(null, (n as Node).get_path())


## A subtree with its own multiplayer API and ENet peer.
func _side(side_name: String, peer: ENetMultiplayerPeer) -> Node3D:
	var node := Node3D.new()
	node.name = side_name
	add_child(node)
	var api := SceneMultiplayer.new()
	get_tree().set_multiplayer(api, node.get_path())
	api.multiplayer_peer = peer
	return node


## A host and a client on a free port, each a subtree with its own multiplayer API
## ("host_peer", "client_peer", "host", "client"); they connect over the next frames.
func _host_and_client() -> Dictionary:
	var port := _free_port()
	var host_peer := ENetMultiplayerPeer.new()
	check(host_peer.create_server(port, 4) == OK, "host listens on %d" % port)
	var client_peer := ENetMultiplayerPeer.new()
	check(client_peer.create_client("127.0.0.1", port) == OK, "client connects")
	return {"host_peer": host_peer, "client_peer": client_peer, "host": _side("Host", host_peer), "client": _side("Client", client_peer)}


func _free_port() -> int:
	return 20000 + (Time.get_ticks_usec() % 20000)


func _connect(host_peer: ENetMultiplayerPeer, client_peer: ENetMultiplayerPeer) -> bool:
	for i in 600:
		await frames(1)
		if client_peer.get_connection_status() == MultiplayerPeer.CONNECTION_CONNECTED and host_peer.get_connection_status() == MultiplayerPeer.CONNECTION_CONNECTED:
			return true
	return false


func test_the_clients_body_moves_on_the_host() -> void:
	var pair := _host_and_client()
	var host_peer: ENetMultiplayerPeer = pair.host_peer
	var client_peer: ENetMultiplayerPeer = pair.client_peer
	var host: Node3D = pair.host
	var client: Node3D = pair.client

	# The client's local player: a root and three plain tracked nodes.
	var root := Node3D.new()
	root.name = "Player"
	root.position = Vector3(3.0, 0.0, -2.0)
	client.add_child(root)
	var head := Node3D.new()
	var left := Node3D.new()
	var right := Node3D.new()
	for n in [head, left, right]:
		client.add_child(n)
	var sender := VRAvatarSync.new()
	sender.avatar_root = root
	sender.head = head
	sender.left_hand = left
	sender.right_hand = right
	client.add_child(sender)

	var receiver := VRAvatarSync.new()
	receiver.remote_avatar_scene = _avatar_scene()
	receiver.remote_revolver_scene = _gun_scene()
	receiver.remote_avatar_added.connect(_on_added)
	receiver.remote_avatar_removed.connect(_on_removed)
	receiver.remote_revolver_event.connect(_on_event)
	host.add_child(receiver)
	check(await _connect(host_peer, client_peer), "connected")

	# The player faces -Z with the hands in front; the right hand sweeps side to side.
	var history: Array = []  # [time, right hand position]
	var errors: Array[float] = []
	var bone_gaps: Array[float] = []
	var worst_step := 0.0
	var last_bone := Vector3.INF
	var seen_waiting := false
	var wrong_visibility := 0
	var t := 0.0
	for frame in 360:
		t += get_process_delta_time() if frame > 0 else 0.0
		head.global_transform = Transform3D(Basis(), root.global_position + Vector3(0, 1.62, 0))
		left.global_transform = Transform3D(Basis(), root.global_position + Vector3(-0.25, 1.2, -0.35))
		right.global_transform = Transform3D(Basis(), root.global_position + Vector3(0.25 + 0.15 * sin(t * 3.0), 1.2, -0.35))
		history.append([t, right.global_position])
		await frames(1)
		if _added.is_empty():
			continue
		var avatar: Node3D = _added[0][1]
		var skeleton: Skeleton3D = avatar.get_node("Skeleton3D")
		# Hidden until its first state plays (no rest pose that jumps to the player), seen in
		# the frame it was drawn (a body that has not solved yet may not update its skeleton).
		var waiting: bool = receiver.get_remote_playback(_added[0][0]) == "waiting"
		seen_waiting = seen_waiting or waiting
		if avatar.get_parent().visible == waiting:
			wrong_visibility += 1
		await skeleton.skeleton_updated
		var bone := bone_global_position(skeleton, "RightHand")
		var node: Node3D = avatar.get_parent().get_node("RightHand")
		if frame > 120:
			# Where the client's hand was one interpolation delay ago.
			var then := t - DELAY
			var was: Vector3 = history[0][1]
			for h in history:
				if h[0] <= then:
					was = h[1]
			errors.append(node.global_position.distance_to(was))
			bone_gaps.append(bone.distance_to(node.global_position))
			if last_bone != Vector3.INF:
				worst_step = maxf(worst_step, bone.distance_to(last_bone))
		last_bone = bone
	check(_added.size() == 1 and _added[0][0] == client.multiplayer.get_unique_id(), "one avatar, the client's: %s" % [_added])
	errors.sort()
	var p95: float = errors[int(errors.size() * 0.95)] if not errors.is_empty() else INF
	check(p95 < 0.01, "the remote right controller is within 1 cm of the client's one delay earlier (95th percentile %.4f m over %d frames)" % [p95, errors.size()])
	bone_gaps.sort()
	check(not bone_gaps.is_empty() and bone_gaps[-1] < 0.08, "the remote body's right hand follows it (%.4f m at most)" % (bone_gaps[-1] if not bone_gaps.is_empty() else INF))
	check(worst_step < 0.05, "no step over 5 cm between frames (%.4f m)" % worst_step)
	check(seen_waiting and wrong_visibility == 0, "the avatar is hidden while it waits for its first state, shown after (%d frames wrong)" % wrong_visibility)
	var stats: Dictionary = receiver.get_stats()
	check(stats.state_packets_accepted > 80, "packets played: %s" % [stats])
	var sent: Dictionary = sender.get_stats()
	# About 30 a second of 47 bytes (no hand tracking: no finger curls).
	check(sent.state_packets_sent > 80 and sent.state_bytes_sent == sent.state_packets_sent * 47, "30 Hz of 47-byte packets: %s" % [sent])

	# Revolver events, once and in order.
	sender.send_revolver_event("draw", false, Vector3.ZERO, Vector3.ZERO)
	sender.send_revolver_event("cock", false, Vector3.ZERO, Vector3.ZERO)
	sender.send_revolver_event("fire", true, Vector3(1, 1.2, -8), Vector3(0, 0, 1))
	sender.send_revolver_event("holster", false, Vector3.ZERO, Vector3.ZERO)
	# The remote revolver plays the shot one interpolation delay later, with the body.
	var gun: Node3D = _added[0][1].get_node("Skeleton3D/RemoteRevolver/Gun")
	var flash: Node3D = gun.get_node("MuzzleFlash")
	var mesh: Node3D = gun.get_node("Mesh")
	var arrived_at := -1.0
	var flashed_at := -1.0
	var kicked := false
	var clock0: float = receiver.get_clock()
	for i in 60:
		await frames(1)
		if arrived_at < 0.0 and _events.size() >= 3:
			arrived_at = receiver.get_clock()
		if flashed_at < 0.0 and flash.visible:
			flashed_at = receiver.get_clock()
			kicked = mesh.transform != Transform3D.IDENTITY and gun.get_node("ShotSound").playing
	check(not gun.visible, "the gun is not shown in the hand of a player who holds none")
	check(arrived_at >= clock0 and flashed_at >= arrived_at + DELAY - 0.02 and flashed_at < arrived_at + DELAY + 0.1, "the muzzle flash shows one delay after the shot arrived (arrived %.3f s, flash %.3f s)" % [arrived_at - clock0, flashed_at - clock0])
	check(kicked, "the shot sounds and kicks the gun's mesh")
	var off := mesh.transform
	check(not flash.visible and off.origin.length() < 0.001 and off.basis.get_rotation_quaternion().angle_to(Quaternion()) < deg_to_rad(0.1), "the flash is over and the mesh back at rest (within 1 mm and 0.1 degrees): %s" % off)
	var names := _events.map(func(e): return e[0])
	check(names == ["draw", "cock", "fire", "holster"], "events once, in order: %s" % [names])
	check(_events.size() == 4 and _events[2][1] and _events[2][2].is_equal_approx(Vector3(1, 1.2, -8)), "the shot's hit point arrives")

	# Hostile packets from the client: each dropped and counted, no bone moved to a bad place.
	var api: SceneMultiplayer = client.multiplayer
	for p in NetSession.hostile_packets():
		api.send_bytes(p, 1, MultiplayerPeer.TRANSFER_MODE_RELIABLE)
	await frames(10)
	stats = receiver.get_stats()
	check(stats.dropped_truncated == 1 and stats.dropped_oversized == 1 and stats.dropped_wrong_kind == 1 and stats.dropped_corrupt == 2 and stats.dropped_absurd == 1, "each hostile packet dropped and counted: %s" % [stats])
	var skeleton: Skeleton3D = _added[0][1].get_node("Skeleton3D")
	await skeleton.skeleton_updated
	var hand := bone_global_position(skeleton, "RightHand")
	check(hand.is_finite() and hand.distance_to(right.global_position) < 0.3, "the hand is still by the client's (%s)" % hand)


	# The client leaves: its avatar goes, with its nodes.
	var holder: Node = _added[0][1].get_parent()
	client_peer.close()
	for i in 120:
		await frames(1)
		if not _removed.is_empty():
			break
	await frames(2)
	check(_removed.size() == 1, "removed once: %s" % [_removed])
	check(not is_instance_valid(holder), "the avatar's nodes are freed")
	check(receiver.get_remote_peers().is_empty(), "no remote peers left")
	host_peer.close()
	get_tree().set_multiplayer(null, host.get_path())
	get_tree().set_multiplayer(null, client.get_path())


## OpenXR joints of a left hand laid along -Z (palm down, so the thumb toward +X), 3 cm
## segments, each joint of finger `f` (thumb, index, middle, ring, little) bent toward the palm
## by `bend_deg[f]`.
func _tracked_hand(bend_deg: Array) -> Array:
	var firsts := [2, 6, 11, 16, 21]
	var joints := []
	joints.resize(26)
	joints.fill(Vector3(0, 1.2, -0.3))
	for f in 5:
		var p := Vector3(0.04 - 0.02 * f, 1.2, -0.32)
		var dir := Vector3.FORWARD
		var following := 3 if f == 0 else 4
		joints[firsts[f]] = p
		for k in range(1, following + 1):
			if k > 1:
				dir = dir.rotated(Vector3.RIGHT, -deg_to_rad(bend_deg[f]))
			p += dir * 0.03
			joints[firsts[f] + k] = p
	return joints


func test_hand_tracked_fingers_curl_the_remote_avatars_fingers() -> void:
	# The sender: a local player whose left hand the runtime hand-tracks (a simulated
	# XRHandTracker): index straight, middle bent 60 degrees at each joint. Its packets are
	# handed to the receiver directly (`get_state_packet` / `receive_packet`), no network.
	var player := _standing_player(self)
	var sender: VRAvatarSync = player.sync
	var points: Array = player.points
	var root: Node3D = player.root
	var receiver := VRAvatarSync.new()
	receiver.remote_avatar_scene = _avatar_scene()
	receiver.remote_avatar_added.connect(_on_added)
	add_child(receiver)
	var tracker := XRHandTracker.new()
	tracker.name = &"/user/hand_tracker/left"
	tracker.hand = XRPositionalTracker.TRACKER_HAND_LEFT
	var joints := _tracked_hand([0.0, 0.0, 60.0, 0.0, 0.0])
	for i in 26:
		tracker.set_hand_joint_transform(i, Transform3D(Basis(), joints[i]))
		tracker.set_hand_joint_flags(i, XRHandTracker.HAND_JOINT_FLAG_POSITION_VALID)
	tracker.has_tracking_data = true
	XRServer.add_tracker(tracker)

	var sizes := {}
	for i in 40:
		var packet: PackedByteArray = sender.get_state_packet()
		sizes[packet.size()] = true
		receiver.receive_packet(7, packet)
		await frames(1)
	check(sizes.keys() == [53], "packets carry the finger curls while the hand is tracked (sizes %s)" % [sizes.keys()])
	check(_added.size() == 1, "one remote avatar")
	var skeleton: Skeleton3D = _added[0][1].get_node("Skeleton3D")
	await skeleton.skeleton_updated
	# Grip and trigger are 0 (plain nodes, no controller): only the tracked hand curls.
	check_near(curl_of(skeleton, "LeftMiddleProximal"), 60.0, 1.0, "the remote middle finger bends 60 degrees at each joint, as the tracked one")
	check_near(curl_of(skeleton, "LeftMiddleDistal"), 60.0, 1.0, "its last joint too")
	check_near(curl_of(skeleton, "LeftIndexProximal"), 0.0, 0.5, "the straight index stays straight")
	check_near(curl_of(skeleton, "RightMiddleProximal"), 0.0, 0.5, "the other hand, not tracked, stays open")

	# The crowd budget reaches the avatars already shown.
	var body: VRRemoteBody = skeleton.get_children().filter(func(n): return n is VRRemoteBody)[0]
	check(body.update_interval_frames == 1, "remote bodies solve every frame by default")
	receiver.remote_update_interval_frames = 3
	await frames(2)
	check(body.update_interval_frames == 3, "remote_update_interval_frames is the remote bodies' budget")
	var solved: int = body.get_solved_frames()
	for i in 30:
		receiver.receive_packet(7, sender.get_state_packet())
		await frames(1)
	var solved_in_30: int = body.get_solved_frames() - solved
	check(solved_in_30 >= 9 and solved_in_30 <= 11, "and it solves one frame in three (%d of 30)" % solved_in_30)
	# Out of its 1-8 range: one error, and the nearest value is used.
	expect_errors(1)
	receiver.remote_update_interval_frames = 0
	await frames(3)
	check(receiver.remote_update_interval_frames == 1 and body.update_interval_frames == 1, "0 is taken as 1 (%d)" % receiver.remote_update_interval_frames)

	# Tracking stops: plain 47-byte packets, and the fingers fade back to the open hand.
	XRServer.remove_tracker(tracker)
	sizes.clear()
	for i in 40:
		var packet: PackedByteArray = sender.get_state_packet()
		sizes[packet.size()] = true
		receiver.receive_packet(7, packet)
		await frames(1)
	await skeleton.skeleton_updated
	check(sizes.keys() == [47], "no curls once tracking stops (sizes %s)" % [sizes.keys()])
	check_near(curl_of(skeleton, "LeftMiddleProximal"), 0.0, 0.5, "the middle finger opens again")
	receiver.remove_peer(7)
	await frames(2)
	check(receiver.get_remote_peers().is_empty(), "remove_peer removes the avatar")
	for n in [root, sender, receiver] + points:
		n.queue_free()


## A dedicated server (no player of its own, no bodies drawn) between two clients: SceneMultiplayer
## relays each client's stream and events to the other, under the sender's own peer id.
func test_a_dedicated_server_relays_each_clients_body_and_events() -> void:
	var port := _free_port()
	var server_peer := ENetMultiplayerPeer.new()
	check(server_peer.create_server(port, 4) == OK, "server listens on %d" % port)
	var a_peer := ENetMultiplayerPeer.new()
	var b_peer := ENetMultiplayerPeer.new()
	check(a_peer.create_client("127.0.0.1", port) == OK and b_peer.create_client("127.0.0.1", port) == OK, "clients connect")
	var server := _side("Server", server_peer)
	var a := _side("ClientA", a_peer)
	var b := _side("ClientB", b_peer)

	# The server's node: no local player, no remote scene (as docs/multiplayer.md sets it up).
	var relay := VRAvatarSync.new()
	expect_warnings(1)  # no remote_avatar_scene: bodies are not drawn here, said once
	server.add_child(relay)
	# Client A plays; client B watches.
	var player := _standing_player(a, _avatar_scene())
	var sender: VRAvatarSync = player.sync
	var points: Array = player.points
	var watcher := VRAvatarSync.new()
	watcher.remote_avatar_scene = _avatar_scene()
	watcher.remote_avatar_added.connect(_on_added)
	watcher.remote_revolver_event.connect(_on_event)
	b.add_child(watcher)
	for i in 600:
		await frames(1)
		if a_peer.get_connection_status() == MultiplayerPeer.CONNECTION_CONNECTED and b_peer.get_connection_status() == MultiplayerPeer.CONNECTION_CONNECTED:
			break
	var a_id := a.multiplayer.get_unique_id()
	for i in 120:
		await frames(1)
		if not _added.is_empty():
			break
	await seconds(0.5)
	check(_added.size() == 1 and _added[0][0] == a_id, "client B shows one avatar, client A's (peer %d): %s" % [a_id, _added])
	var node: Node3D = _added[0][1].get_parent().get_node("RightHand") if not _added.is_empty() else null
	check(node != null and node.global_position.distance_to(points[2].global_position) < 0.01, "at A's right hand")
	check(relay.get_remote_peers().is_empty(), "the server draws no bodies")
	check(sender.get_remote_peers().is_empty(), "A gets no avatar of the server, which sends nothing")
	sender.send_revolver_event("draw", false, Vector3.ZERO, Vector3.ZERO)
	sender.send_revolver_event("fire", true, Vector3(1, 1.2, -8), Vector3(0, 0, 1))
	for i in 120:
		await frames(1)
		if _events.size() == 2:
			break
	check(_events.map(func(e): return e[0]) == ["draw", "fire"], "A's events reach B through the server, in order: %s" % [_events])
	for p in [a_peer, b_peer, server_peer]:
		p.close()
	for n in [server, a, b]:
		get_tree().set_multiplayer(null, n.get_path())


func test_an_avatar_appears_settled() -> void:
	var pair := _host_and_client()
	var host_peer: ENetMultiplayerPeer = pair.host_peer
	var client_peer: ENetMultiplayerPeer = pair.client_peer
	var host: Node3D = pair.host
	var client: Node3D = pair.client
	# A player standing still, both hands out to the right: the body turns toward them.
	var player := _standing_player(client)
	var points: Array = player.points
	points[1].global_position = Vector3(0.2, 1.25, -0.35)
	points[2].global_position = Vector3(0.5, 1.1, -0.15)
	var receiver := VRAvatarSync.new()
	receiver.remote_avatar_scene = _avatar_scene()
	receiver.remote_avatar_added.connect(_on_added)
	host.add_child(receiver)
	check(await _connect(host_peer, client_peer), "connected")
	var shown: Array = []  # the right hand bone, each frame the avatar is shown
	var yaws: Array = []  # the avatar root's yaw
	for i in 240:
		await frames(1)
		if _added.is_empty():
			continue
		var avatar: Node3D = _added[0][1]
		var skeleton: Skeleton3D = avatar.get_node("Skeleton3D")
		await skeleton.skeleton_updated
		if avatar.is_visible_in_tree():
			shown.append(bone_global_position(skeleton, "RightHand"))
			yaws.append(avatar.global_basis.get_euler().y)
		if shown.size() >= 60:
			break
	check(shown.size() == 60, "the avatar was shown for 60 frames (%d)" % shown.size())
	var worst := 0.0
	for k in range(1, shown.size()):
		worst = maxf(worst, shown[k].distance_to(shown[k - 1]))
	# (Before: the body started facing the head's way and swung toward the hands, and the
	# hands eased in from rest: 2-3 cm a frame.)
	check(worst < 0.003, "a still player's remote hand holds still from its first shown frame (largest step %.4f m)" % worst)
	check(not yaws.is_empty() and absf(yaws[0] - yaws[-1]) < deg_to_rad(0.5) and absf(yaws[0]) > deg_to_rad(3.0), "the body stands turned toward the hands from the start (%s to %s rad)" % [yaws.front(), yaws.back()])
	check(shown[0].distance_to(points[2].global_position) < 0.03, "the hand is at the player's (%.4f m off)" % shown[0].distance_to(points[2].global_position))
	for p in [client_peer, host_peer]:
		p.close()
	for n in [host, client]:
		get_tree().set_multiplayer(null, n.get_path())


## A player who sits (the game told the sender: `local_seated`) sits on the other peers: the
## host's remote body takes `seated` from the stream, its feet ahead of its hips, and stands
## when the player does.
func test_a_remote_player_sits_from_the_stream() -> void:
	var pair := await _watched_player()
	check(pair.connected, "connected")
	var points: Array = pair.player.points
	var sender: VRAvatarSync = pair.player.sync
	# The player (facing -Z) sits down: the head 45 cm lower, the hands on the lap.
	sender.local_seated = true
	points[0].global_position = Vector3(0, 1.17, -0.05)
	points[1].global_position = Vector3(-0.2, 0.75, -0.35)
	points[2].global_position = Vector3(0.2, 0.75, -0.35)
	for i in 150:
		await frames(1)
	check(not _added.is_empty(), "the client's avatar is on the host")
	if _added.is_empty():
		return
	var avatar: Node3D = _added[0][1]
	var skeleton: Skeleton3D = avatar.get_node("Skeleton3D")
	var body: VRRemoteBody = skeleton.get_children().filter(func(n): return n is VRRemoteBody)[0]
	await skeleton.skeleton_updated
	# Ahead is -Z: the player faces -Z.
	var ahead := bone_global_position(skeleton, "Hips").z - bone_global_position(skeleton, "LeftFoot").z
	check(body.is_sitting() and not body.seated, "the remote body sits from the stream (its own `seated` left to the game)")
	check(ahead > 0.3, "seated, its feet ahead of its hips (%.2f m)" % ahead)
	sender.local_seated = false
	points[0].global_position = Vector3(0, 1.62, 0)
	points[1].global_position = Vector3(-0.25, 1.2, -0.35)
	points[2].global_position = Vector3(0.25, 1.2, -0.35)
	for i in 150:
		await frames(1)
	await skeleton.skeleton_updated
	ahead = bone_global_position(skeleton, "Hips").z - bone_global_position(skeleton, "LeftFoot").z
	check(not body.is_sitting(), "standing up, it stands")
	check(absf(ahead) < 0.15, "standing, its feet under the body (%.2f m)" % ahead)
	_close(pair)


## A remote player crouches from the stream alone (the stream carries the head and hands, not
## the legs): the host's avatar brings its eyes down onto the player's head with bent knees and
## its feet on the floor; and the packets are no larger for it.
func test_a_remote_player_crouches_from_the_stream() -> void:
	var pair := await _watched_player()
	check(pair.connected, "connected")
	var player: Dictionary = pair.player
	var points: Array = player.points
	# The player (facing -Z) crouches 40 cm, the hands coming down with the head.
	var head: Node3D = points[0]
	head.global_position = Vector3(0, 1.22, -0.05)
	points[1].global_position = Vector3(-0.25, 0.8, -0.35)
	points[2].global_position = Vector3(0.25, 0.8, -0.35)
	for i in 150:
		await frames(1)
	check(not _added.is_empty(), "the client's avatar is on the host")
	if _added.is_empty():
		return
	var avatar: Node3D = _added[0][1]
	var skeleton: Skeleton3D = avatar.get_node("Skeleton3D")
	await skeleton.skeleton_updated
	var eyes := (bone_global_position(skeleton, "LeftEye") + bone_global_position(skeleton, "RightEye")) * 0.5
	# The avatar's local head node is where the stream puts the player's head.
	var remote_head: Node3D = avatar.get_parent().get_node("Head")
	check(remote_head.global_position.distance_to(head.global_position) < 0.01, "the stream put the head where the player's is (%.4f m)" % remote_head.global_position.distance_to(head.global_position))
	check(eyes.distance_to(remote_head.global_position) < 0.01, "the remote avatar's eyes on the player's head (%.1f cm off)" % (eyes.distance_to(remote_head.global_position) * 100.0))
	var u := bone_global_position(skeleton, "LeftUpperLeg")
	var l := bone_global_position(skeleton, "LeftLowerLeg")
	var f := bone_global_position(skeleton, "LeftFoot")
	var knee := rad_to_deg((l - u).angle_to(f - l))
	check(knee > 40.0, "its knees bent (%.0f degrees)" % knee)
	var rest_ankle: float = skeleton.get_bone_global_rest(skeleton.find_bone("LeftFoot")).origin.y
	check(absf(f.y - avatar.global_position.y - rest_ankle) < 0.01, "its feet on the floor (ankle %.1f cm off its standing height)" % ((f.y - avatar.global_position.y - rest_ankle) * 100.0))
	var sent: Dictionary = (player.sync as VRAvatarSync).get_stats()
	check(sent.state_bytes_sent == sent.state_packets_sent * 47, "47-byte packets as standing: %s" % [sent])
	_close(pair)
