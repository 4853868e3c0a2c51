//! Guards at the core boundary: whatever comes in, only finite values go out.

use glam::{Quat, Vec3};

/// `v` when every component is finite, else `fallback`.
#[inline]
pub fn vec3_or(v: Vec3, fallback: Vec3) -> Vec3 {
    if v.is_finite() { v } else { fallback }
}

/// `x` when finite, else `fallback`.
#[inline]
pub fn f32_or(x: f32, fallback: f32) -> f32 {
    if x.is_finite() { x } else { fallback }
}

/// `x` clamped to `lo..=hi`, or `fallback` when not finite (a setting read from a profile or
/// the inspector).
#[inline]
pub fn finite_clamp(x: f32, lo: f32, hi: f32, fallback: f32) -> f32 {
    if x.is_finite() {
        x.clamp(lo, hi)
    } else {
        fallback
    }
}

/// A unit quaternion from `q`: normalised when it has a usable length, else `fallback`.
#[inline]
pub fn quat_or(q: Quat, fallback: Quat) -> Quat {
    unit_quat(q).unwrap_or(fallback)
}

/// `q` normalised, or `None` when it is not finite or too short to have a rotation.
#[inline]
pub fn unit_quat(q: Quat) -> Option<Quat> {
    let len_sq = q.length_squared();
    if q.is_finite() && len_sq > 1e-12 {
        Some(q * len_sq.sqrt().recip())
    } else {
        None
    }
}

/// `v` as a unit direction: kept exactly when it is unit already (within 1e-6), made unit when
/// it is not, and `fallback` when it has no direction (too short or not finite).
pub fn unit_axis(v: [f32; 3], fallback: Vec3) -> [f32; 3] {
    let given = Vec3::from_array(v);
    if given.is_finite() && (given.length() - 1.0).abs() <= 1e-6 {
        v
    } else {
        direction(given).unwrap_or(fallback).to_array()
    }
}

/// Unit vector along `v`, or `None` when `v` is too short (or not finite) to have a direction.
#[inline]
pub fn direction(v: Vec3) -> Option<Vec3> {
    let len = v.length();
    if len.is_finite() && len > 1e-9 {
        Some(v / len)
    } else {
        None
    }
}

/// The shortest turn taking unit `from` onto unit `to`. Unlike glam's `from_rotation_arc`,
/// which returns the identity for turns under about 0.04 degrees, a small turn is a small
/// turn: a stage that corrects what is left (the spine's bend) stays continuous. Opposite
/// directions turn half a circle about an axis across `from`.
pub fn rotation_arc(from: Vec3, to: Vec3) -> Quat {
    let dot = from.dot(to);
    if dot < -1.0 + 1e-6 {
        return Quat::from_axis_angle(from.any_orthonormal_vector(), std::f32::consts::PI);
    }
    let c = from.cross(to);
    Quat::from_xyzw(c.x, c.y, c.z, 1.0 + dot).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_values_are_replaced() {
        assert_eq!(vec3_or(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::ONE), Vec3::ONE);
        assert_eq!(f32_or(f32::INFINITY, 2.0), 2.0);
        assert_eq!(
            quat_or(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Quat::IDENTITY),
            Quat::IDENTITY
        );
        let q = quat_or(Quat::from_xyzw(0.0, 0.0, 0.0, 2.0), Quat::IDENTITY);
        assert!((q.length() - 1.0).abs() < 1e-6);
        assert!(direction(Vec3::ZERO).is_none());
        assert_eq!(direction(Vec3::new(0.0, 3.0, 0.0)), Some(Vec3::Y));
    }
}
