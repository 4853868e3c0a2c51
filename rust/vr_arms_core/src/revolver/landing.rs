//! Telling a landing from a dropped gun's motion: a physics step in which its velocity changes
//! abruptly and upward (the ground stopped it) is a landing, at the speed it was closing on
//! what it hit; it is on the hammer when the hammer faces down. The drop safety
//! ([`super::drop_fires`]) then decides whether it fires.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::maths::finite::direction;
use crate::maths::finite::finite_clamp;

/// When a change of velocity is a landing, and when it is on the hammer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LandingSettings {
    /// A change of velocity in one step smaller than this is no landing (m/s, 0.1-20): gravity
    /// adds about 0.16 m/s a step at 60 Hz.
    pub min_change_mps: f32,
    /// The hammer faces down when its direction from the gun's centre is within this angle of
    /// straight down (degrees, 0-90).
    pub hammer_down_deg: f32,
}

impl Default for LandingSettings {
    fn default() -> Self {
        Self {
            min_change_mps: 1.0,
            hammer_down_deg: 60.0,
        }
    }
}

impl LandingSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.min_change_mps = finite_clamp(self.min_change_mps, 0.1, 20.0, d.min_change_mps);
        self.hammer_down_deg = finite_clamp(self.hammer_down_deg, 0.0, 90.0, d.hammer_down_deg);
    }
}

/// Watches a dropped gun's velocity, step by step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Landing {
    last_velocity: Option<Vec3>,
}

impl Landing {
    /// One physics step: the gun's `velocity` now (m/s), `hammer` the direction from its centre
    /// to its hammer, `up` the world's up. Returns `(impact speed in m/s, on the hammer)` on a
    /// step that lands.
    pub fn update(
        &mut self,
        settings: &LandingSettings,
        velocity: Vec3,
        hammer: Vec3,
        up: Vec3,
    ) -> Option<(f32, bool)> {
        let velocity = velocity.is_finite().then_some(velocity);
        let before = std::mem::replace(&mut self.last_velocity, velocity)?;
        let change = velocity? - before;
        let up = direction(up)?;
        let blow = direction(change)?;
        // Stopped from below, not thrown or knocked sideways.
        if change.length() < settings.min_change_mps || blow.dot(up) < 0.5 {
            return None;
        }
        let impact = (-before.dot(blow)).max(0.0);
        let on_hammer = direction(hammer)
            .is_some_and(|h| h.dot(-up) >= settings.hammer_down_deg.to_radians().cos());
        Some((impact, on_hammer))
    }

    /// The gun is held or holstered again: the next drop starts afresh.
    pub fn reset(&mut self) {
        self.last_velocity = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A gun falling from `height_m` at 60 Hz onto the ground (it stops dead), its hammer
    /// facing `hammer`: the landings seen.
    fn drop(height_m: f32, hammer: Vec3) -> Vec<(f32, bool)> {
        let (s, mut l) = (LandingSettings::default(), Landing::default());
        let (mut y, mut v, dt) = (height_m, 0.0f32, 1.0 / 60.0);
        let mut out = Vec::new();
        for _ in 0..120 {
            v -= 9.81 * dt;
            y += v * dt;
            if y <= 0.0 {
                (y, v) = (0.0, 0.0);
            }
            out.extend(l.update(&s, Vec3::new(0.1, v, 0.0), hammer, Vec3::Y));
        }
        out
    }

    #[test]
    fn a_fall_lands_once_at_the_speed_it_fell() {
        let landings = drop(1.5, Vec3::NEG_Y);
        assert_eq!(landings.len(), 1, "{landings:?}");
        let (speed, on_hammer) = landings[0];
        // sqrt(2 g h) = 5.4 m/s (a step's worth less or more).
        assert!((speed - 5.42).abs() < 0.2, "{speed}");
        assert!(on_hammer);
    }

    #[test]
    fn on_the_hammer_only_when_it_faces_down() {
        assert!(
            drop(1.0, Vec3::new(0.3, -1.0, 0.0))[0].1,
            "30 degrees off: still"
        );
        assert!(!drop(1.0, Vec3::new(1.0, -0.3, 0.0))[0].1, "on its side");
        assert!(!drop(1.0, Vec3::Y)[0].1, "right way up");
        assert!(!drop(1.0, Vec3::ZERO)[0].1, "no hammer to face anywhere");
    }

    #[test]
    fn falling_thrown_or_pushed_sideways_is_no_landing() {
        let (s, mut l) = (LandingSettings::default(), Landing::default());
        let up = Vec3::Y;
        assert_eq!(l.update(&s, Vec3::ZERO, Vec3::NEG_Y, up), None);
        // Gravity alone.
        assert_eq!(
            l.update(&s, Vec3::new(0.0, -0.16, 0.0), Vec3::NEG_Y, up),
            None
        );
        // Knocked sideways hard.
        assert_eq!(
            l.update(&s, Vec3::new(3.0, -0.16, 0.0), Vec3::NEG_Y, up),
            None
        );
        // Thrown down.
        assert_eq!(
            l.update(&s, Vec3::new(3.0, -4.0, 0.0), Vec3::NEG_Y, up),
            None
        );
        // Stopped: a landing at the speed it came down.
        let (speed, _) = l
            .update(&s, Vec3::new(3.0, 0.0, 0.0), Vec3::NEG_Y, up)
            .expect("landed");
        assert!((speed - 4.0).abs() < 1e-5, "{speed}");
        // A small bump is none.
        assert_eq!(
            l.update(&s, Vec3::new(3.0, 0.5, 0.0), Vec3::NEG_Y, up),
            None
        );
    }

    #[test]
    fn bad_input_and_a_reset_forget_the_last_step() {
        let (s, mut l) = (LandingSettings::default(), Landing::default());
        l.update(&s, Vec3::new(0.0, -5.0, 0.0), Vec3::NEG_Y, Vec3::Y);
        assert_eq!(l.update(&s, Vec3::NAN, Vec3::NEG_Y, Vec3::Y), None);
        assert_eq!(
            l.update(&s, Vec3::ZERO, Vec3::NEG_Y, Vec3::Y),
            None,
            "no step before"
        );
        l.update(&s, Vec3::new(0.0, -5.0, 0.0), Vec3::NEG_Y, Vec3::Y);
        l.reset();
        assert_eq!(l.update(&s, Vec3::ZERO, Vec3::NEG_Y, Vec3::Y), None);
        let mut bad = LandingSettings {
            min_change_mps: f32::NAN,
            hammer_down_deg: 200.0,
        };
        bad.validate();
        assert_eq!((bad.min_change_mps, bad.hammer_down_deg), (1.0, 90.0));
    }
}
