//! The revolver's settings: the draw, the holster's release, cocking, the trigger, the grip.

use serde::{Deserialize, Serialize};

use crate::maths::finite::finite_clamp;

/// Settings of the revolver.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RevolverSettings {
    /// Hand movement ignored at the start of a draw (metres).
    pub draw_dead_zone_m: f32,
    /// Pull along the draw direction that completes the draw (metres).
    pub draw_distance_m: f32,
    /// Release within this distance of the holster re-holsters (metres).
    pub auto_holster_distance_m: f32,
    /// ... and within this angle (degrees).
    pub auto_holster_angle_deg: f32,
    /// Thumbstick Y below this (rising edge) cocks the hammer.
    pub cock_stick_threshold: f32,
    /// Length of the cocking timeline (seconds): the hand animation's clip length over its speed.
    pub cock_duration_s: f32,
    /// Trigger value above this (rising edge) pulls the trigger.
    pub trigger_threshold: f32,
    /// Trigger pull phase (seconds).
    pub trigger_pull_s: f32,
    /// Trigger return phase (seconds).
    pub trigger_return_s: f32,
    /// Grip value above this counts as gripping.
    pub grip_threshold: f32,
}

impl Default for RevolverSettings {
    fn default() -> Self {
        Self {
            draw_dead_zone_m: 0.02,
            draw_distance_m: 0.15,
            auto_holster_distance_m: 0.20,
            auto_holster_angle_deg: 35.0,
            cock_stick_threshold: -0.7,
            cock_duration_s: 0.6,
            trigger_threshold: 0.6,
            trigger_pull_s: 0.08,
            trigger_return_s: 0.16,
            grip_threshold: 0.5,
        }
    }
}

impl RevolverSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.draw_dead_zone_m = finite_clamp(self.draw_dead_zone_m, 0.0, 0.5, d.draw_dead_zone_m);
        self.draw_distance_m = finite_clamp(self.draw_distance_m, 0.01, 1.0, d.draw_distance_m);
        self.auto_holster_distance_m = finite_clamp(
            self.auto_holster_distance_m,
            0.0,
            2.0,
            d.auto_holster_distance_m,
        );
        self.auto_holster_angle_deg = finite_clamp(
            self.auto_holster_angle_deg,
            0.0,
            180.0,
            d.auto_holster_angle_deg,
        );
        self.cock_stick_threshold =
            finite_clamp(self.cock_stick_threshold, -1.0, 0.0, d.cock_stick_threshold);
        self.cock_duration_s = finite_clamp(self.cock_duration_s, 0.01, 5.0, d.cock_duration_s);
        self.trigger_threshold =
            finite_clamp(self.trigger_threshold, 0.05, 1.0, d.trigger_threshold);
        self.trigger_pull_s = finite_clamp(self.trigger_pull_s, 0.0, 2.0, d.trigger_pull_s);
        self.trigger_return_s = finite_clamp(self.trigger_return_s, 0.0, 2.0, d.trigger_return_s);
        self.grip_threshold = finite_clamp(self.grip_threshold, 0.05, 1.0, d.grip_threshold);
    }
}
