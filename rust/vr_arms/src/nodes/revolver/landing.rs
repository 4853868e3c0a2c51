//! The dropped gun notices its own landings: each physics step its velocity goes to the core's
//! [`Landing`](vr_arms_core::revolver::Landing), and a landing goes to the drop safety, as a
//! call of [Revolver::landed] would.

use godot::prelude::*;
use vr_arms_core::revolver::{LandingSettings, RevolverState};

use super::Revolver;
use crate::convert::vec3;

impl Revolver {
    /// One physics step: while the gun lies or falls free, a landing (an abrupt stop from
    /// below) at the speed it came in, on the hammer when the `Hammer` child faces down.
    pub(super) fn watch_landing(&mut self) {
        if self.stage.state != RevolverState::Dropped {
            self.landing.reset();
            return;
        }
        let velocity = self.base().get_linear_velocity();
        let centre = self.base().get_global_position();
        let hammer = self
            .base()
            .get_node_or_null("Hammer")
            .and_then(|n| n.try_cast::<Node3D>().ok())
            .map(|h| h.get_global_position() - centre)
            .unwrap_or(Vector3::ZERO);
        let landed = self.landing.update(
            &LandingSettings::default(),
            vec3(velocity),
            vec3(hammer),
            glam::Vec3::Y,
        );
        if let Some((speed, on_hammer)) = landed {
            self.act(|s, e| s.landed(speed, on_hammer, e));
        }
    }
}
