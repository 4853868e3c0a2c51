//! Two-handed support.

use godot::prelude::*;

use super::*;

impl Revolver {
    /// Two-handed support: the other hand gripping near `SupportPoint` while the gun is held
    /// routes its arm there; letting go (or the gun leaving the hand) routes it back. Not while
    /// the loading gate is open: that hand is busy with cartridges.
    pub(super) fn update_support(&mut self) {
        let held = self.is_in_hand() && !self.stage.gate_open();
        let point = self.child_global("SupportPoint");
        let other = self.hand.other();
        let gripping = self
            .support_controller
            .as_ref()
            .filter(|c| c.is_instance_valid())
            .map(|c| {
                let near =
                    c.get_global_position().distance_to(point.origin) <= self.support_grab_radius_m;
                (
                    c.get_float(&self.grip_action) >= self.stage.settings.grip_threshold,
                    near,
                )
            });
        let want = gripping.is_some_and(|(grip, near)| {
            vr_arms_core::revolver::placement::support_wanted(held, self.supported, grip, near)
        });
        if let Some(mut m) = alive(&self.support_target) {
            m.set_global_transform(point);
        }
        if want == self.supported {
            return;
        }
        self.supported = want;
        if let Some(mut r) = alive(&self.router) {
            if want {
                r.bind_mut()
                    .set_override(other, alive(&self.support_target).map(|m| m.upcast()));
            } else {
                r.bind_mut().clear_override(other);
            }
        }
        if want {
            self.signals().support_grabbed().emit();
        } else {
            self.signals().support_released().emit();
        }
    }
}

impl Revolver {
    /// The other hand's palm in the cylinder's frame (origin the `Cylinder` child, the gun's
    /// axes: +Z back toward the shooter), while the gate is open and that hand is open and free:
    /// it rolls the cylinder. A gripping hand holds a cartridge, and rolls nothing.
    pub(super) fn cylinder_palm(&self) -> Option<glam::Vec3> {
        if !self.stage.gate_open() || self.supported {
            return None;
        }
        let c = alive(&self.support_controller)?;
        if c.get_float(&self.grip_action) >= self.stage.settings.grip_threshold {
            return None;
        }
        let me = self.base().get_global_transform();
        let centre = self.child_global("Cylinder").origin;
        Some(vec3(
            me.basis.inverse() * (c.get_global_position() - centre),
        ))
    }
}
