## VRArmsSetup with a BoneMap: a character loaded at run time with its own bone names (here
## Mixamo's) works with the one-click setup.
extends EngineTest

## Godot humanoid profile name -> Mixamo name, for the bones HumanoidBuilder makes.
const MIXAMO := {
	"Hips": "mixamorig_Hips", "Spine": "mixamorig_Spine", "Chest": "mixamorig_Spine1",
	"UpperChest": "mixamorig_Spine2", "Neck": "mixamorig_Neck", "Head": "mixamorig_Head",
	"LeftEye": "mixamorig_LeftEye", "RightEye": "mixamorig_RightEye",
	"LeftShoulder": "mixamorig_LeftShoulder", "LeftUpperArm": "mixamorig_LeftArm",
	"LeftLowerArm": "mixamorig_LeftForeArm", "LeftHand": "mixamorig_LeftHand",
	"RightShoulder": "mixamorig_RightShoulder", "RightUpperArm": "mixamorig_RightArm",
	"RightLowerArm": "mixamorig_RightForeArm", "RightHand": "mixamorig_RightHand",
	"LeftUpperLeg": "mixamorig_LeftUpLeg", "LeftLowerLeg": "mixamorig_LeftLeg",
	"LeftFoot": "mixamorig_LeftFoot", "LeftToes": "mixamorig_LeftToeBase",
	"RightUpperLeg": "mixamorig_RightUpLeg", "RightLowerLeg": "mixamorig_RightLeg",
	"RightFoot": "mixamorig_RightFoot", "RightToes": "mixamorig_RightToeBase",
}
const MIXAMO_FINGERS := {
	"ThumbMetacarpal": "HandThumb1", "ThumbProximal": "HandThumb2", "ThumbDistal": "HandThumb3",
	"IndexProximal": "HandIndex1", "IndexIntermediate": "HandIndex2", "IndexDistal": "HandIndex3",
	"MiddleProximal": "HandMiddle1", "MiddleIntermediate": "HandMiddle2", "MiddleDistal": "HandMiddle3",
	"RingProximal": "HandRing1", "RingIntermediate": "HandRing2", "RingDistal": "HandRing3",
	"LittleProximal": "HandPinky1", "LittleIntermediate": "HandPinky2", "LittleDistal": "HandPinky3",
}


## Profile name -> Mixamo name for every bone of a HumanoidBuilder skeleton but its "Root" and
## "Jaw" (Mixamo has neither).
func mixamo_names() -> Dictionary:
	var names := MIXAMO.duplicate()
	for side in ["Left", "Right"]:
		for bone in MIXAMO_FINGERS:
			names[side + bone] = "mixamorig_" + side + MIXAMO_FINGERS[bone]
	return names


## A Mixamo-named character, as a GLTF loaded at run time gives it: the skeleton, an
## AnimationPlayer with one track on its hips, and a BoneAttachment3D on its right hand.
func make_mixamo_character() -> Dictionary:
	var character := Node3D.new()
	character.name = "Character"
	add_child(character)
	var skeleton := HumanoidBuilder.build()
	var names := mixamo_names()
	for profile_name in names:
		skeleton.set_bone_name(skeleton.find_bone(profile_name), names[profile_name])
	character.add_child(skeleton)
	var animation := Animation.new()
	var track := animation.add_track(Animation.TYPE_ROTATION_3D)
	animation.track_set_path(track, NodePath("Skeleton3D:mixamorig_Hips"))
	animation.rotation_track_insert_key(track, 0.0, Quaternion.IDENTITY)
	var library := AnimationLibrary.new()
	library.add_animation("idle", animation)
	var player := AnimationPlayer.new()
	player.add_animation_library("", library)
	character.add_child(player)
	var attachment := BoneAttachment3D.new()
	attachment.bone_name = "mixamorig_RightHand"
	skeleton.add_child(attachment)
	# A mesh whose skin names its bones (as Godot's importer makes them).
	var skin := Skin.new()
	skin.add_named_bind("mixamorig_Head", Transform3D())
	skin.add_named_bind("mixamorig_LeftForeArm", Transform3D())
	var mesh := MeshInstance3D.new()
	mesh.skin = skin
	skeleton.add_child(mesh)
	mesh.skeleton = NodePath("..")
	var map := BoneMap.new()
	map.profile = SkeletonProfileHumanoid.new()
	for profile_name in names:
		map.set_skeleton_bone_name(profile_name, names[profile_name])
	return {"character": character, "skeleton": skeleton, "animation": animation, "attachment": attachment, "skin": skin, "mesh": mesh, "map": map, "names": names}


func test_a_mixamo_named_skeleton_works_through_a_bone_map() -> void:
	var m := make_mixamo_character()
	var skeleton: Skeleton3D = m.skeleton
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	var created := VRArmsSetup.setup_skeleton(skeleton, null, m.map)
	if not check(not created.is_empty(), "the setup accepts the Mixamo skeleton with its bone map"):
		return
	check(created.renamed_bones == m.names.size(), "every mapped bone renamed: %d of %d" % [created.renamed_bones, m.names.size()])
	check(skeleton.find_bone("LeftUpperArm") >= 0 and skeleton.find_bone("mixamorig_LeftArm") < 0, "the arm carries its humanoid name")
	check(skeleton.find_bone("Root") >= 0, "an unmapped bone keeps its name")
	var animation: Animation = m.animation
	check(animation.track_get_path(0) == NodePath("Skeleton3D:Hips"), "the animation's hip track follows the rename: %s" % animation.track_get_path(0))
	check(m.attachment.bone_name == "RightHand", "the bone attachment follows the rename: %s" % m.attachment.bone_name)
	# The mesh's skin (its own copy: the original may be shared with copies not set up yet).
	var skin: Skin = (m.mesh as MeshInstance3D).skin
	check(skin.get_bind_name(0) == &"Head" and skin.get_bind_name(1) == &"LeftLowerArm", "the skin's named binds follow the rename: %s, %s" % [skin.get_bind_name(0), skin.get_bind_name(1)])
	check(m.skin.get_bind_name(0) == &"mixamorig_Head", "the original skin keeps its names for other copies: %s" % m.skin.get_bind_name(0))
	for key in ["rig", "upper_body_follow", "clavicle_follow", "forearm_twist", "hand_pose_copy"]:
		var problems: PackedStringArray = created[key].get_setup_problems()
		check(problems.is_empty(), "%s is fully configured: %s" % [key, problems])
	await check_hands_reach_the_controllers(sim, skeleton)
	sim.set_input(VRArms.Hand.LEFT, "grip", 1.0)
	await frames(3)
	await skeleton.skeleton_updated
	check_near(curl_of(skeleton, "LeftMiddleIntermediate"), 75.0, 1.0, "a grip curls the renamed middle finger")


func test_a_mixamo_named_skeleton_without_a_bone_map_is_set_up_by_its_names() -> void:
	var m := make_mixamo_character()
	var skeleton: Skeleton3D = m.skeleton
	var b := VRArmsSetup.setup_skeleton(skeleton, null, null)
	check(not b.is_empty(), "set up")
	check(b.get("rig_naming", "") == "Mixamo", "recognised as Mixamo (%s)" % b.get("rig_naming", ""))
	check(skeleton.find_bone("LeftUpperArm") >= 0 and skeleton.find_bone("mixamorig_LeftArm") < 0, "bones renamed to the humanoid names")
	check(m.animation.track_get_path(0) == NodePath("Skeleton3D:Hips"), "the animation follows the new names")
	await frames(1)


func test_a_skeleton_of_unknown_names_without_a_bone_map_is_refused_untouched() -> void:
	expect_errors(1)
	var holder := Node3D.new()
	add_child(holder)
	var skeleton := HumanoidBuilder.build()
	holder.add_child(skeleton)
	for i in skeleton.get_bone_count():
		skeleton.set_bone_name(i, "Bone.%03d" % i)
	check(VRArmsSetup.setup_skeleton(skeleton, null, null).is_empty(), "nothing created")
	check(skeleton.find_bone("Bone.000") >= 0, "bones keep their names")
	await frames(1)


func test_a_bone_map_that_cannot_apply_is_refused_untouched() -> void:
	expect_errors(1)
	var m := make_mixamo_character()
	var skeleton: Skeleton3D = m.skeleton
	var map: BoneMap = m.map
	# Two profile bones on one skeleton bone.
	map.set_skeleton_bone_name("Chest", "mixamorig_Spine")
	check(VRArmsSetup.setup_skeleton(skeleton, null, map).is_empty(), "nothing created")
	check(skeleton.find_bone("mixamorig_LeftArm") >= 0 and skeleton.find_bone("Hips") < 0, "no bone renamed")
	check(skeleton.get_child_count() == 2, "no modifier added (only the bone attachment and the mesh)")
	check(m.animation.track_get_path(0) == NodePath("Skeleton3D:mixamorig_Hips"), "the animation untouched")
	await frames(1)


## KayKit's character rig (`Rig_Medium`, CC0): no neck, no shoulder bones, no fingers, and a
## wrist bone with the hand as a tip bone after it (then a slot for held items).
const KAYKIT := [
	["root", "", Vector3(0, 0, 0)],
	["hips", "root", Vector3(0, 0.95, 0)],
	["spine", "hips", Vector3(0, 1.05, 0)],
	["chest", "spine", Vector3(0, 1.18, 0)],
	["head", "chest", Vector3(0, 1.48, 0.01)],
	["upperarm.l", "chest", Vector3(0.17, 1.41, 0)],
	["lowerarm.l", "upperarm.l", Vector3(0.45, 1.41, 0)],
	["wrist.l", "lowerarm.l", Vector3(0.69, 1.41, 0)],
	["hand.l", "wrist.l", Vector3(0.77, 1.41, 0)],
	["handslot.l", "hand.l", Vector3(0.79, 1.41, 0.02)],
	["upperarm.r", "chest", Vector3(-0.17, 1.41, 0)],
	["lowerarm.r", "upperarm.r", Vector3(-0.45, 1.41, 0)],
	["wrist.r", "lowerarm.r", Vector3(-0.69, 1.41, 0)],
	["hand.r", "wrist.r", Vector3(-0.77, 1.41, 0)],
	["handslot.r", "hand.r", Vector3(-0.79, 1.41, 0.02)],
	["upperleg.l", "hips", Vector3(0.09, 0.92, 0)],
	["lowerleg.l", "upperleg.l", Vector3(0.09, 0.50, 0)],
	["foot.l", "lowerleg.l", Vector3(0.09, 0.08, 0)],
	["toes.l", "foot.l", Vector3(0.09, 0.02, 0.12)],
	["upperleg.r", "hips", Vector3(-0.09, 0.92, 0)],
	["lowerleg.r", "upperleg.r", Vector3(-0.09, 0.50, 0)],
	["foot.r", "lowerleg.r", Vector3(-0.09, 0.08, 0)],
	["toes.r", "foot.r", Vector3(-0.09, 0.02, 0.12)],
]


## A KayKit-named rig is set up by its names, with the wrist as the hand: the wrist is on the
## controller and the fist (wrist to tip) turns exactly as the controller turns. Taking the tip
## for the hand, the wrist never bends and the fist points away from the controller.
func test_a_kaykit_rig_bends_at_its_wrist_not_its_tip() -> void:
	var holder := Node3D.new()
	add_child(holder)
	var skeleton := HumanoidBuilder.build_entries(KAYKIT)
	holder.add_child(skeleton)
	var wrists := [skeleton.find_bone("wrist.l"), skeleton.find_bone("wrist.r")]
	var tips := [skeleton.find_bone("hand.l"), skeleton.find_bone("hand.r")]
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	var b := VRArmsSetup.setup_skeleton(skeleton, null, null)
	if not check(not b.is_empty(), "the KayKit rig is set up by its names"):
		return
	check(skeleton.find_bone("LeftHand") == wrists[0] and skeleton.find_bone("RightHand") == wrists[1], "the wrists are the hands")
	# No neck, no shoulders, no fingers: nothing left to report (one line at setup lists the fingers).
	for key in ["rig", "upper_body_follow", "clavicle_follow", "forearm_twist", "hand_pose_copy", "first_person_head"]:
		var problems: PackedStringArray = b[key].get_setup_problems()
		check(problems.is_empty(), "%s has nothing to report: %s" % [key, problems])
	await check_hands_reach_the_controllers(sim, skeleton)
	var fist := func(i: int) -> Vector3:
		var w := skeleton.get_bone_global_pose(wrists[i]).origin
		return (skeleton.get_bone_global_pose(tips[i]).origin - w).normalized()
	var before := [fist.call(0), fist.call(1)]
	var turn := Basis(Vector3.RIGHT, 0.6) * Basis(Vector3.UP, 0.5)
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(turn, Vector3(0.3, 1.15, 0.25)))
	sim.set_hand_pose(VRArms.Hand.RIGHT, Transform3D(turn, Vector3(-0.3, 1.2, 0.2)))
	await frames(10)
	await skeleton.skeleton_updated
	for i in 2:
		var want: Vector3 = skeleton.global_basis.inverse() * turn * skeleton.global_basis * before[i]
		var off := rad_to_deg(fist.call(i).angle_to(want))
		check(off < 3.0, "fist %d turns with its controller: %.1f degrees off" % [i, off])


## The same KayKit-named rig as another player's avatar (`setup_remote`): no neck, shoulders or
## fingers to report, and its wrists on the tracked hands.
func test_a_kaykit_rig_as_a_remote_avatar_reaches_its_hands() -> void:
	var holder := Node3D.new()
	add_child(holder)
	var skeleton := HumanoidBuilder.build_entries(KAYKIT)
	holder.add_child(skeleton)
	var made := VRArmsSetup.setup_remote(skeleton, null, null, null)
	if not check(not made.is_empty(), "set up as a remote body"):
		return
	var body: VRRemoteBody = made.body
	check(body.get_setup_problems().is_empty(), "nothing to report: %s" % [body.get_setup_problems()])
	(made.head as Node3D).global_transform = Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.55, 0))
	var left := Vector3(0.3, 1.15, 0.25)
	var right := Vector3(-0.3, 1.2, 0.2)
	(made.left_hand as Node3D).global_position = left
	(made.right_hand as Node3D).global_position = right
	await seconds(0.5)
	await skeleton.skeleton_updated
	check(skeleton.find_bone("LeftHand") == skeleton.find_bone("wrist.l") or skeleton.find_bone("wrist.l") < 0, "the wrist is the hand")
	check_vec_near(bone_global_position(skeleton, "LeftHand"), left, 0.01, "left wrist on its hand")
	check_vec_near(bone_global_position(skeleton, "RightHand"), right, 0.01, "right wrist on its hand")
