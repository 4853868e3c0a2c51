//! The synthetic clip the evaluation's tests share, and the everyday capture they load.

use std::path::PathBuf;

use vr_arms_eval::clip::Clip;

/// The clip `name` of `../shared/mocap/everyday/` (motion capture kept outside the repository:
/// a test that needs it fails, not skips, without it).
#[allow(dead_code)]
pub fn everyday_clip(name: &str) -> Clip {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/mocap/everyday")
        .join(name);
    Clip::load(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the motion capture beside the repository)",
            path.display()
        )
    })
}

/// A Daz-family skeleton (centimetres, ZXY channels) whose arms swing in front of the body with
/// the elbows and wrists bent, below the shoulders: every wrist is within reach.
#[allow(dead_code)]
pub fn synthetic_bvh(frames: usize) -> String {
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
