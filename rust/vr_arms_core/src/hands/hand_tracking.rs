//! Optical hand tracking (OpenXR `XR_EXT_hand_tracking`, Godot's `XRHandTracker`): the joints
//! the curls are measured from ([`crate::hands::tracked_curls`]), the palm frame built from four of
//! them (wrist, index, middle and little proximal knuckles), and the fade between the tracked
//! curls and the controller-driven poses when tracking starts or stops
//! ([`crate::hands::finger_step::FingerInput`]).

use glam::{Mat3, Vec3};

use crate::maths::finite::direction;

/// OpenXR hand joints (`XrHandJointEXT`, Godot's `XRHandTracker.HandJoint`).
pub const JOINT_COUNT: usize = 26;
pub(crate) const WRIST: usize = 1;
pub(crate) const INDEX_PROXIMAL: usize = 7;
pub(crate) const MIDDLE_PROXIMAL: usize = 12;
pub(crate) const LITTLE_PROXIMAL: usize = 22;

/// Orthonormal palm frame from four points: forward (wrist to middle knuckle), across (index to
/// little knuckle, made square to forward), normal.
pub(crate) fn palm_frame(wrist: Vec3, index: Vec3, middle: Vec3, little: Vec3) -> Option<Mat3> {
    let forward = direction(middle - wrist)?;
    let across = direction((little - index).reject_from_normalized(forward))?;
    Some(Mat3::from_cols(forward, across, forward.cross(across)))
}

/// How much of the tracked pose shows: 0 to 1 in `fade_s` once tracking starts, back to 0 in the
/// same time when it stops.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrackingFade {
    pub weight: f32,
}

impl TrackingFade {
    pub fn update(&mut self, tracking: bool, fade_s: f32, dt: f32) -> f32 {
        let step = if fade_s > 0.0 && fade_s.is_finite() {
            (dt / fade_s).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let step = if step.is_finite() { step } else { 0.0 };
        let target = if tracking { 1.0 } else { 0.0 };
        self.weight += (target - self.weight).clamp(-step, step);
        self.weight
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palm_frame_is_orthonormal_and_refuses_a_flat_palm() {
        let m = palm_frame(
            Vec3::ZERO,
            Vec3::new(0.08, 0.0, 0.02),
            Vec3::new(0.09, 0.0, 0.0),
            Vec3::new(0.08, 0.01, -0.04),
        )
        .unwrap();
        assert!((m.determinant() - 1.0).abs() < 1e-5);
        assert!(
            m.x_axis.dot(Vec3::X) > 0.99,
            "forward toward the middle knuckle"
        );
        assert!(palm_frame(Vec3::ZERO, Vec3::X, Vec3::X, Vec3::X).is_none());
    }

    #[test]
    fn the_fade_takes_its_time_both_ways() {
        let mut f = TrackingFade::default();
        for _ in 0..9 {
            f.update(true, 0.1, 0.01);
        }
        assert!((f.weight - 0.9).abs() < 1e-4);
        assert_eq!(f.update(true, 0.1, 0.05), 1.0);
        f.update(false, 0.1, 0.05);
        assert!((f.weight - 0.5).abs() < 1e-4);
        assert_eq!(f.update(false, 0.0, 0.01), 0.0, "no fade time: at once");
        assert_eq!(f.update(true, 0.1, f32::NAN), 0.0, "a bad dt moves nothing");
    }
}
