//! The one place where Godot's math types become glam's and back. No maths here.

use godot::builtin::{Basis, Quaternion, Transform3D, Vector3};
use vr_arms_core::Pose;

#[inline]
pub fn vec3(v: Vector3) -> glam::Vec3 {
    glam::Vec3::new(v.x, v.y, v.z)
}

#[inline]
pub fn to_vector3(v: glam::Vec3) -> Vector3 {
    Vector3::new(v.x, v.y, v.z)
}

#[inline]
pub fn quat(q: Quaternion) -> glam::Quat {
    glam::Quat::from_xyzw(q.x, q.y, q.z, q.w)
}

#[inline]
pub fn to_quaternion(q: glam::Quat) -> Quaternion {
    Quaternion::new(q.x, q.y, q.z, q.w)
}

#[inline]
pub fn mat3(b: &Basis) -> glam::Mat3 {
    let [a, b_, c] = b.to_cols();
    glam::Mat3::from_cols(vec3(a), vec3(b_), vec3(c))
}

/// The rigid part of a transform (scale and shear dropped by the core).
#[inline]
pub fn pose(t: &Transform3D) -> Pose {
    Pose::from_basis_origin(mat3(&t.basis), vec3(t.origin))
}

/// A transform as it came, for the input guard to judge: a non-finite origin stays non-finite,
/// and a basis with no usable rotation gives a zero quaternion (nothing is repaired here).
pub fn pose_unrepaired(t: &Transform3D) -> Pose {
    Pose {
        position: vec3(t.origin),
        rotation: vr_arms_core::maths::pose::rotation_of(
            mat3(&t.basis),
            glam::Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        ),
    }
}

#[inline]
pub fn to_transform(p: &Pose) -> Transform3D {
    Transform3D::new(
        Basis::from_quaternion(to_quaternion(p.rotation)),
        to_vector3(p.position),
    )
}
