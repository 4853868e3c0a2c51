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
	# An instanced scene (an imported .glb) keeps what is added inside it only with Editable
	# Children: Godot's SceneState::_parse_node skips the subtree of every node whose owner is
	# neither the saved scene's root nor an editable instance, whoever owns the added nodes.
	var instances := _instances_between(skeleton, scene_root)
	var before := {}
	_collect(scene_root, before)
	var was := _snapshot(scene_root, skeleton)
	var created := VRArmsSetup.setup_skeleton(skeleton, null, null)
	if created.is_empty():
		return created
	# What the setup changed on nodes that were there: bone names (a recognised rig's renamed to
	# the humanoid ones, with the tracks, skin binds and attachments naming them) and 3D
	# transforms (an import node's turn or scale moved onto its children).
	var changed := _changed(was, _snapshot(scene_root, skeleton))
	if with_sync:
		VRArmsSetup.add_avatar_sync(created, null)
	var added := []
	_added_roots(scene_root, before, added)
	if int(created.get("renamed_bones", 0)) > 0 and not instances.is_empty():
		# A saved scene cannot rename an instanced skeleton's bones (Skeleton3D takes
		# "bones/<i>/name" only when adding a bone): put everything back and say what to do.
		for call in _restore_calls(changed.before):
			call[0].callv(call[1], call[2])
		for node: Node in added:
			node.get_parent().remove_child(node)
			node.free()
		push_error("vr_arms: \"%s\" comes from \"%s\" and its bones need Godot's humanoid names, which a scene cannot rename in an instance. Retarget it at import: double-click the file, Advanced Import Settings > %s > Retarget > Bone Map: new BoneMap, Profile SkeletonProfileHumanoid, Reimport; then set it up again" % [skeleton.name, _source_file(skeleton, scene_root), skeleton.name])
		return {}
	if undo_redo is EditorUndoRedoManager:
		undo_redo.create_action(_action_name(skeleton, with_sync), UndoRedo.MERGE_DISABLE, scene_root)
	else:
		undo_redo.create_action(_action_name(skeleton, with_sync))
	for instance: Node in instances:
		if not scene_root.is_editable_instance(instance):
			scene_root.set_editable_instance(instance, true)
			_add_do(undo_redo, scene_root, &"set_editable_instance", [instance, true])
			_add_undo(undo_redo, scene_root, &"set_editable_instance", [instance, false])
	for call in _restore_calls(changed.after):
		_add_do(undo_redo, call[0], call[1], call[2])
	for call in _restore_calls(changed.before):
		_add_undo(undo_redo, call[0], call[1], call[2])
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


## What the setup may change on what was there: the skeleton's bone names, every 3D node's
## transform, attachments' bones, skins' bind names and animations' track paths, as a list of
## [object, kind, value].
static func _snapshot(scene_root: Node, skeleton: Skeleton3D) -> Array:
	var names := PackedStringArray()
	for i in skeleton.get_bone_count():
		names.append(skeleton.get_bone_name(i))
	var out := [[skeleton, "bones", names]]
	for node: Node in [scene_root] + scene_root.find_children("*", "", true, false):
		if node is Node3D:
			out.append([node, "transform", (node as Node3D).transform])
		if node is BoneAttachment3D:
			out.append([node, "bone_name", (node as BoneAttachment3D).bone_name])
		if node is MeshInstance3D and (node as MeshInstance3D).skin != null:
			var skin := (node as MeshInstance3D).skin
			var binds := []
			for b in skin.get_bind_count():
				binds.append(skin.get_bind_name(b))
			out.append([skin, "binds", binds])
		if node is AnimationMixer:
			var mixer := node as AnimationMixer
			for library_name in mixer.get_animation_library_list():
				var library := mixer.get_animation_library(library_name)
				for animation_name in library.get_animation_list():
					var animation := library.get_animation(animation_name)
					var paths := []
					for t in animation.get_track_count():
						paths.append(animation.track_get_path(t))
					out.append([animation, "tracks", paths])
	return out


## The entries of two snapshots whose values differ: {"before": [...], "after": [...]}.
static func _changed(was: Array, now: Array) -> Dictionary:
	var now_by := {}
	for entry in now:
		now_by[[entry[0].get_instance_id(), entry[1]]] = entry
	var out := {"before": [], "after": []}
	for entry in was:
		var key := [entry[0].get_instance_id(), entry[1]]
		if now_by.has(key) and now_by[key][2] != entry[2]:
			out.before.append(entry)
			out.after.append(now_by[key])
	return out


## The engine calls that put a snapshot's values back (undo) or forward (redo), as
## [object, method, arguments].
static func _restore_calls(state: Array) -> Array:
	var out := []
	for entry in state:
		var object: Object = entry[0]
		var value = entry[2]
		match entry[1]:
			"bones":
				# Two passes, so that names swapped between bones are never held twice at once.
				for i in value.size():
					out.append([object, &"set_bone_name", [i, "__vr_arms_undo_%d" % i]])
				for i in value.size():
					out.append([object, &"set_bone_name", [i, value[i]]])
			"transform":
				out.append([object, &"set_transform", [value]])
			"bone_name":
				out.append([object, &"set_bone_name", [value]])
			"binds":
				for b in value.size():
					out.append([object, &"set_bind_name", [b, value[b]]])
			"tracks":
				for t in value.size():
					out.append([object, &"track_set_path", [t, value[t]]])
	return out


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


## The instanced scenes' roots above `skeleton`, below `scene_root` (outermost first).
static func _instances_between(skeleton: Node, scene_root: Node) -> Array:
	var out := []
	var at := skeleton.get_parent()
	while at != null and at != scene_root:
		if not at.scene_file_path.is_empty():
			out.push_front(at)
		at = at.get_parent()
	return out


## The file the instance holding `node` comes from (the nearest instanced scene's).
static func _source_file(node: Node, scene_root: Node) -> String:
	var at := node
	while at != null and at != scene_root:
		if not at.scene_file_path.is_empty():
			return at.scene_file_path
		at = at.get_parent()
	return scene_root.scene_file_path
