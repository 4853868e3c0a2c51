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
/// The feet must have stood this far apart (metres, the span of the planted samples along the
/// floor) for a slope to be measured; less is a level floor (a slope read over a dancer's
/// square metre is the dance's own foot heights as much as the floor's).
const SPREAD_M: f32 = 1.5;
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
    /// (as a level floor is found: marker noise). Level where the planted samples span less
    /// than [`SPREAD_M`] or the fit is steeper than [`STEEPEST`]; `None` without samples.
    pub fn under(samples: &[Vec3]) -> Option<Self> {
        let finite: Vec<Vec3> = samples.iter().copied().filter(|p| p.is_finite()).collect();
        if finite.is_empty() {
            return None;
        }
        // A first plane through the lowest of each half-metre cell of the floor (a rising floor's
        // far end is not lost under a level first guess), then refined on the planted samples.
        let mut plane = fit(&cell_lows(&finite))
            .unwrap_or_else(|| Self::level(percentile5(finite.iter().map(|p| p.y))));
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
        let steepness = plane.slope.length();
        if steepness.is_nan() || steepness > STEEPEST {
            plane.slope = Vec2::ZERO;
        }
        plane.height += percentile5(finite.iter().map(|p| p.y - plane.at(p.x, p.z)));
        Some(plane)
    }
}

/// Side of the floor's cells (metres) for the first plane ([`cell_lows`]).
const CELL_M: f32 = 0.5;

/// The lowest tenth of each [`CELL_M`] cell's samples, one point per cell (the cell's 10th
/// percentile height, at that sample's place).
fn cell_lows(samples: &[Vec3]) -> Vec<Vec3> {
    let mut cells: std::collections::BTreeMap<(i32, i32), Vec<Vec3>> = Default::default();
    for p in samples {
        let key = ((p.x / CELL_M).floor() as i32, (p.z / CELL_M).floor() as i32);
        cells.entry(key).or_default().push(*p);
    }
    cells
        .into_values()
        .map(|mut v| {
            v.sort_by(|a, b| a.y.total_cmp(&b.y));
            v[v.len() / 10]
        })
        .collect()
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
/// they span less than [`SPREAD_M`] along the floor, rising only along their widest way where
/// they span less than that across it (a straight walk: the slope across it is not measured);
/// `None` without points.
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
    let level = FloorPlane {
        origin,
        height: mean.y,
        slope: Vec2::ZERO,
    };
    // The floor's widest way: the covariance's eigenvector of the larger eigenvalue, from the
    // row that does not vanish when the points lie along x or along z.
    let (a, b, c) = (xx / n, xz / n, zz / n);
    let widest = 0.5 * (a + c) + (0.25 * (a - c) * (a - c) + b * b).sqrt();
    let axis = if a >= c {
        Vec2::new(widest - c, b)
    } else {
        Vec2::new(b, widest - a)
    }
    .try_normalize()
    .unwrap_or(Vec2::X);
    let across = axis.perp();
    let span = |dir: Vec2| {
        let (lo, hi) = points
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
                let t = dir.dot(Vec2::new(p.x, p.z));
                (lo.min(t), hi.max(t))
            });
        hi - lo
    };
    if span(axis) < SPREAD_M {
        return Some(level);
    }
    let det = xx * zz - xz * xz;
    let slope = if span(across) < SPREAD_M || det.abs() < 1e-9 {
        let along = axis.x * axis.x * xx + 2.0 * axis.x * axis.y * xz + axis.y * axis.y * zz;
        let rise = (axis.x * xy + axis.y * zy) / along.max(1e-9);
        axis * rise
    } else {
        Vec2::new(zz * xy - xz * zy, xx * zy - xz * xy) / det
    };
    Some(FloorPlane { slope, ..level })
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

    /// A straight walk along x on a floor rising 2 cm a metre the way it goes (the slope is read
    /// along x, not across it), and feet all over a 2 m square of a floor rising both ways (the
    /// whole plane is read).
    #[test]
    fn a_walk_along_x_and_feet_all_over_a_square_read_their_floors() {
        let along_x: Vec<Vec3> = (0..300)
            .map(|k| {
                let x = 3.0 * k as f32 / 300.0;
                Vec3::new(x, 0.06 + 0.02 * x, 0.0)
            })
            .collect();
        let p = FloorPlane::under(&along_x).unwrap();
        assert!(
            (p.slope.x - 0.02).abs() < 0.002 && p.slope.y.abs() < 0.002,
            "{p:?}"
        );
        let square: Vec<Vec3> = (0..400)
            .map(|k| {
                let (x, z) = ((k % 20) as f32 * 0.1, (k / 20) as f32 * 0.1);
                Vec3::new(x, 0.06 + 0.01 * x + 0.03 * z, z)
            })
            .collect();
        let p = FloorPlane::under(&square).unwrap();
        assert!(p.slope.distance(Vec2::new(0.01, 0.03)) < 0.002, "{p:?}");
        assert!((p.at(1.0, 1.0) - 0.10).abs() < 0.005, "{p:?}");
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
