//! Sitting: while the game says the player sits (`LowerBodySettings::seated`), the hips rest on
//! a seat under the upright torso rather than hanging under the head with the crouch's lean,
//! the thighs reach forward from it and the feet stand ahead on the floor under the knees.
//! Sitting down and standing up blend over `seat_blend_s`; the seat itself creeps after the
//! body, so a player leaning forward bends the spine over the seat instead of sliding it.

use glam::Vec3;

use super::legs::LegRest;

/// How long the seat takes to follow the body forward across the floor (seconds, to 63 %) ...
pub const SEAT_FOLLOW_S: f32 = 1.0;
/// ... pulled by no more than this much of the body's offset (avatar metres): a player
/// shifting on the chair moves it, a lean to reach something further bends over it.
pub const SEAT_PULL_M: f32 = 0.05;
/// Backward, the seat follows the body within this time (seconds, to 63 %), however far: a
/// player sits down leaning forward over the knees, the hips going back onto the chair, and
/// sits up over them.
pub const SEAT_BACK_S: f32 = 0.3;

/// The seat across frames: how far the body is seated (0..1) and where the seat is.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Seat {
    /// From 0 (standing) to 1 (seated), moving at 1 / `seat_blend_s` a second.
    amount: f32,
    /// Where the hips rest (world), once sitting has begun.
    at: Option<Vec3>,
}

/// The smoothstep of `t` in 0..1.
fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

impl Seat {
    /// Forgets the seat: standing at once.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// How seated the body is this frame, eased (0 standing, 1 seated).
    pub fn weight(&self) -> f32 {
        smooth(self.amount)
    }

    /// One frame of `dt` seconds: `seated` as the game says, `blend_s` the time to sit down
    /// or stand up, `upright` where the hips would be under the head with the torso upright
    /// (world), `forward` the body's facing (world, horizontal, unit), `scale` world units
    /// per avatar metre. Returns the hips' place on the seat (world); the caller blends toward
    /// it by [`Seat::weight`].
    pub fn update(
        &mut self,
        seated: bool,
        blend_s: f32,
        upright: Vec3,
        forward: Vec3,
        scale: f32,
        dt: f32,
    ) -> Vec3 {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        let rate = if blend_s > 0.0 { dt / blend_s } else { 1.0 };
        let goal = if seated { 1.0 } else { 0.0 };
        self.amount = if self.amount < goal {
            (self.amount + rate).min(goal)
        } else {
            (self.amount - rate).max(goal)
        };
        if !upright.is_finite() {
            return self.at.unwrap_or(Vec3::ZERO);
        }
        let at = match self.at {
            Some(at) if self.amount > 0.0 => {
                // Across the floor slowly; the seat's height with the torso at once (a chair
                // does not sink, but the body on it is where the head says).
                let mut pull = upright - at;
                pull.y = 0.0;
                let back = pull.dot(forward).min(0.0) * forward;
                let ahead = pull - back;
                let k = 1.0 - (-dt / SEAT_FOLLOW_S).exp();
                let k_back = 1.0 - (-dt / SEAT_BACK_S).exp();
                let mut next = at + ahead.clamp_length_max(SEAT_PULL_M * scale) * k + back * k_back;
                next.y = upright.y;
                next
            }
            _ => upright,
        };
        self.at = (self.amount > 0.0).then_some(at);
        at
    }
}

/// How far ahead of its hip joint a seated foot stands (world units): under the knee, the
/// thigh reaching forward from a hip `hip_height` over the floor to a knee at the shin's
/// height over the ankle (a high stool slopes the thigh down, a low one up).
pub fn foot_ahead(leg: &LegRest, hip_height: f32) -> f32 {
    let (thigh, shin) = leg.lengths;
    let knee_height = shin + leg.ankle_height;
    let rise = hip_height - knee_height;
    (thigh * thigh - rise * rise).max(0.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn leg() -> LegRest {
        LegRest {
            hinge_in_upper: Vec3::X,
            foot_in_root: Quat::IDENTITY,
            ankle_height: 0.06,
            lengths: (0.42, 0.42),
            toes: None,
        }
    }

    #[test]
    fn sitting_down_and_standing_up_take_the_blend_time() {
        let mut s = Seat::default();
        let under = Vec3::new(0.0, 0.5, 0.0);
        for _ in 0..22 {
            s.update(true, 0.5, under, Vec3::Z, 1.0, 1.0 / 90.0);
        }
        assert!(s.weight() > 0.4 && s.weight() < 0.6, "{}", s.weight());
        for _ in 0..23 {
            s.update(true, 0.5, under, Vec3::Z, 1.0, 1.0 / 90.0);
        }
        assert_eq!(s.weight(), 1.0);
        for _ in 0..90 {
            s.update(false, 0.5, under, Vec3::Z, 1.0, 1.0 / 90.0);
        }
        assert_eq!(s.weight(), 0.0);
    }

    #[test]
    fn the_seat_follows_the_body_slowly_across_the_floor_and_at_once_in_height() {
        let mut s = Seat::default();
        s.update(
            true,
            0.5,
            Vec3::new(0.0, 0.5, 0.0),
            Vec3::Z,
            1.0,
            1.0 / 90.0,
        );
        // A lean forward of 30 cm for a second pulls the seat by its 5 cm share: 5 cm in the
        // second.
        let mut at = Vec3::ZERO;
        for _ in 0..90 {
            at = s.update(
                true,
                0.5,
                Vec3::new(0.0, 0.45, 0.3),
                Vec3::Z,
                1.0,
                1.0 / 90.0,
            );
        }
        assert!(at.z > 0.045 && at.z < 0.055, "{at}");
        assert_eq!(at.y, 0.45);
        // Shifting on the chair, the seat gets there in the end.
        for _ in 0..900 {
            at = s.update(
                true,
                0.5,
                Vec3::new(0.0, 0.45, 0.3),
                Vec3::Z,
                1.0,
                1.0 / 90.0,
            );
        }
        assert!((at.z - 0.3).abs() < 0.01, "{at}");
        // Sitting up from a lean, the seat comes back with the body within a third of a second.
        for _ in 0..30 {
            at = s.update(
                true,
                0.5,
                Vec3::new(0.0, 0.45, 0.0),
                Vec3::Z,
                1.0,
                1.0 / 90.0,
            );
        }
        assert!(at.z < 0.3 * 0.4, "{at}");
        // Standing, the seat is forgotten: sitting again starts under the body.
        for _ in 0..90 {
            s.update(false, 0.5, Vec3::ZERO, Vec3::Z, 1.0, 1.0 / 90.0);
        }
        let again = s.update(
            true,
            0.5,
            Vec3::new(2.0, 0.5, 0.0),
            Vec3::Z,
            1.0,
            1.0 / 90.0,
        );
        assert_eq!(again, Vec3::new(2.0, 0.5, 0.0));
    }

    #[test]
    fn a_seated_foot_stands_under_the_knee() {
        // A chair at knee height: the thigh level, the foot a thigh ahead.
        assert!((foot_ahead(&leg(), 0.48) - 0.42).abs() < 1e-6);
        // A high stool: the thigh slopes down, the foot comes in.
        let high = foot_ahead(&leg(), 0.68);
        assert!((high - (0.42f32 * 0.42 - 0.2 * 0.2).sqrt()).abs() < 1e-6);
        // Higher than a thigh above the knee: under the hip.
        assert_eq!(foot_ahead(&leg(), 1.2), 0.0);
    }

    #[test]
    fn bad_time_steps_and_places_change_nothing() {
        let mut s = Seat::default();
        s.update(true, 0.5, Vec3::new(0.0, 0.5, 0.0), Vec3::Z, 1.0, f32::NAN);
        assert_eq!(s.weight(), 0.0);
        let at = s.update(true, 0.5, Vec3::NAN, Vec3::Z, 1.0, 1.0 / 90.0);
        assert!(at.is_finite());
    }
}
