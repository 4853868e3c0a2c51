//! Body follow: where the avatar root stands and which way it faces.
//!
//! The root follows the headset's horizontal position (a little behind the head, on the floor)
//! and a yaw, never the headset's pitch or roll. The yaw blends the headset's yaw with a yaw
//! from both hands, weighted by how far forward and how high the hands are (0 at rest, up to
//! `hands_weight_max` when aiming), and moves through a critically damped spring with a maximum
//! turn speed (the stability design, its body part). Hands behind the head get no weight and the hands' yaw is
//! clamped to within `max_hands_offset_deg` of the head's, so the body never flips.
//!
//! World space, metres, radians inside. The avatar faces +Z of its root; Godot cameras look
//! along -Z.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::body::walk_heading::WalkHeading;
use crate::maths::angles::{head_yaw, wrap_angle, yaw_of};
use crate::maths::finite::finite_clamp;
use crate::maths::finite::{direction, unit_axis, vec3_or};
use crate::maths::pose::Pose;
use crate::maths::side::Side;
use crate::maths::smoothing::inverse_lerp_clamped;
use crate::maths::spring::{CriticalSpring, omega_for_90_percent};

/// Settings of [`BodyFollow`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BodyFollowSettings {
    /// Time for the yaw to cover 90 % of a change (seconds; 0.15-0.25 recommended).
    pub response_time_s: f32,
    /// Fastest body turn (degrees per second).
    pub max_turn_speed_deg_per_s: f32,
    /// Largest weight of the hands' yaw when aiming (0 = headset only).
    pub hands_weight_max: f32,
    /// Weight of the wrist-to-wrist line's normal at any hand position (hands hanging at the
    /// sides span the body, so the line's normal is the torso's forward), scaled by how far
    /// apart the wrists are.
    pub hands_weight_rest: f32,
    /// Hands this far below the head (metres, their midpoint) start to count as hanging at the
    /// sides, where the wrists' and elbows' lines give the body no yaw: walking, relaxed arms
    /// swing fore and aft in opposition and the lines turn with the swing, not the body ...
    pub hands_hanging_start_m: f32,
    /// ... and hang fully (the lines count not at all) from here.
    pub hands_hanging_full_m: f32,
    /// Wrists this far apart (metres, horizontally) give the line full confidence; 0.1 m, none.
    pub wrist_span_full_m: f32,
    /// Hands this far in front of the head (metres, body forward) start to count ...
    pub hands_forward_start_m: f32,
    /// ... and count fully from here.
    pub hands_forward_full_m: f32,
    /// Hands this far below the head (metres, negative = below) start to count ...
    pub hands_raise_start_m: f32,
    /// ... and count fully from here.
    pub hands_raise_full_m: f32,
    /// Weight of the wrist-to-wrist line's normal against the direction to the hands' midpoint.
    pub wrist_line_weight: f32,
    /// Weight of the normal of the line between the two elbows the controllers suggest (each one
    /// forearm behind its controller along `forearm_axis`): the elbows stay at the torso's
    /// sides while the hands sweep across it, so this line follows the chest better than the
    /// wrists' (0: not used; needs the controllers' rotations).
    pub elbow_line_weight: f32,
    /// The forearm's direction (elbow to wrist) in the controller's space: the elbow hint's
    /// forearm axis through the default grip calibration (-90 degrees about X).
    pub forearm_axis: [f32; 3],
    /// The forearm length used for those elbows (metres).
    pub forearm_length_m: f32,
    /// The hands' yaw may differ from the head's by at most this much (degrees).
    pub max_hands_offset_deg: f32,
    /// The root stands this far behind the head (metres), so the neck is under the head.
    pub head_back_offset_m: f32,
    /// Weight of the walk's heading ([`crate::body::walk_heading`]): a player walking forward with
    /// the hands low faces where they walk, whichever way the head looks; the hands raised
    /// (guarding, reaching, dancing) give it no weight. 0: the head and hands alone.
    pub walk_heading_weight: f32,
}

impl Default for BodyFollowSettings {
    fn default() -> Self {
        Self {
            response_time_s: 0.2,
            max_turn_speed_deg_per_s: 540.0,
            hands_weight_max: 0.6,
            hands_weight_rest: 1.0,
            hands_hanging_start_m: 0.65,
            hands_hanging_full_m: 0.8,
            wrist_span_full_m: 0.35,
            hands_forward_start_m: 0.15,
            hands_forward_full_m: 0.45,
            hands_raise_start_m: -0.75,
            hands_raise_full_m: -0.35,
            wrist_line_weight: 0.5,
            elbow_line_weight: 2.0,
            forearm_axis: [0.0, -0.099_503_72, -0.995_037_1],
            forearm_length_m: 0.25,
            max_hands_offset_deg: 45.0,
            head_back_offset_m: 0.08,
            walk_heading_weight: 0.5,
        }
    }
}

impl BodyFollowSettings {
    /// The settings for an avatar scaled uniformly by `scale`: every length (metres of the
    /// unscaled avatar) in world metres, so a scaled avatar follows in proportion.
    pub fn in_avatar_units(&self, scale: f32) -> Self {
        let k = if scale.is_finite() && scale >= 0.01 {
            scale.min(100.0)
        } else {
            1.0
        };
        Self {
            wrist_span_full_m: self.wrist_span_full_m * k,
            hands_forward_start_m: self.hands_forward_start_m * k,
            hands_forward_full_m: self.hands_forward_full_m * k,
            hands_raise_start_m: self.hands_raise_start_m * k,
            hands_raise_full_m: self.hands_raise_full_m * k,
            hands_hanging_start_m: self.hands_hanging_start_m * k,
            hands_hanging_full_m: self.hands_hanging_full_m * k,
            head_back_offset_m: self.head_back_offset_m * k,
            forearm_length_m: self.forearm_length_m * k,
            ..*self
        }
    }

    pub fn validate(&mut self) {
        let d = Self::default();
        self.response_time_s = finite_clamp(self.response_time_s, 0.001, 5.0, d.response_time_s);
        self.max_turn_speed_deg_per_s = finite_clamp(
            self.max_turn_speed_deg_per_s,
            1.0,
            10_000.0,
            d.max_turn_speed_deg_per_s,
        );
        self.hands_weight_max = finite_clamp(self.hands_weight_max, 0.0, 1.0, d.hands_weight_max);
        self.hands_weight_rest =
            finite_clamp(self.hands_weight_rest, 0.0, 1.0, d.hands_weight_rest);
        self.hands_hanging_start_m = finite_clamp(
            self.hands_hanging_start_m,
            0.0,
            3.0,
            d.hands_hanging_start_m,
        );
        self.hands_hanging_full_m = finite_clamp(
            self.hands_hanging_full_m,
            self.hands_hanging_start_m,
            3.0,
            d.hands_hanging_full_m,
        );
        self.wrist_span_full_m =
            finite_clamp(self.wrist_span_full_m, 0.11, 3.0, d.wrist_span_full_m);
        self.hands_forward_start_m = finite_clamp(
            self.hands_forward_start_m,
            -1.0,
            2.0,
            d.hands_forward_start_m,
        );
        self.hands_forward_full_m =
            finite_clamp(self.hands_forward_full_m, -1.0, 2.0, d.hands_forward_full_m);
        self.hands_raise_start_m =
            finite_clamp(self.hands_raise_start_m, -3.0, 3.0, d.hands_raise_start_m);
        self.hands_raise_full_m =
            finite_clamp(self.hands_raise_full_m, -3.0, 3.0, d.hands_raise_full_m);
        self.wrist_line_weight =
            finite_clamp(self.wrist_line_weight, 0.0, 10.0, d.wrist_line_weight);
        self.elbow_line_weight =
            finite_clamp(self.elbow_line_weight, 0.0, 10.0, d.elbow_line_weight);
        self.forearm_axis = unit_axis(self.forearm_axis, Vec3::from_array(d.forearm_axis));
        self.forearm_length_m = finite_clamp(self.forearm_length_m, 0.0, 2.0, d.forearm_length_m);
        self.max_hands_offset_deg = finite_clamp(
            self.max_hands_offset_deg,
            0.0,
            170.0,
            d.max_hands_offset_deg,
        );
        self.head_back_offset_m =
            finite_clamp(self.head_back_offset_m, -0.5, 0.5, d.head_back_offset_m);
        self.walk_heading_weight =
            finite_clamp(self.walk_heading_weight, 0.0, 1.0, d.walk_heading_weight);
    }
}

/// One frame of input (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyFollowInput {
    pub head: Pose,
    /// Controller (or wrist) positions; `None` when not tracked.
    pub left_hand: Option<Vec3>,
    pub right_hand: Option<Vec3>,
    /// The controllers' rotations, for the elbow line; `None`: that cue is not used.
    pub left_grip: Option<Quat>,
    pub right_grip: Option<Quat>,
    /// Floor height (the XR origin's Y).
    pub floor_y: f32,
}

/// Result of one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyFollowOutput {
    /// The avatar root (faces +Z).
    pub root: Pose,
    /// Smoothed body yaw (radians, about +Y; 0 faces +Z).
    pub yaw: f32,
    /// The headset's yaw this frame.
    pub head_yaw: f32,
    /// The weight the hands had (0..hands_weight_max).
    pub hands_weight: f32,
}

/// The stage with its spring.
#[derive(Clone, Copy, Debug, Default)]
pub struct BodyFollow {
    pub settings: BodyFollowSettings,
    spring: Option<CriticalSpring>,
    walk: WalkHeading,
}

impl BodyFollow {
    pub fn new(mut settings: BodyFollowSettings) -> Self {
        settings.validate();
        Self {
            settings,
            spring: None,
            walk: WalkHeading::default(),
        }
    }

    /// How far the hands are raised (0: at or below `hands_raise_start_m` under the head, 1:
    /// from `hands_raise_full_m`; 0 when either is not tracked).
    fn hands_raised(&self, input: &BodyFollowInput) -> f32 {
        let s = &self.settings;
        match (input.left_hand, input.right_hand) {
            (Some(l), Some(r)) if l.is_finite() && r.is_finite() => {
                let below = (l.y + r.y) * 0.5 - input.head.position.y;
                inverse_lerp_clamped(s.hands_raise_start_m, s.hands_raise_full_m, below)
            }
            _ => 0.0,
        }
    }

    /// The yaw the hands suggest and its weight, seen from a body facing `body_yaw`.
    pub fn hands_yaw(&self, input: &BodyFollowInput, head_yaw: f32, body_yaw: f32) -> (f32, f32) {
        let s = &self.settings;
        let (Some(l), Some(r)) = (input.left_hand, input.right_hand) else {
            return (head_yaw, 0.0);
        };
        if !(l.is_finite() && r.is_finite()) {
            return (head_yaw, 0.0);
        }
        let head = input.head.position;
        let body = Quat::from_rotation_y(body_yaw);
        let mid = (l + r) * 0.5 - head;
        let local = body.inverse() * mid;
        let forwardness =
            inverse_lerp_clamped(s.hands_forward_start_m, s.hands_forward_full_m, local.z);
        let raise = self.hands_raised(input);
        let aim_weight = s.hands_weight_max * forwardness * raise;
        let head_dir = Vec3::new(head_yaw.sin(), 0.0, head_yaw.cos());
        // The normal of a left-to-right line, turned to agree with the head (crossed hands swap
        // the ends), and its confidence from the line's horizontal span.
        let normal = |l: Vec3, r: Vec3| {
            let line = (l - r).cross(Vec3::Y);
            let span = Vec3::new(l.x - r.x, 0.0, l.z - r.z).length();
            let conf = inverse_lerp_clamped(0.1, s.wrist_span_full_m, span);
            let dir = direction(Vec3::new(line.x, 0.0, line.z))
                .map(|d| if d.dot(head_dir) < 0.0 { -d } else { d });
            dir.map_or(Vec3::ZERO, |d| d * conf)
        };
        let wrists = normal(l, r);
        let elbows = match (input.left_grip, input.right_grip) {
            (Some(ql), Some(qr))
                if s.elbow_line_weight > 0.0 && ql.is_finite() && qr.is_finite() =>
            {
                let axis = Vec3::from_array(s.forearm_axis) * s.forearm_length_m;
                normal(l - ql.normalize() * axis, r - qr.normalize() * axis)
            }
            _ => Vec3::ZERO,
        };
        // Hands hanging at the sides swing fore and aft in opposition as the player walks: their
        // lines turn with the swing, not with the body, and give it no yaw.
        let hanging =
            inverse_lerp_clamped(s.hands_hanging_start_m, s.hands_hanging_full_m, -local.y);
        let line_conf = wrists.length().max(elbows.length()) * (1.0 - hanging);
        let mid_dir = direction(Vec3::new(mid.x, 0.0, mid.z)).filter(|_| forwardness > 0.0);
        let weight = (s.hands_weight_rest * line_conf).max(aim_weight);
        let blended = wrists * s.wrist_line_weight
            + elbows * s.elbow_line_weight
            + mid_dir.map(|d| d * forwardness).unwrap_or(Vec3::ZERO);
        let Some(dir) = direction(blended) else {
            return (head_yaw, 0.0);
        };
        let max = s.max_hands_offset_deg.to_radians();
        let offset = wrap_angle(yaw_of(dir) - head_yaw).clamp(-max, max);
        (head_yaw + offset, weight)
    }

    /// Takes `other`'s motion (its yaw and turn speed), keeping these settings: a stage made
    /// again with new settings goes on without a jump.
    pub fn state_from(&mut self, other: &BodyFollow) {
        self.spring = other.spring;
        self.walk = other.walk;
    }

    /// Advances by `dt` seconds. One body: `side` changes nothing.
    pub fn update(&mut self, _side: Side, input: &BodyFollowInput, dt: f32) -> BodyFollowOutput {
        let s = self.settings;
        let head = input
            .head
            .sanitized(&Pose::from_position(Vec3::new(0.0, 1.6, 0.0)));
        let input = BodyFollowInput { head, ..*input };
        let head_yaw = head_yaw(&head.rotation);
        let me = BodyFollow {
            settings: s,
            spring: None,
            walk: WalkHeading::default(),
        };
        let goal_from = |body_yaw: f32| {
            let (hands_yaw, weight) = me.hands_yaw(&input, head_yaw, body_yaw);
            (head_yaw + weight * wrap_angle(hands_yaw - head_yaw), weight)
        };
        // The first frame starts settled, where the goal (which depends on the body's own yaw)
        // holds still: a body that appears does not swing into place.
        let spring = self.spring.get_or_insert_with(|| {
            let mut yaw = head_yaw;
            for _ in 0..16 {
                let next = goal_from(yaw).0;
                let settled = wrap_angle(next - yaw).abs() < 1e-5;
                yaw = next;
                if settled {
                    break;
                }
            }
            CriticalSpring::new(yaw)
        });
        let (mut goal_abs, weight) = goal_from(spring.value);
        // Walking forward with the hands low, the body faces where it walks.
        let (walk_yaw, walking) = self.walk.update(head.position, head_yaw, dt);
        let walk_weight = s.walk_heading_weight * walking * (1.0 - me.hands_raised(&input));
        if walk_weight > 0.0 {
            goal_abs += walk_weight * wrap_angle(walk_yaw - goal_abs);
        }
        // Keep the spring's value unwrapped; aim at the nearest equivalent of the goal.
        let goal = spring.value + wrap_angle(goal_abs - spring.value);
        let yaw = spring.step(
            goal,
            omega_for_90_percent(s.response_time_s),
            s.max_turn_speed_deg_per_s.to_radians(),
            dt,
        );
        let yaw_wrapped = wrap_angle(yaw);
        // Re-centre the unwrapped value now and then without changing the pose.
        if yaw.abs() > 100.0 {
            spring.value = yaw_wrapped;
        }
        let rotation = Quat::from_rotation_y(yaw_wrapped);
        let forward = rotation * Vec3::Z;
        let floor = if input.floor_y.is_finite() {
            input.floor_y
        } else {
            0.0
        };
        let position =
            Vec3::new(head.position.x, floor, head.position.z) - forward * s.head_back_offset_m;
        BodyFollowOutput {
            root: Pose::new(vec3_or(position, Vec3::ZERO), rotation),
            yaw: yaw_wrapped,
            head_yaw,
            hands_weight: weight,
        }
    }
}

impl crate::stage::StageSettings for BodyFollowSettings {
    fn validate(&mut self) {
        Self::validate(self);
    }
}

impl crate::stage::Stage for BodyFollow {
    type Settings = BodyFollowSettings;
    type Input = BodyFollowInput;
    type Output = BodyFollowOutput;

    fn update(&mut self, side: Side, input: &Self::Input, dt: f32) -> Self::Output {
        Self::update(self, side, input, dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    fn head_facing(yaw: f32) -> Pose {
        // A camera looking along the avatar's +Z turned by `yaw`: camera -Z = (sin, 0, cos).
        Pose::new(
            Vec3::new(0.0, 1.65, 0.0),
            Quat::from_rotation_y(yaw + std::f32::consts::PI),
        )
    }

    fn run(
        body: &mut BodyFollow,
        input: &BodyFollowInput,
        seconds: f32,
        hz: f32,
    ) -> BodyFollowOutput {
        let mut out = body.update(Side::Left, input, 1.0 / hz);
        for _ in 1..(seconds * hz) as usize {
            out = body.update(Side::Left, input, 1.0 / hz);
        }
        out
    }

    #[test]
    fn the_first_frame_starts_settled() {
        // Head facing +Z, both hands out to the side and forward: the body stands turned toward
        // them from its first frame and stays there.
        let input = BodyFollowInput {
            head: head_facing(0.0),
            left_hand: Some(Vec3::new(-0.05, 1.3, 0.35)),
            right_hand: Some(Vec3::new(-0.45, 1.1, 0.2)),
            left_grip: None,
            right_grip: None,
            floor_y: 0.0,
        };
        let mut body = BodyFollow::new(BodyFollowSettings::default());
        let first = body.update(Side::Left, &input, 1.0 / 90.0);
        let later = run(&mut body, &input, 1.0, 90.0);
        assert!(
            first.yaw.abs() > 0.05,
            "turned toward the hands: {}",
            first.yaw
        );
        assert!(
            (later.yaw - first.yaw).abs() < 1e-4,
            "{} then {}",
            first.yaw,
            later.yaw
        );
    }

    #[test]
    fn head_yaw_reads_the_view_direction() {
        assert!((head_yaw(&head_facing(0.3).rotation) - 0.3).abs() < 1e-5);
        // Looking straight down, still defined and unchanged.
        let down = head_facing(0.3).rotation * Quat::from_rotation_x(-FRAC_PI_2 + 1e-4);
        assert!((head_yaw(&down) - 0.3).abs() < 1e-2, "{}", head_yaw(&down));
        let up = head_facing(0.3).rotation * Quat::from_rotation_x(FRAC_PI_2 - 1e-4);
        assert!((head_yaw(&up) - 0.3).abs() < 1e-2, "{}", head_yaw(&up));
    }

    #[test]
    fn at_rest_the_body_follows_the_headset_and_the_hands() {
        // The wrist line's weight below 1, so the head's turn counts for part (no elbow line:
        // these hands carry no rotations).
        let mut body = BodyFollow::new(BodyFollowSettings {
            hands_weight_rest: 0.8,
            max_hands_offset_deg: 80.0,
            ..Default::default()
        });
        // Head and hands (hanging at the sides) turned together: a real body turn.
        let rest = |yaw: f32, hands_yaw: f32| {
            let r = Quat::from_rotation_y(hands_yaw);
            BodyFollowInput {
                head: head_facing(yaw),
                left_hand: Some(r * Vec3::new(0.25, 0.9, 0.0)),
                right_hand: Some(r * Vec3::new(-0.25, 0.9, 0.0)),
                left_grip: None,
                right_grip: None,
                floor_y: 0.0,
            }
        };
        run(&mut body, &rest(0.0, 0.0), 1.0, 90.0);
        let out = run(&mut body, &rest(1.0, 1.0), 1.0, 90.0);
        assert!((out.yaw - 1.0).abs() < 0.01, "{}", out.yaw);
        assert!(out.root.position.y == 0.0);
        // The head turned alone (looking aside): the torso turns only part of the way.
        let out = run(&mut body, &rest(1.0, 0.0), 1.0, 90.0);
        assert!(out.yaw > 0.2 && out.yaw < 0.8, "{}", out.yaw);
        // With the default full wrist-line weight, hands held at the sides keep the torso with
        // them while the head looks aside (as the motion capture's performers), up to the
        // largest offset from the head (45 degrees): 1 rad - 45 deg = 0.2146 rad. (These hands
        // are 0.75 m below the head: hanging lower, see the walking test, they give no yaw.)
        let mut full = BodyFollow::new(BodyFollowSettings {
            hands_hanging_start_m: 0.8,
            hands_hanging_full_m: 0.95,
            ..Default::default()
        });
        run(&mut full, &rest(0.0, 0.0), 1.0, 90.0);
        let out = run(&mut full, &rest(1.0, 0.0), 1.0, 90.0);
        assert!(
            (out.yaw - (1.0 - 45f32.to_radians())).abs() < 1e-3,
            "{}",
            out.yaw
        );
        let out = run(&mut full, &rest(0.5, 0.0), 1.0, 90.0);
        assert!(out.yaw.abs() < 1e-3, "within 45 degrees: {}", out.yaw);
        // Without hands, the headset alone decides.
        let alone = BodyFollowInput {
            left_hand: None,
            right_hand: None,
            ..rest(0.4, 0.0)
        };
        let out = run(&mut body, &alone, 1.0, 90.0);
        assert!((out.yaw - 0.4).abs() < 0.01);
        assert_eq!(out.hands_weight, 0.0);
    }

    #[test]
    fn settles_within_the_response_time() {
        let mut body = BodyFollow::default();
        let input = |yaw| BodyFollowInput {
            head: head_facing(yaw),
            left_hand: None,
            right_hand: None,
            left_grip: None,
            right_grip: None,
            floor_y: 0.0,
        };
        run(&mut body, &input(0.0), 0.5, 90.0);
        // 0.8 rad turn: 90 % after 0.2 s (the turn-speed limit of 540 deg/s is not reached).
        let out = run(&mut body, &input(0.8), 0.2, 90.0);
        assert!(out.yaw > 0.8 * 0.85 && out.yaw < 0.8, "{}", out.yaw);
    }

    #[test]
    fn aiming_turns_the_body_toward_the_hands() {
        let mut body = BodyFollow::default();
        // Head looks straight ahead, both hands aim forward-left at chest height.
        let input = BodyFollowInput {
            head: head_facing(0.0),
            left_hand: Some(Vec3::new(0.45, 1.4, 0.35)),
            right_hand: Some(Vec3::new(0.35, 1.38, 0.45)),
            left_grip: None,
            right_grip: None,
            floor_y: 0.0,
        };
        let out = run(&mut body, &input, 1.0, 90.0);
        assert!(out.hands_weight > 0.3, "{}", out.hands_weight);
        assert!(out.yaw > 0.2, "turned toward the hands: {}", out.yaw);
    }

    #[test]
    fn walking_with_arms_swinging_at_the_sides_does_not_twist_the_body() {
        // Hands hanging 0.85 m below the head swing 0.25 m fore and aft in opposition, once a
        // second, the head still: their line turns 45 degrees each way.
        let mut body = BodyFollow::default();
        let mut widest = 0.0f32;
        for k in 0..270 {
            let swing = 0.25 * (k as f32 / 90.0 * std::f32::consts::TAU).sin();
            let input = BodyFollowInput {
                head: head_facing(0.0),
                left_hand: Some(Vec3::new(0.25, 0.8, swing)),
                right_hand: Some(Vec3::new(-0.25, 0.8, -swing)),
                left_grip: None,
                right_grip: None,
                floor_y: 0.0,
            };
            let out = body.update(Side::Left, &input, 1.0 / 90.0);
            widest = widest.max(out.yaw.abs());
        }
        assert!(widest < 0.01, "the body turned {} deg", widest.to_degrees());
        // Held higher, at the hips, the same hands still turn it (they carry the torso's yaw).
        let mut body = BodyFollow::default();
        let input = BodyFollowInput {
            head: head_facing(0.0),
            left_hand: Some(Vec3::new(0.25, 1.1, 0.2)),
            right_hand: Some(Vec3::new(-0.25, 1.1, -0.2)),
            left_grip: None,
            right_grip: None,
            floor_y: 0.0,
        };
        let out = run(&mut body, &input, 1.0, 90.0);
        assert!(out.yaw < -0.3, "{}", out.yaw);
    }

    #[test]
    fn hands_behind_the_head_do_not_flip_the_body() {
        let mut body = BodyFollow::default();
        let input = BodyFollowInput {
            head: head_facing(0.0),
            left_hand: Some(Vec3::new(0.1, 1.8, -0.25)),
            right_hand: Some(Vec3::new(-0.1, 1.8, -0.25)),
            left_grip: None,
            right_grip: None,
            floor_y: 0.0,
        };
        let out = run(&mut body, &input, 1.0, 90.0);
        assert!(out.yaw.abs() < 0.05, "{}", out.yaw);
        // Crossed hands in front do not flip it either.
        let crossed = BodyFollowInput {
            left_hand: Some(Vec3::new(-0.2, 1.4, 0.4)),
            right_hand: Some(Vec3::new(0.2, 1.4, 0.4)),
            ..input
        };
        let out = run(&mut body, &crossed, 1.0, 90.0);
        assert!(out.yaw.abs() < 0.3, "{}", out.yaw);
    }

    #[test]
    fn wrapping_turns_take_the_short_way() {
        let mut body = BodyFollow::default();
        let input = |yaw| BodyFollowInput {
            head: head_facing(yaw),
            left_hand: None,
            right_hand: None,
            left_grip: None,
            right_grip: None,
            floor_y: 0.0,
        };
        run(&mut body, &input(3.0), 1.0, 90.0);
        let out = run(&mut body, &input(-3.0), 0.05, 90.0);
        // From 3.0 to -3.0 is 0.28 rad the short way; the body must not swing through 0.
        assert!(out.yaw.abs() > 2.8, "{}", out.yaw);
    }

    #[test]
    fn garbage_in_finite_out() {
        let mut body = BodyFollow::default();
        let input = BodyFollowInput {
            head: Pose::new(Vec3::NAN, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
            left_hand: Some(Vec3::INFINITY),
            right_hand: Some(Vec3::NAN),
            left_grip: None,
            right_grip: None,
            floor_y: f32::NAN,
        };
        let out = body.update(Side::Left, &input, f32::NAN);
        assert!(out.root.is_finite() && out.yaw.is_finite());
    }

    #[test]
    fn lengths_scale_with_the_avatar_and_nothing_else_does() {
        let s = BodyFollowSettings::default();
        let big = s.in_avatar_units(1.25);
        assert_eq!(big.head_back_offset_m, s.head_back_offset_m * 1.25);
        assert_eq!(big.wrist_span_full_m, s.wrist_span_full_m * 1.25);
        assert_eq!(big.hands_forward_start_m, s.hands_forward_start_m * 1.25);
        assert_eq!(big.hands_forward_full_m, s.hands_forward_full_m * 1.25);
        assert_eq!(big.hands_raise_start_m, s.hands_raise_start_m * 1.25);
        assert_eq!(big.hands_raise_full_m, s.hands_raise_full_m * 1.25);
        assert_eq!(big.forearm_length_m, s.forearm_length_m * 1.25);
        assert_eq!(big.hands_hanging_start_m, s.hands_hanging_start_m * 1.25);
        assert_eq!(big.hands_hanging_full_m, s.hands_hanging_full_m * 1.25);
        assert_eq!(
            big.forearm_axis, s.forearm_axis,
            "a direction is not a length"
        );
        assert_eq!(
            big.response_time_s, s.response_time_s,
            "times are not lengths"
        );
        assert_eq!(big.hands_weight_max, s.hands_weight_max);
        assert_eq!(s.in_avatar_units(f32::NAN), s);
        assert_eq!(s.in_avatar_units(1.0), s);
        assert_eq!(s.in_avatar_units(0.001), s, "a scale below 0.01 is refused");
        assert_eq!(
            s.in_avatar_units(1e6).wrist_span_full_m,
            s.wrist_span_full_m * 100.0
        );
    }

    /// Known answers of `hands_yaw` for the default settings, head at (0, 1.6, 0), head yaw
    /// 0.1 rad and body yaw 0.2 rad, worked out by hand from the definition: forwardness and
    /// raise of the hands' midpoint in the body's frame, the wrist line's confidence from its
    /// span, the weight max(rest x confidence, max x forwardness x raise), the yaw of
    /// 0.5 x confidence x line normal + forwardness x midpoint direction.
    #[test]
    fn hands_yaw_known_answers() {
        let body = BodyFollow::new(BodyFollowSettings {
            hands_weight_rest: 0.8,
            ..Default::default()
        });
        let case = |l: Vec3, r: Vec3| {
            let input = BodyFollowInput {
                head: Pose::from_position(Vec3::new(0.0, 1.6, 0.0)),
                left_hand: Some(l),
                right_hand: Some(r),
                left_grip: None,
                right_grip: None,
                floor_y: 0.0,
            };
            body.hands_yaw(&input, 0.1, 0.2)
        };
        // Hands low and apart in front: the wrist line's weight wins.
        let (yaw, w) = case(Vec3::new(0.22, 1.05, 0.36), Vec3::new(0.02, 1.05, 0.30));
        assert!(
            (yaw - 0.193_788_5).abs() < 1e-5 && (w - 0.348_179_6).abs() < 1e-5,
            "{yaw} {w}"
        );
        // Hands close together and raised: the aim weight wins.
        let (yaw, w) = case(Vec3::new(0.2, 1.15, 0.42), Vec3::new(0.08, 1.15, 0.40));
        assert!(
            (yaw - 0.307_88).abs() < 1e-5 && (w - 0.419_461_5).abs() < 1e-5,
            "{yaw} {w}"
        );
        // Crossed hands: the line's normal is turned to agree with the head.
        let (yaw, w) = case(Vec3::new(-0.2, 1.05, 0.3), Vec3::new(0.1, 1.05, 0.36));
        assert!(
            (yaw + 0.170_612_8).abs() < 1e-5 && (w - 0.659_011_7).abs() < 1e-5,
            "{yaw} {w}"
        );
    }

    #[test]
    fn one_lost_hand_gives_the_hands_no_say() {
        let body = BodyFollow::default();
        for (l, r) in [
            (Vec3::NAN, Vec3::new(0.02, 1.05, 0.30)),
            (Vec3::new(0.22, 1.05, 0.36), Vec3::INFINITY),
        ] {
            let input = BodyFollowInput {
                head: Pose::from_position(Vec3::new(0.0, 1.6, 0.0)),
                left_hand: Some(l),
                right_hand: Some(r),
                left_grip: None,
                right_grip: None,
                floor_y: 0.0,
            };
            assert_eq!(body.hands_yaw(&input, 0.1, 0.2), (0.1, 0.0));
        }
    }

    #[test]
    fn a_head_without_a_position_stands_at_the_fallback() {
        let hands = (Vec3::new(0.22, 1.05, 0.36), Vec3::new(0.02, 1.05, 0.30));
        let at = |position: Vec3| {
            let mut body = BodyFollow::default();
            let input = BodyFollowInput {
                head: Pose::new(position, head_facing(0.1).rotation),
                left_hand: Some(hands.0),
                right_hand: Some(hands.1),
                left_grip: None,
                right_grip: None,
                floor_y: 0.0,
            };
            body.update(Side::Left, &input, 1.0 / 90.0)
        };
        let lost = at(Vec3::NAN);
        let fallback = at(Vec3::new(0.0, 1.6, 0.0));
        assert_eq!(lost, fallback);
        assert!(lost.hands_weight > 0.3);
    }

    #[test]
    fn the_root_stands_behind_the_head_on_the_floor() {
        let mut body = BodyFollow::default();
        let input = BodyFollowInput {
            head: Pose::new(Vec3::new(0.3, 1.6, 0.2), head_facing(0.0).rotation),
            left_hand: None,
            right_hand: None,
            left_grip: None,
            right_grip: None,
            floor_y: 0.1,
        };
        let out = body.update(Side::Left, &input, 1.0 / 90.0);
        assert!(
            out.root.position.distance(Vec3::new(0.3, 0.1, 0.2 - 0.08)) < 1e-5,
            "{}",
            out.root.position
        );
    }

    #[test]
    fn turning_for_ever_keeps_the_yaw_bounded() {
        let mut body = BodyFollow::default();
        // Thirty turns, a full turn every 2 s.
        for i in 0..(30 * 180) {
            let input = BodyFollowInput {
                head: head_facing(i as f32 * std::f32::consts::TAU / 180.0),
                left_hand: None,
                right_hand: None,
                left_grip: None,
                right_grip: None,
                floor_y: 0.0,
            };
            let out = body.update(Side::Left, &input, 1.0 / 90.0);
            assert!(out.yaw.abs() <= std::f32::consts::PI + 1e-5);
        }
        // The spring's own (unwrapped) value is re-centred now and then.
        let value = body.spring.expect("spring").value;
        assert!(value.abs() <= 100.0 + std::f32::consts::TAU, "{value}");
    }

    #[test]
    fn settings_are_validated() {
        let mut s = BodyFollowSettings {
            response_time_s: -5.0,
            hands_weight_max: 7.0,
            wrist_span_full_m: f32::NAN,
            max_hands_offset_deg: 400.0,
            ..BodyFollowSettings::default()
        };
        s.validate();
        let d = BodyFollowSettings::default();
        assert_eq!(s.response_time_s, 0.001);
        assert_eq!(s.hands_weight_max, 1.0);
        assert_eq!(s.wrist_span_full_m, d.wrist_span_full_m);
        assert_eq!(s.max_hands_offset_deg, 170.0);
        // The forearm axis is made unit (a unit one keeps its exact value; a broken one takes
        // the default), the forearm length kept in 0..2 m.
        let mut a = BodyFollowSettings {
            forearm_axis: [0.0, 0.0, -2.0],
            forearm_length_m: -1.0,
            ..d
        };
        a.validate();
        assert_eq!(a.forearm_axis, [0.0, 0.0, -1.0]);
        assert_eq!(a.forearm_length_m, 0.0);
        let mut a = BodyFollowSettings {
            forearm_axis: [f32::NAN, 0.0, 1.0],
            ..d
        };
        a.validate();
        assert_eq!(a.forearm_axis, d.forearm_axis);
        let mut unit = d;
        unit.validate();
        assert_eq!(unit.forearm_axis, d.forearm_axis);
        let body = BodyFollow::new(BodyFollowSettings {
            hands_weight_rest: -1.0,
            ..d
        });
        assert_eq!(body.settings.hands_weight_rest, 0.0);
    }

    #[test]
    fn the_elbow_line_turns_the_body_when_the_wrists_say_nothing() {
        // Both wrists at one point in front of the chest (no wrist line), the controllers
        // turned so that their elbows (one forearm behind, along the forearm axis) lie on a
        // line whose normal has yaw 0.5 rad.
        let theta = 0.5f32;
        let d = Vec3::new(theta.cos(), 0.0, -theta.sin());
        let n = Vec3::new(theta.sin(), 0.0, theta.cos());
        let c = Vec3::new(0.0, 1.0, 0.0);
        let (el, er) = (c + d * 0.2, c - d * 0.2);
        let w = c + n * 0.1 + Vec3::Y * 0.15;
        let length = w.distance(el);
        let settings = BodyFollowSettings {
            forearm_length_m: length,
            ..Default::default()
        };
        let axis = Vec3::from_array(settings.forearm_axis);
        let grip = |elbow: Vec3| Quat::from_rotation_arc(axis, (w - elbow).normalize());
        let input = BodyFollowInput {
            head: Pose::from_position(Vec3::new(0.0, 1.6, 0.0)),
            left_hand: Some(w),
            right_hand: Some(w),
            left_grip: Some(grip(el)),
            right_grip: Some(grip(er)),
            floor_y: 0.0,
        };
        let (yaw, weight) = BodyFollow::new(settings).hands_yaw(&input, 0.0, 0.0);
        assert!(
            (yaw - theta).abs() < 1e-4 && (weight - 1.0).abs() < 1e-5,
            "{yaw} {weight}"
        );
        // Beyond the largest offset (45 degrees) it is clamped.
        let (yaw, _) = BodyFollow::new(settings).hands_yaw(&input, -0.6, -0.6);
        assert!((yaw - (-0.6 + 45f32.to_radians())).abs() < 1e-4, "{yaw}");
        // Without the cue's weight, or without the controllers' rotations, nothing turns it.
        let off = BodyFollow::new(BodyFollowSettings {
            elbow_line_weight: 0.0,
            ..settings
        });
        assert_eq!(off.hands_yaw(&input, 0.0, 0.0), (0.0, 0.0));
        let no_grips = BodyFollowInput {
            left_grip: None,
            ..input
        };
        assert_eq!(
            BodyFollow::new(settings).hands_yaw(&no_grips, 0.0, 0.0),
            (0.0, 0.0)
        );
    }

    /// Hands 0.1 m in front of and 0.4 m under a head at 1.6 m (not forward enough to aim), the
    /// controllers turned so that their forearms (`forearm_axis`) run along `(-0.6, 0, 0.8)`
    /// (left) and `(0.8, 0, 0.6)` (right): elbows 0.25 m behind the wrists at
    /// `wrist + (0.15, 0, -0.2)` and `wrist + (-0.2, 0, -0.15)`.
    fn crossed_forearms(half_span: f32, settings: BodyFollowSettings) -> (f32, f32) {
        let axis = Vec3::from_array(settings.forearm_axis);
        let grip = |d: Vec3| Some(Quat::from_rotation_arc(axis, d));
        let input = BodyFollowInput {
            head: Pose::from_position(Vec3::new(0.0, 1.6, 0.0)),
            left_hand: Some(Vec3::new(half_span, 1.2, 0.1)),
            right_hand: Some(Vec3::new(-half_span, 1.2, 0.1)),
            left_grip: grip(Vec3::new(-0.6, 0.0, 0.8)),
            right_grip: grip(Vec3::new(0.8, 0.0, 0.6)),
            floor_y: 0.0,
        };
        BodyFollow::new(settings).hands_yaw(&input, 0.0, 0.0)
    }

    #[test]
    fn elbow_line_known_answers() {
        let d = BodyFollowSettings::default();
        // Wrists 0.1 m apart (no wrist line): the elbows' line (0.45, 0, -0.05) alone, its
        // normal's yaw atan2(0.05, 0.45) = 0.110657 rad, full confidence.
        let (yaw, w) = crossed_forearms(0.05, d);
        assert!(
            (yaw - 0.110_657).abs() < 1e-4 && (w - 1.0).abs() < 1e-5,
            "{yaw} {w}"
        );
        // Wrists 0.225 m apart (wrist line at half confidence, normal straight ahead) and the
        // elbow line weighted 2: 0.25 x (0, 0, 1) + 2 x the elbows' unit normal (0.0866, 0,
        // 0.9962) gives 0.077109 rad.
        let two = BodyFollowSettings {
            elbow_line_weight: 2.0,
            ..d
        };
        let (yaw, _) = crossed_forearms(0.1125, two);
        assert!((yaw - 0.077_109).abs() < 1e-4, "{yaw}");
        // The elbow line off: the wrists' yaw, and the weight is the wrist line's own
        // confidence (0.5), not the elbows'.
        let off = BodyFollowSettings {
            elbow_line_weight: 0.0,
            ..d
        };
        let (yaw, w) = crossed_forearms(0.1125, off);
        assert!(yaw.abs() < 1e-5 && (w - 0.5).abs() < 1e-5, "{yaw} {w}");
    }

    #[test]
    fn a_stage_made_again_goes_on_from_the_old_ones_yaw() {
        let input = BodyFollowInput {
            head: Pose::new(
                Vec3::new(0.0, 1.7, 0.0),
                Quat::from_rotation_y(std::f32::consts::PI),
            ),
            left_hand: None,
            right_hand: None,
            left_grip: None,
            right_grip: None,
            floor_y: 0.0,
        };
        let mut old = BodyFollow::default();
        old.update(Side::Left, &input, 0.1);
        // The head turns; the old stage starts turning after it.
        let turned = BodyFollowInput {
            head: Pose::new(
                input.head.position,
                Quat::from_rotation_y(std::f32::consts::PI + 1.0),
            ),
            ..input
        };
        let moving = old.update(Side::Left, &turned, 0.02).yaw;
        let mut again = BodyFollow::new(old.settings);
        again.state_from(&old);
        let mut fresh = BodyFollow::new(old.settings);
        let (a, f, o) = (
            again.update(Side::Left, &turned, 0.02).yaw,
            fresh.update(Side::Left, &turned, 0.02).yaw,
            old.update(Side::Left, &turned, 0.02).yaw,
        );
        assert!((a - o).abs() < 1e-6, "goes on as the old one: {a} vs {o}");
        assert!(
            (f - a).abs() > 0.1,
            "a fresh one starts settled elsewhere: {f} vs {a} (from {moving})"
        );
    }
}
