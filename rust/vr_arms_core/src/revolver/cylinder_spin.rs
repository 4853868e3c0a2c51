//! Turning the cylinder with the other hand at the open gate: the palm on the cylinder, rolling
//! it round its axis the way it turns (clockwise seen from behind, as the Colt's does), clicks it
//! a chamber for every sixth of a turn. The pawl lets it go only that way: rolling back turns
//! nothing, and the roll back is not counted against the next.

use glam::Vec3;

use super::CHAMBERS;

/// How near the cylinder the palm must be to roll it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpinReach {
    /// Farthest from the cylinder's axis (metres): its radius and a hand's thickness.
    pub radius_m: f32,
    /// Farthest along the axis from the cylinder's centre (metres).
    pub half_length_m: f32,
    /// Nearer the axis than this the palm's angle is no use (metres).
    pub min_radius_m: f32,
}

impl Default for SpinReach {
    fn default() -> Self {
        Self {
            radius_m: 0.07,
            half_length_m: 0.05,
            min_radius_m: 0.01,
        }
    }
}

/// The roll of the palm about the cylinder's axis.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CylinderSpin {
    /// The palm's angle about the axis last frame, while on the cylinder.
    last_angle: Option<f32>,
    /// How far it has rolled the cylinder's way since the last click (radians).
    rolled: f32,
}

impl CylinderSpin {
    /// One frame: the palm in the cylinder's frame (`None`: no palm; origin the cylinder's
    /// centre, +Z back along the axis toward the shooter, +Y up). Returns the clicks it turned.
    pub fn update(&mut self, palm: Option<Vec3>, reach: &SpinReach) -> u32 {
        let on = palm.filter(|p| {
            let r = p.truncate().length();
            p.is_finite()
                && r <= reach.radius_m
                && r >= reach.min_radius_m
                && p.z.abs() <= reach.half_length_m
        });
        let Some(p) = on else {
            *self = Self::default();
            return 0;
        };
        // Seen from behind (from +Z), atan2 grows anticlockwise: the Colt's way is its fall.
        let angle = p.y.atan2(p.x);
        let Some(last) = self.last_angle.replace(angle) else {
            return 0;
        };
        let step = std::f32::consts::TAU / CHAMBERS as f32;
        let turned = -crate::maths::angles::wrap_angle(angle - last);
        self.rolled = (self.rolled + turned).max(0.0);
        let clicks = (self.rolled / step).floor();
        self.rolled -= clicks * step;
        clicks as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The palm at `deg` round the axis (anticlockwise from +X seen from behind), 4 cm out.
    fn at(deg: f32) -> Option<Vec3> {
        let a = deg.to_radians();
        Some(Vec3::new(a.cos(), a.sin(), 0.0) * 0.04)
    }

    fn roll(spin: &mut CylinderSpin, from: f32, to: f32, steps: u32) -> u32 {
        (0..=steps)
            .map(|k| {
                spin.update(
                    at(from + (to - from) * k as f32 / steps as f32),
                    &SpinReach::default(),
                )
            })
            .sum()
    }

    #[test]
    fn a_sixth_of_a_turn_the_colts_way_is_a_click() {
        let mut spin = CylinderSpin::default();
        assert_eq!(roll(&mut spin, 90.0, 35.0, 10), 0, "55 degrees: not yet");
        assert_eq!(roll(&mut spin, 35.0, 25.0, 2), 1, "past 60: a click");
        let mut spin = CylinderSpin::default();
        assert_eq!(
            roll(&mut spin, 90.0, 90.0 - 370.0, 60),
            6,
            "once round and a bit: six"
        );
    }

    #[test]
    fn rolled_back_it_does_not_turn_and_does_not_count_against() {
        let mut spin = CylinderSpin::default();
        assert_eq!(roll(&mut spin, 0.0, 100.0, 10), 0, "the wrong way");
        assert_eq!(
            roll(&mut spin, 100.0, 39.0, 10),
            1,
            "61 degrees back the right way"
        );
    }

    #[test]
    fn off_the_cylinder_or_on_its_axis_nothing_turns() {
        let reach = SpinReach::default();
        let mut spin = CylinderSpin::default();
        for p in [
            Vec3::new(0.1, 0.0, 0.0),
            Vec3::new(0.0, 0.04, 0.08),
            Vec3::new(0.002, 0.003, 0.0),
            Vec3::NAN,
        ] {
            spin.update(Some(p), &reach);
            spin.update(Some(Vec3::new(-p.y, p.x, p.z)), &reach);
            assert_eq!(spin.update(Some(-p), &reach), 0, "{p}");
        }
        // Taken off mid-roll: the roll starts again.
        assert_eq!(roll(&mut spin, 90.0, 50.0, 4), 0);
        assert_eq!(spin.update(None, &reach), 0);
        assert_eq!(
            roll(&mut spin, 50.0, 20.0, 4),
            0,
            "40 + 30 degrees in two touches"
        );
    }
}
