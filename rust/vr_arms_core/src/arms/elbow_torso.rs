//! The elbow kept out of the avatar's own torso: a hint whose elbow would sit inside the torso
//! (a hand crossing in front of the belly of a thick-bodied avatar, the forearm cue putting the
//! elbow where the player's slimmer body has room) turns about the shoulder-to-hand line by the
//! least angle that puts the elbow on the torso's surface. The hand does not move.
//!
//! The torso is the body avoidance's ([`TorsoShape`]): an elliptic cylinder hanging from the
//! shoulder line, sized from the avatar's shoulder span.

use glam::{Quat, Vec3};

use crate::arms::body_avoidance::TorsoShape;
use crate::maths::finite::direction;

/// One arm as the elbow's circle needs it (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmCircle {
    /// The shoulder (upper arm's) joint.
    pub shoulder: Vec3,
    /// The wrist's target.
    pub hand: Vec3,
    /// The upper and lower arm's lengths.
    pub upper: f32,
    pub lower: f32,
}

/// Arm bones shorter than this (world units) have no elbow circle to speak of.
const MIN_BONE: f32 = 1e-3;

impl ArmCircle {
    /// Where two-bone IK puts the elbow for a hint at `hint`: on the circle of elbows that
    /// reach the hand (the hand brought within the arm's reach), toward the hint.
    pub fn elbow(&self, hint: Vec3) -> Option<Vec3> {
        let (u, l) = (self.upper, self.lower);
        if !(u.is_finite() && l.is_finite() && u >= MIN_BONE && l >= MIN_BONE) {
            return None;
        }
        let to = self.hand - self.shoulder;
        let axis = direction(to)?;
        // Within the reach: neither folded past the bones' difference nor stretched past
        // their sum (both bounds apart, each bone being at least MIN_BONE long).
        let lo = (u - l).abs() + 1e-4;
        let d = to.length().max(lo).min((u + l - 1e-4).max(lo));
        let along = (u * u - l * l + d * d) / (2.0 * d);
        let radius = (u * u - along * along).max(0.0).sqrt();
        let toward = hint - self.shoulder;
        let pole = direction(toward - axis * toward.dot(axis))?;
        Some(self.shoulder + axis * along + pole * radius)
    }
}

/// How finely the turn is searched (degrees per step, up to half a turn each way), then
/// bisected.
const STEP_DEG: f32 = 5.0;
const BISECTIONS: u32 = 12;

/// An elbow that needs a turn of more than this (degrees) to come out turns less ...
const FADE_FROM_DEG: f32 = 30.0;
/// ... and from this, not at all.
const FADE_TO_DEG: f32 = 60.0;

/// `hint` turned about the shoulder-to-hand line by the least angle that puts its elbow
/// ([`ArmCircle::elbow`]) out of `torso`; `hint` itself when its elbow is already out, or when
/// no turn gets it out (then the torso's surface is nearest at none).
pub fn keep_out(hint: Vec3, arm: &ArmCircle, torso: &TorsoShape) -> Vec3 {
    let Some(axis) = direction(arm.hand - arm.shoulder) else {
        return hint;
    };
    let depth_at = |angle: f32| {
        let turned = arm.shoulder + Quat::from_axis_angle(axis, angle) * (hint - arm.shoulder);
        arm.elbow(turned).map_or(f32::INFINITY, |e| torso.depth(e))
    };
    if depth_at(0.0) >= 1.0 {
        return hint;
    }
    // Out the way the elbow already comes out: the side of the line its depth grows toward
    // (read from the elbow's place each frame, so it holds while the elbow moves smoothly).
    let nudge = 1f32.to_radians();
    let first = if depth_at(nudge) >= depth_at(-nudge) {
        1.0
    } else {
        -1.0
    };
    let step = STEP_DEG.to_radians();
    for sign in [first, -first] {
        for k in 1..=(180.0 / STEP_DEG) as usize {
            let far = step * k as f32;
            if depth_at(sign * far) < 1.0 {
                continue;
            }
            // The nearest angle out, within a 4000th of a step.
            let (_, angle) = crate::maths::smoothing::bisect(far - step, far, BISECTIONS, |a| {
                depth_at(sign * a) < 1.0
            });
            // An elbow deep in (the hand itself at or in the torso, reaching low in front of a
            // bent body) would swing far, and back as the hand moves on: it turns less the
            // further it would have to, and not at all from `FADE_TO_DEG`.
            let fade = 1.0
                - crate::maths::smoothing::inverse_lerp_clamped(
                    FADE_FROM_DEG.to_radians(),
                    FADE_TO_DEG.to_radians(),
                    angle,
                );
            let angle = angle * crate::maths::smoothing::smoothstep(fade);
            return arm.shoulder
                + Quat::from_axis_angle(axis, sign * angle) * (hint - arm.shoulder);
        }
    }
    hint
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arms::body_avoidance::{BodyAvoidanceSettings, Torso};
    use crate::maths::body_frame::BodyFrame;
    use crate::maths::pose::Pose;

    /// A thick-bodied avatar's torso (KayKit's mannequin: shoulders 53 cm apart at 1.39 m,
    /// facing +Z) and its right arm crossing in front of the belly, as the engine test poses it.
    fn kaykit() -> (TorsoShape, ArmCircle) {
        let body = BodyFrame::new(Pose::IDENTITY);
        let torso = Torso::from_shoulders(
            Vec3::new(0.266, 1.39, 0.0),
            Vec3::new(-0.266, 1.39, 0.0),
            &body,
        );
        let arm = ArmCircle {
            shoulder: Vec3::new(-0.266, 1.39, 0.0),
            hand: Vec3::new(0.158, 1.233, 0.315),
            upper: 0.304,
            lower: 0.327,
        };
        (
            TorsoShape::new(&torso, &BodyAvoidanceSettings::default()),
            arm,
        )
    }

    #[test]
    fn the_elbow_is_where_two_bone_ik_puts_it() {
        let (_, arm) = kaykit();
        let e = arm.elbow(Vec3::new(-0.1, 0.8, 0.1)).unwrap();
        assert!((e.distance(arm.shoulder) - arm.upper).abs() < 1e-4);
        assert!((e.distance(arm.hand) - arm.lower).abs() < 1e-4);
        // On the hint's side of the shoulder-to-hand line.
        assert!(e.y < 1.3, "{e}");
    }

    /// The forearm cue put the crossing arm's elbow 3 cm inside the belly (its depth 0.77 of
    /// the way out): turned about the shoulder-to-hand line it comes to the torso's surface,
    /// the least turn that does, and the hand's circle is unchanged.
    #[test]
    fn an_elbow_inside_the_torso_turns_out_to_its_surface() {
        let (torso, arm) = kaykit();
        let hint = Vec3::new(-0.08, 1.17, 0.1);
        let inside = arm.elbow(hint).unwrap();
        assert!(torso.depth(inside) < 0.9, "{}", torso.depth(inside));
        let out = keep_out(hint, &arm, &torso);
        let elbow = arm.elbow(out).unwrap();
        let depth = torso.depth(elbow);
        assert!((1.0..1.01).contains(&depth), "{depth} at {elbow}");
        assert!(elbow.z > inside.z, "forward, out of the belly: {elbow}");
        assert!((out.distance(arm.shoulder) - hint.distance(arm.shoulder)).abs() < 1e-5);
        // An elbow already out is left as it is.
        assert_eq!(
            keep_out(out + Vec3::new(0.0, 0.0, 0.2), &arm, &torso),
            out + Vec3::new(0.0, 0.0, 0.2)
        );
        // Nothing to keep out of: no torso (no span).
        let none = TorsoShape::new(
            &Torso::from_shoulders(Vec3::ZERO, Vec3::ZERO, &BodyFrame::new(Pose::IDENTITY)),
            &BodyAvoidanceSettings::default(),
        );
        assert_eq!(keep_out(hint, &arm, &none), hint);
    }

    /// Bones of no length or not finite have no elbow circle: no elbow, and the hint is kept
    /// (nothing panics).
    #[test]
    fn an_arm_without_length_has_no_elbow_and_keeps_its_hint() {
        let (torso, arm) = kaykit();
        let hint = Vec3::new(-0.08, 1.17, 0.1);
        for (upper, lower) in [
            (0.0, 0.3),
            (0.3, 0.0),
            (f32::NAN, 0.3),
            (0.3, f32::INFINITY),
        ] {
            let a = ArmCircle {
                upper,
                lower,
                ..arm
            };
            assert_eq!(a.elbow(hint), None, "{upper} {lower}");
            assert_eq!(keep_out(hint, &a, &torso), hint);
        }
    }

    #[test]
    fn depth_is_infinite_above_the_shoulders_and_below_the_torso() {
        let (torso, _) = kaykit();
        assert_eq!(torso.depth(Vec3::new(0.0, 1.45, 0.0)), f32::INFINITY);
        assert_eq!(torso.depth(Vec3::new(0.0, 0.2, 0.0)), f32::INFINITY);
        assert!(torso.depth(Vec3::new(0.0, 1.0, 0.0)) < 1e-6);
        assert_eq!(torso.depth(Vec3::NAN), f32::INFINITY);
    }

    /// An elbow deep in, the hand itself in the belly: the way its depth grows, no turn of up
    /// to 60 degrees gets it out, so it is left where it is (a turn that large would swing
    /// back as the hand moves on); one that needs between 30 and 60 degrees turns part of the
    /// way.
    #[test]
    fn an_elbow_deep_in_turns_less_and_from_60_degrees_not_at_all() {
        let (torso, mut arm) = kaykit();
        arm.hand = Vec3::new(0.0, 1.0, 0.05);
        let hint = Vec3::new(0.3, 1.2, 0.0);
        assert!(torso.depth(arm.elbow(hint).unwrap()) < 0.2);
        assert!(keep_out(hint, &arm, &torso).distance(hint) < 1e-4);
        arm.hand = Vec3::new(0.05, 0.95, 0.12);
        let before = torso.depth(arm.elbow(hint).unwrap());
        let after = torso.depth(arm.elbow(keep_out(hint, &arm, &torso)).unwrap());
        assert!(after > before + 0.2 && after < 0.9, "{before} -> {after}");
    }
}
