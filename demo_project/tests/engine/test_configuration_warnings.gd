## Every node says what a user left out, in the editor's configuration warnings and once at
## runtime as a warning; a complete setup (the demo's) says nothing.
extends EngineTest


## Each class, added bare, and what its problems must name.
const BARE := {
	"Revolver": ["hand_controller", "holster", "hand_attach", "Muzzle"],
	"HolsterZone": ["hand_node"],
	"HolsterBelt": ["head", "body_root"],
	"HandPoseDriver": ["source_skeleton", "controller"],
	"AvatarCalibrator": ["head", "left_controller", "right_controller", "avatar_root", "skeleton", "origin"],
}


func test_bare_nodes_name_what_to_set_and_warn_once() -> void:
	# One runtime warning per bare node that checks itself when it enters the game.
	expect_warnings(BARE.size())
	for cls in BARE:
		var node: Node = ClassDB.instantiate(cls)
		add_child(node)
		var problems := Array(node.get_setup_problems())
		for name in BARE[cls]:
			check(problems.any(func(p): return name in p), "%s names \"%s\": %s" % [cls, name, problems])
	await frames(40)


func test_a_second_tracking_simulator_is_a_problem() -> void:
	var first := XRTrackingSimulator.new()
	add_child(first)
	check(first.get_setup_problems().is_empty(), "one simulator is fine: %s" % [first.get_setup_problems()])
	expect_warnings(1)
	var second := XRTrackingSimulator.new()
	add_child(second)
	var problems := Array(second.get_setup_problems())
	check(problems.any(func(p): return "Another XRTrackingSimulator" in p), "the second says so: %s" % [problems])
	second.queue_free()
	await frames(2)
	check(first.get_setup_problems().is_empty(), "alone again, no problem")


func test_the_demo_has_no_setup_problem() -> void:
	var demo = load("res://demo.tscn").instantiate()
	demo.options = {}
	demo.quit_when_done = false
	add_child(demo)
	await frames(3)
	var checked := 0
	for node in demo.find_children("*", "", true, false):
		if node.has_method("get_setup_problems"):
			checked += 1
			var problems: PackedStringArray = node.get_setup_problems()
			check(problems.is_empty(), "%s (%s): %s" % [node.name, node.get_class(), problems])
	check(checked >= 15, "every vr_arms node of the demo checked (%d)" % checked)
	demo.queue_free()
	await frames(2)


## BodyAvoidance and the ReachClamp beside it in different modes (exact hands in one, full mode
## in the other) is a problem named on BodyAvoidance; the same mode in both is none.
func test_body_avoidance_and_reach_clamp_in_different_modes_is_a_problem() -> void:
	var p := make_pipeline_rig()
	var avoidance: BodyAvoidance = p.body_avoidance
	var clamp: ReachClamp = p.reach_clamp
	check(avoidance.get_setup_problems().is_empty(), "both exact: %s" % [avoidance.get_setup_problems()])
	clamp.exact_hands_mode = false
	var problems := Array(avoidance.get_setup_problems())
	check(problems.any(func(m): return "exact_hands" in m and String(clamp.name) in m), "named: %s" % [problems])
	avoidance.exact_hands = false
	check(avoidance.get_setup_problems().is_empty(), "both full mode: %s" % [avoidance.get_setup_problems()])
