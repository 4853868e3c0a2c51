## One API style: a hand is a `VRArms.Hand` everywhere, shown as a Left / Right choice in the
## inspector. (A number that is no hand passed to a method is a call error naming it, which also
## stops the calling function, so it is not tested here; a `hand` property set to one is tested.)
extends EngineTest


## A `hand` property set to a number that is no hand is one error, and keeps its hand.
func test_a_hand_property_refuses_a_number_that_is_no_hand() -> void:
	expect_errors(2)
	for cls in ["HandPoseDriver", "Revolver"]:
		var node: Object = ClassDB.instantiate(cls)
		node.hand = VRArms.Hand.RIGHT
		# Assigned as a script does: `set()` would hide a setter that failed.
		node.hand = 5
		check(node.hand == VRArms.Hand.RIGHT, "%s keeps its hand" % cls)
		node.free()
	await frames(1)


## `VRRemoteBody.detail` set to a number that is no level is one error (not a panic with its
## backtrace), and keeps its level.
func test_a_detail_property_refuses_a_number_that_is_no_level() -> void:
	expect_errors(1)
	var body := VRRemoteBody.new()
	body.detail = VRArms.BodyDetail.LOW
	# Assigned as a script does (`set()` would hide a failed setter; the derived conversion
	# panicked in it, and the assignment was a script error that stopped this function).
	body.detail = 7
	check(body.detail == VRArms.BodyDetail.LOW, "detail keeps its level: %s" % body.detail)
	body.detail = VRArms.BodyDetail.OFF
	check(body.detail == VRArms.BodyDetail.OFF, "a level is taken: %s" % body.detail)
	body.free()
	await frames(1)


func test_hand_properties_are_a_left_right_choice() -> void:
	for cls in ["HandPoseDriver", "Revolver"]:
		var node: Object = ClassDB.instantiate(cls)
		var found := false
		for prop in node.get_property_list():
			if prop.name == "hand":
				found = true
				check(prop.hint == PROPERTY_HINT_ENUM and "Left" in prop.hint_string and "Right" in prop.hint_string, "%s.hand is an enum choice (%s)" % [cls, prop.hint_string])
		check(found, "%s has a hand property" % cls)
		node.free()
	await frames(1)


## What a bone-name property offers in the inspector.
func _bone_hint(node: Object, property: String) -> Dictionary:
	for prop in node.get_property_list():
		if prop.name == property:
			return prop
	return {}


func test_bone_properties_offer_the_skeletons_bones() -> void:
	var skeleton := HumanoidBuilder.build()
	add_child(skeleton)
	var names := skeleton.get_concatenated_bone_names()
	var modifiers := {
		VRArmRig.new(): ["left_upper_arm_bone", "right_hand_bone"],
		UpperBodyFollow.new(): ["chest_bone", "head_bone"],
		ClavicleFollow.new(): ["left_clavicle_bone"],
		ForearmTwist.new(): ["right_wrist_twist_bone"],
		HandPoseCopy.new(): ["left_wrist_bone"],
		RevolverHold.new(): ["hand_bone"],
	}
	for m: Node in modifiers:
		skeleton.add_child(m)
		for property: String in modifiers[m]:
			var p := _bone_hint(m, property)
			check(p.get("hint") == PROPERTY_HINT_ENUM_SUGGESTION and p.get("hint_string") == names, "%s.%s suggests the skeleton's bones (%s)" % [m.get_class(), property, p.get("hint_string")])
	var copy: Node = modifiers.keys()[4]
	var list := _bone_hint(copy, "copied_bones")
	check(list.get("hint") == PROPERTY_HINT_TYPE_STRING and list.get("hint_string") == "%d/%d:%s" % [TYPE_STRING, PROPERTY_HINT_ENUM_SUGGESTION, names], "each of copied_bones suggests the bones (%s)" % list.get("hint_string"))
	var head := FirstPersonHead.new()
	add_child(head)
	check(_bone_hint(head, "hidden_bone").get("hint") == PROPERTY_HINT_NONE, "no skeleton yet: hidden_bone is plain text")
	head.skeleton = skeleton
	var hidden := _bone_hint(head, "hidden_bone")
	check(hidden.get("hint") == PROPERTY_HINT_ENUM_SUGGESTION and hidden.get("hint_string") == names, "FirstPersonHead.hidden_bone suggests its skeleton's bones")
	# A modifier off any skeleton offers no list.
	var loose := VRArmRig.new()
	add_child(loose)
	check(_bone_hint(loose, "left_hand_bone").get("hint") == PROPERTY_HINT_NONE, "no skeleton: plain text")
	for n: Node in [skeleton, head, loose]:
		n.free()  # before they run: they are not set up
	await frames(1)


## ClavicleFollow's strength is Godot's own `influence`, not a second `weight`.
func test_clavicle_strength_is_the_modifiers_influence() -> void:
	var c := ClavicleFollow.new()
	check(_bone_hint(c, "weight").is_empty() and not _bone_hint(c, "influence").is_empty(), "no weight property beside influence")
	c.free()
	await frames(1)
