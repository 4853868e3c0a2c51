//! The avatar fitted to the player's height as soon as the headset is tracked, before any
//! calibration: a 1.5 m avatar driven by a 1.75 m player would otherwise keep its head 0.25 m
//! below the headset until the player calibrates.
//!
//! The headset must hold a standing eye height (at least `min_eye_height_m` above the floor) for
//! `settle_seconds` without a break; the median of those frames is the eye height. A player who
//! starts seated, or a headset lying on a desk, gives no estimate until they stand. A calibration
//! (`calibration.rs`) replaces the estimate.

use serde::{Deserialize, Serialize};

use crate::maths::finite::finite_clamp;
use crate::rig::calibration::{AvatarMeasures, PlayerCalibration, median};

/// When the start-of-tracking estimate is taken.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StartHeightSettings {
    /// Unbroken standing frames needed (seconds).
    pub settle_seconds: f32,
    /// Lowest eye height above the floor that counts as standing (metres).
    pub min_eye_height_m: f32,
    /// Eyes to top of the head (metres), as in the calibration.
    pub eye_to_top_m: f32,
}

impl Default for StartHeightSettings {
    fn default() -> Self {
        Self {
            settle_seconds: 0.5,
            min_eye_height_m: 1.2,
            eye_to_top_m: 0.11,
        }
    }
}

impl StartHeightSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.settle_seconds = finite_clamp(self.settle_seconds, 0.0, 10.0, d.settle_seconds);
        self.min_eye_height_m = finite_clamp(self.min_eye_height_m, 0.5, 2.5, d.min_eye_height_m);
        self.eye_to_top_m = finite_clamp(self.eye_to_top_m, 0.0, 0.5, d.eye_to_top_m);
    }
}

/// Watches the headset's height until one estimate is made.
#[derive(Clone, Debug, Default)]
pub struct StartHeight {
    settings: StartHeightSettings,
    eye_heights: Vec<f32>,
    elapsed: f32,
    done: bool,
}

impl StartHeight {
    pub fn new(mut settings: StartHeightSettings) -> Self {
        settings.validate();
        Self {
            settings,
            ..Default::default()
        }
    }

    /// Whether the estimate was made (or given up): nothing more will come.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Stops watching without an estimate (a saved or new calibration came first).
    pub fn finish(&mut self) {
        self.done = true;
    }

    /// One frame: the headset's eye height above the floor (metres; `None` while untracked).
    /// Returns the estimate once: the player's height and the avatar scale that fits it (the arm
    /// span is the avatar's, scaled alike). An estimate that is not a plausible person ends the
    /// watch with `Err`. `avatar` measures the avatar, asked only on the frame of the estimate.
    pub fn sample(
        &mut self,
        eye_height_m: Option<f32>,
        dt: f32,
        avatar: impl FnOnce() -> AvatarMeasures,
    ) -> Option<Result<PlayerCalibration, String>> {
        if self.done {
            return None;
        }
        match eye_height_m {
            Some(h) if h.is_finite() && h >= self.settings.min_eye_height_m => {
                self.eye_heights.push(h);
                if dt.is_finite() && dt > 0.0 {
                    self.elapsed += dt;
                }
            }
            _ => {
                // Not standing, or not tracked: start again.
                self.eye_heights.clear();
                self.elapsed = 0.0;
                return None;
            }
        }
        if self.elapsed < self.settings.settle_seconds {
            return None;
        }
        self.done = true;
        let eye = median(&mut self.eye_heights)?;
        let avatar = avatar();
        // Eyes onto eyes: the avatar's eye height is its height less the same eyes-to-top.
        let avatar_eye = avatar.height_m - self.settings.eye_to_top_m;
        if !(avatar_eye > 0.1 && avatar.arm_span_m > 0.1) {
            return Some(Err("the avatar's own height could not be measured".into()));
        }
        let height = eye + self.settings.eye_to_top_m;
        let scale = eye / avatar_eye;
        let c = PlayerCalibration {
            player_height_m: height,
            arm_span_m: avatar.arm_span_m * scale,
            avatar_scale: scale,
            // The player's arms are not measured yet: the avatar keeps its proportions.
            arm_length_scale: 1.0,
        };
        Some(c.check().map(|_| c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AVATAR_1_5: AvatarMeasures = AvatarMeasures {
        height_m: 1.5,
        arm_span_m: 1.5,
        arm_length_m: 0.5,
    };

    fn run(start: &mut StartHeight, eye: Option<f32>, frames: usize) -> Option<PlayerCalibration> {
        let mut out = None;
        for _ in 0..frames {
            if let Some(r) = start.sample(eye, 1.0 / 90.0, || AVATAR_1_5) {
                out = Some(r.unwrap());
            }
        }
        out
    }

    #[test]
    fn a_standing_player_scales_a_short_avatar_up() {
        let mut s = StartHeight::new(StartHeightSettings::default());
        let c = run(&mut s, Some(1.64), 46).expect("an estimate after 0.5 s");
        assert!((c.player_height_m - 1.75).abs() < 1e-5);
        // The avatar's eyes are 1.5 - 0.11 = 1.39 m up: scaled onto the headset's 1.64 m.
        assert!((c.avatar_scale - 1.64 / 1.39).abs() < 1e-5);
        assert!(s.is_done());
        assert_eq!(run(&mut s, Some(1.64), 100), None, "only once");
    }

    #[test]
    fn it_waits_the_settle_time() {
        let mut s = StartHeight::new(StartHeightSettings::default());
        assert_eq!(run(&mut s, Some(1.64), 44), None, "0.49 s is not enough");
        assert!(run(&mut s, Some(1.64), 2).is_some());
    }

    #[test]
    fn seated_or_untracked_frames_restart_the_wait() {
        let mut s = StartHeight::new(StartHeightSettings::default());
        assert_eq!(run(&mut s, Some(1.64), 40), None);
        assert_eq!(run(&mut s, Some(1.1), 1), None, "seated");
        assert_eq!(run(&mut s, Some(1.64), 40), None, "the wait started again");
        assert_eq!(run(&mut s, None, 1), None, "untracked");
        assert_eq!(run(&mut s, Some(f32::NAN), 1), None);
        assert_eq!(run(&mut s, Some(1.64), 40), None);
        assert!(!s.is_done());
        assert!(run(&mut s, Some(1.64), 6).is_some());
    }

    #[test]
    fn the_median_ignores_a_twitch() {
        let mut s = StartHeight::new(StartHeightSettings::default());
        run(&mut s, Some(1.9), 3);
        let c = run(&mut s, Some(1.5), 50).unwrap();
        assert!((c.player_height_m - 1.61).abs() < 1e-5);
    }

    #[test]
    fn an_implausible_avatar_gives_an_error_and_ends() {
        let mut s = StartHeight::new(StartHeightSettings::default());
        let tiny = AvatarMeasures {
            height_m: 0.2,
            arm_span_m: 0.2,
            arm_length_m: 0.06,
        };
        let mut result = None;
        for _ in 0..50 {
            result = result.or(s.sample(Some(1.64), 1.0 / 90.0, || tiny));
        }
        assert!(matches!(result, Some(Err(_))), "scale 8.75 is refused");
        assert!(s.is_done());
    }

    #[test]
    fn finish_stops_the_watch() {
        let mut s = StartHeight::new(StartHeightSettings::default());
        s.finish();
        assert_eq!(run(&mut s, Some(1.64), 100), None);
    }
}
