//! A kneeling knee stays where it went down: once the leg is fully on its knee, the knee and
//! the foot behind it are planted on the floor, and the hips swaying over them turn the thigh
//! rather than slide the knee. The knee slides only as far as it must: in or out as the hips
//! rise or sink (the thigh keeps its length), and round with the body once the thigh has turned
//! [`KNEE_TWIST_MAX_DEG`] from the body's facing.

use glam::{Quat, Vec3};

use super::kneel::{kneeling_knee, kneeling_leg};
use super::legs::LegRest;

/// How far a kneeling thigh may turn from the body's facing (degrees, about the vertical)
/// before its planted knee slides round with the body.
pub const KNEE_TWIST_MAX_DEG: f32 = 35.0;

/// The kneeling leg's planted knee and ankle (world), across frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KneePlant {
    planted: Option<(Vec3, Vec3)>,
}

impl KneePlant {
    /// Forgets the plant (the leg is up again, a teleport, a new avatar).
    pub fn reset(&mut self) {
        self.planted = None;
    }

    /// Whether a knee is planted.
    pub fn is_planted(&self) -> bool {
        self.planted.is_some()
    }

    /// Where the kneeling leg's knee and ankle go (world) for its hip joint at `hip`, the body
    /// facing `forward` (horizontal, unit): the planted knee, slid only as the thigh's length
    /// and [`KNEE_TWIST_MAX_DEG`] need, the ankle moved with it; [`kneeling_leg`] before one
    /// is planted. Returns `(knee, ankle)`.
    pub fn place(
        &self,
        hip: Vec3,
        forward: Vec3,
        floor_y: f32,
        rest: &LegRest,
        scale: f32,
    ) -> (Vec3, Vec3) {
        let Some((knee, ankle)) = self.planted else {
            return kneeling_leg(hip, forward, floor_y, rest, scale);
        };
        let to_knee = Vec3::new(knee.x - hip.x, 0.0, knee.z - hip.z).normalize_or(forward);
        let toward = within_twist(to_knee, forward, KNEE_TWIST_MAX_DEG.to_radians());
        let now = kneeling_knee(hip, toward, floor_y, rest.lengths.0, rest.knee_pad(scale));
        (now, now + (ankle - knee))
    }

    /// After the frame's solve: the kneeling leg's knee and ankle (world) as placed, the kneel
    /// `weight` (0..1). Planted once the leg is fully down (`weight` 1), followed while planted,
    /// forgotten once the leg is fully up (`weight` 0). Non-finite points are refused.
    pub fn keep(&mut self, knee: Vec3, ankle: Vec3, weight: f32) {
        if weight <= 0.0 {
            self.planted = None;
        } else if (self.planted.is_some() || weight >= 1.0) && knee.is_finite() && ankle.is_finite()
        {
            self.planted = Some((knee, ankle));
        }
    }
}

/// `dir` (horizontal, unit) turned about the vertical no further than `max` (radians) from
/// `forward` (horizontal, unit).
fn within_twist(dir: Vec3, forward: Vec3, max: f32) -> Vec3 {
    let angle = forward.cross(dir).y.atan2(forward.dot(dir));
    Quat::from_rotation_y(angle.clamp(-max, max)) * forward
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rest() -> LegRest {
        super::super::legs::plain_leg_rest((0.42, 0.42), 0.08)
    }

    /// Planted, the knee and ankle stay put while the hips sway sideways over them (the thigh
    /// turns instead); before it is planted (easing in) the knee goes with the hips.
    #[test]
    fn a_planted_knee_stays_while_the_hips_sway_over_it() {
        let hip = Vec3::new(0.0, 0.4, 0.0);
        let mut p = KneePlant::default();
        let (knee, ankle) = p.place(hip, Vec3::Z, 0.0, &rest(), 1.0);
        p.keep(knee, ankle, 0.5);
        assert!(!p.is_planted(), "easing in: not yet");
        let sway = hip + Vec3::new(0.05, 0.0, 0.0);
        let (eased, _) = p.place(sway, Vec3::Z, 0.0, &rest(), 1.0);
        assert!(
            (eased.x - knee.x - 0.05).abs() < 1e-5,
            "goes with the hips: {eased}"
        );
        p.keep(knee, ankle, 1.0);
        assert!(p.is_planted());
        let (k, a) = p.place(sway, Vec3::Z, 0.0, &rest(), 1.0);
        // Only the few millimetres the thigh's length needs (the hips 5 cm aside).
        let moved = k.distance(knee);
        assert!(moved < 0.006, "the knee stays: moved {moved}");
        assert!((a - k).distance(ankle - knee) < 1e-6, "the ankle with it");
        assert!(
            (k.distance(sway) - 0.42).abs() < 1e-4,
            "the thigh keeps its length"
        );
    }

    /// The hips rising slide the knee in (the thigh keeps its length); the body turning far
    /// from the knee drags it round, no more than KNEE_TWIST_MAX_DEG off the facing.
    #[test]
    fn a_planted_knee_slides_only_as_far_as_it_must() {
        let hip = Vec3::new(0.0, 0.4, 0.0);
        let mut p = KneePlant::default();
        let (knee, ankle) = p.place(hip, Vec3::Z, 0.0, &rest(), 1.0);
        p.keep(knee, ankle, 1.0);
        let (k, _) = p.place(hip + Vec3::Y * 0.05, Vec3::Z, 0.0, &rest(), 1.0);
        assert!(
            k.z < knee.z - 0.01 && k.x.abs() < 1e-6,
            "slid in: {k} from {knee}"
        );
        let turned = Quat::from_rotation_y(1.2) * Vec3::Z;
        let (k, _) = p.place(hip, turned, 0.0, &rest(), 1.0);
        let dir = Vec3::new(k.x - hip.x, 0.0, k.z - hip.z).normalize();
        let off = dir.angle_between(turned).to_degrees();
        assert!(
            (off - KNEE_TWIST_MAX_DEG).abs() < 0.01,
            "dragged round: {off}"
        );
        // Standing up (weight 0) forgets it; a non-finite point is refused.
        p.keep(Vec3::NAN, ankle, 1.0);
        assert_eq!(p.place(hip, Vec3::Z, 0.0, &rest(), 1.0).0, knee);
        p.keep(knee, ankle, 0.0);
        assert!(!p.is_planted());
    }
}
