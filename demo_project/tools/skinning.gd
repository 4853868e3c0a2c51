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
## influences per vertex): read once, posed by `posed` or `lowest_y` as often as needed. A bind
## whose bone the skeleton lacks moves nothing.
static func influenced(mesh: MeshInstance3D, skeleton: Skeleton3D, moved_by: PackedInt32Array, stride := 1) -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	if mesh.mesh == null or mesh.skin == null:
		return out
	var bind_bones := skeleton_bones_of(mesh.skin, skeleton)
	for surface in mesh.mesh.get_surface_count():
		var part := _surface_part(mesh, bind_bones, mesh.mesh.surface_get_arrays(surface), moved_by, stride)
		if not part.is_empty() and not part.verts.is_empty():
			out.append(part)
	return out


## One surface's (`arrays`) vertices as `influenced` gives them: those `moved_by` moves, or
## every vertex, in order, for `moved_by` empty; `{}` for a surface not skinned.
static func _surface_part(mesh: MeshInstance3D, bind_bones: PackedInt32Array, arrays: Array, moved_by: PackedInt32Array, stride: int) -> Dictionary:
	var verts: PackedVector3Array = arrays[Mesh.ARRAY_VERTEX]
	var bones: PackedInt32Array = arrays[Mesh.ARRAY_BONES] if arrays[Mesh.ARRAY_BONES] != null else PackedInt32Array()
	var weights: PackedFloat32Array = arrays[Mesh.ARRAY_WEIGHTS] if arrays[Mesh.ARRAY_WEIGHTS] != null else PackedFloat32Array()
	if verts.is_empty() or bones.is_empty():
		return {}
	var per := bones.size() / verts.size()
	var part := {"verts": PackedVector3Array(), "bones": PackedInt32Array(), "binds": [], "weights": PackedFloat32Array(), "per": per}
	for i in range(0, verts.size(), maxi(stride, 1)):
		var moved := moved_by.is_empty()
		for k in per:
			if not moved and weights[i * per + k] > 0.0 and bind_bones[bones[i * per + k]] in moved_by:
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
	return part


## `influenced`'s vertices (as `influenced` gives them, one surface) skinned with the
## skeleton's current pose (world).
static func posed(influenced: Dictionary, skeleton: Skeleton3D) -> PackedVector3Array:
	var per: int = influenced.per
	var out := PackedVector3Array()
	var poses := {}
	var verts: PackedVector3Array = influenced.verts
	for i in verts.size():
		var at := Vector3.ZERO
		for k in per:
			var w: float = influenced.weights[i * per + k]
			if w <= 0.0:
				continue
			var bone: int = influenced.bones[i * per + k]
			if not poses.has(bone):
				poses[bone] = skeleton.get_bone_global_pose(bone)
			at += w * (poses[bone] * (influenced.binds[i * per + k] as Transform3D) * verts[i])
		out.append(skeleton.global_transform * at)
	return out


## The lowest world height of `influenced`'s vertices, skinned with the skeleton's current pose
## (INF for none).
static func lowest_y(influenced: Dictionary, skeleton: Skeleton3D) -> float:
	var low := INF
	for v in posed(influenced, skeleton):
		low = minf(low, v.y)
	return low


## Total area (m²) of `mesh`'s triangles (every surface), skinned with the skeleton's current
## pose, that `moved_by` (skeleton bones) moves most at each corner, with a corner in view of a
## camera at `eye` looking along `forward` (unit; within the cone whose half angle's cosine is
## `cos_half`). A bone's vertices collapsed onto one point make triangles of no area, which
## cover no pixel.
static func area_in_view(mesh: MeshInstance3D, skeleton: Skeleton3D, eye: Vector3, forward: Vector3, cos_half: float, moved_by: PackedInt32Array) -> float:
	var area := 0.0
	if mesh.mesh == null or mesh.skin == null:
		return area
	var bind_bones := skeleton_bones_of(mesh.skin, skeleton)
	for surface in mesh.mesh.get_surface_count():
		var arrays := mesh.mesh.surface_get_arrays(surface)
		var part := _surface_part(mesh, bind_bones, arrays, PackedInt32Array(), 1)
		if part.is_empty():
			continue
		var v := posed(part, skeleton)
		var per: int = part.per
		# Each vertex: 1 if in view, 2 if moved most by `moved_by`.
		var mark := PackedByteArray()
		mark.resize(v.size())
		for i in v.size():
			var to := v[i] - eye
			var most := 0
			for k in per:
				if part.weights[i * per + k] > part.weights[i * per + most]:
					most = k
			var m := 2 if part.bones[i * per + most] in moved_by else 0
			mark[i] = m + (1 if to.dot(forward) >= cos_half * to.length() else 0)
		var index: PackedInt32Array = arrays[Mesh.ARRAY_INDEX] if arrays[Mesh.ARRAY_INDEX] != null else PackedInt32Array()
		var count := index.size() if index.size() > 0 else v.size()
		for t in range(0, count - 2, 3):
			var c := [t, t + 1, t + 2] if index.is_empty() else [index[t], index[t + 1], index[t + 2]]
			var a: int = mark[c[0]]
			var b: int = mark[c[1]]
			var d: int = mark[c[2]]
			if a >= 2 and b >= 2 and d >= 2 and (a | b | d) & 1:
				area += 0.5 * (v[c[1]] - v[c[0]]).cross(v[c[2]] - v[c[0]]).length()
	return area
