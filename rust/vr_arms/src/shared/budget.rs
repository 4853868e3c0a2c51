//! The crowd budget in the node graph (the logic is `vr_arms_core::crowd::budget`): the rig decides in
//! its `_process`, before every stage of the frame, whether the avatar solves this frame.

use godot::classes::Skeleton3D;
use godot::prelude::*;
use vr_arms_core::crowd::budget::{Budget, HeldRotations, interval_frames, spread_phase};

use crate::convert::to_quaternion;

/// The update interval in effect for `wanted` frames on `skeleton`: `wanted` (1..8), or 1 when
/// the skeleton runs its modifiers other than once per idle frame (the budget counts idle
/// frames).
pub fn effective_interval(wanted: i32, skeleton: Option<&Gd<Skeleton3D>>) -> u32 {
    let wanted = interval_frames(wanted.into());
    if wanted > 1 && !modifiers_run_per_frame(skeleton) {
        return 1;
    }
    wanted
}

/// One frame of a node's crowd budget: its interval set to `interval` (a change starts afresh,
/// see [Budget::set_interval]), then advanced by `delta` with the phase of the node `id`.
pub fn advance_frame(budget: &mut Budget, interval: u32, id: InstanceId, delta: f64) {
    budget.set_interval(interval);
    budget.advance(delta as f32, spread_phase(id.to_i64() as u64));
}

/// Whether `skeleton` (if any) runs its modifiers once per idle frame.
fn modifiers_run_per_frame(skeleton: Option<&Gd<Skeleton3D>>) -> bool {
    use godot::classes::skeleton_3d::ModifierCallbackModeProcess as Mode;
    skeleton.is_none_or(|s| s.get_modifier_callback_mode_process() == Mode::IDLE)
}

/// The configuration warning for an interval the skeleton's callback mode turns off, if any.
pub fn interval_problem(
    wanted: i32,
    skeleton: Option<&Gd<Skeleton3D>>,
    node: &str,
) -> Option<String> {
    let wanted = interval_frames(wanted.into());
    (wanted > 1 && !modifiers_run_per_frame(skeleton)).then(|| {
        format!(
            "update_interval_frames ({wanted}) needs the skeleton's modifier_callback_mode_process set to Idle: {node} solves every frame until then."
        )
    })
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
