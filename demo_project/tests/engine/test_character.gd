## The generated character: a humanoid skeleton with fingers and twist bones, skinned so the
## forearm keeps its volume at full elbow bend and 90 degrees of forearm roll.
##
## Measure: each forearm vertex (most of its weight on the lower arm or its twist bone) is
## skinned on the CPU exactly as Godot does (linear blend of bone pose x bind); its distance to
## the forearm's bone (the segment elbow to wrist, as posed) is divided by its distance at rest.
## The smallest ratio over the forearm must stay above 0.6: no forearm vertex collapses onto the
## bone. The elbow's own vertices (mostly on the elbow helper) are reported too, against the
## nearer of the two arm bones: at 145 degrees the inner crease is where upper arm and forearm
## meet, so it is printed, not asserted.
extends EngineTest

const BEND_DEG := 145.0
const ROLL_DEG := 90.0


func test_skeleton_has_fingers_and_twist_bones() -> void:
	var character := CharacterBuilder.build()
	add_child(character)
	var s: Skeleton3D = character.get_node("Skeleton3D")
	for side in ["Left", "Right"]:
		for f in ["ThumbMetacarpal", "ThumbProximal", "ThumbDistal", "IndexProximal", "IndexIntermediate", "IndexDistal", "LittleDistal"]:
			check(s.find_bone(side + f) >= 0, "%s%s" % [side, f])
		check(s.find_bone(side + "LowerArmTwist") >= 0, side + " forearm twist bone")
	var body: MeshInstance3D = s.get_node("Body")
	check(body.mesh.get_surface_count() == 1 and body.skin.get_bind_count() == s.get_bone_count(), "one skinned surface, a bind per bone")
	character.queue_free()


func test_forearm_keeps_its_volume_at_full_bend_and_roll() -> void:
	for side in ["Left", "Right"]:
		var ratio := await _forearm_volume(side, true)
		var elbow := last_elbow_ratio
		check(ratio > 0.6, "%s forearm: smallest radius ratio %.3f at %d deg bend and %d deg roll" % [side, ratio, BEND_DEG, ROLL_DEG])
		var untwisted := await _forearm_volume(side, false)
		print("  %s: forearm smallest radius ratio %.3f (twist bone) / %.3f (all roll on the wrist); elbow vertices %.3f" % [side, ratio, untwisted, elbow])


## Smallest posed/rest distance ratio of forearm vertices to the forearm axis. With `twist`,
## half of the roll goes to the twist bone as ForearmTwist's default distribution does.
func _forearm_volume(side: String, twist: bool) -> float:
	var character := CharacterBuilder.build()
	add_child(character)
	var s: Skeleton3D = character.get_node("Skeleton3D")
	var body: MeshInstance3D = s.get_node("Body")
	var lower := s.find_bone(side + "LowerArm")
	var hand := s.find_bone(side + "Hand")
	var twist_bone := s.find_bone(side + "LowerArmTwist")
	var sign := 1.0 if side == "Left" else -1.0
	# Bend about the elbow's hinge (up: the forearm comes forward), roll about the forearm.
	var hinge := s.get_bone_global_rest(lower).basis.inverse() * Vector3.UP
	s.set_bone_pose_rotation(lower, s.get_bone_rest(lower).basis.get_rotation_quaternion() * Quaternion(hinge.normalized(), deg_to_rad(BEND_DEG) * -sign))
	var roll_axis := Vector3.UP  # every bone's +Y runs along it
	var roll := deg_to_rad(ROLL_DEG)
	var twist_share := 0.5 if twist else 0.0
	s.set_bone_pose_rotation(twist_bone, s.get_bone_rest(twist_bone).basis.get_rotation_quaternion() * Quaternion(roll_axis, roll * twist_share))
	s.set_bone_pose_rotation(hand, s.get_bone_rest(hand).basis.get_rotation_quaternion() * Quaternion(roll_axis, roll))
	ElbowHelperModifier.drive(s)
	s.force_update_all_bone_transforms()
	var arrays := body.mesh.surface_get_arrays(0)
	var verts: PackedVector3Array = arrays[Mesh.ARRAY_VERTEX]
	var bones: PackedInt32Array = arrays[Mesh.ARRAY_BONES]
	var weights: PackedFloat32Array = arrays[Mesh.ARRAY_WEIGHTS]
	var per := bones.size() / verts.size()
	var skin := body.skin
	var elbow_rest := s.get_bone_global_rest(lower).origin
	var wrist_rest := s.get_bone_global_rest(hand).origin
	var elbow := s.get_bone_global_pose(lower).origin
	var wrist := s.get_bone_global_pose(hand).origin
	var smallest := INF
	var elbow_smallest := INF
	var helper := s.find_bone(side + "ElbowHelper")
	var shoulder_rest := s.get_bone_global_rest(s.find_bone(side + "UpperArm")).origin
	var shoulder := s.get_bone_global_pose(s.find_bone(side + "UpperArm")).origin
	for i in verts.size():
		var forearm_weight := 0.0
		var posed := Vector3.ZERO
		var helper_weight := 0.0
		for k in per:
			var b := bones[i * per + k]
			var w := weights[i * per + k]
			if w <= 0.0:
				continue
			if b == lower or b == twist_bone:
				forearm_weight += w
			if b == helper:
				helper_weight += w
			posed += w * (s.get_bone_global_pose(b) * skin.get_bind_pose(b) * verts[i])
		if helper_weight > 0.5:
			var rest_e := minf(_distance_to_segment(verts[i], shoulder_rest, elbow_rest), _distance_to_segment(verts[i], elbow_rest, wrist_rest))
			if rest_e > 1e-4:
				elbow_smallest = minf(elbow_smallest, minf(_distance_to_segment(posed, shoulder, elbow), _distance_to_segment(posed, elbow, wrist)) / rest_e)
		if forearm_weight <= 0.5:
			continue
		var rest_r := _distance_to_segment(verts[i], elbow_rest, wrist_rest)
		if rest_r < 1e-4:
			continue  # the caps' centres lie on the axis
		var r := _distance_to_segment(posed, elbow, wrist) / rest_r
		smallest = minf(smallest, r)
	character.queue_free()
	await frames(1)
	last_elbow_ratio = elbow_smallest
	return smallest


var last_elbow_ratio := 0.0


func _distance_to_segment(p: Vector3, a: Vector3, b: Vector3) -> float:
	var d := b - a
	var t := clampf((p - a).dot(d) / d.length_squared(), 0.0, 1.0)
	return p.distance_to(a + d * t)


func test_the_generated_character_saves_as_a_scene_and_loads_back() -> void:
	const SaveTool := preload("res://tools/save_generated_scenes.gd")
	var character := CharacterBuilder.build()
	var path := "user://test_character.tscn"
	check(SaveTool.save_scene(character, path), "saved")
	var loaded: Node3D = (load(path) as PackedScene).instantiate()
	add_child(loaded)
	var a: Skeleton3D = character.get_node("Skeleton3D")
	var b: Skeleton3D = loaded.get_node("Skeleton3D")
	check(a.get_bone_count() == b.get_bone_count(), "same bones")
	var body: MeshInstance3D = b.get_node("Body")
	check(body.mesh.surface_get_array_len(0) == (a.get_node("Body") as MeshInstance3D).mesh.surface_get_array_len(0), "same mesh")
	check(body.get_node_or_null(body.skeleton) == b, "the mesh is bound to its skeleton")
	character.free()
	loaded.queue_free()
	DirAccess.remove_absolute(path)
	await frames(1)
