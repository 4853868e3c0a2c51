## Saves the generated character and revolver as scenes, to open or reuse them in the editor:
## res://generated/character.tscn and res://generated/revolver.tscn (the demo itself generates
## them when it starts, so they are not committed).
## Run: godot --headless --xr-mode off --path demo_project -s tools/save_generated_scenes.gd
extends SceneTree


func _init() -> void:
	DirAccess.make_dir_recursive_absolute("res://generated")
	var ok := true
	for item in [["character", CharacterBuilder.build()], ["revolver", RevolverBuilder.build()]]:
		ok = save_scene(item[1], "res://generated/%s.tscn" % item[0]) and ok
		item[1].free()
	quit(0 if ok else 1)


## Packs `root` with all its descendants and saves it at `path`.
static func save_scene(root: Node, path: String) -> bool:
	_own(root, root)
	var scene := PackedScene.new()
	var err := scene.pack(root)
	if err == OK:
		err = ResourceSaver.save(scene, path)
	print("%s: %s" % [path, error_string(err)])
	return err == OK


static func _own(node: Node, owner: Node) -> void:
	for child in node.get_children():
		child.owner = owner
		_own(child, owner)
