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
        let want = match gripping {
            Some((grip, near)) if held => {
                if self.supported {
                    grip
                } else {
                    grip && near
                }
            }
            _ => false,
        };
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
