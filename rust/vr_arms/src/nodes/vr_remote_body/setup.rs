//! `VRArmsSetup.setup_remote`: a `VRRemoteBody` for a remote player's or crowd member's skeleton.

use godot::classes::{Node3D, Skeleton3D};
use godot::prelude::*;

use crate::nodes::vr_remote_body::VRRemoteBody;
use crate::shared::common::HUMANOID_ARMS as ARMS;
use crate::shared::common::{alive, own_by};

/// `VRArmsSetup.setup_remote`: a [VRRemoteBody] under `skeleton`, driven by `head`, `left` and
/// `right` (a null one is created: a plain `Node3D` under a "RemoteTracking" node beside the
/// character, for a network script to move; place "RemoteTracking" where the remote player's XR
/// origin is: its height is the floor the body stands on). With the remote-player profile.
pub fn setup_remote(
    skeleton: Option<Gd<Skeleton3D>>,
    points: [Option<Gd<Node3D>>; 3],
) -> VarDictionary {
    let mut out = VarDictionary::new();
    let Some(skeleton) = alive(&skeleton) else {
        godot_error!(
            "VRArmsSetup.setup_remote: `skeleton` is null; pass the avatar's Skeleton3D (its parent is the avatar root)"
        );
        return out;
    };
    let taken = skeleton.get_children().iter_shared().any(|c| {
        c.clone().try_cast::<VRRemoteBody>().is_ok()
            || c.try_cast::<crate::nodes::vr_arm_rig::VRArmRig>().is_ok()
    });
    if taken {
        godot_error!(
            "VRArmsSetup.setup_remote: \"{}\" already has a VRRemoteBody or a VRArmRig",
            skeleton.get_name()
        );
        return out;
    }
    // The avatar root (the node the body moves) must have a parent for the created tracking
    // nodes; checked before anything changes.
    let scene = crate::shared::character_root::body_root_for(&skeleton).get_parent();
    if scene.is_none() && points.iter().any(|p| alive(p).is_none()) {
        godot_error!(
            "VRArmsSetup.setup_remote: the avatar root (the skeleton's parent) has no parent to hold the created tracking nodes (under the avatar they would move with it); pass head, left_hand and right_hand, or give the avatar a parent"
        );
        return out;
    }
    // Humanoid names (a recognised rig's), and a clean root upright facing +Z, as the local
    // setup makes them: a remote avatar instanced from the same scene comes as the file has it.
    let mut skeleton = skeleton;
    let prepared = match crate::shared::character_root::prepare_character(
        &mut skeleton,
        None,
        "VRArmsSetup.setup_remote",
    ) {
        Ok(p) => p,
        Err(why) => {
            godot_error!("VRArmsSetup.setup_remote: {why}");
            return out;
        }
    };
    let problems: Vec<String> = ARMS
        .iter()
        .flat_map(|a| &a[1..])
        .filter(|n| skeleton.find_bone(**n) < 0)
        .map(|n| n.to_string())
        .collect();
    if !problems.is_empty() {
        godot_error!(
            "VRArmsSetup.setup_remote: \"{}\" lacks the humanoid bones {}; retarget it with a BoneMap to SkeletonProfileHumanoid first",
            skeleton.get_name(),
            problems.join(", ")
        );
        return out;
    }
    let mut body = VRRemoteBody::new_alloc();
    body.set_name("VRRemoteBody");
    let owner = skeleton.get_owner();
    let mut holder: Option<Gd<Node3D>> = None;
    let names = ["Head", "LeftHand", "RightHand"];
    let points = points.into_iter().zip(names).map(|(p, name)| {
        alive(&p).unwrap_or_else(|| {
            let h = holder.get_or_insert_with(|| {
                let mut h = Node3D::new_alloc();
                h.set_name("RemoteTracking");
                let mut parent = scene.clone().expect("checked above");
                parent.add_child(&h);
                own_by(&h.clone().upcast(), owner.as_ref());
                h
            });
            let mut n = Node3D::new_alloc();
            n.set_name(name);
            h.add_child(&n);
            own_by(&n.clone().upcast(), owner.as_ref());
            n
        })
    });
    let points: Vec<Gd<Node3D>> = points.collect();
    for (name, node) in ["head", "left_hand", "right_hand"].iter().zip(&points) {
        body.set(*name, &node.to_variant());
    }
    body.set("profile", &GString::from(REMOTE_PROFILE).to_variant());
    body.set("body_root", &prepared.root.to_variant());
    let mut sk = skeleton.clone().upcast::<Node>();
    sk.add_child(&body);
    own_by(&body.clone().upcast(), owner.as_ref());
    for (k, v) in [
        ("body", body.to_variant()),
        ("head", points[0].to_variant()),
        ("left_hand", points[1].to_variant()),
        ("right_hand", points[2].to_variant()),
    ] {
        out.set(k, &v);
    }
    out
}

/// The profile `setup_remote` gives a remote body.
pub const REMOTE_PROFILE: &str = "res://addons/vr_arms/profiles/remote_player.toml";
