## Setting a property from code applies the same validation as loading it from a profile.
extends EngineTest

const PROFILE := "user://setter_validation.toml"
## (node class, TOML section, property, out-of-range value)
const CASES := [
	["BodyFollow", "body_follow", "response_time_s", -5.0],
	["BodyFollow", "body_follow", "hands_weight_max", 7.0],
	["ReachClamp", "reach_clamp", "hard_clamp_ratio", 0.2],
	["ElbowHintSolver", "elbow_hint", "forearm_cue_weight", -3.0],
	["ForearmTwist", "forearm_twist", "response_time_s", -1.0],
	["TargetRouter", "target_router", "blend_speed", -1.0],
]


func test_setters_validate_like_profiles() -> void:
	for c in CASES:
		var by_setter: Node = ClassDB.instantiate(c[0])
		var by_profile: Node = ClassDB.instantiate(c[0])
		add_child(by_setter)
		add_child(by_profile)
		by_setter.set(c[2], c[3])
		var f := FileAccess.open(PROFILE, FileAccess.WRITE)
		f.store_string("[%s]\n%s = %s\n" % [c[1], c[2], c[3]])
		f.close()
		check(by_profile.load_profile(PROFILE), "%s loads the profile" % c[0])
		var got: float = by_setter.get(c[2])
		check(not is_equal_approx(got, c[3]), "%s.%s = %s is not kept as given (reads %s)" % [c[0], c[2], c[3], got])
		check_near(got, by_profile.get(c[2]), 1e-6, "%s.%s set from code equals the profile's validated value" % [c[0], c[2]])
		by_setter.set(c[2], 0.5)
		check_near(by_setter.get(c[2]), 0.5, 1e-6, "%s.%s: an in-range value is kept" % [c[0], c[2]])
		by_setter.free()
		by_profile.free()
	DirAccess.remove_absolute(PROFILE)
