//! The one-click setup's multiplayer step: a `VRAvatarSync` wired to what `setup_skeleton`
//! made.

use godot::classes::{Node, Node3D, PackedScene, ResourceLoader};
use godot::prelude::*;

use crate::nodes::avatar_sync::VRAvatarSync;
use crate::shared::common::own_by;

/// Adds a `VRAvatarSync` beside the character set up in `setup` (`setup_skeleton`'s dictionary)
/// sending its avatar, camera, controllers and whether its lower body sits, and records it there
/// as "avatar_sync".
/// `remote_avatar_scene` null: the character's own scene when it is an instanced scene.
/// `None`, with one error, when `setup` is not such a dictionary.
pub fn add_avatar_sync(
    setup: &mut VarDictionary,
    remote_avatar_scene: Option<Gd<PackedScene>>,
) -> Option<Gd<VRAvatarSync>> {
    let node = |key: &str| {
        setup
            .get(key)
            .and_then(|v| v.try_to::<Gd<Node3D>>().ok())
            .filter(|n| n.is_instance_valid())
    };
    let (Some(avatar), Some(camera), Some(left), Some(right)) = (
        node("avatar"),
        node("camera"),
        node("left_controller"),
        node("right_controller"),
    ) else {
        godot_error!(
            "VRArmsSetup.add_avatar_sync: `setup` must be what setup_skeleton returned (with \"avatar\", \"camera\", \"left_controller\" and \"right_controller\")"
        );
        return None;
    };
    if setup.contains_key("avatar_sync") {
        godot_error!("VRArmsSetup.add_avatar_sync: this setup already has a VRAvatarSync");
        return None;
    }
    let scene = remote_avatar_scene.or_else(|| {
        let path = avatar.get_scene_file_path();
        (!path.is_empty())
            .then(|| ResourceLoader::singleton().load(&path))
            .flatten()
            .and_then(|r| r.try_cast::<PackedScene>().ok())
    });
    let mut sync = VRAvatarSync::new_alloc();
    sync.set_name("VRAvatarSync");
    sync.set("avatar_root", &avatar.to_variant());
    sync.set("head", &camera.to_variant());
    sync.set("left_hand", &left.to_variant());
    sync.set("right_hand", &right.to_variant());
    if let Some(rig) = setup
        .get("lower_body")
        .and_then(|v| v.try_to::<Gd<Node>>().ok())
        .filter(|n| n.is_instance_valid())
    {
        sync.set("lower_body_rig", &rig.to_variant());
    }
    if let Some(scene) = scene {
        sync.set("remote_avatar_scene", &scene.to_variant());
    }
    let mut parent = avatar
        .get_parent()
        .unwrap_or_else(|| avatar.clone().upcast::<Node>());
    parent.add_child(&sync);
    // Saved with the scene the character is saved with, as the setup's other nodes are.
    own_by(&sync.clone().upcast(), avatar.get_owner().as_ref());
    setup.set("avatar_sync", &sync.to_variant());
    Some(sync)
}
