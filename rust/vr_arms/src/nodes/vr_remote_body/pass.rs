//! `VRRemoteBody`'s bone pass: the chain read from the skeleton into the core's tree, and the
//! solved rotations gathered for writing (directly, or through the crowd budget).

use godot::classes::Skeleton3D;
use godot::prelude::*;
use vr_arms_core::body::body_pipeline::BodyOutput;
use vr_arms_core::body::{Placement, Tracking};
use vr_arms_core::{PerSide, Pose, Side};

use crate::convert::pose;
use crate::nodes::vr_remote_body::bones::Bound;
use crate::shared::core_frame::CoreFrame;

/// Reads this frame's chain into `b.tree`: local poses, unless the chain's root is scaled this
/// frame (a scaled bone above it, or an animated scale): then the engine's global poses.
/// Whether it read local poses.
pub(crate) fn read_chain(skeleton: &Gd<Skeleton3D>, b: &mut Bound) -> bool {
    // Writing outside the modifier pass, the body's own poses persist: it reads the skeleton's.
    if let Some(o) = &b.outside {
        b.read.copy_from_slice(&o.read);
        if o.by_locals {
            b.tree.set_locals(&b.read);
        } else {
            b.tree.set_globals(&b.read);
        }
        return o.by_locals;
    }
    let unit = |t: &Transform3D| (t.basis.get_scale() - Vector3::ONE).length() < 1e-4;
    let by_locals = b.by_locals && {
        let root = skeleton.get_bone_global_pose(b.tree_bones[0]);
        b.read[0] = pose(&root);
        unit(&root)
    };
    if by_locals {
        for (i, (r, &bone)) in b.read.iter_mut().zip(&b.tree_bones).enumerate().skip(1) {
            // One engine call per bone (its pose as a transform, the rotation taken out of it
            // here) rather than one for the position and one for the rotation.
            *r = if b.tree.parent(i).is_none() {
                pose(&skeleton.get_bone_global_pose(bone))
            } else {
                pose(&skeleton.get_bone_pose(bone))
            };
        }
        b.tree.set_locals(&b.read);
    } else {
        for (r, &bone) in b.read.iter_mut().zip(&b.tree_bones) {
            *r = pose(&skeleton.get_bone_global_pose(bone));
        }
        b.tree.set_globals(&b.read);
    }
    by_locals
}

/// The engine bones a frame wrote and their local rotations, into `b.solved` (kept, so no
/// allocation per frame): the tree bones the stages wrote, then the fingers.
pub(crate) fn gather_solved(b: &mut Bound, out: &BodyOutput) {
    b.solved.clear();
    b.hips_position = b
        .hips
        .filter(|&(_, i)| out.written & (1 << i) != 0)
        .map(|(_, i)| b.tree.local(i).position);
    for (i, &bone) in b.tree_bones.iter().enumerate() {
        if out.written & (1 << i) != 0 {
            b.solved.push((bone, b.tree.local_rotation(i)));
        }
    }
    b.tree_solved = b.solved.len();
    for side in Side::BOTH {
        let rotations = out.fingers.get(side);
        for (&bone, rotation) in b.fingers[side.index()].iter().zip(rotations) {
            if let (true, Some(r)) = (bone >= 0, rotation) {
                b.solved.push((bone, *r));
            }
        }
    }
}

/// The body's second step (every bone) on a skeleton placed at `skeleton_global` under a root at
/// `root_global` (`placed`), with the floor at world height `floor_y` (and the feet on what
/// `ground`'s rays find, when given), from world poses: the chain read into the tree, the inputs
/// taken into the skeleton's own units (without its scale, so lengths stay in proportion on a
/// scaled avatar), the step run, the written rotations gathered into `b.solved`.
pub(crate) fn pose_pass(
    b: &mut Bound,
    skeleton: &Gd<Skeleton3D>,
    placed: (Transform3D, Transform3D),
    (floor_y, ground): (f32, Option<crate::shared::floor_ray::PhysicsGround>),
    tracking: &Tracking,
    dt: f32,
) -> BodyOutput {
    let (skeleton_global, root_global) = placed;
    let frame = CoreFrame::new(&skeleton_global);
    // The skeleton's units against the avatar's metres (0.01 for a centimetre skeleton under a
    // clean root): body-space settings, in metres, are that many core units.
    let units = crate::shared::common::uniform_scale(&skeleton_global)
        / crate::shared::common::uniform_scale(&root_global).max(1e-6);
    // Unrepaired: a non-finite or far pose must reach the body's input checks as it is (it
    // counts as lost there), not be repaired into a finite one on the way.
    let core = |p: Option<Pose>| p.map(|p| frame.pose(p));
    let tracking = Tracking {
        head: core(tracking.head),
        controllers: PerSide::new(
            core(tracking.controllers.left),
            core(tracking.controllers.right),
        ),
        overrides: PerSide::new(
            core(tracking.overrides.left),
            core(tracking.overrides.right),
        ),
        hands: tracking.hands,
    };
    let root_core = frame.transform(&root_global);
    let placement = Placement {
        root: root_core,
        scale: 1.0 / units.max(1e-6),
        skeleton_in_root: root_core.inverse().mul_pose(&frame.skeleton),
        // The input checks' limit is the world's.
        world_origin: frame.point(glam::Vec3::ZERO),
        units_per_world_metre: 1.0
            / crate::shared::common::uniform_scale(&skeleton_global).max(1e-6),
        floor_y: frame.floor_y(&root_global, floor_y),
        ..Default::default()
    };
    read_chain(skeleton, b);
    // Steps and ramps under the feet (`floor_ray`), else the flat floor.
    let physics = ground.map(|g| g.in_frame(frame.to_core));
    let surface = crate::shared::floor_ray::or_flat(physics.as_ref());
    let out = b
        .body
        .pose_bones(&tracking, &placement, &mut b.tree, dt, surface);
    gather_solved(b, &out);
    out
}
