//! A rest pose that is not a person standing (Quaternius' game rigs rest in a combat stance:
//! the pelvis turned 28 degrees and rolled, the knees bent 33, one foot 36 cm ahead of the
//! other) measured as the standing body it stands for: the pelvis level and square, the legs
//! straight, the feet side by side. A rest already standing so measures as it is.

use glam::{Quat, Vec3};

/// Where a rig without eye bones has its eyes, from its head bone (rest pose, +Y up, +Z
/// forward): 9 cm over it and 9 cm ahead for a grown-up whose head bone stands 1.56 m high, in
/// proportion to the head bone's height above the floor (`head_height`, in the rig's own units:
/// a centimetre rig's eyes are 9 of its units over, a rig in hundredths of a metre, its head bone
/// 0.0115 high, 0.00066 of them). The calibration's fit and the lower body's head placement
/// share it, so an avatar fitted to the headset stands with its eyes on it.
pub fn eyes_from_head_bone(head_height: f32) -> Vec3 {
    let size = if head_height.is_finite() {
        (head_height / 1.56).max(0.0)
    } else {
        1.0
    };
    Vec3::new(0.0, 0.09, 0.09) * size
}

use super::legs::KNEE_EASE_START_DEG;
use crate::maths::side::PerSide;

/// How far apart fore and aft the standing feet may be, as a share of the leg (the rest's own
/// stagger up to it, about their middle): captured performers' rests stand up to 4.4 cm
/// apart, a game rig's combat stance 36 cm.
pub const MAX_STAGGER_SHARE: f32 = 0.1;

/// A leg at rest as the standing body needs it, in the root's frame (+Y up, the floor at 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RestLeg {
    /// The hip joint (the upper leg bone's position).
    pub hip: Vec3,
    /// The ankle's height over the floor.
    pub ankle_height: f32,
    /// The thigh's and the shin's lengths.
    pub lengths: (f32, f32),
}

/// How far a rest pelvis may be turned (the line between its hip joints off the root's left)
/// and still be the rig's own standing pelvis, and how far it is a stance's, levelled whole
/// (degrees; eased between). The rests of the captured performers the evaluation reads are
/// turned up to 13.5 degrees, and levelling those made every whole-body figure worse; the
/// combat stance is turned 28.
pub const PELVIS_OWN_DEG: f32 = 15.0;
pub const PELVIS_STANCE_DEG: f32 = 25.0;
/// A rest pelvis turned further than this is no stance (hip joints named the wrong way round, a
/// rig lying down): left as it is rather than turned round.
pub const PELVIS_NO_STANCE_DEG: f32 = 60.0;

/// The turn (root frame) that levels and squares a rest pelvis turned as a stance's: the
/// least turn taking the line from the right hip joint to the left one onto the root's left
/// (+X), eased in from [`PELVIS_OWN_DEG`] to [`PELVIS_STANCE_DEG`] of it. Identity for a
/// pelvis turned less or further than [`PELVIS_NO_STANCE_DEG`], or joints on one spot.
pub fn pelvis_level(legs: PerSide<RestLeg>) -> Quat {
    let Some(across) = (legs.left.hip - legs.right.hip).try_normalize() else {
        return Quat::IDENTITY;
    };
    let full = Quat::from_rotation_arc(across, Vec3::X);
    let turned = full.angle_between(Quat::IDENTITY).to_degrees();
    if !(PELVIS_OWN_DEG..=PELVIS_NO_STANCE_DEG).contains(&turned) {
        return Quat::IDENTITY;
    }
    let t = ((turned - PELVIS_OWN_DEG) / (PELVIS_STANCE_DEG - PELVIS_OWN_DEG)).clamp(0.0, 1.0);
    Quat::IDENTITY.slerp(full, t * t * (3.0 - 2.0 * t))
}

/// How much higher than at rest the hips stand once the pelvis is level (both hip joints at
/// their mean height) and the legs straight: the shortest leg's rise to its longest exact reach
/// ([`KNEE_EASE_START_DEG`]), none for a rest already standing that tall. The combat stance
/// stands 4 cm taller; a rest on straight legs, 0.
pub fn standing_lift(legs: PerSide<RestLeg>) -> f32 {
    let hip_height = 0.5 * (legs.left.hip.y + legs.right.hip.y);
    let lift = [legs.left, legs.right]
        .map(|leg| {
            let (thigh, shin) = leg.lengths;
            let reach =
                crate::arms::soft_ik::min_bend_reach(thigh, shin, KNEE_EASE_START_DEG.to_radians());
            reach - (hip_height - leg.ankle_height)
        })
        .into_iter()
        .fold(f32::INFINITY, f32::min);
    if lift.is_finite() { lift.max(0.0) } else { 0.0 }
}

/// Each foot's place under the hips standing (horizontal, root frame) from its place at rest
/// (`left`, `right`): across as at rest, fore and aft at most [`MAX_STAGGER_SHARE`] of the
/// leg (`leg`, straight) apart about their middle. Feet further apart at rest are a stance's,
/// which says nothing of where standing feet go: their middle is then under the hip joints'
/// (`under_hips`, how far ahead of the hips they are, if known).
pub fn standing_feet(left: Vec3, right: Vec3, leg: f32, under_hips: Option<f32>) -> (Vec3, Vec3) {
    let stagger = 0.5 * MAX_STAGGER_SHARE * leg;
    let middle = 0.5 * (left.z + right.z);
    let ahead = match under_hips {
        Some(z) if (left.z - right.z).abs() > 2.0 * stagger => z,
        _ => middle,
    };
    let level = |o: Vec3| o.with_z(ahead + (o.z - middle).clamp(-stagger, stagger));
    (level(left), level(right))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leg(hip: Vec3, ankle_height: f32, lengths: (f32, f32)) -> RestLeg {
        RestLeg {
            hip,
            ankle_height,
            lengths,
        }
    }

    /// The Cyberpunk character's rest legs (its glTF, in metres): the hip joints 2 cm apart in
    /// height and 11 cm fore and aft, knees bent 33 degrees. Levelled, the joints lie along +X;
    /// standing, the hips rise 4 cm.
    #[test]
    fn a_combat_stance_is_levelled_and_lifted() {
        let legs = PerSide::new(
            leg(Vec3::new(0.1075, 0.6379, -0.0242), 0.0159, (0.322, 0.353)),
            leg(Vec3::new(-0.101, 0.6588, -0.1321), 0.0159, (0.322, 0.353)),
        );
        let level = pelvis_level(legs);
        let across = level * (legs.left.hip - legs.right.hip);
        assert!(across.normalize().distance(Vec3::X) < 1e-5, "{across}");
        let lift = standing_lift(legs);
        assert!((lift - 0.0399).abs() < 5e-4, "{lift}");
    }

    /// A pelvis turned 10 degrees at rest is the rig's own: left as it is; turned 20, half
    /// levelled; turned 30, whole; turned 70 or round (the hips named the wrong way round), no
    /// stance: left as it is.
    #[test]
    fn a_pelvis_turned_a_little_is_the_rigs_own() {
        let turned = |deg: f32| {
            let across = Quat::from_rotation_y(deg.to_radians()) * Vec3::new(0.1, 0.0, 0.0);
            PerSide::new(
                leg(across + Vec3::Y * 0.9, 0.06, (0.42, 0.42)),
                leg(-across + Vec3::Y * 0.9, 0.06, (0.42, 0.42)),
            )
        };
        assert!(pelvis_level(turned(10.0)).angle_between(Quat::IDENTITY) < 1e-6);
        let half = pelvis_level(turned(20.0))
            .angle_between(Quat::IDENTITY)
            .to_degrees();
        assert!((half - 10.0).abs() < 0.01, "{half}");
        let whole = pelvis_level(turned(30.0))
            .angle_between(Quat::IDENTITY)
            .to_degrees();
        assert!((whole - 30.0).abs() < 0.01, "{whole}");
        // The left hip on the right, or turned further than a stance: not turned round.
        assert_eq!(pelvis_level(turned(180.0)), Quat::IDENTITY);
        assert_eq!(pelvis_level(turned(70.0)), Quat::IDENTITY);
    }

    /// Straight legs under a level pelvis: nothing to level, nothing to lift.
    #[test]
    fn a_standing_rest_is_left_as_it_is() {
        let legs = PerSide::new(
            leg(Vec3::new(0.1, 0.9, 0.0), 0.06, (0.42, 0.42)),
            leg(Vec3::new(-0.1, 0.9, 0.0), 0.06, (0.42, 0.42)),
        );
        assert!(pelvis_level(legs).angle_between(Quat::IDENTITY) < 1e-6);
        assert_eq!(standing_lift(legs), 0.0);
    }
}
