//! The walk's heading: a player walking forward faces where they walk, whichever way the head
//! looks. Read from the headset's path, it gives the body a yaw and a weight: none standing or
//! shuffling, in full from a brisk walk's speed, and none when the walk goes sideways or back
//! from where the head looks (a strafe, a step back: the body does not face those).

use glam::Vec3;

use crate::maths::angles::{wrap_angle, yaw_of};
use crate::maths::smoothing::{SmoothedVelocity, inverse_lerp_clamped, smoothstep};

/// Time constant of the headset's smoothed horizontal velocity (seconds): about a step, so the
/// sway of each step does not turn the heading.
const VELOCITY_TIME_S: f32 = 0.3;

/// The heading starts to count at this speed (metres a second, as the player walks) ...
const WALK_START_M_S: f32 = 0.3;
/// ... and counts fully from this one.
const WALK_FULL_M_S: f32 = 0.8;

/// A walk up to this far (degrees) from where the head looks is walking forward ...
const FORWARD_DEG: f32 = 35.0;
/// ... and from this far on it is a strafe or a step back: no heading.
const SIDEWAYS_DEG: f32 = 65.0;

/// The headset's horizontal motion, across frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WalkHeading {
    velocity: SmoothedVelocity,
}

impl WalkHeading {
    /// Forgets the motion (a teleport, a new avatar).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// One frame of `dt` seconds with the headset at `head` (world, metres) looking along the
    /// yaw `head_yaw` (radians): the walk's yaw and its weight (0..1).
    pub fn update(&mut self, head: Vec3, head_yaw: f32, dt: f32) -> (f32, f32) {
        let flat = Vec3::new(head.x, 0.0, head.z);
        if !flat.is_finite() {
            return (head_yaw, 0.0);
        }
        let velocity = self.velocity.update(flat, dt, VELOCITY_TIME_S);
        let speed = velocity.length();
        let moving = smoothstep(inverse_lerp_clamped(WALK_START_M_S, WALK_FULL_M_S, speed));
        if moving <= 0.0 || !head_yaw.is_finite() {
            return (head_yaw, 0.0);
        }
        let yaw = yaw_of(velocity);
        let off = wrap_angle(yaw - head_yaw).abs();
        let forward = 1.0
            - smoothstep(inverse_lerp_clamped(
                FORWARD_DEG.to_radians(),
                SIDEWAYS_DEG.to_radians(),
                off,
            ));
        (yaw, moving * forward)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks along `direction` (yaw) at `speed` for a second at 90 Hz, looking along
    /// `look`: the last heading.
    fn walk(direction: f32, speed: f32, look: f32) -> (f32, f32) {
        let mut h = WalkHeading::default();
        let dir = Vec3::new(direction.sin(), 0.0, direction.cos());
        let mut out = (0.0, 0.0);
        for k in 0..90 {
            let at = Vec3::new(2.0, 1.7, -1.0) + dir * speed * k as f32 / 90.0;
            out = h.update(at, look, 1.0 / 90.0);
        }
        out
    }

    #[test]
    fn walking_forward_gives_the_walks_heading_whichever_way_the_head_looks() {
        let (yaw, weight) = walk(0.4, 1.3, 0.4 + 0.5);
        assert!((yaw - 0.4).abs() < 1e-3, "{yaw}");
        assert!(weight > 0.99, "looking 29 degrees aside: {weight}");
        // A slow shuffle counts little, standing not at all.
        let (_, slow) = walk(0.4, 0.45, 0.4);
        assert!(slow > 0.0 && slow < 0.5, "{slow}");
        assert_eq!(walk(0.4, 0.0, 0.4).1, 0.0);
    }

    #[test]
    fn a_strafe_or_a_step_back_gives_no_heading() {
        assert_eq!(walk(1.6, 1.3, 0.0).1, 0.0, "sideways");
        assert_eq!(walk(3.1, 1.3, 0.0).1, 0.0, "back");
        let (_, between) = walk(0.87, 1.3, 0.0);
        assert!(between > 0.0 && between < 1.0, "50 degrees: {between}");
    }

    #[test]
    fn bad_input_and_a_reset_give_no_heading() {
        let mut h = WalkHeading::default();
        h.update(Vec3::ZERO, 0.0, 0.01);
        assert_eq!(h.update(Vec3::NAN, 0.0, 0.01), (0.0, 0.0));
        assert_eq!(h.update(Vec3::X, f32::NAN, 0.01).1, 0.0);
        h.update(Vec3::Z * 0.01, 0.0, f32::INFINITY);
        assert!(h.velocity.get().is_finite());
        h.reset();
        assert_eq!(h, WalkHeading::default());
    }

    /// The body follow: walking along +Z at 1.3 m/s, looking 30 degrees to the side. With the
    /// hands hanging, the body turns `walk_heading_weight` of the way to the walk; with the hands
    /// raised in front (a guard) it does not; standing, it faces where the head looks.
    #[test]
    fn a_walking_body_faces_its_walk_unless_the_hands_are_up() {
        use crate::body::body_follow::{BodyFollow, BodyFollowInput, BodyFollowSettings};
        use crate::maths::pose::Pose;
        use glam::Quat;
        let look = -0.52f32;
        let yaw_after = |weight: f32, speed: f32, hands_drop: f32| {
            let mut body = BodyFollow::new(BodyFollowSettings {
                walk_heading_weight: weight,
                ..Default::default()
            });
            let mut yaw = 0.0;
            for k in 0..180 {
                let z = speed * k as f32 / 90.0;
                let head = Pose::new(
                    Vec3::new(0.0, 1.65, z),
                    Quat::from_rotation_y(look + std::f32::consts::PI),
                );
                // Hands at the sides, `hands_drop` below the head, 0.4 m apart across the look.
                let across = Vec3::new(look.cos(), 0.0, -look.sin()) * 0.2;
                let forward = Vec3::new(look.sin(), 0.0, look.cos()) * 0.3;
                let mid = head.position - Vec3::Y * hands_drop
                    + if hands_drop < 0.5 {
                        forward
                    } else {
                        Vec3::ZERO
                    };
                let input = BodyFollowInput {
                    head,
                    left_hand: Some(mid + across),
                    right_hand: Some(mid - across),
                    left_grip: None,
                    right_grip: None,
                    floor_y: 0.0,
                };
                yaw = body.update(crate::Side::Left, &input, 1.0 / 90.0).yaw;
            }
            yaw
        };
        let hanging = yaw_after(0.5, 1.3, 0.8);
        assert!(
            (hanging - 0.5 * look).abs() < 0.03,
            "half way to the walk: {hanging}"
        );
        let full = yaw_after(1.0, 1.3, 0.8);
        assert!(full.abs() < 0.03, "facing the walk: {full}");
        assert!(
            (yaw_after(0.0, 1.3, 0.8) - look).abs() < 0.03,
            "off: the head's yaw"
        );
        assert!((yaw_after(0.5, 0.0, 0.8) - look).abs() < 0.03, "standing");
        let guarding = yaw_after(1.0, 1.3, 0.2);
        assert!((guarding - look).abs() < 0.05, "hands up: {guarding}");
    }
}
