//! `VRRemoteBody`'s bone pass: the chain read from the skeleton into the core's tree, and the
//! solved rotations gathered for writing (directly, or through the crowd budget).

use godot::classes::Skeleton3D;
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::body_pipeline::BodyOutput;

use crate::convert::{pose, vec3};
use crate::nodes::remote_body_bones::Bound;

/// Reads this frame's chain into `b.tree`: local poses, unless the chain's root is scaled this
/// frame (a scaled bone above it, or an animated scale): then the engine's global poses.
pub(crate) fn read_chain(skeleton: &Gd<Skeleton3D>, b: &mut Bound) {
    let unit = |t: &Transform3D| (t.basis.get_scale() - Vector3::ONE).length() < 1e-4;
    let by_locals = b.by_locals && {
        let root = skeleton.get_bone_global_pose(b.tree_bones[0]);
        b.read[0] = pose(&root);
        unit(&root)
    };
    if by_locals {
        for (i, (r, &bone)) in b.read.iter_mut().zip(&b.tree_bones).enumerate().skip(1) {
            *r = if b.tree.parent(i).is_none() {
                pose(&skeleton.get_bone_global_pose(bone))
            } else {
                vr_arms_core::Pose::new(
                    vec3(skeleton.get_bone_pose_position(bone)),
                    crate::convert::quat(skeleton.get_bone_pose_rotation(bone)),
                )
            };
        }
        b.tree.set_locals(&b.read);
    } else {
        for (r, &bone) in b.read.iter_mut().zip(&b.tree_bones) {
            *r = pose(&skeleton.get_bone_global_pose(bone));
        }
        b.tree.set_globals(&b.read);
    }
}

/// The engine bones a frame wrote and their local rotations, into `b.solved` (kept, so no
/// allocation per frame): the tree bones the stages wrote, then the fingers.
pub(crate) fn gather_solved(b: &mut Bound, out: &BodyOutput) {
    b.solved.clear();
    for (i, &bone) in b.tree_bones.iter().enumerate() {
        if out.written & (1 << i) != 0 {
            b.solved.push((bone, b.tree.local_rotation(i)));
        }
    }
    for side in Side::BOTH {
        let rotations = out.fingers.get(side);
        for (&bone, rotation) in b.fingers[side.index()].iter().zip(rotations) {
            if let (true, Some(r)) = (bone >= 0, rotation) {
                b.solved.push((bone, *r));
            }
        }
    }
}
