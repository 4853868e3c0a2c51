//! Forearm twist: spread the wrist's roll along the forearm so the wrist never twists alone.
//!
//! The hand's twist about the forearm axis, relative to its rest pose, is read after the arm
//! solve, smoothed with a critically damped angle filter and limited per direction (pronation and
//! supination). A share of it goes to the forearm: to twist bones when the rig has them (defaults
//! 0.25 at the elbow, 0.5 at the wrist, the original design), else to the lower-arm bone itself. The hand's
//! final orientation never changes: it counter-rotates, so only the distribution is smoothed.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::maths::finite::finite_clamp;
use crate::maths::finite::{direction, quat_or};
use crate::maths::pose::Pose;
use crate::maths::side::{PerSide, Side};
use crate::maths::spring::{CriticalSpring, omega_for_90_percent};

/// Settings of [`ForearmTwist`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ForearmTwistSettings {
    /// Share of the twist on the elbow-side twist bone (rigs with twist bones).
    pub elbow_twist_weight: f32,
    /// Share of the twist on the wrist-side twist bone (rigs with twist bones).
    pub wrist_twist_weight: f32,
    /// Share of the twist on the lower-arm bone (rigs without twist bones).
    pub lower_arm_weight: f32,
    /// Largest twist followed in the pronating direction (degrees).
    pub pronation_limit_deg: f32,
    /// Largest twist followed in the supinating direction (degrees).
    pub supination_limit_deg: f32,
    /// Time for the distributed twist to cover 90 % of a change (seconds).
    pub response_time_s: f32,
}

impl Default for ForearmTwistSettings {
    fn default() -> Self {
        Self {
            elbow_twist_weight: 0.25,
            wrist_twist_weight: 0.5,
            lower_arm_weight: 0.5,
            pronation_limit_deg: 90.0,
            supination_limit_deg: 90.0,
            response_time_s: 0.06,
        }
    }
}

impl ForearmTwistSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.elbow_twist_weight =
            finite_clamp(self.elbow_twist_weight, 0.0, 1.0, d.elbow_twist_weight);
        self.wrist_twist_weight =
            finite_clamp(self.wrist_twist_weight, 0.0, 1.0, d.wrist_twist_weight);
        self.lower_arm_weight = finite_clamp(self.lower_arm_weight, 0.0, 1.0, d.lower_arm_weight);
        self.pronation_limit_deg =
            finite_clamp(self.pronation_limit_deg, 0.0, 180.0, d.pronation_limit_deg);
        self.supination_limit_deg = finite_clamp(
            self.supination_limit_deg,
            0.0,
            180.0,
            d.supination_limit_deg,
        );
        self.response_time_s = finite_clamp(self.response_time_s, 0.001, 2.0, d.response_time_s);
    }
}

/// The twist of `q` about the unit `axis` (swing-twist decomposition), in -pi..pi.
pub fn twist_angle(q: Quat, axis: Vec3) -> f32 {
    let q = quat_or(q, Quat::IDENTITY);
    let v = Vec3::new(q.x, q.y, q.z).dot(axis);
    let a = 2.0 * v.atan2(q.w);
    crate::maths::angles::wrap_angle(a)
}

/// The stage, with a filter per arm.
#[derive(Clone, Copy, Debug, Default)]
pub struct ForearmTwist {
    pub settings: ForearmTwistSettings,
    filters: PerSide<Option<CriticalSpring>>,
}

/// The twist to apply this frame (radians about the forearm axis), after limits and smoothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForearmTwistOutput {
    /// The hand's raw twist relative to rest.
    pub wrist_twist: f32,
    /// Limited and smoothed twist that is distributed.
    pub distributed: f32,
    /// The lower-arm bone's share (radians), used when the rig has no twist bones.
    pub lower_arm: f32,
    /// The elbow-side and wrist-side twist bones' shares (radians), when the rig has them.
    pub elbow_twist_bone: f32,
    pub wrist_twist_bone: f32,
    /// What the wrist joint itself keeps (radians) when the lower arm takes its share: the
    /// hand's twist less `lower_arm`.
    pub wrist_joint: f32,
}

impl ForearmTwist {
    pub fn new(mut settings: ForearmTwistSettings) -> Self {
        settings.validate();
        Self {
            settings,
            filters: PerSide::default(),
        }
    }

    /// Measures the hand's twist. `hand_local` is the hand's rotation relative to the lower arm
    /// now, `hand_rest_local` at rest, `axis` the forearm axis (elbow to wrist) in the lower
    /// arm's space. Positive twist about the axis counts as supination for the right arm and
    /// pronation for the left (mirror images).
    pub fn update(&mut self, side: Side, input: &ForearmTwistInput, dt: f32) -> ForearmTwistOutput {
        let i = *input;
        self.twist(side, i.hand_local, i.hand_rest_local, i.axis, dt)
    }

    /// The twist step as the body and the `ForearmTwist` node take it: the hand's rotation
    /// relative to the lower arm now (`hand_local`) and its rest pose in the lower arm
    /// (`hand_rest`: its position is the forearm's axis, elbow to wrist).
    pub fn twist_hand(
        &mut self,
        side: Side,
        hand_local: Quat,
        hand_rest: Pose,
        dt: f32,
    ) -> ForearmTwistOutput {
        let input = ForearmTwistInput {
            hand_local,
            hand_rest_local: hand_rest.rotation,
            axis: hand_rest.position,
        };
        self.update(side, &input, dt)
    }

    fn twist(
        &mut self,
        side: Side,
        hand_local: Quat,
        hand_rest_local: Quat,
        axis: Vec3,
        dt: f32,
    ) -> ForearmTwistOutput {
        let s = self.settings;
        let axis = direction(axis).unwrap_or(Vec3::Y);
        let delta = quat_or(hand_local, Quat::IDENTITY)
            * quat_or(hand_rest_local, Quat::IDENTITY).inverse();
        let twist = twist_angle(delta, axis);
        let (pos_limit, neg_limit) = match side {
            Side::Right => (s.supination_limit_deg, s.pronation_limit_deg),
            Side::Left => (s.pronation_limit_deg, s.supination_limit_deg),
        };
        let limited = twist.clamp(-neg_limit.to_radians(), pos_limit.to_radians());
        let filter = self
            .filters
            .get_mut(side)
            .get_or_insert(CriticalSpring::new(limited));
        // Filter the unwrapped angle toward the nearest equivalent of the goal.
        let goal = filter.value + crate::maths::angles::wrap_angle(limited - filter.value);
        let value = filter.step(
            goal,
            omega_for_90_percent(s.response_time_s),
            f32::INFINITY,
            dt,
        );
        let distributed = value.clamp(-neg_limit.to_radians(), pos_limit.to_radians());
        let lower_arm = distributed * s.lower_arm_weight;
        ForearmTwistOutput {
            wrist_twist: twist,
            distributed,
            lower_arm,
            elbow_twist_bone: distributed * s.elbow_twist_weight,
            wrist_twist_bone: distributed * s.wrist_twist_weight,
            wrist_joint: twist - lower_arm,
        }
    }
}

/// A rotation of `angle` about the unit `axis` (bone-local), for applying a twist share.
pub fn twist_rotation(axis: Vec3, angle: f32) -> Quat {
    let axis = direction(axis).unwrap_or(Vec3::Y);
    if angle.is_finite() {
        Quat::from_axis_angle(axis, angle)
    } else {
        Quat::IDENTITY
    }
}

/// The lower arm's share `angle` of the hand's twist, applied to a solve: the lower arm's and
/// the hand's new local rotations (`lower_local`, `hand_local` the solve's; `axis` the forearm's
/// axis in the lower arm's frame, the hand's rest position). The hand turns back by the share,
/// so it stays exactly where the solve put it; its rotation is the one with `w >= 0`.
pub fn share_twist(lower_local: Quat, hand_local: Quat, axis: Vec3, angle: f32) -> (Quat, Quat) {
    let share = twist_rotation(axis, angle);
    let hand = (share.inverse() * hand_local).normalize();
    let hand = if hand.w < 0.0 { -hand } else { hand };
    ((lower_local * share).normalize(), hand)
}

/// One arm's hand and forearm this frame, in the lower arm's space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForearmTwistInput {
    /// The hand's rotation relative to the lower arm now, and at rest.
    pub hand_local: Quat,
    pub hand_rest_local: Quat,
    /// The forearm's axis, elbow to wrist.
    pub axis: Vec3,
}

impl crate::stage::StageSettings for ForearmTwistSettings {
    fn validate(&mut self) {
        Self::validate(self);
    }
}

impl crate::stage::Stage for ForearmTwist {
    type Settings = ForearmTwistSettings;
    type Input = ForearmTwistInput;
    type Output = ForearmTwistOutput;

    fn update(&mut self, side: Side, input: &Self::Input, dt: f32) -> Self::Output {
        Self::update(self, side, input, dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_turns_the_lower_arm_and_the_hand_stays_put() {
        let lower = Quat::from_rotation_z(0.4);
        let hand = Quat::from_rotation_y(2.9) * Quat::from_rotation_x(0.2);
        let axis = Vec3::new(0.0, 0.25, 0.0);
        // (Turning the hand back by -0.6 takes it past half a turn: w would be negative.)
        let (new_lower, new_hand) = share_twist(lower, hand, axis, -0.6);
        // The lower arm turned by the share about its own axis.
        assert!((twist_angle(lower.inverse() * new_lower, Vec3::Y) + 0.6).abs() < 1e-5);
        // The hand's global rotation (under the lower arm) is unchanged.
        let angle = (new_lower * new_hand).angle_between(lower * hand);
        assert!(angle < 1e-5, "{angle}");
        assert!(new_hand.w >= 0.0);
        // A non-finite share leaves both as they were.
        let (l, h) = share_twist(lower, hand, axis, f32::NAN);
        assert!(l.angle_between(lower) < 1e-6 && h.angle_between(hand) < 1e-6);
    }

    #[test]
    fn reads_the_twist_about_the_axis_only() {
        let q = Quat::from_rotation_y(0.7) * Quat::from_rotation_x(0.3);
        let swing_free = Quat::from_rotation_y(0.7);
        assert!((twist_angle(swing_free, Vec3::Y) - 0.7).abs() < 1e-5);
        assert!((twist_angle(q, Vec3::Y) - 0.7).abs() < 0.05);
        assert!(twist_angle(Quat::from_rotation_x(0.5), Vec3::Y).abs() < 1e-6);
    }

    #[test]
    fn twist_converges_and_respects_limits() {
        let mut t = ForearmTwist::default();
        let mut out = t.twist(
            Side::Right,
            Quat::IDENTITY,
            Quat::IDENTITY,
            Vec3::Y,
            1.0 / 90.0,
        );
        for _ in 0..90 {
            out = t.twist(
                Side::Right,
                Quat::from_rotation_y(2.5),
                Quat::IDENTITY,
                Vec3::Y,
                1.0 / 90.0,
            );
        }
        assert!((out.wrist_twist - 2.5).abs() < 1e-5);
        assert!(
            (out.distributed - 90f32.to_radians()).abs() < 1e-3,
            "limited: {}",
            out.distributed
        );
    }

    #[test]
    fn ninety_degree_roll_is_shared_with_the_forearm() {
        let mut t = ForearmTwist::default();
        let roll = Quat::from_rotation_y(90f32.to_radians());
        let mut out = t.twist(Side::Left, roll, Quat::IDENTITY, Vec3::Y, 1.0 / 90.0);
        for _ in 0..60 {
            out = t.twist(Side::Left, roll, Quat::IDENTITY, Vec3::Y, 1.0 / 90.0);
        }
        // The default shares: the lower arm 0.5, the twist bones 0.25 (elbow side) and 0.5
        // (wrist side) of the converged 90 degrees.
        assert!(
            (out.lower_arm.to_degrees() - 45.0).abs() < 0.5,
            "{}",
            out.lower_arm.to_degrees()
        );
        assert!((out.elbow_twist_bone.to_degrees() - 22.5).abs() < 0.5);
        assert!((out.wrist_twist_bone.to_degrees() - 45.0).abs() < 0.5);
        assert!(
            (out.wrist_joint.to_degrees() - 45.0).abs() < 0.5,
            "wrist keeps {} deg",
            out.wrist_joint.to_degrees()
        );
    }

    #[test]
    fn garbage_is_finite() {
        let mut t = ForearmTwist::default();
        let out = t.twist(
            Side::Left,
            Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0),
            Quat::IDENTITY,
            Vec3::ZERO,
            f32::NAN,
        );
        assert!(out.distributed.is_finite() && out.wrist_twist.is_finite());
        assert!(twist_rotation(Vec3::ZERO, f32::NAN).is_finite());
    }

    #[test]
    fn a_twist_share_turns_about_its_bone_axis() {
        let q = twist_rotation(Vec3::new(0.0, 2.0, 0.0), 0.5);
        assert!(q.angle_between(Quat::from_rotation_y(0.5)) < 1e-6, "{q}");
        let q = twist_rotation(Vec3::X, -0.3);
        assert!(q.angle_between(Quat::from_rotation_x(-0.3)) < 1e-6, "{q}");
        // No axis: about +Y (the humanoid's bone axis); no angle: no turn.
        let q = twist_rotation(Vec3::ZERO, 0.5);
        assert!(q.angle_between(Quat::from_rotation_y(0.5)) < 1e-6, "{q}");
        assert_eq!(twist_rotation(Vec3::X, f32::NAN), Quat::IDENTITY);
    }

    #[test]
    fn settings_are_validated() {
        let mut s = ForearmTwistSettings {
            elbow_twist_weight: 2.0,
            wrist_twist_weight: f32::NAN,
            lower_arm_weight: -1.0,
            pronation_limit_deg: 500.0,
            supination_limit_deg: -5.0,
            response_time_s: f32::INFINITY,
        };
        s.validate();
        let d = ForearmTwistSettings::default();
        assert_eq!(
            (s.elbow_twist_weight, s.wrist_twist_weight),
            (1.0, d.wrist_twist_weight)
        );
        assert_eq!((s.lower_arm_weight, s.pronation_limit_deg), (0.0, 180.0));
        assert_eq!(s.supination_limit_deg, 0.0);
        assert_eq!(s.response_time_s, d.response_time_s);
    }
}
