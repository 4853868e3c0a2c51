## What the editor shows of the addon: every node class has its icon.
extends EngineTest


func test_every_node_class_has_an_icon() -> void:
	var ext := ConfigFile.new()
	check(ext.load("res://addons/vr_arms/vr_arms.gdextension") == OK, "the .gdextension reads")
	var icons := {}
	for key in ext.get_section_keys("icons"):
		icons[key] = ext.get_value("icons", key)
	var checked := 0
	for cls in ClassDB.get_class_list():
		if ClassDB.class_get_api_type(cls) != ClassDB.API_EXTENSION or not ClassDB.is_parent_class(cls, "Node"):
			continue
		checked += 1
		check(icons.has(cls), "%s has an icon in the .gdextension" % cls)
		if icons.has(cls):
			check(FileAccess.file_exists(icons[cls]), "%s's icon %s exists" % [cls, icons[cls]])
	check(checked >= 19, "the addon's node classes were found (%d)" % checked)
	await frames(1)
