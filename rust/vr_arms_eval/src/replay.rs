//! A clip's frames as the engine test replays them (`vr_arms_eval --replay FILE CLIP`): the
//! skeleton the evaluation builds with the clip's bone lengths (Godot humanoid bone names, rest
//! poses in skeleton space), the headset and controllers of each frame, and every joint the full
//! mode evaluates as the evaluation's body put it. The engine test sets the same skeleton up with
//! the one-click setup, plays the same tracking and holds each joint to the evaluation's. Each
//! frame also holds the performer's skeleton and whether the performer sits
//! ([`crate::seated`]), for `cargo xtask strips`.

use glam::Vec3;
use serde_json::{Value, json};
use vr_arms_core::body::Tracking;
use vr_arms_core::{PerSide, Pose, Side};

use crate::clip::Clip;
use crate::clip_body::{CHEST, ClipBody, HEAD, NECK, arm_indices};
use crate::eval::EvalOptions;

/// The tree's bones by Godot humanoid name, in [`ClipBody`]'s order.
pub const BONE_NAMES: [&str; 11] = [
    "Chest",
    "Neck",
    "Head",
    "LeftShoulder",
    "LeftUpperArm",
    "LeftLowerArm",
    "LeftHand",
    "RightShoulder",
    "RightUpperArm",
    "RightLowerArm",
    "RightHand",
];

/// The joints the full mode evaluates (head, neck, chest, shoulders, elbows, wrists), by the
/// bone that stands at each.
pub const EVALUATED: [&str; 9] = [
    "Head",
    "Neck",
    "Chest",
    "LeftUpperArm",
    "RightUpperArm",
    "LeftLowerArm",
    "RightLowerArm",
    "LeftHand",
    "RightHand",
];

/// The performer's stick figure: pairs of indices into each frame's `performer` points
/// ([`performer`]'s order; the legs only when the clip has them).
pub const PERFORMER_SEGMENTS: [[usize; 2]; 16] = [
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 4],
    [4, 5],
    [2, 6],
    [6, 7],
    [7, 8],
    [2, 9],
    [9, 10],
    [10, 11],
    [11, 12],
    [12, 13],
    [10, 14],
    [14, 15],
    [15, 16],
];

/// The performer's joints in one frame: head, neck, chest, right shoulder, elbow, wrist, left
/// shoulder, elbow, wrist, then (when the clip has them) the abdomen, hips, and the left and
/// right hip, knee and ankle.
fn performer(f: &crate::clip::Frame) -> Vec<Vec3> {
    let mut points = vec![f.head, f.neck, f.chest.position];
    for side in [Side::Right, Side::Left] {
        points.extend([
            *f.shoulder.get(side),
            *f.elbow.get(side),
            *f.wrist.get(side),
        ]);
    }
    if let Some(l) = &f.lower {
        points.extend([l.abdomen, l.hips]);
        for side in [Side::Left, Side::Right] {
            points.extend([
                *l.upper_leg.get(side),
                *l.knee.get(side),
                *l.ankle.get(side),
            ]);
        }
    }
    points
}

fn vec(v: Vec3) -> Value {
    json!([v.x, v.y, v.z])
}

fn pose(p: &Pose) -> Value {
    let (t, q) = (p.position, p.rotation);
    json!([t.x, t.y, t.z, q.x, q.y, q.z, q.w])
}

/// The replay of `frames` frames of `clip` from its first, with the evaluation's options.
pub fn replay(clip: &Clip, frames: usize, options: &EvalOptions) -> Value {
    let mut body = ClipBody::new(clip, 1.0, &options.profile);
    let parents = |i: usize| -> Option<usize> {
        match i {
            CHEST => None,
            NECK => Some(CHEST),
            HEAD => Some(NECK),
            _ => {
                let side = if i < arm_indices(Side::Right)[0] {
                    Side::Left
                } else {
                    Side::Right
                };
                let [c, u, l, _] = arm_indices(side);
                Some(if i == c {
                    CHEST
                } else if i == u {
                    c
                } else if i == l {
                    u
                } else {
                    l
                })
            }
        }
    };
    let bones: Vec<Value> = BONE_NAMES
        .iter()
        .enumerate()
        .map(|(i, name)| {
            json!({
                "name": name,
                "parent": parents(i).map(|p| BONE_NAMES[p]),
                "rest": pose(&body.tree.global(i)),
            })
        })
        .collect();
    let index = |name: &str| BONE_NAMES.iter().position(|n| *n == name).expect("a bone");
    let mut out_frames = Vec::new();
    let mut seated = crate::seated::SeatedFlag::default();
    for k in 0..frames.min(clip.frame_count()) {
        let f = clip.frame(k);
        let sits = f.lower.is_some_and(|l| seated.update(&l, clip.frame_time));
        let tracking = Tracking {
            head: Some(f.headset),
            controllers: PerSide::new(Some(f.controllers.left), Some(f.controllers.right)),
            ..Default::default()
        };
        body.full_frame(&tracking, clip.frame_time);
        let joints: serde_json::Map<String, Value> = EVALUATED
            .iter()
            .map(|name| (name.to_string(), vec(body.position(index(name)))))
            .collect();
        out_frames.push(json!({
            "head": pose(&f.headset),
            "left": pose(&f.controllers.left),
            "right": pose(&f.controllers.right),
            "joints": joints,
            "performer": performer(&f).iter().map(|p| vec(*p)).collect::<Vec<_>>(),
            "seated": sits,
        }));
    }
    let offset = |side: Side| {
        let c = options.profile.controller_targets;
        let s = if side == Side::Left { c.left } else { c.right };
        Vec3::from_array(s.position_offset)
    };
    json!({
        "clip": clip.name,
        "performer_segments": PERFORMER_SEGMENTS,
        "frame_time": clip.frame_time,
        "bones": bones,
        "controller_position_offset": [vec(offset(Side::Left)), vec(offset(Side::Right))],
        "frames": out_frames,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_names_the_skeleton_and_the_evaluated_joints_of_every_frame() {
        let clip = crate::clip_body::tests::clip();
        let r = replay(&clip, 5, &EvalOptions::default());
        let bones = r["bones"].as_array().unwrap();
        assert_eq!(bones.len(), BONE_NAMES.len());
        assert_eq!(bones[0]["parent"], Value::Null, "the chest is the root");
        assert_eq!(bones[6]["name"], "LeftHand");
        assert_eq!(bones[6]["parent"], "LeftLowerArm");
        assert_eq!(
            bones[3]["parent"], "Chest",
            "a clavicle hangs from the chest"
        );
        let frames = r["frames"].as_array().unwrap();
        assert_eq!(
            frames.len(),
            2,
            "the clip has two frames after its T-pose, not five"
        );
        let head = frames[0]["joints"]["Head"].as_array().unwrap();
        assert_eq!(head.len(), 3);
        // The rest head stands 0.7 m over the clip's floor; the body stands on the floor.
        let rest_head = bones[2]["rest"][1].as_f64().unwrap();
        assert!((rest_head - 0.7).abs() < 1e-5, "{rest_head}");
        assert_eq!(
            frames[0]["joints"].as_object().unwrap().len(),
            EVALUATED.len()
        );
        // The performer's stick figure: the head first, every segment between points it has.
        let performer = frames[0]["performer"].as_array().unwrap();
        let f = clip.frame(0);
        assert_eq!(performer[0], vec(f.head));
        assert_eq!(performer[5], vec(f.wrist.right));
        let last = PERFORMER_SEGMENTS.iter().flatten().max().unwrap();
        assert_eq!(
            performer.len(),
            if f.lower.is_some() { last + 1 } else { 9 }
        );
    }
}
