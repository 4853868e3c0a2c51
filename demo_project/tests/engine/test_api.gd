## One API style: a hand is a `VRArms.Hand` everywhere, shown as a Left / Right choice in the
## inspector. (A number that is no hand, passed from GDScript, is a call error naming it, which
## also stops the calling function, so it is not tested here.)
extends EngineTest


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
