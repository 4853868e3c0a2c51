//! The palm frame: how a rig's hand bone sits in the hand a player sees, measured from the rest
//! pose, for any bone roll.
//!
//! Every target stage speaks of the hand in one frame, the same on every rig: the **palm frame**,
//! which is the controller's grip frame when the avatar's hand holds the controller as the
//! player's hand does (a handshake around the grip):
//!
//! | axis | points | on the hand |
//! |---|---|---|
//! | -Z | forward | along the fingers, wrist to the middle finger's knuckle |
//! | +Y | up | across the knuckles, little finger to index finger (the thumb's side) |
//! | +X | right | out of the left palm; out of the back of the right hand |
//!
//! So the left palm faces +X and the right palm faces -X, as the player's palms face a
//! controller held in each hand. A rig's hand bone has axes of its own (Godot's retargeted hands,
//! Mixamo's, VRM's and Unreal's all differ); [`HandRest::measure`] finds the rotation that turns
//! the palm frame into the bone's, from where the finger bones start in the rest pose. The arm
//! solve then writes `hand bone = palm frame x hand_from_palm`.
//!
//! All positions in one space (the skeleton's); only directions matter, so any scale works.

use glam::{Mat3, Quat, Vec3};

use crate::maths::finite::{direction, vec3_or};
use crate::maths::pose::Pose;
use crate::maths::side::Side;

/// Where one hand's bones start in the rest pose (skeleton space). Every finger is optional: a
/// rig without fingers still gets a palm frame, from the forearm and the rest pose's "palm
/// down".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandRest {
    pub side: Side,
    /// The hand bone's rest pose.
    pub hand: Pose,
    /// The forearm bone's rest position (the elbow).
    pub lower_arm: Vec3,
    /// The character's up in the same space.
    pub up: Vec3,
    /// The knuckles: where each finger's first phalanx starts (index, middle, ring, little).
    pub knuckles: [Option<Vec3>; 4],
    /// Where the thumb's first bone starts.
    pub thumb: Option<Vec3>,
}

/// What [`HandRest::measure`] finds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandFrame {
    /// The hand bone's rotation in the palm frame: `bone = palm x hand_from_palm`.
    pub hand_from_palm: Quat,
    /// The palm frame at rest (skeleton space).
    pub palm_at_rest: Quat,
    /// Which parts of the hand the frame was measured from.
    pub measured_from: MeasuredFrom,
}

/// Which bones a palm frame was measured from, most reliable first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeasuredFrom {
    /// The knuckle line (index to little or ring) and the fingers.
    Knuckles,
    /// The fingers and the thumb (a rig with one finger and a thumb).
    Thumb,
    /// No usable fingers: the forearm's line, the palm assumed to face down at rest (a T-pose).
    Forearm,
}

impl HandFrame {
    /// The palm's normal (the way the palm faces) at rest, in skeleton space.
    pub fn palm_normal_at_rest(&self, side: Side) -> Vec3 {
        self.palm_at_rest * (Vec3::X * side.sign())
    }

    /// The fingers' direction at rest (wrist to knuckles), skeleton space.
    pub fn fingers_at_rest(&self) -> Vec3 {
        self.palm_at_rest * Vec3::NEG_Z
    }
}

impl HandRest {
    /// The palm frame of this hand and the hand bone's rotation in it. Total: any input, even
    /// a degenerate one, gives a unit rotation.
    pub fn measure(&self) -> HandFrame {
        let hand = self.hand.position;
        let up = direction(vec3_or(self.up, Vec3::Y)).unwrap_or(Vec3::Y);
        let knuckles: Vec<Vec3> = self
            .knuckles
            .iter()
            .flatten()
            .copied()
            .filter(|k| k.is_finite())
            .collect();
        let forearm = direction(hand - self.lower_arm);
        let fingers = knuckles_centre(&knuckles)
            .and_then(|c| direction(c - hand))
            .or(forearm)
            .unwrap_or(Vec3::NEG_Y);
        // The thumb's side, across the fingers: the knuckle line from the farthest pair (index
        // or middle toward little or ring), else the thumb's root.
        let [index, middle, ring, little] = self.knuckles.map(|k| k.filter(|v| v.is_finite()));
        let line = match (index.or(middle), little.or(ring)) {
            (Some(a), Some(b)) => Some(a - b),
            _ => None,
        };
        let across = |v: Vec3| direction(v - fingers * v.dot(fingers));
        let by_knuckles = line.and_then(across);
        let by_thumb = self
            .thumb
            .filter(|t| t.is_finite())
            .and_then(|t| across(t - hand));
        let (thumb_side, measured_from) = match (by_knuckles, by_thumb) {
            (Some(s), _) => (s, MeasuredFrom::Knuckles),
            (None, Some(s)) => (s, MeasuredFrom::Thumb),
            (None, None) => {
                // Palm down at rest: X (out of the left palm, out of the right hand's back) is
                // down for the left hand and up for the right one.
                let x = across(-up * self.side.sign())
                    .or_else(|| across(Vec3::Z))
                    .unwrap_or_else(|| fingers.any_orthonormal_vector());
                (
                    direction((-fingers).cross(x)).unwrap_or(Vec3::Y),
                    MeasuredFrom::Forearm,
                )
            }
        };
        let z = -fingers;
        let y = thumb_side;
        let x = y.cross(z);
        let palm = Quat::from_mat3(&Mat3::from_cols(x, y, z)).normalize();
        let bone = crate::maths::finite::quat_or(self.hand.rotation, Quat::IDENTITY).normalize();
        HandFrame {
            hand_from_palm: (palm.inverse() * bone).normalize(),
            palm_at_rest: palm,
            measured_from,
        }
    }
}

/// The mean of the knuckles given, if any.
fn knuckles_centre(knuckles: &[Vec3]) -> Option<Vec3> {
    (!knuckles.is_empty()).then(|| knuckles.iter().sum::<Vec3>() / knuckles.len() as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A left or right hand at `wrist` whose fingers run along `fingers`, thumb side along
    /// `thumb_side`, with its bone rolled by `roll` (any rotation: the rig's own axes).
    fn hand(side: Side, fingers: Vec3, thumb_side: Vec3, roll: Quat) -> HandRest {
        let wrist = Vec3::new(0.6 * side.sign(), 1.4, 0.0);
        let f = fingers.normalize();
        let t = (thumb_side - f * thumb_side.dot(f)).normalize();
        let k = |along: f32, across: f32| Some(wrist + f * along + t * across);
        HandRest {
            side,
            hand: Pose::new(wrist, roll),
            lower_arm: wrist - f * 0.25,
            up: Vec3::Y,
            knuckles: [
                k(0.09, 0.025),
                k(0.095, 0.005),
                k(0.09, -0.012),
                k(0.08, -0.03),
            ],
            thumb: k(0.02, 0.03),
        }
    }

    /// Where a point fixed to the hand bone at rest goes when the palm frame is `palm`.
    fn posed(rest: &HandRest, frame: &HandFrame, palm: Quat, point: Vec3) -> Vec3 {
        let bone = palm * frame.hand_from_palm;
        bone * (rest.hand.rotation.inverse() * (point - rest.hand.position))
    }

    fn rolls() -> Vec<Quat> {
        vec![
            Quat::IDENTITY,
            Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            Quat::from_euler(glam::EulerRot::YXZ, 1.3, -0.4, 2.9),
            Quat::from_euler(glam::EulerRot::XYZ, -2.0, 0.7, -1.1),
            Quat::from_rotation_z(std::f32::consts::PI),
        ]
    }

    #[test]
    fn the_visible_hand_follows_the_palm_frame_for_any_bone_roll() {
        // T-pose, palms down: fingers outward, thumbs forward (+Z is the character's front).
        for side in Side::BOTH {
            for roll in rolls() {
                let rest = hand(side, Vec3::X * side.sign(), Vec3::Z, roll);
                let frame = rest.measure();
                assert_eq!(frame.measured_from, MeasuredFrom::Knuckles);
                // The controller held forward, level: palm frame = identity.
                let palm = Quat::from_euler(glam::EulerRot::YXZ, 0.4, -0.3, 0.2);
                let [index, middle, _, little] = rest.knuckles.map(Option::unwrap);
                let fingers = posed(&rest, &frame, palm, middle).normalize();
                let line = (posed(&rest, &frame, palm, index) - posed(&rest, &frame, palm, little))
                    .normalize();
                assert!(
                    fingers.angle_between(palm * Vec3::NEG_Z) < 0.2,
                    "{side:?} {roll:?}"
                );
                // The knuckle line is exactly across the direction of the mean knuckle.
                let centre = rest.knuckles.iter().flatten().sum::<Vec3>() / 4.0;
                let mean = posed(&rest, &frame, palm, centre).normalize();
                let across = (line - mean * line.dot(mean)).normalize();
                assert!(
                    across.angle_between(palm * Vec3::Y) < 1e-3,
                    "{side:?} {roll:?}"
                );
            }
        }
    }

    #[test]
    fn palms_face_down_in_a_t_pose_and_each_other_in_the_palm_frame() {
        for side in Side::BOTH {
            let rest = hand(side, Vec3::X * side.sign(), Vec3::Z, Quat::IDENTITY);
            let frame = rest.measure();
            assert!(
                frame.palm_normal_at_rest(side).distance(Vec3::NEG_Y) < 1e-4,
                "{side:?}"
            );
            assert!(frame.fingers_at_rest().angle_between(Vec3::X * side.sign()) < 0.2);
        }
    }

    #[test]
    fn a_rig_with_thumb_and_one_finger_uses_the_thumb() {
        let mut rest = hand(Side::Left, Vec3::X, Vec3::Z, Quat::from_rotation_y(0.7));
        rest.knuckles = [None, rest.knuckles[1], None, None];
        let frame = rest.measure();
        assert_eq!(frame.measured_from, MeasuredFrom::Thumb);
        assert!(
            frame
                .palm_normal_at_rest(Side::Left)
                .angle_between(Vec3::NEG_Y)
                < 1e-3
        );
    }

    #[test]
    fn a_rig_without_fingers_assumes_palms_down_along_the_forearm() {
        for side in Side::BOTH {
            let mut rest = hand(
                side,
                Vec3::X * side.sign(),
                Vec3::Z,
                Quat::from_rotation_x(1.0),
            );
            rest.knuckles = [None; 4];
            rest.thumb = None;
            let frame = rest.measure();
            assert_eq!(frame.measured_from, MeasuredFrom::Forearm);
            assert!(frame.palm_normal_at_rest(side).distance(Vec3::NEG_Y) < 1e-4);
            assert!(frame.fingers_at_rest().distance(Vec3::X * side.sign()) < 1e-4);
        }
    }

    #[test]
    fn a_z_up_skeleton_measures_the_same_hand() {
        // The same left hand in a skeleton space turned +90 degrees about X (Z up).
        let turn = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
        let rest = hand(Side::Left, Vec3::X, Vec3::Z, Quat::from_rotation_z(0.3));
        let mut turned = rest;
        turned.hand = Pose::new(turn * rest.hand.position, turn * rest.hand.rotation);
        turned.lower_arm = turn * rest.lower_arm;
        turned.up = turn * Vec3::Y;
        turned.knuckles = rest.knuckles.map(|k| k.map(|v| turn * v));
        turned.thumb = rest.thumb.map(|v| turn * v);
        let a = rest.measure().hand_from_palm;
        let b = turned.measure().hand_from_palm;
        assert!(a.angle_between(b) < 1e-4);
    }

    #[test]
    fn degenerate_hands_give_unit_rotations() {
        let rest = HandRest {
            side: Side::Right,
            hand: Pose::new(Vec3::NAN, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
            lower_arm: Vec3::INFINITY,
            up: Vec3::ZERO,
            knuckles: [Some(Vec3::NAN), Some(Vec3::ZERO), Some(Vec3::ZERO), None],
            thumb: Some(Vec3::ZERO),
        };
        let f = rest.measure();
        assert!(f.hand_from_palm.is_finite() && f.hand_from_palm.is_normalized());
        assert!(f.palm_at_rest.is_finite() && f.palm_at_rest.is_normalized());
    }
}
