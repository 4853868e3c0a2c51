//! The fingers' step of the body: one hand's finger rotations from its pose state, grip and
//! trigger, with hand-tracked curls faded in over them. The one way fingers are posed: the node
//! graph's `HandPoseDriver` (from the local hand tracker's joints, measured into curls by
//! [`crate::hands::tracked_curls`]), `VRRemoteBody` (from the curls the network carries) and
//! [`crate::body::Body`] all run it.

use glam::Quat;

use crate::hands::hand_pose::{
    CurlTurns, FingerCurl, HandPoseSettings, HandPoseState, procedural_curl,
};
use crate::hands::hand_tracking::TrackingFade;
use crate::maths::finite::finite_clamp;

/// Finger bones per hand (`hand_pose::finger_bones` order).
pub const FINGERS: usize = 15;

/// One hand's pose inputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandInput {
    pub state: HandPoseState,
    /// Grip and trigger, 0..1.
    pub grip: f32,
    pub trigger: f32,
    /// Fingers from hand tracking: a curl per finger (thumb, index, middle, ring, little; 0
    /// open, 1 the hand-pose settings' full curl), as [`crate::hands::tracked_curls`] measures them.
    pub tracked_curls: [f32; 5],
    /// How much of `tracked_curls` shows over the curl from grip and trigger (0..1: the fade in
    /// and out of hand tracking; 0 ignores them).
    pub tracked_weight: f32,
}

impl Default for HandInput {
    fn default() -> Self {
        Self {
            state: HandPoseState::Default,
            grip: 0.0,
            trigger: 0.0,
            tracked_curls: [0.0; 5],
            tracked_weight: 0.0,
        }
    }
}

/// Each finger bone's local rotation (`hand_pose::finger_bones` order) for `hand`: the
/// procedural curl of its state from grip and trigger, each finger moved toward its tracked
/// curl by `tracked_weight`. `None` for a bone without a prepared curl (not written).
pub fn finger_rotations(
    settings: &HandPoseSettings,
    curls: &[Option<FingerCurl>; FINGERS],
    hand: &HandInput,
) -> [Option<Quat>; FINGERS] {
    let controller = procedural_curl(hand.state, hand.grip, hand.trigger);
    let w = finite_clamp(hand.tracked_weight, 0.0, 1.0, 0.0);
    let turns = if w > 0.0 {
        let from = controller.per_finger();
        let per = std::array::from_fn(|f| {
            from[f] + (finite_clamp(hand.tracked_curls[f], 0.0, 1.0, 0.0) - from[f]) * w
        });
        CurlTurns::per_finger(settings, per)
    } else {
        CurlTurns::new(settings, controller)
    };
    std::array::from_fn(|i| curls[i].map(|c| c.turned(turns.half_turn(i))))
}

/// One hand's finger input over time: hand-tracked curls fade in over `fade_s` when they come and
/// out when they stop (the last tracked curls shown while they fade out).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FingerInput {
    fade: TrackingFade,
    last: [f32; 5],
}

impl FingerInput {
    /// This frame's [`HandInput`]: `tracked` is the hand's tracked curls now (`None` while the
    /// hand is not hand-tracked), the fade moved on by `dt`.
    pub fn update(
        &mut self,
        state: HandPoseState,
        grip: f32,
        trigger: f32,
        tracked: Option<[f32; 5]>,
        fade_s: f32,
        dt: f32,
    ) -> HandInput {
        if let Some(curls) = tracked {
            self.last = curls;
        }
        HandInput {
            state,
            grip,
            trigger,
            tracked_weight: self.fade.update(tracked.is_some(), fade_s, dt),
            tracked_curls: self.last,
        }
    }

    /// How much of the tracked curls shows now (0 to 1).
    pub fn weight(&self) -> f32 {
        self.fade.weight
    }
}

/// A finger bone's local rotation with tracked curls shown over another pose at `weight`
/// (0..1): `base` (what posed the bone: an animation, or its rest) turned toward `tracked`; at
/// 0 (or a non-finite weight) `base` itself.
pub fn blend_tracked(base: Quat, tracked: Quat, weight: f32) -> Quat {
    if weight.is_finite() && weight > 0.0 {
        base.slerp(tracked, weight.min(1.0)).normalize()
    } else {
        base
    }
}

/// How a hand's fingers are posed this frame, where something else may pose them too (the node
/// graph's `HandPoseDriver`, whose states may play authored animations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FingerMode {
    /// The finger step: the state's curl from grip and trigger, tracked curls faded in over it.
    Curl,
    /// Something else poses the fingers (an animation, or nothing): the tracked curls blended
    /// over what it holds, until they have faded out.
    TrackedOverSource,
    /// Nothing of ours: the fingers are left to what else poses them.
    Leave,
}

impl FingerMode {
    /// The mode while an animation plays or not (`animating`), for the hand's `state`, with the
    /// default state curled from the controller or not (`curl_from_controller`), hand tracking
    /// showing at `tracked_weight` and tracked curls still blended over the source from before
    /// (`still_blended`).
    pub fn choose(
        animating: bool,
        state: HandPoseState,
        curl_from_controller: bool,
        tracked_weight: f32,
        still_blended: bool,
    ) -> Self {
        if !animating && (state != HandPoseState::Default || curl_from_controller) {
            Self::Curl
        } else if tracked_weight > 0.0 || still_blended {
            Self::TrackedOverSource
        } else {
            Self::Leave
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn curls() -> [Option<FingerCurl>; FINGERS] {
        [Some(FingerCurl::new(
            Quat::IDENTITY,
            Quat::IDENTITY,
            Vec3::X,
            Vec3::NEG_Y,
        )); FINGERS]
    }

    fn angle(q: Option<Quat>) -> f32 {
        q.unwrap().angle_between(Quat::IDENTITY).to_degrees()
    }

    #[test]
    fn tracked_curls_blend_over_the_base_pose_by_their_weight() {
        let base = Quat::from_rotation_x(0.2);
        let tracked = Quat::from_rotation_x(1.2);
        assert!(
            (blend_tracked(base, tracked, 0.5).angle_between(Quat::from_rotation_x(0.7))) < 1e-5
        );
        assert_eq!(blend_tracked(base, tracked, 0.0), base);
        assert_eq!(blend_tracked(base, tracked, f32::NAN), base);
        assert!(blend_tracked(base, tracked, 3.0).angle_between(tracked) < 1e-5);
    }

    #[test]
    fn tracked_curls_replace_the_grip_at_full_weight_and_blend_between() {
        let s = HandPoseSettings::default();
        let grip = HandInput {
            grip: 1.0,
            ..Default::default()
        };
        let middle = 6; // middle proximal
        let gripped = angle(finger_rotations(&s, &curls(), &grip)[middle]);
        assert!((gripped - s.grip_curl_deg).abs() < 0.5, "{gripped}");
        let straight = HandInput {
            tracked_curls: [0.0; 5],
            tracked_weight: 1.0,
            ..grip
        };
        assert!(angle(finger_rotations(&s, &curls(), &straight)[middle]) < 0.01);
        let half = HandInput {
            tracked_weight: 0.5,
            ..straight
        };
        let h = angle(finger_rotations(&s, &curls(), &half)[middle]);
        assert!((h - gripped * 0.5).abs() < 0.5, "{h} vs {gripped}");
        // Unprepared bones are not written.
        let mut some = curls();
        some[0] = None;
        assert!(finger_rotations(&s, &some, &grip)[0].is_none());
    }

    #[test]
    fn the_fade_comes_in_and_goes_out_showing_the_last_tracked_curls() {
        let mut f = FingerInput::default();
        assert_eq!(f.weight(), 0.0, "nothing tracked yet");
        let c = [0.2, 0.4, 0.6, 0.8, 1.0];
        let a = f.update(HandPoseState::Default, 0.5, 0.1, Some(c), 0.1, 0.05);
        assert!((a.tracked_weight - 0.5).abs() < 1e-6 && a.tracked_curls == c);
        assert_eq!((a.grip, a.trigger), (0.5, 0.1));
        f.update(HandPoseState::Default, 0.5, 0.1, Some(c), 0.1, 0.05);
        assert_eq!(f.weight(), 1.0);
        let out = f.update(HandPoseState::Default, 0.5, 0.1, None, 0.1, 0.05);
        assert!((out.tracked_weight - 0.5).abs() < 1e-6, "fading out");
        assert_eq!(
            out.tracked_curls, c,
            "the last tracked curls while it fades out"
        );
    }

    /// No animation: every state but the default curls, the default only from the controller;
    /// an animation leaves the fingers to it, with tracked curls over it while they show or
    /// still blend out.
    #[test]
    fn the_finger_mode_follows_animation_state_and_tracking() {
        use HandPoseState::{Default as Rest, GripReady};
        assert_eq!(
            FingerMode::choose(false, GripReady, false, 0.0, false),
            FingerMode::Curl
        );
        assert_eq!(
            FingerMode::choose(false, Rest, true, 0.0, false),
            FingerMode::Curl
        );
        assert_eq!(
            FingerMode::choose(false, Rest, false, 0.0, false),
            FingerMode::Leave
        );
        assert_eq!(
            FingerMode::choose(false, Rest, false, 0.5, false),
            FingerMode::TrackedOverSource
        );
        assert_eq!(
            FingerMode::choose(true, GripReady, true, 0.0, true),
            FingerMode::TrackedOverSource
        );
        assert_eq!(
            FingerMode::choose(true, GripReady, true, 0.0, false),
            FingerMode::Leave
        );
        assert_eq!(
            FingerMode::choose(true, GripReady, true, 0.2, false),
            FingerMode::TrackedOverSource
        );
    }
}
