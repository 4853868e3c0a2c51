//! Soft IK: the arm is never perfectly straight, and cannot oscillate at full extension.
//!
//! The stability design, its soft-IK part: at full extension the two-bone solution is bistable (the elbow
//! singularity), so tiny target noise flips the elbow. Three measures, run just before the solve:
//! - the effective shoulder->wrist distance is eased over the last part of the reach toward the
//!   distance that keeps a minimum elbow bend (`min_elbow_bend_deg`), and never exceeds it;
//! - a straight-arm state with hysteresis (enter at `straight_enter_ratio`, leave at
//!   `straight_exit_ratio` of the arm's length), so the transition cannot oscillate;
//! - the bend direction is slerped toward the requested pole over 2-3 frames normally, and only
//!   slowly while straight, where the pole is undefined and noisy.
//!
//! With `exact` (exact-hands mode) the easing starts at the minimum-bend distance itself, so a
//! target within that distance is reached exactly.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::maths::finite::direction;
use crate::maths::finite::finite_clamp;
use crate::maths::smoothing::exp_alpha;

/// Settings of [`SoftIk`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SoftIkSettings {
    /// Master switch; off gives the plain analytic solve (target distance clamped to the reach).
    pub enabled: bool,
    /// Exact-hands mode: easing starts at the minimum-bend reach, so every target within it is
    /// reached exactly (the default for the local player).
    pub exact_hands: bool,
    /// Smallest elbow bend kept at full reach (degrees; 5-8 recommended).
    pub min_elbow_bend_deg: f32,
    /// Where easing starts, as a fraction of the minimum-bend reach (not used in exact mode).
    pub soft_start_ratio: f32,
    /// Shoulder->target distance / arm length at which the arm counts as straight.
    pub straight_enter_ratio: f32,
    /// ... and at which it stops counting as straight (below the enter ratio: hysteresis).
    pub straight_exit_ratio: f32,
    /// Bend-direction smoothing rate while bent (1/s; 60 is 2-3 frames at 90 Hz).
    pub bend_rate: f32,
    /// Bend-direction smoothing rate while straight (1/s).
    pub straight_bend_rate: f32,
}

impl Default for SoftIkSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            exact_hands: true,
            min_elbow_bend_deg: 6.0,
            soft_start_ratio: 0.98,
            straight_enter_ratio: 0.99,
            straight_exit_ratio: 0.97,
            bend_rate: 60.0,
            straight_bend_rate: 6.0,
        }
    }
}

impl SoftIkSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.min_elbow_bend_deg =
            finite_clamp(self.min_elbow_bend_deg, 0.0, 45.0, d.min_elbow_bend_deg);
        self.soft_start_ratio = finite_clamp(self.soft_start_ratio, 0.5, 1.0, d.soft_start_ratio);
        self.straight_enter_ratio =
            finite_clamp(self.straight_enter_ratio, 0.5, 1.0, d.straight_enter_ratio);
        self.straight_exit_ratio = finite_clamp(
            self.straight_exit_ratio,
            0.5,
            self.straight_enter_ratio,
            d.straight_exit_ratio,
        );
        self.bend_rate = finite_clamp(self.bend_rate, 0.0, 10_000.0, d.bend_rate);
        self.straight_bend_rate =
            finite_clamp(self.straight_bend_rate, 0.0, 10_000.0, d.straight_bend_rate);
    }
}

/// Output of [`SoftIk::update`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoftIkOutput {
    /// Effective shoulder->wrist distance for the solve (metres).
    pub reach: f32,
    /// Pole direction for the solve (unit, perpendicular to the shoulder->target axis).
    pub pole: Vec3,
    /// Straight-arm state after hysteresis.
    pub straight: bool,
}

/// One arm's soft-IK state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SoftIk {
    pub settings: SoftIkSettings,
    pub straight: bool,
    bend: Option<Vec3>,
}

/// The largest shoulder->wrist distance that keeps the elbow bent by `bend_rad`.
pub fn min_bend_reach(upper: f32, lower: f32, bend_rad: f32) -> f32 {
    // Interior elbow angle is pi - bend: d^2 = a^2 + b^2 + 2ab cos(bend).
    (upper * upper + lower * lower + 2.0 * upper * lower * bend_rad.cos())
        .max(0.0)
        .sqrt()
}

impl SoftIk {
    pub fn new(mut settings: SoftIkSettings) -> Self {
        settings.validate();
        Self {
            settings,
            straight: false,
            bend: None,
        }
    }

    /// Effective reach and pole for one frame. `pole` is the requested bend direction (any
    /// length, any component along the arm).
    pub fn update(
        &mut self,
        shoulder: Vec3,
        target: Vec3,
        pole: Vec3,
        bones: (f32, f32),
        dt: f32,
    ) -> SoftIkOutput {
        let s = self.settings;
        let (upper, lower) = bones;
        let exact = s.exact_hands;
        let to = target - shoulder;
        let dist = if to.is_finite() { to.length() } else { 0.0 };
        let axis = direction(to).unwrap_or(Vec3::NEG_Y);
        let length = (upper + lower).max(1e-6);
        let ratio = dist / length;
        if self.straight && ratio <= s.straight_exit_ratio {
            self.straight = false;
        } else if !self.straight && ratio >= s.straight_enter_ratio {
            self.straight = true;
        }

        let reach = if s.enabled {
            let max = min_bend_reach(upper, lower, s.min_elbow_bend_deg.to_radians());
            let start = if exact { max } else { max * s.soft_start_ratio };
            ease_reach(dist, start, max)
        } else {
            dist
        };

        let wanted = direction(pole - axis * pole.dot(axis));
        let pole_out = match (self.bend, wanted) {
            (Some(prev), Some(want)) if s.enabled => {
                let prev = direction(prev - axis * prev.dot(axis)).unwrap_or(want);
                let rate = if self.straight {
                    s.straight_bend_rate
                } else {
                    s.bend_rate
                };
                let a = exp_alpha(rate, dt);
                direction(prev.lerp(want, a)).unwrap_or(want)
            }
            (_, Some(want)) => want,
            (Some(prev), None) => direction(prev - axis * prev.dot(axis)).unwrap_or(prev),
            (None, None) => axis.any_orthonormal_vector(),
        };
        self.bend = Some(pole_out);
        SoftIkOutput {
            reach,
            pole: pole_out,
            straight: self.straight,
        }
    }
}

/// Identity up to `start`, then an exponential approach to `max` (C1 at `start`).
pub fn ease_reach(dist: f32, start: f32, max: f32) -> f32 {
    if !dist.is_finite() || dist <= start {
        return if dist.is_finite() { dist.max(0.0) } else { 0.0 };
    }
    let zone = max - start;
    if zone <= 1e-6 {
        return max;
    }
    start + zone * (1.0 - (-(dist - start) / zone).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_mode_reaches_up_to_the_min_bend_distance() {
        let mut s = SoftIk::default();
        let max = min_bend_reach(0.28, 0.24, 6f32.to_radians());
        let out = s.update(
            Vec3::ZERO,
            Vec3::X * (max - 0.001),
            Vec3::NEG_Y,
            (0.28, 0.24),
            0.01,
        );
        assert!((out.reach - (max - 0.001)).abs() < 1e-6);
        let out = s.update(Vec3::ZERO, Vec3::X * 2.0, Vec3::NEG_Y, (0.28, 0.24), 0.01);
        assert!(out.reach <= max + 1e-6 && out.reach < 0.52);
    }

    #[test]
    fn soft_mode_eases_continuously_and_never_straightens() {
        let mut s = SoftIk::new(SoftIkSettings {
            exact_hands: false,
            ..Default::default()
        });
        let mut last = 0.3;
        let max = min_bend_reach(0.28, 0.24, 6f32.to_radians());
        for i in 0..200 {
            let d = 0.3 + i as f32 * 0.002;
            let out = s.update(Vec3::ZERO, Vec3::X * d, Vec3::NEG_Y, (0.28, 0.24), 0.01);
            assert!(out.reach >= last - 1e-6, "monotonic");
            assert!(out.reach < max + 1e-6);
            assert!(out.reach - last < 0.0021, "no jump");
            last = out.reach;
        }
    }

    #[test]
    fn straight_state_has_hysteresis() {
        let mut s = SoftIk::default();
        let go = |s: &mut SoftIk, r: f32| {
            s.update(
                Vec3::ZERO,
                Vec3::X * 0.52 * r,
                Vec3::NEG_Y,
                (0.28, 0.24),
                0.01,
            )
            .straight
        };
        assert!(!go(&mut s, 0.985));
        assert!(go(&mut s, 0.991));
        assert!(go(&mut s, 0.975), "stays straight inside the band");
        assert!(!go(&mut s, 0.969));
        assert!(!go(&mut s, 0.985), "stays bent inside the band");
    }

    #[test]
    fn straight_arm_pole_moves_slowly() {
        let mut s = SoftIk::default();
        let first = s.update(
            Vec3::ZERO,
            Vec3::X * 0.6,
            Vec3::NEG_Y,
            (0.28, 0.24),
            1.0 / 90.0,
        );
        assert!(first.straight);
        let next = s.update(Vec3::ZERO, Vec3::X * 0.6, Vec3::Z, (0.28, 0.24), 1.0 / 90.0);
        assert!(
            next.pole.angle_between(first.pole) < 0.1,
            "a flipped pole at full extension barely moves the elbow"
        );
    }

    #[test]
    fn settings_are_validated() {
        let s = SoftIk::new(SoftIkSettings {
            min_elbow_bend_deg: 90.0,
            soft_start_ratio: f32::NAN,
            straight_enter_ratio: 0.9,
            straight_exit_ratio: 0.95,
            bend_rate: -1.0,
            straight_bend_rate: f32::INFINITY,
            ..SoftIkSettings::default()
        })
        .settings;
        let d = SoftIkSettings::default();
        assert_eq!(
            (s.min_elbow_bend_deg, s.soft_start_ratio),
            (45.0, d.soft_start_ratio)
        );
        assert_eq!(s.straight_exit_ratio, 0.9, "exit may not be above enter");
        assert_eq!(
            (s.bend_rate, s.straight_bend_rate),
            (0.0, d.straight_bend_rate)
        );
    }

    #[test]
    fn the_pole_is_kept_perpendicular_to_the_arm_as_the_arm_turns() {
        let mut ik = SoftIk::default();
        let bones = (0.28, 0.24);
        // A pole with a component along the arm: only its perpendicular part counts.
        let out = ik.update(
            Vec3::ZERO,
            Vec3::new(0.3, 0.0, 0.3),
            Vec3::new(0.5, -1.0, 0.5),
            bones,
            0.01,
        );
        assert!(out.pole.distance(Vec3::NEG_Y) < 1e-5, "{}", out.pole);
        // The arm turns; the smoothed pole (from the old one, re-projected) stays perpendicular.
        let axis = Vec3::new(1.0, -1.0, 0.0).normalize();
        let out = ik.update(Vec3::ZERO, axis * 0.3, Vec3::NEG_Z, bones, 0.01);
        assert!(out.pole.dot(axis).abs() < 1e-5, "{}", out.pole);
        assert!(
            out.pole.distance(Vec3::NEG_Z) > 0.1,
            "smoothed, not snapped"
        );
    }

    #[test]
    fn switched_off_the_pole_is_not_smoothed() {
        let mut ik = SoftIk::new(SoftIkSettings {
            enabled: false,
            ..SoftIkSettings::default()
        });
        let bones = (0.28, 0.24);
        let target = Vec3::new(0.3, 0.0, 0.0);
        ik.update(Vec3::ZERO, target, Vec3::NEG_Y, bones, 0.01);
        let out = ik.update(Vec3::ZERO, target, Vec3::NEG_Z, bones, 0.01);
        assert_eq!(out.pole, Vec3::NEG_Z);
    }

    #[test]
    fn without_a_pole_the_last_one_is_re_projected_onto_the_turned_arm() {
        let mut ik = SoftIk::default();
        let bones = (0.28, 0.24);
        ik.update(
            Vec3::ZERO,
            Vec3::new(0.3, 0.0, 0.0),
            Vec3::NEG_Y,
            bones,
            0.01,
        );
        let axis = Vec3::new(1.0, -1.0, 0.0).normalize();
        let out = ik.update(Vec3::ZERO, axis * 0.3, Vec3::ZERO, bones, 0.01);
        let want = Vec3::new(-1.0, -1.0, 0.0).normalize();
        assert!(out.pole.distance(want) < 1e-5, "{}", out.pole);
    }

    #[test]
    fn the_reach_eases_exponentially_past_its_start() {
        // One zone past the start: start + zone x (1 - 1/e).
        let r = ease_reach(0.6, 0.5, 0.6);
        assert!(
            (r - (0.5 + 0.1 * (1.0 - (-1.0f32).exp()))).abs() < 1e-6,
            "{r}"
        );
        assert_eq!(ease_reach(0.4, 0.5, 0.6), 0.4);
        assert_eq!(ease_reach(0.7, 0.5, 0.5), 0.5, "no zone: the wall");
    }
}
