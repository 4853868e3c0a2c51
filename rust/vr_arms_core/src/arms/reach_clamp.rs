//! Stage 3: reach clamp and overhead guard.
//!
//! Two modes, as in the original design:
//! - **exact hands** (default, the local player): the target follows the controller 1:1 with
//!   zero lag; nothing here moves it. The bend overhead comes from the shoulder girdle instead
//!   (`ClavicleFollow` raises the shoulder as the arm rises, as a real scapula does) and soft
//!   IK's minimum bend, neither of which moves a reachable hand.
//! - **full** (remote players, smoothed): optional near-body safety, a hard clamp at
//!   `hard_clamp_ratio` x arm length, an optional soft zone easing into it with a power curve,
//!   then the overhead guard. (The original design's soft zone lerps toward the wall and so
//!   pushes targets *outward*; ours compresses instead.)
//!
//! The overhead guard (full mode) shrinks the allowed reach toward `overhead_clamp_ratio` as
//! the shoulder->hand direction rises (from `overhead_guard_start_dot` to `..._full_dot` of its
//! dot product with up), which keeps a visible elbow bend overhead.
//!
//! What is smoothed is the *correction* (clamped minus raw), never the target itself: when no
//! limit is active the output is the input exactly, and a limit engages and releases without a
//! pop. The correction's rate blends from 200/s at the guard's threshold to `overhead_smooth` at
//! full guard (the original design), or uses `position_smooth` for the far clamp.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::maths::body_frame::BodyFrame;
use crate::maths::finite::finite_clamp;
use crate::maths::finite::{direction, vec3_or};
use crate::maths::pose::Pose;
use crate::maths::side::{PerSide, Side};
use crate::maths::smoothing::{exp_alpha, inverse_lerp_clamped};

/// Settings of [`ReachClamp`]. Defaults from the original design.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReachClampSettings {
    /// Exact-hands mode: the target passes through untouched, zero lag (no limit here moves a
    /// hand off its controller; the overhead guard and the clamps are full mode's).
    pub exact_hands_mode: bool,
    /// Full mode: the hand is kept within this fraction of the arm's length (0.9..1).
    pub hard_clamp_ratio: f32,
    /// Full mode: ease into the hard clamp over a soft zone.
    pub use_soft_far_clamp: bool,
    /// Width of the soft zone before the hard clamp (metres): targets that far inside the wall
    /// and beyond are pulled in progressively.
    pub soft_zone_m: f32,
    /// Power of the soft zone's easing curve.
    pub soft_curve_power: f32,
    /// Full mode: keep the hand off the shoulder and out of the chest.
    pub use_near_body_safety: bool,
    /// Near-body safety: the hand stays at least this far from the shoulder (metres).
    pub min_shoulder_distance_m: f32,
    /// Near-body safety: how far behind the shoulder the hand may go (metres, body Z).
    pub max_behind_shoulder_m: f32,
    /// Near-body safety: how far inward of the shoulder the hand may cross (metres, body X).
    pub max_inward_cross_from_shoulder_m: f32,
    /// Near-body safety: forward push added when the inward limit engages (metres).
    pub inward_push_forward_bias_m: f32,
    /// Full mode: dot of (shoulder->hand direction, up) where the overhead guard starts (0.25 ~
    /// 15 deg up).
    pub overhead_guard_start_dot: f32,
    /// Dot where the guard is fully engaged.
    pub overhead_guard_full_dot: f32,
    /// Allowed reach, as a fraction of arm length, with the guard fully engaged (0.75..0.96).
    pub overhead_clamp_ratio: f32,
    /// Correction smoothing rate at full guard (1/s).
    pub overhead_smooth: f32,
    /// Correction smoothing rate of the far clamp and near-body safety (1/s).
    pub position_smooth: f32,
    /// Output smoothing rate for rotations when `smooth_always` (1/s).
    pub rotation_smooth: f32,
    /// Also smooth the whole target (for remote players' jittery network poses); adds lag.
    pub smooth_always: bool,
}

impl Default for ReachClampSettings {
    fn default() -> Self {
        Self {
            exact_hands_mode: true,
            hard_clamp_ratio: 0.98,
            use_soft_far_clamp: false,
            soft_zone_m: 0.12,
            soft_curve_power: 4.0,
            use_near_body_safety: false,
            min_shoulder_distance_m: 0.22,
            max_behind_shoulder_m: 0.03,
            max_inward_cross_from_shoulder_m: 0.12,
            inward_push_forward_bias_m: 0.03,
            overhead_guard_start_dot: 0.25,
            overhead_guard_full_dot: 0.65,
            overhead_clamp_ratio: 0.84,
            overhead_smooth: 28.0,
            position_smooth: 18.0,
            rotation_smooth: 18.0,
            smooth_always: false,
        }
    }
}

impl ReachClampSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.hard_clamp_ratio = finite_clamp(self.hard_clamp_ratio, 0.5, 1.0, d.hard_clamp_ratio);
        self.soft_zone_m = finite_clamp(self.soft_zone_m, 0.0, 1.0, d.soft_zone_m);
        self.soft_curve_power = finite_clamp(self.soft_curve_power, 0.1, 16.0, d.soft_curve_power);
        self.min_shoulder_distance_m = finite_clamp(
            self.min_shoulder_distance_m,
            0.0,
            1.0,
            d.min_shoulder_distance_m,
        );
        self.max_behind_shoulder_m = finite_clamp(
            self.max_behind_shoulder_m,
            -1.0,
            1.0,
            d.max_behind_shoulder_m,
        );
        self.max_inward_cross_from_shoulder_m = finite_clamp(
            self.max_inward_cross_from_shoulder_m,
            -1.0,
            2.0,
            d.max_inward_cross_from_shoulder_m,
        );
        self.inward_push_forward_bias_m = finite_clamp(
            self.inward_push_forward_bias_m,
            -0.5,
            0.5,
            d.inward_push_forward_bias_m,
        );
        self.overhead_guard_start_dot = finite_clamp(
            self.overhead_guard_start_dot,
            -1.0,
            1.0,
            d.overhead_guard_start_dot,
        );
        self.overhead_guard_full_dot = finite_clamp(
            self.overhead_guard_full_dot,
            self.overhead_guard_start_dot,
            1.0,
            d.overhead_guard_full_dot,
        );
        self.overhead_clamp_ratio =
            finite_clamp(self.overhead_clamp_ratio, 0.5, 1.0, d.overhead_clamp_ratio);
        self.overhead_smooth = finite_clamp(self.overhead_smooth, 0.0, 10_000.0, d.overhead_smooth);
        self.position_smooth = finite_clamp(self.position_smooth, 0.0, 10_000.0, d.position_smooth);
        self.rotation_smooth = finite_clamp(self.rotation_smooth, 0.0, 10_000.0, d.rotation_smooth);
    }
}

/// Input for one arm (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReachClampInput {
    pub target: Pose,
    /// Shoulder (upper-arm joint) world position.
    pub shoulder: Vec3,
    /// Upper arm + forearm (metres).
    pub arm_length: f32,
    pub body: BodyFrame,
    /// World up (the guard measures elevation against it).
    pub up: Vec3,
}

/// Output for one arm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReachClampOutput {
    pub target: Pose,
    /// How engaged the overhead guard is (0..1).
    pub guard_weight: f32,
    /// Whether a limit moved the target this frame.
    pub clamped: bool,
}

/// What the stage remembers per arm.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReachClampArmState {
    /// Smoothed correction (world metres).
    pub correction: Vec3,
    /// Last output, for `smooth_always`.
    pub last: Option<Pose>,
    /// Last raw target position, to tell a jump (a snap turn, a teleport) from a motion.
    pub last_raw: Option<Vec3>,
}

#[derive(Clone, Debug, Default)]
pub struct ReachClamp {
    pub settings: ReachClampSettings,
    pub state: PerSide<ReachClampArmState>,
}

/// Fastest correction rate (1/s): the guard's threshold, "effectively instant".
const THRESHOLD_RATE: f32 = 200.0;

/// A raw target moving faster than this (avatar metres per second) jumped: a snap turn or a
/// teleport moved the player, no hand moves that fast. `smooth_always` then starts again from
/// the new target instead of sweeping the hand through the body to it.
pub const JUMP_M_S: f32 = 20.0;

impl ReachClamp {
    pub fn new(mut settings: ReachClampSettings) -> Self {
        settings.validate();
        Self {
            settings,
            state: PerSide::default(),
        }
    }

    /// Where the limits put the target (before smoothing), the guard weight and the rate at
    /// which the correction should move.
    fn desired(&self, side: Side, input: &ReachClampInput, raw: Vec3) -> (Vec3, f32, f32) {
        let s = &self.settings;
        let shoulder = input.shoulder;
        // An unknown (NaN) or negative arm length limits nothing, rather than pinning the hand
        // to the shoulder. (A non-finite shoulder needs no such care: the offsets from it are
        // NaN or infinite, so every limit's test fails or its direction is NaN and the final
        // repair keeps the raw target.)
        let arm = if input.arm_length >= 0.0 {
            input.arm_length
        } else {
            f32::INFINITY
        };
        let mut desired = raw;
        let mut rate = s.position_smooth;
        if !s.exact_hands_mode {
            if s.use_near_body_safety {
                let body = input.body;
                let sh = body.to_local(shoulder);
                let mut t = body.to_local(desired);
                let sign = side.sign();
                // Inward of the shoulder is toward the centre: -sign * x.
                let inward = (sh.x - t.x) * sign;
                if inward > s.max_inward_cross_from_shoulder_m {
                    t.x = sh.x - sign * s.max_inward_cross_from_shoulder_m;
                    t.z += s.inward_push_forward_bias_m;
                }
                t.z = t.z.max(sh.z - s.max_behind_shoulder_m);
                desired = body.to_world(t);
                let to = desired - shoulder;
                let d = to.length();
                let min_distance = body.length_to_world(s.min_shoulder_distance_m);
                if d > 1e-4 && d < min_distance {
                    desired = shoulder + to / d * min_distance;
                }
            }
            let max_reach = arm * s.hard_clamp_ratio;
            let to = desired - shoulder;
            let d = to.length();
            let mut allowed = d.min(max_reach);
            let soft_zone = input.body.length_to_world(s.soft_zone_m);
            if s.use_soft_far_clamp && soft_zone > 1e-4 {
                // Compress the last `soft_zone_m` before the wall with a power curve: slope 1 at
                // the zone's start (no kink), reaching the wall after `power x zone` of input.
                let start = (max_reach - soft_zone).max(0.0);
                if d > start {
                    let span = soft_zone * s.soft_curve_power;
                    let u = ((d - start) / span).min(1.0);
                    allowed =
                        start + (max_reach - start) * (1.0 - (1.0 - u).powf(s.soft_curve_power));
                }
            }
            if d > 1e-4 && allowed < d {
                desired = shoulder + to / d * allowed;
            }
        }
        // Overhead guard, full mode only: exact hands are never moved off a reachable target.
        let to = desired - shoulder;
        let d = to.length();
        let up = direction(input.up).unwrap_or(Vec3::Y);
        let mut guard = 0.0;
        if d > 1e-4 && !s.exact_hands_mode {
            let up_dot = (to / d).dot(up);
            guard = inverse_lerp_clamped(
                s.overhead_guard_start_dot,
                s.overhead_guard_full_dot,
                up_dot,
            );
            if guard > 0.0 {
                let guard_max = arm * (1.0 + (s.overhead_clamp_ratio - 1.0) * guard);
                if d > guard_max {
                    desired = shoulder + to / d * guard_max;
                }
                rate = THRESHOLD_RATE + (s.overhead_smooth - THRESHOLD_RATE) * guard;
            }
        }
        (desired, guard, rate)
    }

    /// The clamped target for one arm; advances its smoothing by `dt` seconds.
    pub fn update(&mut self, side: Side, input: &ReachClampInput, dt: f32) -> ReachClampOutput {
        let raw = input.target.sanitized(&Pose::IDENTITY);
        let (desired, guard_weight, rate) = self.desired(side, input, raw.position);
        let wanted = desired - raw.position;
        let clamped = wanted.length_squared() > 1e-12;
        let settings = self.settings;
        let st = self.state.get_mut(side);
        let alpha = exp_alpha(rate, dt);
        st.correction += (wanted - st.correction) * alpha;
        // A released limit lets go completely, so the hand is exact again.
        if !clamped && st.correction.length_squared() < 1e-12 {
            st.correction = Vec3::ZERO;
        }
        st.correction = vec3_or(st.correction, Vec3::ZERO);
        let mut out = Pose::new(raw.position + st.correction, raw.rotation);
        let jumped = st.last_raw.is_some_and(|p| {
            p.distance(raw.position) > input.body.length_to_world(JUMP_M_S) * dt.max(0.0)
        });
        st.last_raw = Some(raw.position);
        if jumped {
            st.last = None;
        }
        if settings.smooth_always {
            if let Some(last) = st.last {
                let pa = exp_alpha(settings.position_smooth, dt);
                let ra = exp_alpha(settings.rotation_smooth, dt);
                out = Pose::new(
                    last.position.lerp(out.position, pa),
                    last.rotation.slerp(out.rotation, ra).normalize(),
                );
            }
            st.last = Some(out);
        } else {
            st.last = None;
        }
        ReachClampOutput {
            target: out.sanitized(&raw),
            guard_weight,
            clamped,
        }
    }
}

impl crate::stage::StageSettings for ReachClampSettings {
    fn validate(&mut self) {
        Self::validate(self);
    }
}

impl crate::stage::Stage for ReachClamp {
    type Settings = ReachClampSettings;
    type Input = ReachClampInput;
    type Output = ReachClampOutput;

    fn update(&mut self, side: Side, input: &Self::Input, dt: f32) -> Self::Output {
        Self::update(self, side, input, dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARM: f32 = 0.52;

    fn input(target: Vec3) -> ReachClampInput {
        ReachClampInput {
            target: Pose::from_position(target),
            shoulder: Vec3::new(0.17, 1.41, 0.0),
            arm_length: ARM,
            body: BodyFrame::new(Pose::IDENTITY),
            up: Vec3::Y,
        }
    }

    /// Exact hands: reachable and far targets, level or overhead, pass untouched.
    #[test]
    fn exact_hands_pass_every_target_overhead_included() {
        let mut stage = ReachClamp::default();
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let overhead = shoulder + Vec3::new(0.0, 1.0, 0.2).normalize() * ARM;
        let targets = [
            Vec3::new(0.3, 1.2, 0.3),
            Vec3::new(0.9, 1.4, 0.6),
            overhead,
            shoulder + Vec3::Y * ARM * 0.9,
        ];
        for target in targets {
            for _ in 0..10 {
                let out = stage.update(Side::Left, &input(target), 1.0 / 90.0);
                assert_eq!(out.target.position, target);
                assert!(!out.clamped && out.guard_weight == 0.0);
            }
        }
    }

    /// Full mode's clamps without the far clamp or the near-body safety in the way.
    fn full_mode() -> ReachClamp {
        ReachClamp::new(ReachClampSettings {
            exact_hands_mode: false,
            ..Default::default()
        })
    }

    #[test]
    fn overhead_guard_keeps_a_bend() {
        let mut stage = full_mode();
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let target = shoulder + Vec3::new(0.0, 1.0, 0.2).normalize() * ARM;
        let mut out = stage.update(Side::Left, &input(target), 1.0 / 90.0);
        for _ in 0..90 {
            out = stage.update(Side::Left, &input(target), 1.0 / 90.0);
        }
        assert!(out.guard_weight > 0.99);
        let reach = out.target.position.distance(shoulder);
        assert!((reach - ARM * 0.84).abs() < 1e-3, "{reach}");
    }

    #[test]
    fn guard_engages_without_a_pop() {
        // Sweep the hand up through the guard's threshold: the target moves continuously.
        let mut stage = full_mode();
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let mut last: Option<Vec3> = None;
        for i in 0..=180 {
            let angle = (i as f32 / 180.0) * 1.4; // from horizontal to nearly vertical
            let dir = Vec3::new(0.0, angle.sin(), angle.cos());
            let out = stage.update(Side::Left, &input(shoulder + dir * ARM), 1.0 / 90.0);
            if let Some(prev) = last {
                assert!(
                    out.target.position.distance(prev) < 0.02,
                    "jump at step {i}"
                );
            }
            last = Some(out.target.position);
        }
    }

    #[test]
    fn full_mode_clamps_far_targets() {
        let settings = ReachClampSettings {
            exact_hands_mode: false,
            ..Default::default()
        };
        let mut stage = ReachClamp::new(settings);
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let mut out = stage.update(Side::Left, &input(Vec3::new(1.5, 1.41, 0.0)), 1.0 / 90.0);
        for _ in 0..120 {
            out = stage.update(Side::Left, &input(Vec3::new(1.5, 1.41, 0.0)), 1.0 / 90.0);
        }
        assert!((out.target.position.distance(shoulder) - ARM * 0.98).abs() < 1e-3);
        // On the line from the shoulder toward the target, not anywhere at that distance.
        let toward = shoulder + Vec3::X * (ARM * 0.98);
        assert!(
            out.target.position.distance(toward) < 1e-3,
            "{}",
            out.target.position
        );
        // And the same through the soft zone: a far target ends at the wall, on the line.
        let mut soft = ReachClamp::new(ReachClampSettings {
            exact_hands_mode: false,
            use_soft_far_clamp: true,
            ..Default::default()
        });
        let (d, _, _) = soft.desired(
            Side::Left,
            &input(Vec3::new(1.5, 1.41, 0.0)),
            Vec3::new(1.5, 1.41, 0.0),
        );
        assert!(d.distance(toward) < 1e-4, "{d}");
        let _ = soft.update(Side::Left, &input(Vec3::new(1.5, 1.41, 0.0)), 1.0 / 90.0);
    }

    #[test]
    fn soft_zone_eases_before_the_wall() {
        let settings = ReachClampSettings {
            exact_hands_mode: false,
            use_soft_far_clamp: true,
            ..Default::default()
        };
        let stage = ReachClamp::new(settings);
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let d_in = ARM * 0.98 - 0.05;
        let (desired, _, _) = stage.desired(
            Side::Left,
            &input(shoulder + Vec3::X * d_in),
            shoulder + Vec3::X * d_in,
        );
        let got = desired.distance(shoulder);
        // 0.05 m inside the wall is 0.07 m into the 0.12 m zone: u = 0.07 / (0.12 x 4) = 0.1458,
        // held at start + 0.12 x (1 - (1 - u)^4) = wall - 0.06388, i.e. 0.01388 m nearer.
        assert!(
            (got - (d_in - 0.01388)).abs() < 1e-4,
            "{got} vs {}",
            d_in - 0.01388
        );
    }

    #[test]
    fn near_body_safety_keeps_off_the_shoulder() {
        let settings = ReachClampSettings {
            exact_hands_mode: false,
            use_near_body_safety: true,
            ..Default::default()
        };
        let stage = ReachClamp::new(settings);
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let p = shoulder + Vec3::new(0.0, -0.05, 0.05);
        let (desired, _, _) = stage.desired(Side::Left, &input(p), p);
        assert!(desired.distance(shoulder) >= 0.22 - 1e-4);
    }

    #[test]
    fn garbage_in_is_finite_out() {
        let mut stage = ReachClamp::default();
        let mut i = input(Vec3::NAN);
        i.shoulder = Vec3::INFINITY;
        i.arm_length = f32::NAN;
        i.up = Vec3::ZERO;
        let out = stage.update(Side::Right, &i, f32::INFINITY);
        assert!(out.target.is_finite());
    }

    fn near_body() -> ReachClamp {
        ReachClamp::new(ReachClampSettings {
            exact_hands_mode: false,
            use_near_body_safety: true,
            ..Default::default()
        })
    }

    #[test]
    fn a_hand_crossing_inward_is_held_at_the_limit_and_nudged_forward() {
        // Left shoulder at x 0.17; the hand 0.30 m inward of it (limit 0.12 m): held at
        // x = 0.05 and moved 0.03 m forward; far enough from the shoulder and in reach.
        let stage = near_body();
        let p = Vec3::new(-0.13, 1.2, 0.3);
        let (d, _, _) = stage.desired(Side::Left, &input(p), p);
        assert!(d.distance(Vec3::new(0.05, 1.2, 0.33)) < 1e-5, "{d}");
        // The right arm, mirrored.
        let mut i = input(Vec3::new(0.13, 1.2, 0.3));
        i.shoulder = Vec3::new(-0.17, 1.41, 0.0);
        let (d, _, _) = stage.desired(Side::Right, &i, Vec3::new(0.13, 1.2, 0.3));
        assert!(d.distance(Vec3::new(-0.05, 1.2, 0.33)) < 1e-5, "{d}");
        // Inward by less than the limit: untouched.
        let p = Vec3::new(0.1, 1.2, 0.3);
        let (d, _, _) = stage.desired(Side::Left, &input(p), p);
        assert!(d.distance(p) < 1e-6, "{d}");
    }

    #[test]
    fn a_hand_behind_the_shoulder_is_brought_to_the_limit() {
        let stage = near_body();
        let p = Vec3::new(0.27, 1.2, -0.2);
        let (d, _, _) = stage.desired(Side::Left, &input(p), p);
        assert!(d.distance(Vec3::new(0.27, 1.2, -0.03)) < 1e-5, "{d}");
    }

    #[test]
    fn a_hand_at_the_shoulder_is_pushed_out_along_its_own_direction() {
        let stage = near_body();
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let p = shoulder + Vec3::new(0.0, -0.05, 0.05);
        let (d, _, _) = stage.desired(Side::Left, &input(p), p);
        let want = shoulder + Vec3::new(0.0, -1.0, 1.0).normalize() * 0.22;
        assert!(d.distance(want) < 1e-5, "{d} vs {want}");
    }

    #[test]
    fn a_half_raised_arm_gets_half_the_guard_and_its_rate() {
        // Up-dot 0.45: halfway between 0.25 and 0.65: reach limited to 0.52 x (1 - 0.16 x 0.5)
        // = 0.4784 m, smoothed at 200 + (28 - 200) x 0.5 = 114 /s.
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let dir = Vec3::new(0.0, 0.45, (1.0f32 - 0.45 * 0.45).sqrt());
        let p = shoulder + dir * ARM;
        let mut stage = full_mode();
        let (d, guard, rate) = stage.desired(Side::Left, &input(p), p);
        assert!(
            (guard - 0.5).abs() < 1e-5 && (rate - 114.0).abs() < 1e-3,
            "{guard} {rate}"
        );
        assert!(d.distance(shoulder + dir * 0.4784) < 1e-5, "{d}");
        // The first frame moves 1 - exp(-114 x 0.01) of the correction.
        let out = stage.update(Side::Left, &input(p), 0.01);
        let want = p + (shoulder + dir * 0.4784 - p) * (1.0 - (-1.14f32).exp());
        assert!(
            out.target.position.distance(want) < 1e-5,
            "{} vs {want}",
            out.target.position
        );
        // Below the start of the guard (and inside the far clamp): nothing.
        let low = shoulder + Vec3::new(0.0, 0.2, 0.98).normalize() * ARM * 0.9;
        let (d, guard, _) = stage.desired(Side::Left, &input(low), low);
        assert!(guard == 0.0 && d.distance(low) < 1e-6);
    }

    #[test]
    fn without_a_shoulder_or_an_arm_length_nothing_is_limited() {
        let far = Vec3::new(1.5, 1.41, 0.0);
        for (shoulder, arm) in [
            (Vec3::new(0.17, 1.41, 0.0), f32::NAN),
            (Vec3::new(0.17, 1.41, 0.0), -1.0),
            (Vec3::new(0.17, 1.41, 0.0), f32::INFINITY),
            (Vec3::NAN, ARM),
            (Vec3::INFINITY, ARM),
        ] {
            let mut stage = near_body();
            let mut i = input(far);
            i.shoulder = shoulder;
            i.arm_length = arm;
            let out = stage.update(Side::Left, &i, 1.0 / 90.0);
            assert_eq!(out.target.position, far, "{shoulder} {arm}");
            assert!(!out.clamped && out.guard_weight == 0.0);
        }
        // A zero-length arm reaches nowhere: the full mode holds the hand at the shoulder.
        let mut i = input(far);
        i.arm_length = 0.0;
        let (d, _, _) = near_body().desired(Side::Left, &i, far);
        assert_eq!(d, i.shoulder);
    }

    #[test]
    fn a_released_clamp_lets_go_smoothly_and_then_exactly() {
        // Shoulder and hand placed so that the unclamped target is the origin: the output is
        // then the correction itself.
        let mut stage = ReachClamp::new(ReachClampSettings {
            exact_hands_mode: false,
            ..Default::default()
        });
        let shoulder = Vec3::new(-0.5, 0.0, 0.0);
        let at = |target: Vec3| ReachClampInput {
            target: Pose::from_position(target),
            shoulder,
            arm_length: ARM,
            body: BodyFrame::new(Pose::IDENTITY),
            up: Vec3::Y,
        };
        // Held far out (clamped) for a second, then brought back to the origin, in reach.
        for _ in 0..90 {
            assert!(
                stage
                    .update(Side::Left, &at(Vec3::new(0.5, 0.0, 0.0)), 1.0 / 90.0)
                    .clamped
            );
        }
        let first = stage.update(Side::Left, &at(Vec3::ZERO), 1.0 / 90.0);
        assert!(!first.clamped);
        let held = stage.state.get(Side::Left).correction;
        assert!(held.x < -0.2, "the correction eases out, no snap: {held}");
        assert_eq!(first.target.position, held);
        // 110 frames at 18/s leave 0.3 m x e^-22 (about 1e-10 m) of a plain exponential
        // release: the stage lets that go once it is below a micrometre.
        let mut out = first;
        for _ in 0..110 {
            out = stage.update(Side::Left, &at(Vec3::ZERO), 1.0 / 90.0);
        }
        assert_eq!(out.target.position, Vec3::ZERO, "the hand is exact again");
        assert_eq!(stage.state.get(Side::Left).correction, Vec3::ZERO);
    }

    #[test]
    fn a_hand_exactly_at_the_inward_limit_is_left_alone() {
        // Numbers exact in binary: shoulder at x 0.5, limit 0.25, hand at x 0.25 (on the limit).
        let stage = ReachClamp::new(ReachClampSettings {
            exact_hands_mode: false,
            use_near_body_safety: true,
            max_inward_cross_from_shoulder_m: 0.25,
            ..Default::default()
        });
        let mut i = input(Vec3::new(0.25, 1.25, 0.25));
        i.shoulder = Vec3::new(0.5, 1.5, 0.0);
        let raw = Vec3::new(0.25, 1.25, 0.25);
        let (d, _, _) = stage.desired(Side::Left, &i, raw);
        assert_eq!(d, raw, "no forward nudge on the limit");
        // Just past it: held at the limit and nudged forward.
        let past = Vec3::new(0.125, 1.25, 0.25);
        let (d, _, _) = stage.desired(Side::Left, &i, past);
        assert_eq!(d, Vec3::new(0.25, 1.25, 0.25 + 0.03));
    }

    /// `smooth_always` (remote players) smooths a moving hand, but a target that jumps (a snap
    /// turn or a teleport moved the player: faster than JUMP_M_S) is taken at once, not swept
    /// through the body toward it.
    #[test]
    fn smoothing_lets_a_jump_through_at_once() {
        let mut stage = ReachClamp::new(ReachClampSettings {
            smooth_always: true,
            ..Default::default()
        });
        let dt = 1.0 / 90.0;
        let at = |p: Vec3| input(p);
        let a = Vec3::new(0.3, 1.2, 0.3);
        for _ in 0..30 {
            stage.update(Side::Left, &at(a), dt);
        }
        // A hand moving at 5 m/s: smoothed, the output trails it.
        let moved = a + Vec3::X * 5.0 * dt;
        let out = stage.update(Side::Left, &at(moved), dt);
        assert!(
            out.target.position.distance(moved) > 0.01,
            "smoothed: {out:?}"
        );
        // The player snap-turned: the hand is 0.6 m away in a frame.
        let jumped = moved + Vec3::new(-0.6, 0.0, -0.2);
        let out = stage.update(Side::Left, &at(jumped), dt);
        assert_eq!(out.target.position, jumped);
    }
}
