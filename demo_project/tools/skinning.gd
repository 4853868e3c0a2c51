## Meshes skinned on the CPU as Godot does, for tests and tools that check what is drawn.
extends RefCounted


## World positions of `mesh`'s vertices (every `stride`-th), skinned as Godot does (linear blend
## of bone pose x bind) with the skeleton's current pose.
static func skinned_vertices(mesh: MeshInstance3D, skeleton: Skeleton3D, stride := 1) -> PackedVector3Array:
	var arrays := mesh.mesh.surface_get_arrays(0)
	var verts: PackedVector3Array = arrays[Mesh.ARRAY_VERTEX]
	var bones: PackedInt32Array = arrays[Mesh.ARRAY_BONES]
	var weights: PackedFloat32Array = arrays[Mesh.ARRAY_WEIGHTS]
	var out := PackedVector3Array()
	if verts.is_empty() or bones.is_empty() or mesh.skin == null:
		return out
	var per := bones.size() / verts.size()
	var bind_bones := skeleton_bones_of(mesh.skin, skeleton)
	for i in range(0, verts.size(), maxi(stride, 1)):
		var posed := Vector3.ZERO
		for k in per:
			var w := weights[i * per + k]
			if w > 0.0:
				# `b` is a bind of the skin.
				var b := bones[i * per + k]
				posed += w * (skeleton.get_bone_global_pose(bind_bones[b]) * mesh.skin.get_bind_pose(b) * verts[i])
		out.append(skeleton.global_transform * posed)
	return out


## Each bind of `skin`'s skeleton bone: the bind names it (or, unnamed, numbers it); -1 for a
## name the skeleton lacks.
static func skeleton_bones_of(skin: Skin, skeleton: Skeleton3D) -> PackedInt32Array:
	var out := PackedInt32Array()
	for b in skin.get_bind_count():
		var bind_name := skin.get_bind_name(b)
		out.append(skeleton.find_bone(bind_name) if bind_name != &"" else skin.get_bind_bone(b))
	return out


## The vertices of `mesh` (every `stride`-th) that any of `moved_by` (skeleton bones) moves,
## with their bones, bind poses and weights, one dictionary per surface (surfaces may differ in
## influences per vertex): read once, posed by `lowest_y` as often as needed. A bind whose bone
## the skeleton lacks moves nothing.
static func influenced(mesh: MeshInstance3D, skeleton: Skeleton3D, moved_by: PackedInt32Array, stride := 1) -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	if mesh.mesh == null or mesh.skin == null:
		return out
	var bind_bones := skeleton_bones_of(mesh.skin, skeleton)
	for surface in mesh.mesh.get_surface_count():
		var arrays := mesh.mesh.surface_get_arrays(surface)
		var verts: PackedVector3Array = arrays[Mesh.ARRAY_VERTEX]
		var bones: PackedInt32Array = arrays[Mesh.ARRAY_BONES] if arrays[Mesh.ARRAY_BONES] != null else PackedInt32Array()
		var weights: PackedFloat32Array = arrays[Mesh.ARRAY_WEIGHTS] if arrays[Mesh.ARRAY_WEIGHTS] != null else PackedFloat32Array()
		if verts.is_empty() or bones.is_empty():
			continue
		var per := bones.size() / verts.size()
		var part := {"verts": PackedVector3Array(), "bones": PackedInt32Array(), "binds": [], "weights": PackedFloat32Array(), "per": per}
		for i in range(0, verts.size(), maxi(stride, 1)):
			var moved := false
			for k in per:
				if weights[i * per + k] > 0.0 and bind_bones[bones[i * per + k]] in moved_by:
					moved = true
			if not moved:
				continue
			part.verts.append(verts[i])
			for k in per:
				var b := bones[i * per + k]
				var bone := bind_bones[b]
				part.bones.append(maxi(bone, 0))
				part.binds.append(mesh.skin.get_bind_pose(b))
				part.weights.append(weights[i * per + k] if bone >= 0 else 0.0)
		if not part.verts.is_empty():
			out.append(part)
	return out


## The lowest world height of `influenced`'s vertices, skinned with the skeleton's current pose
## (INF for none).
static func lowest_y(influenced: Dictionary, skeleton: Skeleton3D) -> float:
	var per: int = influenced.per
	var low := INF
	var poses := {}
	var verts: PackedVector3Array = influenced.verts
	for i in verts.size():
		var posed := Vector3.ZERO
		for k in per:
			var w: float = influenced.weights[i * per + k]
			if w <= 0.0:
				continue
			var bone: int = influenced.bones[i * per + k]
			if not poses.has(bone):
				poses[bone] = skeleton.get_bone_global_pose(bone)
			posed += w * (poses[bone] * (influenced.binds[i * per + k] as Transform3D) * verts[i])
		low = minf(low, (skeleton.global_transform * posed).y)
	return low
