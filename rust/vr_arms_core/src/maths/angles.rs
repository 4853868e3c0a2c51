//! Yaws: a horizontal direction's, the headset's, and a difference of two wrapped into one turn.

use glam::{Quat, Vec3};

use crate::maths::finite::direction;

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

/// The headset's yaw: its flat view direction (-Z), helped by its up axis when looking straight
/// up or down, so the yaw stays defined.
pub fn head_yaw(head: &Quat) -> f32 {
    let forward = *head * Vec3::NEG_Z;
    let up = *head * Vec3::Y;
    // Looking down, the camera's up points forward; looking up, it points back.
    let flat = Vec3::new(forward.x, 0.0, forward.z) - Vec3::new(up.x, 0.0, up.z) * forward.y;
    direction(flat).map(yaw_of).unwrap_or(0.0)
}
