//! How a stage links to its skeleton's `VRArmRig`: the rig's arm measurements and body frame
//! for the stages that share them, and the configuration warnings about a missing or freed rig
//! (a bone writer on the wrong side of the rig: `shared/modifier_order.rs`).

use godot::classes::Node3D;
use godot::prelude::*;

use crate::convert::pose;
use crate::engine::{alive, uniform_scale};

/// Shoulder world position and rest measurements of one arm, from a `VRArmRig`.
pub fn rig_arm(
    rig: &Option<Gd<super::VRArmRig>>,
    side: vr_arms_core::Side,
) -> Option<(glam::Vec3, vr_arms_core::ArmCalibration)> {
    let mut rig = rig.as_ref().filter(|r| r.is_instance_valid())?.clone();
    rig.bind_mut().arm_info(side)
}

/// The body frame: `body_root`'s pose, else the rig's skeleton's (a humanoid skeleton faces +Z),
/// at the skeleton's scale. With a rig it is measured once per frame for all its stages.
pub fn body_frame(
    body_root: &Option<Gd<Node3D>>,
    rig: &Option<Gd<super::VRArmRig>>,
) -> Option<vr_arms_core::maths::body_frame::BodyFrame> {
    // The avatar's scale is that of its skeleton (the root's scale included), so a calibrated or
    // scaled avatar's body-space settings are in its own metres.
    if let Some(mut r) = alive(rig)
        && let Some(body) = r.bind_mut().body_frame(body_root)
    {
        return Some(body);
    }
    let root = alive(body_root).filter(|n| n.is_inside_tree())?;
    let t = root.get_global_transform();
    Some(vr_arms_core::maths::body_frame::BodyFrame::scaled(
        pose(&t),
        uniform_scale(&t),
    ))
}

/// The arms' frame for a target stage sharing `rig`: the body frame ([`body_frame`]) and each
/// arm's shoulder and measures ([`rig_arm`]), which the rig measures once a frame; `None`
/// without a body frame.
pub fn arm_frame(
    body_root: &Option<Gd<Node3D>>,
    rig: &Option<Gd<super::VRArmRig>>,
) -> Option<vr_arms_core::arms::arm_frame::ArmFrame> {
    use vr_arms_core::arms::arm_frame::{ArmFrame, ArmReach, WORLD_UP};
    use vr_arms_core::{PerSide, Side};
    let body = body_frame(body_root, rig)?;
    let arm = |side: Side| {
        rig_arm(rig, side).map(|(shoulder, calibration)| ArmReach {
            shoulder,
            calibration,
        })
    };
    Some(ArmFrame::new(
        body,
        WORLD_UP,
        PerSide::new(arm(Side::Left), arm(Side::Right)),
    ))
}

/// What is wrong with a stage's `rig` reference, if anything: unset, or set to a rig that has
/// been freed since (the character was removed), which needs a different fix.
pub fn rig_problem(rig: &Option<Gd<super::VRArmRig>>, why: &str) -> Option<String> {
    match rig {
        None => Some(format!("Set \"rig\" to the VRArmRig: {why}.")),
        Some(r) if !r.is_instance_valid() => Some(
            "The VRArmRig in \"rig\" has been freed (was the character removed?): set \"rig\" to the new one, or remove this node.".into(),
        ),
        Some(_) => None,
    }
}

/// Problems shared by the stages that read a rig and move targets from inputs to outputs.
pub fn slot_problems(
    rig: &Option<Gd<super::VRArmRig>>,
    slots: [(&str, bool, bool); 2],
    needs_rig: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    if needs_rig {
        out.extend(rig_problem(rig, "shoulders and arm lengths come from it"));
    }
    let mut any = false;
    for (side, input, output) in slots {
        any |= input;
        match (input, output) {
            (true, false) => out.push(format!("{side}_input is set but {side}_output is not.")),
            (false, true) => out.push(format!("{side}_output is set but {side}_input is not.")),
            _ => {}
        }
    }
    if !any {
        out.push("No input target is set: set left_input and/or right_input.".into());
    }
    out
}

/// This frame's time step for a stage sharing `rig`: Some(seconds since the last solve) on a
/// solving frame, None on a frame the budget skips. Without a rig, every frame solves.
pub fn stage_step(rig: &Option<Gd<super::VRArmRig>>, delta: f64) -> Option<f32> {
    let Some(rig) = alive(rig) else {
        return Some(delta as f32);
    };
    let b = rig.bind().budget();
    b.solving().then_some(b.step(delta as f32))
}
