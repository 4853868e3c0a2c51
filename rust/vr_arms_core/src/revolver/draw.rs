//! The draw gesture and the release back into the holster.

use glam::{Quat, Vec3};

use super::settings::RevolverSettings;
use crate::maths::finite::direction;

/// The draw gesture: how far along the draw direction the hand has pulled since it latched,
/// with a dead zone; pulling backwards counts as nothing. Returns `t` in 0..=1.
pub fn draw_progress(
    latch_hand: Vec3,
    hand: Vec3,
    holster_anchor: Vec3,
    draw_clear: Vec3,
    dead_zone_m: f32,
    distance_m: f32,
) -> f32 {
    let Some(dir) = direction(draw_clear - holster_anchor) else {
        return 0.0;
    };
    let pull = (hand - latch_hand).dot(dir);
    let usable = (pull - dead_zone_m).max(0.0);
    let t = usable / distance_m.max(1e-4);
    if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Whether a released gun goes back into the holster: its holster point within the distance and
/// its orientation within the angle of the holster anchor.
pub fn should_auto_holster(
    gun_point: Vec3,
    gun_rotation: Quat,
    anchor: Vec3,
    anchor_rotation: Quat,
    settings: &RevolverSettings,
) -> bool {
    let near = gun_point.distance(anchor) <= settings.auto_holster_distance_m;
    let angle = gun_rotation
        .normalize()
        .angle_between(anchor_rotation.normalize())
        .to_degrees();
    near && angle <= settings.auto_holster_angle_deg
}
