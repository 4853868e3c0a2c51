//! Fanning: with the trigger held back, the off hand's palm sweeps over the hammer, drawing it to
//! full cock and letting it fall in one stroke. One sweep is one shot: before the next, the palm
//! must draw back from the hammer (leave its reach, or get 5 cm farther than the nearest it came),
//! and a tenth of a second must pass (the gun's recoil moving the hammer under a still palm is no
//! new sweep).
//!
//! Also the drop safety of a gun without a transfer bar (the original): a loaded chamber under a
//! hammer that is down fires when the gun lands hard on the hammer.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::maths::finite::finite_clamp;

use super::cylinder::Chamber;
use super::hammer::HammerPosition;

/// Thresholds of a fan and of a hard landing.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FanSettings {
    /// The palm counts only this close to the hammer (metres).
    pub fan_radius_m: f32,
    /// ... closing on it at least this fast (metres per second).
    pub fan_speed_mps: f32,
    /// After a fan, the palm must get this much farther from the hammer than the nearest it came
    /// (or leave `fan_radius_m`) before the next (metres).
    pub fan_rearm_m: f32,
    /// ... and this long must pass (seconds).
    pub fan_min_interval_s: f32,
    /// Whether the gun has a transfer bar (a later design): then a blow on a lowered hammer never
    /// fires. The original has none.
    pub transfer_bar: bool,
    /// A landing on the hammer at least this fast fires a loaded chamber under a lowered hammer
    /// (metres per second; without a transfer bar).
    pub drop_fire_speed_mps: f32,
}

impl Default for FanSettings {
    fn default() -> Self {
        Self {
            fan_radius_m: 0.15,
            fan_speed_mps: 1.0,
            fan_rearm_m: 0.05,
            fan_min_interval_s: 0.1,
            transfer_bar: false,
            drop_fire_speed_mps: 3.0,
        }
    }
}

impl FanSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.fan_radius_m = finite_clamp(self.fan_radius_m, 0.01, 1.0, d.fan_radius_m);
        self.fan_speed_mps = finite_clamp(self.fan_speed_mps, 0.0, 20.0, d.fan_speed_mps);
        self.fan_rearm_m = finite_clamp(self.fan_rearm_m, 0.0, 1.0, d.fan_rearm_m);
        self.fan_min_interval_s =
            finite_clamp(self.fan_min_interval_s, 0.0, 2.0, d.fan_min_interval_s);
        self.drop_fire_speed_mps =
            finite_clamp(self.drop_fire_speed_mps, 0.0, 100.0, d.drop_fire_speed_mps);
    }
}

/// Watches the off hand's palm for fans.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FanDetector {
    last_distance: Option<f32>,
    /// After a fan: the palm's nearest distance since, and the seconds since.
    spent: Option<(f32, f32)>,
}

impl FanDetector {
    /// Whether the palm was within `distance_m` of the hammer on the last frame.
    pub fn palm_within(&self, distance_m: f32) -> bool {
        self.last_distance.is_some_and(|d| d <= distance_m)
    }

    /// No palm this frame (the hand holds the gun two-handed, or there is none).
    pub fn palm_gone(&mut self) {
        self.last_distance = None;
    }

    /// One frame: the palm and the hammer (one frame, any), `dt` seconds since the last, and
    /// whether the trigger is held. Returns true on the frame a fan strikes.
    pub fn update(
        &mut self,
        settings: &FanSettings,
        palm: Vec3,
        hammer: Vec3,
        dt: f32,
        trigger_held: bool,
    ) -> bool {
        let distance = palm.distance(hammer);
        if !distance.is_finite() {
            self.last_distance = None;
            return false;
        }
        let closing = match self.last_distance {
            Some(last) if dt > 0.0 && dt.is_finite() => (last - distance) / dt,
            _ => 0.0,
        };
        self.last_distance = Some(distance);
        let near = distance <= settings.fan_radius_m;
        if let Some((nearest, since)) = self.spent.as_mut() {
            *since += if dt.is_finite() { dt.max(0.0) } else { 0.0 };
            *nearest = nearest.min(distance);
            let drew_back = !near || distance >= *nearest + settings.fan_rearm_m;
            if drew_back && *since >= settings.fan_min_interval_s {
                self.spent = None;
            }
        }
        if trigger_held && near && closing >= settings.fan_speed_mps && self.spent.is_none() {
            self.spent = Some((distance, 0.0));
            return true;
        }
        false
    }
}

/// Whether a gun that lands at `impact_speed_mps` fires: only a landing on the hammer
/// (`on_hammer`), hard enough, with the hammer down on a live round, and no transfer bar.
pub fn drop_fires(
    settings: &FanSettings,
    hammer: HammerPosition,
    under_hammer: Chamber,
    on_hammer: bool,
    impact_speed_mps: f32,
) -> bool {
    !settings.transfer_bar
        && on_hammer
        && hammer == HammerPosition::Down
        && under_hammer == Chamber::Loaded
        && impact_speed_mps.is_finite()
        && impact_speed_mps >= settings.drop_fire_speed_mps
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The palm's distances from the hammer, frame by frame at 90 Hz; the frames that fanned.
    fn fans(distances: &[f32], trigger_held: bool) -> Vec<usize> {
        let s = FanSettings::default();
        let mut d = FanDetector::default();
        let dt = 1.0 / 90.0;
        distances
            .iter()
            .enumerate()
            .filter(|(_, x)| d.update(&s, Vec3::new(**x, 0.0, 0.0), Vec3::ZERO, dt, trigger_held))
            .map(|(i, _)| i)
            .collect()
    }

    #[test]
    fn a_fast_sweep_within_reach_fans_once_with_the_trigger_held() {
        // 2 m/s toward the hammer: 2.2 cm a frame, from 20 cm in.
        let sweep: Vec<f32> = (0..9).map(|i| 0.20 - 0.022 * i as f32).collect();
        // Within 15 cm from the fourth frame (0.134 m).
        assert_eq!(fans(&sweep, true), vec![3]);
        assert_eq!(fans(&sweep, false), Vec::<usize>::new());
    }

    #[test]
    fn a_slow_or_distant_palm_does_not_fan() {
        // 0.8 m/s: under the 1 m/s.
        let slow: Vec<f32> = (0..15).map(|i| 0.14 - 0.0089 * i as f32).collect();
        assert!(fans(&slow, true).is_empty());
        // Fast, but never within 15 cm.
        let far: Vec<f32> = (0..5).map(|i| 0.40 - 0.05 * i as f32).collect();
        assert!(fans(&far, true).is_empty());
    }

    #[test]
    fn each_sweep_is_one_fan_and_the_next_needs_the_palm_back() {
        let mut path: Vec<f32> = (0..6).map(|i| 0.14 - 0.022 * i as f32).collect();
        // Back out beyond the hammer and in again.
        path.extend((0..6).map(|i| 0.03 + 0.022 * i as f32));
        path.extend((0..6).map(|i| 0.14 - 0.022 * i as f32));
        assert_eq!(fans(&path, true), vec![1, 13]);
    }

    #[test]
    fn the_guns_recoil_under_a_still_palm_is_no_new_fan() {
        // A fan at 3 cm, then the hammer kicks 4 cm away and back at 2 m/s within 0.08 s.
        let mut path: Vec<f32> = (0..6).map(|i| 0.14 - 0.022 * i as f32).collect();
        path.extend([0.05, 0.07, 0.05, 0.03, 0.03, 0.03, 0.03]);
        assert_eq!(fans(&path, true), vec![1]);
        // Drawn back 5 cm but too soon (under 0.1 s), then in again: still one.
        let mut quick: Vec<f32> = (0..3).map(|i| 0.05 - 0.022 * i as f32).collect();
        quick.extend([0.03, 0.09, 0.07, 0.05, 0.03]);
        assert_eq!(fans(&quick, true), vec![1]);
    }

    #[test]
    fn a_palm_that_lingers_near_the_hammer_does_not_fan_again() {
        // A fan, then the palm hovers: 3 cm back and in again fast, well after 0.1 s. Not the
        // 5 cm it must draw back.
        let mut path: Vec<f32> = (0..6).map(|i| 0.14 - 0.022 * i as f32).collect();
        path.extend([0.03; 20]);
        path.extend([0.045, 0.06, 0.03]);
        assert_eq!(fans(&path, true), vec![1]);
        // 6 cm back, and in again: a second fan.
        path.extend([0.06, 0.09, 0.06, 0.03]);
        assert_eq!(fans(&path, true), vec![1, 31]);
    }

    #[test]
    fn a_hard_landing_on_a_lowered_hammer_over_a_live_round_fires_without_a_transfer_bar() {
        let original = FanSettings::default();
        let fires = |s: &FanSettings, h, c, on, v| drop_fires(s, h, c, on, v);
        use Chamber::*;
        use HammerPosition::*;
        assert!(fires(&original, Down, Loaded, true, 3.0));
        assert!(!fires(&original, Down, Loaded, true, 2.9), "too soft");
        assert!(
            !fires(&original, Down, Loaded, false, 9.0),
            "not on the hammer"
        );
        assert!(
            !fires(&original, Down, Empty, true, 9.0),
            "the empty chamber carry"
        );
        assert!(!fires(&original, Down, Spent, true, 9.0));
        assert!(!fires(&original, HalfCock, Loaded, true, 9.0));
        assert!(!fires(&original, Down, Loaded, true, f32::NAN));
        let transfer = FanSettings {
            transfer_bar: true,
            ..original
        };
        assert!(!fires(&transfer, Down, Loaded, true, 50.0));
    }
}
