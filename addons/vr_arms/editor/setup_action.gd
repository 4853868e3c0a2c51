## The one-click setup as one undoable action: `VRArmsSetup.setup_skeleton` runs, and every node
## it added is recorded so that undo takes them all out and redo puts the same nodes back, with
## their owners (so the scene still saves them).
@tool
extends RefCounted


## The first Skeleton3D among `nodes`, or under one of them (depth first); null when none.
static func selected_skeleton(nodes: Array) -> Skeleton3D:
	for node in nodes:
		if node is Skeleton3D:
			return node
		var found: Array[Node] = node.find_children("*", "Skeleton3D", true, false)
		if not found.is_empty():
			return found[0]
	return null


## Sets up `skeleton`, a node of the scene under `scene_root` (in the editor, the edited scene's
## root), and records it in `undo_redo`: the editor's `EditorUndoRedoManager`
## (`EditorPlugin.get_undo_redo()`) or a plain `UndoRedo`. Every added node is owned by
## `scene_root`, so the scene saves it, also when the skeleton is inside an imported model.
## Nothing is recorded when the setup refuses (it says why, once). Returns
## `VRArmsSetup.setup_skeleton`'s dictionary. `with_sync`: a `VRAvatarSync` too
## (`VRArmsSetup.add_avatar_sync`, "avatar_sync"), in the same action.
static func set_up(undo_redo: Object, skeleton: Skeleton3D, scene_root: Node, with_sync := false) -> Dictionary:
	if skeleton == scene_root or skeleton.get_parent() == scene_root:
		# The XR origin and the pipeline go beside the character, which must not be the root.
		push_warning("vr_arms: \"%s\" is (or is a child of) the scene's root: set it up in the scene that holds the character beside the player's XR origin (or give the character a parent node)" % skeleton.name)
		return {}
	var before := {}
	_collect(scene_root, before)
	var created := VRArmsSetup.setup_skeleton(skeleton, null, null)
	if created.is_empty():
		return created
	if with_sync:
		VRArmsSetup.add_avatar_sync(created, null)
	var added := []
	_added_roots(scene_root, before, added)
	if undo_redo is EditorUndoRedoManager:
		undo_redo.create_action(_action_name(skeleton, with_sync), UndoRedo.MERGE_DISABLE, scene_root)
	else:
		undo_redo.create_action(_action_name(skeleton, with_sync))
	for node: Node in added:
		var parent := node.get_parent()
		_add_do(undo_redo, parent, &"add_child", [node])
		_add_do(undo_redo, parent, &"move_child", [node, node.get_index()])
		for owned: Node in [node] + node.find_children("*", "", true, false):
			# What the setup made part of the scene (not the helpers Godot adds by itself, such
			# as a skeleton's compatibility PhysicalBoneSimulator3D).
			if owned.owner == null:
				continue
			owned.owner = scene_root
			_add_do(undo_redo, owned, &"set_owner", [scene_root])
		undo_redo.add_do_reference(node)
	# Taken out last first, so that each parent is left as it was.
	for i in range(added.size() - 1, -1, -1):
		_add_undo(undo_redo, added[i].get_parent(), &"remove_child", [added[i]])
	# The setup already ran: record it without running it again.
	undo_redo.commit_action(false)
	return created


static func _action_name(skeleton: Skeleton3D, with_sync: bool) -> String:
	return "vr_arms: set up %s%s" % [skeleton.name, " for multiplayer" if with_sync else ""]


static func _collect(node: Node, into: Dictionary) -> void:
	into[node.get_instance_id()] = true
	for child in node.get_children():
		_collect(child, into)


## The added nodes whose parent was there before, in tree order.
static func _added_roots(node: Node, before: Dictionary, into: Array) -> void:
	for child in node.get_children():
		if before.has(child.get_instance_id()):
			_added_roots(child, before, into)
		else:
			into.append(child)


static func _add_do(undo_redo: Object, object: Object, method: StringName, args: Array) -> void:
	if undo_redo is EditorUndoRedoManager:
		undo_redo.callv(&"add_do_method", [object, method] + args)
	else:
		undo_redo.add_do_method(Callable(object, method).bindv(args))


static func _add_undo(undo_redo: Object, object: Object, method: StringName, args: Array) -> void:
	if undo_redo is EditorUndoRedoManager:
		undo_redo.callv(&"add_undo_method", [object, method] + args)
	else:
		undo_redo.add_undo_method(Callable(object, method).bindv(args))
