//! How fast the elbow may swing round the shoulder-hand line. A hand that flaps or shakes at the
//! wrist (a relaxed hand swinging as the player walks or hops) turns the forearm cue a quarter
//! turn in a tenth of a second while the performer's elbow stays where it was: the hint would
//! carry the elbow round with it, back and forth, a flip a player sees. Limiting the swivel's
//! speed keeps the elbow where it is through such a flap; a real swing of the arm, slower, still
//! carries it round.

use glam::{Quat, Vec3};

/// `next` (a hint relative to the shoulder) with its swivel round `axis` (unit, shoulder to
/// hand) turned from `prev`'s at most `most` radians; its part along the axis and its distance
/// from the axis are `next`'s. Where either is on the axis (no swivel to speak of), or the turn
/// is within `most`, `next` as it is.
pub fn limit_swivel(prev: Vec3, next: Vec3, axis: Vec3, most: f32) -> Vec3 {
    let off = |v: Vec3| v - axis * v.dot(axis);
    let (from, to) = (off(prev), off(next));
    let (Some(from_dir), Some(to_dir)) = (from.try_normalize(), to.try_normalize()) else {
        return next;
    };
    let angle = from_dir.angle_between(to_dir);
    // Within the most (or no most to hold to: not a finite angle of at least 0).
    let within = angle.is_nan() || angle <= most;
    if within || !most.is_finite() || most < 0.0 {
        return next;
    }
    // Nearly opposite, the arc's own axis is ill-defined: turn about the arm's.
    let turn = if angle > std::f32::consts::PI - 1e-3 {
        Quat::from_axis_angle(axis, most)
    } else {
        Quat::IDENTITY.slerp(Quat::from_rotation_arc(from_dir, to_dir), most / angle)
    };
    let limited = next - to + turn * from_dir * to.length();
    if limited.is_finite() { limited } else { next }
}

/// Degrees between the swivels of `a` and `b` (relative to the shoulder) round `axis` (unit),
/// for the tests here and in `elbow_hint.rs`.
#[cfg(test)]
pub(crate) fn swivel_deg(a: Vec3, b: Vec3, axis: Vec3) -> f32 {
    let off = |v: Vec3| (v - axis * v.dot(axis)).normalize();
    off(a).angle_between(off(b)).to_degrees()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_turn_in_one_step_is_held_to_the_most_keeping_reach_and_distance() {
        let axis = Vec3::NEG_Y;
        let prev = Vec3::new(0.0, -0.2, -0.1);
        let next = Vec3::new(0.15, -0.25, 0.0);
        let most = 10f32.to_radians();
        let got = limit_swivel(prev, next, axis, most);
        assert!((swivel_deg(prev, got, axis) - 10.0).abs() < 0.01);
        assert!(
            (got.dot(axis) - next.dot(axis)).abs() < 1e-6,
            "along the arm"
        );
        let off = |v: Vec3| (v - axis * v.dot(axis)).length();
        assert!((off(got) - off(next)).abs() < 1e-6, "distance from the arm");
        // Toward next, not away from it.
        assert!(swivel_deg(got, next, axis) < swivel_deg(prev, next, axis));
    }

    /// Exactly opposite about an arm pointing any way: the turn is about the arm itself (the
    /// shortest arc between opposite directions has no axis of its own), so the hint stays as
    /// far along the arm and as far from it.
    #[test]
    fn an_opposite_swivel_turns_about_the_arm() {
        let axis = Vec3::new(1.0, -1.0, 0.3).normalize();
        let across = axis.any_orthonormal_vector();
        let prev = axis * 0.2 + across * 0.1;
        let next = axis * 0.25 - across * 0.12;
        let got = limit_swivel(prev, next, axis, 0.3);
        assert!((swivel_deg(prev, got, axis) - 0.3f32.to_degrees()).abs() < 0.01);
        assert!((got.dot(axis) - 0.25).abs() < 1e-5, "{got}");
        assert!(
            ((got - axis * got.dot(axis)).length() - 0.12).abs() < 1e-5,
            "{got}"
        );
    }

    #[test]
    fn a_turn_within_the_most_or_a_swivel_on_the_arm_is_left_alone() {
        let axis = Vec3::NEG_Y;
        let prev = Vec3::new(0.0, -0.2, -0.1);
        let next = Vec3::new(0.01, -0.2, -0.1);
        assert_eq!(limit_swivel(prev, next, axis, 0.5), next);
        let on_arm = Vec3::new(0.0, -0.3, 0.0);
        assert_eq!(limit_swivel(on_arm, next, axis, 0.01), next);
        assert_eq!(limit_swivel(prev, on_arm, axis, 0.01), on_arm);
        // Exactly opposite: turned about the arm by the most, its place along the arm and its
        // distance from it kept.
        let opposite = Vec3::new(0.0, -0.3, 0.15);
        let got = limit_swivel(prev, opposite, axis, 0.2);
        assert!((swivel_deg(prev, got, axis) - 0.2f32.to_degrees()).abs() < 0.01);
        assert!((got.dot(axis) - opposite.dot(axis)).abs() < 1e-6);
        assert!(((got - axis * got.dot(axis)).length() - 0.15).abs() < 1e-6);
        // A most of 0 (no time passed) holds the swivel where it was.
        let held = limit_swivel(prev, next, axis, 0.0);
        assert!(swivel_deg(prev, held, axis) < 1e-3, "{held}");
        for bad in [f32::NAN, f32::INFINITY, -1.0] {
            assert_eq!(limit_swivel(prev, opposite, axis, bad), opposite, "{bad}");
        }
    }
}
