//! A hand that takes cartridges: the grip's press takes the nearest one within reach, its
//! release lets it go. Edges, not levels: a grip already held when a cartridge comes near takes
//! nothing.

use glam::Vec3;

/// A change of the grip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GripEdge {
    Pressed,
    Released,
}

/// The grip's presses and releases, with hysteresis: pressed at `PRESS`, released below
/// `RELEASE`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GripEdges {
    held: bool,
}

impl GripEdges {
    pub const PRESS: f32 = 0.6;
    pub const RELEASE: f32 = 0.4;

    /// This frame's grip value (0..1; not finite counts as 0): the edge it makes, if any.
    pub fn update(&mut self, grip: f32) -> Option<GripEdge> {
        let grip = if grip.is_finite() { grip } else { 0.0 };
        match self.held {
            false if grip >= Self::PRESS => {
                self.held = true;
                Some(GripEdge::Pressed)
            }
            true if grip < Self::RELEASE => {
                self.held = false;
                Some(GripEdge::Released)
            }
            _ => None,
        }
    }

    pub fn held(&self) -> bool {
        self.held
    }
}

/// The index of the point nearest `from` within `reach_m` (metres), if any; on a tie the first.
pub fn nearest_within(
    from: Vec3,
    points: impl IntoIterator<Item = Vec3>,
    reach_m: f32,
) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (i, p) in points.into_iter().enumerate() {
        let d = p.distance(from);
        if d <= reach_m && best.is_none_or(|(_, b)| d < b) {
            best = Some((i, d));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presses_and_releases_with_hysteresis() {
        let mut g = GripEdges::default();
        assert_eq!(g.update(0.5), None);
        assert_eq!(g.update(0.6), Some(GripEdge::Pressed));
        assert!(g.held());
        assert_eq!(g.update(0.45), None, "no flutter between the thresholds");
        assert_eq!(g.update(0.39), Some(GripEdge::Released));
        assert_eq!(g.update(0.0), None);
        assert_eq!(g.update(1.0), Some(GripEdge::Pressed));
        assert_eq!(
            g.update(f32::NAN),
            Some(GripEdge::Released),
            "NaN counts as open"
        );
    }

    #[test]
    fn the_nearest_within_reach() {
        let at = Vec3::new(0.0, 1.0, 0.0);
        let points = [
            at + Vec3::new(0.06, 0.0, 0.0),
            at + Vec3::new(0.0, 0.03, 0.0),
            at + Vec3::new(0.0, -0.03, 0.0),
            at + Vec3::new(0.2, 0.0, 0.0),
        ];
        assert_eq!(
            nearest_within(at, points, 0.07),
            Some(1),
            "the nearer, the first of a tie"
        );
        assert_eq!(nearest_within(at, points, 0.02), None);
        assert_eq!(nearest_within(at, [Vec3::NAN], 1.0), None);
        assert_eq!(nearest_within(at, [], 1.0), None);
        assert_eq!(
            nearest_within(at, [at + Vec3::X * 0.07], 0.07),
            Some(0),
            "reach is inclusive"
        );
    }
}
