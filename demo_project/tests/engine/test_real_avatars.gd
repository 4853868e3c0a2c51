## Characters made by others (tests/avatars, README there: sources and licences), loaded at run
## time as glTF and set up through the documented route for their rig: upright, facing the
## player, each hand on its controller and held as the player's hand holds it, elbows out of
## the torso, fingers curling toward the palm.
extends EngineTest

const AVATARS := "res://tests/avatars/"
## Hand off its controller (m), visible hand off the player's hand (degrees).
const MAX_HAND_M := 0.005
const MAX_HAND_DEG := 10.0


## The character in `file` loaded as glTF under a holder, set up by the route the docs give
## for its rig: `vrm` passes the VRM file's humanoid table as the bone map, else the bone
## names are recognised. Returns setup_skeleton's dictionary plus "skeleton", "simulator".
func _load(file: String, vrm: bool, before_setup := Callable()) -> Dictionary:
	var character := load_test_avatar(file)
	if character == null:
		return {}
	# The skeleton with the most bones (spring bones may come as skeletons of their own).
	var skeleton: Skeleton3D = null
	for found in character.find_children("*", "Skeleton3D", true, false):
		if skeleton == null or found.get_bone_count() > skeleton.get_bone_count():
			skeleton = found
	if before_setup.is_valid():
		before_setup.call(skeleton)
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	sim.set_head_pose(Transform3D(Basis(), Vector3(0, 1.65, 0)))
	var map: BoneMap = VRArmsSetup.bone_map_from_vrm(AVATARS + file) if vrm else null
	var b := VRArmsSetup.setup_skeleton(skeleton, null, map)
	if not check(not b.is_empty(), "%s: set up" % file):
		var names := []
		for i in skeleton.get_bone_count():
			names.append(skeleton.get_bone_name(i))
		print("%s bones: %s" % [file, names])
		return {}
	b.merge({"skeleton": skeleton, "simulator": sim, "file": file})
	return b


## The body's up and forward as the skeleton shows it (hips to head; the shoulders' line).
func _body_axes(s: Skeleton3D) -> Dictionary:
	var l := bone_global_position(s, "LeftUpperArm")
	var r := bone_global_position(s, "RightUpperArm")
	var up := (bone_global_position(s, "Head") - bone_global_position(s, "Hips")).normalized()
	return {"up": up, "forward": (l - r).cross(up).normalized(), "left": l, "right": r}


## Controller poses for the player in front of the avatar's own shoulders, scaled by its arm
## length (poses the avatar can reach): at the sides, reach forward, crossed, hand on the belly,
## hand behind the head, aiming with two hands. The player looks down -Z.
func _poses(b: Dictionary) -> Dictionary:
	var rig: VRArmRig = b.rig
	var sl := rig.get_shoulder_global_position(0)
	var sr := rig.get_shoulder_global_position(1)
	var arm := rig.get_arm_length(0) * (b.skeleton as Skeleton3D).global_basis.get_scale().x
	var mid := (sl + sr) * 0.5
	var fwd := Vector3(0, 0, -1)
	# Away from the body's midline, for each side.
	var out_l := (sl - mid).normalized()
	var out_r := (sr - mid).normalized()
	var aim := Basis.looking_at(fwd, Vector3.UP)
	var p := {}
	var side_l := sl + out_l * 0.15 * arm + Vector3(0, -0.85 * arm, -0.1 * arm)
	var side_r := sr + out_r * 0.15 * arm + Vector3(0, -0.85 * arm, -0.1 * arm)
	p["at sides"] = [Transform3D(Basis(), side_l), Transform3D(Basis(), side_r)]
	p["reach forward"] = [Transform3D(Basis(), sl + fwd * 0.85 * arm), Transform3D(Basis(), sr + fwd * 0.85 * arm)]
	p["crossed"] = [Transform3D(Basis.from_euler(Vector3(0, -0.8, 0)), mid + Vector3(0.25 * arm, -0.15 * arm, -0.55 * arm)), Transform3D(Basis.from_euler(Vector3(0, 0.8, 0)), mid + Vector3(-0.25 * arm, -0.25 * arm, -0.5 * arm))]
	p["hand on belly"] = [Transform3D(Basis.from_euler(Vector3(0, -1.2, 0)), mid + Vector3(0.05 * arm, -0.55 * arm, -0.35 * arm)), Transform3D(Basis(), side_r)]
	p["hand behind head"] = [Transform3D(Basis.from_euler(Vector3(1.2, 0, 0)), mid + Vector3(-0.15 * arm, 0.45 * arm, 0.1 * arm)), Transform3D(Basis(), side_r)]
	p["aiming two hands"] = [Transform3D(aim, mid + Vector3(0.03 * arm, -0.05 * arm, -0.75 * arm)), Transform3D(aim, mid + Vector3(-0.02 * arm, -0.02 * arm, -0.8 * arm))]
	return p


## A hand without fingers (a fist or a mitten, on a bone that ends in a tip bone): the angle
## between where it points (the hand bone to its tip, the fist's middle) and the controller's
## forward, the way the player's fingers point around the grip.
func _fist_pointing_deg(s: Skeleton3D, side: String, controller: Basis) -> float:
	var hand := s.find_bone(side + "Hand")
	var tips := s.get_bone_children(hand)
	if not check(tips.size() > 0, "%s hand: a tip bone to see where the fist points" % side):
		return 180.0
	var tip := (s.global_transform * s.get_bone_global_pose(tips[0])).origin
	return rad_to_deg((tip - bone_global_position(s, side + "Hand")).angle_to(-controller.z))


## The elbow's distance from the spine's line (hips to neck), per unit of half the shoulders'
## span: under 1 is inside the shoulders' width, deep under it inside the torso.
func _elbow_out(s: Skeleton3D, side: String) -> float:
	var hips := bone_global_position(s, "Hips")
	var neck := bone_global_position(s, "Neck" if s.find_bone("Neck") >= 0 else "Head")
	var axis := (neck - hips).normalized()
	var e := bone_global_position(s, side + "LowerArm") - hips
	var half := bone_global_position(s, "LeftUpperArm").distance_to(bone_global_position(s, "RightUpperArm")) * 0.5
	return (e - axis * e.dot(axis)).length() / half


func _check_avatar(file: String, vrm: bool, leave_out: Array = [], before_setup := Callable(), naming := "") -> void:
	var b := await _load(file, vrm, before_setup)
	if b.is_empty():
		return
	if naming != "":
		check(String(b.get("rig_naming", "")).contains(naming), "%s: recognised as %s (%s)" % [file, naming, b.get("rig_naming", "")])
	var s: Skeleton3D = b.skeleton
	var sim: XRTrackingSimulator = b.simulator
	await seconds(1.0)
	await s.skeleton_updated
	var axes := _body_axes(s)
	check(axes.up.dot(Vector3.UP) > 0.95, "%s stands upright (hips to head %s)" % [file, axes.up])
	check(axes.forward.dot(Vector3(0, 0, -1)) > 0.95, "%s faces where the player looks, -Z (it faces %s)" % [file, axes.forward])
	check(bone_global_position(s, "Head").distance_to(b.camera.global_position) < 0.25, "%s: the head is at the headset (%.2f m off)" % [file, bone_global_position(s, "Head").distance_to(b.camera.global_position)])
	# Standing, the feet under the hip joints (the avatar's own width), not set as wide as the
	# legs leave room for: KayKit's stood 5.6 cm wider, Mannequiny's 19.5, Godette's 15.5.
	var ankles := bone_global_position(s, "LeftFoot").distance_to(bone_global_position(s, "RightFoot"))
	var hips := bone_global_position(s, "LeftUpperLeg").distance_to(bone_global_position(s, "RightUpperLeg"))
	check(absf(ankles - hips) < 0.02, "%s standing: the ankles %.1f cm apart, the hip joints %.1f" % [file, ankles * 100.0, hips * 100.0])
	var poses := _poses(b)
	for name in poses:
		if name in leave_out:
			continue
		sim.set_hand_pose(VRArms.Hand.LEFT, poses[name][0])
		sim.set_hand_pose(VRArms.Hand.RIGHT, poses[name][1])
		await seconds(0.5)
		await s.skeleton_updated
		for side in ["Left", "Right"]:
			var controller: Node3D = b[side.to_lower() + "_controller"]
			var off := bone_global_position(s, side + "Hand").distance_to(controller.global_position)
			var reach := bone_global_position(s, side + "UpperArm").distance_to(controller.global_position) / ((b.rig as VRArmRig).get_arm_length(0 if side == "Left" else 1) * s.global_basis.get_scale().x)
			if not check(off <= MAX_HAND_M, "%s, %s: %s hand %.1f mm off its controller (at most %.0f; the controller at %.2f of the arm's reach)" % [file, name, side, off * 1000.0, MAX_HAND_M * 1000.0, reach]):
				var m: Dictionary = b.markers
				var sd: String = side.to_lower()
				var at := func(k: String) -> Vector3: return VRArmTargets.global_position_of(m[sd + "_" + k]) - controller.global_position
				print("  from the controller: raw %s avoided %s clamped %s final %s hand %s" % [at.call("raw"), at.call("avoided"), at.call("clamped"), at.call("final"), bone_global_position(s, side + "Hand") - controller.global_position])
			if s.find_bone(side + "MiddleProximal") >= 0:
				var angle := angle_deg(palm_transform(s, side).basis, controller.global_basis)
				check(angle <= MAX_HAND_DEG, "%s, %s: the %s hand is turned %.1f deg from the player's hand on the controller (at most %.0f)" % [file, name, side, angle, MAX_HAND_DEG])
			else:
				var pointing := _fist_pointing_deg(s, side, controller.global_basis)
				check(pointing <= MAX_HAND_DEG, "%s, %s: the %s fist points %.1f deg from the controller's forward (at most %.0f)" % [file, name, side, pointing, MAX_HAND_DEG])
			var out := _elbow_out(s, side)
			check(out > 0.55, "%s, %s: the %s elbow stays out of the torso (%.2f half-shoulder spans from the spine)" % [file, name, side, out])
	if s.find_bone("LeftMiddleDistal") >= 0:
		await _check_fingers_curl(b, poses)
	await _check_crouch(b)


## Fingers curl toward the palm on grip.
func _check_fingers_curl(b: Dictionary, poses: Dictionary) -> void:
	var s: Skeleton3D = b.skeleton
	var sim: XRTrackingSimulator = b.simulator
	var file: String = b.file
	sim.set_hand_pose(VRArms.Hand.LEFT, poses["reach forward"][0])
	sim.set_hand_pose(VRArms.Hand.RIGHT, poses["reach forward"][1])
	var tips := {}
	for grip in [0, 1]:
		sim.set_input(VRArms.Hand.LEFT, "grip", float(grip))
		sim.set_input(VRArms.Hand.RIGHT, "grip", float(grip))
		await seconds(0.5)
		await s.skeleton_updated
		for side in ["Left", "Right"]:
			var palm := palm_transform(s, side)
			var normal := palm.basis.x * (1.0 if side == "Left" else -1.0)
			var tip := bone_global_position(s, side + "MiddleDistal")
			tips[side + "%d" % grip] = (tip - palm.origin).dot(normal)
	for side in ["Left", "Right"]:
		var moved: float = tips[side + "1"] - tips[side + "0"]
		check(moved > 0.01, "%s: the %s middle finger curls toward the palm on grip (%.1f mm)" % [file, side, moved * 1000.0])


## The knee's bend in degrees (thigh against shin).
func _knee_deg(s: Skeleton3D, side: String) -> float:
	var u := bone_global_position(s, side + "UpperLeg")
	var l := bone_global_position(s, side + "LowerLeg")
	return rad_to_deg((l - u).angle_to(bone_global_position(s, side + "Foot") - l))


## The player crouches by a quarter of the avatar's standing head height, hands reaching
## forward: the avatar's head goes down with the headset (its offset from the headset as standing,
## within 1 cm), its feet stay on the floor (ankles within 1 cm of their standing heights), its
## knees bend and its hands stay on the controllers. Kneeling is off: held this long, a chibi's
## crouch is low enough to kneel, which lifts the kneeling ankle onto its toes.
func _check_crouch(b: Dictionary) -> void:
	(b.lower_body as LowerBodyRig).kneel = false
	var s: Skeleton3D = b.skeleton
	var sim: XRTrackingSimulator = b.simulator
	var file: String = b.file
	var camera: Node3D = b.camera
	var poses := _poses(b)
	var stand := camera.global_transform
	sim.set_head_pose(stand)
	sim.set_hand_pose(VRArms.Hand.LEFT, poses["reach forward"][0])
	sim.set_hand_pose(VRArms.Hand.RIGHT, poses["reach forward"][1])
	await seconds(1.0)
	await s.skeleton_updated
	var head_off := bone_global_position(s, "Head") - camera.global_position
	var ankles := [bone_global_position(s, "LeftFoot").y, bone_global_position(s, "RightFoot").y]
	var origin: Node3D = b.origin
	var drop := 0.25 * (bone_global_position(s, "Head").y - origin.global_position.y)
	var down := Vector3(0, -drop, 0)
	sim.set_head_pose(stand.translated(down))
	sim.set_hand_pose(VRArms.Hand.LEFT, poses["reach forward"][0].translated(down))
	sim.set_hand_pose(VRArms.Hand.RIGHT, poses["reach forward"][1].translated(down))
	await seconds(1.5)
	await s.skeleton_updated
	var moved := (bone_global_position(s, "Head") - camera.global_position).distance_to(head_off)
	check(moved < 0.01, "%s, crouching %.0f cm: the head goes down with the headset (%.1f cm off its standing place under it)" % [file, drop * 100.0, moved * 100.0])
	for i in 2:
		var side: String = ["Left", "Right"][i]
		var ankle := bone_global_position(s, side + "Foot").y
		check(absf(ankle - ankles[i]) < 0.01, "%s, crouching: the %s ankle stays on the floor (%.1f cm from its standing height)" % [file, side, (ankle - ankles[i]) * 100.0])
		check(_knee_deg(s, side) > 30.0, "%s, crouching: the %s knee bends (%.0f degrees)" % [file, side, _knee_deg(s, side)])
		var controller: Node3D = b[side.to_lower() + "_controller"]
		var off := bone_global_position(s, side + "Hand").distance_to(controller.global_position)
		check(off <= MAX_HAND_M, "%s, crouching: the %s hand on its controller (%.1f mm)" % [file, side, off * 1000.0])
	sim.set_head_pose(stand)


func test_mixamo_style_rig_by_its_names() -> void:
	await _check_avatar("mixamo_style.glb", false)


func test_ready_player_me_style_rig_by_its_names() -> void:
	await _check_avatar("rpm_style.glb", false)


## The Ready Player Me-style rig's bones (and its skin's binds) renamed by `to(name)` (a name
## `to` returns unchanged stays), before the setup: another family's rig of the same body.
func _renamed(to: Callable) -> Callable:
	return func(s: Skeleton3D) -> void:
		var names := {}
		for b in s.get_bone_count():
			var from := s.get_bone_name(b)
			names[from] = to.call(from)
			s.set_bone_name(b, names[from])
		for m in s.find_children("*", "MeshInstance3D", true, false):
			if m.skin == null:
				continue
			var skin: Skin = m.skin.duplicate()
			for i in skin.get_bind_count():
				skin.set_bind_name(i, names.get(String(skin.get_bind_name(i)), skin.get_bind_name(i)))
			m.skin = skin


## A Mixamo-without-prefix name's side ("Left", "Right" or ""), and the rest.
func _side_of(name: String) -> Array:
	for side in ["Left", "Right"]:
		if name.begins_with(side):
			return [side, name.trim_prefix(side)]
	return ["", name]


## Another family's name for a Mixamo-without-prefix name: `central` for the spine's bones,
## `prefix` (called with "Left" or "Right") then `parts` for a side's limbs, `prefix` then the
## finger's part (`Index1`) with each of `fingers`' words replaced for its fingers; each
## finger's fourth (tip) bone a name no naming knows.
func _family_name(name: String, central: Dictionary, prefix: Callable, parts: Dictionary, fingers: Dictionary) -> String:
	if central.has(name):
		return central[name]
	var sided := _side_of(name)
	if sided[0] == "":
		return name
	var rest: String = sided[1]
	if parts.has(rest):
		return prefix.call(sided[0]) + parts[rest]
	if rest.begins_with("Hand") and rest.length() > 4:
		if rest.ends_with("4"):
			return "tip_" + name
		var finger := rest.trim_prefix("Hand")
		for word in fingers:
			finger = finger.replace(word, fingers[word])
		return prefix.call(sided[0]) + finger
	return name


## VRoid Studio's names (a VRoid avatar exported without its VRM table).
func _vroid_name(name: String) -> String:
	return _family_name(name,
		{"Hips": "J_Bip_C_Hips", "Spine": "J_Bip_C_Spine", "Spine1": "J_Bip_C_Chest", "Spine2": "J_Bip_C_UpperChest", "Neck": "J_Bip_C_Neck", "Head": "J_Bip_C_Head"},
		func(side: String) -> String: return "J_Bip_%s_" % side.left(1),
		{"Shoulder": "Shoulder", "Arm": "UpperArm", "ForeArm": "LowerArm", "Hand": "Hand", "UpLeg": "UpperLeg", "Leg": "LowerLeg", "Foot": "Foot", "ToeBase": "ToeBase"},
		{"Pinky": "Little"})


## Character Creator 4's names.
func _cc_name(name: String) -> String:
	return _family_name(name,
		{"Hips": "CC_Base_Hip", "Spine": "CC_Base_Waist", "Spine1": "CC_Base_Spine01", "Spine2": "CC_Base_Spine02", "Neck": "CC_Base_NeckTwist01", "Head": "CC_Base_Head", "root": "CC_Base_BoneRoot"},
		func(side: String) -> String: return "CC_Base_%s_" % side.left(1),
		{"Shoulder": "Clavicle", "Arm": "Upperarm", "ForeArm": "Forearm", "Hand": "Hand", "UpLeg": "Thigh", "Leg": "Calf", "Foot": "Foot", "ToeBase": "ToeBase"},
		{"Middle": "Mid"})


## Daz Genesis 8's names (the bend bones; the body has no twist bones).
func _daz_name(name: String) -> String:
	return _family_name(name,
		{"Hips": "hip", "Spine": "abdomenLower", "Spine1": "chestLower", "Spine2": "chestUpper", "Neck": "neckLower", "Head": "head"},
		func(side: String) -> String: return side.left(1).to_lower(),
		{"Shoulder": "Collar", "Arm": "ShldrBend", "ForeArm": "ForearmBend", "Hand": "Hand", "UpLeg": "ThighBend", "Leg": "Shin", "Foot": "Foot", "ToeBase": "Toe"},
		{"Middle": "Mid"})


## A VRoid export without its VRM table, a Character Creator and a Daz Genesis character (the
## Ready Player Me-style body under each's bone names, the skin's binds renamed with them):
## recognised by their names, each stands, faces the player and puts its hands on the
## controllers as the others do.
func test_a_vroid_rig_by_its_names() -> void:
	await _check_avatar("rpm_style.glb", false, [], _renamed(_vroid_name), "VRoid")


func test_a_character_creator_rig_by_its_names() -> void:
	await _check_avatar("rpm_style.glb", false, [], _renamed(_cc_name), "Character Creator")


func test_a_daz_genesis_rig_by_its_names() -> void:
	await _check_avatar("rpm_style.glb", false, [], _renamed(_daz_name), "Daz")


## KayKit's mannequin: no neck, no shoulder bones, no fingers, a tip bone after each wrist.
## Its arms are short for its thick torso: crossed, the forearm cue put the right elbow where
## the player's slimmer body has room, 0.45 half shoulder spans from the spine's line, in its
## belly; the elbow now turns out to the torso's surface (`elbow_torso.rs`).
func test_kaykit_mannequin_by_its_names() -> void:
	await _check_avatar("manny_med_mod.gltf", false)


## KayKit's mannequin with each foot moved from under its shin to under its root bone, where
## it is drawn as before (its rest and pose kept in place): a game rig whose feet were IK
## targets when it was made (Quaternius' characters are exported so).
func _feet_under_root(s: Skeleton3D) -> void:
	_under_root(s, ["foot.l", "foot.r"])


## Each of the bones `names` moved under the skeleton's root bone, drawn where it was (its
## rest and pose kept in place).
func _under_root(s: Skeleton3D, names: Array) -> void:
	var root := s.find_bone("root")
	for name in names:
		var bone := s.find_bone(name)
		var rest := s.get_bone_global_rest(bone)
		var pose := s.get_bone_global_pose(bone)
		s.set_bone_parent(bone, root)
		s.set_bone_rest(bone, s.get_bone_global_rest(root).affine_inverse() * rest)
		var local := s.get_bone_global_pose(root).affine_inverse() * pose
		s.set_bone_pose_position(bone, local.origin)
		s.set_bone_pose_rotation(bone, local.basis.get_rotation_quaternion())


## A rig whose feet hang from its root, not from its shins, still gets its legs solved: each
## foot is put where its shin ends, crouching and stepping, and the body crouches on its legs
## with the player. Before,
## the setup left such a rig without a lower body ("foot.l" is not a child of its lower leg),
## and the body stood tall, frozen in its rest stance, while the player crouched.
func test_a_rig_whose_feet_hang_from_its_root_crouches_on_its_legs() -> void:
	var b := await _load("manny_med_mod.gltf", false, _feet_under_root)
	if b.is_empty():
		return
	var s: Skeleton3D = b.skeleton
	check(s.get_bone_parent(s.find_bone("LeftFoot")) == s.find_bone("root"), "the left foot hangs from the root")
	if not check(b.get("lower_body") != null, "feet under the root: the setup gives the body its legs"):
		return
	await seconds(1.0)
	await s.skeleton_updated
	# Standing, each foot where its shin ends, as at rest: its place in the shin's frame.
	var in_shin := func(side: String) -> Vector3:
		var knee := s.global_transform * s.get_bone_global_pose(s.find_bone(side + "LowerLeg"))
		return knee.affine_inverse() * bone_global_position(s, side + "Foot")
	var shin := {}
	for side in ["Left", "Right"]:
		shin[side] = in_shin.call(side)
	# Crouched by a quarter of the head's height: each foot where its shin ends.
	(b.lower_body as LowerBodyRig).kneel = false
	var sim: XRTrackingSimulator = b.simulator
	var stand: Transform3D = (b.camera as Node3D).global_transform
	var down := 0.25 * (bone_global_position(s, "Head").y - (b.origin as Node3D).global_position.y)
	sim.set_head_pose(stand.translated(Vector3(0, -down, 0)))
	await seconds(1.5)
	await s.skeleton_updated
	for side in ["Left", "Right"]:
		var now: Vector3 = in_shin.call(side)
		check(now.distance_to(shin[side]) < 0.002, "feet under the root, crouching: the %s foot where its shin ends (%.1f cm off, in the shin's frame %s, standing %s)" % [side, now.distance_to(shin[side]) * 100.0, now, shin[side]])
		check(_knee_deg(s, side) > 30.0, "feet under the root, crouching: the %s knee bends (%.0f degrees)" % [side, _knee_deg(s, side)])
	sim.set_head_pose(stand)
	await seconds(1.0)
	# Walked 60 cm ahead: the feet step there, each carried by its shin.
	var feet_before := [bone_global_position(s, "LeftFoot"), bone_global_position(s, "RightFoot")]
	for k in 30:
		sim.set_head_pose(stand.translated(Vector3(0, 0, -0.02 * (k + 1))))
		await seconds(1.0 / 30.0)
	await seconds(1.5)
	await s.skeleton_updated
	for i in 2:
		var side: String = ["Left", "Right"][i]
		var moved := bone_global_position(s, side + "Foot").distance_to(feet_before[i])
		check(moved > 0.3, "feet under the root, walked 60 cm: the %s foot stepped (%.0f cm)" % [side, moved * 100.0])
		var now: Vector3 = in_shin.call(side)
		check(now.distance_to(shin[side]) < 0.002, "feet under the root, walked: the %s foot where its shin ends (%.1f cm off)" % [side, now.distance_to(shin[side]) * 100.0])
	sim.set_head_pose(stand)
	await seconds(1.5)
	# And the crouch as every test character's: head down with the headset, ankles on the
	# floor, knees bent, hands on the controllers.
	await _check_crouch(b)


## KayKit's mannequin with both thighs moved from under its hips to under its root bone (a
## game rig's `Root` > `UpperLeg.L`, as Quaternius' `Casual` is made).
func _thighs_under_root(s: Skeleton3D) -> void:
	_under_root(s, ["upperleg.l", "upperleg.r"])


## The test character `file`, changed by `before_setup`, set up as a remote body (`setup_remote`);
## null when it cannot be.
func _load_remote_of(file: String, before_setup: Callable) -> VRRemoteBody:
	var character := load_test_avatar(file)
	if character == null:
		return null
	var skeleton: Skeleton3D = character.find_children("*", "Skeleton3D", true, false)[0]
	before_setup.call(skeleton)
	var made := VRArmsSetup.setup_remote(skeleton, null, null, null)
	if not check(not made.is_empty(), "%s: set up as a remote body" % file):
		return null
	await seconds(0.2)
	return made.body


## A rig whose thighs hang from its floor-level root beside the hips (Quaternius' game rigs:
## `Root` > `Hips`, `Root` > `UpperLeg.L`): the thighs are carried with the hips, so in a crouch
## each hip joint stays where the hips hold it, and the body crouches on bent legs. Before, the
## hips went down 60 cm without the thighs, and the trousers stretched from the hips up to
## the standing thighs. A remote body (rotations only) says it gives such a rig no lower body.
func test_a_rig_whose_thighs_hang_from_its_root_crouches_with_them() -> void:
	var b := await _load("manny_med_mod.gltf", false, _thighs_under_root)
	if b.is_empty():
		return
	var s: Skeleton3D = b.skeleton
	check(s.get_bone_parent(s.find_bone("LeftUpperLeg")) == s.find_bone("root"), "the left thigh hangs from the root")
	if not check(b.get("lower_body") != null, "thighs under the root: the setup gives the body its legs"):
		return
	await seconds(1.0)
	await s.skeleton_updated
	var in_hips := func(side: String) -> Vector3:
		var hips := s.global_transform * s.get_bone_global_pose(s.find_bone("Hips"))
		return hips.affine_inverse() * bone_global_position(s, side + "UpperLeg")
	var standing := {}
	for side in ["Left", "Right"]:
		standing[side] = in_hips.call(side)
	var hips_standing := bone_global_position(s, "Hips")
	(b.lower_body as LowerBodyRig).kneel = false
	var sim: XRTrackingSimulator = b.simulator
	var stand: Transform3D = (b.camera as Node3D).global_transform
	var down := 0.25 * (bone_global_position(s, "Head").y - (b.origin as Node3D).global_position.y)
	sim.set_head_pose(stand.translated(Vector3(0, -down, 0)))
	await seconds(1.5)
	await s.skeleton_updated
	var hips_drop := hips_standing.y - bone_global_position(s, "Hips").y
	check(hips_drop > 0.1, "thighs under the root, crouching: the hips come down (%.0f cm)" % (hips_drop * 100.0))
	for side in ["Left", "Right"]:
		var now: Vector3 = in_hips.call(side)
		check(now.distance_to(standing[side]) < 0.002, "thighs under the root, crouching: the %s hip joint where the hips hold it (%.1f cm off)" % [side, now.distance_to(standing[side]) * 100.0])
	sim.set_head_pose(stand)
	await seconds(1.5)
	await _check_crouch(b)
	var remote := await _load_remote_of("manny_med_mod.gltf", _thighs_under_root)
	if remote == null:
		return
	var problems := " ".join(remote.get_setup_problems())
	check("upper legs do not hang from the hips" in problems, "a remote body says it gives the rig no lower body: %s" % problems)


## The same rig walked with the thumbstick while the user's walk animation has half of the legs
## (`walk_animation_share` 0.5; the animation bends the left knee 60 degrees): the shin is
## halfway between the two, and the foot, which hangs from the root, still ends it. Before, the
## foot's place was blended on its own, halfway between the animation's and the body's, and
## left the shin.
func test_a_foot_hanging_from_the_root_ends_its_shin_while_a_walk_animation_blends() -> void:
	var b := await _load("manny_med_mod.gltf", false, _feet_under_root)
	if b.is_empty() or not check(b.get("lower_body") != null, "feet under the root: legs"):
		return
	var s: Skeleton3D = b.skeleton
	var rig: LowerBodyRig = b.lower_body
	var shin := s.find_bone("LeftLowerLeg")
	var bent: Quaternion = s.get_bone_rest(shin).basis.get_rotation_quaternion() * Quaternion(Vector3.RIGHT, deg_to_rad(60.0))
	play_held_pose(s.get_parent(), s, "LeftLowerLeg", bent)
	await seconds(1.0)
	await s.skeleton_updated
	var knee := func() -> Transform3D:
		return s.global_transform * s.get_bone_global_pose(shin)
	var in_shin: Vector3 = knee.call().affine_inverse() * bone_global_position(s, "LeftFoot")
	rig.walk_animation_share = 0.5
	var origin: Node3D = b.origin
	var worst := 0.0
	var bend := 0.0
	for i in 60:
		origin.global_position += Vector3(0, 0, 1.0 / 60.0)
		await frames(1)
		await s.skeleton_updated
		if i >= 20:
			var now: Vector3 = knee.call().affine_inverse() * bone_global_position(s, "LeftFoot")
			worst = maxf(worst, now.distance_to(in_shin))
			bend = maxf(bend, _knee_deg(s, "Left"))
	check(bend > 20.0, "half the walk animation's bend reaches the knee (%.0f degrees)" % bend)
	check(worst < 0.002, "walking half on the animation, the foot ends its shin (%.1f cm off at most)" % [worst * 100.0])


func test_unreal_style_mannequin_by_its_names() -> void:
	await _check_avatar("mannequiny.glb", false)


func test_vrm0_by_its_humanoid_table() -> void:
	await _check_avatar("Godette_vrm_v4.vrm", true)


func test_vrm1_by_its_humanoid_table() -> void:
	await _check_avatar("VRMConstraintTest_vrm1.vrm", true)


## Godette's arms are short for her height (a chibi): fitted to the player's height alone, her
## hands stop short of controllers a player reaches easily. A calibration with the arms out
## lengthens them (`fit_arm_length`, on by default) so they reach; with it off they do not.
func _reach_after_calibration(fit: bool) -> Dictionary:
	var b := await _load("Godette_vrm_v4.vrm", true)
	var s: Skeleton3D = b.skeleton
	var sim: XRTrackingSimulator = b.simulator
	var cal: AvatarCalibrator = b.calibrator
	var rig: VRArmRig = b.rig
	cal.player_name = "test_real_avatars_arms"
	cal.fit_arm_length = fit
	await seconds(1.0)
	# In the skeleton's own units: the avatar's scale changes with the calibration too.
	var before := rig.get_arm_length(1)
	# The player: eyes at 1.65 m, arms out, the controllers 1.8 m apart (a reach of 0.72 m
	# from each shoulder).
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), Vector3(-0.9, 1.45, 0)))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), Vector3(0.9, 1.45, 0)))
	cal.start_calibration()
	await seconds(1.5)
	var after := rig.get_arm_length(1)
	# Reach straight ahead to 0.7 m from the shoulder: within this player's reach.
	var shoulder := rig.get_shoulder_global_position(1)
	var target := shoulder + Vector3(0, 0, -0.7)
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(Basis(), target))
	await seconds(0.5)
	await s.skeleton_updated
	var off := bone_global_position(s, "RightHand").distance_to(target)
	DirAccess.remove_absolute(ProjectSettings.globalize_path(cal.get_calibration_path()))
	return {"before": before, "after": after, "off": off, "scale": cal.get_arm_length_scale()}


func test_a_short_armed_avatar_reaches_once_its_arms_are_fitted() -> void:
	var fitted := await _reach_after_calibration(true)
	check(fitted.scale > 1.15, "the calibration lengthened the arms (x%.2f)" % fitted.scale)
	check_near(fitted.after / fitted.before, fitted.scale, 0.01, "the rig's arms are that much longer (%.3f -> %.3f skeleton units)" % [fitted.before, fitted.after])
	check(fitted.off <= MAX_HAND_M, "the hand reaches the controller (%.1f mm off)" % (fitted.off * 1000.0))


func test_without_fitting_a_short_armed_avatar_stops_short() -> void:
	var kept := await _reach_after_calibration(false)
	check(kept.scale == 1.0, "the arms keep their length (x%.2f)" % kept.scale)
	check(kept.off > 0.03, "the hand stops short of the controller (%.1f mm off)" % (kept.off * 1000.0))


## A remote player's avatar made by someone else (`setup_remote`, as `VRAvatarSync` sets up the
## avatars of other players): recognised by its names, stood up facing where its head looks,
## its hands on the tracked hands.
func test_a_remote_avatar_made_by_others_stands_and_reaches() -> void:
	var doc := GLTFDocument.new()
	var state := GLTFState.new()
	check(doc.append_from_file(AVATARS + "mixamo_style.glb", state) == OK, "loads")
	var character: Node3D = doc.generate_scene(state)
	add_child(character)
	var skeleton: Skeleton3D = character.find_children("*", "Skeleton3D", true, false)[0]
	var made := VRArmsSetup.setup_remote(skeleton, null, null, null)
	if not check(not made.is_empty(), "set up as a remote body"):
		return
	var head: Node3D = made.head
	var left: Node3D = made.left_hand
	var right: Node3D = made.right_hand
	# The remote player looks down -Z from 1.5 m (the avatar keeps its own size here).
	head.global_transform = Transform3D(Basis(), Vector3(0, 1.5, 0))
	await seconds(0.5)
	await skeleton.skeleton_updated
	var axes := _body_axes(skeleton)
	check(axes.up.dot(Vector3.UP) > 0.95, "upright (%s)" % axes.up)
	check(axes.forward.dot(Vector3(0, 0, -1)) > 0.95, "faces where its head looks (%s)" % axes.forward)
	var sl := bone_global_position(skeleton, "LeftUpperArm")
	var sr := bone_global_position(skeleton, "RightUpperArm")
	var arm := bone_global_position(skeleton, "LeftUpperArm").distance_to(bone_global_position(skeleton, "LeftLowerArm")) + bone_global_position(skeleton, "LeftLowerArm").distance_to(bone_global_position(skeleton, "LeftHand"))
	var mid := (sl + sr) * 0.5
	# Reaching forward; then the left hand behind the head (where body-space limits in metres,
	# read in a centimetre skeleton's units, would push it away).
	var poses := [
		[Transform3D(Basis.from_euler(Vector3(0.3, 0.2, 0)), sl + Vector3(0, -0.3 * arm, -0.5 * arm)), Transform3D(Basis.from_euler(Vector3(0.2, -0.4, 0)), sr + Vector3(0, -0.2 * arm, -0.55 * arm))],
		[Transform3D(Basis.from_euler(Vector3(1.2, 0, 0)), mid + Vector3(-0.15 * arm, 0.45 * arm, 0.1 * arm)), Transform3D(Basis(), sr + Vector3(0, -0.2 * arm, -0.55 * arm))],
		[Transform3D(Basis.from_euler(Vector3(0, -1.2, 0)), mid + Vector3(0.05 * arm, -0.55 * arm, -0.3 * arm)), Transform3D(Basis.from_euler(Vector3(0, 1.2, 0)), mid + Vector3(-0.05 * arm, -0.5 * arm, -0.3 * arm))],
	]
	for i in poses.size():
		var pose: Array = poses[i]
		left.global_transform = pose[0]
		right.global_transform = pose[1]
		await seconds(1.0)
		await skeleton.skeleton_updated
		for side in ["Left", "Right"]:
			var node: Node3D = left if side == "Left" else right
			var off := bone_global_position(skeleton, side + "Hand").distance_to(node.global_position)
			check(off < 0.01, "%s hand on its tracked hand (%.1f mm)" % [side, off * 1000.0])
			var angle := angle_deg(palm_transform(skeleton, side).basis, node.global_basis)
			check(angle <= MAX_HAND_DEG, "the %s hand turned as the tracked one (%.1f deg)" % [side, angle])
			var out := _elbow_out(skeleton, side)
			check(out > 0.75, "the %s elbow stays out of the torso (%.2f half-shoulder spans from the spine)" % [side, out])
			# Both hands on the belly: the elbow hints' push away from the body (within 0.3 m,
			# 0.2 m outward, in the avatar's metres, not the skeleton's centimetres) holds the
			# elbows well out to the sides.
			if i == 2:
				check(out > 1.5, "hands on the belly: the %s elbow pushed out to the side (%.2f half-shoulder spans)" % [side, out])


## A character facing away inside its root, whose rest pose leans a little (the head ahead of
## the hips, one shoulder lower, as people model them): the setup turns it round by a half turn
## and nothing more; the lean is the character's own.
func test_only_an_imports_quarter_turns_are_undone_not_a_rest_poses_lean() -> void:
	var holder := Node3D.new()
	add_child(holder)
	var skeleton := HumanoidBuilder.build()
	var head := skeleton.find_bone("Head")
	var rest := skeleton.get_bone_rest(head)
	skeleton.set_bone_rest(head, Transform3D(rest.basis, rest.origin + Vector3(0, 0, 0.08)))
	var arm := skeleton.find_bone("RightUpperArm")
	rest = skeleton.get_bone_rest(arm)
	skeleton.set_bone_rest(arm, Transform3D(rest.basis, rest.origin + Vector3(0, -0.012, 0)))
	skeleton.reset_bone_poses()
	skeleton.transform = Transform3D(Basis(Vector3.UP, PI), Vector3.ZERO)
	holder.add_child(skeleton)
	var b := VRArmsSetup.setup_skeleton(skeleton, null, null)
	check(not b.is_empty(), "set up")
	check(skeleton.transform.basis.is_equal_approx(Basis()), "turned back by exactly the half turn (%s)" % skeleton.transform.basis.get_euler())
	await frames(1)


## Copies of one scene share its skin (as an imported character instanced once per remote
## player does). Setting one copy up renames its bones: the copies added later, not set up
## yet, must keep a skin that names their own bones (else Godot logs an error per bind when
## they enter the tree), and each copy once set up has a skin naming its renamed bones.
func test_copies_of_one_character_set_up_one_by_one_keep_their_skins() -> void:
	var doc := GLTFDocument.new()
	var state := GLTFState.new()
	check(doc.append_from_file(AVATARS + "mannequiny.glb", state) == OK, "mannequiny.glb loads")
	var scene: Node = doc.generate_scene(state)
	# Named binds, as Godot's importer makes them (glTF at run time binds by index).
	var named := 0
	for mesh in scene.find_children("*", "MeshInstance3D", true, false):
		var skin: Skin = (mesh as MeshInstance3D).skin
		var skeleton: Skeleton3D = (mesh as MeshInstance3D).get_node_or_null((mesh as MeshInstance3D).skeleton)
		if skin == null or skeleton == null:
			continue
		for b in skin.get_bind_count():
			if skin.get_bind_name(b) == &"" and skin.get_bind_bone(b) >= 0:
				skin.set_bind_name(b, skeleton.get_bone_name(skin.get_bind_bone(b)))
				named += 1
	check(named > 0, "the skin names its bones")
	var packed := PackedScene.new()
	check(packed.pack(scene) == OK, "packed as one scene")
	scene.free()
	var skeleton_of := func(root: Node) -> Skeleton3D:
		return root.find_children("*", "Skeleton3D", true, false)[0]
	var copies := []
	for k in 3:
		var copy: Node3D = packed.instantiate()
		copy.position = Vector3(k * 1.5, 0, -3)
		# Added after the copies before it were set up.
		add_child(copy)
		var made := VRArmsSetup.setup_remote(skeleton_of.call(copy), null, null, null)
		check(not made.is_empty(), "copy %d set up" % k)
		copies.append(copy)
	await frames(3)
	for copy in copies:
		var skeleton: Skeleton3D = skeleton_of.call(copy)
		for mesh in (copy as Node).find_children("*", "MeshInstance3D", true, false):
			var skin: Skin = (mesh as MeshInstance3D).skin
			if skin == null:
				continue
			var missing := []
			for b in skin.get_bind_count():
				var bind_name := skin.get_bind_name(b)
				if bind_name != &"" and skeleton.find_bone(bind_name) < 0:
					missing.append(bind_name)
			check(missing.is_empty(), "%s: its skin names only bones its skeleton has (missing %s)" % [copy.name, missing])


## The head bone's largest distance (m) from its standing place under the headset (in the
## headset's frame) while the player, standing a second, walks 1.3 m ahead (eased over 1.5 s,
## 1.3 m/s at its fastest) and stands again.
func _head_off_while_walking(file: String, vrm: bool) -> float:
	var b := await _load(file, vrm)
	if b.is_empty():
		return INF
	var s: Skeleton3D = b.skeleton
	var sim: XRTrackingSimulator = b.simulator
	var camera: Node3D = b.camera
	var head := Transform3D(Basis(), Vector3(0, 1.65, 0))
	sim.set_head_pose(head)
	await seconds(1.0)
	await s.skeleton_updated
	var standing := camera.global_transform.affine_inverse() * bone_global_position(s, "Head")
	var worst := 0.0
	var t := 0.0
	while t < 2.5:
		sim.set_head_pose(head.translated(Vector3(0, 0, -1.3 * smoothstep(0.0, 1.5, t))))
		await s.skeleton_updated
		var now := camera.global_transform.affine_inverse() * bone_global_position(s, "Head")
		worst = maxf(worst, now.distance_to(standing))
		t += get_process_delta_time()
	return worst


## Walking, a short-legged rig's trailing foot that the leg cannot reach lifts its heel and
## steps at once, and the hips do not sink for it: KayKit's head stays within 1 cm of the
## headset (it fell 8.4 cm mid-step while the hips sank for the foot left behind).
func test_a_walking_kaykit_mannequin_keeps_its_head_on_the_headset() -> void:
	var off := await _head_off_while_walking("manny_med_mod.gltf", false)
	check(off <= 0.01, "KayKit walking: the head %.1f cm off its place under the headset (at most 1)" % (off * 100.0))


## The same on the chibi (its head fell 4.6 cm).
func test_a_walking_chibi_keeps_its_head_on_the_headset() -> void:
	var off := await _head_off_while_walking("Godette_vrm_v4.vrm", true)
	check(off <= 0.01, "Godette walking: the head %.1f cm off its place under the headset (at most 1)" % (off * 100.0))


## The player squats (the headset down 40 % of its height, eased over 1.2 s, hands reaching
## forward) with kneeling off. Returns what a player sees: each knee's sideways distance from
## its ankle across the hips as a share of the leg (thigh and shin), the larger, and how far
## the ankles are ahead of the hip joints (m), the lesser.
func _squat(file: String, vrm: bool) -> Array:
	var b := await _load(file, vrm)
	if b.is_empty():
		return [INF, -INF]
	(b.lower_body as LowerBodyRig).kneel = false
	var s: Skeleton3D = b.skeleton
	var sim: XRTrackingSimulator = b.simulator
	var poses := _poses(b)
	var stand := Transform3D(Basis(), Vector3(0, 1.65, 0))
	var t := 0.0
	while t < 3.0:
		var down := Vector3(0, -0.4 * 1.65 * smoothstep(1.0, 2.2, t), 0)
		sim.set_head_pose(stand.translated(down))
		sim.set_hand_pose(VRArms.Hand.LEFT, poses["reach forward"][0].translated(down))
		sim.set_hand_pose(VRArms.Hand.RIGHT, poses["reach forward"][1].translated(down))
		await s.skeleton_updated
		t += get_process_delta_time()
	var across := (bone_global_position(s, "LeftUpperLeg") - bone_global_position(s, "RightUpperLeg")).normalized()
	var splay := 0.0
	var ahead := INF
	for side in ["Left", "Right"]:
		var hip := bone_global_position(s, side + "UpperLeg")
		var knee := bone_global_position(s, side + "LowerLeg")
		var ankle := bone_global_position(s, side + "Foot")
		var leg := hip.distance_to(knee) + knee.distance_to(ankle)
		splay = maxf(splay, absf((knee - ankle).dot(across)) / leg)
		ahead = minf(ahead, hip.z - ankle.z)
	return [splay, ahead]


## Squatting, the knees stay over the feet and the feet stand ahead of the hips, as a body
## balances low: the knees within a tenth of the leg sideways of the ankles, the ankles ahead of
## the hip joints.
func _check_squat(file: String) -> void:
	var got := await _squat(file, false)
	check(got[0] <= 0.1, "%s squatting: a knee %.2f of the leg to the side of its ankle (at most 0.1)" % [file, got[0]])
	check(got[1] > 0.0, "%s squatting: the feet stand ahead of the hips (the nearer %.1f cm)" % [file, got[1] * 100.0])


## On KayKit's mannequin the feet followed the hips back behind them and the knees went
## 18.6 cm out past the ankles (a knee aimed forward and up swings out to the side when its
## ankle is behind and below the hip; `legs.rs` tests that part in the core).
func test_a_squatting_kaykit_mannequin_keeps_its_feet_ahead_and_knees_over_them() -> void:
	await _check_squat("manny_med_mod.gltf")


## The player comes down `down` and `ahead` of standing (shares of the headset's 1.65 m),
## looking `pitch_deg` down, eased over 1.2 s after a second standing, and held 0.8 s (the hands
## hanging at the sides from the shoulders, which go with the head and the torso's lean).
## Returns what the side view shows: the torso's lean forward from upright (hips to neck, or to
## the head on a rig without a neck; degrees), the more bent knee (degrees) and how far the hips
## are behind the head (m).
func _come_down(file: String, vrm: bool, down: float, ahead: float, pitch_deg: float) -> Array:
	var b := await _load(file, vrm)
	if b.is_empty():
		return [-INF, INF, -INF]
	var s: Skeleton3D = b.skeleton
	var sim: XRTrackingSimulator = b.simulator
	var stand := Vector3(0, 1.65, 0)
	await seconds(1.0)
	await s.skeleton_updated
	# The hands at the sides and the shoulders from the head, as the avatar stands.
	var poses := _poses(b)
	var rig: VRArmRig = b.rig
	var shoulders := [rig.get_shoulder_global_position(0) - stand, rig.get_shoulder_global_position(1) - stand]
	var t := 0.0
	while t < 2.0:
		var w := smoothstep(0.0, 1.2, t)
		var move := Vector3(0, -down * 1.65 * w, -ahead * 1.65 * w)
		var turn := Basis(Vector3.RIGHT, deg_to_rad(-pitch_deg * w))
		sim.set_head_pose(Transform3D(turn, stand + move))
		for i in 2:
			var hand: Transform3D = poses["at sides"][i]
			var lean: Vector3 = turn * shoulders[i] - shoulders[i]
			sim.set_hand_pose(VRArms.Hand.LEFT if i == 0 else VRArms.Hand.RIGHT, hand.translated(move + lean))
		await s.skeleton_updated
		t += get_process_delta_time()
	var hips := bone_global_position(s, "Hips")
	var head := bone_global_position(s, "Head")
	var neck := bone_global_position(s, "Neck") if s.find_bone("Neck") >= 0 else head
	var spine := neck - hips
	return [rad_to_deg(atan2(-spine.z, spine.y)), maxf(_knee_deg(s, "Left"), _knee_deg(s, "Right")), hips.z - head.z]


## A bow (the head 18 % of the player's height forward and down, looking 45 degrees down)
## bends at the hips before the knees. On the Mixamo-style rig, whose hip joints sit 8 cm
## above its hips bone, the legs' reach was taken from the hips bone and the balance kept the
## hips too far forward: a semi-squat, spine 37 degrees and knees 42.
func test_a_bowing_mixamo_style_rig_leans_further_than_its_knees_bend() -> void:
	var got := await _come_down("mixamo_style.glb", false, 0.18, 0.18, 45.0)
	check(got[0] > got[1], "mixamo_style bowing: the spine leans %.0f degrees, the knees bend %.0f" % [got[0], got[1]])


## The same bow on KayKit's mannequin (short legs, no neck): spine 29 degrees, knees 69.
func test_a_bowing_kaykit_mannequin_leans_further_than_its_knees_bend() -> void:
	var got := await _come_down("manny_med_mod.gltf", false, 0.18, 0.18, 45.0)
	check(got[0] > got[1], "kaykit bowing: the spine leans %.0f degrees, the knees bend %.0f" % [got[0], got[1]])


## A crouch (a quarter of the player's height, looking ahead) on Godette, a 1 m chibi scaled
## to the player: its drop was read in its own metres, so it leaned 1.6 times less than a
## grown-up avatar crouching as far, and its bones, which lean 7 degrees back standing, stayed
## upright (-0.1).
func test_a_crouching_chibi_leans_forward_with_its_hips_behind_its_head() -> void:
	var got := await _come_down("Godette_vrm_v4.vrm", true, 0.25, 0.0, 0.0)
	check(got[0] > 2.0, "Godette crouching: the torso leans %.1f degrees forward" % got[0])
	check(got[2] > 0.05, "Godette crouching: the hips %.1f cm behind the head" % [got[2] * 100.0])


## The bow on Godette: her drop, read in her own metres (a 1 m chibi scaled to the player),
## bent the body over its feet only nine tenths of the way: the hips sank, spine 25 degrees and
## knees 33.
func test_a_bowing_chibi_leans_further_than_its_knees_bend() -> void:
	var got := await _come_down("Godette_vrm_v4.vrm", true, 0.18, 0.18, 45.0)
	check(got[0] > got[1], "Godette bowing: the spine leans %.0f degrees, the knees bend %.0f" % [got[0], got[1]])


## KayKit's mannequin (11 cm of skin in front of each knee at its own size) reaching for the
## floor kneels with its knee's joint on that skin, not on the fixed 5 cm, both as the player's
## own body (`LowerBodyRig`) and as other players see it (`VRRemoteBody`, on the same tracking,
## at the same size): the kneeling pad is measured from the mesh on both, and they agree.
func test_kaykit_kneels_on_its_own_skin_as_the_player_and_as_others_see_it() -> void:
	var b := await _load("manny_med_mod.gltf", false)
	if b.is_empty():
		return
	var s: Skeleton3D = b.skeleton
	var sim: XRTrackingSimulator = b.simulator
	var stand := Vector3(0, 1.65, 0)
	await seconds(1.0)
	# The other player's copy at the size the calibration fitted this one to.
	var other := load_test_avatar("manny_med_mod.gltf")
	var rs: Skeleton3D = other.find_children("*", "Skeleton3D", true, false)[0]
	other.scale *= s.global_basis.get_scale().x / rs.global_basis.get_scale().x
	var made := VRArmsSetup.setup_remote(rs, b.camera, b.left_controller, b.right_controller)
	(made.body as VRRemoteBody).profile = ""
	# Each skeleton's lowest knee joint while kneeling, read as it is posed.
	var lowest := {s: INF, rs: INF}
	var kneeling := [false]
	var low := func(k: Skeleton3D) -> void:
		if kneeling[0]:
			for side in ["Left", "Right"]:
				lowest[k] = minf(lowest[k], bone_global_position(k, side + "LowerLeg").y)
	s.skeleton_updated.connect(low.bind(s))
	rs.skeleton_updated.connect(low.bind(rs))
	var t := 0.0
	while t < 5.0:
		var w := smoothstep(0.0, 1.4, t)
		sim.set_head_pose(Transform3D(Basis(Vector3.RIGHT, deg_to_rad(-50.0 * w)), stand + Vector3(0, -0.8 * w, -0.25 * w)))
		await get_tree().process_frame
		t += get_process_delta_time()
		kneeling[0] = t > 4.0
	var floor_y := (b.origin as Node3D).global_position.y
	for k in lowest:
		# The fixed pad at this avatar's size, and the skin measured on the rig (11 cm).
		var size := (k as Skeleton3D).global_basis.get_scale().x
		var knee: float = lowest[k] - floor_y
		check(knee > 0.09 * size and knee < 0.13 * size, "%s: the kneeling knee's joint %.1f cm over the floor, on its 11 cm skin at this size (x%.2f; the fixed pad would be %.1f)" % [k.get_parent().name, knee * 100.0, size, 5.0 * size])
	check(absf(lowest[s] - lowest[rs]) < 0.01, "the remote body kneels as the player's own: %.1f and %.1f cm" % [(lowest[s] - floor_y) * 100.0, (lowest[rs] - floor_y) * 100.0])
