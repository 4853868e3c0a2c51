//! The evaluation on a short synthetic clip written here: a perfect input reaches the hands,
//! and the baselines give different elbows than ours.

use vr_arms_eval::bvh::Bvh;
use vr_arms_eval::clip::Clip;
use vr_arms_eval::eval::{EvalOptions, evaluate_clip, mean};

/// A Daz-family skeleton (centimetres, ZXY channels) whose arms swing in front of the body with
/// the elbows and wrists bent, below the shoulders: every wrist is within reach.
fn synthetic_bvh(frames: usize) -> String {
    let mut s = String::from(
        "HIERARCHY\nROOT hip\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n",
    );
    let joint = |name: &str, offset: &str, inner: &str| {
        format!(
            " JOINT {name}\n {{\n OFFSET {offset}\n CHANNELS 3 Zrotation Xrotation Yrotation\n{inner} }}\n"
        )
    };
    let end = " End Site\n {\n OFFSET 0 5 0\n }\n";
    let arm = |p: &str, sx: f32| {
        joint(
            &format!("{p}Collar"),
            &format!("{} 19 0", 3.0 * sx),
            &joint(
                &format!("{p}Shldr"),
                &format!("{} 0 0", 12.0 * sx),
                &joint(
                    &format!("{p}ForeArm"),
                    &format!("{} 0 0", 28.2 * sx),
                    &joint(&format!("{p}Hand"), &format!("{} 0 0", 23.7 * sx), end),
                ),
            ),
        )
    };
    let eyes = joint("leftEye", "3 8 8", end) + &joint("rightEye", "-3 8 8", end);
    let head = joint("head", "0 8 1", &eyes);
    let neck = joint("neck", "0 20 0", &head);
    let chest = joint(
        "chest",
        "0 12 0",
        &(neck + &arm("l", 1.0) + &arm("r", -1.0)),
    );
    s.push_str(&joint("abdomen", "0 20 0", &chest));
    s.push_str("}\nMOTION\n");
    s.push_str(&format!("Frames: {}\nFrame Time: 0.0111111\n", frames + 1));
    // Channel order: hip(6) abdomen chest neck head leftEye rightEye lCollar lShldr lForeArm lHand rCollar ...
    for f in 0..=frames {
        let t = f as f32 / 90.0;
        let mut row = [0.0f32; 6 + 3 * 14];
        row[1] = 95.0;
        if f > 0 {
            // Shoulder: arm down-forward (Z rot lowers the T-pose arm, Y rot swings it forward).
            let swing = 40.0 + 15.0 * (t * 2.0).sin();
            let l_shldr = 6 + 3 * 7; // after abdomen, chest, neck, head, 2 eyes, lCollar
            row[l_shldr] = -50.0; // Z
            row[l_shldr + 2] = -swing; // Y
            row[l_shldr + 3 + 2] = -70.0 - 10.0 * (t * 3.0).cos(); // forearm Y bend
            // A bent wrist: the hand is not in line with the forearm.
            row[l_shldr + 6] = 30.0 * (t * 2.5).sin();
            let r_shldr = l_shldr + 3 * 4;
            row[r_shldr + 6] = -30.0 * (t * 2.0).cos();
            row[r_shldr] = 50.0;
            row[r_shldr + 2] = swing;
            row[r_shldr + 3 + 2] = 70.0 + 10.0 * (t * 3.0).sin();
        }
        let line: Vec<String> = row.iter().map(|v| format!("{v}")).collect();
        s.push_str(&line.join(" "));
        s.push('\n');
    }
    s
}

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
        let rot = clip.bvh.pose(k + clip.first_frame, clip.unit_m)[hand_joint].1;
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
