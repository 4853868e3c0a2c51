//! What a user can get wrong in a `Revolver`'s setup: its configuration warnings.

use godot::prelude::*;

use super::Revolver;
use crate::shared::common::unset_problem;

impl Revolver {
    /// The setup's problems, each with its fix.
    pub(super) fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        out.extend(unset_problem(
            &self.hand_controller,
            "hand_controller",
            "the gun hand's XRController3D (grip, trigger, stick and haptics come from it)",
        ));
        out.extend(unset_problem(
            &self.holster,
            "holster",
            "the HolsterZone it is drawn from (the revolver does nothing without one)",
        ));
        out.extend(unset_problem(
            &self.hand_attach,
            "hand_attach",
            "where the drawn gun sits (the hand bone's BoneAttachment3D, or the controller)",
        ));
        out.extend(unset_problem(
            &self.controller_targets,
            "controller_targets",
            "the ControllerTargets (the arm recoil goes there)",
        ));
        out.extend(unset_problem(
            &self.router,
            "router",
            "the TargetRouter (the arm follows the draw through it)",
        ));
        out.extend(unset_problem(
            &self.hand_pose,
            "hand_pose",
            "the gun hand's HandPoseDriver (its grip, cock and shoot poses)",
        ));
        if self.base().get_node_or_null("Muzzle").is_none() {
            out.push(
                "No \"Muzzle\" child: shots leave from the revolver's origin along its -Z. Add a Node3D named Muzzle at the barrel's end."
                    .into(),
            );
        }
        out
    }
}
