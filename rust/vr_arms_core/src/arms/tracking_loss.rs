//! Tracking loss: what a hand target does while its controller is not tracked.
//!
//! When the controller stops reporting a usable pose, the target holds the last good pose and
//! eases to a relaxed rest pose over `ease_to_rest_s` (smoothstep). When tracking returns, the
//! target blends from wherever it was to the live pose over `regain_blend_s`, so the arm never
//! jumps. Each transition is reported once, as an event.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::maths::finite::{direction, f32_or};
use crate::maths::pose::Pose;
use crate::maths::side::Side;

/// Timing of the tracking-loss behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrackingLossSettings {
    /// Time from the last good pose to the rest pose after tracking is lost (seconds).
    pub ease_to_rest_s: f32,
    /// Time to blend back onto the live pose when tracking returns (seconds).
    pub regain_blend_s: f32,
}

impl Default for TrackingLossSettings {
    fn default() -> Self {
        Self {
            ease_to_rest_s: 0.5,
            regain_blend_s: 0.25,
        }
    }
}

impl TrackingLossSettings {
    /// Settings with non-finite or negative times replaced by the defaults; at most 10 s.
    pub fn validate(&mut self) {
        *self = self.usable();
    }

    fn usable(&self) -> Self {
        let d = Self::default();
        let time = |x: f32, fallback: f32| {
            if x.is_finite() && x >= 0.0 {
                x.min(10.0)
            } else {
                fallback
            }
        };
        Self {
            ease_to_rest_s: time(self.ease_to_rest_s, d.ease_to_rest_s),
            regain_blend_s: time(self.regain_blend_s, d.regain_blend_s),
        }
    }
}

/// Where a hand is in the tracking-loss cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackingState {
    /// Following the live pose.
    Tracked,
    /// No usable pose: holding, then easing to rest.
    Lost,
    /// Tracking is back: blending onto the live pose.
    Regaining,
}

/// A transition, reported on the frame it happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackingEvent {
    Lost,
    Regained,
}

/// One frame's input for one hand.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrackingLossInput {
    /// The controller's pose when it is tracked and usable (`None` otherwise; a pose that is
    /// not finite counts as lost).
    pub live: Option<Pose>,
    /// The relaxed pose to ease to while lost; `None`: the hand holds its last pose. Needed
    /// only when [`TrackingLoss::followed`] gives no pose.
    pub rest: Option<Pose>,
}

/// One frame's output for one hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrackingLossOutput {
    /// The hand's target this frame.
    pub target: Pose,
    /// The transition that happened this frame, if any.
    pub event: Option<TrackingEvent>,
}

/// One hand's place in the cycle.
#[derive(Clone, Copy, Debug)]
struct Hand {
    state: TrackingState,
    /// Seconds since the last transition.
    since: f32,
    /// The pose the current blend starts from.
    from: Pose,
    /// The last pose given out (None before the first frame).
    last: Option<Pose>,
}

impl Default for Hand {
    fn default() -> Self {
        Self {
            state: TrackingState::Tracked,
            since: 0.0,
            from: Pose::IDENTITY,
            last: None,
        }
    }
}

/// The stage: both hands' tracking-loss state.
#[derive(Clone, Copy, Debug, Default)]
pub struct TrackingLoss {
    pub settings: TrackingLossSettings,
    hands: [Hand; 2],
}

impl TrackingLoss {
    pub fn new(mut settings: TrackingLossSettings) -> Self {
        settings.validate();
        Self {
            settings,
            hands: Default::default(),
        }
    }

    pub fn state(&self, side: Side) -> TrackingState {
        self.hands[side.index()].state
    }

    /// The last pose given out for `side`, if any.
    pub fn last(&self, side: Side) -> Option<Pose> {
        self.hands[side.index()].last
    }

    /// The live pose made rigid, when the hand is tracked and stays so: then this frame's
    /// update for `side` with the controller at `live` is [`Self::follow`] of it and needs no
    /// rest pose (a caller works the rest pose out only when it is needed).
    #[inline]
    pub fn followed(&self, side: Side, live: Option<Pose>) -> Option<Pose> {
        let p = live.filter(Pose::is_finite)?;
        let rotation = crate::maths::finite::unit_quat(p.rotation)?;
        (self.hands[side.index()].state == TrackingState::Tracked)
            .then(|| Pose::new(p.position, rotation))
    }

    /// The update of a hand tracked and staying so, `followed` being [`Self::followed`]'s pose:
    /// only the pose given out changes (the time since the last transition starts again at the
    /// next one).
    #[inline]
    pub fn follow(&mut self, side: Side, followed: Pose) -> TrackingLossOutput {
        self.hands[side.index()].last = Some(followed);
        TrackingLossOutput {
            target: followed,
            event: None,
        }
    }

    /// The target for this frame of `side`'s hand. A `dt` that is not a positive finite number
    /// advances nothing; a huge one only completes the blend.
    #[inline]
    pub fn update(&mut self, side: Side, input: &TrackingLossInput, dt: f32) -> TrackingLossOutput {
        let dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        if let Some(out) = self.followed(side, input.live) {
            return self.follow(side, out);
        }
        let hand = &mut self.hands[side.index()];
        let live = input.live.filter(Pose::is_finite);
        let s = self.settings.usable();
        let held = hand.last.unwrap_or(Pose::IDENTITY);
        let rest = input.rest.unwrap_or(held).sanitized(&held);
        let mut event = None;
        match (hand.state, live) {
            (TrackingState::Tracked, None) | (TrackingState::Regaining, None) => {
                hand.state = TrackingState::Lost;
                hand.since = 0.0;
                hand.from = hand.last.unwrap_or(rest);
                event = Some(TrackingEvent::Lost);
            }
            (TrackingState::Lost, Some(_)) => {
                hand.state = TrackingState::Regaining;
                hand.since = 0.0;
                hand.from = hand.last.unwrap_or(rest);
                event = Some(TrackingEvent::Regained);
            }
            _ => hand.since += dt,
        }
        let out = match (hand.state, live) {
            (TrackingState::Tracked, Some(p)) => p,
            (TrackingState::Lost, _) => {
                blend(&hand.from, &rest, progress(hand.since, s.ease_to_rest_s))
            }
            (TrackingState::Regaining, Some(p)) => {
                let t = progress(hand.since, s.regain_blend_s);
                if t >= 1.0 {
                    hand.state = TrackingState::Tracked;
                }
                blend(&hand.from, &p, t)
            }
            (_, None) => hand.last.unwrap_or(rest),
        };
        let out = out.sanitized(&rest);
        hand.last = Some(out);
        TrackingLossOutput { target: out, event }
    }
}

impl crate::stage::StageSettings for TrackingLossSettings {
    fn validate(&mut self) {
        Self::validate(self);
    }
}

impl crate::stage::Stage for TrackingLoss {
    type Settings = TrackingLossSettings;
    type Input = TrackingLossInput;
    type Output = TrackingLossOutput;

    fn update(&mut self, side: Side, input: &Self::Input, dt: f32) -> Self::Output {
        Self::update(self, side, input, dt)
    }
}

/// Smoothstep of `elapsed / duration` (1 at once for a zero duration).
fn progress(elapsed: f32, duration: f32) -> f32 {
    if duration <= 0.0 {
        return 1.0;
    }
    crate::maths::smoothing::smoothstep(f32_or(elapsed / duration, 1.0).clamp(0.0, 1.0))
}

fn blend(a: &Pose, b: &Pose, t: f32) -> Pose {
    Pose {
        position: a.position.lerp(b.position, t),
        rotation: a.rotation.slerp(b.rotation, t).normalize(),
    }
}

/// Where a lost hand rests by default, in the avatar root's frame (metres): beside the hips,
/// left then right.
pub const DEFAULT_REST_POSITIONS: [Vec3; 2] =
    [Vec3::new(0.22, 0.8, 0.05), Vec3::new(-0.22, 0.8, 0.05)];

/// A lost hand's resting pose: at `local` in the body's frame, hanging from the last pose it
/// had (`last`; the identity if it never had one).
pub fn rest_pose(
    last: Option<Pose>,
    body: &crate::maths::body_frame::BodyFrame,
    local: Vec3,
) -> Pose {
    let last = last.unwrap_or(Pose::IDENTITY);
    Pose {
        position: body.to_world(local),
        rotation: hanging_rotation(last.rotation, Vec3::Y, -body.up()),
    }
}

/// A relaxed, hanging version of `held`: turned by the shortest arc that takes the hand's
/// `finger_axis` (in the hand's frame, +Y for a humanoid hand bone) to `down`, so the hand
/// keeps its roll. A degenerate input gives `held` unchanged.
pub fn hanging_rotation(held: Quat, finger_axis: Vec3, down: Vec3) -> Quat {
    let (Some(axis), Some(down)) = (direction(held * finger_axis), direction(down)) else {
        return held;
    };
    let turn = Quat::from_rotation_arc(axis, down);
    let out = (turn * held).normalize();
    if out.is_finite() { out } else { held }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One frame of the left hand: the target and the event.
    fn step(
        t: &mut TrackingLoss,
        live: Option<Pose>,
        rest: &Pose,
        dt: f32,
        s: &TrackingLossSettings,
    ) -> (Pose, Option<TrackingEvent>) {
        t.settings = *s;
        let input = TrackingLossInput {
            live,
            rest: Some(*rest),
        };
        let out = t.update(Side::Left, &input, dt);
        (out.target, out.event)
    }

    fn pose(x: f32) -> Pose {
        Pose::new(Vec3::new(x, 1.0, 0.3), Quat::from_rotation_y(x))
    }

    #[test]
    fn holds_then_eases_to_rest_then_blends_back() {
        let s = TrackingLossSettings::default();
        let mut t = TrackingLoss::default();
        let rest = Pose::new(Vec3::new(0.2, 0.8, 0.0), Quat::IDENTITY);
        let live = pose(0.5);
        let (out, e) = step(&mut t, Some(live), &rest, 0.01, &s);
        assert_eq!((out, e), (live, None));
        let (out, e) = step(&mut t, None, &rest, 0.01, &s);
        assert_eq!(e, Some(TrackingEvent::Lost));
        assert!(
            out.position.distance(live.position) < 1e-6,
            "holds at first"
        );
        let mut last = out;
        let mut biggest_step: f32 = 0.0;
        for _ in 0..60 {
            let (out, e) = step(&mut t, None, &rest, 0.01, &s);
            assert_eq!(e, None);
            biggest_step = biggest_step.max(out.position.distance(last.position));
            last = out;
        }
        assert!(
            last.position.distance(rest.position) < 1e-5,
            "at rest after 0.5 s"
        );
        assert!(biggest_step < 0.02, "eased, never a jump ({biggest_step})");
        let back = pose(-0.3);
        let (out, e) = step(&mut t, Some(back), &rest, 0.01, &s);
        assert_eq!(e, Some(TrackingEvent::Regained));
        assert!(
            out.position.distance(rest.position) < 1e-3,
            "starts from where it was"
        );
        assert_eq!(t.state(Side::Left), TrackingState::Regaining);
        for _ in 0..30 {
            step(&mut t, Some(back), &rest, 0.01, &s);
        }
        assert_eq!(t.state(Side::Left), TrackingState::Tracked);
        assert_eq!(step(&mut t, Some(back), &rest, 0.01, &s).0, back);
    }

    #[test]
    fn hostile_time_steps_never_jump_or_go_non_finite() {
        let s = TrackingLossSettings::default();
        let rest = Pose::new(Vec3::new(0.2, 0.8, 0.0), Quat::IDENTITY);
        for dt in [0.0, -1.0, f32::NAN, f32::INFINITY, 1.0, 1e30] {
            let mut t = TrackingLoss::default();
            step(&mut t, Some(pose(0.5)), &rest, 0.01, &s);
            let (held, _) = step(&mut t, None, &rest, dt, &s);
            assert!(held.is_finite());
            assert!(
                held.position.distance(pose(0.5).position) < 1e-6,
                "dt {dt}: the loss frame holds"
            );
            let (next, _) = step(&mut t, None, &rest, dt, &s);
            assert!(next.is_finite());
            // A huge step completes the ease (never past the rest pose); a bad one stays put.
            let gap = pose(0.5).position.distance(rest.position);
            assert!(next.position.distance(rest.position) <= gap + 1e-6);
        }
    }

    #[test]
    fn losing_tracking_while_regaining_restarts_from_the_current_pose() {
        let s = TrackingLossSettings::default();
        let rest = Pose::IDENTITY;
        let mut t = TrackingLoss::default();
        step(&mut t, Some(pose(0.5)), &rest, 0.01, &s);
        step(&mut t, None, &rest, 0.01, &s);
        for _ in 0..20 {
            step(&mut t, None, &rest, 0.01, &s);
        }
        let (mid, _) = step(&mut t, Some(pose(1.0)), &rest, 0.05, &s);
        let (again, e) = step(&mut t, None, &rest, 0.01, &s);
        assert_eq!(e, Some(TrackingEvent::Lost));
        assert!(again.position.distance(mid.position) < 1e-6);
    }

    #[test]
    fn non_finite_live_pose_counts_as_lost() {
        let s = TrackingLossSettings::default();
        let mut t = TrackingLoss::default();
        step(&mut t, Some(pose(0.2)), &Pose::IDENTITY, 0.01, &s);
        let bad = Pose::new(Vec3::NAN, Quat::IDENTITY);
        let (out, e) = step(&mut t, Some(bad), &Pose::IDENTITY, 0.01, &s);
        assert_eq!(e, Some(TrackingEvent::Lost));
        assert!(out.is_finite());
    }

    #[test]
    fn hanging_keeps_roll_and_points_the_fingers_down() {
        let held = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2) * Quat::from_rotation_y(0.4);
        let hung = hanging_rotation(held, Vec3::Y, Vec3::NEG_Y);
        assert!((hung * Vec3::Y).distance(Vec3::NEG_Y) < 1e-5);
        assert_eq!(hanging_rotation(held, Vec3::ZERO, Vec3::NEG_Y), held);
    }

    #[test]
    fn settings_are_sanitized() {
        let s = TrackingLossSettings {
            ease_to_rest_s: -1.0,
            regain_blend_s: f32::NAN,
        }
        .usable();
        assert_eq!(s, TrackingLossSettings::default());
        let s = TrackingLossSettings {
            ease_to_rest_s: 0.0,
            regain_blend_s: 60.0,
        }
        .usable();
        assert_eq!((s.ease_to_rest_s, s.regain_blend_s), (0.0, 10.0));
    }

    #[test]
    fn the_last_pose_given_out_is_kept_and_bad_steps_do_not_advance() {
        let s = TrackingLossSettings::default();
        let mut t = TrackingLoss::default();
        assert_eq!(t.last(Side::Left), None);
        let rest = Pose::new(Vec3::new(0.2, 0.8, 0.0), Quat::IDENTITY);
        let (out, _) = step(&mut t, Some(pose(0.5)), &rest, 0.01, &s);
        assert_eq!(t.last(Side::Left), Some(out));
        step(&mut t, None, &rest, 0.01, &s);
        step(&mut t, None, &rest, 0.3, &s);
        let before = t.last(Side::Left).unwrap();
        // Negative or unknown steps: the ease toward rest does not move.
        for dt in [-1.0, f32::NAN] {
            let (out, _) = step(&mut t, None, &rest, dt, &s);
            assert_eq!(out, before, "{dt}");
        }
    }

    /// A tracked hand needs no rest pose while it stays tracked; a lost or returning one does.
    /// The live pose comes out with its rotation made unit.
    #[test]
    fn a_tracked_hand_needs_no_rest_and_gives_a_unit_rotation() {
        let mut t = TrackingLoss::default();
        let live = Pose::new(
            Vec3::new(0.3, 1.2, 0.4),
            Quat::from_xyzw(0.0, 0.0, 0.0, 2.0),
        );
        assert!(t.followed(Side::Left, Some(live)).is_some());
        assert!(t.followed(Side::Left, None).is_none());
        assert!(
            t.followed(Side::Left, Some(Pose::new(Vec3::NAN, Quat::IDENTITY)))
                .is_none()
        );
        let out = t.update(
            Side::Left,
            &TrackingLossInput {
                live: Some(live),
                rest: None,
            },
            0.01,
        );
        assert_eq!(out.target, Pose::new(live.position, Quat::IDENTITY));
        t.update(Side::Left, &TrackingLossInput::default(), 0.01);
        assert!(
            t.followed(Side::Left, Some(live)).is_none(),
            "lost: the way back blends from rest"
        );
        assert!(
            t.followed(Side::Right, Some(live)).is_some(),
            "the other hand is still tracked"
        );
    }
}
