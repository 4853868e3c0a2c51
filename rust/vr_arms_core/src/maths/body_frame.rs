//! Body space: the frame the anatomical constraints are written in.
//!
//! The avatar root faces +Z (the humanoid convention), so in body space +X is the character's
//! left, +Y up and +Z forward, in the avatar's own metres: a root scaled by 1.1 (a calibrated,
//! taller player) makes a body-space metre 1.1 world metres. Working here keeps every constraint
//! the same when the player turns, and in proportion when the avatar is scaled.

use glam::{Mat3A, Vec3, Vec3A};

use crate::maths::pose::Pose;

/// How far an arm hangs at the side (0..1): its direction `arm` (unit, shoulder to hand) within
/// `start` to `full` of straight `down` (the dot of the two), and not reaching down across the
/// body: it fades as the arm turns inward, from 0.1 to 0.3 of its direction against `out` (the
/// side's outward, unit). The elbow hint's relaxed arm and body avoidance's cross-body limit ask
/// the same of an arm.
pub fn hanging_share(arm: Vec3, down: Vec3, out: Vec3, start: f32, full: f32) -> f32 {
    use crate::maths::smoothing::inverse_lerp_clamped;
    inverse_lerp_clamped(start, full, arm.dot(down))
        * (1.0 - inverse_lerp_clamped(0.1, 0.3, -arm.dot(out)))
}

/// The avatar root's world pose, with conversions to and from body space. Its axes are worked
/// out once, when it is made, so each conversion is a matrix product rather than a quaternion
/// rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyFrame {
    root: Pose,
    scale: f32,
    /// The root's rotation as a matrix: columns left (+X), up (+Y), forward (+Z), in world space.
    axes: Mat3A,
}

impl BodyFrame {
    pub fn new(root: Pose) -> Self {
        Self::scaled(root, 1.0)
    }

    /// A body frame whose avatar is scaled uniformly by `scale` (not finite or below 0.01: 1).
    pub fn scaled(root: Pose, scale: f32) -> Self {
        let root = root.sanitized(&Pose::IDENTITY);
        Self {
            root,
            scale: if scale.is_finite() && scale >= 0.01 {
                scale.min(100.0)
            } else {
                1.0
            },
            axes: Mat3A::from_quat(root.rotation),
        }
    }

    /// World pose of the avatar root (its +Z is the character's forward).
    #[inline]
    pub fn root(&self) -> Pose {
        self.root
    }

    /// World metres per body-space metre: the avatar root's uniform scale (1 unscaled).
    #[inline]
    pub fn scale(&self) -> f32 {
        self.scale
    }

    #[inline]
    pub fn to_local(&self, world: Vec3) -> Vec3 {
        self.dir_to_local(world - self.root.position) / self.scale
    }

    #[inline]
    pub fn to_world(&self, local: Vec3) -> Vec3 {
        self.root.position + self.dir_to_world(local * self.scale)
    }

    /// A body-space length in world metres.
    #[inline]
    pub fn length_to_world(&self, length: f32) -> f32 {
        length * self.scale
    }

    /// World direction of a body-space direction.
    #[inline]
    pub fn dir_to_world(&self, local: Vec3) -> Vec3 {
        (self.axes * Vec3A::from(local)).into()
    }

    /// Body-space direction of a world direction (no scale: directions keep their length).
    #[inline]
    pub fn dir_to_local(&self, world: Vec3) -> Vec3 {
        (self.axes.transpose() * Vec3A::from(world)).into()
    }

    #[inline]
    pub fn up(&self) -> Vec3 {
        self.axes.y_axis.into()
    }

    #[inline]
    pub fn forward(&self) -> Vec3 {
        self.axes.z_axis.into()
    }

    /// The character's left in world space.
    #[inline]
    pub fn left(&self) -> Vec3 {
        self.axes.x_axis.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn a_scaled_body_measures_in_avatar_metres() {
        let root = Pose::new(Vec3::new(1.0, 0.0, 2.0), Quat::from_rotation_y(0.5));
        let body = BodyFrame::scaled(root, 1.25);
        let local = Vec3::new(0.1, 1.4, 0.2);
        let world = body.to_world(local);
        assert!((world - root.transform_point(local * 1.25)).length() < 1e-6);
        assert!((body.to_local(world) - local).length() < 1e-6, "round trip");
        let dir = Vec3::new(0.3, -0.2, 0.9);
        assert!((body.dir_to_world(dir) - root.rotation * dir).length() < 1e-6);
        assert!((body.dir_to_local(body.dir_to_world(dir)) - dir).length() < 1e-6);
        assert_eq!(body.length_to_world(0.2), 0.25);
        for bad in [f32::NAN, 0.0, -2.0] {
            assert_eq!(BodyFrame::scaled(root, bad).scale(), 1.0);
        }
        assert_eq!(BodyFrame::new(root).scale(), 1.0);
    }

    #[test]
    fn directions_turn_with_the_body_and_ignore_its_position_and_scale() {
        let root = Pose::new(
            Vec3::new(1.0, 0.0, 2.0),
            Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
        );
        let body = BodyFrame::scaled(root, 1.25);
        // Turned a quarter to the left: body forward (+Z) is world +X.
        assert!(body.dir_to_world(Vec3::Z).distance(Vec3::X) < 1e-6);
        assert!(body.forward().distance(Vec3::X) < 1e-6);
        assert!(body.left().distance(Vec3::NEG_Z) < 1e-6);
        assert!(body.up().distance(Vec3::Y) < 1e-6);
    }
}
