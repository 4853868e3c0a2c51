## The editor plugin's one-click setup (Project > Tools > "vr_arms: Set up selected Skeleton3D")
## is one undoable action: run here with a plain UndoRedo, as the plugin runs it with the editor's.
extends EngineTest

const SetupAction := preload("res://addons/vr_arms/editor/setup_action.gd")


## A scene root "Scene" holding a bare humanoid "Character", as a user's level holds a model.
func _scene() -> Dictionary:
	var scene := Node3D.new()
	scene.name = "Scene"
	add_child(scene)
	var character := Node3D.new()
	character.name = "Character"
	scene.add_child(character)
	character.owner = scene
	var skeleton := HumanoidBuilder.build()
	character.add_child(skeleton)
	skeleton.owner = scene
	return {"scene": scene, "character": character, "skeleton": skeleton}


func _ids(node: Node, into: Dictionary = {}) -> Dictionary:
	into[node.get_instance_id()] = node.owner
	for child in node.get_children():
		_ids(child, into)
	return into


func test_setup_undo_takes_every_added_node_out_and_redo_puts_the_same_ones_back() -> void:
	var s := _scene()
	var scene: Node3D = s.scene
	var skeleton: Skeleton3D = s.skeleton
	var before := _ids(scene)
	var ur := UndoRedo.new()
	var created := SetupAction.set_up(ur, skeleton, scene)
	check(created.has("rig"), "the setup ran")
	var after := _ids(scene)
	check(after.size() >= before.size() + 30, "the setup added its nodes (%d -> %d)" % [before.size(), after.size()])
	var unowned := 0
	for id in after:
		if not before.has(id) and after[id] != scene:
			unowned += 1
	check(unowned == 0, "every added node is owned by the scene root, so the scene saves it (%d are not)" % unowned)
	check(ur.has_undo() and ur.get_current_action_name() == "vr_arms: set up %s" % skeleton.name, "one action recorded: %s" % ur.get_current_action_name())

	ur.undo()
	check(_ids(scene) == before, "undo leaves the scene as it was (%d nodes, %d before)" % [_ids(scene).size(), before.size()])
	check(skeleton.get_child_count() == 0, "no modifier left under the skeleton")

	ur.redo()
	check(_ids(scene) == after, "redo puts the same nodes back with their owners")
	var rig: VRArmRig = created.rig
	check(rig.get_parent() == skeleton and rig.get_setup_problems().is_empty(), "the rig is back under the skeleton, fully configured: %s" % [rig.get_setup_problems()])
	var order := skeleton.get_children().map(func(c): return c.get_class())
	check(order == ["UpperBodyFollow", "LowerBodyRig", "ClavicleFollow", "VRArmRig", "ForearmTwist", "HandPoseCopy"], "modifiers back in order: %s" % [order])
	# Undone again and the history dropped: the nodes it held are freed, nothing leaks.
	ur.undo()
	ur.free()
	await frames(1)
	check(not is_instance_valid(rig), "the undone nodes are freed with the history")


func test_a_redone_setup_still_drives_the_arms() -> void:
	var s := _scene()
	var skeleton: Skeleton3D = s.skeleton
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	var ur := UndoRedo.new()
	SetupAction.set_up(ur, skeleton, s.scene)
	ur.undo()
	ur.redo()
	sim.set_head_pose(Transform3D(Basis(Vector3.UP, PI), Vector3(0, 1.65, 0)))
	var left := Vector3(0.3, 1.15, 0.25)
	sim.set_hand_pose(VRArms.Hand.LEFT, Transform3D(Basis(), left))
	await frames(10)
	await skeleton.skeleton_updated
	check_vec_near(bone_global_position(skeleton, "LeftHand"), left, 0.001, "left hand on its controller after undo and redo")
	ur.free()


func test_a_refused_setup_records_nothing() -> void:
	var s := _scene()
	var ur := UndoRedo.new()
	check(not SetupAction.set_up(ur, s.skeleton, s.scene).is_empty(), "the first setup ran")
	expect_errors(1)
	check(SetupAction.set_up(ur, s.skeleton, s.scene).is_empty(), "a second setup is refused")
	check(ur.get_history_count() == 1, "and adds no action (%d)" % ur.get_history_count())
	ur.free()


func test_a_character_at_the_scene_root_is_refused_with_a_warning() -> void:
	var character := Node3D.new()
	add_child(character)
	var skeleton := HumanoidBuilder.build()
	character.add_child(skeleton)
	var ur := UndoRedo.new()
	TestLogger.current.take_warnings()
	check(SetupAction.set_up(ur, skeleton, character).is_empty(), "nothing set up")
	var warnings := TestLogger.current.take_warnings()
	check(warnings.size() == 1 and "scene's root" in warnings[0], "one warning says why: %s" % [warnings])
	check(skeleton.get_child_count() == 0 and character.get_child_count() == 1, "nothing added")
	check(ur.get_history_count() == 0, "no action")
	ur.free()
	await frames(1)


func test_the_selected_skeleton_is_found_in_the_selection() -> void:
	var s := _scene()
	check(SetupAction.selected_skeleton([s.skeleton]) == s.skeleton, "the skeleton itself")
	check(SetupAction.selected_skeleton([s.character]) == s.skeleton, "the character holding it")
	var other := Node.new()
	check(SetupAction.selected_skeleton([other]) == null, "none")
	other.free()
	await frames(1)


func test_the_setup_for_multiplayer_adds_a_wired_avatar_sync_in_the_same_action() -> void:
	var s := _scene()
	var scene: Node3D = s.scene
	var before := _ids(scene)
	var ur := UndoRedo.new()
	var created := SetupAction.set_up(ur, s.skeleton, scene, true)
	var sync: VRAvatarSync = created.get("avatar_sync")
	check(sync != null and sync.get_parent() == scene and sync.owner == scene, "a VRAvatarSync beside the character, saved with the scene")
	if sync == null:
		ur.free()
		return
	check(sync.avatar_root == s.character and sync.head == created.camera and sync.left_hand == created.left_controller and sync.right_hand == created.right_controller, "it sends the character and its tracked nodes")
	check(created.get("lower_body") != null and sync.lower_body_rig == created.get("lower_body"), "and whether its lower body sits")
	check(ur.get_current_action_name() == "vr_arms: set up Skeleton3D for multiplayer", "one action: %s" % ur.get_current_action_name())
	ur.undo()
	check(_ids(scene) == before and sync.get_parent() == null, "undo takes it out with the rest")
	expect_errors(1)
	check(VRArmsSetup.add_avatar_sync({}, null) == null, "a dictionary that is no setup gives one error and no node")
	ur.free()


## A Mixamo-named character whose Armature is turned and scaled as imported: the setup renames
## its bones and moves the Armature's turn onto its children; undo puts the names (and the
## animation's tracks, the skin's binds, the attachment's bone) and the transforms back, redo
## does it all again.
func test_undo_puts_a_recognised_rigs_names_and_import_transform_back() -> void:
	var scene := Node3D.new()
	scene.name = "Scene"
	add_child(scene)
	var character := Node3D.new()
	character.name = "Character"
	scene.add_child(character)
	character.owner = scene
	var armature := Node3D.new()
	armature.name = "Armature"
	armature.transform = Transform3D(Basis(Vector3.RIGHT, deg_to_rad(90.0)).scaled(Vector3.ONE * 0.01), Vector3.ZERO)
	character.add_child(armature)
	armature.owner = scene
	var skeleton := HumanoidBuilder.build()
	# Lying in the Armature's frame as an imported one does: the Armature stands it up.
	skeleton.transform = Transform3D(Basis(Vector3.RIGHT, deg_to_rad(-90.0)).scaled(Vector3.ONE * 100.0), Vector3.ZERO)
	var before_names := PackedStringArray()
	for i in skeleton.get_bone_count():
		var n := skeleton.get_bone_name(i)
		skeleton.set_bone_name(i, "mixamorig_" + n if n in ["Hips", "Spine", "Neck", "Head"] else n)
	# Mixamo's own names for the arms.
	for pair in [["LeftUpperArm", "mixamorig_LeftArm"], ["RightUpperArm", "mixamorig_RightArm"], ["LeftLowerArm", "mixamorig_LeftForeArm"], ["RightLowerArm", "mixamorig_RightForeArm"], ["LeftHand", "mixamorig_LeftHand"], ["RightHand", "mixamorig_RightHand"]]:
		skeleton.set_bone_name(skeleton.find_bone(pair[0]), pair[1])
	for i in skeleton.get_bone_count():
		before_names.append(skeleton.get_bone_name(i))
	armature.add_child(skeleton)
	skeleton.owner = scene
	var animation := Animation.new()
	var track := animation.add_track(Animation.TYPE_ROTATION_3D)
	animation.track_set_path(track, NodePath("Armature/Skeleton3D:mixamorig_LeftArm"))
	var library := AnimationLibrary.new()
	library.add_animation("idle", animation)
	var player := AnimationPlayer.new()
	player.add_animation_library("", library)
	character.add_child(player)
	player.owner = scene
	var armature_before := armature.transform
	var skeleton_before := skeleton.transform
	var ur := UndoRedo.new()
	var created := SetupAction.set_up(ur, skeleton, scene)
	if not check(created.has("rig"), "the setup ran on the Mixamo-named skeleton"):
		return
	check(created.rig_naming == "Mixamo", "recognised as Mixamo (%s)" % created.rig_naming)
	check(skeleton.find_bone("LeftUpperArm") >= 0, "renamed to the humanoid names")
	check(animation.track_get_path(0) == NodePath("Armature/Skeleton3D:LeftUpperArm"), "the track follows: %s" % animation.track_get_path(0))
	check(not armature.transform.basis.is_equal_approx(armature_before.basis), "the Armature's turn and scale moved onto its children")
	var renamed := PackedStringArray()
	for i in skeleton.get_bone_count():
		renamed.append(skeleton.get_bone_name(i))
	var stood := [armature.transform, skeleton.transform]

	ur.undo()
	var names := PackedStringArray()
	for i in skeleton.get_bone_count():
		names.append(skeleton.get_bone_name(i))
	check(names == before_names, "undo puts the bone names back")
	check(animation.track_get_path(0) == NodePath("Armature/Skeleton3D:mixamorig_LeftArm"), "and the track: %s" % animation.track_get_path(0))
	check(armature.transform.is_equal_approx(armature_before) and skeleton.transform.is_equal_approx(skeleton_before), "and the import transforms")

	ur.redo()
	names = PackedStringArray()
	for i in skeleton.get_bone_count():
		names.append(skeleton.get_bone_name(i))
	check(names == renamed, "redo renames again")
	check(armature.transform.is_equal_approx(stood[0]) and skeleton.transform.is_equal_approx(stood[1]), "and stands it up again")
	ur.undo()
	ur.free()
	await frames(1)


## A scene holding an instanced character (as a dropped-in imported file is): the instance's
## root is owned by the scene, what is inside it by the instance's root.
func _instanced_scene(mixamo_names: bool) -> Dictionary:
	var model := Node3D.new()
	model.name = "Character"
	var built := HumanoidBuilder.build()
	if mixamo_names:
		for pair in [["LeftUpperArm", "mixamorig_LeftArm"], ["RightUpperArm", "mixamorig_RightArm"], ["LeftLowerArm", "mixamorig_LeftForeArm"], ["RightLowerArm", "mixamorig_RightForeArm"], ["LeftHand", "mixamorig_LeftHand"], ["RightHand", "mixamorig_RightHand"]]:
			built.set_bone_name(built.find_bone(pair[0]), pair[1])
	model.add_child(built)
	built.owner = model
	var file := PackedScene.new()
	file.pack(model)
	model.free()
	var path := "user://instanced_character_%s.tscn" % ("mixamo" if mixamo_names else "humanoid")
	ResourceSaver.save(file, path)
	var scene := Node3D.new()
	scene.name = "Scene"
	add_child(scene)
	var character: Node3D = (load(path) as PackedScene).instantiate()
	scene.add_child(character)
	character.owner = scene
	var skeleton: Skeleton3D = character.get_child(0)
	return {"scene": scene, "character": character, "skeleton": skeleton}


func test_a_setup_inside_an_instanced_character_makes_its_children_editable() -> void:
	# Godot saves nothing added inside an instance unless the instance is editable: the
	# setup turns Editable Children on, in the same undoable action.
	var s := _instanced_scene(false)
	var scene: Node3D = s.scene
	var ur := UndoRedo.new()
	var created := SetupAction.set_up(ur, s.skeleton, scene)
	if not check(created.has("rig"), "set up"):
		ur.free()
		return
	check(scene.is_editable_instance(s.character), "the instance's children are editable")
	var packed := PackedScene.new()
	check(packed.pack(scene) == OK, "the scene packs")
	var saved := packed.instantiate()
	check(saved.find_children("*", "VRArmRig", true, false).size() == 1, "the rig is saved with the scene")
	saved.free()
	ur.undo()
	check(not scene.is_editable_instance(s.character), "undo turns it off again")
	ur.redo()
	check(scene.is_editable_instance(s.character), "redo turns it on")
	ur.free()
	scene.queue_free()


func test_renaming_an_instanced_skeletons_bones_is_refused_and_nothing_is_left() -> void:
	# A scene cannot rename an instance's bones (Godot reads bone names only from the file),
	# so a rig that needs renaming is refused with one error naming the file and the way out.
	var s := _instanced_scene(true)
	var scene: Node3D = s.scene
	var skeleton: Skeleton3D = s.skeleton
	var names := PackedStringArray()
	for i in skeleton.get_bone_count():
		names.append(skeleton.get_bone_name(i))
	var count := scene.find_children("*", "", true, false).size()
	var ur := UndoRedo.new()
	expect_errors(1)
	check(SetupAction.set_up(ur, skeleton, scene).is_empty(), "refused")
	var after := PackedStringArray()
	for i in skeleton.get_bone_count():
		after.append(skeleton.get_bone_name(i))
	check(after == names, "the bone names are as they were")
	check(scene.find_children("*", "", true, false).size() == count, "no node is left behind")
	check(not scene.is_editable_instance(s.character), "nor Editable Children")
	check(not ur.has_undo(), "and nothing recorded")
	ur.free()
	scene.queue_free()
