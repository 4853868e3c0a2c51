//! Easing back onto the stream: when a late packet arrives after the avatar was drawn
//! extrapolated or held, the drawn state and the stream's state differ. Snapping to the stream
//! would pop the hands; instead the difference is kept as an offset that fades to nothing over a
//! short time, so the avatar glides back onto the stream.

use glam::{Quat, Vec3};

use super::state_packet::AvatarState;

/// How long a correction takes to fade out (seconds).
pub const CORRECTION_FADE_S: f64 = 0.15;
/// A difference larger than this (metres, any tracked point) is a jump of the sender's own (a
/// teleport, a recentre): it is shown at once, not eased.
pub const MAX_CORRECTED_M: f32 = 0.5;

/// The offset from the stream's state to the state that was drawn, fading out over
/// [`CORRECTION_FADE_S`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Correction {
    /// Receiver time at which the offset was whole (seconds).
    start_s: f64,
    root: Vec3,
    /// Head, left hand, right hand: position offsets and rotation offsets (drawn = offset *
    /// stream, in world space).
    positions: [Vec3; 3],
    rotations: [Quat; 3],
}

impl Correction {
    /// The offset that takes `stream` to `drawn`, starting at `now_s`; `None` when the two are
    /// the same or too far apart to ease.
    pub fn between(drawn: &AvatarState, stream: &AvatarState, now_s: f64) -> Option<Self> {
        let points = |s: &AvatarState| [s.head, s.hands[0].pose, s.hands[1].pose];
        let (d, s) = (points(drawn), points(stream));
        let positions: [Vec3; 3] = std::array::from_fn(|i| d[i].position - s[i].position);
        let rotations: [Quat; 3] =
            std::array::from_fn(|i| (d[i].rotation * s[i].rotation.inverse()).normalize());
        let root = drawn.root - stream.root;
        let largest = positions
            .iter()
            .chain(std::iter::once(&root))
            .map(|p| p.length())
            .fold(0.0f32, f32::max);
        let turned = rotations.iter().any(|q| q.w.abs() < 1.0 - 1e-7);
        // (`f32::max` passes over a NaN: the positions are checked themselves.)
        let finite = root.is_finite()
            && positions.iter().all(|p| p.is_finite())
            && rotations.iter().all(|q| q.is_finite());
        if !finite || largest > MAX_CORRECTED_M || (largest < 1e-5 && !turned) {
            return None;
        }
        Some(Self {
            start_s: now_s,
            root,
            positions,
            rotations,
        })
    }

    /// The share of the offset still applied at `now_s`: 1 at the start, 0 once faded.
    pub fn weight(&self, now_s: f64) -> f32 {
        (1.0 - (now_s - self.start_s) / CORRECTION_FADE_S).clamp(0.0, 1.0) as f32
    }

    /// `stream` with what is left of the offset at `now_s` added.
    pub fn apply(&self, stream: &AvatarState, now_s: f64) -> AvatarState {
        let w = self.weight(now_s);
        let mut out = *stream;
        out.root += self.root * w;
        let [left, right] = &mut out.hands;
        let poses = [&mut out.head, &mut left.pose, &mut right.pose];
        for (i, pose) in poses.into_iter().enumerate() {
            pose.position += self.positions[i] * w;
            pose.rotation =
                (Quat::IDENTITY.slerp(self.rotations[i], w) * pose.rotation).normalize();
        }
        out
    }

    /// Whether the offset has faded out by `now_s`.
    pub fn is_done(&self, now_s: f64) -> bool {
        self.weight(now_s) <= 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maths::pose::Pose;

    fn state(x: f32, turn: f32) -> AvatarState {
        let mut s = AvatarState {
            root: Vec3::new(x * 0.5, 0.0, 0.0),
            head: Pose::new(Vec3::new(0.0, 1.6, x), Quat::from_rotation_y(turn)),
            ..Default::default()
        };
        s.hands[1].pose = Pose::new(Vec3::new(x, 1.2, 0.3), Quat::from_rotation_x(turn));
        s
    }

    #[test]
    fn the_drawn_state_fades_into_the_stream() {
        let (drawn, stream) = (state(0.1, 0.3), state(0.0, 0.0));
        let c = Correction::between(&drawn, &stream, 10.0).expect("a correction");
        let start = c.apply(&stream, 10.0);
        assert!((start.hands[1].pose.position - drawn.hands[1].pose.position).length() < 1e-6);
        assert!(start.head.rotation.angle_between(drawn.head.rotation) < 1e-3);
        assert!((start.root - drawn.root).length() < 1e-6);
        let half = c.apply(&stream, 10.0 + CORRECTION_FADE_S / 2.0);
        assert!((half.hands[1].pose.position.x - 0.05).abs() < 1e-5);
        assert!((half.head.rotation.angle_between(Quat::IDENTITY) - 0.15).abs() < 1e-3);
        let end = c.apply(&stream, 10.0 + CORRECTION_FADE_S);
        assert_eq!(end.hands[1].pose.position, stream.hands[1].pose.position);
        assert!(c.is_done(10.0 + CORRECTION_FADE_S) && !c.is_done(10.1));
    }

    #[test]
    fn no_correction_for_nothing_or_for_a_jump() {
        let s = state(0.2, 0.1);
        assert_eq!(Correction::between(&s, &s, 0.0), None);
        assert_eq!(
            Correction::between(&state(0.2, 0.0), &state(0.2, 0.4), 0.0).map(|c| c.root),
            Some(Vec3::ZERO),
            "a turn alone is eased"
        );
        assert_eq!(
            Correction::between(&state(0.8, 0.0), &state(0.0, 0.0), 0.0),
            None
        );
        let mut bad = state(0.0, 0.0);
        bad.hands[0].pose.position.x = f32::NAN;
        assert_eq!(Correction::between(&bad, &state(0.0, 0.0), 0.0), None);
        // A NaN beside a real difference elsewhere: still none.
        let mut bad = state(0.1, 0.0);
        bad.hands[0].pose.position.x = f32::NAN;
        assert_eq!(Correction::between(&bad, &state(0.0, 0.0), 0.0), None);
    }
}
