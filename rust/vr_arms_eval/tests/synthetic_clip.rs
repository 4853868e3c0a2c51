//! The evaluation on a short synthetic clip written here: a perfect input reaches the hands,
//! and the baselines give different elbows than ours.

mod common;

use common::synthetic_bvh;
use vr_arms_eval::bvh::Bvh;
use vr_arms_eval::clip::Clip;
use vr_arms_eval::eval::{EvalOptions, evaluate_clip, mean};

#[test]
fn perfect_input_reaches_the_hands_and_baselines_differ() {
    let bvh = Bvh::parse(&synthetic_bvh(180)).expect("parses");
    let clip = Clip::from_bvh("synthetic".into(), bvh).expect("a Daz-family clip");
    assert_eq!(clip.frame_count(), 180);
    let result = evaluate_clip(&clip, &EvalOptions::default());
    let get = |method: &str, mode: &str| {
        &result
            .rows
            .iter()
            .find(|(a, b, _)| a == method && b == mode)
            .expect("row")
            .2
    };
    let ours = get("ours", "arm-only");
    assert!(
        ours.hand_unreachable_cm.is_empty(),
        "every wrist is within reach"
    );
    assert!(!ours.hand_reachable_cm.is_empty());
    let hand = mean(&ours.hand_reachable_cm);
    assert!(hand < 0.1, "perfect input: hand error {hand} cm");
    let elbow_ours = mean(&ours.elbow_cm);
    let elbow_pole = mean(&get("fixed_pole", "arm-only").elbow_cm);
    let elbow_lookat = mean(&get("lookat", "arm-only").elbow_cm);
    assert!(
        (elbow_ours - elbow_pole).abs() > 0.1,
        "fixed pole differs: {elbow_ours} vs {elbow_pole}"
    );
    assert!(
        (elbow_ours - elbow_lookat).abs() > 0.01,
        "lookat differs: {elbow_ours} vs {elbow_lookat}"
    );
    assert!(elbow_ours.is_finite() && get("ours", "full").frames > 0);
}

#[test]
fn the_simulated_hand_points_along_the_hands_rest_long_axis() {
    // The left hand's rest offset tilted down and forward, as on the Daz figure.
    let text = synthetic_bvh(10).replacen("OFFSET 23.7 0 0", "OFFSET 23.7 -4 2", 1);
    let bvh = Bvh::parse(&text).expect("parses");
    let clip = Clip::from_bvh("tilted".into(), bvh).expect("a Daz-family clip");
    let hand_joint = clip.bvh.joint("lHand").unwrap();
    let long_axis = glam::Vec3::new(23.7, -4.0, 2.0).normalize();
    for k in [0, 5] {
        let rot = clip.bvh.pose(k + clip.read.first_frame, clip.unit_m())[hand_joint].1;
        let forward = clip.frame(k).hand.left * glam::Vec3::Y;
        assert!(
            forward.distance(rot * long_axis) < 1e-5,
            "frame {k}: {forward}"
        );
    }
}

#[test]
fn a_pure_head_yaw_offset_is_that_chest_yaw_error_for_the_headset_only_torso() {
    // The head turned 30 degrees about Y from the (still) chest on every frame after the T-pose.
    let text = synthetic_bvh(60);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let motion = lines
        .iter()
        .position(|l| l.starts_with("Frame Time"))
        .unwrap();
    // Channels: hip 6, abdomen 3, chest 3, neck 3, then head Z X Y: head Y is value 17.
    for line in lines.iter_mut().skip(motion + 2) {
        let mut v: Vec<String> = line.split(' ').map(str::to_string).collect();
        v[17] = "30".into();
        *line = v.join(" ");
    }
    let bvh = Bvh::parse(&(lines.join("\n") + "\n")).expect("parses");
    let clip = Clip::from_bvh("turned".into(), bvh).expect("a Daz-family clip");
    let result = evaluate_clip(&clip, &EvalOptions::default());
    let (_, _, headset_only) = result
        .rows
        .iter()
        .find(|(a, _, _)| a == "headset_only_torso")
        .expect("row");
    let err = mean(&headset_only.chest_yaw_deg);
    assert!((err - 30.0).abs() < 0.01, "{err}");
}
