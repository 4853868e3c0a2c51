//! The trigger's travel: a pull (its sear-release point at the end), then the return.

use super::timeline::ease_in_out_cubic;

/// The trigger's animation phase.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum TriggerPhase {
    #[default]
    Idle,
    /// Seconds into the pull.
    Pulling(f32),
    /// Seconds into the return.
    Returning(f32),
}

impl TriggerPhase {
    /// The pull amount for the animation (0 rest, 1 fully pulled), for the pull and return times.
    pub fn pull(self, pull_s: f32, return_s: f32) -> f32 {
        match self {
            TriggerPhase::Idle => 0.0,
            TriggerPhase::Pulling(t) => ease_in_out_cubic(t / pull_s.max(1e-4)),
            TriggerPhase::Returning(t) => 1.0 - ease_in_out_cubic(t / return_s.max(1e-4)),
        }
    }

    /// Moves on by `dt`; returns the next phase and whether the pull reached its end this step
    /// (the moment the sear lets the hammer go).
    pub fn advance(self, dt: f32, pull_s: f32, return_s: f32) -> (TriggerPhase, bool) {
        match self {
            TriggerPhase::Idle => (TriggerPhase::Idle, false),
            TriggerPhase::Pulling(t) => {
                let t = t + dt;
                if t >= pull_s {
                    (TriggerPhase::Returning(0.0), true)
                } else {
                    (TriggerPhase::Pulling(t), false)
                }
            }
            TriggerPhase::Returning(t) => {
                let t = t + dt;
                if t >= return_s {
                    (TriggerPhase::Idle, false)
                } else {
                    (TriggerPhase::Returning(t), false)
                }
            }
        }
    }
}
