//! Sitting: while the game says the player sits (`LowerBodySettings::seated`), the hips rest on
//! a seat under the upright torso rather than hanging under the head with the crouch's lean,
//! the thighs reach forward from it and the feet stand ahead on the floor under the knees.
//! Sitting down and standing up blend over `seat_blend_s`; the seat itself creeps after the
//! body, so a player leaning forward bends the spine over the seat instead of sliding it. The
//! seat also keeps its facing: a seated player twisting to reach something turns the torso, not
//! the hips and feet, until the twist passes [`SEAT_TWIST_DEG`] (a swivel chair turns).

use glam::{Quat, Vec3};

use super::legs::LegRest;
use crate::maths::angles::{wrap_angle, yaw_of};
use crate::maths::pose::Pose;
use crate::maths::smoothing::{exp_alpha, move_toward, smoothstep};

/// How long the seat takes to follow the body forward across the floor (seconds, to 63 %) ...
pub const SEAT_FOLLOW_S: f32 = 1.0;
/// ... and its fastest speed doing so (avatar metres a second): a player shifting on the chair
/// moves it, a lean to reach something bends over it.
pub const SEAT_PULL_M_S: f32 = 0.05;
/// Backward, the seat follows the body within this time (seconds, to 63 %), however far: a
/// player sits down leaning forward over the knees, the hips going back onto the chair, and
/// sits up over them.
pub const SEAT_BACK_S: f32 = 0.3;
/// A seat further than this from the body (avatar metres: a teleport, an origin jumping) is
/// forgotten and put under the body again.
pub const SEAT_LOST_M: f32 = 2.0;
/// Once seated, with the body leaning away from over the seat (its upright place more than
/// [`SEAT_LEAN_M`] across the floor from it), the seat comes down no faster than this (avatar
/// metres a second): a lean forward lowers the head, not the chair. Over the seat (sitting
/// lower) and up, at once.
pub const SEAT_SINK_M_S: f32 = 0.05;
/// See [`SEAT_SINK_M_S`] (avatar metres).
pub const SEAT_LEAN_M: f32 = 0.1;
/// How far the body (its root, turned by the body's yaw) may turn from the seat's facing
/// before the seat turns with it (degrees): a seated reach twists the torso over still hips and
/// feet; turning further turns the chair.
pub const SEAT_TWIST_DEG: f32 = 35.0;

/// The seat across frames: how far the body is seated (0..1), where the seat is and where the
/// XR origin was (the seat moves with it: a vehicle, thumbstick walking).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Seat {
    /// From 0 (standing) to 1 (seated), moving at 1 / `seat_blend_s` a second.
    amount: f32,
    /// Where the hips rest (world), once sitting has begun.
    at: Option<Vec3>,
    /// The way the seat faces (a yaw about +Y, radians, 0 along +Z), once sitting has begun.
    yaw: Option<f32>,
    last_origin: Option<Pose>,
}

/// One frame of the seat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatInput {
    /// As the game says.
    pub seated: bool,
    /// The time to sit down or stand up (seconds).
    pub blend_s: f32,
    /// Where the hips would be under the head with the torso upright (world).
    pub upright: Vec3,
    /// The body's facing (world, horizontal, unit).
    pub forward: Vec3,
    /// The XR origin (world), if there is one.
    pub origin: Option<Pose>,
    /// World units per avatar metre.
    pub scale: f32,
    pub dt: f32,
}

impl Seat {
    /// Forgets where the seat is (after a teleport): the next frame puts it under the body.
    /// A seated body stays seated.
    pub fn forget_place(&mut self) {
        self.at = None;
        self.yaw = None;
        self.last_origin = None;
    }

    /// The lower body's facing (world; a turn about +Y): the body's `facing` while standing,
    /// the seat's while seated, blended by [`Seat::weight`] between.
    pub fn facing(&self, facing: Quat) -> Quat {
        match self.yaw {
            Some(yaw) => facing
                .slerp(Quat::from_rotation_y(yaw), self.weight())
                .normalize(),
            None => facing,
        }
    }

    /// How seated the body is this frame, eased (0 standing, 1 seated).
    pub fn weight(&self) -> f32 {
        smoothstep(self.amount)
    }

    /// One frame. Returns the hips' place on the seat (world), `None` for input it cannot
    /// use (then nothing changes); the caller blends toward it by [`Seat::weight`].
    pub fn update(&mut self, i: &SeatInput) -> Option<Vec3> {
        if !(i.upright.is_finite() && i.forward.is_finite()) {
            return None;
        }
        let dt = if i.dt.is_finite() { i.dt.max(0.0) } else { 0.0 };
        let scale = if i.scale.is_finite() && i.scale > 0.0 {
            i.scale
        } else {
            1.0
        };
        let rate = if i.blend_s > 0.0 { dt / i.blend_s } else { 1.0 };
        let goal = if i.seated { 1.0 } else { 0.0 };
        self.amount = move_toward(self.amount, goal, rate);
        let origin = i.origin.filter(|o| o.is_finite());
        // Carried with the XR origin, as the player is.
        let carried = match (self.at, origin, self.last_origin) {
            (Some(at), Some(now), Some(last)) => {
                Some(now.mul_pose(&last.inverse()).transform_point(at))
            }
            (at, _, _) => at,
        };
        // The facing too, by the origin's turn.
        let yaw = match (self.yaw, origin, self.last_origin) {
            (Some(y), Some(now), Some(last)) => {
                let f =
                    now.rotation * last.rotation.inverse() * (Quat::from_rotation_y(y) * Vec3::Z);
                Some(yaw_of(f)).filter(|y| y.is_finite())
            }
            (y, _, _) => y,
        };
        self.last_origin = origin;
        let carried = carried.filter(|at| at.distance(i.upright) <= SEAT_LOST_M * scale);
        // The seat's facing stays within [`SEAT_TWIST_DEG`] of the body's.
        let body_yaw = yaw_of(i.forward);
        let free = SEAT_TWIST_DEG.to_radians();
        let yaw = match yaw.filter(|_| carried.is_some()) {
            Some(y) => {
                let twist = wrap_angle(body_yaw - y);
                y + twist - twist.clamp(-free, free)
            }
            None => body_yaw,
        };
        self.yaw = (self.amount > 0.0 && yaw.is_finite()).then_some(wrap_angle(yaw));
        let at = match carried {
            Some(at) if self.amount > 0.0 && at.is_finite() => {
                // Across the floor: forward slowly, back with the body.
                let mut pull = i.upright - at;
                pull.y = 0.0;
                let back = pull.dot(i.forward).min(0.0) * i.forward;
                let ahead = pull - back;
                let k = exp_alpha(1.0 / SEAT_FOLLOW_S, dt);
                let k_back = exp_alpha(1.0 / SEAT_BACK_S, dt);
                let creep = (ahead * k).clamp_length_max(SEAT_PULL_M_S * scale * dt);
                let mut next = at + creep + back * k_back;
                // Its height with the torso; leaning away from over the seat, down slowly.
                let leaning = pull.length() > SEAT_LEAN_M * scale;
                next.y = if self.amount < 1.0 || i.upright.y > at.y || !leaning {
                    i.upright.y
                } else {
                    (at.y - SEAT_SINK_M_S * scale * dt).max(i.upright.y)
                };
                next
            }
            _ => i.upright,
        };
        self.at = (self.amount > 0.0).then_some(at);
        Some(at)
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

    fn input(seated: bool, upright: Vec3, dt: f32) -> SeatInput {
        SeatInput {
            seated,
            blend_s: 0.5,
            upright,
            forward: Vec3::Z,
            origin: None,
            scale: 1.0,
            dt,
        }
    }

    fn leg() -> LegRest {
        LegRest {
            hinge_in_upper: Vec3::X,
            foot_in_root: Quat::IDENTITY,
            ankle_height: 0.06,
            lengths: (0.42, 0.42),
            ankle_in_lower: Vec3::Y * 0.42,
            toes: None,
            knee_skin: None,
        }
    }

    #[test]
    fn sitting_down_and_standing_up_take_the_blend_time() {
        let mut s = Seat::default();
        let under = Vec3::new(0.0, 0.5, 0.0);
        for _ in 0..22 {
            s.update(&input(true, under, 1.0 / 90.0));
        }
        assert!(s.weight() > 0.4 && s.weight() < 0.6, "{}", s.weight());
        for _ in 0..23 {
            s.update(&input(true, under, 1.0 / 90.0));
        }
        assert_eq!(s.weight(), 1.0);
        for _ in 0..90 {
            s.update(&input(false, under, 1.0 / 90.0));
        }
        assert_eq!(s.weight(), 0.0);
    }

    #[test]
    fn the_seat_creeps_forward_comes_back_with_the_body_and_sinks_slowly() {
        let mut s = Seat::default();
        let seat = Vec3::new(0.0, 0.5, 0.0);
        for _ in 0..90 {
            s.update(&input(true, seat, 1.0 / 90.0));
        }
        // A lean forward of 30 cm, the head 10 cm lower, for a second: the seat creeps 5 cm
        // and sinks 5 cm, not 30 and 10.
        let lean = Vec3::new(0.0, 0.4, 0.3);
        let mut at = Vec3::ZERO;
        for _ in 0..90 {
            at = s.update(&input(true, lean, 1.0 / 90.0)).unwrap();
        }
        assert!(at.z > 0.045 && at.z < 0.055, "{at}");
        assert!((at.y - 0.45).abs() < 0.005, "{at}");
        // Sitting up again: the seat comes back with the body within a third of a second, and
        // up at once.
        for _ in 0..30 {
            at = s.update(&input(true, seat, 1.0 / 90.0)).unwrap();
        }
        assert!(at.z < 0.05 * 0.4, "{at}");
        assert_eq!(at.y, 0.5);
        // Shifting on the chair, the seat gets there in the end.
        for _ in 0..900 {
            at = s
                .update(&input(true, Vec3::new(0.0, 0.5, 0.3), 1.0 / 90.0))
                .unwrap();
        }
        assert!((at.z - 0.3).abs() < 0.01, "{at}");
        // Standing, the seat is forgotten: sitting again starts under the body.
        for _ in 0..90 {
            s.update(&input(false, Vec3::ZERO, 1.0 / 90.0));
        }
        let again = s.update(&input(true, Vec3::new(2.0, 0.5, 0.0), 1.0 / 90.0));
        assert_eq!(again, Some(Vec3::new(2.0, 0.5, 0.0)));
    }

    /// The game moves the XR origin (a vehicle, the thumbstick): the seat goes with it, and
    /// turns with it.
    #[test]
    fn the_seat_moves_and_turns_with_the_xr_origin() {
        let mut s = Seat::default();
        let mut i = input(true, Vec3::new(0.0, 0.5, 0.0), 1.0 / 90.0);
        i.origin = Some(Pose::IDENTITY);
        for _ in 0..90 {
            s.update(&i);
        }
        let moved = Pose::new(Vec3::new(3.0, 0.0, 0.0), glam::Quat::from_rotation_y(0.5));
        i.origin = Some(moved);
        i.upright = moved.transform_point(Vec3::new(0.0, 0.5, 0.0));
        let at = s.update(&i).unwrap();
        assert!(at.distance(i.upright) < 1e-4, "{at}");
        // Its facing turns with the origin too (the body's own facing has not turned yet).
        let facing = s.facing(Quat::IDENTITY);
        assert!(
            facing.angle_between(Quat::from_rotation_y(0.5)) < 1e-4,
            "{facing}"
        );
    }

    /// An origin jumping by a kilometre and turning (a teleport, a hostile pose) carries the
    /// seat far off: it is put under the body again, never left kilometres away.
    #[test]
    fn a_seat_carried_far_from_the_body_is_put_under_it() {
        let mut s = Seat::default();
        let mut i = input(true, Vec3::new(0.0, 0.5, 0.0), 1.0 / 90.0);
        i.origin = Some(Pose::IDENTITY);
        for _ in 0..90 {
            s.update(&i);
        }
        i.origin = Some(Pose::new(
            Vec3::new(1000.0, 0.0, 0.0),
            glam::Quat::from_rotation_y(2.0),
        ));
        assert_eq!(s.update(&i), Some(i.upright));
    }

    #[test]
    fn bad_time_steps_and_places_change_nothing() {
        let mut s = Seat::default();
        s.update(&input(true, Vec3::new(0.0, 0.5, 0.0), f32::NAN));
        assert_eq!(s.weight(), 0.0);
        let before = s;
        assert_eq!(s.update(&input(true, Vec3::NAN, 1.0 / 90.0)), None);
        assert_eq!(s, before);
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
}
