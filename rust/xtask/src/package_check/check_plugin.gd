## Test only (`cargo xtask package-test`): with `-- --vr-arms-editor-check` on the editor's command
## line, does what a new user does in the editor: opens a level holding a humanoid, selects its
## skeleton, runs Project > Tools > "vr_arms: Set up selected Skeleton3D", undoes and redoes it
## through the editor's undo history, saves the scene and loads the saved file back. Prints
## "EDITOR CHECK PASS" or "EDITOR CHECK FAIL: ..." and quits with 0 or 1.
@tool
extends EditorPlugin

const LEVEL := "res://level.tscn"

var _failures: Array[String] = []


func _enter_tree() -> void:
	if "--vr-arms-editor-check" in OS.get_cmdline_user_args():
		_run.call_deferred()


func _check(ok: bool, what: String) -> void:
	if not ok:
		_failures.append(what)


func _frames(n: int) -> void:
	for i in n:
		await get_tree().process_frame


func _count(node: Node) -> int:
	var n := 1
	for child in node.get_children():
		n += _count(child)
	return n


func _vr_arms_plugin() -> EditorPlugin:
	for node in EditorInterface.get_base_control().get_parent().get_children():
		if node is EditorPlugin and node.get_script() != null and node.get_script().resource_path == "res://addons/vr_arms/plugin.gd":
			return node
	return null


func _run() -> void:
	await _frames(5)
	var plugin := _vr_arms_plugin()
	_check(plugin != null, "the vr_arms plugin is enabled")
	if plugin == null:
		_finish()
		return
	# A user's level: the character (a bare humanoid) in a scene of its own.
	var level := Node3D.new()
	level.name = "Level"
	var character := Node3D.new()
	character.name = "Character"
	level.add_child(character)
	character.owner = level
	var skeleton := HumanoidBuilder.build()
	character.add_child(skeleton)
	skeleton.owner = level
	var packed := PackedScene.new()
	packed.pack(level)
	ResourceSaver.save(packed, LEVEL)
	level.free()
	EditorInterface.open_scene_from_path(LEVEL)
	await _frames(3)
	var root := EditorInterface.get_edited_scene_root()
	var before := _count(root)
	var selection := EditorInterface.get_selection()
	selection.clear()
	selection.add_node(root.get_node("Character"))

	var created: Dictionary = plugin.setup_selected()
	_check(created.has("rig"), "the setup of the selected character ran")
	var after := _count(root)
	_check(after >= before + 30, "the setup added its nodes (%d -> %d)" % [before, after])
	var manager := EditorInterface.get_editor_undo_redo()
	var history := manager.get_history_undo_redo(manager.get_object_history_id(root))
	_check(history.get_current_action_name() == "vr_arms: set up Skeleton3D", "the scene's undo history has the setup (%s)" % history.get_current_action_name())
	history.undo()
	_check(_count(root) == before, "undo takes the setup out (%d nodes, %d before)" % [_count(root), before])
	history.redo()
	_check(_count(root) == after, "redo puts it back (%d nodes)" % _count(root))

	# Its gizmo plugin takes holster zones. (Whether the 3D view draws it is not seen here: a
	# headless editor makes no gizmos.)
	var gizmos: EditorNode3DGizmoPlugin = plugin.get("_gizmos")
	var zone := HolsterZone.new()
	_check(gizmos != null and gizmos._has_gizmo(zone), "the plugin has a gizmo plugin that takes a HolsterZone")
	zone.free()

	EditorInterface.save_scene()
	var saved := ResourceLoader.load(LEVEL, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene
	var copy := saved.instantiate()
	_check(_count(copy) == after, "the saved scene holds every node of the setup (%d of %d)" % [_count(copy), after])
	_check(copy.get_node_or_null("Character/Skeleton3D/VRArmRig") != null, "the saved scene has the rig under the skeleton")
	copy.free()
	_finish()


func _finish() -> void:
	if _failures.is_empty():
		print("EDITOR CHECK PASS")
	else:
		printerr("EDITOR CHECK FAIL: %s" % ", ".join(_failures))
	get_tree().quit(0 if _failures.is_empty() else 1)
