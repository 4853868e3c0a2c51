## Writes res://openxr_action_map.tres: Godot's standard action set (trigger, grip, thumbstick
## "primary", A/B/X/Y "ax_button"/"by_button", menu, haptics, aim/grip/palm poses) bound for
## every interaction profile Godot knows (Touch, Index, Vive, WMR, Pico, Focus, simple
## controller, ...). Run: godot --headless --xr-mode off --path demo_project -s tools/make_action_map.gd
extends SceneTree


func _init() -> void:
	var map := OpenXRActionMap.new()
	map.create_default_action_sets()
	var err := ResourceSaver.save(map, "res://openxr_action_map.tres")
	var profiles := []
	for p in map.interaction_profiles:
		profiles.append(p.interaction_profile_path)
	print("openxr_action_map.tres: %s, %d interaction profiles: %s" % [error_string(err), profiles.size(), ", ".join(profiles)])
	quit(0 if err == OK else 1)
