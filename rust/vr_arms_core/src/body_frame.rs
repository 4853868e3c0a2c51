//! Body space: the frame the anatomical constraints are written in.
//!
//! The avatar root faces +Z (the humanoid convention), so in body space +X is the character's
//! left, +Y up and +Z forward, in metres. Working here keeps every constraint the same when the
//! player turns.

use glam::Vec3;

use crate::pose::Pose;

/// The avatar root's world pose, with conversions to and from body space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyFrame {
    /// World pose of the avatar root (its +Z is the character's forward).
    pub root: Pose,
}

impl BodyFrame {
    pub fn new(root: Pose) -> Self {
        Self {
            root: root.sanitized(&Pose::IDENTITY),
        }
    }

    #[inline]
    pub fn to_local(&self, world: Vec3) -> Vec3 {
        self.root.inverse_transform_point(world)
    }

    #[inline]
    pub fn to_world(&self, local: Vec3) -> Vec3 {
        self.root.transform_point(local)
    }

    /// World direction of a body-space direction.
    #[inline]
    pub fn dir_to_world(&self, local: Vec3) -> Vec3 {
        self.root.rotation * local
    }

    #[inline]
    pub fn up(&self) -> Vec3 {
        self.root.rotation * Vec3::Y
    }

    #[inline]
    pub fn forward(&self) -> Vec3 {
        self.root.rotation * Vec3::Z
    }

    /// The character's left in world space.
    #[inline]
    pub fn left(&self) -> Vec3 {
        self.root.rotation * Vec3::X
    }
}
