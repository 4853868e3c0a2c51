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
	for i in range(0, verts.size(), maxi(stride, 1)):
		var posed := Vector3.ZERO
		for k in per:
			var w := weights[i * per + k]
			if w > 0.0:
				var b := bones[i * per + k]
				# `b` is a bind of the skin; the bind names (or numbers) its skeleton bone.
				var bind_name := mesh.skin.get_bind_name(b)
				var bone := skeleton.find_bone(bind_name) if bind_name != &"" else mesh.skin.get_bind_bone(b)
				posed += w * (skeleton.get_bone_global_pose(bone) * mesh.skin.get_bind_pose(b) * verts[i])
		out.append(skeleton.global_transform * posed)
	return out
