//! The capture's floor as the performer stood on it: a plane under the planted feet, found from
//! the data. Most captures' floors are level; some are not (on CMU subject 7's walks the feet
//! stand 6-7 cm higher at one end of the room than at the other), and a body walked on a level
//! floor under such a capture must reach further down with every step than the performer did.
//! The whole body is given this plane as its ground, as a game gives its floor.

use glam::{Vec2, Vec3};

/// A plane `y = height + slope . (xz - origin)` (world, metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloorPlane {
    pub origin: Vec2,
    pub height: f32,
    /// Rise per metre along x and along z.
    pub slope: Vec2,
}

/// Samples this far (metres) above the plane fitted so far are lifted feet, not the floor.
const PLANTED_M: f32 = 0.02;
/// The feet must have stood this far apart (metres, the spread of the planted samples along the
/// floor) for a slope to be measured; less is a level floor.
const SPREAD_M: f32 = 0.5;
/// A steeper fit (rise per metre) is not a floor: level instead.
const STEEPEST: f32 = 0.1;

impl FloorPlane {
    /// A level floor at `height`.
    pub fn level(height: f32) -> Self {
        Self {
            origin: Vec2::ZERO,
            height,
            slope: Vec2::ZERO,
        }
    }

    /// The floor's height under `x`, `z`.
    pub fn at(&self, x: f32, z: f32) -> f32 {
        self.height + self.slope.dot(Vec2::new(x, z) - self.origin)
    }

    /// The plane under the lowest of `samples` (each frame's lower ankle): fitted to the
    /// samples within [`PLANTED_M`] of it, then lowered until 5 % of all samples are under it
    /// (as a level floor is found: marker noise). Level where the planted samples spread less
    /// than [`SPREAD_M`] or the fit is steeper than [`STEEPEST`]; `None` without samples.
    pub fn under(samples: &[Vec3]) -> Option<Self> {
        let finite: Vec<Vec3> = samples.iter().copied().filter(|p| p.is_finite()).collect();
        if finite.is_empty() {
            return None;
        }
        let mut plane = Self::level(percentile5(finite.iter().map(|p| p.y)));
        for _ in 0..4 {
            let planted: Vec<Vec3> = finite
                .iter()
                .copied()
                .filter(|p| p.y - plane.at(p.x, p.z) < PLANTED_M)
                .collect();
            match fit(&planted) {
                Some(next) => plane = next,
                None => break,
            }
        }
        if plane.slope.max_element() > STEEPEST || plane.slope.min_element() < -STEEPEST {
            plane.slope = Vec2::ZERO;
        }
        plane.height += percentile5(finite.iter().map(|p| p.y - plane.at(p.x, p.z)));
        Some(plane)
    }
}

/// The 5th percentile of `values` (0 without any).
fn percentile5(values: impl Iterator<Item = f32>) -> f32 {
    let mut v: Vec<f32> = values.collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f32::total_cmp);
    v[v.len() / 20]
}

/// The least-squares plane through `points` about their mean; level (their mean height) where
/// they spread less than [`SPREAD_M`] along the floor; `None` without points.
fn fit(points: &[Vec3]) -> Option<FloorPlane> {
    if points.is_empty() {
        return None;
    }
    let n = points.len() as f32;
    let mean = points.iter().copied().sum::<Vec3>() / n;
    let (mut xx, mut xz, mut zz, mut xy, mut zy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for p in points {
        let d = *p - mean;
        xx += d.x * d.x;
        xz += d.x * d.z;
        zz += d.z * d.z;
        xy += d.x * d.y;
        zy += d.z * d.y;
    }
    let origin = Vec2::new(mean.x, mean.z);
    // The spread along the floor's widest direction (the largest eigenvalue's root).
    let (a, b, c) = (xx / n, xz / n, zz / n);
    let widest = 0.5 * (a + c) + (0.25 * (a - c) * (a - c) + b * b).sqrt();
    let det = xx * zz - xz * xz;
    if 2.0 * widest.sqrt() < SPREAD_M || det.abs() < 1e-9 {
        return Some(FloorPlane {
            origin,
            height: mean.y,
            slope: Vec2::ZERO,
        });
    }
    // Along the walk only where the feet went one way (a straight walk): the slope across it
    // is not measured.
    let narrowest = (a + c - widest).max(0.0);
    let slope = if 2.0 * narrowest.sqrt() < SPREAD_M {
        let axis = Vec2::new(b, widest - a)
            .try_normalize()
            .unwrap_or(if a >= c { Vec2::X } else { Vec2::Y });
        let along = axis.x * axis.x * xx + 2.0 * axis.x * axis.y * xz + axis.y * axis.y * zz;
        let rise = (axis.x * xy + axis.y * zy) / along.max(1e-9);
        axis * rise
    } else {
        Vec2::new(zz * xy - xz * zy, xx * zy - xz * xy) / det
    };
    Some(FloorPlane {
        origin,
        height: mean.y,
        slope,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feet walking 4 m along z on a floor rising 7 cm over it, a foot in the air every other
    /// sample (the lower ankle is then the planted one, 6 cm up; a lifted sample 20 cm up): the
    /// plane is the ankles' floor, slope and height, and a level floor stays level.
    #[test]
    fn a_walk_on_a_rising_floor_finds_the_rise_and_a_level_one_stays_level() {
        let walk = |rise: f32| -> Vec<Vec3> {
            (0..400)
                .map(|k| {
                    let z = 4.0 * k as f32 / 400.0;
                    let x = 0.1 * (k as f32 * 0.3).sin();
                    let up = if k % 7 == 0 { 0.2 } else { 0.06 };
                    Vec3::new(x, up + rise * z / 4.0, z)
                })
                .collect()
        };
        let p = FloorPlane::under(&walk(0.07)).unwrap();
        assert!((p.slope.y - 0.0175).abs() < 0.002, "{p:?}");
        assert!(p.slope.x.abs() < 0.002, "{p:?}");
        assert!((p.at(0.0, 0.0) - 0.06).abs() < 0.005, "{p:?}");
        assert!((p.at(0.0, 4.0) - 0.13).abs() < 0.005, "{p:?}");
        let level = FloorPlane::under(&walk(0.0)).unwrap();
        assert!(level.slope.length() < 1e-3, "{level:?}");
        assert!((level.at(0.0, 2.0) - 0.06).abs() < 1e-3);
    }

    /// A performer who stays in one place: no slope is read from feet a few centimetres apart;
    /// nothing or nothing finite: no plane.
    #[test]
    fn feet_that_stay_put_give_a_level_floor_and_no_samples_no_floor() {
        let still: Vec<Vec3> = (0..100)
            .map(|k| Vec3::new(0.05 * (k % 3) as f32, 0.06 + 0.01 * (k % 3) as f32, 0.0))
            .collect();
        let p = FloorPlane::under(&still).unwrap();
        assert_eq!(p.slope, Vec2::ZERO);
        assert_eq!(FloorPlane::under(&[]), None);
        assert_eq!(FloorPlane::under(&[Vec3::NAN]), None);
    }
}
