//! Player calibration: height and arm span from the headset and controllers, and the avatar
//! scale that fits them. Saved per player as TOML.
//!
//! The player stands straight with the arms held out to the sides for `sample_seconds`; the
//! median of the samples is used (robust to a twitch). Height = eye height + `eye_to_top_m`;
//! arm span = controller distance + 2 x `grip_to_fingertip_m`.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::lower_body::standing::eyes_from_head_bone;
use crate::maths::finite::finite_clamp;
use crate::maths::side::PerSide;
use crate::toml_file::{ProfileError, parse_toml};

/// A player's measurements and the resulting avatar scale.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlayerCalibration {
    /// Standing height (metres).
    pub player_height_m: f32,
    /// Fingertip-to-fingertip span with the arms out (metres).
    pub arm_span_m: f32,
    /// Uniform scale applied to the avatar.
    pub avatar_scale: f32,
    /// The avatar's arms (upper arm, forearm) lengthened by this on top of `avatar_scale`, so
    /// that a short-armed (stylised) avatar's hands reach the player's controllers; 1 keeps the
    /// avatar's own proportions.
    pub arm_length_scale: f32,
}

impl Default for PlayerCalibration {
    fn default() -> Self {
        Self {
            player_height_m: 1.75,
            arm_span_m: 1.75,
            avatar_scale: 1.0,
            arm_length_scale: 1.0,
        }
    }
}

/// Arm length scales a calibration may set.
pub const ARM_LENGTH_SCALES: std::ops::RangeInclusive<f32> = 0.7..=1.6;

/// Half the distance between a person's shoulder joints, per metre of height (anthropometric
/// tables give shoulder joints about a fifth of the height apart).
pub const SHOULDER_HALF_SPAN_PER_HEIGHT: f32 = 0.1;

/// How much longer (or shorter) the avatar's arms (upper arm and forearm) must be, on top of
/// `avatar_scale`, to reach from its shoulder to where the player holds a controller: the
/// player's reach is half the distance between the controllers held out to the sides, less
/// half the player's shoulder span ([`SHOULDER_HALF_SPAN_PER_HEIGHT`]); within
/// [`ARM_LENGTH_SCALES`]; 1 when the avatar's arms cannot be measured. Hands are left as they
/// are: a stylised avatar's big hands do not count as reach.
pub fn arm_length_scale(
    controller_distance_m: f32,
    player_height_m: f32,
    avatar: &AvatarMeasures,
    avatar_scale: f32,
) -> f32 {
    let player_reach =
        controller_distance_m * 0.5 - SHOULDER_HALF_SPAN_PER_HEIGHT * player_height_m;
    let avatar_reach = avatar.arm_length_m * avatar_scale;
    let k = player_reach / avatar_reach;
    if k.is_finite() && avatar_reach > 0.05 && player_reach > 0.0 {
        k.clamp(*ARM_LENGTH_SCALES.start(), *ARM_LENGTH_SCALES.end())
    } else {
        1.0
    }
}

impl PlayerCalibration {
    /// A player of `height_m` and fingertip span `arm_span_m` on `avatar`: the avatar's scale
    /// (height, or a share of the span ratio) and its arms' length scale (with
    /// `fit_arm_length`). A saved calibration is fitted again this way to the avatar it is
    /// loaded on: the player's measures are the player's, the scales are the avatar's.
    pub fn fitted(
        height_m: f32,
        arm_span_m: f32,
        avatar: &AvatarMeasures,
        settings: &CalibrationSettings,
    ) -> Self {
        let by_height = height_m / avatar.height_m;
        let by_span = arm_span_m / avatar.arm_span_m;
        let share = settings.arm_span_share;
        let avatar_scale = by_height * (1.0 - share) + by_span * share;
        PlayerCalibration {
            player_height_m: height_m,
            arm_span_m,
            avatar_scale,
            arm_length_scale: if settings.fit_arm_length {
                arm_length_scale(
                    arm_span_m - 2.0 * settings.grip_to_fingertip_m,
                    height_m,
                    avatar,
                    avatar_scale,
                )
            } else {
                1.0
            },
        }
    }

    pub fn from_toml_str(text: &str) -> Result<Self, ProfileError> {
        let c: PlayerCalibration = parse_toml(text)?;
        c.check().map_err(|message| ProfileError {
            line: None,
            message,
        })?;
        Ok(c)
    }

    pub fn to_toml_string(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_default()
    }

    /// A calibration is usable when every value is plausible for a person and an avatar.
    pub fn check(&self) -> Result<(), String> {
        let ok = |x: f32, lo: f32, hi: f32| x.is_finite() && x >= lo && x <= hi;
        if !ok(self.player_height_m, 0.9, 2.6) {
            return Err(format!(
                "player height {} m is not plausible (0.9..2.6)",
                self.player_height_m
            ));
        }
        if !ok(self.arm_span_m, 0.8, 2.8) {
            return Err(format!(
                "arm span {} m is not plausible (0.8..2.8)",
                self.arm_span_m
            ));
        }
        if !ok(
            self.arm_length_scale,
            *ARM_LENGTH_SCALES.start(),
            *ARM_LENGTH_SCALES.end(),
        ) {
            return Err(format!(
                "arm length scale {} is not plausible (0.7..1.6)",
                self.arm_length_scale
            ));
        }
        if !ok(self.avatar_scale, 0.3, 3.0) {
            return Err(format!(
                "avatar scale {} is not plausible (0.3..3)",
                self.avatar_scale
            ));
        }
        Ok(())
    }
}

/// How measuring works.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CalibrationSettings {
    /// How long to sample (seconds).
    pub sample_seconds: f32,
    /// Eyes to top of the head (metres).
    pub eye_to_top_m: f32,
    /// Controller grip to fingertips (metres).
    pub grip_to_fingertip_m: f32,
    /// Share of the arm-span ratio in the avatar scale (0 = height only, 1 = arm span only).
    pub arm_span_share: f32,
    /// Lengthen (or shorten) the avatar's arms so its fingertip span is the player's, after
    /// the uniform scale (see [`arm_length_scale`]).
    pub fit_arm_length: bool,
}

impl Default for CalibrationSettings {
    fn default() -> Self {
        Self {
            sample_seconds: 1.0,
            eye_to_top_m: 0.11,
            grip_to_fingertip_m: 0.1,
            arm_span_share: 0.0,
            fit_arm_length: true,
        }
    }
}

impl CalibrationSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.sample_seconds = finite_clamp(self.sample_seconds, 0.0, 30.0, d.sample_seconds);
        self.eye_to_top_m = finite_clamp(self.eye_to_top_m, 0.0, 0.5, d.eye_to_top_m);
        self.grip_to_fingertip_m =
            finite_clamp(self.grip_to_fingertip_m, 0.0, 0.5, d.grip_to_fingertip_m);
        self.arm_span_share = finite_clamp(self.arm_span_share, 0.0, 1.0, d.arm_span_share);
    }
}

/// The avatar's own measurements, from its rest pose (metres, unscaled).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AvatarMeasures {
    pub height_m: f32,
    /// Fingertip to fingertip, arms out.
    pub arm_span_m: f32,
    /// One arm, shoulder joint to wrist (upper arm and forearm).
    pub arm_length_m: f32,
}

/// The rest-pose joints an avatar is measured from (character root's frame, +Y up, metres of
/// the unscaled avatar); `None` for a joint the rig lacks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RestJoints {
    pub eyes: Option<(Vec3, Vec3)>,
    pub head: Option<Vec3>,
    /// Left and right hand (wrist) joints.
    pub hands: Option<(Vec3, Vec3)>,
    /// The left middle finger's last bone.
    pub middle_distal: Option<Vec3>,
    /// The left upper arm, lower arm and hand joints.
    pub left_arm: Option<[Vec3; 3]>,
    /// Each leg's upper leg, lower leg and foot joints (left, right), the floor at height 0:
    /// a rest on bent knees stands taller ([`crate::lower_body::standing::standing_lift`]).
    pub legs: Option<[[Vec3; 3]; 2]>,
}

impl AvatarMeasures {
    /// A grown-up's proportions, for an avatar with nothing to measure.
    pub const TYPICAL: AvatarMeasures = AvatarMeasures {
        height_m: 1.75,
        arm_span_m: 1.75,
        arm_length_m: 0.58,
    };

    /// Measures an avatar from its rest joints: the top of the head 11 cm over the eyes (else
    /// 11 cm over where [`eyes_from_head_bone`] puts them, 20 cm over a grown-up's head joint); the span wrist to wrist plus each hand to its fingertip (the
    /// middle finger's last bone and 2.5 cm; 18 cm a hand without fingers), else the height (a
    /// span is about a height); the arm shoulder to wrist, else a third of the height. The height
    /// is the standing body's: a rest on bent knees adds what straightening them lifts.
    pub fn from_rest(j: &RestJoints) -> AvatarMeasures {
        let top = match (j.eyes, j.head) {
            (Some((l, r)), _) => (l + r).y * 0.5 + 0.11,
            (None, Some(h)) => h.y + eyes_from_head_bone(h.y).y + 0.11,
            _ => return Self::TYPICAL,
        };
        let top = top
            + j.legs.map_or(0.0, |legs| {
                let [l, r] = legs.map(|[hip, knee, ankle]| crate::lower_body::standing::RestLeg {
                    hip,
                    ankle_height: ankle.y,
                    lengths: (knee.distance(hip), ankle.distance(knee)),
                });
                crate::lower_body::standing::standing_lift(PerSide::new(l, r))
            });
        let arm_span_m = match (j.hands, j.middle_distal) {
            (Some((l, r)), Some(tip)) => l.distance(r) + 2.0 * (tip.distance(l) + 0.025),
            (Some((l, r)), None) => l.distance(r) + 0.36,
            _ => top,
        };
        let arm_length_m = match j.left_arm {
            Some([u, l, h]) => u.distance(l) + l.distance(h),
            None => 0.33 * top,
        };
        AvatarMeasures {
            height_m: top,
            arm_span_m,
            arm_length_m,
        }
    }
}

/// Collects samples while the player holds the calibration pose.
#[derive(Clone, Debug, Default)]
pub struct Calibrator {
    pub settings: CalibrationSettings,
    heights: Vec<f32>,
    spans: Vec<f32>,
    elapsed: f32,
    running: bool,
}

impl Calibrator {
    pub fn new(mut settings: CalibrationSettings) -> Self {
        settings.validate();
        Self {
            settings,
            ..Default::default()
        }
    }

    pub fn start(&mut self) {
        self.heights.clear();
        self.spans.clear();
        self.elapsed = 0.0;
        self.running = true;
    }

    pub fn cancel(&mut self) {
        self.running = false;
    }

    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Adds one frame: head position, both controller positions and the floor height. Returns
    /// the result once `sample_seconds` have been collected.
    pub fn sample(
        &mut self,
        head: Vec3,
        left: Vec3,
        right: Vec3,
        floor_y: f32,
        dt: f32,
        avatar: &AvatarMeasures,
    ) -> Option<Result<PlayerCalibration, String>> {
        if !self.running {
            return None;
        }
        if head.is_finite() && left.is_finite() && right.is_finite() && floor_y.is_finite() {
            self.heights
                .push(head.y - floor_y + self.settings.eye_to_top_m);
            self.spans
                .push(left.distance(right) + 2.0 * self.settings.grip_to_fingertip_m);
        }
        if dt.is_finite() && dt > 0.0 {
            self.elapsed += dt;
        }
        if self.elapsed < self.settings.sample_seconds {
            return None;
        }
        self.running = false;
        Some(self.finish(avatar))
    }

    fn finish(&mut self, avatar: &AvatarMeasures) -> Result<PlayerCalibration, String> {
        let (Some(height), Some(span)) = (median(&mut self.heights), median(&mut self.spans))
        else {
            return Err("no valid tracking samples".into());
        };
        if !(avatar.height_m > 0.1 && avatar.arm_span_m > 0.1) {
            return Err("the avatar's own height or arm span could not be measured".into());
        }
        let c = PlayerCalibration::fitted(height, span, avatar, &self.settings);
        c.check().map(|_| c)
    }
}

pub(crate) fn median(v: &mut [f32]) -> Option<f32> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    Some(v[v.len() / 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    const AVATAR: AvatarMeasures = AvatarMeasures {
        height_m: 1.75,
        arm_span_m: 1.56,
        arm_length_m: 0.58,
    };

    #[test]
    fn measures_a_tall_player() {
        let mut c = Calibrator::default();
        c.start();
        let mut result = None;
        for i in 0..100 {
            let jitter = if i == 50 { 0.3 } else { 0.0 }; // one twitch, ignored by the median
            result = c.sample(
                Vec3::new(0.0, 1.79 + jitter, 0.0),
                Vec3::new(0.86, 1.45, 0.0),
                Vec3::new(-0.86, 1.45, 0.0),
                0.0,
                1.0 / 90.0,
                &AVATAR,
            );
            if result.is_some() {
                break;
            }
        }
        let cal = result.expect("finished").expect("valid");
        assert!((cal.player_height_m - 1.90).abs() < 1e-4);
        assert!((cal.arm_span_m - 1.92).abs() < 1e-4);
        assert!((cal.avatar_scale - 1.90 / 1.75).abs() < 1e-4);
        assert!(!c.is_running());
    }

    #[test]
    fn a_short_armed_avatar_gets_longer_arms() {
        // A 1.75 m player holding the controllers 1.55 m apart reaches 0.775 - 0.175 = 0.6 m
        // from each shoulder; an avatar of 0.5 m arms at scale 1 needs them 1.2 times longer.
        let short = AvatarMeasures {
            height_m: 1.75,
            arm_span_m: 1.5,
            arm_length_m: 0.5,
        };
        assert!((arm_length_scale(1.55, 1.75, &short, 1.0) - 1.2).abs() < 1e-5);
        // Scaled to the player: the scale counts.
        assert!((arm_length_scale(1.55, 1.75, &short, 1.2) - 1.0).abs() < 1e-5);
        // Far off, or unmeasurable: clamped, or left alone.
        assert_eq!(arm_length_scale(9.0, 1.75, &short, 1.0), 1.6);
        assert_eq!(arm_length_scale(0.9, 1.75, &short, 1.0), 0.7);
        let none = AvatarMeasures {
            arm_length_m: 0.0,
            ..short
        };
        assert_eq!(arm_length_scale(1.55, 1.75, &none, 1.0), 1.0);
        assert_eq!(arm_length_scale(f32::NAN, 1.75, &short, 1.0), 1.0);
        assert_eq!(
            arm_length_scale(0.3, 1.75, &short, 1.0),
            1.0,
            "no reach left"
        );
    }

    #[test]
    fn a_calibration_fits_the_arms_unless_told_not_to() {
        let run = |fit: bool| {
            let mut c = Calibrator::new(CalibrationSettings {
                fit_arm_length: fit,
                ..CalibrationSettings::default()
            });
            c.start();
            // Height 1.64 + 0.11 = 1.75 (scale 1); controllers 1.55 m apart: a 0.6 m reach.
            let (l, r) = (Vec3::new(0.775, 1.45, 0.0), Vec3::new(-0.775, 1.45, 0.0));
            let short = AvatarMeasures {
                height_m: 1.75,
                arm_span_m: 1.5,
                arm_length_m: 0.5,
            };
            c.sample(Vec3::new(0.0, 1.64, 0.0), l, r, 0.0, 2.0, &short)
                .unwrap()
                .unwrap()
        };
        assert!((run(true).arm_length_scale - 1.2).abs() < 1e-4);
        assert_eq!(run(false).arm_length_scale, 1.0);
    }

    #[test]
    fn a_saved_calibration_fits_another_avatar_again() {
        let settings = CalibrationSettings::default();
        let small = AvatarMeasures {
            height_m: 1.5,
            arm_span_m: 1.45,
            arm_length_m: 0.5,
        };
        let tall = AvatarMeasures {
            height_m: 2.0,
            arm_span_m: 2.0,
            arm_length_m: 0.68,
        };
        let on_small = PlayerCalibration::fitted(1.8, 1.8, &small, &settings);
        let on_tall = PlayerCalibration::fitted(
            on_small.player_height_m,
            on_small.arm_span_m,
            &tall,
            &settings,
        );
        assert!((on_small.avatar_scale - 1.2).abs() < 1e-5);
        assert!((on_tall.avatar_scale - 0.9).abs() < 1e-5);
        assert!(on_tall.arm_length_scale != on_small.arm_length_scale);
    }

    #[test]
    fn implausible_measures_fail() {
        let mut c = Calibrator::default();
        c.start();
        let mut result = None;
        while result.is_none() {
            result = c.sample(
                Vec3::new(0.0, 0.3, 0.0),
                Vec3::ZERO,
                Vec3::ZERO,
                0.0,
                0.1,
                &AVATAR,
            );
        }
        assert!(result.unwrap().is_err());
    }

    #[test]
    fn toml_round_trip_and_bad_files() {
        let c = PlayerCalibration {
            player_height_m: 1.62,
            arm_span_m: 1.6,
            avatar_scale: 0.93,
            arm_length_scale: 1.12,
        };
        assert_eq!(
            PlayerCalibration::from_toml_str(&c.to_toml_string()).unwrap(),
            c
        );
        let e = PlayerCalibration::from_toml_str("player_height_m = 1.7\narm_span_m = \"wide\"\n")
            .unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(PlayerCalibration::from_toml_str("player_height_m = 40.0\n").is_err());
    }

    #[test]
    fn a_cancelled_calibration_takes_no_more_samples() {
        let mut c = Calibrator::default();
        c.start();
        let head = Vec3::new(0.0, 1.79, 0.0);
        let (l, r) = (Vec3::new(0.86, 1.45, 0.0), Vec3::new(-0.86, 1.45, 0.0));
        assert!(c.sample(head, l, r, 0.0, 0.5, &AVATAR).is_none());
        assert!(c.is_running());
        c.cancel();
        assert!(!c.is_running());
        assert!(c.sample(head, l, r, 0.0, 5.0, &AVATAR).is_none());
    }

    #[test]
    fn settings_are_validated() {
        let mut s = CalibrationSettings {
            sample_seconds: f32::NAN,
            eye_to_top_m: -1.0,
            grip_to_fingertip_m: 2.0,
            arm_span_share: 1.5,
            fit_arm_length: false,
        };
        s.validate();
        assert_eq!(
            s.sample_seconds,
            CalibrationSettings::default().sample_seconds
        );
        assert_eq!(
            (s.eye_to_top_m, s.grip_to_fingertip_m, s.arm_span_share),
            (0.0, 0.5, 1.0)
        );
        let c = Calibrator::new(CalibrationSettings {
            sample_seconds: 99.0,
            ..CalibrationSettings::default()
        });
        assert_eq!(c.settings.sample_seconds, 30.0);
    }

    #[test]
    fn a_frame_with_any_lost_tracking_is_not_sampled() {
        let head = Vec3::new(0.0, 1.79, 0.0);
        let (l, r) = (Vec3::new(0.86, 1.45, 0.0), Vec3::new(-0.86, 1.45, 0.0));
        let mut clean = Calibrator::default();
        clean.start();
        let mut noisy = Calibrator::default();
        noisy.start();
        let (mut a, mut b) = (None, None);
        for i in 0..400 {
            a = a.or(clean.sample(head, l, r, 0.0, 1.0 / 90.0, &AVATAR));
            // Three frames in four lose one of the four inputs (a different one each time) and
            // carry values in the others that would move the medians if they were sampled.
            let far = Vec3::new(0.0, 2.5, 0.0);
            let frame = match (i % 4, i % 8) {
                (0, _) => (head, l, r, 0.0),
                (1, _) => (Vec3::NAN, l + far, r, 0.0),
                (2, _) => (head + far, Vec3::NAN, r, 0.0),
                (_, 3) => (head + far, l + far, Vec3::INFINITY, 0.0),
                _ => (head + far, l + far, r, f32::NAN),
            };
            b = b.or(noisy.sample(frame.0, frame.1, frame.2, frame.3, 1.0 / 90.0, &AVATAR));
        }
        let (a, b) = (
            a.expect("clean result").unwrap(),
            b.expect("noisy result").unwrap(),
        );
        assert_eq!(a, b);
    }

    #[test]
    fn height_is_measured_from_the_floor_and_bad_steps_are_not_time() {
        let mut c = Calibrator::default();
        c.start();
        // A player on a floor 0.5 m up: the same player as on a floor at 0.
        let floor = 0.5;
        let head = Vec3::new(0.0, 1.79 + floor, 0.0);
        let (l, r) = (Vec3::new(0.86, 1.45, 0.0), Vec3::new(-0.86, 1.45, 0.0));
        assert!(c.sample(head, l, r, floor, 0.6, &AVATAR).is_none());
        // Steps of no, negative or unknown length neither advance nor rewind the timer.
        for dt in [0.0, -10.0, f32::NAN, f32::NEG_INFINITY] {
            assert!(c.sample(head, l, r, floor, dt, &AVATAR).is_none(), "{dt}");
        }
        let result = c.sample(head, l, r, floor, 0.4, &AVATAR);
        let cal = result.expect("done after 1 s").unwrap();
        assert!(
            (cal.player_height_m - 1.9).abs() < 1e-5,
            "{}",
            cal.player_height_m
        );
    }

    #[test]
    fn the_scale_blends_height_and_span_medians() {
        let mut c = Calibrator::new(CalibrationSettings {
            arm_span_share: 0.5,
            ..CalibrationSettings::default()
        });
        c.start();
        // Four samples 0.25 s apart; the upper median of each list is the third smallest.
        let heights = [1.80, 1.70, 1.90, 1.75];
        let spans = [1.5, 1.4, 1.6, 1.45];
        let mut result = None;
        for (h, s) in heights.iter().zip(spans) {
            let head = Vec3::new(0.0, *h, 0.0);
            let (l, r) = (
                Vec3::new(s / 2.0, 1.45, 0.0),
                Vec3::new(-s / 2.0, 1.45, 0.0),
            );
            result = c.sample(head, l, r, 0.0, 0.25, &AVATAR);
        }
        let cal = result.expect("done after 1 s").unwrap();
        // Height 1.80 + 0.11 eyes to top; span 1.5 + 2 x 0.1 grip to fingertip.
        assert!(
            (cal.player_height_m - 1.91).abs() < 1e-5,
            "{}",
            cal.player_height_m
        );
        assert!((cal.arm_span_m - 1.7).abs() < 1e-5, "{}", cal.arm_span_m);
        let want = 0.5 * 1.91 / 1.75 + 0.5 * 1.7 / 1.56;
        assert!(
            (cal.avatar_scale - want).abs() < 1e-5,
            "{}",
            cal.avatar_scale
        );
    }

    #[test]
    fn an_avatar_that_cannot_be_measured_is_an_error() {
        for avatar in [
            AvatarMeasures {
                arm_length_m: 0.58,
                height_m: 0.1,
                arm_span_m: 1.56,
            },
            AvatarMeasures {
                arm_length_m: 0.58,
                height_m: 1.75,
                arm_span_m: 0.1,
            },
        ] {
            let mut c = Calibrator::default();
            c.start();
            let result = c.sample(
                Vec3::new(0.0, 1.79, 0.0),
                Vec3::new(0.86, 1.45, 0.0),
                Vec3::new(-0.86, 1.45, 0.0),
                0.0,
                1.0,
                &avatar,
            );
            let err = result.expect("done").unwrap_err();
            assert!(err.contains("avatar's own height or arm span"), "{err}");
        }
    }

    #[test]
    fn an_avatar_is_measured_from_its_rest_joints() {
        let full = RestJoints {
            eyes: Some((Vec3::new(0.03, 1.6, 0.08), Vec3::new(-0.03, 1.6, 0.08))),
            head: Some(Vec3::new(0.0, 1.55, 0.0)),
            hands: Some((Vec3::new(0.7, 1.4, 0.0), Vec3::new(-0.7, 1.4, 0.0))),
            middle_distal: Some(Vec3::new(0.85, 1.4, 0.0)),
            left_arm: Some([
                Vec3::new(0.17, 1.4, 0.0),
                Vec3::new(0.45, 1.4, 0.0),
                Vec3::new(0.7, 1.4, 0.0),
            ]),
            // Straight legs: standing as at rest.
            legs: Some([0.1, -0.1].map(|x| [0.9, 0.48, 0.06].map(|y| Vec3::new(x, y, 0.0)))),
        };
        let m = AvatarMeasures::from_rest(&full);
        assert!((m.height_m - 1.71).abs() < 1e-5, "{m:?}");
        // The knees 20 cm ahead (thigh and shin 46.5 cm, bent 51 degrees): straightened to
        // 10 degrees they lift the hips 8.68 cm.
        let bent =
            RestJoints {
                legs: Some([0.1, -0.1].map(|x| {
                    [(0.9, 0.0), (0.48, 0.2), (0.06, 0.0)].map(|(y, z)| Vec3::new(x, y, z))
                })),
                ..full
            };
        let m = AvatarMeasures::from_rest(&bent);
        assert!((m.height_m - 1.7968).abs() < 2e-4, "{m:?}");
        assert!((m.arm_span_m - (1.4 + 2.0 * 0.175)).abs() < 1e-5, "{m:?}");
        assert!((m.arm_length_m - 0.53).abs() < 1e-5, "{m:?}");
        // Fewer joints: the head joint, a hand without fingers, no arm chain.
        let fewer = RestJoints {
            eyes: None,
            middle_distal: None,
            left_arm: None,
            ..full
        };
        // The eyes 9 cm over a 1.56 m head bone, in proportion (8.94 cm over 1.55 m), the top
        // 11 cm over them.
        let m = AvatarMeasures::from_rest(&fewer);
        let top = 1.55 + 0.09 * 1.55 / 1.56 + 0.11;
        assert!((m.height_m - top).abs() < 1e-5, "{m:?}");
        assert!((m.arm_span_m - 1.76).abs() < 1e-5);
        assert!((m.arm_length_m - 0.33 * top).abs() < 1e-5);
        let head_only = RestJoints {
            head: Some(Vec3::new(0.0, 1.4, 0.0)),
            ..Default::default()
        };
        let top = 1.4 + 0.09 * 1.4 / 1.56 + 0.11;
        assert!((AvatarMeasures::from_rest(&head_only).arm_span_m - top).abs() < 1e-5);
        assert_eq!(
            AvatarMeasures::from_rest(&RestJoints::default()),
            AvatarMeasures::TYPICAL
        );
    }

    /// The eyes are in proportion at any units: a skeleton in hundredths of a metre (an
    /// importer's scale of 100 moved onto its bones, as Quaternius' rigs come) has them where
    /// the calibration, measuring the same avatar in metres, fits them to the headset. Clamped
    /// at a hundredth of the size, they stood 3 cm (world) higher and the body crouched 30
    /// degrees at the knees to keep its head under the headset.
    #[test]
    fn a_head_bone_in_hundredths_has_its_eyes_in_proportion() {
        let metres = eyes_from_head_bone(1.15);
        let hundredths = eyes_from_head_bone(0.0115);
        assert!(
            (hundredths * 100.0).distance(metres) < 1e-6,
            "{hundredths} {metres}"
        );
    }
}
