//! Input sanitising at the core boundary, with counts.
//!
//! A tracked pose is rejected when it is not finite or absurdly far away (1 km by default: no
//! room-scale tracking is there), and repaired when only its rotation is off (not normalised:
//! normalised; zero or non-finite: the last good rotation). Every rejection and repair is counted,
//! so the glue can report the counts once instead of logging every frame.

use glam::{Quat, Vec3};

use crate::maths::pose::Pose;

/// How many inputs were rejected or repaired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputCounts {
    /// Non-finite positions (the pose was dropped).
    pub non_finite: u64,
    /// Positions beyond the limit (the pose was dropped).
    pub too_far: u64,
    /// Rotations that were not unit length and were normalised.
    pub normalised: u64,
    /// Zero or non-finite rotations replaced by the last good one.
    pub rotation_replaced: u64,
}

impl std::ops::Add for InputCounts {
    type Output = InputCounts;

    fn add(self, o: InputCounts) -> InputCounts {
        InputCounts {
            non_finite: self.non_finite + o.non_finite,
            too_far: self.too_far + o.too_far,
            normalised: self.normalised + o.normalised,
            rotation_replaced: self.rotation_replaced + o.rotation_replaced,
        }
    }
}

impl InputCounts {
    pub fn total(&self) -> u64 {
        self.non_finite + self.too_far + self.normalised + self.rotation_replaced
    }
}

/// Checks one input stream (a controller or the headset).
#[derive(Clone, Copy, Debug)]
pub struct InputGuard {
    /// Largest distance from the origin accepted (metres).
    pub max_distance_m: f32,
    pub counts: InputCounts,
    last_rotation: Quat,
}

impl Default for InputGuard {
    fn default() -> Self {
        Self {
            max_distance_m: 1000.0,
            counts: InputCounts::default(),
            last_rotation: Quat::IDENTITY,
        }
    }
}

impl InputGuard {
    /// The pose to use, or None when it must be treated as untracked.
    pub fn check(&mut self, p: &Pose) -> Option<Pose> {
        self.check_in(p, Vec3::ZERO, 1.0)
    }

    /// [`InputGuard::check`] for a pose given in other coordinates: the world's origin is at
    /// `world_origin` there and `units_per_metre` of their units make a world metre (the limit
    /// stays the world's).
    pub fn check_in(&mut self, p: &Pose, world_origin: Vec3, units_per_metre: f32) -> Option<Pose> {
        if !p.position.is_finite() {
            self.counts.non_finite += 1;
            return None;
        }
        let units = if units_per_metre.is_finite() && units_per_metre > 0.0 {
            units_per_metre
        } else {
            1.0
        };
        if (p.position - world_origin).length() > self.max_distance_m * units {
            self.counts.too_far += 1;
            return None;
        }
        let len_sq = p.rotation.length_squared();
        let rotation = if p.rotation.is_finite() && len_sq > 1e-12 {
            if (len_sq - 1.0).abs() > 1e-3 {
                self.counts.normalised += 1;
            }
            p.rotation * len_sq.sqrt().recip()
        } else {
            self.counts.rotation_replaced += 1;
            self.last_rotation
        };
        self.last_rotation = rotation;
        Some(Pose {
            position: p.position,
            rotation,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn rejects_repairs_and_counts() {
        let mut g = InputGuard::default();
        let good = Pose::new(Vec3::new(0.1, 1.2, 0.3), Quat::from_rotation_y(0.3));
        assert_eq!(g.check(&good), Some(good));
        assert_eq!(g.check(&Pose::new(Vec3::NAN, Quat::IDENTITY)), None);
        assert_eq!(
            g.check(&Pose::new(Vec3::new(1e9, 0.0, 0.0), Quat::IDENTITY)),
            None
        );
        assert_eq!(g.check(&Pose::new(Vec3::INFINITY, Quat::IDENTITY)), None);
        let scaled = g
            .check(&Pose::new(Vec3::ZERO, Quat::from_rotation_y(0.3) * 3.0))
            .unwrap();
        assert!((scaled.rotation.length() - 1.0).abs() < 1e-6);
        let zero = g
            .check(&Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)))
            .unwrap();
        assert!(
            zero.rotation.angle_between(Quat::from_rotation_y(0.3)) < 1e-3,
            "last good rotation"
        );
        let nan = g
            .check(&Pose::new(
                Vec3::ZERO,
                Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0),
            ))
            .unwrap();
        assert!(nan.rotation.is_finite());
        assert_eq!(
            g.counts,
            InputCounts {
                non_finite: 2,
                too_far: 1,
                normalised: 1,
                rotation_replaced: 2
            }
        );
        assert_eq!(g.counts.total(), 6);
    }

    #[test]
    fn only_rotations_visibly_off_unit_length_count_as_normalised() {
        let mut g = InputGuard::default();
        let at = |q: Quat| Pose::new(Vec3::ZERO, q);
        g.check(&at(Quat::from_rotation_y(0.3)));
        g.check(&at(Quat::from_rotation_y(0.3) * 1.0002));
        assert_eq!(g.counts.normalised, 0, "rounding is not counted");
        g.check(&at(Quat::from_rotation_y(0.3) * 1.01));
        assert_eq!(g.counts.normalised, 1);
    }

    #[test]
    fn the_limit_is_the_worlds_in_any_coordinates() {
        // Coordinates 100 units to the metre (a centimetre skeleton's), the world's origin 5 m
        // along +X there.
        let origin = Vec3::new(500.0, 0.0, 0.0);
        let mut g = InputGuard::default();
        let near = Pose::from_position(origin + Vec3::new(50_000.0, 0.0, 0.0)); // 500 m
        let far = Pose::from_position(origin + Vec3::new(150_000.0, 0.0, 0.0)); // 1.5 km
        assert!(g.check_in(&near, origin, 100.0).is_some());
        assert!(g.check_in(&far, origin, 100.0).is_none());
        assert_eq!(g.counts.too_far, 1);
        // The world's origin far off in those coordinates: measured from it, not from theirs.
        let away = Vec3::new(150_000.0, 0.0, 0.0);
        assert!(
            g.check_in(&Pose::from_position(away), away, 100.0)
                .is_some()
        );
        // No usable scale (zero, negative, NaN): a metre is a unit.
        for units in [0.0, -100.0, f32::NAN] {
            assert!(
                g.check_in(
                    &Pose::from_position(Vec3::new(900.0, 0.0, 0.0)),
                    Vec3::ZERO,
                    units
                )
                .is_some(),
                "{units}"
            );
        }
        // Plain world coordinates: the same 1 km, exactly 1 km still in.
        assert!(
            g.check(&Pose::from_position(Vec3::new(1000.0, 0.0, 0.0)))
                .is_some()
        );
        assert!(
            g.check(&Pose::from_position(Vec3::new(999.0, 0.0, 0.0)))
                .is_some()
        );
        assert!(
            g.check(&Pose::from_position(Vec3::new(0.0, 0.0, 1001.0)))
                .is_none()
        );
    }

    #[test]
    fn counts_add_field_by_field() {
        let a = InputCounts {
            non_finite: 1,
            too_far: 2,
            normalised: 3,
            rotation_replaced: 4,
        };
        let b = InputCounts {
            non_finite: 10,
            too_far: 20,
            normalised: 30,
            rotation_replaced: 40,
        };
        let c = a + b;
        assert_eq!(
            (c.non_finite, c.too_far, c.normalised, c.rotation_replaced),
            (11, 22, 33, 44)
        );
        assert_eq!(c.total(), 110);
    }
}
