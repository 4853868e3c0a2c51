//! Applies a Godot [BoneMap] to a skeleton loaded at run time, as Godot's importer does when it
//! retargets: the mapped bones take the humanoid profile's names, and the bone tracks of the
//! character's animations, the named binds of its skins and its `BoneAttachment3D`s follow them.

use godot::classes::{
    AnimationMixer, BoneAttachment3D, BoneMap, MeshInstance3D, Node, Skeleton3D,
    SkeletonProfileHumanoid, Skin,
};
use godot::prelude::*;
use std::collections::HashMap;
use vr_arms_core::rig::bone_rename::plan_bone_renames;

use crate::shared::common::{descendants, skinned_to};

/// Renames `skeleton`'s bones to the profile names of `bone_map` (whose profile must be a
/// `SkeletonProfileHumanoid`), then rewrites the bone tracks of every `AnimationMixer` under
/// `character` that animates this skeleton, the named binds of the skins skinned to it, and the
/// bone of every `BoneAttachment3D` on it.
/// Returns how many bones were renamed, or why nothing was.
pub fn apply_bone_map(
    skeleton: &mut Gd<Skeleton3D>,
    bone_map: &Gd<BoneMap>,
    character: &Gd<Node>,
) -> Result<usize, String> {
    let profile = bone_map
        .get_profile()
        .ok_or("the bone map has no profile; give it a SkeletonProfileHumanoid")?;
    if profile
        .clone()
        .try_cast::<SkeletonProfileHumanoid>()
        .is_err()
    {
        return Err(format!(
            "the bone map's profile is a {}, not a SkeletonProfileHumanoid",
            profile.get_class()
        ));
    }
    let mapping: Vec<(String, String)> = (0..profile.get_bone_size())
        .map(|i| {
            let name = profile.get_bone_name(i);
            let mapped = bone_map.get_skeleton_bone_name(&name).to_string();
            (name.to_string(), mapped)
        })
        .collect();
    apply_mapping(skeleton, &mapping, character)
}

/// Renames `skeleton`'s bones by `mapping` ((profile name, skeleton bone name) pairs: a bone map
/// of Godot's, one found from the names by [`vr_arms_core::rig::rig_names::auto_map_tree`] or a VRM
/// humanoid table), and the bone tracks, skin binds and attachments that name them, as
/// [`apply_bone_map`] says. Returns how many bones were renamed, or why nothing was.
pub fn apply_mapping(
    skeleton: &mut Gd<Skeleton3D>,
    mapping: &[(String, String)],
    character: &Gd<Node>,
) -> Result<usize, String> {
    let bones: Vec<String> = (0..skeleton.get_bone_count())
        .map(|i| skeleton.get_bone_name(i).to_string())
        .collect();
    let plan = plan_bone_renames(&bones, mapping).map_err(|e| e.to_string())?;
    // Two passes, so that names swapped between bones are never held twice at once.
    for r in &plan {
        skeleton.set_bone_name(r.bone as i32, &format!("__vr_arms_rename_{}", r.bone));
    }
    for r in &plan {
        skeleton.set_bone_name(r.bone as i32, r.to.as_str());
    }
    let renamed: HashMap<String, String> = plan
        .iter()
        .map(|r| (r.from.clone(), r.to.clone()))
        .collect();
    let sk_node = skeleton.clone().upcast::<Node>();
    // An AnimationTree lists its player's libraries: each animation is rewritten once.
    let mut done = std::collections::HashSet::new();
    let mut skins = HashMap::new();
    for node in descendants(character) {
        if let Ok(mixer) = node.clone().try_cast::<AnimationMixer>() {
            retarget_tracks(&mixer, &sk_node, &renamed, &mut done);
        } else if let Ok(mesh) = node.clone().try_cast::<MeshInstance3D>() {
            rename_skin_binds(mesh, &sk_node, &renamed, &mut skins);
        } else if let Ok(mut attachment) = node.try_cast::<BoneAttachment3D>() {
            let on_skeleton = if attachment.get_use_external_skeleton() {
                let path = attachment.get_external_skeleton();
                attachment.get_node_or_null(&path).as_ref() == Some(&sk_node)
            } else {
                attachment.get_parent().as_ref() == Some(&sk_node)
            };
            let bone = attachment.get_bone_name().to_string();
            if let (true, Some(to)) = (on_skeleton, renamed.get(&bone)) {
                attachment.set_bone_name(to.as_str());
            }
        }
    }
    Ok(plan.len())
}

/// Renames the named binds of `mesh`'s skin when the mesh is skinned to `skeleton` (a skin that
/// names its bones, as Godot's importer makes them, would otherwise lose them). The skin is
/// copied first: copies of one imported scene share it, and the copies not set up yet (their
/// bones still under the old names) must keep a skin that names those. Meshes of this character
/// that shared one skin share its copy (`skins`, by the original).
fn rename_skin_binds(
    mut mesh: Gd<MeshInstance3D>,
    skeleton: &Gd<Node>,
    renamed: &HashMap<String, String>,
    skins: &mut HashMap<InstanceId, Gd<Skin>>,
) {
    if !skinned_to(&mesh, skeleton) {
        return;
    }
    let Some(skin) = mesh.get_skin() else {
        return;
    };
    let own = match skins.get(&skin.instance_id()) {
        Some(own) => own.clone(),
        None => {
            let mut own = skin.duplicate_resource();
            for bind in 0..own.get_bind_count() {
                if let Some(to) = renamed.get(&own.get_bind_name(bind).to_string()) {
                    own.set_bind_name(bind, to.as_str());
                }
            }
            skins.insert(skin.instance_id(), own.clone());
            own
        }
    };
    mesh.set_skin(&own);
}

/// Points `mixer`'s tracks on `skeleton`'s renamed bones at their new names.
fn retarget_tracks(
    mixer: &Gd<AnimationMixer>,
    skeleton: &Gd<Node>,
    renamed: &HashMap<String, String>,
    done: &mut std::collections::HashSet<InstanceId>,
) {
    let root_path = mixer.get_root_node();
    let Some(root) = mixer.get_node_or_null(&root_path) else {
        return;
    };
    for library_name in mixer.get_animation_library_list().iter_shared() {
        let Some(library) = mixer.get_animation_library(&library_name) else {
            continue;
        };
        for animation_name in library.get_animation_list().iter_shared() {
            let Some(mut animation) = library.get_animation(&animation_name) else {
                continue;
            };
            if !done.insert(animation.instance_id()) {
                continue;
            }
            for track in 0..animation.get_track_count() {
                let path = animation.track_get_path(track);
                if path.get_subname_count() != 1 {
                    continue;
                }
                let bone = path.get_subname(0).to_string();
                let Some(to) = renamed.get(&bone) else {
                    continue;
                };
                let node_part = path.get_concatenated_names().to_string();
                let target = root.get_node_or_null(&NodePath::from(node_part.as_str()));
                if target.as_ref() == Some(skeleton) {
                    let new_path = NodePath::from(format!("{node_part}:{to}").as_str());
                    animation.track_set_path(track, &new_path);
                }
            }
        }
    }
}
