//! The crowd budget in the node graph (the logic is `vr_arms_core::budget`): the rig decides in
//! its `_process`, before every stage of the frame, whether the avatar solves this frame.

use godot::classes::Skeleton3D;
use godot::prelude::*;
use vr_arms_core::budget::{Budget, HeldRotations};

use crate::convert::to_quaternion;
use crate::nodes::vr_arm_rig::VRArmRig;

/// This frame's time step for a stage sharing `rig`: Some(seconds since the last solve) on a
/// solving frame, None on a frame the budget skips. Without a rig, every frame solves.
pub fn stage_step(rig: &Option<Gd<VRArmRig>>, delta: f64) -> Option<f32> {
    let Some(rig) = crate::nodes::common::alive(rig) else {
        return Some(delta as f32);
    };
    let b = rig.bind().budget();
    b.solving().then_some(b.step(delta as f32))
}

/// Writes a solve's local rotations as the budget shows them (directly without a budget) and
/// keeps them for the frames in between.
pub fn write_solved(
    skeleton: &mut Gd<Skeleton3D>,
    held: &mut HeldRotations,
    solved: &[(i32, glam::Quat)],
    budget: &Budget,
) {
    if budget.interval <= 1 {
        for &(bone, q) in solved {
            skeleton.set_bone_pose_rotation(bone, to_quaternion(q));
        }
        return;
    }
    held.solved(solved, budget);
    replay(skeleton, held, budget);
}

/// Writes the held rotations blended for this frame of the interval (a frame without a solve).
pub fn replay(skeleton: &mut Gd<Skeleton3D>, held: &HeldRotations, budget: &Budget) {
    for (bone, q) in held.shown(budget) {
        skeleton.set_bone_pose_rotation(bone, to_quaternion(q));
    }
}
