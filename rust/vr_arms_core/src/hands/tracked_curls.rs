//! How far each finger of a hand-tracked hand is curled, as one number per finger: what a
//! network packet carries (`net::state_packet`, four bits a finger) so that another player's
//! avatar curls its fingers as the tracked hand does, without the 26 joints.
//!
//! A finger's curl is the mean bend of its joints (the angle between one segment and the next,
//! from the metacarpal to the tip: three joints for a finger, two for the thumb) divided by the
//! bend per joint of a full curl in the default hand-pose settings (75 degrees for the middle,
//! ring and little fingers, 70 for the index, 30 for the thumb), clamped to 0..1. A receiver with
//! those settings bends each joint of its finger by the tracked mean; other settings scale it.
//! A finger's bend is measured about the palm's side-to-side axis (wrist and knuckles, as
//! `hand_tracking` builds it), toward the palm: spreading the fingers apart bends nothing, and
//! bending back counts against the curl. The thumb, which does not curl about that axis, counts
//! its whole angle at each joint. Only angles count, so the hand's size and frame do not matter.

use glam::Vec3;

use crate::hands::hand_pose::HandPoseSettings;
use crate::hands::hand_tracking::{
    INDEX_PROXIMAL, JOINT_COUNT, LITTLE_PROXIMAL, MIDDLE_PROXIMAL, WRIST, palm_frame,
};
use crate::maths::finite::direction;
use crate::maths::side::Side;

/// Per finger (thumb, index, middle, ring, little): its first joint (the metacarpal) and how many
/// joints follow it to the tip.
const FINGERS: [(usize, usize); 5] = [(2, 3), (6, 4), (11, 4), (16, 4), (21, 4)];

/// The curl of each finger (thumb, index, middle, ring, little; 0 straight, 1 a full curl) from
/// the 26 tracked joint positions (OpenXR order, any frame) of the `side` hand. `None` when a
/// joint is not finite or the wrist and knuckles make no palm. A segment of no length bends
/// nothing.
pub fn tracked_finger_curls(joints: &[Vec3; JOINT_COUNT], side: Side) -> Option<[f32; 5]> {
    if !joints.iter().all(|j| j.is_finite()) {
        return None;
    }
    let palm = palm_frame(
        joints[WRIST],
        joints[INDEX_PROXIMAL],
        joints[MIDDLE_PROXIMAL],
        joints[LITTLE_PROXIMAL],
    )?;
    // Curling turns the fingers from forward toward the palm: about the across axis (index to
    // little) on a left hand, against it on a right one.
    let across = palm.y_axis;
    let curl_axis = match side {
        Side::Left => across,
        Side::Right => -across,
    };
    let full = HandPoseSettings::default();
    let full_deg = [
        full.thumb_curl_deg,
        full.trigger_curl_deg,
        full.grip_curl_deg,
        full.grip_curl_deg,
        full.grip_curl_deg,
    ];
    Some(std::array::from_fn(|f| {
        let (first, following) = FINGERS[f];
        let segments: Vec<Option<Vec3>> = (first..first + following)
            .map(|j| direction(joints[j + 1] - joints[j]))
            .collect();
        let bends = segments.windows(2).map(|pair| match (pair[0], pair[1]) {
            (Some(a), Some(b)) if f == 0 => a.angle_between(b),
            (Some(a), Some(b)) => {
                // In the plane the finger curls in, signed toward the palm.
                let (a, b) = (a.reject_from(curl_axis), b.reject_from(curl_axis));
                a.cross(b).dot(curl_axis).atan2(a.dot(b))
            }
            _ => 0.0,
        });
        let joints_bent = (following - 1) as f32;
        let mean_deg = bends.sum::<f32>().to_degrees() / joints_bent;
        (mean_deg / full_deg[f]).clamp(0.0, 1.0)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    /// A right hand along -Z (palm down, the index toward -X), each finger's segments 3 cm long,
    /// every joint of finger `f` bent toward the palm by `bend[f]` degrees.
    fn hand(bend: [f32; 5]) -> [Vec3; JOINT_COUNT] {
        spread_hand(bend, 0.0)
    }

    /// [hand], with the fingers also turned sideways (toward +X) by `spread` degrees at each
    /// joint.
    fn spread_hand(bend: [f32; 5], spread: f32) -> [Vec3; JOINT_COUNT] {
        let mut j = [Vec3::ZERO; JOINT_COUNT];
        for (f, (first, following)) in FINGERS.into_iter().enumerate() {
            let mut p = Vec3::new(0.02 * f as f32 - 0.04, 0.0, -0.02);
            let mut dir = Vec3::NEG_Z;
            j[first] = p;
            for k in 1..=following {
                // The metacarpal runs straight along the palm; each joint after it bends.
                if k > 1 {
                    dir = Quat::from_rotation_x(-bend[f].to_radians())
                        * Quat::from_rotation_y(-spread.to_radians())
                        * dir;
                }
                p += dir * 0.03;
                j[first + k] = p;
            }
        }
        j
    }

    fn close(a: [f32; 5], b: [f32; 5]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-3)
    }

    #[test]
    fn a_flat_hand_is_uncurled_and_a_fist_is_fully_curled() {
        let flat = tracked_finger_curls(&hand([0.0; 5]), Side::Right).unwrap();
        assert!(close(flat, [0.0; 5]), "{flat:?}");
        let fist = tracked_finger_curls(&hand([90.0; 5]), Side::Right).unwrap();
        assert!(close(fist, [1.0; 5]), "{fist:?}");
    }

    #[test]
    fn each_finger_is_its_mean_bend_over_its_full_curl() {
        // Half of each finger's full curl per joint: thumb 30, index 70, the rest 75 degrees.
        let c = tracked_finger_curls(&hand([15.0, 35.0, 37.5, 0.0, 60.0]), Side::Right).unwrap();
        assert!(close(c, [0.5, 0.5, 0.5, 0.0, 0.8]), "{c:?}");
    }

    #[test]
    fn the_hands_frame_and_size_do_not_matter() {
        let a = hand([10.0, 20.0, 30.0, 40.0, 50.0]);
        let turn = Quat::from_euler(glam::EulerRot::YXZ, 1.0, -0.4, 2.0);
        let b = a.map(|p| turn * (p * 1.3) + Vec3::new(4.0, 1.0, -2.0));
        let (ca, cb) = (
            tracked_finger_curls(&a, Side::Right).unwrap(),
            tracked_finger_curls(&b, Side::Right).unwrap(),
        );
        assert!(close(ca, cb), "{ca:?} vs {cb:?}");
        assert!(ca[4] > 0.6, "{ca:?}");
    }

    #[test]
    fn spreading_bends_nothing_bending_back_counts_against_and_a_left_hand_reads_the_same() {
        // Turned 20 degrees sideways at every joint (an unsigned angle would read 20/75).
        let spread = tracked_finger_curls(&spread_hand([0.0; 5], 20.0), Side::Right).unwrap();
        assert!(spread[1..].iter().all(|c| c.abs() < 1e-4), "{spread:?}");
        // The thumb, measured whole, takes it as curl: 20 of its 30 degrees.
        assert!((spread[0] - 2.0 / 3.0).abs() < 1e-3, "{spread:?}");
        // Bent back 20 degrees at each joint: no curl.
        let back = tracked_finger_curls(&hand([0.0, -20.0, -20.0, 0.0, 0.0]), Side::Right).unwrap();
        assert_eq!(&back[1..3], &[0.0, 0.0]);
        // The mirror image is a left hand with the same curls; read as a right hand, it bends
        // the wrong way.
        let mirrored = hand([10.0, 20.0, 30.0, 40.0, 50.0]).map(|p| p * Vec3::new(-1.0, 1.0, 1.0));
        let left = tracked_finger_curls(&mirrored, Side::Left).unwrap();
        let right =
            tracked_finger_curls(&hand([10.0, 20.0, 30.0, 40.0, 50.0]), Side::Right).unwrap();
        assert!(close(left, right), "{left:?} vs {right:?}");
        let wrong = tracked_finger_curls(&mirrored, Side::Right).unwrap();
        assert_eq!(wrong[2], 0.0);
    }

    #[test]
    fn non_finite_joints_give_nothing_and_a_collapsed_segment_bends_nothing() {
        let mut j = hand([0.0; 5]);
        j[13].y = f32::INFINITY;
        assert_eq!(tracked_finger_curls(&j, Side::Right), None);
        let mut j = hand([45.0; 5]);
        // The index's intermediate joint on its proximal one: the bends at both ends of the
        // collapsed segment vanish, and the segment after it now runs from the proximal joint
        // (at 67.5 degrees, between its two neighbours' 45 and 90), so the last bend is 67.5.
        j[8] = j[7];
        let c = tracked_finger_curls(&j, Side::Right).unwrap();
        assert!((c[1] - 67.5 / 3.0 / 70.0).abs() < 1e-3, "{c:?}");
        assert!(c.iter().all(|x| x.is_finite()));
    }
}
