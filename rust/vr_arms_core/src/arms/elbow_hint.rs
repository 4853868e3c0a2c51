//! Stage 5: elbow hints (poles) in a stable torso frame, with hint body avoidance.
//!
//! The stability design, its elbow-hint part: the pole is built in the torso frame (down + back + outward), with the
//! shoulder->hand axis projected out so wrist spin cannot rotate it. Overhead it blends toward an
//! outward-stable plane (the original design). A forearm cue adds where the elbow probably is: one forearm
//! length behind the hand along the hand target's forearm axis, which the controller's forward
//! axis gives after calibration and which wrist roll does not change. Every blend weight stays in
//! 0..1 (none can cross zero and flip the pole). Then, when the hand is near the torso, the hint
//! is pushed outward, back and down (the original design's hint body avoidance), and finally the hint is
//! smoothed exponentially in body space relative to the shoulder, so walking adds no lag.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::arms::body_avoidance::TorsoShape;
use crate::arms::elbow_torso::{ArmCircle, keep_out};
use crate::maths::body_frame::BodyFrame;
use crate::maths::finite::finite_clamp;
use crate::maths::finite::{direction, unit_axis, vec3_or};
use crate::maths::pose::Pose;
use crate::maths::side::{PerSide, Side};
use crate::maths::smoothing::{exp_alpha, inverse_lerp_clamped};

/// Settings of [`ElbowHintSolver`]. Distances in metres.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ElbowHintSettings {
    /// Where along the shoulder->hand line the hint sits, as a fraction of arm length.
    pub along_arm_factor: f32,
    /// How far the hint sits from that line along the pole.
    pub hint_distance_m: f32,
    /// Torso-frame pole weights (all >= 0): down, back, outward.
    pub pole_down: f32,
    pub pole_back: f32,
    pub pole_outward: f32,
    /// Dot of (arm direction, up) where the outward-stable overhead plane starts blending in.
    pub overhead_start_dot: f32,
    /// ... and where it has fully taken over.
    pub overhead_full_dot: f32,
    /// Dot of (arm direction, down) where the relaxed arm's pole starts blending in: an arm
    /// hanging at the side bends its elbow back and a little out, and the torso pole (mostly
    /// down) would line up with it and flip. (From 0.5, hands held low in front took it, and
    /// a snap turn flipped them.)
    pub relaxed_start_dot: f32,
    /// ... and where it has fully taken over.
    pub relaxed_full_dot: f32,
    /// The relaxed arm's pole, hanging straight down: back, and this much outward per 1 back.
    /// Swinging, it is carried along the least turn from straight down to the arm.
    pub relaxed_pole_outward: f32,
    /// On a relaxed arm the forearm cue counts only where it agrees with the relaxed pole: fully
    /// where the cosine of the angle between them is at least this, not at all from 0 (a
    /// right angle) down. A relaxed hand often hangs bent at the wrist, and its cue then puts
    /// the elbow into the body.
    pub relaxed_cue_agreement: f32,
    /// Weight (0..1) of the forearm cue against the torso-frame pole.
    pub forearm_cue_weight: f32,
    /// The forearm axis in the hand target's palm frame (see [`crate::hands::hand_frame`], the same on
    /// every rig): the direction from elbow to wrist (unit). -Z (along the fingers, the
    /// controller's forward) would be a wrist held straight; the default leans it a little
    /// toward the little finger's side, -Y (0.1 per 1), the mean wrist posture of the motion
    /// capture the defaults were chosen on.
    pub forearm_axis: [f32; 3],
    /// The forearm cue counts only where its elbow guess is further off the shoulder-hand line
    /// than this, per metre of forearm; full confidence 0.3 per metre further. The default is
    /// the default axis's tilt (its sine, 0.0995), so a hand held along its arm gives no cue.
    pub forearm_cue_dead_zone: f32,
    /// Hint smoothing rate (1/s).
    pub smoothing_rate: f32,
    /// How fast the hint may swing round the shoulder-hand line (degrees a second; 0: no
    /// limit). A hand flapping at the wrist turns the forearm cue faster than any elbow swings
    /// (`elbow_swivel.rs`).
    pub max_swivel_deg_s: f32,
    /// Hint body avoidance on or off: the push below, and the elbow kept out of the avatar's
    /// torso when the torso is known (`elbow_torso.rs`).
    pub avoidance_enabled: bool,
    /// Horizontal distance of the hand from the body's centre axis below which the push starts.
    pub avoidance_near_m: f32,
    /// Full push outward, back and down (metres) when the hand is at the centre axis.
    pub push_outward_m: f32,
    pub push_back_m: f32,
    pub push_down_m: f32,
}

impl Default for ElbowHintSettings {
    fn default() -> Self {
        Self {
            along_arm_factor: 0.45,
            hint_distance_m: 0.3,
            pole_down: 1.0,
            pole_back: 0.35,
            pole_outward: 0.45,
            overhead_start_dot: 0.35,
            overhead_full_dot: 0.75,
            relaxed_start_dot: 0.7,
            relaxed_full_dot: 0.9,
            relaxed_pole_outward: 0.3,
            relaxed_cue_agreement: 0.5,
            forearm_cue_weight: 1.0,
            // -Z tilted 0.1 toward -Y (about 5.7 degrees): chosen by leave-one-clip-out
            // cross-validation on motion capture (docs/evaluation.md). Unit length.
            forearm_axis: [0.0, -0.099_503_72, -0.995_037_1],
            forearm_cue_dead_zone: 0.099_503_72,
            smoothing_rate: 120.0,
            max_swivel_deg_s: 540.0,
            avoidance_enabled: true,
            avoidance_near_m: 0.30,
            push_outward_m: 0.20,
            push_back_m: 0.10,
            push_down_m: 0.10,
        }
    }
}

impl ElbowHintSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.along_arm_factor = finite_clamp(self.along_arm_factor, 0.0, 1.0, d.along_arm_factor);
        self.hint_distance_m = finite_clamp(self.hint_distance_m, 0.01, 2.0, d.hint_distance_m);
        self.pole_down = finite_clamp(self.pole_down, 0.0, 10.0, d.pole_down);
        self.pole_back = finite_clamp(self.pole_back, 0.0, 10.0, d.pole_back);
        self.pole_outward = finite_clamp(self.pole_outward, 0.0, 10.0, d.pole_outward);
        if self.pole_down + self.pole_back + self.pole_outward < 1e-3 {
            self.pole_down = 1.0;
        }
        self.overhead_start_dot =
            finite_clamp(self.overhead_start_dot, -1.0, 1.0, d.overhead_start_dot);
        self.overhead_full_dot = finite_clamp(
            self.overhead_full_dot,
            self.overhead_start_dot,
            1.0,
            d.overhead_full_dot,
        );
        self.relaxed_start_dot =
            finite_clamp(self.relaxed_start_dot, -1.0, 1.0, d.relaxed_start_dot);
        self.relaxed_full_dot = finite_clamp(
            self.relaxed_full_dot,
            self.relaxed_start_dot,
            1.0,
            d.relaxed_full_dot,
        );
        self.relaxed_pole_outward =
            finite_clamp(self.relaxed_pole_outward, 0.0, 10.0, d.relaxed_pole_outward);
        self.relaxed_cue_agreement = finite_clamp(
            self.relaxed_cue_agreement,
            0.0,
            1.0,
            d.relaxed_cue_agreement,
        );
        self.forearm_cue_weight =
            finite_clamp(self.forearm_cue_weight, 0.0, 1.0, d.forearm_cue_weight);
        self.forearm_cue_dead_zone = finite_clamp(
            self.forearm_cue_dead_zone,
            0.0,
            1.0,
            d.forearm_cue_dead_zone,
        );
        self.forearm_axis = unit_axis(self.forearm_axis, Vec3::NEG_Z);
        self.smoothing_rate = finite_clamp(self.smoothing_rate, 0.0, 10_000.0, d.smoothing_rate);
        self.max_swivel_deg_s =
            finite_clamp(self.max_swivel_deg_s, 0.0, 100_000.0, d.max_swivel_deg_s);
        self.avoidance_near_m = finite_clamp(self.avoidance_near_m, 0.0, 2.0, d.avoidance_near_m);
        self.push_outward_m = finite_clamp(self.push_outward_m, 0.0, 1.0, d.push_outward_m);
        self.push_back_m = finite_clamp(self.push_back_m, 0.0, 1.0, d.push_back_m);
        self.push_down_m = finite_clamp(self.push_down_m, 0.0, 1.0, d.push_down_m);
    }
}

/// Input for one arm (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ElbowHintInput {
    pub shoulder: Vec3,
    /// The final (routed) wrist target.
    pub hand: Pose,
    pub upper_length: f32,
    pub lower_length: f32,
    pub body: BodyFrame,
    /// The avatar's torso, if known: the elbow is kept out of it (`elbow_torso.rs`).
    pub torso: Option<TorsoShape>,
}

/// Output for one arm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ElbowHintOutput {
    /// Smoothed hint position (world).
    pub hint: Vec3,
    /// Unsmoothed pole direction, perpendicular to the shoulder->hand axis (world, unit).
    pub pole: Vec3,
    /// Weight the forearm cue actually had this frame (0..1).
    pub cue_weight: f32,
}

/// Both arms' hint solver.
#[derive(Clone, Debug, Default)]
pub struct ElbowHintSolver {
    pub settings: ElbowHintSettings,
    /// Smoothed hint relative to the shoulder, in body axes.
    pub smoothed: PerSide<Option<Vec3>>,
}

impl ElbowHintSolver {
    pub fn new(mut settings: ElbowHintSettings) -> Self {
        settings.validate();
        Self {
            settings,
            smoothed: PerSide::default(),
        }
    }

    /// The hint before smoothing, and the pole and cue weight it came from.
    pub fn desired(&self, side: Side, input: &ElbowHintInput) -> (Vec3, Vec3, f32) {
        let s = &self.settings;
        let body = input.body;
        let shoulder = vec3_or(input.shoulder, Vec3::ZERO);
        let hand = input.hand.sanitized(&Pose::from_position(shoulder));
        let down = -body.up();
        let out = body.left() * side.sign();
        let back = -body.forward();
        let to_hand = hand.position - shoulder;
        let axis = direction(to_hand).unwrap_or(down);
        let perp = |v: Vec3| direction(v - axis * v.dot(axis));

        // Torso-frame pole, and the outward-stable plane for overhead reaches.
        let torso = down * s.pole_down + back * s.pole_back + out * s.pole_outward;
        let torso_pole = perp(torso)
            .or_else(|| perp(back))
            .unwrap_or_else(|| axis.any_orthonormal_vector());
        let overhead = inverse_lerp_clamped(
            s.overhead_start_dot,
            s.overhead_full_dot,
            axis.dot(body.up()),
        );
        let overhead_pole = perp(out).unwrap_or(torso_pole);
        let base = direction(torso_pole * (1.0 - overhead) + overhead_pole * overhead)
            .unwrap_or(torso_pole);
        // A relaxed arm, hanging and swinging at the side: the torso pole lines up with it, so
        // its own pole takes over, back and a little out, carried from straight down to the
        // arm along the least turn (perpendicular to the arm all the way, never flipping).
        // Hanging at the side, not reaching down in front of the body: a hand crossing toward
        // the middle keeps the torso pole, which with the avoidance push keeps the elbow out.
        let relaxed = crate::maths::body_frame::hanging_share(
            axis,
            down,
            out,
            s.relaxed_start_dot,
            s.relaxed_full_dot,
        );
        let relaxed_pole = (relaxed > 0.0).then(|| {
            let hanging = direction(back + out * s.relaxed_pole_outward).unwrap_or(back);
            Quat::from_rotation_arc(down, axis) * hanging
        });
        let base = match relaxed_pole {
            Some(p) => direction(base * (1.0 - relaxed) + p * relaxed).unwrap_or(base),
            None => base,
        };

        // Forearm cue: the elbow one forearm length behind the hand along the forearm axis. It
        // fades out as it lines up with the arm (then it says nothing about the swivel): it
        // counts only once the guess is further off the arm line than the dead zone, which for
        // the default axis is the tilt's own offset (a hand held along its arm line says
        // nothing, whichever way it is rolled).
        let lower = input.lower_length.max(1e-3);
        let dead_zone = s.forearm_cue_dead_zone * lower;
        let forearm = hand.rotation * Vec3::from_array(s.forearm_axis);
        let elbow_guess = hand.position - forearm * input.lower_length.max(0.0);
        let cue = elbow_guess - shoulder;
        let cue_perp = cue - axis * cue.dot(axis);
        let confidence =
            inverse_lerp_clamped(dead_zone, dead_zone + 0.3 * lower, cue_perp.length());
        let agreement = match (relaxed_pole, direction(cue_perp)) {
            (Some(p), Some(c)) => {
                let trust = inverse_lerp_clamped(0.0, s.relaxed_cue_agreement, c.dot(p));
                1.0 - relaxed * (1.0 - trust)
            }
            _ => 1.0,
        };
        let cue_weight = s.forearm_cue_weight * confidence * agreement;
        let pole = match direction(cue_perp) {
            Some(c) if cue_weight > 0.0 => {
                direction(base * (1.0 - cue_weight) + c * cue_weight).unwrap_or(base)
            }
            _ => base,
        };

        let arm = (input.upper_length + input.lower_length).max(0.0);
        // Distances in avatar metres, so a scaled avatar's hint sits in proportion.
        let hint_distance = body.length_to_world(s.hint_distance_m);
        let mut hint = shoulder + axis * (arm * s.along_arm_factor) + pole * hint_distance;
        if s.avoidance_enabled && s.avoidance_near_m > 0.0 {
            let local = body.to_local(hand.position);
            let horizontal = Vec3::new(local.x, 0.0, local.z).length();
            let closeness = 1.0 - inverse_lerp_clamped(0.0, s.avoidance_near_m, horizontal);
            hint += (out * s.push_outward_m + back * s.push_back_m + down * s.push_down_m)
                * (closeness * body.scale());
        }
        if let Some(torso) = input.torso.filter(|_| s.avoidance_enabled) {
            let arm = ArmCircle {
                shoulder,
                hand: hand.position,
                upper: input.upper_length,
                lower: input.lower_length,
            };
            hint = vec3_or(keep_out(hint, &arm, &torso), hint);
        }
        (hint, pole, cue_weight)
    }

    /// The smoothed hint for one arm; advances its smoothing by `dt` seconds.
    pub fn update(&mut self, side: Side, input: &ElbowHintInput, dt: f32) -> ElbowHintOutput {
        let (hint, pole, cue_weight) = self.desired(side, input);
        let body = input.body;
        let shoulder = vec3_or(input.shoulder, Vec3::ZERO);
        let rel = body.dir_to_local(hint - shoulder);
        let alpha = exp_alpha(self.settings.smoothing_rate, dt);
        let state = *self.smoothed.get(side);
        let smoothed = match state {
            Some(prev) if prev.is_finite() => prev + (rel - prev) * alpha,
            _ => rel,
        };
        let smoothed = vec3_or(smoothed, rel);
        // The swivel no faster than the most (in body axes, as the smoothing): the last hint
        // turned about this frame's shoulder-hand line toward this one by at most the most.
        // (Carrying the last hint round as the line turned, before measuring, let a hand
        // crossing the body while washing flip its elbow: 2.7 a minute; measured this way, a
        // line that turns fast counts partly as swivel, and the elbow catches up.)
        let hand = input
            .hand
            .sanitized(&Pose::from_position(shoulder))
            .position;
        let line = direction(body.dir_to_local(hand - shoulder));
        let limited = match (state, line) {
            (Some(prev), Some(line))
                if prev.is_finite() && self.settings.max_swivel_deg_s > 0.0 =>
            {
                let most = (self.settings.max_swivel_deg_s * dt.max(0.0)).to_radians();
                crate::arms::elbow_swivel::limit_swivel(prev, smoothed, line, most)
            }
            _ => smoothed,
        };
        let smoothed = vec3_or(limited, smoothed);
        *self.smoothed.get_mut(side) = Some(smoothed);
        ElbowHintOutput {
            hint: vec3_or(shoulder + body.dir_to_world(smoothed), hint),
            pole,
            cue_weight,
        }
    }
}

impl crate::stage::StageSettings for ElbowHintSettings {
    fn validate(&mut self) {
        Self::validate(self);
    }
}

impl crate::stage::Stage for ElbowHintSolver {
    type Settings = ElbowHintSettings;
    type Input = ElbowHintInput;
    type Output = ElbowHintOutput;

    fn update(&mut self, side: Side, input: &Self::Input, dt: f32) -> Self::Output {
        Self::update(self, side, input, dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default settings with a straight wrist (the forearm along the fingers, the palm
    /// frame's -Z), the original smoothing rate (30 per second) and no swivel limit, which the
    /// known answers below assume.
    fn straight() -> ElbowHintSettings {
        ElbowHintSettings {
            forearm_axis: [0.0, 0.0, -1.0],
            forearm_cue_dead_zone: 0.0,
            smoothing_rate: 30.0,
            max_swivel_deg_s: 0.0,
            ..Default::default()
        }
    }

    fn straight_solver() -> ElbowHintSolver {
        ElbowHintSolver::new(straight())
    }

    #[test]
    fn the_default_forearm_axis_is_a_slightly_bent_wrist() {
        let d = ElbowHintSettings::default();
        let axis = Vec3::from_array(d.forearm_axis);
        assert!((axis.length() - 1.0).abs() < 1e-6);
        assert!(axis.distance(Vec3::new(0.0, -0.1, -1.0).normalize()) < 1e-6);
        let mut validated = d;
        validated.validate();
        assert!(Vec3::from_array(validated.forearm_axis).distance(axis) < 1e-7);
        // A hand held along its arm: the tilted cue puts the elbow 0.24 x 0.0995 m off the arm
        // line, not beyond the dead zone (the same): no cue, whichever way the hand is rolled.
        for roll in [0.0f32, 1.0, 2.0, 3.0] {
            let hand = Pose::new(
                Vec3::new(0.17, 1.41, 0.4),
                Quat::from_rotation_arc(Vec3::Y, Vec3::Z) * Quat::from_rotation_y(roll),
            );
            let (_, _, w) = ElbowHintSolver::default().desired(Side::Left, &input(hand));
            assert!(
                w < 1e-5,
                "roll {roll}: {w} (on the dead zone's edge, up to rounding)"
            );
        }
        // Without the dead zone it would count: confidence 0.0239 / (0.3 x 0.24) = 0.3317,
        // turning the pole toward the hand's +Z.
        let hand = Pose::new(
            Vec3::new(0.17, 1.41, 0.4),
            Quat::from_rotation_arc(Vec3::Y, Vec3::Z),
        );
        let no_dead_zone = ElbowHintSolver::new(ElbowHintSettings {
            forearm_cue_dead_zone: 0.0,
            ..Default::default()
        });
        let (_, pole, w) = no_dead_zone.desired(Side::Left, &input(hand));
        assert!((w - 0.331_679).abs() < 1e-4, "{w}");
        let straight = straight_solver().desired(Side::Left, &input(hand)).1;
        let hand_z = hand.rotation * Vec3::Z;
        assert!(
            pole.dot(hand_z) > straight.dot(hand_z) + 0.03,
            "{pole} vs {straight}"
        );
    }

    #[test]
    fn the_forearm_axis_is_made_unit() {
        for (given, want) in [
            ([0.0, 2.0, 0.0], [0.0, 1.0, 0.0]),
            ([0.0, 0.0, -3.0], [0.0, 0.0, -1.0]),
            ([f32::NAN, 1.0, 0.0], [0.0, 0.0, -1.0]),
            ([0.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
        ] {
            let mut s = ElbowHintSettings {
                forearm_axis: given,
                forearm_cue_dead_zone: 7.0,
                ..Default::default()
            };
            s.validate();
            assert_eq!(s.forearm_axis, want, "{given:?}");
            assert_eq!(s.forearm_cue_dead_zone, 1.0);
        }
    }

    #[test]
    fn the_dead_zone_shifts_the_confidence_ramp() {
        // Elbow guess 0.144 m below the arm line (forearm 0.24 m): with a dead zone of 0.5 x 0.24
        // = 0.12 m the confidence is (0.144 - 0.12) / (0.3 x 0.24) = 0.3333.
        let hand = Pose::new(
            Vec3::new(0.17, 1.41, 0.4),
            Quat::from_rotation_arc(Vec3::Y, Vec3::new(0.0, 0.6, 0.8)),
        );
        let solver = ElbowHintSolver::new(ElbowHintSettings {
            forearm_cue_dead_zone: 0.5,
            ..straight()
        });
        let (_, _, w) = solver.desired(Side::Left, &input(hand));
        assert!((w - 1.0 / 3.0).abs() < 1e-4, "{w}");
    }

    /// The solver's input for a hand given as a bone whose +Y runs along the fingers, +Z toward
    /// the thumb and +X out of the left palm (the convention these tests were written in): its
    /// palm frame is the bone turned +90 degrees about X.
    fn input(hand: Pose) -> ElbowHintInput {
        ElbowHintInput {
            shoulder: Vec3::new(0.17, 1.41, 0.0),
            hand: Pose::new(
                hand.position,
                hand.rotation * Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
            ),
            upper_length: 0.28,
            lower_length: 0.24,
            body: BodyFrame::new(Pose::IDENTITY),
            torso: None,
        }
    }

    /// A relaxed left arm, hanging slightly bent, swinging 25 degrees forward and back as in a
    /// walk, its hand hanging palm in with the wrist bent `wrist_deg` outward.
    fn swinging_hand(t: f32, wrist_deg: f32) -> Pose {
        let swing = Quat::from_rotation_x(0.44 * (t * std::f32::consts::TAU).sin());
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        // Fingers down, thumb forward, the palm's outer normal (+X) toward the body.
        let hanging = Quat::from_mat3(&glam::Mat3::from_cols(-Vec3::X, -Vec3::Y, Vec3::Z));
        let bent = Quat::from_rotation_z(wrist_deg.to_radians()) * hanging;
        Pose::new(shoulder + swing * Vec3::new(0.02, -0.5, 0.0), swing * bent)
    }

    #[test]
    fn a_relaxed_arm_swinging_keeps_its_elbow_back_and_out_and_never_flips() {
        for wrist_deg in [0.0, 45.0] {
            let mut solver = ElbowHintSolver::default();
            let mut last: Option<Vec3> = None;
            for k in 0..180 {
                let t = k as f32 / 90.0;
                let out =
                    solver.update(Side::Left, &input(swinging_hand(t, wrist_deg)), 1.0 / 90.0);
                let pole = out.pole;
                // Never into the body (the left arm's medial side is -X), always behind.
                assert!(pole.x > -0.05, "wrist {wrist_deg}, t {t}: {pole}");
                assert!(pole.z < -0.5, "wrist {wrist_deg}, t {t}: {pole}");
                if let Some(l) = last {
                    let turn = l.angle_between(pole).to_degrees();
                    assert!(turn < 5.0, "wrist {wrist_deg}, t {t}: turned {turn} deg");
                }
                last = Some(pole);
            }
        }
    }

    /// Degrees between the swivels of two hints round the shoulder-hand line.
    fn swivel_between(a: Vec3, b: Vec3, i: &ElbowHintInput) -> f32 {
        let axis = (i.hand.position - i.shoulder).normalize();
        crate::arms::elbow_swivel::swivel_deg(a - i.shoulder, b - i.shoulder, axis)
    }

    /// A bent arm whose hand, held still, flaps side to side at the wrist 60 degrees either way,
    /// three times a second (a hand shaken loose as the player walks or hops). The forearm cue
    /// alone swings the elbow round the arm by more than a right angle within a tenth of a
    /// second, back and forth (the evaluation counts each as a flip; the performer's elbow stays
    /// put); limited, by no more than 54 degrees (540 a second). Turned slowly, it follows the
    /// cue within a degree on every frame.
    #[test]
    fn a_hand_flapping_at_the_wrist_does_not_swing_the_elbow_round() {
        let at = Vec3::new(0.2, 1.2, 0.3);
        let held = |deg: f32| {
            input(hand_along(
                at,
                Quat::from_rotation_y(deg.to_radians()) * Vec3::Z,
            ))
        };
        let dt = 1.0 / 90.0;
        // The widest swivel change within a tenth of a second (9 frames), and the widest
        // swivel between the hint and the unlimited solver's on any frame.
        let run = |settings: ElbowHintSettings, period_s: f32, frames: usize| {
            let mut solver = ElbowHintSolver::new(settings);
            let mut free = ElbowHintSolver::new(ElbowHintSettings {
                max_swivel_deg_s: 0.0,
                ..settings
            });
            let mut hints = Vec::new();
            let (mut widest, mut behind) = (0.0f32, 0.0f32);
            for k in 0..=frames {
                let i = held(60.0 * (std::f32::consts::TAU * k as f32 * dt / period_s).sin());
                let hint = solver.update(Side::Left, &i, dt).hint;
                let unlimited = free.update(Side::Left, &i, dt).hint;
                behind = behind.max(swivel_between(hint, unlimited, &i));
                for &h in hints.iter().rev().take(9) {
                    widest = widest.max(swivel_between(h, hint, &i));
                }
                hints.push(hint);
            }
            (widest, behind)
        };
        let free = ElbowHintSettings {
            max_swivel_deg_s: 0.0,
            ..Default::default()
        };
        let (unlimited, _) = run(free, 1.0 / 3.0, 270);
        assert!(
            unlimited > 90.0,
            "the cue alone swings it {unlimited} degrees"
        );
        let (widest, _) = run(ElbowHintSettings::default(), 1.0 / 3.0, 270);
        assert!(widest < 54.5, "{widest} degrees round the arm in 0.1 s");
        // Slowly (a 4-second cycle: at most 94 degrees a second), never held back.
        let (_, behind) = run(ElbowHintSettings::default(), 4.0, 360);
        assert!(behind < 1.0, "{behind} degrees behind the cue");
    }

    /// The whole arm turned at once (an interaction override or regained tracking moving the
    /// hand from straight ahead to 60 degrees out to the side in one frame, the forearm along
    /// the arm). The limit measures the swivel about the new line, where the last hint's place
    /// along the old arm counts partly as swivel: 19 cm from the unlimited hint at first, the
    /// elbow swings round to its new place continuously (no step over 3.5 cm a frame: 6
    /// degrees about the arm at 90 Hz, the hint 0.3 m off it) and is within a centimetre of
    /// the unlimited hint in under a tenth of a second (0.09 s).
    #[test]
    fn an_arm_turned_at_once_catches_up_smoothly_within_a_tenth_of_a_second() {
        let dt = 1.0 / 90.0;
        let shoulder = Vec3::new(0.17, 1.41, 0.0);
        let ahead = shoulder + Vec3::new(0.0, 0.0, 0.45);
        let side = shoulder + Quat::from_rotation_y(60f32.to_radians()) * Vec3::new(0.0, 0.0, 0.45);
        let mut limited = ElbowHintSolver::default();
        let mut free = ElbowHintSolver::new(ElbowHintSettings {
            max_swivel_deg_s: 0.0,
            ..Default::default()
        });
        let (mut held, mut last, mut step) = (0.0f32, None::<Vec3>, 0.0f32);
        let mut caught_up_at = None;
        for k in 0..60 {
            let to = if k < 10 { ahead } else { side };
            let i = input(hand_along(to, to - shoulder));
            let a = limited.update(Side::Left, &i, dt).hint;
            let b = free.update(Side::Left, &i, dt).hint;
            if k >= 10 {
                held = held.max(a.distance(b));
                if k > 10 {
                    step = step.max(last.map_or(0.0, |l: Vec3| l.distance(a)));
                }
                if a.distance(b) < 0.01 && caught_up_at.is_none() {
                    caught_up_at = Some((k - 10) as f32 * dt);
                }
            }
            last = Some(a);
        }
        assert!(held > 0.05, "the limit holds it back at first ({held} m)");
        let at = caught_up_at.expect("caught up");
        assert!(at < 0.1, "caught up after {at} s");
        assert!(step < 0.035, "a step of {step} m after the jump");
    }

    #[test]
    fn the_relaxed_pole_leaves_raised_arms_alone() {
        // Off: no arm points further down than straight down.
        let off = ElbowHintSolver::new(ElbowHintSettings {
            relaxed_start_dot: 1.0,
            relaxed_full_dot: 1.0,
            relaxed_cue_agreement: 0.0,
            ..Default::default()
        });
        let on = ElbowHintSolver::default();
        for target in [
            Vec3::new(0.2, 1.2, 0.4),
            Vec3::new(0.6, 1.4, 0.1),
            Vec3::new(-0.1, 1.5, 0.4),
            Vec3::new(0.3, 1.9, 0.2),
        ] {
            let hand = Pose::new(target, Quat::from_rotation_x(1.2));
            assert_eq!(
                on.desired(Side::Left, &input(hand)),
                off.desired(Side::Left, &input(hand)),
                "{target}"
            );
        }
    }

    #[test]
    fn hint_is_below_and_outside_for_a_forward_reach() {
        let solver = straight_solver();
        let hand = Pose::new(
            Vec3::new(0.2, 1.2, 0.4),
            Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        );
        let (hint, pole, _) = solver.desired(Side::Left, &input(hand));
        assert!(pole.y < -0.3, "down: {pole}");
        assert!(hint.x > 0.17, "outward: {hint}");
    }

    #[test]
    fn wrist_roll_does_not_move_the_hint() {
        let solver = ElbowHintSolver::default();
        // The forearm axis in the bone convention of `input`.
        let forearm = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)
            * Vec3::from_array(solver.settings.forearm_axis);
        let base = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
        let a = solver
            .desired(
                Side::Left,
                &input(Pose::new(Vec3::new(0.2, 1.2, 0.4), base)),
            )
            .0;
        // Roll about the forearm axis (in the hand's frame).
        let rolled = base * Quat::from_axis_angle(forearm, 1.2);
        let b = solver
            .desired(
                Side::Left,
                &input(Pose::new(Vec3::new(0.2, 1.2, 0.4), rolled)),
            )
            .0;
        assert!(a.distance(b) < 1e-5, "{a} vs {b}");
    }

    #[test]
    fn overhead_pole_turns_outward() {
        let solver = ElbowHintSolver::new(ElbowHintSettings {
            forearm_cue_weight: 0.0,
            ..straight()
        });
        let hand = Pose::from_position(Vec3::new(0.25, 1.9, 0.05));
        let (_, pole, _) = solver.desired(Side::Left, &input(hand));
        assert!(pole.x > 0.8, "outward overhead: {pole}");
        let mut right = input(Pose::from_position(Vec3::new(-0.25, 1.9, 0.05)));
        right.shoulder.x = -0.17;
        let (_, pole_r, _) = solver.desired(Side::Right, &right);
        assert!(pole_r.x < -0.8);
    }

    #[test]
    fn near_torso_hint_is_pushed_out() {
        let hand = input(Pose::from_position(Vec3::new(0.02, 1.2, 0.15)));
        let near = straight_solver().desired(Side::Left, &hand).0;
        let off = ElbowHintSolver::new(ElbowHintSettings {
            avoidance_enabled: false,
            ..straight()
        })
        .desired(Side::Left, &hand)
        .0;
        // The hand is 0.1513 m from the body's axis: closeness 1 - 0.1513 / 0.30 = 0.4956 of
        // the full push (0.20 outward, 0.10 back, 0.10 down).
        let push = near - off;
        let want = Vec3::new(0.2, -0.1, -0.1) * 0.4956;
        assert!(push.distance(want) < 1e-3, "push {push} vs {want}");
        // Far from the body (0.54 m off its axis) there is no push at all.
        let far = input(Pose::from_position(Vec3::new(0.45, 1.2, 0.3)));
        let far_on = straight_solver().desired(Side::Left, &far).0;
        let far_off = ElbowHintSolver::new(ElbowHintSettings {
            avoidance_enabled: false,
            ..straight()
        })
        .desired(Side::Left, &far)
        .0;
        assert!(far_on.distance(far_off) < 1e-6, "{far_on} vs {far_off}");
    }

    #[test]
    fn a_scaled_body_gets_a_push_in_proportion() {
        // The same near-torso hand on an avatar scaled 1.25 about its root: every length of the
        // push grows by 1.25.
        let scaled = |k: f32| ElbowHintInput {
            shoulder: Vec3::new(0.17, 1.41, 0.0) * k,
            hand: Pose::from_position(Vec3::new(0.02, 1.2, 0.15) * k),
            upper_length: 0.28 * k,
            lower_length: 0.24 * k,
            body: BodyFrame::scaled(Pose::IDENTITY, k),
            torso: None,
        };
        let off = ElbowHintSolver::new(ElbowHintSettings {
            avoidance_enabled: false,
            ..straight()
        });
        let push = |k: f32| {
            straight_solver().desired(Side::Left, &scaled(k)).0
                - off.desired(Side::Left, &scaled(k)).0
        };
        let (small, big) = (push(1.0), push(1.25));
        assert!(small.length() > 0.05);
        assert!(
            big.distance(small * 1.25) < 1e-5,
            "{big} vs {}",
            small * 1.25
        );
    }

    #[test]
    fn smoothing_is_frame_rate_independent() {
        let run = |hz: f32| {
            let mut solver = straight_solver();
            let mut out = Vec3::ZERO;
            let steps = (0.5 * hz).round() as usize;
            for i in 0..steps {
                let t = i as f32 / hz;
                let hand = Pose::from_position(Vec3::new(0.3 + 0.2 * (t * 4.0).sin(), 1.2, 0.35));
                out = solver.update(Side::Left, &input(hand), 1.0 / hz).hint;
            }
            out
        };
        let a = run(72.0);
        let b = run(144.0);
        assert!(a.distance(b) < 0.01, "{a} {b}");
    }

    /// The hand at `hand` with its forearm axis (+Y) along `forearm`.
    fn hand_along(hand: Vec3, forearm: Vec3) -> Pose {
        Pose::new(hand, Quat::from_rotation_arc(Vec3::Y, forearm.normalize()))
    }

    fn near(a: Vec3, b: Vec3) -> bool {
        a.distance(b) < 1e-4
    }

    #[test]
    fn a_forward_reach_puts_the_hint_on_the_torso_pole_exactly() {
        // Hand 0.4 m straight ahead, forearm along the arm (the cue says nothing): the hint is
        // 0.45 x 0.52 m along the arm and 0.3 m along the torso pole (outward 0.45, down 1,
        // back 0.35, made perpendicular to the arm), mirrored for the right arm.
        let solver = straight_solver();
        let left = input(hand_along(Vec3::new(0.17, 1.41, 0.4), Vec3::Z));
        let (hint, _, w) = solver.desired(Side::Left, &left);
        assert!(near(hint, Vec3::new(0.293109, 1.136424, 0.234)), "{hint}");
        assert!(w.abs() < 1e-3, "no cue: {w}");
        let mut right = input(hand_along(Vec3::new(-0.17, 1.41, 0.4), Vec3::Z));
        right.shoulder = Vec3::new(-0.17, 1.41, 0.0);
        let (hint, _, _) = solver.desired(Side::Right, &right);
        assert!(near(hint, Vec3::new(-0.293109, 1.136424, 0.234)), "{hint}");
    }

    #[test]
    fn a_raised_reach_blends_halfway_to_the_outward_plane() {
        // Arm direction with up-dot 0.55: halfway between overhead_start_dot 0.35 and
        // overhead_full_dot 0.75, so the pole is the normalised mean of the torso pole and the
        // outward direction.
        let axis = Vec3::new(0.0, 0.55, (1.0f32 - 0.55 * 0.55).sqrt());
        let hand = Vec3::new(0.17, 1.41, 0.0) + axis * 0.4;
        let (hint, _, _) = straight_solver().desired(Side::Left, &input(hand_along(hand, axis)));
        assert!(
            near(hint, Vec3::new(0.436103, 1.423009, 0.271617)),
            "{hint}"
        );
    }

    #[test]
    fn the_forearm_cue_turns_the_pole_by_its_confidence() {
        let hand = Vec3::new(0.17, 1.41, 0.4);
        let solver = straight_solver();
        // The forearm's elbow guess 0.144 m below the arm line (over 0.3 x 0.24 m): full
        // confidence, the pole is the cue's direction, straight down.
        let (hint, pole, w) = solver.desired(
            Side::Left,
            &input(hand_along(hand, Vec3::new(0.0, 0.6, 0.8))),
        );
        assert!(
            (w - 1.0).abs() < 1e-5 && near(pole, Vec3::NEG_Y),
            "{w} {pole}"
        );
        assert!(near(hint, Vec3::new(0.17, 1.11, 0.234)), "{hint}");
        // 0.036 m off the line: half confidence, the pole halfway between torso pole and cue.
        let f = Vec3::new(0.0, 0.15, (1.0f32 - 0.15 * 0.15).sqrt());
        let (hint, _, w) = solver.desired(Side::Left, &input(hand_along(hand, f)));
        assert!((w - 0.5).abs() < 1e-3, "{w}");
        assert!(near(hint, Vec3::new(0.232957, 1.11668, 0.234)), "{hint}");
    }

    #[test]
    fn smoothing_moves_a_fraction_of_the_change_each_frame() {
        let mut solver = straight_solver();
        let a = input(hand_along(Vec3::new(0.17, 1.41, 0.4), Vec3::Z));
        let b = input(hand_along(
            Vec3::new(0.17, 1.41, 0.4),
            Vec3::new(0.0, 0.6, 0.8),
        ));
        let first = solver.update(Side::Left, &a, 0.01).hint;
        assert!(
            near(first, solver.desired(Side::Left, &a).0),
            "the first frame takes the hint as it is"
        );
        let second = solver.update(Side::Left, &b, 0.01).hint;
        let target = Vec3::new(0.17, 1.11, 0.234);
        let alpha = 1.0 - (-30.0f32 * 0.01).exp();
        assert!(near(second, first + (target - first) * alpha), "{second}");
        let mut poisoned = straight_solver();
        poisoned.update(Side::Left, &a, f32::NAN);
        let again = poisoned.update(Side::Left, &b, 0.01).hint;
        assert!(again.is_finite());
    }

    #[test]
    fn poles_that_cancel_fall_back_to_down() {
        for weights in [(0.0, 0.0, 0.0), (0.0005, 0.0, 0.0)] {
            let mut s = ElbowHintSettings {
                pole_down: weights.0,
                pole_back: weights.1,
                pole_outward: weights.2,
                ..straight()
            };
            s.validate();
            assert_eq!((s.pole_down, s.pole_back, s.pole_outward), (1.0, 0.0, 0.0));
        }
        let mut kept = ElbowHintSettings {
            pole_down: 0.002,
            pole_back: 0.0,
            pole_outward: 0.0,
            ..straight()
        };
        kept.validate();
        assert_eq!(kept.pole_down, 0.002, "a small but real pole is kept");
        // The sum decides, exactly at the threshold too: 0.0006 + 0.0006 and 0.001 are kept.
        for (down, back, out) in [(0.0, 0.0006, 0.0006), (0.001, 0.0, 0.0)] {
            let mut s = ElbowHintSettings {
                pole_down: down,
                pole_back: back,
                pole_outward: out,
                ..straight()
            };
            s.validate();
            assert_eq!(
                (s.pole_down, s.pole_back, s.pole_outward),
                (down, back, out)
            );
        }
    }

    #[test]
    fn a_heavier_down_weight_lowers_the_pole() {
        // pole_down 2: the torso pole (0.45 out, -2 down) made perpendicular to a forward arm.
        let solver = ElbowHintSolver::new(ElbowHintSettings {
            pole_down: 2.0,
            ..straight()
        });
        let i = input(hand_along(Vec3::new(0.17, 1.41, 0.4), Vec3::Z));
        let (hint, _, _) = solver.desired(Side::Left, &i);
        assert!(near(hint, Vec3::new(0.235854, 1.117317, 0.234)), "{hint}");
    }

    #[test]
    fn a_zero_avoidance_distance_pushes_nothing() {
        let hand = input(Pose::from_position(Vec3::new(0.02, 1.2, 0.15)));
        let zero = ElbowHintSolver::new(ElbowHintSettings {
            avoidance_near_m: 0.0,
            ..straight()
        })
        .desired(Side::Left, &hand)
        .0;
        let off = ElbowHintSolver::new(ElbowHintSettings {
            avoidance_enabled: false,
            ..straight()
        })
        .desired(Side::Left, &hand)
        .0;
        assert!(zero.is_finite() && near(zero, off), "{zero} vs {off}");
    }

    /// With the avatar's torso known, the hint keeps the elbow out of it: a thick-bodied
    /// avatar's right hand crossing in front of its belly, the controller turned so the forearm
    /// cue puts the elbow in the belly (depth 0.92 of the way out), comes out to the surface;
    /// with `avoidance_enabled` off it stays in.
    #[test]
    fn a_known_torso_keeps_the_elbow_out_of_it() {
        use crate::arms::body_avoidance::{BodyAvoidanceSettings, Torso, TorsoShape};
        use crate::arms::elbow_torso::ArmCircle;
        let body = BodyFrame::new(Pose::IDENTITY);
        let torso = TorsoShape::new(
            &Torso::from_shoulders(
                Vec3::new(0.266, 1.39, 0.0),
                Vec3::new(-0.266, 1.39, 0.0),
                &body,
            ),
            &BodyAvoidanceSettings::default(),
        );
        let hand = Pose::new(
            Vec3::new(0.158, 1.233, 0.315),
            Quat::from_rotation_y(2.2) * Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        );
        let input = ElbowHintInput {
            shoulder: Vec3::new(-0.266, 1.39, 0.0),
            hand,
            upper_length: 0.304,
            lower_length: 0.327,
            body,
            torso: Some(torso),
        };
        let arm = ArmCircle {
            shoulder: input.shoulder,
            hand: hand.position,
            upper: 0.304,
            lower: 0.327,
        };
        let depth = |s: &ElbowHintSolver| {
            let (hint, _, _) = s.desired(Side::Right, &input);
            torso.depth(arm.elbow(hint).unwrap())
        };
        let on = depth(&ElbowHintSolver::new(ElbowHintSettings::default()));
        assert!((1.0..1.01).contains(&on), "{on}");
        let off = depth(&ElbowHintSolver::new(ElbowHintSettings {
            avoidance_enabled: false,
            ..Default::default()
        }));
        assert!(off < 0.95, "{off}");
    }
}
