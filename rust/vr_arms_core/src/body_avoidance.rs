//! Stage 2: keep the wrist target out of the torso.
//!
//! In body space (+X left, +Y up, +Z forward, see [`crate::body_frame`]) three limits run in
//! order: the hand may cross the body's centre line only a little, may not go behind the chest
//! plane while it is in front of the torso (and must come further forward the further it reaches
//! across, inward of its shoulder), and may not go too far behind its own shoulder. The
//! correction (limited minus raw) is smoothed exponentially, so a limit engages and releases
//! without a pop; with no limit active the target passes through unchanged.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::body_frame::BodyFrame;
use crate::controller_targets::finite_clamp;
use crate::finite::vec3_or;
use crate::pose::Pose;
use crate::side::{PerSide, Side};
use crate::smoothing::exp_alpha;

/// Settings of [`BodyAvoidance`]. Distances in metres, body space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BodyAvoidanceSettings {
    /// Master switch.
    pub enabled: bool,
    /// How far past the body's centre line (toward the other side) a hand may go.
    pub max_cross_centre_m: f32,
    /// Body-space Z of the chest plane, measured from the avatar root (the front of the chest).
    pub chest_front_z_m: f32,
    /// Half the torso's width: the chest-plane limit applies only while the hand is closer than
    /// this to the centre line.
    pub torso_half_width_m: f32,
    /// Body-space heights (from the avatar root) between which the chest-plane limit applies.
    pub torso_bottom_y_m: f32,
    pub torso_top_y_m: f32,
    /// How far behind its shoulder (body-space Z) a hand may go.
    pub max_behind_shoulder_m: f32,
    /// A hand reaching across, inward of its own shoulder, must also come forward of the chest
    /// plane by this many metres per metre crossed, so the arm passes in front of the torso.
    pub cross_body_forward_ratio: f32,
    /// Smoothing rate of the correction (1/s). Seed default 20.
    pub smoothing_rate: f32,
}

impl Default for BodyAvoidanceSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            max_cross_centre_m: 0.12,
            chest_front_z_m: 0.12,
            torso_half_width_m: 0.16,
            torso_bottom_y_m: 0.85,
            torso_top_y_m: 1.5,
            max_behind_shoulder_m: 0.30,
            cross_body_forward_ratio: 0.6,
            smoothing_rate: 20.0,
        }
    }
}

impl BodyAvoidanceSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.max_cross_centre_m =
            finite_clamp(self.max_cross_centre_m, -0.5, 1.0, d.max_cross_centre_m);
        self.chest_front_z_m = finite_clamp(self.chest_front_z_m, -1.0, 1.0, d.chest_front_z_m);
        self.torso_half_width_m =
            finite_clamp(self.torso_half_width_m, 0.0, 1.0, d.torso_half_width_m);
        self.torso_bottom_y_m = finite_clamp(self.torso_bottom_y_m, -3.0, 3.0, d.torso_bottom_y_m);
        self.torso_top_y_m = finite_clamp(
            self.torso_top_y_m,
            self.torso_bottom_y_m,
            4.0,
            d.torso_top_y_m,
        );
        self.max_behind_shoulder_m = finite_clamp(
            self.max_behind_shoulder_m,
            0.0,
            2.0,
            d.max_behind_shoulder_m,
        );
        self.cross_body_forward_ratio = finite_clamp(
            self.cross_body_forward_ratio,
            0.0,
            5.0,
            d.cross_body_forward_ratio,
        );
        self.smoothing_rate = finite_clamp(self.smoothing_rate, 0.0, 10_000.0, d.smoothing_rate);
    }
}

/// Input for one arm (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyAvoidanceInput {
    pub raw_target: Pose,
    /// World position of this arm's shoulder (upper-arm joint).
    pub shoulder: Vec3,
    pub body: BodyFrame,
}

/// The stage, with its smoothed corrections (body space) for both arms.
#[derive(Clone, Debug, Default)]
pub struct BodyAvoidance {
    pub settings: BodyAvoidanceSettings,
    pub correction: PerSide<Vec3>,
}

impl BodyAvoidance {
    pub fn new(mut settings: BodyAvoidanceSettings) -> Self {
        settings.validate();
        Self {
            settings,
            correction: PerSide::default(),
        }
    }

    /// The body-space position `local` after the three limits (no smoothing).
    pub fn limit(&self, side: Side, local: Vec3, shoulder_local: Vec3) -> Vec3 {
        let s = &self.settings;
        let sign = side.sign();
        let mut p = local;
        // 1. Centre line: outward coordinate may not go below -max_cross.
        if sign * p.x < -s.max_cross_centre_m {
            p.x = -sign * s.max_cross_centre_m;
        }
        // 2. Chest plane, only in front of the torso.
        let in_torso_band =
            p.x.abs() < s.torso_half_width_m && p.y > s.torso_bottom_y_m && p.y < s.torso_top_y_m;
        if in_torso_band && p.z < s.chest_front_z_m {
            p.z = s.chest_front_z_m;
        }
        // 2b. Across the body, in front of it: the further inward of the shoulder, the further
        // forward, whatever the height (the arm line would cut through the torso).
        let inward = sign * (shoulder_local.x - p.x);
        if inward > 0.0 {
            let min_z = s.chest_front_z_m + s.cross_body_forward_ratio * inward;
            if p.z < min_z {
                p.z = min_z;
            }
        }
        // 3. Not too far behind the shoulder.
        let min_z = shoulder_local.z - s.max_behind_shoulder_m;
        if p.z < min_z {
            p.z = min_z;
        }
        p
    }

    /// The avoided target for one arm; smooths that arm's correction over `dt` seconds.
    pub fn update(&mut self, side: Side, input: &BodyAvoidanceInput, dt: f32) -> Pose {
        let raw = input.raw_target.sanitized(&Pose::IDENTITY);
        if !self.settings.enabled {
            *self.correction.get_mut(side) = Vec3::ZERO;
            return raw;
        }
        let body = input.body;
        let local = body.to_local(raw.position);
        let shoulder_local = body.to_local(vec3_or(input.shoulder, raw.position));
        let wanted = self.limit(side, local, shoulder_local) - local;
        let alpha = exp_alpha(self.settings.smoothing_rate, dt);
        let c = self.correction.get_mut(side);
        *c += (wanted - *c) * alpha;
        *c = vec3_or(*c, Vec3::ZERO);
        Pose::new(body.to_world(local + *c), raw.rotation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn input(target: Vec3) -> BodyAvoidanceInput {
        BodyAvoidanceInput {
            raw_target: Pose::from_position(target),
            shoulder: Vec3::new(0.17, 1.41, 0.0),
            body: BodyFrame::new(Pose::IDENTITY),
        }
    }

    fn settle(stage: &mut BodyAvoidance, side: Side, i: &BodyAvoidanceInput) -> Pose {
        let mut out = Pose::IDENTITY;
        for _ in 0..200 {
            out = stage.update(side, i, 1.0 / 90.0);
        }
        out
    }

    #[test]
    fn free_targets_pass_through_exactly() {
        let mut stage = BodyAvoidance::default();
        let i = input(Vec3::new(0.3, 1.2, 0.35));
        let out = stage.update(Side::Left, &i, 1.0 / 90.0);
        assert_eq!(out.position, i.raw_target.position);
    }

    #[test]
    fn hand_inside_the_chest_is_pushed_in_front() {
        let mut stage = BodyAvoidance::default();
        let out = settle(&mut stage, Side::Left, &input(Vec3::new(0.05, 1.2, 0.0)));
        // Chest front, plus the cross-body push: 0.12 m inward of the shoulder x 0.6.
        assert!(
            (out.position.z - (0.12 + 0.6 * 0.12)).abs() < 1e-3,
            "{}",
            out.position
        );
    }

    #[test]
    fn left_hand_may_not_cross_far_to_the_right() {
        let mut stage = BodyAvoidance::default();
        let out = settle(&mut stage, Side::Left, &input(Vec3::new(-0.5, 1.2, 0.4)));
        assert!((out.position.x + 0.12).abs() < 1e-3, "{}", out.position);
        // The right hand may go there.
        let out = stage.update(Side::Right, &input(Vec3::new(-0.5, 1.2, 0.4)), 1.0 / 90.0);
        assert_eq!(out.position.x, -0.5);
    }

    #[test]
    fn correction_engages_smoothly() {
        let mut stage = BodyAvoidance::default();
        let first = stage.update(Side::Left, &input(Vec3::new(0.05, 1.2, 0.0)), 1.0 / 90.0);
        assert!(
            first.position.z > 0.0 && first.position.z < 0.05,
            "partial first step {}",
            first.position
        );
    }

    #[test]
    fn limits_follow_the_body_when_it_turns() {
        let mut stage = BodyAvoidance::default();
        let turned = BodyFrame::new(Pose::new(
            Vec3::new(1.0, 0.0, 2.0),
            Quat::from_rotation_y(1.0),
        ));
        let local_target = Vec3::new(0.05, 1.2, 0.0);
        let i = BodyAvoidanceInput {
            raw_target: Pose::from_position(turned.to_world(local_target)),
            shoulder: turned.to_world(Vec3::new(0.17, 1.41, 0.0)),
            body: turned,
        };
        let out = settle(&mut stage, Side::Left, &i);
        assert!((turned.to_local(out.position).z - (0.12 + 0.6 * 0.12)).abs() < 1e-3);
    }

    /// Body-space limit with the shoulder placed so that only the chest-plane band acts: far to
    /// the hand's own side is "outward", so the cross-body rule (2b) never applies.
    fn band_only(p: Vec3) -> Vec3 {
        BodyAvoidance::default().limit(Side::Left, p, Vec3::new(-1.0, 1.41, 0.0))
    }

    #[test]
    fn a_hand_in_front_of_the_chest_passes_unchanged() {
        let p = Vec3::new(0.05, 1.2, 0.3);
        assert_eq!(band_only(p), p);
    }

    #[test]
    fn the_chest_plane_acts_inside_the_torso_band_only() {
        // Inside the band, behind the chest plane: brought to the plane.
        assert_eq!(
            band_only(Vec3::new(0.05, 1.2, 0.0)),
            Vec3::new(0.05, 1.2, 0.12)
        );
        assert_eq!(
            band_only(Vec3::new(-0.05, 0.86, 0.0)),
            Vec3::new(-0.05, 0.86, 0.12)
        );
        // On the band's edges (side, bottom, top) and beyond: the band is open, nothing moves.
        for p in [
            Vec3::new(0.16, 1.2, 0.0),
            Vec3::new(0.05, 0.85, 0.0),
            Vec3::new(0.05, 1.5, 0.0),
            Vec3::new(0.05, 1.6, 0.0),
        ] {
            assert_eq!(band_only(p), p, "{p}");
        }
    }

    #[test]
    fn a_hand_level_with_its_shoulder_is_not_reaching_across() {
        // Below the torso band, exactly under the shoulder, a little behind the chest plane:
        // not inward of the shoulder, so no forward push.
        let stage = BodyAvoidance::default();
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let p = Vec3::new(0.17, 0.5, -0.1);
        assert_eq!(stage.limit(Side::Left, p, shoulder), p);
        // A centimetre inward it is pushed forward by the ratio.
        let q = stage.limit(Side::Left, Vec3::new(0.16, 0.5, -0.1), shoulder);
        assert!((q.z - (0.12 + 0.6 * 0.01)).abs() < 1e-5, "{q}");
    }

    #[test]
    fn a_hand_far_behind_its_shoulder_is_brought_to_the_limit() {
        let stage = BodyAvoidance::default();
        let out = stage.limit(
            Side::Left,
            Vec3::new(0.3, 1.2, -0.6),
            Vec3::new(0.17, 1.41, 0.05),
        );
        assert_eq!(out, Vec3::new(0.3, 1.2, 0.05 - 0.3));
    }

    #[test]
    fn settings_are_validated() {
        let mut s = BodyAvoidanceSettings {
            max_cross_centre_m: f32::NAN,
            torso_half_width_m: -1.0,
            torso_bottom_y_m: 1.2,
            torso_top_y_m: 0.9,
            smoothing_rate: f32::INFINITY,
            ..BodyAvoidanceSettings::default()
        };
        s.validate();
        let d = BodyAvoidanceSettings::default();
        assert_eq!(s.max_cross_centre_m, d.max_cross_centre_m);
        assert_eq!(s.torso_half_width_m, 0.0);
        assert_eq!(s.torso_top_y_m, 1.2, "the top may not be below the bottom");
        assert_eq!(s.smoothing_rate, d.smoothing_rate);
        // The stage validates what it is given.
        let stage = BodyAvoidance::new(BodyAvoidanceSettings {
            chest_front_z_m: 7.0,
            ..d
        });
        assert_eq!(stage.settings.chest_front_z_m, 1.0);
    }
}
