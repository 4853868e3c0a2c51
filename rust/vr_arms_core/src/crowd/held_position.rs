//! A bone's local position held across the crowd budget's solves, as [`HeldRotations`] holds
//! the rotations: the hips of a body whose lower half moves them, shown between two solves
//! blended by the same share, so the hips and the legs hung from them stay in step.
//!
//! [`HeldRotations`]: crate::crowd::budget::HeldRotations

use glam::Vec3;

use crate::crowd::budget::{Budget, current, follows};

/// One bone's position at the last two solves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeldPosition {
    previous: Option<Vec3>,
    last: Option<Vec3>,
    solved_at: Option<(u64, u32)>,
}

impl HeldPosition {
    /// Records a solve made at `budget`'s current frame (`None`: the solve did not place the
    /// bone). It blends from the previous one only if that was the solve just before.
    pub fn solved(&mut self, position: Option<Vec3>, budget: &Budget) {
        let position = position.filter(|p| p.is_finite());
        let previous = if follows(self.solved_at, budget) {
            self.last
        } else {
            None
        };
        self.previous = previous.or(position);
        self.last = position;
        self.solved_at = Some((budget.ticks, budget.interval));
    }

    /// The position to show this frame of the interval: the previous solve's moved toward the
    /// last one's by [`Budget::blend`]; `None` without a current solve that placed it.
    pub fn shown(&self, budget: &Budget) -> Option<Vec3> {
        if !current(self.solved_at, budget) {
            return None;
        }
        let (from, to) = (self.previous?, self.last?);
        Some(from.lerp(to, budget.blend()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::budget::HeldRotations;
    use glam::Quat;

    /// Frame by frame at 1 in 3: between two solves the position moves the same share of the
    /// way as the rotations do; a solve that did not come shows nothing; a first solve shows as
    /// it is.
    #[test]
    fn between_solves_the_position_moves_in_step_with_the_rotations() {
        let mut b = Budget::new(3);
        let mut pos = HeldPosition::default();
        let mut rot = HeldRotations::default();
        let mut solves = 0;
        let mut checked = 0;
        for _ in 0..12 {
            b.advance(1.0 / 90.0, 0);
            if b.solving() {
                solves += 1;
                let k = solves as f32;
                pos.solved(Some(Vec3::new(0.0, k, 0.0)), &b);
                rot.solved(&[(0, Quat::from_rotation_x(0.1 * k))], &b);
            }
            let p = pos.shown(&b).expect("a current solve");
            let (_, q) = rot.shown(&b).next().expect("a current solve");
            if solves == 1 {
                assert_eq!(p, Vec3::Y, "the first solve shows as it is");
                continue;
            }
            // The rotation's share of the way from the solve before to the last one.
            let share = (q.to_axis_angle().1 / 0.1) - (solves as f32 - 1.0);
            let p_share = p.y - (solves as f32 - 1.0);
            assert!((share - p_share).abs() < 1e-3, "{share} {p_share}");
            checked += 1;
        }
        assert!(checked >= 6 && solves >= 3);
        let mut late = b;
        for _ in 0..4 {
            late.advance(1.0 / 90.0, 0);
        }
        assert_eq!(
            pos.shown(&late),
            None,
            "the solve that was due did not come"
        );
        pos.solved(None, &b);
        assert_eq!(pos.shown(&b), None, "a solve that did not place it");
    }
}
