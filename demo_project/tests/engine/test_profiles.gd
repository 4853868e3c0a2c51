## load_profile / save_profile on the nodes with settings that are not arm stages: HandPoseCopy,
## HandPoseDriver, Revolver, ClavicleFollow's influence, FirstPersonHead and the holster save what they hold and load it back; a bad file changes nothing.
extends EngineTest

const PATH := "user://test_profiles.toml"

## Class, then property -> a value other than its default, with its section in the file.
const CASES := [
	["HandPoseCopy", {"global_blend": 0.6, "wrist_weight": 0.2}],
	["HandPoseDriver", {"grip_curl_deg": 50.0, "trigger_curl_deg": 40.0, "thumb_curl_deg": 12.0}],
	["Revolver", {"damage": 17.0, "max_range_m": 42.0}],
	# The profile's clavicle `weight` is the modifier's own influence.
	["ClavicleFollow", {"influence": 0.5, "max_follow_deg": 30.0}],
	["FirstPersonHead", {"enabled": false, "first_person_layer": 7, "third_person_layer": 8}],
	# The holster's sections live in the revolver's profile.
	["HolsterZone", {"zone_radius_m": 0.2}],
	["HolsterBelt", {"belt_height_offset": 0.35, "floor_mask": 6, "default_head_height_m": 1.6}],
]


func test_saved_settings_load_back_into_a_new_node() -> void:
	for c in CASES:
		DirAccess.remove_absolute(ProjectSettings.globalize_path(PATH))
		var saver: Node = ClassDB.instantiate(c[0])
		for prop in c[1]:
			saver.set(prop, c[1][prop])
		check(saver.save_profile(PATH), "%s saves" % c[0])
		var loader: Node = ClassDB.instantiate(c[0])
		for prop in c[1]:
			check(not is_equal_approx(float(loader.get(prop)), float(c[1][prop])), "%s.%s starts elsewhere" % [c[0], prop])
		check(loader.load_profile(PATH), "%s loads" % c[0])
		for prop in c[1]:
			check_near(float(loader.get(prop)), float(c[1][prop]), 1e-5, "%s.%s round-trips" % [c[0], prop])
		saver.free()
		loader.free()
	DirAccess.remove_absolute(ProjectSettings.globalize_path(PATH))
	await frames(1)


func test_the_hand_pose_nodes_share_one_section_without_losing_each_other() -> void:
	DirAccess.remove_absolute(ProjectSettings.globalize_path(PATH))
	var copy := HandPoseCopy.new()
	copy.global_blend = 0.6
	var driver := HandPoseDriver.new()
	driver.grip_curl_deg = 50.0
	check(copy.save_profile(PATH) and driver.save_profile(PATH), "both save into one file")
	var text := FileAccess.get_file_as_string(PATH)
	check("global_blend = 0.6" in text and "grip_curl_deg = 50" in text, "the second save keeps the first one's values:\n%s" % text)
	copy.free()
	driver.free()
	DirAccess.remove_absolute(ProjectSettings.globalize_path(PATH))
	await frames(1)


func test_a_bad_profile_is_one_error_and_changes_nothing() -> void:
	expect_errors(CASES.size())
	var f := FileAccess.open(PATH, FileAccess.WRITE)
	f.store_string("[hand_pose]\nglobal_blend = \"much\"\n[revolver]\nnonsense = 1\n")
	f.close()
	for c in CASES:
		var node: Node = ClassDB.instantiate(c[0])
		var before := {}
		for prop in c[1]:
			before[prop] = node.get(prop)
		check(not node.load_profile(PATH), "%s refuses the bad file" % c[0])
		for prop in c[1]:
			check(node.get(prop) == before[prop], "%s.%s unchanged" % [c[0], prop])
		node.free()
	DirAccess.remove_absolute(ProjectSettings.globalize_path(PATH))
	await frames(1)


## The revolver and its holster share one file: each save keeps the others' sections.
func test_the_revolver_and_its_holster_share_one_file() -> void:
	DirAccess.remove_absolute(ProjectSettings.globalize_path(PATH))
	var zone := HolsterZone.new()
	zone.zone_radius_m = 0.2
	var gun := Revolver.new()
	gun.damage = 17.0
	check(zone.save_profile(PATH) and gun.save_profile(PATH), "both save into one file")
	var text := FileAccess.get_file_as_string(PATH)
	check("zone_radius_m = 0.2" in text and "damage = 17" in text, "the revolver's save keeps the holster's section:\n%s" % text)
	zone.free()
	gun.free()
	DirAccess.remove_absolute(ProjectSettings.globalize_path(PATH))
	await frames(1)


## A file that cannot be read is not replaced by one node's settings: the save is refused.
func test_a_save_over_a_bad_file_keeps_the_file() -> void:
	expect_errors(2)
	const BAD := "[hand_pose]\nglobal_blend = \"much\"\n"
	var f := FileAccess.open(PATH, FileAccess.WRITE)
	f.store_string(BAD)
	f.close()
	var copy := HandPoseCopy.new()
	var zone := HolsterZone.new()
	check(not copy.save_profile(PATH) and not zone.save_profile(PATH), "both saves are refused")
	check(FileAccess.get_file_as_string(PATH) == BAD, "the file is as it was")
	copy.free()
	zone.free()
	DirAccess.remove_absolute(ProjectSettings.globalize_path(PATH))
	await frames(1)
