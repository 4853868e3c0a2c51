//! The twirl: a flourish that spins the gun on the trigger finger, round the trigger guard, and
//! back into the grip. Started by an input, or by a flick of the wrist with the finger off the
//! trigger.

use serde::{Deserialize, Serialize};

use crate::maths::finite::finite_clamp;

use super::timeline::ease_in_out_cubic;

/// How a twirl goes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TwirlSettings {
    /// Seconds from the start of the spin to the gun back in the grip.
    pub duration_s: f32,
    /// Whole turns the gun makes about the trigger guard.
    pub turns: f32,
    /// A flick of the gun hand about the gun's side axis at least this fast (radians per
    /// second), with the finger off the trigger, starts a twirl; 0: only the input does.
    pub flick_speed_rad_s: f32,
}

impl Default for TwirlSettings {
    fn default() -> Self {
        Self {
            duration_s: 0.7,
            turns: 1.0,
            flick_speed_rad_s: 0.0,
        }
    }
}

impl TwirlSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.duration_s = finite_clamp(self.duration_s, 0.1, 5.0, d.duration_s);
        self.turns = finite_clamp(self.turns, 0.0, 5.0, d.turns).round();
        self.flick_speed_rad_s =
            finite_clamp(self.flick_speed_rad_s, 0.0, 100.0, d.flick_speed_rad_s);
    }
}

/// A twirl in progress: seconds since it started.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Twirl {
    elapsed: Option<f32>,
}

impl Twirl {
    pub fn active(&self) -> bool {
        self.elapsed.is_some()
    }

    pub fn start(&mut self) {
        self.elapsed = Some(0.0);
    }

    /// Moves on by `dt`; true on the step the gun is back in the grip.
    pub fn advance(&mut self, dt: f32, settings: &TwirlSettings) -> bool {
        let Some(t) = self.elapsed else {
            return false;
        };
        let t = t + dt;
        if t >= settings.duration_s {
            self.elapsed = None;
            true
        } else {
            self.elapsed = Some(t);
            false
        }
    }

    /// How far the gun has spun about the trigger guard (radians, eased in and out; 0 when not
    /// twirling, and a whole number of turns, so back in the grip, at the end).
    pub fn angle(&self, settings: &TwirlSettings) -> f32 {
        match self.elapsed {
            Some(t) => {
                let turn = std::f32::consts::TAU * settings.turns;
                turn * ease_in_out_cubic(t / settings.duration_s.max(1e-3))
            }
            None => 0.0,
        }
    }
}

/// Whether the gun hand's turn rate about the gun's side axis (`rate_rad_s`, either way) is a
/// flick that starts a twirl, with the trigger at `trigger` (0..1: the finger must be off it).
pub fn is_flick(settings: &TwirlSettings, rate_rad_s: f32, trigger: f32) -> bool {
    settings.flick_speed_rad_s > 0.0
        && rate_rad_s.is_finite()
        && rate_rad_s.abs() >= settings.flick_speed_rad_s
        && trigger.is_finite()
        && trigger < 0.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::TAU;

    #[test]
    fn a_twirl_spins_whole_turns_eased_and_ends_in_the_grip() {
        let s = TwirlSettings::default();
        let mut t = Twirl::default();
        assert_eq!(t.angle(&s), 0.0);
        t.start();
        let mut angles = Vec::new();
        let mut ended = Vec::new();
        for k in 0..75 {
            if t.advance(0.01, &s) {
                ended.push(k);
            }
            angles.push(t.angle(&s));
        }
        // Over after its 0.7 s (the 70th step, give or take the sum's rounding), once.
        assert!(
            ended.len() == 1 && (68..=70).contains(&ended[0]),
            "{ended:?}"
        );
        assert!(!t.active());
        // Half way through, half a turn; never backward; back to 0 (a whole turn) at the end.
        assert!((angles[34] - TAU / 2.0).abs() < 0.05, "{}", angles[34]);
        assert!(angles[..ended[0]].windows(2).all(|w| w[1] >= w[0]));
        assert!(angles[ended[0] - 1] > TAU - 0.01);
        assert_eq!(angles[ended[0]], 0.0);
        let two = TwirlSettings { turns: 2.0, ..s };
        let mut t = Twirl::default();
        t.start();
        t.advance(0.35, &two);
        assert!((t.angle(&two) - TAU).abs() < 1e-3);
    }

    #[test]
    fn a_flick_needs_the_speed_and_the_finger_off_the_trigger_and_is_off_by_default() {
        let on = TwirlSettings {
            flick_speed_rad_s: 12.0,
            ..Default::default()
        };
        assert!(is_flick(&on, 13.0, 0.0));
        assert!(is_flick(&on, -13.0, 0.05));
        assert!(!is_flick(&on, 11.0, 0.0));
        assert!(!is_flick(&on, 13.0, 0.5));
        assert!(!is_flick(&on, f32::NAN, 0.0));
        assert!(!is_flick(&TwirlSettings::default(), 50.0, 0.0));
    }

    #[test]
    fn settings_are_held_to_their_ranges() {
        let mut s = TwirlSettings {
            duration_s: f32::NAN,
            turns: 1.4,
            flick_speed_rad_s: -3.0,
        };
        s.validate();
        assert_eq!(
            (s.duration_s, s.turns, s.flick_speed_rad_s),
            (0.7, 1.0, 0.0)
        );
    }
}
