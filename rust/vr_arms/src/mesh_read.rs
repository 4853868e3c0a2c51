//! Reads the avatar's skinned mesh at rest for the core: each leg's vertices, for the knee's
//! skin ([`vr_arms_core::lower_body::leg_skin`]).

use godot::classes::mesh::ArrayType;
use godot::classes::{Mesh, MeshInstance3D, Node, Skeleton3D, Skin};
use godot::prelude::*;
use vr_arms_core::lower_body::leg_skin::LegVertices;
use vr_arms_core::maths::side::PerSide;
use vr_arms_core::rig::first_person::bones_below;

use crate::convert::vec3;
use crate::engine::{bind_bone, descendants, skinned_to};

/// Each leg's mesh vertices at rest (skeleton space), for `legs` (each leg's upper leg, lower
/// leg and foot bone in `skeleton`): the vertices of every visible mesh skinned to the skeleton
/// (under its parent) that the upper leg, or a bone below it beside the lower leg (a twist
/// bone), moves most, and those the lower leg or a bone below it beside the foot moves most,
/// posed by the skeleton's rest. A leg without any: `None`.
pub fn leg_vertices(
    skeleton: &Gd<Skeleton3D>,
    legs: PerSide<Option<[i32; 3]>>,
) -> PerSide<Option<LegVertices>> {
    let mut out = [LegVertices::default(), LegVertices::default()];
    let parents: Vec<i32> = (0..skeleton.get_bone_count())
        .map(|b| skeleton.get_bone_parent(b))
        .collect();
    let below = |top: i32| bones_below(&parents, usize::try_from(top).unwrap_or(usize::MAX));
    // Each skeleton bone's leg part: (leg, 0 upper / 1 lower).
    let mut part = vec![None; parents.len()];
    for (i, leg) in [legs.left, legs.right].into_iter().enumerate() {
        let Some([thigh, shin, foot]) = leg else {
            continue;
        };
        let (thigh, shin, foot) = (below(thigh), below(shin), below(foot));
        for (bone, slot) in part.iter_mut().enumerate() {
            if shin[bone] && !foot[bone] {
                *slot = Some((i, 1));
            } else if thigh[bone] && !shin[bone] {
                *slot = Some((i, 0));
            }
        }
    }
    let node: Gd<Node> = skeleton.clone().upcast();
    let top = skeleton.get_parent().unwrap_or_else(|| node.clone());
    for mesh in descendants(&top)
        .into_iter()
        .filter_map(|n| n.try_cast::<MeshInstance3D>().ok())
        .filter(|m| skinned_to(m, &node) && m.is_visible_in_tree())
    {
        let (Some(skin), Some(data)) = (mesh.get_skin(), mesh.get_mesh()) else {
            continue;
        };
        read_mesh(skeleton, &skin, &data, &part, &mut out);
    }
    let [left, right] = out.map(|v| (!v.thigh.is_empty() || !v.shin.is_empty()).then_some(v));
    PerSide::new(left, right)
}

/// Adds `data`'s vertices to the leg part (`part`: each skeleton bone's) of the bone that moves
/// each most (`skin` binds them to `skeleton`'s bones).
fn read_mesh(
    skeleton: &Gd<Skeleton3D>,
    skin: &Gd<Skin>,
    data: &Gd<Mesh>,
    part: &[Option<(usize, usize)>],
    out: &mut [LegVertices; 2],
) {
    // Each bind's bone in the skeleton (by its name, else its number) and its pose at rest:
    // the skeleton's rest of that bone after the bind.
    let binds: Vec<(i32, Transform3D)> = (0..skin.get_bind_count())
        .map(|b| {
            let bone = bind_bone(skin, skeleton, b);
            let pose = if bone >= 0 && bone < skeleton.get_bone_count() {
                skeleton.get_bone_global_rest(bone) * skin.get_bind_pose(b)
            } else {
                Transform3D::IDENTITY
            };
            (bone, pose)
        })
        .collect();
    for surface in 0..data.get_surface_count() {
        let arrays = data.surface_get_arrays(surface);
        let get = |kind: ArrayType| arrays.get(kind.ord() as usize);
        let (Some(verts), Some(bones), Some(weights)) = (
            get(ArrayType::VERTEX).and_then(|v| v.try_to::<PackedVector3Array>().ok()),
            get(ArrayType::BONES).and_then(|v| v.try_to::<PackedInt32Array>().ok()),
            get(ArrayType::WEIGHTS).and_then(|v| v.try_to::<PackedFloat32Array>().ok()),
        ) else {
            continue;
        };
        let (verts, bones, weights) = (verts.as_slice(), bones.as_slice(), weights.as_slice());
        if verts.is_empty() || bones.len() != weights.len() || bones.len() % verts.len() != 0 {
            continue;
        }
        let per = bones.len() / verts.len();
        for (i, &v) in verts.iter().enumerate() {
            // The bind that moves this vertex most.
            let (bind, _) = (0..per)
                .map(|k| (bones[i * per + k], weights[i * per + k]))
                .fold(
                    (-1, 0.0f32),
                    |best, (b, w)| if w > best.1 { (b, w) } else { best },
                );
            let Some(&(bone, pose)) = usize::try_from(bind).ok().and_then(|b| binds.get(b)) else {
                continue;
            };
            match usize::try_from(bone)
                .ok()
                .and_then(|b| part.get(b).copied().flatten())
            {
                Some((leg, 0)) => out[leg].thigh.push(vec3(pose * v)),
                Some((leg, _)) => out[leg].shin.push(vec3(pose * v)),
                None => {}
            }
        }
    }
}

/// [`leg_vertices`] for the lower body's `bones` (tree indices; `tree_bones` each tree bone's
/// in `skeleton`).
pub fn lower_body_leg_vertices(
    skeleton: &Gd<Skeleton3D>,
    bones: &vr_arms_core::lower_body::LowerBodyBones,
    tree_bones: &[i32],
) -> PerSide<Option<LegVertices>> {
    let engine = |leg: Option<[usize; 3]>| {
        leg.and_then(|[u, l, f]| {
            Some([
                *tree_bones.get(u)?,
                *tree_bones.get(l)?,
                *tree_bones.get(f)?,
            ])
        })
    };
    leg_vertices(
        skeleton,
        PerSide::new(engine(bones.legs.left), engine(bones.legs.right)),
    )
}
