//! Sitting from the headset alone (`LowerBodySettings::sit_from_headset`): a head that has come
//! down to a seat's height and stays there, still, is taken for a player who sat down; the head
//! back near standing height, or walking, stands the body up again.
//!
//! A still, low head is also a kneel or a squat: the headset cannot tell a chair from the
//! floor. So it is the game's choice to switch this on (seated play with no chair in the scene),
//! and with it on, a low still head sits rather than kneels.

use glam::Vec3;

use super::LowerBodySettings;
use crate::maths::pose::Pose;
use crate::maths::smoothing::SmoothedVelocity;

/// Lowest head, as a share of the standing head's height over the floor, that still sits: on a
/// high bar stool the head is about a tenth lower than standing ...
pub const SIT_DROP_MIN: f32 = 0.1;
/// ... and highest: on a low stool a third lower. Lower than this is a squat or the floor.
pub const SIT_DROP_MAX: f32 = 0.45;
/// Within this share of the standing height, the player stands (a player leaning back on a
/// high stool is between the two and stays seated).
pub const STAND_DROP: f32 = 0.05;
/// The head's speed, smoothed over [`SPEED_SMOOTHING_S`], under which it is still (avatar
/// metres a second): a seated player's sway and look-around is slower.
pub const STILL_M_S: f32 = 0.15;
/// See [`STILL_M_S`] (seconds, to 63 %).
pub const SPEED_SMOOTHING_S: f32 = 0.3;
/// How long the head must be low and still before the body sits (seconds): a player ducking
/// or reaching down is up again sooner.
pub const SIT_AFTER_S: f32 = 1.5;
/// Walking faster than this across the floor (avatar metres a second, smoothed) stands the body
/// up whatever the head's height: a seated player does not walk.
pub const WALK_M_S: f32 = 0.5;

/// The guess across frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SitDetect {
    sitting: bool,
    /// How long the head has been low and still (seconds).
    low_s: f32,
    /// The head's smoothed velocity in the XR origin's space (world units a second).
    motion: SmoothedVelocity,
}

/// One frame of the guess.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SitDetectInput {
    /// The head bone's place (world).
    pub head: Vec3,
    /// How far the head is below its standing height (world units; negative above it).
    pub drop: f32,
    /// The head bone's standing height over the floor (world units).
    pub standing: f32,
    /// The XR origin (world), if there is one: the head's motion is measured from it, so the
    /// game carrying a seated player (thumbstick walking, a vehicle, a teleport) is not the
    /// player walking.
    pub origin: Option<Pose>,
    /// World units per avatar metre.
    pub scale: f32,
    pub dt: f32,
}

impl SitDetect {
    /// Whether the player sits, as last guessed.
    pub fn sitting(&self) -> bool {
        self.sitting
    }

    /// Forgets the head's motion (after a teleport): the guess stays.
    pub fn forget_motion(&mut self) {
        self.motion = SmoothedVelocity::default();
        self.low_s = 0.0;
    }

    /// One frame; returns whether the player sits. Input it cannot use changes nothing.
    pub fn update(&mut self, i: &SitDetectInput) -> bool {
        let usable = i.head.is_finite()
            && i.drop.is_finite()
            && i.standing.is_finite()
            && i.standing > 0.0
            && i.scale.is_finite()
            && i.scale > 0.0
            && i.dt.is_finite()
            && i.dt > 0.0;
        if !usable {
            return self.sitting;
        }
        let head = match i.origin.filter(Pose::is_finite) {
            Some(o) => o.inverse().transform_point(i.head),
            None => i.head,
        };
        // Avatar metres a second.
        let velocity = self.motion.update(head, i.dt, SPEED_SMOOTHING_S) / i.scale;
        let share = i.drop / i.standing;
        let walking = Vec3::new(velocity.x, 0.0, velocity.z).length() > WALK_M_S;
        if self.sitting {
            if share < STAND_DROP || walking {
                self.sitting = false;
                self.low_s = 0.0;
            }
            return self.sitting;
        }
        let low = (SIT_DROP_MIN..=SIT_DROP_MAX).contains(&share);
        let still = velocity.length() < STILL_M_S;
        self.low_s = if low && still { self.low_s + i.dt } else { 0.0 };
        if self.low_s >= SIT_AFTER_S {
            self.sitting = true;
        }
        self.sitting
    }
}

/// The settings a kneel starts with, the head `drop_share` of its standing height lower:
/// guessing sitting from the headset, a head at a seat's height (up to [`SIT_DROP_MAX`] lower)
/// does not start a kneel, so a player sitting down on a chair is not knelt first and seated
/// after; lower than a seat, it kneels as usual (and a kneel under way ends as usual).
pub fn kneel_settings(s: &LowerBodySettings, drop_share: f32) -> LowerBodySettings {
    let mut k = *s;
    // NaN (no floor to measure from) counts as a seat's height: the kneel waits.
    if s.sit_from_headset
        && drop_share.partial_cmp(&SIT_DROP_MAX) != Some(std::cmp::Ordering::Greater)
    {
        k.kneel = false;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f32 = 1.0 / 90.0;
    /// A head bone standing 1.6 m over the floor.
    const STANDING: f32 = 1.6;

    /// Holds the head at `head` for `seconds`, returning the guess at the end.
    fn at(d: &mut SitDetect, head: Vec3, seconds: f32) -> bool {
        go(d, head, head, seconds)
    }

    /// Moves the head from `from` to `to` over `seconds`, returning the guess at the end.
    fn go(d: &mut SitDetect, from: Vec3, to: Vec3, seconds: f32) -> bool {
        let n = (seconds / DT).round() as usize;
        let mut out = d.sitting();
        for k in 1..=n {
            let head = from.lerp(to, k as f32 / n as f32);
            out = d.update(&SitDetectInput {
                head,
                drop: STANDING - head.y,
                standing: STANDING,
                origin: None,
                scale: 1.0,
                dt: DT,
            });
        }
        out
    }

    #[test]
    fn a_head_low_and_still_sits_after_a_while_and_standing_up_stands() {
        let mut d = SitDetect::default();
        let up = Vec3::new(0.0, STANDING, 0.0);
        let chair = Vec3::new(0.0, 1.2, 0.1);
        assert!(!at(&mut d, up, 2.0));
        assert!(!go(&mut d, up, chair, 1.0));
        // Still on the chair: not yet at 1.2 s, seated by 1.8 s.
        assert!(!at(&mut d, chair, 1.2));
        assert!(at(&mut d, chair, 0.6));
        // Leaning forward to reach, lower: still seated.
        assert!(go(&mut d, chair, Vec3::new(0.0, 0.95, 0.4), 1.0));
        assert!(go(&mut d, Vec3::new(0.0, 0.95, 0.4), chair, 1.0));
        // Standing up.
        assert!(!go(&mut d, chair, up, 1.0));
    }

    #[test]
    fn ducking_squatting_and_walking_do_not_sit() {
        let mut d = SitDetect::default();
        let up = Vec3::new(0.0, STANDING, 0.0);
        // A duck held a second.
        let duck = Vec3::new(0.0, 1.2, 0.0);
        go(&mut d, up, duck, 0.4);
        assert!(!at(&mut d, duck, 1.0));
        go(&mut d, duck, up, 0.4);
        assert!(!at(&mut d, up, 1.0));
        // A squat to the floor, held: lower than any seat.
        let squat = Vec3::new(0.0, 0.7, 0.0);
        go(&mut d, up, squat, 1.0);
        assert!(!at(&mut d, squat, 5.0));
        // Walking about crouched: moving, never still.
        let mut head = Vec3::new(0.0, 1.2, 0.0);
        for _ in 0..5 {
            let next = head + Vec3::new(0.6, 0.0, 0.0);
            assert!(!go(&mut d, head, next, 1.0));
            head = next;
        }
    }

    #[test]
    fn walking_away_stands_a_seated_body_up() {
        let mut d = SitDetect::default();
        let chair = Vec3::new(0.0, 1.2, 0.0);
        assert!(at(&mut d, chair, 2.0));
        // A seated player's look-around and shuffle keep the seat.
        assert!(go(&mut d, chair, chair + Vec3::new(0.1, 0.0, 0.0), 0.5));
        // Moving off across the floor at a walk, the head still low (a crouched walk).
        assert!(!go(&mut d, chair, chair + Vec3::new(2.0, 0.0, 0.0), 2.0));
    }

    /// Seated, the game carries the player at 1 m/s (thumbstick walking, a vehicle: the XR
    /// origin moves, the head with it): still seated. Without the origin to measure from, the
    /// same motion is a walk.
    #[test]
    fn a_seated_player_carried_by_the_game_stays_seated() {
        let carried = |origin_known: bool| {
            let mut d = SitDetect::default();
            let chair = Vec3::new(0.0, 1.2, 0.0);
            assert!(at(&mut d, chair, 2.0));
            for k in 0..180 {
                let moved = Vec3::new(k as f32 * DT, 0.0, 0.0);
                d.update(&SitDetectInput {
                    head: chair + moved,
                    drop: STANDING - chair.y,
                    standing: STANDING,
                    origin: origin_known.then(|| Pose::new(moved, glam::Quat::IDENTITY)),
                    scale: 1.0,
                    dt: DT,
                });
            }
            d.sitting()
        };
        assert!(carried(true));
        assert!(!carried(false));
    }

    #[test]
    fn bad_input_changes_nothing() {
        let mut d = SitDetect::default();
        let chair = Vec3::new(0.0, 1.2, 0.0);
        assert!(at(&mut d, chair, 2.0));
        let before = d;
        // Each would stand the body up (the head at standing height) were it used.
        let good = SitDetectInput {
            head: chair,
            drop: 0.0,
            standing: STANDING,
            origin: None,
            scale: 1.0,
            dt: DT,
        };
        for bad in [
            SitDetectInput {
                head: Vec3::NAN,
                ..good
            },
            SitDetectInput {
                standing: 0.0,
                ..good
            },
            SitDetectInput {
                dt: f32::NAN,
                ..good
            },
        ] {
            assert!(d.update(&bad));
            assert_eq!(d, before);
        }
    }
}
