## The demo's avatar can be a character of your own: `--character=PATH` on the demo's command
## line (`cargo xtask demo -- --character=/path/to/avatar.glb`), or the project setting
## `vr_arms_demo/character`. PATH is a glTF (`.glb`, `.gltf`), a VRM (`.vrm`, its humanoid table
## read by `VRArmsSetup.bone_map_from_vrm`) or a Godot scene (`.tscn`, `.scn`, or an imported
## model under `res://`). Its bones are recognised by name (Godot, Mixamo, VRoid, Unreal,
## Blender / Rigify) unless it is a VRM.
class_name UserCharacter
extends RefCounted

const SETTING := "vr_arms_demo/character"


## The path asked for on the command line (`options`) or in the project settings, or "".
static func path_from(options: Dictionary) -> String:
	if options.has("character"):
		return String(options.character)
	return String(ProjectSettings.get_setting(SETTING, ""))


## The character at `path`: {"character": Node3D, "skeleton": Skeleton3D, "bone_map": BoneMap
## or null}; empty, with one error saying why, when it cannot be loaded or has no skeleton.
static func load_character(path: String) -> Dictionary:
	var character: Node3D = null
	var ext := path.get_extension().to_lower()
	if not FileAccess.file_exists(path) and not ResourceLoader.exists(path):
		push_error("vr_arms demo: no character file at \"%s\"; the generated character plays" % path)
		return {}
	if ext in ["tscn", "scn"] or (path.begins_with("res://") and ResourceLoader.exists(path) and ext not in ["vrm"]):
		var scene := load(path) as PackedScene
		if scene != null:
			character = scene.instantiate() as Node3D
	else:
		var doc := GLTFDocument.new()
		var state := GLTFState.new()
		var err := doc.append_from_file(path, state)
		if err == OK:
			character = doc.generate_scene(state) as Node3D
		else:
			push_error("vr_arms demo: cannot load the character \"%s\" (%s)" % [path, error_string(err)])
			return {}
	if character == null:
		push_error("vr_arms demo: \"%s\" is no 3D scene or model" % path)
		return {}
	var skeleton: Skeleton3D = null
	for found in character.find_children("*", "Skeleton3D", true, false):
		if skeleton == null or found.get_bone_count() > skeleton.get_bone_count():
			skeleton = found
	if skeleton == null:
		push_error("vr_arms demo: the character \"%s\" has no Skeleton3D" % path)
		character.free()
		return {}
	var map: BoneMap = VRArmsSetup.bone_map_from_vrm(path) if ext == "vrm" else null
	return {"character": character, "skeleton": skeleton, "bone_map": map}
