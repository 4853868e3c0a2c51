## The vr_arms editor plugin (Project > Project Settings > Plugins): adds
## Project > Tools > "vr_arms: Set up selected Skeleton3D" (and "... for multiplayer", which adds
## a VRAvatarSync), undoable with Ctrl+Z, and the export
## plugin that puts the TOML profiles (`load_profile("res://...toml")`) into exported games, and
## the gizmos of HolsterZone and ElbowHintSolver.
## The nodes themselves come from the native library and work with the plugin off.
@tool
extends EditorPlugin

const MENU_ITEM := "vr_arms: Set up selected Skeleton3D"
const MULTIPLAYER_MENU_ITEM := "vr_arms: Set up selected Skeleton3D for multiplayer"
const SetupAction := preload("res://addons/vr_arms/editor/setup_action.gd")
const GizmoPlugin := preload("res://addons/vr_arms/editor/gizmo_plugin.gd")

var _export: EditorExportPlugin
var _gizmos: EditorNode3DGizmoPlugin


func _enter_tree() -> void:
	add_tool_menu_item(MENU_ITEM, setup_selected)
	add_tool_menu_item(MULTIPLAYER_MENU_ITEM, setup_selected.bind(true))
	_gizmos = GizmoPlugin.new()
	add_node_3d_gizmo_plugin(_gizmos)
	# By name, so that a missing native library gives this one clear error, not a parse error.
	if ClassDB.class_exists(&"VRArmsProfileExport"):
		_export = ClassDB.instantiate(&"VRArmsProfileExport")
		add_export_plugin(_export)
	else:
		push_error("vr_arms: the native library did not load (addons/vr_arms/bin has no library for this platform?); see the addon's README.md")


func _exit_tree() -> void:
	remove_tool_menu_item(MENU_ITEM)
	remove_tool_menu_item(MULTIPLAYER_MENU_ITEM)
	remove_node_3d_gizmo_plugin(_gizmos)
	if _export != null:
		remove_export_plugin(_export)
		_export = null


## Sets up the selected Skeleton3D (or the first one under the selected node) as one undoable
## action; `with_sync`: with a VRAvatarSync. Returns what `VRArmsSetup.setup_skeleton` returns
## (empty when nothing was set up).
func setup_selected(with_sync := false) -> Dictionary:
	var skeleton := SetupAction.selected_skeleton(EditorInterface.get_selection().get_selected_nodes())
	if skeleton == null:
		push_warning("vr_arms: select a Skeleton3D (or a character containing one) first")
		return {}
	var created := SetupAction.set_up(get_undo_redo(), skeleton, EditorInterface.get_edited_scene_root(), with_sync)
	if not created.is_empty():
		print("vr_arms: set up \"%s\" (Ctrl+Z undoes it)" % skeleton.name)
	return created
