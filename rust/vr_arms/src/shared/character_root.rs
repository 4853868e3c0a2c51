//! The character root a body moves, chosen and made clean at setup: above tilted import nodes,
//! its own tilt and change of units moved onto its children, the character stood up facing +Z;
//! and the bone names taken to Godot's humanoid ones (a bone map, a recognised naming). Shared
//! by the local setup and the remote one.

use godot::classes::{BoneMap, Node, Skeleton3D};
use godot::prelude::*;
use vr_arms_core::rig::rest_facing::{RestBody, RestFacing};
use vr_arms_core::rig::rig_names::auto_map_tree;

use crate::convert::vec3;
use crate::shared::bone_map_apply::{apply_bone_map, apply_mapping};

/// A character ready for the body: its root, and how its bones were named.
pub struct Prepared {
    /// The node the body follow moves.
    pub root: Gd<Node3D>,
    /// How many bones took humanoid names.
    pub renamed_bones: usize,
    /// Which naming the bones had: a recognised rig's, "bone map" or "Godot humanoid".
    pub rig_naming: &'static str,
}

/// Whether `skeleton` has both upper arms under their humanoid names, or will have once
/// `bone_map` renamed its bones.
pub fn has_humanoid_arms(skeleton: &Gd<Skeleton3D>, bone_map: Option<&Gd<BoneMap>>) -> bool {
    ["LeftUpperArm", "RightUpperArm"].iter().all(|name| {
        let mapped = bone_map
            .map(|m| m.get_skeleton_bone_name(*name).to_string())
            .filter(|n| !n.is_empty());
        skeleton.find_bone(mapped.as_deref().unwrap_or(name)) >= 0
    })
}

/// Names `skeleton`'s bones as Godot's humanoid profile (by `bone_map`, or by the naming its
/// bones are recognised in), chooses the character root and makes it clean ([`stand_up`], one
/// line in the log when it changed anything). `who` starts the messages. Nothing is changed
/// when it fails: why is returned, for one error.
pub fn prepare_character(
    skeleton: &mut Gd<Skeleton3D>,
    bone_map: Option<&Gd<BoneMap>>,
    who: &str,
) -> Result<Prepared, String> {
    let names: Vec<String> = (0..skeleton.get_bone_count())
        .map(|i| skeleton.get_bone_name(i).to_string())
        .collect();
    let parents: Vec<Option<usize>> = (0..skeleton.get_bone_count())
        .map(|i| usize::try_from(skeleton.get_bone_parent(i)).ok())
        .collect();
    // No bone map and no humanoid names: the names say which rig it is (Mixamo, VRoid,
    // Unreal, Blender / Rigify).
    let auto = (bone_map.is_none() && !has_humanoid_arms(skeleton, None))
        .then(|| auto_map_tree(&names, &parents))
        .flatten();
    if !has_humanoid_arms(skeleton, bone_map) && auto.is_none() {
        return Err(format!(
            "\"{}\" has no humanoid arm bones (LeftUpperArm, ...){}; retarget it with a BoneMap to SkeletonProfileHumanoid at import{}",
            skeleton.get_name(),
            if bone_map.is_some() {
                ", even through the bone map"
            } else {
                ", and its bone names are none of the rigs recognised (Godot, Mixamo, VRoid, VRM, Unreal, Blender / Rigify) nor common bone words (L_UpperArm, forearm.R)"
            },
            // Only the local setup takes a bone map; a remote avatar is the same scene, so the
            // one retargeted at import serves both.
            if who.contains("setup_remote") {
                " (the remote setup takes no bone map: retarget the scene it is instanced from)"
            } else {
                ", or pass one as `bone_map` (for a VRM file: VRArmsSetup.bone_map_from_vrm(path))"
            }
        ));
    }
    let mut root = body_root_for(skeleton);
    // Animations that play on this skeleton may sit beside the root (an imported scene's
    // AnimationPlayer beside its Armature): the renames look through the whole tree above it
    // (only tracks that reach this skeleton are rewritten).
    let mut character = skeleton.clone().upcast::<Node>();
    while let Some(parent) = character.get_parent() {
        character = parent;
    }
    let renamed_bones = match (bone_map, &auto) {
        (Some(map), _) => apply_bone_map(skeleton, map, &character),
        (None, Some(found)) => apply_mapping(skeleton, &found.mapping, &character),
        (None, None) => Ok(0),
    }
    .map_err(|why| {
        format!(
            "cannot apply the bone map to \"{}\": {why}",
            skeleton.get_name()
        )
    })?;
    if root != skeleton.clone().upcast::<Node3D>()
        && let Some(what) = stand_up(&mut root, skeleton)
    {
        godot_print!("{who}: \"{}\": {what}.", root.get_name());
    }
    Ok(Prepared {
        root,
        renamed_bones,
        rig_naming: match (&auto, bone_map) {
            (Some(a), _) => a.family.label(),
            (None, Some(_)) => "bone map",
            (None, None) => "Godot humanoid",
        },
    })
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
    let yaw = vr_arms_core::rig::rest_facing::basis_yaw(
        crate::convert::vec3(own.basis.col_a()),
        crate::convert::vec3(own.basis.col_c()),
    );
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
        let e = rest.get_euler();
        done.push(format!(
            "its own rotation ({:.0}, {:.0}, {:.0} degrees about X, Y, Z beyond its yaw) and scale ({:.3}) moved onto its children",
            e.x.to_degrees(),
            e.y.to_degrees(),
            e.z.to_degrees(),
            s.x
        ));
    }
    if let Some(facing) = rest_facing(avatar, skeleton) {
        // Quarter turns only: an import's; the rest pose's own lean is the character's.
        let quarter = facing.quarter_turn();
        if quarter.angle_between(glam::Quat::IDENTITY) > 1e-3 {
            let turn = Basis::from_quaternion(crate::convert::to_quaternion(quarter));
            fold_into_children(avatar, &turn);
            done.push(format!(
                "its children turned to stand it up facing +Z (it faced {:?}, up {:?})",
                facing.forward, facing.up
            ));
        }
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
