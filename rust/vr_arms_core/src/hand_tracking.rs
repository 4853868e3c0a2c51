//! Fingers from optical hand tracking (OpenXR `XR_EXT_hand_tracking`, Godot's `XRHandTracker`):
//! the 26 tracked joint positions turned into local rotations of the avatar's 15 finger bones
//! (`hand_pose::finger_bones` order), and a fade between them and the controller-driven poses
//! when tracking starts or stops.
//!
//! Only directions are used, so a tracked hand of another size fits any rig, and the rig's axis
//! conventions do not matter: both the tracked and the rest hand are read in a palm frame built
//! from the same four points (wrist, index, middle and little proximal knuckles). Each finger bone
//! is swung from its rest direction (toward its child) onto the tracked direction of the same
//! segment; its roll stays the rest's.

use glam::{Mat3, Quat, Vec3};

use crate::finite::direction;

/// OpenXR hand joints (`XrHandJointEXT`, Godot's `XRHandTracker.HandJoint`).
pub const JOINT_COUNT: usize = 26;
pub(crate) const WRIST: usize = 1;
pub(crate) const INDEX_PROXIMAL: usize = 7;
pub(crate) const MIDDLE_PROXIMAL: usize = 12;
pub(crate) const LITTLE_PROXIMAL: usize = 22;

/// For each finger bone (`finger_bones` order): the tracked joint it starts at and the joint it
/// ends at (its child's start, or the fingertip).
pub const BONE_JOINTS: [(usize, usize); 15] = [
    (2, 3),
    (3, 4),
    (4, 5),
    (7, 8),
    (8, 9),
    (9, 10),
    (12, 13),
    (13, 14),
    (14, 15),
    (17, 18),
    (18, 19),
    (19, 20),
    (22, 23),
    (23, 24),
    (24, 25),
];

/// One finger bone of the rig at rest, in the hand bone's rest frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FingerRest {
    /// The bone's rest rotation relative to the hand bone.
    pub rotation_in_hand: Quat,
    /// Unit direction of the bone toward its child (or along the finger for a tip bone).
    pub direction_in_hand: Vec3,
    /// The parent: `Some(k)` the finger bone `k`, `None` a bone that stays at rest (the hand
    /// itself, or a metacarpal the profile does not name).
    pub parent: Option<usize>,
    /// For a parent that stays at rest (`parent: None`), its rotation relative to the hand.
    pub parent_rest_in_hand: Quat,
}

/// A rig's hand at rest: its finger bones (those it has) and its palm frame.
#[derive(Clone, Debug, PartialEq)]
pub struct HandRest {
    pub fingers: [Option<FingerRest>; 15],
    /// Rig palm frame in the hand's rest frame (columns: forward, across, normal).
    palm: Mat3,
}

impl HandRest {
    /// From the rig's rest: the wrist and the index, middle and little proximal knuckles'
    /// positions in the hand's rest frame, and the finger bones. `None` when the four points do
    /// not make a palm (missing bones, or all in a line).
    pub fn new(
        wrist: Vec3,
        index: Vec3,
        middle: Vec3,
        little: Vec3,
        fingers: [Option<FingerRest>; 15],
    ) -> Option<Self> {
        Some(Self {
            fingers,
            palm: palm_frame(wrist, index, middle, little)?,
        })
    }

    /// The local rotation of each finger bone that matches the tracked joint positions (any
    /// one frame: tracker space, world), or `None` when the palm's joints do not make a palm.
    /// A bone whose segment is degenerate keeps its rest rotation.
    pub fn pose(&self, joints: &[Vec3; JOINT_COUNT]) -> Option<[Option<Quat>; 15]> {
        if !joints.iter().all(|j| j.is_finite()) {
            return None;
        }
        let tracked = palm_frame(
            joints[WRIST],
            joints[INDEX_PROXIMAL],
            joints[MIDDLE_PROXIMAL],
            joints[LITTLE_PROXIMAL],
        )?;
        // Tracked vectors into the rig's hand frame.
        let to_rig = self.palm * tracked.transpose();
        let mut in_hand = [None::<Quat>; 15];
        let mut out = [None; 15];
        for (k, rest) in self.fingers.iter().enumerate() {
            let Some(rest) = rest else { continue };
            let (from, to) = BONE_JOINTS[k];
            // The parent's turn from its rest carries this bone along; what is left is a small
            // swing from there onto the tracked segment (a fist's fingertip points back, which
            // an arc from the rest direction could not tell from any other half turn).
            let (parent, parent_rest) = match rest.parent.and_then(|p| Some((p, self.fingers[p]?)))
            {
                Some((p, parent_rest)) => (
                    in_hand[p].unwrap_or(parent_rest.rotation_in_hand),
                    parent_rest.rotation_in_hand,
                ),
                None => (rest.parent_rest_in_hand, rest.parent_rest_in_hand),
            };
            let carried = parent * parent_rest.inverse();
            let carried_rotation = carried * rest.rotation_in_hand;
            let rotation = match direction(to_rig * (joints[to] - joints[from])) {
                Some(d) => {
                    Quat::from_rotation_arc(carried * rest.direction_in_hand, d) * carried_rotation
                }
                None => carried_rotation,
            };
            in_hand[k] = Some(rotation);
            out[k] = Some((parent.inverse() * rotation).normalize());
        }
        Some(out)
    }
}

/// Orthonormal palm frame from four points: forward (wrist to middle knuckle), across (index to
/// little knuckle, made square to forward), normal.
pub(crate) fn palm_frame(wrist: Vec3, index: Vec3, middle: Vec3, little: Vec3) -> Option<Mat3> {
    let forward = direction(middle - wrist)?;
    let across = direction((little - index).reject_from_normalized(forward))?;
    Some(Mat3::from_cols(forward, across, forward.cross(across)))
}

/// How much of the tracked pose shows: 0 to 1 in `fade_s` once tracking starts, back to 0 in the
/// same time when it stops.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrackingFade {
    pub weight: f32,
}

impl TrackingFade {
    pub fn update(&mut self, tracking: bool, fade_s: f32, dt: f32) -> f32 {
        let step = if fade_s > 0.0 && fade_s.is_finite() {
            (dt / fade_s).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let step = if step.is_finite() { step } else { 0.0 };
        let target = if tracking { 1.0 } else { 0.0 };
        self.weight += (target - self.weight).clamp(-step, step);
        self.weight
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    /// A flat rig hand along +X (a left hand in a T-pose: palm down, fingers +X, thumb toward
    /// +Z), each finger bone's rest rotation identity, three bones per finger 3 cm long.
    fn rig() -> HandRest {
        let mut fingers = [None; 15];
        for (k, f) in fingers.iter_mut().enumerate() {
            *f = Some(FingerRest {
                rotation_in_hand: Quat::IDENTITY,
                direction_in_hand: Vec3::X,
                parent: if k % 3 == 0 { None } else { Some(k - 1) },
                parent_rest_in_hand: Quat::IDENTITY,
            });
        }
        HandRest::new(
            Vec3::ZERO,
            Vec3::new(0.08, 0.0, 0.03),
            Vec3::new(0.085, 0.0, 0.01),
            Vec3::new(0.08, 0.0, -0.03),
            fingers,
        )
        .unwrap()
    }

    /// Tracked joints of a left hand laid along -Z in tracker space (OpenXR's forward), palm
    /// down, thumb side toward +X, with the index curled by `curl` at each of its three joints.
    fn tracked(curl: f32) -> [Vec3; JOINT_COUNT] {
        // Rig frame (x fwd, z index side) -> tracker frame (-z fwd, +x index side): a rotation.
        let map = |v: Vec3| Vec3::new(v.z, v.y, -v.x);
        let mut j = [Vec3::ZERO; JOINT_COUNT];
        let knuckles = [
            (2, 0.03, 0.05),
            (7, 0.08, 0.03),
            (12, 0.085, 0.01),
            (17, 0.08, -0.01),
            (22, 0.075, -0.03),
        ];
        for (base, x, z) in knuckles {
            let curl_here = if base == 7 { curl } else { 0.0 };
            let mut p = Vec3::new(x, 0.0, z);
            let mut dir = Vec3::X;
            j[base] = map(p);
            for step in 1..=3 {
                dir = Quat::from_rotation_z(-curl_here) * dir;
                p += dir * 0.03;
                j[base + step] = map(p);
            }
        }
        j[6] = map(Vec3::new(0.02, 0.0, 0.02));
        j
    }

    #[test]
    fn a_flat_tracked_hand_gives_the_rest_pose_whatever_its_frame() {
        let pose = rig().pose(&tracked(0.0)).unwrap();
        for q in pose.iter().flatten() {
            assert!(q.angle_between(Quat::IDENTITY) < 1e-3, "{q:?}");
        }
    }

    #[test]
    fn a_curled_index_curls_each_index_joint_alone() {
        let pose = rig().pose(&tracked(FRAC_PI_2 / 1.5)).unwrap();
        for (k, q) in pose.iter().enumerate() {
            let angle = q.unwrap().angle_between(Quat::IDENTITY);
            let want = if (3..6).contains(&k) {
                FRAC_PI_2 / 1.5
            } else {
                0.0
            };
            assert!((angle - want).abs() < 1e-3, "bone {k}: {angle} vs {want}");
        }
        // Toward the palm (-Y in the rig): the proximal bone's direction turns down.
        let down = pose[3].unwrap() * Vec3::X;
        assert!(down.y < -0.8, "{down:?}");
    }

    #[test]
    fn non_finite_or_flat_palm_joints_give_nothing() {
        let mut j = tracked(0.0);
        j[4].x = f32::NAN;
        assert_eq!(rig().pose(&j), None);
        assert_eq!(rig().pose(&[Vec3::ZERO; JOINT_COUNT]), None);
    }

    #[test]
    fn the_fade_takes_its_time_both_ways() {
        let mut f = TrackingFade::default();
        for _ in 0..9 {
            f.update(true, 0.1, 0.01);
        }
        assert!((f.weight - 0.9).abs() < 1e-4);
        assert_eq!(f.update(true, 0.1, 0.05), 1.0);
        f.update(false, 0.1, 0.05);
        assert!((f.weight - 0.5).abs() < 1e-4);
        assert_eq!(f.update(false, 0.0, 0.01), 0.0, "no fade time: at once");
        assert_eq!(f.update(true, 0.1, f32::NAN), 0.0, "a bad dt moves nothing");
    }
}
