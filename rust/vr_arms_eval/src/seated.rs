//! When the performer sits, as a game that knows its chairs would say so
//! (`LowerBodySettings::seated`, `vr_arms_eval --seated-from-clip`): both thighs within 35
//! degrees of level and pointing the same way, each ankle ahead of its hip along the thigh by
//! at least half the thigh (a squat's or a wide stance's thighs point apart or its feet stand
//! under the hips), held for a quarter of a second.

use glam::Vec3;
use vr_arms_core::Side;

use crate::clip::LowerFrame;

/// How long the performer's pose must hold before the game's flag changes (seconds).
pub const HOLD_S: f32 = 0.25;

/// Whether the performer's legs are seated in this frame.
pub fn sits(l: &LowerFrame) -> bool {
    let level = 35f32.to_radians().sin();
    let mut along = [Vec3::ZERO; 2];
    for side in Side::BOTH {
        let (hip, knee, ankle) = (
            *l.upper_leg.get(side),
            *l.knee.get(side),
            *l.ankle.get(side),
        );
        let thigh = knee - hip;
        let length = thigh.length();
        let flat = Vec3::new(thigh.x, 0.0, thigh.z);
        let Some(dir) = flat.try_normalize() else {
            return false;
        };
        let ahead = (ankle - hip).dot(dir);
        if length <= 0.0 || thigh.y.abs() > level * length || ahead < 0.5 * length {
            return false;
        }
        along[side.index()] = dir;
    }
    along[0].dot(along[1]) > 0.7
}

/// The flag across frames: it follows [`sits`] once that has held for [`HOLD_S`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SeatedFlag {
    seated: bool,
    held: f32,
}

impl SeatedFlag {
    pub fn update(&mut self, lower: &LowerFrame, dt: f32) -> bool {
        if sits(lower) == self.seated {
            self.held = 0.0;
        } else {
            self.held += dt;
            if self.held >= HOLD_S {
                self.seated = !self.seated;
                self.held = 0.0;
            }
        }
        self.seated
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vr_arms_core::PerSide;

    /// Legs with the hips at `hip_y`, the knees at `knee` from each hip and the ankles at
    /// `ankle` from each hip (the left hip at x 0.1, the right at -0.1).
    fn legs(hip_y: f32, knee: [Vec3; 2], ankle: [Vec3; 2]) -> LowerFrame {
        let hip = |x: f32| Vec3::new(x, hip_y, 0.0);
        LowerFrame {
            hips: Vec3::new(0.0, hip_y + 0.05, 0.0),
            abdomen: Vec3::new(0.0, hip_y + 0.2, 0.0),
            upper_leg: PerSide::new(hip(0.1), hip(-0.1)),
            knee: PerSide::new(hip(0.1) + knee[0], hip(-0.1) + knee[1]),
            ankle: PerSide::new(hip(0.1) + ankle[0], hip(-0.1) + ankle[1]),
        }
    }

    #[test]
    fn a_chair_sits_a_squat_a_stance_and_standing_do_not() {
        let forward = [Vec3::new(0.0, 0.0, 0.42); 2];
        let under_knee = [Vec3::new(0.0, -0.42, 0.42); 2];
        assert!(sits(&legs(0.48, forward, under_knee)));
        // Standing: the thighs hang down.
        let down = [Vec3::new(0.0, -0.42, 0.0); 2];
        assert!(!sits(&legs(0.9, down, [Vec3::new(0.0, -0.84, 0.0); 2])));
        // A deep squat: thighs level, the feet back under the hips.
        let back = [Vec3::new(0.0, -0.42, 0.05); 2];
        assert!(!sits(&legs(0.45, forward, back)));
        // A wide horse stance: thighs level, pointing apart.
        let apart = [Vec3::new(0.42, 0.0, 0.0), Vec3::new(-0.42, 0.0, 0.0)];
        let below = [Vec3::new(0.42, -0.42, 0.0), Vec3::new(-0.42, -0.42, 0.0)];
        assert!(!sits(&legs(0.48, apart, below)));
    }

    #[test]
    fn the_flag_changes_only_after_the_pose_holds() {
        let forward = [Vec3::new(0.0, 0.0, 0.42); 2];
        let seat = legs(0.48, forward, [Vec3::new(0.0, -0.42, 0.42); 2]);
        let mut f = SeatedFlag::default();
        let frames = (HOLD_S / 0.01) as usize;
        for _ in 0..frames - 1 {
            assert!(!f.update(&seat, 0.01));
        }
        assert!(f.update(&seat, 0.011));
    }
}
