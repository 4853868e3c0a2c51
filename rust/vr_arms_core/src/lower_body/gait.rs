//! The walking gait: how long a walking body's steps are, how long a foot swings and how far a
//! planted foot trails before it lifts, from the body's speed and its legs' length. A walker's
//! steps grow longer and come more often as the walk gets faster (Alexander's relation: stride
//! length over leg length grows as the Froude number `v^2 / (g l)` to the power 0.3), so the
//! feet step as often as a walker's at every speed rather than whenever a fixed distance is
//! crossed.

use super::LowerBodySettings;

/// Above this speed (avatar metres per second) the body walks: a foot ahead of it is where it
/// is going, and it comes over that foot rather than step it again.
pub const WALKING_M_S: f32 = 0.3;

/// Gravity (m/s^2), for the Froude number.
const G: f32 = 9.81;

/// Share of a step's time one foot swings at a walker's pace (the swing is about 40 % of the
/// gait cycle of two steps); the rest both feet are down.
const SWING_SHARE: f32 = 0.8;

/// The longest swing, as a multiple of `step_time_s`: a slow walk's feet swing no slower than
/// this, they wait longer on the floor instead.
const LONGEST_SWING: f32 = 1.5;

/// The longest step, as a multiple of `step_time_s`: a body shifting its weight slowly (a sway
/// while standing) takes short steps, landing little ahead of where it is going.
const LONGEST_STEP: f32 = 3.0;

/// One frame's gait, in the avatar's metres and seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gait {
    /// From one foot's landing to the other's, along the walk (0 standing).
    pub step_m: f32,
    /// How long a stepping foot is off the floor.
    pub swing_s: f32,
    /// How far a planted foot is from its place under the body when it lifts.
    pub lift_at_m: f32,
    /// How far ahead of the body's place a stepping foot lands (`step_lead` of a step).
    pub lead_m: f32,
}

impl Gait {
    /// The gait of a body moving at `speed` (avatar metres per second) on legs `leg_m` long
    /// (the hips' standing height over the floor, avatar metres). Standing still it is the
    /// settings' step: `step_distance_m` away, in `step_time_s`, landing at its place.
    pub fn at(s: &LowerBodySettings, speed: f32, leg_m: f32) -> Self {
        let speed = if speed.is_finite() {
            speed.max(0.0)
        } else {
            0.0
        };
        let leg = if leg_m.is_finite() {
            leg_m.max(0.1)
        } else {
            1.0
        };
        let froude = speed * speed / (G * leg);
        // Half a walker's stride (a stride is two steps), no shorter than the distance covered
        // in the quickest step and no longer than in the longest.
        let walker = 0.5 * s.stride_scale * leg * froude.powf(0.3);
        let step_m = walker
            .min(speed * LONGEST_STEP * s.step_time_s)
            .max(speed * s.step_time_s);
        let step_s = if speed > 1e-4 {
            step_m / speed
        } else {
            s.step_time_s
        };
        let swing_s = (SWING_SHARE * step_s).clamp(s.step_time_s, LONGEST_SWING * s.step_time_s);
        // A foot lands `lead` ahead; the other, `step - lead` behind then, lifts when the body
        // has covered the step less what it covers while that foot swings.
        let lead_m = s.step_lead * step_m;
        // Without the walker's gait, a step whenever the body has moved the step distance.
        let lift_at_m = if s.stride_scale > 0.0 {
            (2.0 * step_m - lead_m - speed * swing_s).max(s.step_distance_m)
        } else {
            s.step_distance_m
        };
        Self {
            step_m,
            swing_s,
            lift_at_m,
            lead_m,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walker with 0.9 m legs: about 0.65 m steps at 1.3 m/s, as walkers take (Alexander
    /// 1984 gives a 1.3 m stride there), longer and more often the faster the walk.
    #[test]
    fn steps_grow_longer_and_come_more_often_as_the_walk_gets_faster() {
        let s = LowerBodySettings {
            stride_scale: 2.3,
            ..Default::default()
        };
        let at = |v: f32| Gait::at(&s, v, 0.9);
        let (slow, brisk, fast) = (at(0.6), at(1.3), at(2.0));
        assert!((brisk.step_m - 0.64).abs() < 0.03, "{brisk:?}");
        assert!(slow.step_m < brisk.step_m && brisk.step_m < fast.step_m);
        let per_min = |g: Gait, v: f32| 60.0 * v / g.step_m;
        let rates = [per_min(slow, 0.6), per_min(brisk, 1.3), per_min(fast, 2.0)];
        assert!(rates[0] < rates[1] && rates[1] < rates[2], "{rates:?}");
        assert!((100.0..140.0).contains(&rates[1]), "{rates:?}");
        assert_eq!(brisk.lead_m, 0.5 * brisk.step_m);
    }

    #[test]
    fn standing_still_it_is_the_settings_step_and_bad_input_is_standing() {
        let s = LowerBodySettings {
            stride_scale: 2.3,
            ..Default::default()
        };
        let still = Gait::at(&s, 0.0, 0.9);
        assert_eq!(
            (still.step_m, still.lead_m, still.lift_at_m, still.swing_s),
            (0.0, 0.0, s.step_distance_m, s.step_time_s)
        );
        assert_eq!(Gait::at(&s, f32::NAN, 0.9), still);
        let g = Gait::at(&s, 1.0, f32::INFINITY);
        assert!(g.step_m.is_finite() && g.swing_s.is_finite() && g.lift_at_m.is_finite());
        // A slow walk's foot swings no slower than the longest swing.
        let crawl = Gait::at(&s, 0.05, 0.9);
        assert_eq!(crawl.swing_s, LONGEST_SWING * s.step_time_s);
    }

    /// Without the walker's gait (`stride_scale` 0) a step is the distance covered in
    /// `step_time_s`: a foot lands `step_lead` of it ahead, and lifts `step_distance_m` away,
    /// however fast the body goes.
    #[test]
    fn without_the_walkers_gait_a_step_is_the_settings_at_every_speed() {
        let s = LowerBodySettings::default();
        assert_eq!(s.stride_scale, 0.0, "off by default: chosen on the capture");
        for v in [0.3, 1.3, 2.5] {
            let g = Gait::at(&s, v, 0.9);
            assert!((g.step_m - v * s.step_time_s).abs() < 1e-6, "{v}: {g:?}");
            assert!((g.lead_m - s.step_lead * v * s.step_time_s).abs() < 1e-6);
            assert_eq!((g.lift_at_m, g.swing_s), (s.step_distance_m, s.step_time_s));
        }
    }
}
