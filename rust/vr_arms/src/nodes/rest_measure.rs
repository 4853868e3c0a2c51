//! What a skeleton's rest pose says about the body, read through the engine for the core's
//! measurements: the world's up in the skeleton's space and each hand's palm frame.

use godot::classes::Skeleton3D;
use godot::prelude::*;
use vr_arms_core::hand_frame::{HandFrame, HandRest};
use vr_arms_core::hand_pose::FingerCurl;
use vr_arms_core::rest_facing::{RestBody, RestFacing};
use vr_arms_core::rig_names::{Finger, finger_of};
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
    vr_arms_core::finite::direction(vec3(basis.inverse() * Vector3::UP)).unwrap_or(glam::Vec3::Y)
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
) -> [Option<(i32, FingerCurl)>; vr_arms_core::body_pipeline::FINGERS] {
    let mut out = [None; vr_arms_core::body_pipeline::FINGERS];
    let hand = skeleton.find_bone(vr_arms_core::hand_pose::hand_bone(side));
    let names = vr_arms_core::hand_pose::finger_bones(side);
    if hand < 0 || skeleton.find_bone(names[6].as_str()) < 0 {
        return out;
    }
    let frame = measure_hand(skeleton, hand, side);
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

/// `skeleton`'s transform in `avatar`'s space, through the nodes between them (no tree needed).
pub fn skeleton_in(avatar: &Gd<Node3D>, skeleton: &Gd<Skeleton3D>) -> Transform3D {
    let mut t = skeleton.get_transform();
    let mut node = skeleton.get_parent();
    while let Some(n) = node {
        if n == avatar.clone().upcast::<godot::classes::Node>() {
            break;
        }
        if let Ok(n3) = n.clone().try_cast::<Node3D>() {
            t = n3.get_transform() * t;
        }
        node = n.get_parent();
    }
    t
}

/// How a character stands and faces in its avatar root's frame, from its rest pose.
pub fn rest_facing(avatar: &Gd<Node3D>, skeleton: &Gd<Skeleton3D>) -> Option<RestFacing> {
    let to_avatar = skeleton_in(avatar, skeleton);
    let at = |name: &str| {
        let b = skeleton.find_bone(name);
        (b >= 0).then(|| vec3(to_avatar * skeleton.get_bone_global_rest(b).origin))
    };
    let body = RestBody {
        left_shoulder: at("LeftUpperArm")?,
        right_shoulder: at("RightUpperArm")?,
        hips: at("Hips"),
        head: at("Head").or_else(|| at("Neck")),
    };
    Some(body.facing(glam::Vec3::Y))
}

/// Makes `avatar` (the node the body follow moves: its transform is overwritten with a
/// position, a yaw and a uniform scale) a clean root: a tilt or scale of its own, as an
/// imported `Armature` has (+90 degrees about X, 0.01), moves onto its children, and a
/// character lying down or facing away inside it (a Z-up skeleton, a VRM 0.x facing -Z) is
/// stood up facing +Z by turning its children about the root. What the character looks like
/// does not change. Returns what was done, for one line in the log; `None` when nothing was
/// needed.
pub fn stand_up(avatar: &mut Gd<Node3D>, skeleton: &Gd<Skeleton3D>) -> Option<String> {
    let mut done = Vec::new();
    let own = avatar.get_transform();
    // The yaw from whichever of its X and Z axes lies flatter (a node turned 90 degrees about
    // X has its Z axis upright, and no yaw to read from it).
    let (x, z) = (own.basis.col_a(), own.basis.col_c());
    let flat = |v: Vector3| Vector3::new(v.x, 0.0, v.z).length() / v.length().max(1e-12);
    let yaw = if flat(z) >= flat(x) {
        z.x.atan2(z.z)
    } else {
        (-x.z).atan2(x.x)
    };
    let yaw = if yaw.is_finite() { yaw } else { 0.0 };
    let clean = Basis::from_axis_angle(Vector3::UP, yaw);
    let rest = clean.inverse() * own.basis;
    // A uniform scale alone stays: it is the avatar's size (a calibrated or scaled avatar),
    // unless it is a change of units (below 0.1 or above 10, as an `Armature`'s 0.01).
    let s = rest.get_scale();
    let uniform = (s.x - s.y).abs() < 1e-3 * s.x && (s.x - s.z).abs() < 1e-3 * s.x;
    let sized =
        uniform && (0.1..=10.0).contains(&s.x) && is_identity(&rest.scaled(Vector3::ONE / s));
    if !sized && !is_identity(&rest) {
        fold_into_children(avatar, &rest);
        avatar.set_transform(Transform3D::new(clean, own.origin));
        done.push(format!(
            "its own rotation and scale ({:?} beyond its yaw) moved onto its children",
            rest.get_euler()
        ));
    }
    if let Some(facing) = rest_facing(avatar, skeleton)
        && !facing.is_upright_facing_z(5.0)
    {
        let turn = Basis::from_quaternion(crate::convert::to_quaternion(facing.upright_turn()));
        fold_into_children(avatar, &turn);
        done.push(format!(
            "its children turned to stand it up facing +Z (it faced {:?}, up {:?})",
            facing.forward, facing.up
        ));
    }
    (!done.is_empty()).then(|| done.join("; "))
}

fn is_identity(b: &Basis) -> bool {
    [
        (b.col_a(), Vector3::RIGHT),
        (b.col_b(), Vector3::UP),
        (b.col_c(), Vector3::BACK),
    ]
    .iter()
    .all(|(c, want)| (*c - *want).length() < 1e-4)
}

/// Turns and scales every 3D child of `node` by `basis` about `node`'s origin.
fn fold_into_children(node: &Gd<Node3D>, basis: &Basis) {
    let by = Transform3D::new(*basis, Vector3::ZERO);
    for child in node.get_children().iter_shared() {
        if let Ok(mut c) = child.try_cast::<Node3D>() {
            let t = c.get_transform();
            c.set_transform(by * t);
        }
    }
}

/// The node the body follow moves for the character of `skeleton`: the skeleton's parent, or
/// further up while the node above is itself tilted or scaled unevenly (an imported scene's
/// `root` turned +90 degrees about X around the `Armature`): the lowest ancestor whose parent
/// stands as the world does, so that a position, a yaw and a uniform scale written there leave
/// the character as it was made. The skeleton itself when it has no 3D parent.
pub fn body_root_for(skeleton: &Gd<Skeleton3D>) -> Gd<Node3D> {
    let parent_3d = |n: &Gd<Node3D>| n.get_parent().and_then(|p| p.try_cast::<Node3D>().ok());
    let Some(mut candidate) = parent_3d(&skeleton.clone().upcast()) else {
        return skeleton.clone().upcast();
    };
    while let Some(parent) = parent_3d(&candidate) {
        if stands_as_the_world(&world_basis(&parent)) {
            break;
        }
        candidate = parent;
    }
    candidate
}

/// `node`'s basis in the world, from its local ones (no tree needed).
fn world_basis(node: &Gd<Node3D>) -> Basis {
    let mut b = node.get_transform().basis;
    let mut up = node.get_parent();
    while let Some(n) = up {
        if let Ok(n3) = n.clone().try_cast::<Node3D>() {
            b = n3.get_transform().basis * b;
        }
        up = n.get_parent();
    }
    b
}

/// Whether a basis is a yaw and a uniform scale: what stands as the world does.
fn stands_as_the_world(b: &Basis) -> bool {
    let s = b.get_scale();
    let (lo, hi) = (s.x.min(s.y).min(s.z), s.x.max(s.y).max(s.z));
    lo > 0.0 && hi / lo < 1.01 && b.col_b().normalized().dot(Vector3::UP) > 0.999
}
