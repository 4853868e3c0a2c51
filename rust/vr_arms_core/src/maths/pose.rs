//! A rigid pose (rotation + translation), the one transform type the stages exchange.

use glam::{Quat, Vec3};

use crate::maths::finite::{quat_or, unit_quat, vec3_or};

/// Rotation then translation, no scale. Positions in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub position: Vec3,
    pub rotation: Quat,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    pub const IDENTITY: Pose = Pose {
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    };

    pub const fn new(position: Vec3, rotation: Quat) -> Self {
        Self { position, rotation }
    }

    pub const fn from_position(position: Vec3) -> Self {
        Self {
            position,
            rotation: Quat::IDENTITY,
        }
    }

    /// `self * other`: `other` expressed in `self`'s space, taken to `self`'s parent space.
    #[inline]
    pub fn mul_pose(&self, other: &Pose) -> Pose {
        Pose {
            position: self.position + self.rotation * other.position,
            rotation: self.rotation * other.rotation,
        }
    }

    #[inline]
    pub fn inverse(&self) -> Pose {
        let inv = self.rotation.inverse();
        Pose {
            position: inv * -self.position,
            rotation: inv,
        }
    }

    #[inline]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        self.position + self.rotation * p
    }

    #[inline]
    pub fn inverse_transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation.inverse() * (p - self.position)
    }

    /// The pose with non-finite parts replaced by `fallback`'s and the rotation normalised.
    pub fn sanitized(&self, fallback: &Pose) -> Pose {
        Pose {
            position: vec3_or(self.position, fallback.position),
            rotation: quat_or(self.rotation, fallback.rotation),
        }
    }

    pub fn is_finite(&self) -> bool {
        self.position.is_finite() && self.rotation.is_finite()
    }

    /// The pose when rigid: a finite position and a rotation that can be made unit (then made
    /// unit); `None` otherwise.
    #[inline]
    pub fn rigid(self) -> Option<Pose> {
        let rotation = unit_quat(self.rotation)?;
        self.position
            .is_finite()
            .then_some(Pose::new(self.position, rotation))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes_the_pose() {
        let p = Pose::new(Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_y(0.7));
        let q = p.mul_pose(&p.inverse());
        assert!(q.position.length() < 1e-6);
        assert!(q.rotation.angle_between(Quat::IDENTITY) < 1e-5);
        let x = Vec3::new(0.3, -0.2, 0.9);
        assert!(p.inverse_transform_point(p.transform_point(x)).distance(x) < 1e-6);
    }
}

/// The rotation in a 3x3 matrix that may carry scale, shear or a mirror: its columns are made
/// orthonormal (Gram-Schmidt in X, Y, Z order) and a mirrored frame is flipped back to a rotation.
/// A degenerate or non-finite matrix gives `fallback`.
pub fn rotation_of(m: glam::Mat3, fallback: Quat) -> Quat {
    use crate::maths::finite::direction;
    let Some(x) = direction(m.x_axis) else {
        return fallback;
    };
    let Some(y) = direction(m.y_axis - x * m.y_axis.dot(x)) else {
        return fallback;
    };
    // Z from X and Y, not from the matrix: a mirrored basis becomes a proper rotation.
    let z = x.cross(y);
    quat_or(Quat::from_mat3(&glam::Mat3::from_cols(x, y, z)), fallback)
}

impl Pose {
    /// The rigid part of an affine transform given as basis columns and origin.
    pub fn from_basis_origin(basis: glam::Mat3, origin: Vec3) -> Pose {
        Pose {
            position: vec3_or(origin, Vec3::ZERO),
            rotation: rotation_of(basis, Quat::IDENTITY),
        }
    }
}

#[cfg(test)]
mod rotation_tests {
    use super::*;
    use glam::Mat3;

    #[test]
    fn rotation_ignores_scale() {
        let q = Quat::from_euler(glam::EulerRot::YXZ, 0.3, -0.4, 1.1);
        let m = Mat3::from_quat(q) * Mat3::from_diagonal(Vec3::new(2.0, 0.5, 3.0));
        assert!(rotation_of(m, Quat::IDENTITY).angle_between(q) < 1e-4);
        assert_eq!(rotation_of(Mat3::ZERO, Quat::IDENTITY), Quat::IDENTITY);
        assert_eq!(
            rotation_of(Mat3::from_cols(Vec3::NAN, Vec3::Y, Vec3::Z), Quat::IDENTITY),
            Quat::IDENTITY
        );
    }

    #[test]
    fn shear_and_mirror_are_removed() {
        // Y sheared toward X, then Z mirrored: the rotation part is still no rotation.
        let sheared = Mat3::from_cols(Vec3::X * 2.0, Vec3::new(0.7, 1.0, 0.0), Vec3::Z);
        assert!(rotation_of(sheared, Quat::IDENTITY).angle_between(Quat::IDENTITY) < 1e-5);
        let mirrored = Mat3::from_cols(Vec3::X, Vec3::Y, Vec3::NEG_Z);
        assert!(rotation_of(mirrored, Quat::IDENTITY).angle_between(Quat::IDENTITY) < 1e-5);
    }

    #[test]
    fn the_rigid_part_of_a_transform() {
        let q = Quat::from_rotation_y(0.6);
        let basis = Mat3::from_quat(q) * Mat3::from_diagonal(Vec3::splat(1.25));
        let p = Pose::from_basis_origin(basis, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(p.position, Vec3::new(1.0, 2.0, 3.0));
        assert!(p.rotation.angle_between(q) < 1e-5);
        let bad = Pose::from_basis_origin(Mat3::ZERO, Vec3::NAN);
        assert_eq!(bad, Pose::IDENTITY);
    }
}
