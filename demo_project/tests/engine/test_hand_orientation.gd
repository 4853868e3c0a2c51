## After the one-click setup the hand a player sees (its knuckle line and palm, measured from
## the posed finger bones) holds each controller as the player's hand does, on every test
## skeleton; the simulator's defaults put each hand on its own side in front of a -Z-facing head.
extends EngineTest

## Largest angle (degrees) between the visible hand and the player's hand on the controller.
const MAX_HAND_ANGLE_DEG := 2.0


func _set_up(skeleton: Skeleton3D, holder: Node3D) -> Dictionary:
	add_child(holder)
	var sim := XRTrackingSimulator.new()
	add_child(sim)
	var b := VRArmsSetup.setup_skeleton(skeleton, null, null)
	b.merge({"skeleton": skeleton, "simulator": sim})
	return b


func _check_hands_follow_controllers(b: Dictionary, label: String) -> void:
	var skeleton: Skeleton3D = b.skeleton
	var sim: XRTrackingSimulator = b.simulator
	var poses := {
		"neutral": [Transform3D(Basis(), Vector3(-0.22, 1.0, -0.3)), Transform3D(Basis(), Vector3(0.22, 1.0, -0.3))],
		"turned": [Transform3D(Basis.from_euler(Vector3(0.5, 0.8, -0.3)), Vector3(-0.15, 1.3, -0.35)), Transform3D(Basis.from_euler(Vector3(-0.6, -0.9, 0.4)), Vector3(0.3, 1.1, -0.25))],
	}
	sim.set_head_pose(Transform3D(Basis(), Vector3(0, 1.65, 0)))
	for name in poses:
		sim.set_hand_pose(VRArms.Hand.LEFT, poses[name][0])
		sim.set_hand_pose(VRArms.Hand.RIGHT, poses[name][1])
		await frames(30)
		await skeleton.skeleton_updated
		for side in ["left", "right"]:
			var controller: Node3D = b[side + "_controller"]
			var seen := palm_transform(skeleton, side.capitalize()).basis
			var angle := angle_deg(seen, controller.global_basis)
			check(angle <= MAX_HAND_ANGLE_DEG, "%s, %s pose: the %s hand the player sees is %.2f deg from the player's hand on its controller (at most %.1f)" % [label, name, side, angle, MAX_HAND_ANGLE_DEG])
			# The palm faces the way the player's palm does: +X for the left hand, -X for the right.
			var palm_normal := seen.x * (1.0 if side == "left" else -1.0)
			var want := controller.global_basis.x * (1.0 if side == "left" else -1.0)
			check(palm_normal.dot(want) > 0.98, "%s, %s pose: the %s palm faces the controller's %s side" % [label, name, side, "+X" if side == "left" else "-X"])


func test_hand_rotation_is_the_controllers_on_the_test_humanoid() -> void:
	var holder := Node3D.new()
	var skeleton := HumanoidBuilder.build()
	holder.add_child(skeleton)
	await _check_hands_follow_controllers(_set_up(skeleton, holder), "test humanoid")


func test_hand_rotation_is_the_controllers_on_the_demo_character() -> void:
	var character := CharacterBuilder.build()
	var skeleton: Skeleton3D = character.get_node("Skeleton3D")
	await _check_hands_follow_controllers(_set_up(skeleton, character), "demo character")


func test_simulator_defaults_put_each_hand_on_its_own_side() -> void:
	var holder := Node3D.new()
	var skeleton := HumanoidBuilder.build()
	holder.add_child(skeleton)
	var b := _set_up(skeleton, holder)
	await frames(30)
	await skeleton.skeleton_updated
	var head: Transform3D = b.camera.global_transform
	for side in ["left", "right"]:
		var hand := bone_global_position(skeleton, side.capitalize() + "Hand")
		var controller: Node3D = b[side + "_controller"]
		var local := head.affine_inverse() * controller.global_position
		check(local.z < -0.1, "%s controller in front of the head (%s in head space)" % [side, local])
		check((local.x < 0.0) == (side == "left"), "%s controller on the player's %s (%s in head space)" % [side, side, local])
		var hand_local := head.affine_inverse() * hand
		check((hand_local.x < 0.0) == (side == "left"), "%s hand on the player's %s, not crossed (%s)" % [side, side, hand_local])
		check_vec_near(hand, controller.global_position, 0.01, "%s hand on its controller" % side)
