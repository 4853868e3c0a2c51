//! The evaluation reads any humanoid BVH: the same motion written with another naming, in
//! another unit, with another up axis and without its T-pose frame gives the same tracking and
//! truth; a skeleton it cannot read gets one error naming what it lacks.

mod common;

use common::synthetic_bvh;
use glam::Vec3;
use vr_arms_core::rig::rig_names::RigFamily;
use vr_arms_eval::bvh::Bvh;
use vr_arms_eval::clip::{Clip, Frame};
use vr_arms_eval::clip_rest::RestSource;

/// The synthetic (Daz-named) skeleton's joints as other tools name them: Character Creator,
/// Mixamo (as Godot's importer writes it) and Unreal.
const NAMINGS: [(RigFamily, [&str; 15]); 3] = [
    (
        RigFamily::CharacterCreator,
        [
            "CC_Base_Hip",
            "CC_Base_Spine01",
            "CC_Base_Spine02",
            "CC_Base_NeckTwist01",
            "CC_Base_Head",
            "CC_Base_L_Eye",
            "CC_Base_R_Eye",
            "CC_Base_L_Clavicle",
            "CC_Base_L_Upperarm",
            "CC_Base_L_Forearm",
            "CC_Base_L_Hand",
            "CC_Base_R_Clavicle",
            "CC_Base_R_Upperarm",
            "CC_Base_R_Forearm",
            "CC_Base_R_Hand",
        ],
    ),
    (
        RigFamily::Mixamo,
        [
            "mixamorig_Hips",
            "mixamorig_Spine",
            "mixamorig_Spine1",
            "mixamorig_Neck",
            "mixamorig_Head",
            "mixamorig_LeftEye",
            "mixamorig_RightEye",
            "mixamorig_LeftShoulder",
            "mixamorig_LeftArm",
            "mixamorig_LeftForeArm",
            "mixamorig_LeftHand",
            "mixamorig_RightShoulder",
            "mixamorig_RightArm",
            "mixamorig_RightForeArm",
            "mixamorig_RightHand",
        ],
    ),
    (
        RigFamily::Unreal,
        [
            "pelvis",
            "spine_01",
            "spine_02",
            "neck_01",
            "head",
            "eye_l",
            "eye_r",
            "clavicle_l",
            "upperarm_l",
            "lowerarm_l",
            "hand_l",
            "clavicle_r",
            "upperarm_r",
            "lowerarm_r",
            "hand_r",
        ],
    ),
];

/// The synthetic skeleton's own names, in [`NAMINGS`]' order.
const DAZ_NAMES: [&str; 15] = [
    "hip", "abdomen", "chest", "neck", "head", "leftEye", "rightEye", "lCollar", "lShldr",
    "lForeArm", "lHand", "rCollar", "rShldr", "rForeArm", "rHand",
];

/// The synthetic clip as another tool would write it: another naming's names, metres, Z up
/// (a root joint turns the Y-up body upright, as CC's `RL_BoneRoot` does), and no T-pose frame.
fn rewritten(frames: usize, names: &[&str; 15]) -> String {
    let rename = |old: &str| {
        DAZ_NAMES
            .iter()
            .position(|n| *n == old)
            .map_or(old.to_string(), |i| names[i].to_string())
    };
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
                format!(
                    "ROOT RL_BoneRoot\n{{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\nJOINT {}",
                    names[0]
                )
            } else {
                t.to_string()
            };
            let line = match line.split_once(' ') {
                Some((kw @ ("JOINT" | "ROOT"), name)) => format!("{kw} {}", rename(name)),
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
    assert_eq!(daz.naming, RigFamily::Daz);
    assert_eq!(daz.rest_source(), RestSource::SkeletonTPose);
    for (family, names) in &NAMINGS {
        let text = rewritten(frames, names);
        let other = Clip::from_bvh(
            "other".into(),
            Bvh::parse(&text).expect("the rewritten file parses"),
        )
        .expect("read");
        assert_eq!(other.naming, *family);
        assert_eq!((daz.unit_m(), other.unit_m()), (0.01, 1.0));
        assert_eq!((daz.read.first_frame, other.read.first_frame), (1, 0));
        assert_eq!(daz.frame_count(), other.frame_count());
        // The rest is the skeleton's own T-pose in both (the root's turn is zero there).
        assert_eq!(other.rest_source(), RestSource::SkeletonTPose);
        // The file's world is Z up; read upright it is the same.
        assert!((other.read.upright * Vec3::Z).distance(Vec3::Y) < 1e-6);
        for k in [0, 7, 39] {
            same_frames(&daz.frame(k), &other.frame(k), k);
        }
        let (a, b) = (daz.rest_arms(), other.rest_arms());
        for side in [vr_arms_core::Side::Left, vr_arms_core::Side::Right] {
            close(
                a.get(side).hand.position,
                b.get(side).hand.position,
                "rest hand",
            );
        }
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
