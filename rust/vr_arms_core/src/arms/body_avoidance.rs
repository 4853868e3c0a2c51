//! Stage 2: keep the wrist target out of the avatar's own torso.
//!
//! The torso is a box measured from the avatar's skeleton every frame ([`Torso`]): it hangs from
//! the midpoint of the two shoulder (upper-arm) joints, its left axis along the shoulder line,
//! and its size is a fraction of the shoulder span, so a small or scaled avatar gets its own
//! torso, not a reference body's. A hand the player puts where the avatar's chest or belly is
//! leaves it by the nearest side (front, back, left or right); anywhere else, and wherever the
//! performer's own hand could be, the target passes through unchanged, so the hand stays on the
//! controller. One more limit: a hand may not go too far behind its own shoulder. The correction
//! (limited minus raw) is smoothed exponentially, so a limit engages and releases without a pop.
//!
//! With `exact_hands` (the local player's default, as `ReachClamp`'s exact-hands mode) no limit
//! moves a target the arm can reach: the torso and behind-the-shoulder limits fade in only past
//! the arm's length (to full at `out_of_reach_full_ratio`), so a hand the player holds where the
//! avatar's torso is (an avatar built differently from the player) stays on its controller.

use glam::{Mat3, Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::maths::body_frame::BodyFrame;
use crate::maths::finite::finite_clamp;
use crate::maths::finite::{direction, vec3_or};
use crate::maths::pose::Pose;
use crate::maths::side::{PerSide, Side};
use crate::maths::smoothing::{exp_alpha, inverse_lerp_clamped};

/// Settings of [`BodyAvoidance`]. Torso sizes are fractions of the avatar's shoulder span (the
/// distance between its two upper-arm joints); other distances in metres, body space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BodyAvoidanceSettings {
    /// Master switch.
    pub enabled: bool,
    /// Exact hands (the local player, with `ReachClamp`'s exact-hands mode): no limit moves a
    /// target within the arm's reach. Off (remote players, full mode): the torso and
    /// behind-the-shoulder limits apply wherever the target is.
    pub exact_hands: bool,
    /// Half the torso's width, per metre of shoulder span.
    pub torso_half_width_ratio: f32,
    /// How far the torso's front is ahead of the shoulder line, per metre of shoulder span.
    pub torso_front_ratio: f32,
    /// How far the torso's back is behind the shoulder line, per metre of shoulder span.
    pub torso_back_ratio: f32,
    /// How far the torso reaches down from the shoulder line, per metre of shoulder span.
    pub torso_height_ratio: f32,
    /// How far behind its shoulder (body-space Z) a hand may go.
    pub max_behind_shoulder_m: f32,
    /// A target out of the arm's reach and inward of its own shoulder must be ahead of the
    /// torso's front by this many metres per metre crossed, so the arm stretched toward it
    /// passes in front of the torso instead of through it. Reachable targets are never moved
    /// by this (beyond `out_of_reach_start_ratio` of the arm's length it fades in).
    pub cross_body_forward_ratio: f32,
    /// Target distance from the shoulder, per metre of arm length, where the cross-body limit
    /// starts: a nearly straight arm reaching across low would pass through the torso, so it
    /// starts a little inside the reach ...
    pub out_of_reach_start_ratio: f32,
    /// ... and where it acts fully.
    pub out_of_reach_full_ratio: f32,
    /// Smoothing rate of the correction (1/s). The original design's default: 20.
    pub smoothing_rate: f32,
}

impl Default for BodyAvoidanceSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            exact_hands: true,
            torso_half_width_ratio: 0.45,
            torso_front_ratio: 0.25,
            torso_back_ratio: 0.45,
            torso_height_ratio: 2.0,
            max_behind_shoulder_m: 0.30,
            cross_body_forward_ratio: 0.6,
            out_of_reach_start_ratio: 0.95,
            out_of_reach_full_ratio: 1.1,
            smoothing_rate: 20.0,
        }
    }
}

impl BodyAvoidanceSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        let ratio = |v: f32, d: f32| finite_clamp(v, 0.0, 5.0, d);
        self.torso_half_width_ratio = ratio(self.torso_half_width_ratio, d.torso_half_width_ratio);
        self.torso_front_ratio = ratio(self.torso_front_ratio, d.torso_front_ratio);
        self.torso_back_ratio = ratio(self.torso_back_ratio, d.torso_back_ratio);
        self.torso_height_ratio = ratio(self.torso_height_ratio, d.torso_height_ratio);
        self.max_behind_shoulder_m = finite_clamp(
            self.max_behind_shoulder_m,
            0.0,
            2.0,
            d.max_behind_shoulder_m,
        );
        self.cross_body_forward_ratio =
            ratio(self.cross_body_forward_ratio, d.cross_body_forward_ratio);
        self.out_of_reach_start_ratio = finite_clamp(
            self.out_of_reach_start_ratio,
            0.5,
            5.0,
            d.out_of_reach_start_ratio,
        );
        self.out_of_reach_full_ratio = finite_clamp(
            self.out_of_reach_full_ratio,
            self.out_of_reach_start_ratio + 0.001,
            6.0,
            d.out_of_reach_full_ratio,
        );
        self.smoothing_rate = finite_clamp(self.smoothing_rate, 0.0, 10_000.0, d.smoothing_rate);
    }
}

/// The arm's direction (dot with down) from which a target counts as hanging at the side, out
/// of the cross-body limit's way (unless it is 0.1 to 0.3 of its distance inward) ...
pub const HANGING_START_DOT: f32 = 0.7;
/// ... and fully from here (the elbow hint's relaxed arm, `ElbowHintSettings::relaxed_*`).
pub const HANGING_FULL_DOT: f32 = 0.9;

/// The avatar's torso frame, measured from its skeleton: the origin at the midpoint of the two
/// shoulder (upper-arm) joints, +X along the shoulder line toward the left, +Y the body's up
/// (square to the shoulder line), +Z forward; `span` is the shoulder joints' distance (world
/// metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Torso {
    pub frame: Pose,
    pub span: f32,
}

impl Torso {
    /// The torso between the two shoulders (world space). A shoulder line that is not finite or
    /// too short (or too steep) to have a horizontal direction takes the body's own left axis.
    pub fn from_shoulders(left: Vec3, right: Vec3, body: &BodyFrame) -> Self {
        let up = body.up();
        // A shoulder that is not finite takes the other's place (no span: no torso).
        let (left, right) = match (left.is_finite(), right.is_finite()) {
            (true, true) => (left, right),
            (true, false) => (left, left),
            (false, true) => (right, right),
            (false, false) => (body.root().position, body.root().position),
        };
        let line = left - right;
        let x = direction(line - up * line.dot(up)).unwrap_or_else(|| body.left());
        let z = x.cross(up);
        let rotation = Quat::from_mat3(&Mat3::from_cols(x, up, z)).normalize();
        Self {
            frame: Pose::new((left + right) * 0.5, rotation),
            span: line.length(),
        }
    }
}

/// The torso as a volume (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TorsoShape {
    /// The shoulder line's midpoint and the torso's axes ([`Torso`]; `Pose::IDENTITY` for a
    /// torso in its own space).
    pub frame: Pose,
    /// Half its width (world units).
    pub half_width: f32,
    /// How far its front is ahead of the shoulder line.
    pub front: f32,
    /// How far its back is behind the shoulder line.
    pub back: f32,
    /// How far down from the shoulder line it reaches.
    pub height: f32,
}

impl TorsoShape {
    /// The torso `torso` sized as the body avoidance `s` sizes it.
    pub fn new(torso: &Torso, s: &BodyAvoidanceSettings) -> Self {
        let span = if torso.span.is_finite() {
            torso.span.max(0.0)
        } else {
            0.0
        };
        Self {
            frame: torso.frame,
            half_width: s.torso_half_width_ratio * span,
            front: s.torso_front_ratio * span,
            back: s.torso_back_ratio * span,
            height: s.torso_height_ratio * span,
        }
    }

    /// How deep `world` is in the torso: under 1 inside (0 on its axis), 1 or more outside
    /// (infinite above the shoulder line, under its bottom, or for a torso of no size).
    pub fn depth(&self, world: Vec3) -> f32 {
        self.local_depth(self.frame.inverse().transform_point(world))
    }

    /// [`Self::depth`] of `local`, in the torso's own space (`frame`'s).
    pub fn local_depth(&self, local: Vec3) -> f32 {
        let depth = if local.z >= 0.0 {
            self.front
        } else {
            self.back
        };
        if !(self.half_width > 0.0 && depth > 0.0 && local.y < 0.0 && local.y > -self.height) {
            return f32::INFINITY;
        }
        let r = ((local.x / self.half_width).powi(2) + (local.z / depth).powi(2)).sqrt();
        if r.is_finite() { r } else { f32::INFINITY }
    }
}

/// Input for one arm (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyAvoidanceInput {
    pub raw_target: Pose,
    /// World position of this arm's shoulder (upper-arm joint).
    pub shoulder: Vec3,
    /// The arm's length (upper arm + forearm, world metres).
    pub arm_length: f32,
    /// The avatar's torso (from both shoulders).
    pub torso: Torso,
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

    /// `local` (torso space, world metres) taken out of the torso: an upright elliptic
    /// cylinder under the shoulder line (half width across, front and back depths, height
    /// down). A point inside leaves it straight away from the torso's vertical axis, so the
    /// push turns continuously as the hand moves through (no side switches with a jump);
    /// outside, on its surface, or exactly on the axis (no way out is better), unchanged.
    pub fn out_of_torso(&self, local: Vec3, span: f32) -> Vec3 {
        let torso = Torso {
            frame: Pose::IDENTITY,
            span,
        };
        let r = TorsoShape::new(&torso, &self.settings).local_depth(local);
        if !(r > 1e-6 && r < 1.0) {
            return local;
        }
        Vec3::new(local.x / r, local.y, local.z / r)
    }

    /// How much the cross-body limit acts on a target `distance` from its shoulder (0 up to
    /// `out_of_reach_start_ratio` x `arm_length`, 1 from `out_of_reach_full_ratio` x it).
    pub fn out_of_reach(&self, distance: f32, arm_length: f32) -> f32 {
        if !(arm_length.is_finite() && arm_length > 0.0) {
            return 0.0;
        }
        inverse_lerp_clamped(
            arm_length * self.settings.out_of_reach_start_ratio,
            arm_length * self.settings.out_of_reach_full_ratio,
            distance,
        )
    }

    /// How much the limits act on a target `distance` from its shoulder with exact hands: 0
    /// within the arm's reach (`arm_length`), 1 from `out_of_reach_full_ratio` x it (an unknown
    /// arm length: 1).
    pub fn past_reach(&self, distance: f32, arm_length: f32) -> f32 {
        if !(arm_length.is_finite() && arm_length > 0.0) {
            return 1.0;
        }
        inverse_lerp_clamped(
            arm_length,
            arm_length * self.settings.out_of_reach_full_ratio,
            distance,
        )
    }

    /// The world position `world` of `side`'s target after the limits (no smoothing).
    pub fn limit(
        &self,
        side: Side,
        world: Vec3,
        shoulder: Vec3,
        arm_length: f32,
        torso: &Torso,
        body: &BodyFrame,
    ) -> Vec3 {
        let s = &self.settings;
        let mut local = torso.frame.inverse_transform_point(world);
        // Out of reach and across the body: ahead of the torso's front, in proportion. Not for
        // an arm hanging at the side: straight down it passes beside the torso, not through it
        // (one reaching down across the body is not hanging).
        let shoulder_x = torso.frame.inverse_transform_point(shoulder).x;
        let inward = side.sign() * (shoulder_x - local.x);
        let distance = world.distance(shoulder);
        let reach_weight = self.out_of_reach(distance, arm_length);
        if reach_weight > 0.0 && inward > 0.0 {
            let hanging = crate::maths::body_frame::hanging_share(
                (world - shoulder) / distance.max(1e-6),
                -body.up(),
                torso.frame.rotation * Vec3::X * side.sign(),
                HANGING_START_DOT,
                HANGING_FULL_DOT,
            );
            let weight = reach_weight * (1.0 - hanging);
            let front = s.torso_front_ratio * torso.span.max(0.0);
            let min_z = front + s.cross_body_forward_ratio * inward;
            if local.z < min_z {
                local.z += (min_z - local.z) * weight;
            }
        }
        // Exact hands: the torso and behind-the-shoulder limits only past the arm's reach.
        let share = if s.exact_hands {
            self.past_reach(distance, arm_length)
        } else {
            1.0
        };
        let pushed = self.out_of_torso(local, torso.span);
        let out = torso
            .frame
            .transform_point(local + (pushed - local) * share);
        // Not too far behind the shoulder (body space).
        let mut p = body.to_local(out);
        let min_z = body.to_local(shoulder).z - self.settings.max_behind_shoulder_m;
        if p.z < min_z {
            p.z += (min_z - p.z) * share;
        }
        body.to_world(p)
    }

    /// The avoided target for one arm; smooths that arm's correction over `dt` seconds.
    pub fn update(
        &mut self,
        side: Side,
        input: &BodyAvoidanceInput,
        dt: f32,
    ) -> BodyAvoidanceOutput {
        BodyAvoidanceOutput {
            target: self.avoided(side, input, dt),
        }
    }

    fn avoided(&mut self, side: Side, input: &BodyAvoidanceInput, dt: f32) -> Pose {
        let raw = input.raw_target.sanitized(&Pose::IDENTITY);
        if !self.settings.enabled {
            *self.correction.get_mut(side) = Vec3::ZERO;
            return raw;
        }
        let body = input.body;
        let shoulder = vec3_or(input.shoulder, raw.position);
        let local = body.to_local(raw.position);
        let limited = self.limit(
            side,
            raw.position,
            shoulder,
            input.arm_length,
            &input.torso,
            &body,
        );
        let wanted = vec3_or(body.to_local(limited) - local, Vec3::ZERO);
        let alpha = exp_alpha(self.settings.smoothing_rate, dt);
        let c = self.correction.get_mut(side);
        *c += (wanted - *c) * alpha;
        *c = vec3_or(*c, Vec3::ZERO);
        Pose::new(body.to_world(local + *c), raw.rotation)
    }
}

/// One hand's target (world) out of the torso and within the arm's reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyAvoidanceOutput {
    pub target: Pose,
}

impl crate::stage::StageSettings for BodyAvoidanceSettings {
    fn validate(&mut self) {
        Self::validate(self);
    }
}

impl crate::stage::Stage for BodyAvoidance {
    type Settings = BodyAvoidanceSettings;
    type Input = BodyAvoidanceInput;
    type Output = BodyAvoidanceOutput;

    fn update(&mut self, side: Side, input: &Self::Input, dt: f32) -> Self::Output {
        Self::update(self, side, input, dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    /// The reference humanoid's shoulders: 0.34 m apart at 1.41 m, so the default torso is
    /// 0.153 m to each side, 0.085 m in front of and 0.153 m behind the shoulder line, and
    /// 0.68 m tall (down to 0.73 m).
    const LEFT: Vec3 = Vec3::new(0.17, 1.41, 0.0);
    const RIGHT: Vec3 = Vec3::new(-0.17, 1.41, 0.0);

    fn input(target: Vec3) -> BodyAvoidanceInput {
        let body = BodyFrame::new(Pose::IDENTITY);
        BodyAvoidanceInput {
            raw_target: Pose::from_position(target),
            shoulder: LEFT,
            arm_length: 0.52,
            torso: Torso::from_shoulders(LEFT, RIGHT, &body),
            body,
        }
    }

    fn settle(stage: &mut BodyAvoidance, side: Side, i: &BodyAvoidanceInput) -> Pose {
        let mut out = Pose::IDENTITY;
        for _ in 0..200 {
            out = stage.avoided(side, i, 1.0 / 90.0);
        }
        out
    }

    fn close(a: Vec3, b: Vec3) -> bool {
        a.distance(b) < 1e-5
    }

    #[test]
    fn the_torso_hangs_from_the_shoulder_line() {
        let body = BodyFrame::new(Pose::IDENTITY);
        let t = Torso::from_shoulders(LEFT, RIGHT, &body);
        assert!(close(t.frame.position, Vec3::new(0.0, 1.41, 0.0)));
        assert!((t.span - 0.34).abs() < 1e-6);
        assert!(
            close(t.frame.rotation * Vec3::X, Vec3::X),
            "left along the shoulders"
        );
        assert!(close(t.frame.rotation * Vec3::Z, Vec3::Z), "forward");
        // A chest turned 90 degrees to the left: the left shoulder is at -Z, forward is +X.
        let t = Torso::from_shoulders(Vec3::new(0.0, 1.4, -0.2), Vec3::new(0.0, 1.5, 0.2), &body);
        assert!(close(t.frame.rotation * Vec3::X, Vec3::NEG_Z));
        assert!(
            close(t.frame.rotation * Vec3::Y, Vec3::Y),
            "up stays the body's"
        );
        assert!(close(t.frame.rotation * Vec3::Z, Vec3::X));
        // Shoulders on top of each other (or not finite): the body's own left.
        let turned = BodyFrame::new(Pose::new(Vec3::ZERO, Quat::from_rotation_y(1.0)));
        for (l, r) in [
            (LEFT, LEFT),
            (Vec3::NAN, RIGHT),
            (Vec3::new(0.0, 1.2, 0.0), Vec3::new(0.0, 1.6, 0.0)),
        ] {
            let t = Torso::from_shoulders(l, r, &turned);
            assert!(close(t.frame.rotation * Vec3::X, turned.left()), "{l} {r}");
            assert!(t.frame.position.is_finite());
        }
    }

    #[test]
    fn free_targets_pass_through_exactly() {
        let mut stage = BodyAvoidance::default();
        // In front of the chest, beside it, above the shoulders, and a hand resting on
        // the chest's front (on the surface is outside).
        for p in [
            Vec3::new(0.05, 1.2, 0.3),
            Vec3::new(0.16, 1.2, 0.0),
            Vec3::new(0.0, 1.42, 0.0),
            Vec3::new(0.0, 1.2, 0.34 * 0.25),
        ] {
            let out = stage.avoided(Side::Left, &input(p), 1.0 / 90.0);
            assert_eq!(out.position, p, "{p}");
        }
    }

    #[test]
    fn a_hand_inside_the_torso_leaves_away_from_its_axis() {
        let stage = BodyAvoidance::default();
        let (span, half, front, back) = (0.34, 0.34 * 0.45, 0.34 * 0.25, 0.34 * 0.45);
        // Just behind the front, a little left: r = |(0.02 / 0.153, 0.05 / 0.085)| = 0.60257,
        // out along the same direction to the surface.
        let p = stage.out_of_torso(Vec3::new(0.02, -0.2, 0.05), span);
        assert!(close(p, Vec3::new(0.033_190, -0.2, 0.082_976)), "{p}");
        // Straight to the left, right, front and back.
        for (inside, out) in [
            (Vec3::new(0.14, -0.2, 0.0), Vec3::new(half, -0.2, 0.0)),
            (Vec3::new(-0.14, -0.2, 0.0), Vec3::new(-half, -0.2, 0.0)),
            (Vec3::new(0.0, -0.2, 0.02), Vec3::new(0.0, -0.2, front)),
            (Vec3::new(0.0, -0.2, -0.14), Vec3::new(0.0, -0.2, -back)),
            // Low in the belly it is still the torso.
            (Vec3::new(0.0, -0.67, 0.05), Vec3::new(0.0, -0.67, front)),
        ] {
            let p = stage.out_of_torso(inside, span);
            assert!(close(p, out), "{inside} -> {p}, not {out}");
        }
        // Under its bottom, on it, above the shoulder line, on it, in the box's corner (outside
        // the ellipse), and exactly on the axis: unchanged (the torso is open at both ends).
        for q in [
            Vec3::new(0.0, -0.69, 0.05),
            Vec3::new(0.0, -2.0 * 0.34, 0.05),
            Vec3::new(0.0, 0.01, 0.05),
            Vec3::new(0.0, 0.0, 0.05),
            Vec3::new(0.14, -0.2, 0.08),
            Vec3::new(0.0, -0.2, 0.0),
        ] {
            assert_eq!(stage.out_of_torso(q, span), q);
        }
    }

    #[test]
    fn the_way_out_turns_continuously() {
        // A hand crossing the torso's middle from front to side: the exit point moves a little
        // for a small move, never jumps from one face to another.
        let stage = BodyAvoidance::default();
        let mut last = stage.out_of_torso(Vec3::new(0.0, -0.2, 0.05), 0.34);
        for k in 1..=100 {
            let a = k as f32 / 100.0 * std::f32::consts::FRAC_PI_2;
            let p = stage.out_of_torso(
                Vec3::new(a.sin(), 0.0, a.cos()) * 0.05 - Vec3::Y * 0.2,
                0.34,
            );
            assert!(p.distance(last) < 0.01, "{k}: {last} -> {p}");
            last = p;
        }
    }

    #[test]
    fn the_torso_is_the_avatars_own_size() {
        let stage = BodyAvoidance::default();
        let p = Vec3::new(0.0, -0.2, 0.06);
        // Inside the reference humanoid's torso (front 0.085) ...
        assert_ne!(stage.out_of_torso(p, 0.34), p);
        // ... but outside a narrow avatar's (shoulders 0.2 m apart: front 0.05).
        assert_eq!(stage.out_of_torso(p, 0.2), p);
        // No span (or a broken one): no torso.
        assert_eq!(stage.out_of_torso(Vec3::ZERO, 0.0), Vec3::ZERO);
        assert_eq!(stage.out_of_torso(Vec3::ZERO, f32::NAN), Vec3::ZERO);
    }

    /// Full mode (remote players): the limits apply wherever the target is.
    fn full_mode() -> BodyAvoidance {
        BodyAvoidance::new(BodyAvoidanceSettings {
            exact_hands: false,
            ..Default::default()
        })
    }

    /// Exact hands (the default): a reachable target inside the torso or far behind the
    /// shoulder stays where it is; past the arm's reach the limits fade in, fully at
    /// out_of_reach_full_ratio.
    #[test]
    fn exact_hands_keep_every_reachable_target() {
        let mut stage = BodyAvoidance::default();
        for target in [Vec3::new(0.0, 1.2, 0.02), Vec3::new(0.3, 1.3, -0.4)] {
            let out = settle(&mut stage, Side::Left, &input(target));
            assert_eq!(out.position, target);
            let moved = settle(&mut full_mode(), Side::Left, &input(target));
            assert!(moved.position.distance(target) > 0.01, "full mode moves it");
        }
        assert_eq!(stage.past_reach(0.52, 0.52), 0.0);
        assert!((stage.past_reach(0.52 * 1.05, 0.52) - 0.5).abs() < 1e-4);
        assert_eq!(stage.past_reach(0.52 * 1.2, 0.52), 1.0);
        assert_eq!(stage.past_reach(0.3, f32::NAN), 1.0);
    }

    #[test]
    fn a_hand_inside_the_chest_is_pushed_out_in_front() {
        let mut stage = full_mode();
        let out = settle(&mut stage, Side::Left, &input(Vec3::new(0.0, 1.2, 0.02)));
        assert!(
            close(out.position, Vec3::new(0.0, 1.2, 0.34 * 0.25)),
            "{}",
            out.position
        );
    }

    #[test]
    fn correction_engages_smoothly() {
        let mut stage = full_mode();
        let first = stage.avoided(Side::Left, &input(Vec3::new(0.0, 1.2, 0.02)), 1.0 / 90.0);
        let full = 0.34 * 0.25 - 0.02;
        let alpha = exp_alpha(20.0, 1.0 / 90.0);
        assert!(
            (first.position.z - 0.02 - full * alpha).abs() < 1e-5,
            "partial first step {}",
            first.position
        );
    }

    #[test]
    fn the_torso_turns_with_the_shoulders() {
        let mut stage = full_mode();
        let turned = BodyFrame::new(Pose::new(
            Vec3::new(1.0, 0.0, 2.0),
            Quat::from_rotation_y(1.0),
        ));
        let local_target = Vec3::new(0.0, 1.2, 0.02);
        let i = BodyAvoidanceInput {
            raw_target: Pose::from_position(turned.to_world(local_target)),
            shoulder: turned.to_world(LEFT),
            arm_length: 0.52,
            torso: Torso::from_shoulders(turned.to_world(LEFT), turned.to_world(RIGHT), &turned),
            body: turned,
        };
        let out = settle(&mut stage, Side::Left, &i);
        assert!(close(
            turned.to_local(out.position),
            Vec3::new(0.0, 1.2, 0.34 * 0.25)
        ));
    }

    #[test]
    fn a_hand_far_behind_its_shoulder_is_brought_to_the_limit() {
        let stage = BodyAvoidance::default();
        let i = input(Vec3::ZERO);
        let out = stage.limit(
            Side::Left,
            Vec3::new(0.3, 1.2, -0.6),
            Vec3::new(0.17, 1.41, 0.05),
            0.52,
            &i.torso,
            &i.body,
        );
        assert!(close(out, Vec3::new(0.3, 1.2, 0.05 - 0.3)), "{out}");
    }

    #[test]
    fn an_out_of_reach_target_across_the_body_comes_in_front_of_it() {
        let stage = BodyAvoidance::default();
        let i = input(Vec3::ZERO);
        let front = 0.34 * 0.25;
        // The left hand 0.25 m right of the centre line, level with the chest's front: 0.42 m
        // inward of its shoulder, so it must be 0.6 x 0.42 m further forward ...
        let far = |d: f32| Vec3::new(-0.25, 1.41 - d, front);
        let wanted = front + 0.6 * 0.42;
        // ... when it is well out of reach (0.74 m from the shoulder, over 1.1 x 0.52) ...
        let p = stage.limit(Side::Left, far(0.6), LEFT, 0.52, &i.torso, &i.body);
        assert!((p.z - wanted).abs() < 1e-5, "{p}");
        // ... half of that push at 1.025 x the arm's length (between 0.95 and 1.1) ...
        let d = ((0.52f32 * 1.025).powi(2) - 0.42f32.powi(2) - front * front).sqrt();
        let p = stage.limit(Side::Left, far(d), LEFT, 0.52, &i.torso, &i.body);
        assert!((p.z - (front + 0.5 * (wanted - front))).abs() < 1e-4, "{p}");
        // ... and none while it is within reach: the hand stays on the controller.
        let near = Vec3::new(-0.2, 1.41, front + 0.05);
        assert_eq!(
            stage.limit(Side::Left, near, LEFT, 0.52, &i.torso, &i.body),
            near
        );
        // The right hand on its own side is not reaching across.
        let right = Vec3::new(-0.6, 1.0, front);
        assert_eq!(
            stage.limit(Side::Right, right, RIGHT, 0.52, &i.torso, &i.body),
            right
        );
        // A hand exactly as far across as its shoulder (inward 0) is not reaching across.
        let under = Vec3::new(0.17, 1.41 - 0.6, 0.0);
        assert_eq!(
            stage.limit(Side::Left, under, LEFT, 0.52, &i.torso, &i.body),
            under
        );
        // No (or no finite) arm length: no reach to compare with.
        for arm in [f32::NAN, f32::INFINITY, 0.0, -1.0] {
            assert_eq!(stage.out_of_reach(10.0, arm), 0.0, "{arm}");
        }
    }

    /// A relaxed arm hangs nearly straight (past the cross-body limit's start) with its hand a
    /// little inward of its shoulder, beside the hips: it is not reaching across, and the hand
    /// stays on the controller (on a walk it was pushed up to 7 cm forward).
    #[test]
    fn a_hand_hanging_at_the_side_is_not_reaching_across() {
        let stage = BodyAvoidance::default();
        let i = input(Vec3::ZERO);
        for swing in [-0.15f32, 0.0, 0.15] {
            let hanging = LEFT + Vec3::new(-0.03, -0.5, swing * 0.5);
            let d = hanging.distance(LEFT) / 0.52;
            assert!(
                d > 0.95 && d < 1.0,
                "within reach, past the limit's start: {d}"
            );
            assert_eq!(
                stage.limit(Side::Left, hanging, LEFT, 0.52, &i.torso, &i.body),
                hanging,
                "swing {swing}"
            );
        }
    }

    #[test]
    fn switched_off_it_passes_through_and_forgets() {
        let mut stage = BodyAvoidance::default();
        let i = input(Vec3::new(0.0, 1.2, 0.02));
        settle(&mut stage, Side::Left, &i);
        stage.settings.enabled = false;
        assert_eq!(
            stage.avoided(Side::Left, &i, 1.0 / 90.0).position,
            i.raw_target.position
        );
        assert_eq!(stage.correction.left, Vec3::ZERO);
    }

    #[test]
    fn settings_are_validated() {
        let mut s = BodyAvoidanceSettings {
            torso_half_width_ratio: f32::NAN,
            torso_front_ratio: -1.0,
            torso_height_ratio: 9.0,
            smoothing_rate: f32::INFINITY,
            ..BodyAvoidanceSettings::default()
        };
        s.validate();
        let d = BodyAvoidanceSettings::default();
        assert_eq!(s.torso_half_width_ratio, d.torso_half_width_ratio);
        assert_eq!(s.torso_front_ratio, 0.0);
        assert_eq!(s.torso_height_ratio, 5.0);
        assert_eq!(s.smoothing_rate, d.smoothing_rate);
        // The stage validates what it is given.
        let stage = BodyAvoidance::new(BodyAvoidanceSettings {
            torso_back_ratio: 7.0,
            ..d
        });
        assert_eq!(stage.settings.torso_back_ratio, 5.0);
        // The fade ends after it starts.
        let mut f = BodyAvoidanceSettings {
            out_of_reach_start_ratio: 1.2,
            out_of_reach_full_ratio: 1.0,
            ..d
        };
        f.validate();
        assert_eq!(f.out_of_reach_full_ratio, 1.2 + 0.001);
    }
}
