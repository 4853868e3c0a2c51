//! What a skeleton's rest pose says about the body, read through the engine for the core's
//! measurements: the world's up in the skeleton's space and each hand's palm frame.

use godot::classes::Skeleton3D;
use godot::prelude::*;
use vr_arms_core::hands::hand_frame::{HandFrame, HandRest};
use vr_arms_core::hands::hand_pose::FingerCurl;
use vr_arms_core::rig::rig_names::{Finger, finger_of};
use vr_arms_core::{Pose, Side};

use crate::convert::{pose, vec3};

/// The world's up (+Y) in the skeleton's own space: +Y for a skeleton standing in the scene,
/// another axis under an imported node turned to Z-up (Mixamo's `Armature`). +Y outside the
/// tree, where there is no global transform yet.
pub fn skeleton_up(skeleton: &Gd<Skeleton3D>) -> glam::Vec3 {
    if !skeleton.is_inside_tree() {
        return glam::Vec3::Y;
    }
    let basis = skeleton.get_global_transform().basis;
    vr_arms_core::maths::finite::direction(vec3(basis.inverse() * Vector3::UP))
        .unwrap_or(glam::Vec3::Y)
}

/// The palm frame of the hand `hand` (a bone index) of `side`, from where its fingers start in
/// the rest pose: the humanoid finger names first (`LeftIndexProximal`, ...), else the bones
/// under the hand whose names say which finger they are (Mixamo's `LeftHandIndex1`, VRM's
/// `J_Bip_L_Index1`, Unreal's `index_01_l`, ...). A hand without fingers gets the frame of a
/// palm facing down along its forearm.
pub fn measure_hand(skeleton: &Gd<Skeleton3D>, hand: i32, side: Side) -> HandFrame {
    hand_rest(skeleton, hand, side).measure()
}

/// What [`measure_hand`] measures from.
pub fn hand_rest(skeleton: &Gd<Skeleton3D>, hand: i32, side: Side) -> HandRest {
    let at = |bone: i32| vec3(skeleton.get_bone_global_rest(bone).origin);
    let hand_pose: Pose = pose(&skeleton.get_bone_global_rest(hand));
    let parent = skeleton.get_bone_parent(hand);
    let lower_arm = if parent >= 0 {
        at(parent)
    } else {
        hand_pose.position
    };
    let mut starts: [Option<i32>; 5] = [None; 5];
    let prefix = if side == Side::Left { "Left" } else { "Right" };
    for (finger, part) in [
        (Finger::Thumb, "ThumbMetacarpal"),
        (Finger::Index, "IndexProximal"),
        (Finger::Middle, "MiddleProximal"),
        (Finger::Ring, "RingProximal"),
        (Finger::Little, "LittleProximal"),
    ] {
        let b = skeleton.find_bone(&format!("{prefix}{part}"));
        if b >= 0 && skeleton_descends_from(skeleton, b, hand) {
            starts[finger as usize] = Some(b);
        }
    }
    if starts.iter().all(Option::is_none) {
        starts = fingers_by_name(skeleton, hand);
    }
    let knuckle = |f: Finger| starts[f as usize].map(at);
    HandRest {
        side,
        hand: hand_pose,
        lower_arm,
        up: skeleton_up(skeleton),
        knuckles: [Finger::Index, Finger::Middle, Finger::Ring, Finger::Little].map(knuckle),
        thumb: knuckle(Finger::Thumb),
    }
}

/// Whether `bone` lies under `ancestor`.
fn skeleton_descends_from(skeleton: &Gd<Skeleton3D>, bone: i32, ancestor: i32) -> bool {
    let mut b = skeleton.get_bone_parent(bone);
    for _ in 0..skeleton.get_bone_count() {
        if b < 0 {
            return false;
        }
        if b == ancestor {
            return true;
        }
        b = skeleton.get_bone_parent(b);
    }
    false
}

/// The first bone of each finger under `hand` (three levels deep at most), by its name; a
/// finger's metacarpal (Unreal 5's `index_metacarpal_l`) gives way to the bone after it, except
/// for the thumb, whose first bone is where it leaves the palm.
fn fingers_by_name(skeleton: &Gd<Skeleton3D>, hand: i32) -> [Option<i32>; 5] {
    let mut out: [Option<i32>; 5] = [None; 5];
    let mut level = vec![hand];
    for _ in 0..3 {
        let mut next = Vec::new();
        for b in level {
            for child in skeleton.get_bone_children(b).as_slice() {
                let name = skeleton.get_bone_name(*child).to_string();
                match finger_of(&name) {
                    Some((finger, metacarpal)) if out[finger as usize].is_none() => {
                        if metacarpal && finger != Finger::Thumb {
                            next.push(*child);
                        } else {
                            out[finger as usize] = Some(*child);
                        }
                    }
                    Some(_) => {}
                    None => next.push(*child),
                }
            }
        }
        level = next;
    }
    out
}

/// Each finger bone of `side`'s hand (`finger_bones` order) with its curl, which bends toward
/// the palm measured from the rig (not assumed to face down): for the hand-pose drivers and
/// the remote body alike. `None` for a bone the skeleton lacks; all `None` without a hand or
/// a middle finger.
pub fn finger_curls(
    skeleton: &Gd<Skeleton3D>,
    side: Side,
) -> [Option<(i32, FingerCurl)>; vr_arms_core::body::body_pipeline::FINGERS] {
    let hand = skeleton.find_bone(vr_arms_core::hands::hand_pose::hand_bone(side));
    if hand < 0 {
        return [None; vr_arms_core::body::body_pipeline::FINGERS];
    }
    finger_curls_in(skeleton, side, &measure_hand(skeleton, hand, side))
}

/// [`finger_curls`] for a hand whose palm frame is measured already.
pub fn finger_curls_in(
    skeleton: &Gd<Skeleton3D>,
    side: Side,
    frame: &HandFrame,
) -> [Option<(i32, FingerCurl)>; vr_arms_core::body::body_pipeline::FINGERS] {
    let mut out = [None; vr_arms_core::body::body_pipeline::FINGERS];
    let names = vr_arms_core::hands::hand_pose::finger_bones(side);
    if skeleton.find_bone(names[6].as_str()) < 0 {
        return out;
    }
    let (finger_dir, palm) = (frame.fingers_at_rest(), frame.palm_normal_at_rest(side));
    for (o, name) in out.iter_mut().zip(&names) {
        let bone = skeleton.find_bone(name.as_str());
        if bone >= 0 {
            let rest_local = pose(&skeleton.get_bone_rest(bone)).rotation;
            let rest_global = pose(&skeleton.get_bone_global_rest(bone)).rotation;
            *o = Some((
                bone,
                FingerCurl::new(rest_local, rest_global, finger_dir, palm),
            ));
        }
    }
    out
}
