//! Property tests of the upper-body stages: every output finite for any input; the twist
//! distribution adds up.

use glam::{Quat, Vec3};
use proptest::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::body::body_follow::{BodyFollow, BodyFollowInput};
use vr_arms_core::maths::pose::Pose;
use vr_arms_core::upper_body::clavicle_follow::{ClavicleFollow, ClavicleFollowInput};
use vr_arms_core::upper_body::forearm_twist::{ForearmTwist, ForearmTwistInput};
use vr_arms_core::upper_body::upper_body_follow::{UpperBodyFollow, UpperBodyFollowInput};

fn wild() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -5.0f32..5.0,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(-1e9f32),
        1 => Just(0.0f32),
    ]
}

fn wild_vec() -> impl Strategy<Value = Vec3> {
    [wild(), wild(), wild()].prop_map(Vec3::from_array)
}

fn wild_quat() -> impl Strategy<Value = Quat> {
    [wild(), wild(), wild(), wild()].prop_map(|q| Quat::from_xyzw(q[0], q[1], q[2], q[3]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn body_follow_is_finite(head_p in wild_vec(), head_q in wild_quat(), l in wild_vec(), r in wild_vec(), floor in wild(), dt in wild()) {
        let mut b = BodyFollow::default();
        for _ in 0..3 {
            let out = b.update(Side::Left, &BodyFollowInput { head: Pose::new(head_p, head_q), left_hand: Some(l), right_hand: Some(r), left_grip: None, right_grip: None, floor_y: floor }, dt);
            prop_assert!(out.root.is_finite() && out.yaw.is_finite() && out.hands_weight.is_finite());
        }
    }

    #[test]
    fn upper_body_is_finite(body in wild_quat(), head in wild_quat(), parent in wild_quat(), a in wild_quat(), b in wild_quat()) {
        let input = UpperBodyFollowInput::chain(body, head, parent, [Some(a), None, Some(b)]);
        let out = UpperBodyFollow::default().update(Side::Left, &input, 0.0).local_rotations;
        for q in out.into_iter().flatten() {
            prop_assert!(q.is_finite() && (q.length() - 1.0).abs() < 1e-3);
        }
    }

    #[test]
    fn clavicle_is_finite(c in wild_vec(), cq in wild_quat(), pq in wild_quat(), s in wild_vec(), t in wild_vec(), len in wild(), up in wild_vec()) {
        let out = ClavicleFollow::default().update(Side::Left, &ClavicleFollowInput {
            clavicle_position: c, clavicle_rotation: cq, parent_rotation: pq, shoulder: s, target: t, arm_length: len, up,
        }, 0.0);
        prop_assert!(out.local_rotation.is_finite() && out.yaw.is_finite() && out.pitch.is_finite());
    }

    #[test]
    fn twist_is_finite(hand in wild_quat(), rest in wild_quat(), axis in wild_vec(), dt in wild()) {
        let mut t = ForearmTwist::default();
        let out = t.update(Side::Right, &ForearmTwistInput { hand_local: hand, hand_rest_local: rest, axis }, dt);
        prop_assert!(out.distributed.is_finite() && out.wrist_twist.is_finite());
    }

    /// Within the limits the distributed twist converges to the wrist's whole twist, and the wrist
    /// joint keeps only the share the forearm does not take.
    #[test]
    fn twist_distribution_sums_to_the_wrist_twist(angle in -1.5f32..1.5) {
        let mut t = ForearmTwist::default();
        let hand = Quat::from_rotation_y(angle);
        let mut out = t.update(Side::Left, &ForearmTwistInput { hand_local: hand, hand_rest_local: Quat::IDENTITY, axis: Vec3::Y }, 1.0 / 90.0);
        for _ in 0..90 {
            out = t.update(Side::Left, &ForearmTwistInput { hand_local: hand, hand_rest_local: Quat::IDENTITY, axis: Vec3::Y }, 1.0 / 90.0);
        }
        // Default shares: lower arm 0.5, so the wrist joint keeps the other half.
        prop_assert!((out.distributed - angle).abs() < 1e-3, "converged: {} vs {}", out.distributed, angle);
        prop_assert!((out.lower_arm + out.wrist_joint - angle).abs() < 1e-3, "shares sum to the twist");
        prop_assert!((out.wrist_joint - angle * 0.5).abs() < 1e-3, "wrist keeps half: {}", out.wrist_joint);
    }
}
