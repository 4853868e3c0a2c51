//! Clavicle follow: the shoulders take part in far reaches and rise with the arm.
//!
//! From the reach ratio (shoulder joint to hand target distance over arm length), the clavicle
//! starts turning toward the hand at `start_at_reach` and is fully engaged at `full_at_reach`
//! (the original design). The turn is measured as yaw (about the body's up) and pitch (elevation) in the
//! clavicle parent's space, each clamped to `max_follow_deg`.
//!
//! The shoulder also rises as the arm does, whatever the reach, as the shoulder girdle's
//! rhythm raises a real one (the scapula turns about one degree for every two the arm turns
//! at the shoulder, past the first 30 or so): past `rise_start_deg` of arm elevation (the
//! shoulder-to-hand direction's angle from straight down), the clavicle is raised by
//! `rise_ratio` degrees per degree, up to `rise_max_deg`. The larger of the two elevations is
//! used. A raised shoulder brings the shoulder toward a hand overhead, which keeps the elbow
//! bent without moving the hand (exact hands have no overhead guard).
//!
//! It runs before the arm solve, so the arm reaches from the moved shoulder.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::maths::finite::finite_clamp;
use crate::maths::finite::{direction, quat_or, vec3_or};
use crate::maths::side::Side;
use crate::maths::skeleton_bones::SkeletonBones;
use crate::maths::smoothing::inverse_lerp_clamped;

/// A target this far out of the arm's reach (its distance from the shoulder over the arm's
/// length) lets the follow lower the shoulder by all of `max_follow_deg`.
const OUT_OF_REACH: f32 = 1.1;

/// Settings of [`ClavicleFollow`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClavicleFollowSettings {
    /// Reach ratio where the clavicle starts to follow.
    pub start_at_reach: f32,
    /// Reach ratio where it follows fully.
    pub full_at_reach: f32,
    /// Largest yaw and pitch of the clavicle (degrees).
    pub max_follow_deg: f32,
    /// Largest the follow lowers the shoulder toward a hand below it within the arm's reach
    /// (degrees, at most `max_follow_deg`). 0 by default: a hand hanging at the side has the arm
    /// straight (a far reach by the ratio), and a relaxed shoulder does not drop toward it
    /// (chosen on motion capture: lowered, the walks' elbows were furthest off). A hand out of
    /// reach below (reaching for the floor) still lowers it by up to `max_follow_deg`.
    pub max_lower_deg: f32,
    /// Arm elevation (degrees from hanging straight down: 90 level, 180 straight up) past
    /// which the shoulder rises with the arm.
    pub rise_start_deg: f32,
    /// Degrees the clavicle rises per degree of arm elevation past `rise_start_deg`.
    pub rise_ratio: f32,
    /// Largest rise of the clavicle (degrees); 0 turns the rise off.
    pub rise_max_deg: f32,
    /// Overall strength (0..1): the clavicle's rotation is blended from its input toward the
    /// followed one by this much. In the node graph this is the modifier's own `influence`,
    /// which Godot applies the same way; the node's core settings keep it at 1.
    pub weight: f32,
}

impl Default for ClavicleFollowSettings {
    fn default() -> Self {
        Self {
            start_at_reach: 0.5,
            full_at_reach: 0.95,
            max_follow_deg: 25.0,
            max_lower_deg: 0.0,
            rise_start_deg: 30.0,
            rise_ratio: 0.33,
            rise_max_deg: 30.0,
            weight: 1.0,
        }
    }
}

impl ClavicleFollowSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.start_at_reach = finite_clamp(self.start_at_reach, 0.0, 2.0, d.start_at_reach);
        self.full_at_reach = finite_clamp(
            self.full_at_reach,
            self.start_at_reach,
            3.0,
            d.full_at_reach,
        );
        self.max_follow_deg = finite_clamp(self.max_follow_deg, 0.0, 90.0, d.max_follow_deg);
        self.max_lower_deg = finite_clamp(self.max_lower_deg, 0.0, 90.0, d.max_lower_deg);
        self.rise_start_deg = finite_clamp(self.rise_start_deg, 0.0, 180.0, d.rise_start_deg);
        self.rise_ratio = finite_clamp(self.rise_ratio, 0.0, 1.0, d.rise_ratio);
        self.rise_max_deg = finite_clamp(self.rise_max_deg, 0.0, 60.0, d.rise_max_deg);
        self.weight = finite_clamp(self.weight, 0.0, 1.0, d.weight);
    }
}

/// One arm as the follow sees it in a skeleton: its bones and its length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClavicleArm {
    pub clavicle: usize,
    /// The upper arm (its position is the shoulder).
    pub upper_arm: usize,
    /// Upper arm + forearm length.
    pub arm_length: f32,
}

/// One clavicle's input (skeleton space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClavicleFollowInput {
    /// Clavicle bone position and rotation (before).
    pub clavicle_position: Vec3,
    pub clavicle_rotation: Quat,
    /// Its parent's rotation.
    pub parent_rotation: Quat,
    /// The upper-arm joint (shoulder) position (before).
    pub shoulder: Vec3,
    /// The hand target position.
    pub target: Vec3,
    /// Upper arm + forearm length.
    pub arm_length: f32,
    /// The body's up in skeleton space.
    pub up: Vec3,
}

impl ClavicleFollowInput {
    /// The input for `clavicle` of a skeleton's `bones` toward `target`: its arm's upper arm
    /// is `upper_arm` (the shoulder), `target` and the world's `up` are in skeleton space (`up`
    /// need not be unit length; a zero or non-finite one is the skeleton's +Y).
    #[inline]
    fn from_bones(
        bones: &mut impl SkeletonBones,
        clavicle: usize,
        upper_arm: usize,
        target: Vec3,
        arm_length: f32,
        up: Vec3,
    ) -> Self {
        let c = bones.global(clavicle);
        let parent_rotation = match bones.parent(clavicle) {
            Some(p) => bones.global(p).rotation,
            None => Quat::IDENTITY,
        };
        Self {
            clavicle_position: c.position,
            clavicle_rotation: c.rotation,
            parent_rotation,
            shoulder: bones.global(upper_arm).position,
            target,
            arm_length,
            up: direction(up).unwrap_or(Vec3::Y),
        }
    }
}

/// One clavicle's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClavicleFollowOutput {
    /// New clavicle-local rotation (relative to its parent).
    pub local_rotation: Quat,
    /// Engagement from the reach curve (0..1).
    pub engagement: f32,
    /// The rise with the arm's elevation (radians, before the weight).
    pub rise: f32,
    /// Applied yaw and pitch (radians).
    pub yaw: f32,
    pub pitch: f32,
}

/// The stage (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub struct ClavicleFollow {
    pub settings: ClavicleFollowSettings,
}

impl ClavicleFollow {
    pub fn new(mut settings: ClavicleFollowSettings) -> Self {
        settings.validate();
        Self { settings }
    }

    /// The step on a skeleton's bones: `arm`'s clavicle toward `target`, with the world's `up`
    /// (both in skeleton space; `up` need not be unit length). Returns the clavicle's new local
    /// rotation. Measures the bones before anything is written: take both sides, then write.
    #[inline]
    pub fn follow_bones(
        &mut self,
        side: Side,
        bones: &mut impl SkeletonBones,
        arm: ClavicleArm,
        target: Vec3,
        up: Vec3,
        dt: f32,
    ) -> Quat {
        let input = ClavicleFollowInput::from_bones(
            bones,
            arm.clavicle,
            arm.upper_arm,
            target,
            arm.arm_length,
            up,
        );
        self.update(side, &input, dt).local_rotation
    }

    /// The reach curve: 0 below `start_at_reach`, 1 from `full_at_reach`.
    pub fn engagement(&self, reach_ratio: f32) -> f32 {
        let s = &self.settings;
        inverse_lerp_clamped(s.start_at_reach, s.full_at_reach, reach_ratio)
    }

    /// The clavicle's local rotation for one arm (`side` names it: the input carries its bones).
    /// The clavicle follows the reach at once: `dt` changes nothing.
    pub fn update(
        &mut self,
        _side: Side,
        input: &ClavicleFollowInput,
        _dt: f32,
    ) -> ClavicleFollowOutput {
        self.follow(input)
    }

    fn follow(&self, input: &ClavicleFollowInput) -> ClavicleFollowOutput {
        let parent = quat_or(input.parent_rotation, Quat::IDENTITY);
        let old = quat_or(input.clavicle_rotation, parent);
        let keep = ClavicleFollowOutput {
            local_rotation: (parent.inverse() * old).normalize(),
            engagement: 0.0,
            rise: 0.0,
            yaw: 0.0,
            pitch: 0.0,
        };
        let c = vec3_or(input.clavicle_position, Vec3::ZERO);
        let shoulder = vec3_or(input.shoulder, c);
        let target = vec3_or(input.target, shoulder);
        let arm = if input.arm_length.is_finite() && input.arm_length > 1e-4 {
            input.arm_length
        } else {
            return keep;
        };
        let reach_ratio = (target - shoulder).length() / arm;
        let w = self.engagement(reach_ratio);
        let up = direction(vec3_or(input.up, Vec3::Y)).unwrap_or(Vec3::Y);
        let rise = self.rise(target - shoulder, up);
        if (w <= 0.0 && rise <= 0.0) || self.settings.weight <= 0.0 {
            // Not engaged: the clavicle stays as it is (what the turn below gives at zero yaw
            // and pitch, without the trigonometry).
            return keep;
        }
        let (Some(rest_dir), Some(to_target)) = (direction(shoulder - c), direction(target - c))
        else {
            return keep;
        };
        // Yaw and pitch in the parent's space, about the body's up.
        let up_p = direction(parent.inverse() * up).unwrap_or(Vec3::Y);
        let d = parent.inverse() * rest_dir;
        let t = parent.inverse() * to_target;
        let flat = |v: Vec3| direction(v - up_p * v.dot(up_p));
        let (Some(df), Some(tf)) = (flat(d), flat(t)) else {
            return keep;
        };
        let yaw_full = df.cross(tf).dot(up_p).atan2(df.dot(tf));
        let elevation = |v: Vec3| v.dot(up_p).clamp(-1.0, 1.0).asin();
        let pitch_full = elevation(t) - elevation(d);
        let max = self.settings.max_follow_deg.to_radians();
        let yaw = yaw_full.clamp(-max, max) * w;
        // The larger of the follow's elevation and the rise; a follow lowering the shoulder
        // toward a low hand is kept (the rise is nothing there), up to `max_lower_deg` while
        // the hand is within the arm's reach (hanging at the side), and up to `max_follow_deg`
        // as it goes out of reach ([`OUT_OF_REACH`]: reaching for the floor, the shoulder
        // drops toward the hand).
        let beyond = inverse_lerp_clamped(1.0, OUT_OF_REACH, reach_ratio);
        let lower_within = self.settings.max_lower_deg.to_radians().min(max);
        let lower = lower_within + (max - lower_within) * beyond;
        let follow = pitch_full.clamp(-lower, max) * w;
        let pitch = if rise > 0.0 { follow.max(rise) } else { follow };
        // Turn the rest direction by the yaw about up, then raise it by the pitch.
        let yawed = Quat::from_axis_angle(up_p, yaw) * d;
        // About `yawed x up` a positive angle turns `yawed` toward up: a positive pitch raises.
        let pitch_axis = direction(yawed.cross(up_p)).unwrap_or(Vec3::X);
        let wanted = Quat::from_axis_angle(pitch_axis, pitch) * yawed;
        let delta_p = Quat::from_rotation_arc(d, wanted.normalize());
        let new_global = (parent * delta_p * parent.inverse() * old).normalize();
        let followed = quat_or(parent.inverse() * new_global, keep.local_rotation);
        ClavicleFollowOutput {
            // As a modifier's influence blends: the local rotation, from the input.
            // At full weight (the default) the followed rotation itself, without the slerp's
            // trigonometry.
            local_rotation: if self.settings.weight >= 1.0 {
                followed
            } else {
                keep.local_rotation.slerp(followed, self.settings.weight)
            },
            engagement: w,
            rise,
            yaw,
            pitch,
        }
    }

    /// The shoulder's rise (radians) for the shoulder-to-target direction `to_target` and the
    /// body's `up` (unit): `rise_ratio` of the arm's elevation past `rise_start_deg`, at most
    /// `rise_max_deg`.
    pub fn rise(&self, to_target: Vec3, up: Vec3) -> f32 {
        let s = &self.settings;
        let Some(dir) = direction(to_target) else {
            return 0.0;
        };
        // The elevation from hanging straight down: acos(-dir . up), without the acos's
        // precision loss near the ends.
        let elevation = dir.cross(up).length().atan2(-dir.dot(up));
        let past = elevation - s.rise_start_deg.to_radians();
        (past * s.rise_ratio).clamp(0.0, s.rise_max_deg.to_radians())
    }
}

impl crate::stage::StageSettings for ClavicleFollowSettings {
    fn validate(&mut self) {
        Self::validate(self);
    }
}

impl crate::stage::Stage for ClavicleFollow {
    type Settings = ClavicleFollowSettings;
    type Input = ClavicleFollowInput;
    type Output = ClavicleFollowOutput;

    fn update(&mut self, side: Side, input: &Self::Input, dt: f32) -> Self::Output {
        Self::update(self, side, input, dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maths::pose::Pose;

    #[test]
    fn the_input_is_measured_from_the_bones() {
        // A chest turned a quarter turn (0), the clavicle under it (1), the upper arm (2).
        let mut t = crate::maths::pose_tree::PoseTree::new(&[None, Some(0), Some(1)]).unwrap();
        let chest = Quat::from_rotation_y(1.0);
        let clavicle = Pose::new(
            Vec3::new(0.05, 1.4, 0.0),
            chest * Quat::from_rotation_z(-1.4),
        );
        t.set_globals(&[
            Pose::new(Vec3::new(0.0, 1.2, 0.0), chest),
            clavicle,
            Pose::new(Vec3::new(0.2, 1.42, 0.0), Quat::IDENTITY),
        ]);
        let target = Vec3::new(0.5, 1.0, 0.3);
        let i =
            ClavicleFollowInput::from_bones(&mut t, 1, 2, target, 0.6, Vec3::new(0.0, 0.0, 3.0));
        assert!(i.clavicle_position.distance(clavicle.position) < 1e-6);
        assert!(i.clavicle_rotation.angle_between(clavicle.rotation) < 1e-5);
        assert!(i.parent_rotation.angle_between(chest) < 1e-5);
        assert!(i.shoulder.distance(Vec3::new(0.2, 1.42, 0.0)) < 1e-6);
        assert_eq!((i.target, i.arm_length), (target, 0.6));
        assert!(i.up.distance(Vec3::Z) < 1e-6, "up made unit: {}", i.up);
        // A root clavicle's parent is the identity; no usable up is the skeleton's +Y.
        let i = ClavicleFollowInput::from_bones(&mut t, 0, 2, target, 0.6, Vec3::ZERO);
        assert_eq!(i.parent_rotation, Quat::IDENTITY);
        assert_eq!(i.up, Vec3::Y);
    }

    fn input(target: Vec3) -> ClavicleFollowInput {
        ClavicleFollowInput {
            clavicle_position: Vec3::new(0.03, 1.41, 0.0),
            clavicle_rotation: Quat::IDENTITY,
            parent_rotation: Quat::IDENTITY,
            shoulder: Vec3::new(0.17, 1.41, 0.0),
            target,
            arm_length: 0.52,
            up: Vec3::Y,
        }
    }

    /// A hand hanging straight down at the side: the arm straight (fully engaged by the reach),
    /// the hand far below the clavicle's line. By default the shoulder stays where it is; with
    /// `max_lower_deg` it drops toward the hand by that much.
    #[test]
    fn a_hanging_hand_does_not_drop_the_shoulder_unless_asked() {
        let hanging = input(Vec3::new(0.17, 1.41 - 0.51, 0.02));
        let relaxed = ClavicleFollow::default().follow(&hanging);
        assert_eq!(relaxed.engagement, 1.0, "a straight arm is a full reach");
        assert!(relaxed.pitch.abs() < 1e-6, "{}", relaxed.pitch);
        let shoulder = |out: &ClavicleFollowOutput| out.local_rotation * Vec3::new(0.14, 0.0, 0.0);
        assert!(shoulder(&relaxed).y.abs() < 1e-5, "{}", shoulder(&relaxed));
        let dropping = ClavicleFollow::new(ClavicleFollowSettings {
            max_lower_deg: 15.0,
            ..Default::default()
        })
        .follow(&hanging);
        assert!(
            (dropping.pitch + 15f32.to_radians()).abs() < 1e-4,
            "{}",
            dropping.pitch.to_degrees()
        );
        assert!(shoulder(&dropping).y < -0.03, "{}", shoulder(&dropping));
        // Out of reach below (reaching for the floor, 10 % beyond the arm): the shoulder drops
        // by the follow's own limit.
        let floor = ClavicleFollow::default().follow(&input(Vec3::new(0.17, 1.41 - 0.58, 0.08)));
        assert!(
            (floor.pitch + 25f32.to_radians()).abs() < 1e-3,
            "{}",
            floor.pitch.to_degrees()
        );
        // The drop is at most the follow's own limit.
        let capped = ClavicleFollow::new(ClavicleFollowSettings {
            max_lower_deg: 60.0,
            ..Default::default()
        })
        .follow(&hanging);
        assert!((capped.pitch + 25f32.to_radians()).abs() < 1e-4);
    }

    #[test]
    fn engagement_follows_the_reach_curve() {
        let s = ClavicleFollow::default();
        assert_eq!(s.engagement(0.3), 0.0);
        assert_eq!(s.engagement(0.5), 0.0);
        assert!((s.engagement(0.725) - 0.5).abs() < 1e-6);
        assert_eq!(s.engagement(0.95), 1.0);
        assert_eq!(s.engagement(1.4), 1.0);
    }

    /// `weight` blends the clavicle's rotation from its input as a modifier's influence does:
    /// half the weight, half the turn; none, the input.
    #[test]
    fn weight_blends_from_the_input_rotation() {
        let at = |weight| {
            let s = ClavicleFollow::new(ClavicleFollowSettings {
                weight,
                ..Default::default()
            });
            let out = s.follow(&input(Vec3::new(0.2, 1.45, 0.55)));
            out.local_rotation.angle_between(Quat::IDENTITY)
        };
        let full = at(1.0);
        assert!(full > 10f32.to_radians(), "a far reach turns it: {full}");
        assert!((at(0.5) - full * 0.5).abs() < 1e-4, "{} vs {full}", at(0.5));
        assert_eq!(at(0.0), 0.0);
        // At no weight the output says the clavicle was not turned.
        let off = ClavicleFollow::new(ClavicleFollowSettings {
            weight: 0.0,
            ..Default::default()
        })
        .follow(&input(Vec3::new(0.2, 1.45, 0.55)));
        assert_eq!((off.engagement, off.yaw, off.pitch), (0.0, 0.0, 0.0));
    }

    #[test]
    fn far_forward_reach_turns_the_clavicle_forward() {
        let s = ClavicleFollow::default();
        let out = s.follow(&input(Vec3::new(0.2, 1.45, 0.55)));
        assert_eq!(out.engagement, 1.0);
        let dir = out.local_rotation
            * (Vec3::new(0.17, 1.41, 0.0) - Vec3::new(0.03, 1.41, 0.0)).normalize();
        assert!(dir.z > 0.3, "shoulder moved forward: {dir}");
        assert!(out.yaw.abs() <= 25f32.to_radians() + 1e-6);
    }

    #[test]
    fn a_half_engaged_clavicle_turns_half_as_far() {
        let s = reach_only();
        // Two targets on one ray from the clavicle (so the same full yaw and pitch), at reach
        // ratios 0.725 (half engaged) and 1.2 (fully engaged), within the 25 degree limit.
        let c = Vec3::new(0.03, 1.41, 0.0);
        let dir = Vec3::new(0.5, 0.1, 0.2).normalize();
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let at_ratio = |r: f32| {
            // |c + dir * k - shoulder| = r * 0.52, solved for k > 0.
            let o = c - shoulder;
            let b = o.dot(dir);
            let k = -b + (b * b - o.length_squared() + (r * 0.52).powi(2)).sqrt();
            c + dir * k
        };
        let half = s.follow(&input(at_ratio(0.725)));
        let full = s.follow(&input(at_ratio(1.2)));
        assert!((half.engagement - 0.5).abs() < 1e-4, "{}", half.engagement);
        assert_eq!(full.engagement, 1.0);
        assert!(full.yaw.abs() > 0.05 && full.yaw.abs() < 25f32.to_radians());
        assert!(
            (half.yaw - 0.5 * full.yaw).abs() < 1e-4,
            "{} {}",
            half.yaw,
            full.yaw
        );
        assert!(
            (half.pitch - 0.5 * full.pitch).abs() < 1e-4,
            "{} {}",
            half.pitch,
            full.pitch
        );
    }

    #[test]
    fn an_arm_too_short_to_measure_leaves_the_clavicle_alone() {
        let s = ClavicleFollow::default();
        let mut i = input(Vec3::new(0.2, 1.45, 0.55));
        i.arm_length = 1e-4;
        let out = s.follow(&i);
        assert_eq!(out.engagement, 0.0);
        assert!(out.local_rotation.angle_between(Quat::IDENTITY) < 1e-6);
    }

    /// The follow toward far reaches alone, without the rise with the arm.
    fn reach_only() -> ClavicleFollow {
        ClavicleFollow::new(ClavicleFollowSettings {
            rise_max_deg: 0.0,
            ..Default::default()
        })
    }

    /// A near hand low in front (the arm 27 degrees up from hanging) moves nothing.
    #[test]
    fn near_low_hands_leave_the_clavicle_alone() {
        let s = ClavicleFollow::default();
        let out = s.follow(&input(Vec3::new(0.2, 1.2, 0.1)));
        assert_eq!((out.engagement, out.rise), (0.0, 0.0));
        assert!(out.local_rotation.angle_between(Quat::IDENTITY) < 1e-6);
    }

    /// The shoulder rises with the arm at any reach: nothing up to rise_start_deg, then a
    /// third of a degree per degree (level: 20 degrees), at most rise_max_deg (straight up);
    /// the clavicle's shoulder end goes up by that much for a near hand too.
    #[test]
    fn the_shoulder_rises_with_the_arm_whatever_the_reach() {
        let s = ClavicleFollow::default();
        let up = Vec3::Y;
        let at = |deg: f32| {
            let a = deg.to_radians();
            s.rise(Vec3::new(0.0, -a.cos(), a.sin()), up).to_degrees()
        };
        assert_eq!(at(25.0), 0.0);
        assert!((at(90.0) - 0.33 * 60.0).abs() < 1e-3, "{}", at(90.0));
        assert!((at(180.0) - 30.0).abs() < 1e-3, "{}", at(180.0));
        assert_eq!(s.rise(Vec3::ZERO, up), 0.0);
        // A near hand level ahead (reach ratio 0.3: the reach curve is not engaged).
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let out = s.follow(&input(shoulder + Vec3::Z * 0.156));
        assert_eq!(out.engagement, 0.0);
        assert!(
            (out.pitch.to_degrees() - 19.8).abs() < 0.01,
            "{}",
            out.pitch
        );
        let dir = out.local_rotation * Vec3::X;
        assert!(
            (dir.y.asin().to_degrees() - 19.8).abs() < 0.01,
            "the shoulder end raised: {dir}"
        );
        // Off, nothing.
        assert_eq!(
            reach_only()
                .follow(&input(shoulder + Vec3::Z * 0.156))
                .pitch,
            0.0
        );
    }

    #[test]
    fn overhead_reach_raises_the_shoulder() {
        let s = ClavicleFollow::default();
        let out = s.follow(&input(Vec3::new(0.2, 1.95, 0.05)));
        assert!(out.pitch > 0.2, "{}", out.pitch);
        // The shoulder end of the clavicle goes up, not down.
        let dir = out.local_rotation * Vec3::X;
        assert!(dir.y > 0.2, "{dir}");
    }

    #[test]
    fn garbage_is_finite() {
        let s = ClavicleFollow::default();
        let mut i = input(Vec3::NAN);
        i.parent_rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        i.arm_length = f32::INFINITY;
        assert!(s.follow(&i).local_rotation.is_finite());
    }

    /// A tilted clavicle (its shoulder 15.9 degrees above it) and a far target 10 degrees of yaw
    /// and 35 degrees of elevation away from it, seen from the clavicle.
    fn tilted_reach(yaw_deg: f32) -> (ClavicleFollowInput, Vec3, Vec3) {
        let c = Vec3::new(0.03, 1.40, 0.0);
        let shoulder = Vec3::new(0.17, 1.44, 0.0);
        let (yaw, elev) = (yaw_deg.to_radians(), 35f32.to_radians());
        // +X turned about +Y by `yaw`, then raised by `elev`.
        let t = Vec3::new(elev.cos() * yaw.cos(), elev.sin(), -elev.cos() * yaw.sin());
        let i = ClavicleFollowInput {
            clavicle_position: c,
            clavicle_rotation: Quat::IDENTITY,
            parent_rotation: Quat::IDENTITY,
            shoulder,
            target: c + t * 0.8,
            arm_length: 0.52,
            up: Vec3::Y,
        };
        (i, (shoulder - c).normalize(), t)
    }

    #[test]
    fn yaw_and_pitch_are_measured_from_the_clavicle_rest_direction() {
        let s = reach_only();
        let (i, rest, t) = tilted_reach(10.0);
        let out = s.follow(&i);
        assert_eq!(out.engagement, 1.0);
        let rest_elevation = rest.y.asin();
        assert!(
            (out.yaw - 10f32.to_radians()).abs() < 1e-4,
            "{}",
            out.yaw.to_degrees()
        );
        let want_pitch = 35f32.to_radians() - rest_elevation;
        assert!(
            (out.pitch - want_pitch).abs() < 1e-4,
            "{}",
            out.pitch.to_degrees()
        );
        // Both within the 25-degree limit: the clavicle points straight at the target.
        let dir = out.local_rotation * rest;
        assert!(dir.distance(t) < 1e-4, "{dir} vs {t}");
    }

    #[test]
    fn the_follow_is_clamped_to_its_limit_each_way() {
        let s = ClavicleFollow::default();
        for (yaw, want) in [(40.0f32, 25.0f32), (-40.0, -25.0)] {
            let (i, _, _) = tilted_reach(yaw);
            let out = s.follow(&i);
            assert!(
                (out.yaw.to_degrees() - want).abs() < 1e-3,
                "{yaw}: {}",
                out.yaw.to_degrees()
            );
        }
    }

    #[test]
    fn settings_are_validated() {
        let s = ClavicleFollow::new(ClavicleFollowSettings {
            start_at_reach: f32::NAN,
            full_at_reach: 0.2,
            max_follow_deg: 120.0,
            max_lower_deg: f32::NAN,
            rise_start_deg: -5.0,
            rise_ratio: f32::INFINITY,
            rise_max_deg: 90.0,
            weight: -1.0,
        });
        assert_eq!(s.settings.start_at_reach, 0.5);
        assert_eq!(s.settings.max_lower_deg, 0.0);
        assert_eq!(
            s.settings.full_at_reach, 0.5,
            "full may not come before start"
        );
        assert_eq!((s.settings.max_follow_deg, s.settings.weight), (90.0, 0.0));
        let rise = (s.settings.rise_start_deg, s.settings.rise_ratio);
        assert_eq!((rise, s.settings.rise_max_deg), ((0.0, 0.33), 60.0));
    }
}
