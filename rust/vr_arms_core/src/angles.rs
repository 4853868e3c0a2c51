//! Yaws: a horizontal direction's, and a difference of two wrapped into one turn.

use glam::Vec3;

/// `a` wrapped into -pi..pi.
pub fn wrap_angle(a: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    if !a.is_finite() {
        return 0.0;
    }
    // Already wrapped (nearly always: a difference of two wrapped yaws): no division.
    if (-PI..=PI).contains(&a) {
        return a;
    }
    let r = (a + PI).rem_euclid(TAU) - PI;
    if r.is_finite() { r } else { 0.0 }
}

/// Yaw (about +Y, 0 = +Z) of a horizontal direction.
pub fn yaw_of(dir: Vec3) -> f32 {
    dir.x.atan2(dir.z)
}
