//! The evaluation reads any humanoid BVH: the same motion written with another naming, in
//! another unit, with another up axis and without its T-pose frame gives the same tracking and
//! truth; a skeleton it cannot read gets one error naming what it lacks.

mod common;

use common::synthetic_bvh;
use glam::Vec3;
use vr_arms_core::rig_names::RigFamily;
use vr_arms_eval::bvh::Bvh;
use vr_arms_eval::clip::{Clip, Frame};
use vr_arms_eval::clip_rest::RestSource;

const CC_NAMES: [(&str, &str); 13] = [
    ("hip", "CC_Base_Hip"),
    ("abdomen", "CC_Base_Spine01"),
    ("chest", "CC_Base_Spine02"),
    ("neck", "CC_Base_NeckTwist01"),
    ("head", "CC_Base_Head"),
    ("leftEye", "CC_Base_L_Eye"),
    ("rightEye", "CC_Base_R_Eye"),
    ("lCollar", "CC_Base_L_Clavicle"),
    ("lShldr", "CC_Base_L_Upperarm"),
    ("lForeArm", "CC_Base_L_Forearm"),
    ("lHand", "CC_Base_L_Hand"),
    ("rCollar", "CC_Base_R_Clavicle"),
    ("rShldr", "CC_Base_R_Upperarm"),
];

/// The synthetic clip as another tool would write it: Character Creator's names, metres, Z up
/// (a root joint turns the Y-up body upright, as CC's `RL_BoneRoot` does), and no T-pose frame.
fn rewritten(frames: usize) -> String {
    let text = synthetic_bvh(frames);
    let mut out = String::new();
    let mut in_motion = false;
    let mut rows = 0;
    for line in text.lines() {
        let t = line.trim();
        if t == "MOTION" {
            out += "}\nMOTION\n";
            in_motion = true;
            continue;
        }
        if !in_motion {
            let line = if let Some(v) = t.strip_prefix("OFFSET ") {
                let v: Vec<f32> = v.split_whitespace().map(|x| x.parse().unwrap()).collect();
                format!("OFFSET {} {} {}", v[0] * 0.01, v[1] * 0.01, v[2] * 0.01)
            } else if t == "ROOT hip" {
                "ROOT RL_BoneRoot\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\nJOINT CC_Base_Hip"
                    .to_string()
            } else {
                t.to_string()
            };
            let line = match line.split_once(' ') {
                Some((kw @ ("JOINT" | "ROOT"), name)) => {
                    let name = CC_NAMES
                        .iter()
                        .find(|(old, _)| *old == name)
                        .map_or(name.to_string(), |(_, new)| new.to_string());
                    // The rest of the right arm.
                    let name = name.replace("rForeArm", "CC_Base_R_Forearm");
                    let name = name.replace("rHand", "CC_Base_R_Hand");
                    format!("{kw} {name}")
                }
                _ => line,
            };
            out += &line;
            out.push('\n');
            continue;
        }
        if t.starts_with("Frame") || t.is_empty() {
            out += t;
            out.push('\n');
            continue;
        }
        rows += 1;
        if rows == 1 {
            continue; // the T-pose frame is left out
        }
        let v: Vec<f32> = t.split_whitespace().map(|x| x.parse().unwrap()).collect();
        let mut row = vec![90.0, 0.0, 0.0];
        row.extend(
            v.iter()
                .enumerate()
                .map(|(i, x)| if i < 3 { x * 0.01 } else { *x }),
        );
        let row: Vec<String> = row.iter().map(|x| format!("{x}")).collect();
        out += &row.join(" ");
        out.push('\n');
    }
    out
}

fn close(a: Vec3, b: Vec3, what: &str) {
    assert!(a.distance(b) < 1e-4, "{what}: {a} vs {b}");
}

fn same_frames(a: &Frame, b: &Frame, k: usize) {
    close(
        a.headset.position,
        b.headset.position,
        &format!("headset {k}"),
    );
    assert!(
        a.headset.rotation.angle_between(b.headset.rotation) < 1e-3,
        "headset turn {k}"
    );
    for side in [vr_arms_core::Side::Left, vr_arms_core::Side::Right] {
        let (ca, cb) = (a.controllers.get(side), b.controllers.get(side));
        close(
            ca.position,
            cb.position,
            &format!("controller {side:?} {k}"),
        );
        assert!(
            ca.rotation.angle_between(cb.rotation) < 1e-3,
            "controller {side:?} {k}"
        );
        close(
            *a.elbow.get(side),
            *b.elbow.get(side),
            &format!("elbow {side:?} {k}"),
        );
        let (qa, qb) = (a.clavicle.get(side).rotation, b.clavicle.get(side).rotation);
        assert!(qa.angle_between(qb) < 1e-3, "clavicle {side:?} {k}");
    }
    assert!(
        a.chest.rotation.angle_between(b.chest.rotation) < 1e-3,
        "chest {k}"
    );
}

#[test]
fn another_naming_unit_up_axis_and_no_t_pose_read_as_the_same_motion() {
    let frames = 40;
    let daz = Clip::from_bvh("daz".into(), Bvh::parse(&synthetic_bvh(frames)).unwrap()).unwrap();
    let text = rewritten(frames);
    let cc = Clip::from_bvh(
        "cc".into(),
        Bvh::parse(&text).expect("the rewritten file parses"),
    )
    .expect("read");
    assert_eq!(daz.naming, RigFamily::Daz);
    assert_eq!(cc.naming, RigFamily::CharacterCreator);
    assert_eq!((daz.unit_m(), cc.unit_m()), (0.01, 1.0));
    assert_eq!((daz.read.first_frame, cc.read.first_frame), (1, 0));
    assert_eq!(daz.frame_count(), cc.frame_count());
    // The rest is the skeleton's own T-pose in both (the root's turn is zero there).
    assert_eq!(cc.rest_source(), RestSource::SkeletonTPose);
    // The file's world is Z up; read upright it is the same.
    assert!((cc.read.upright * Vec3::Z).distance(Vec3::Y) < 1e-6);
    for k in [0, 7, 39] {
        same_frames(&daz.frame(k), &cc.frame(k), k);
    }
    let (a, b) = (daz.rest_arms(), cc.rest_arms());
    for side in [vr_arms_core::Side::Left, vr_arms_core::Side::Right] {
        close(
            a.get(side).hand.position,
            b.get(side).hand.position,
            "rest hand",
        );
    }
}

#[test]
fn a_skeleton_without_the_joints_it_needs_gets_one_error_naming_them() {
    let text = synthetic_bvh(3)
        .replace("JOINT rHand", "JOINT rPaw")
        .replace("JOINT lCollar", "JOINT lBone");
    let err = Clip::from_bvh("handless".into(), Bvh::parse(&text).unwrap())
        .err()
        .expect("no right hand, no left clavicle");
    assert!(err.contains("handless"), "{err}");
    assert!(
        err.contains("RightHand") && err.contains("LeftShoulder"),
        "{err}"
    );
    assert!(!err.contains("LeftHand,"), "{err}");
    let text = synthetic_bvh(3).replace("Shldr", "Bone");
    let err = Clip::from_bvh("armless".into(), Bvh::parse(&text).unwrap())
        .err()
        .expect("no upper arms");
    assert!(
        err.contains("LeftUpperArm") && err.contains("RightUpperArm"),
        "{err}"
    );
}
