//! A [BoneMap] from a VRM file's humanoid table (VRM 0.x `extensions.VRM.humanoid.humanBones`,
//! VRM 1.0 `extensions.VRMC_vrm.humanoid.humanBones`), for a VRM character loaded as glTF.

use godot::classes::{BoneMap, FileAccess, Json, SkeletonProfileHumanoid};
use godot::prelude::*;
use vr_arms_core::rig::rig_names::{VrmVersion, vrm_mapping};

/// The JSON chunk of a binary glTF (`.glb`, `.vrm`) or the text of a `.gltf`.
fn gltf_json(bytes: &[u8]) -> Result<String, String> {
    if bytes.len() >= 20 && &bytes[0..4] == b"glTF" {
        let len = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        if &bytes[16..20] != b"JSON" || bytes.len() < 20 + len {
            return Err("a binary glTF whose first chunk is not its JSON".into());
        }
        return String::from_utf8(bytes[20..20 + len].to_vec())
            .map_err(|_| "its JSON chunk is not UTF-8".into());
    }
    String::from_utf8(bytes.to_vec()).map_err(|_| "neither binary glTF nor JSON".into())
}

/// A JSON number as an index (Godot's JSON parses every number as a float).
fn json_index(v: &Variant) -> Option<i64> {
    let f = v.try_to::<f64>().ok()?;
    (f >= 0.0 && f.fract() == 0.0).then_some(f as i64)
}

/// (VRM bone, node name) pairs and the table's version, from a glTF document's JSON.
fn humanoid_table(json: &VarDictionary) -> Result<(Vec<(String, String)>, VrmVersion), String> {
    let get = |d: &VarDictionary, k: &str| d.get(k).and_then(|v| v.try_to::<VarDictionary>().ok());
    let nodes: VarArray = json
        .get("nodes")
        .and_then(|v| v.try_to().ok())
        .unwrap_or_default();
    let node_name = |i: i64| -> Option<String> {
        let node = nodes.get(i as usize)?.try_to::<VarDictionary>().ok()?;
        Some(node.get("name")?.try_to::<GString>().ok()?.to_string())
    };
    let ext = get(json, "extensions").ok_or("no glTF extensions: not a VRM file")?;
    if let Some(vrm1) = get(&ext, "VRMC_vrm") {
        let bones = get(&vrm1, "humanoid")
            .and_then(|h| get(&h, "humanBones"))
            .ok_or("VRMC_vrm has no humanoid.humanBones")?;
        let mut out = Vec::new();
        for (k, v) in bones.iter_shared() {
            let Ok(entry) = v.try_to::<VarDictionary>() else {
                continue;
            };
            let node = entry.get("node").and_then(|n| json_index(&n));
            if let (Ok(bone), Some(name)) = (k.try_to::<GString>(), node.and_then(node_name)) {
                out.push((bone.to_string(), name));
            }
        }
        return Ok((out, VrmVersion::V1));
    }
    if let Some(vrm0) = get(&ext, "VRM") {
        let bones: VarArray = get(&vrm0, "humanoid")
            .and_then(|h| h.get("humanBones"))
            .and_then(|b| b.try_to().ok())
            .ok_or("VRM has no humanoid.humanBones")?;
        let mut out = Vec::new();
        for v in bones.iter_shared() {
            let Ok(entry) = v.try_to::<VarDictionary>() else {
                continue;
            };
            let bone = entry.get("bone").and_then(|b| b.try_to::<GString>().ok());
            let node = entry.get("node").and_then(|n| json_index(&n));
            if let (Some(bone), Some(name)) = (bone, node.and_then(node_name)) {
                out.push((bone.to_string(), name));
            }
        }
        return Ok((out, VrmVersion::V0));
    }
    Err("neither VRMC_vrm (VRM 1.0) nor VRM (0.x) among its extensions".into())
}

/// The bone map of the VRM file at `path` (`res://`, `user://` or a file system path), with
/// the VRM version it came from; or why there is none.
pub fn bone_map_from_vrm(path: &GString) -> Result<(Gd<BoneMap>, VrmVersion, usize), String> {
    let bytes = FileAccess::get_file_as_bytes(path);
    if bytes.is_empty() {
        return Err(format!(
            "cannot read it ({:?})",
            FileAccess::get_open_error()
        ));
    }
    let text = gltf_json(bytes.as_slice())?;
    let parsed = Json::parse_string(&text);
    let json = parsed
        .try_to::<VarDictionary>()
        .map_err(|_| "its glTF JSON does not parse".to_string())?;
    let (table, version) = humanoid_table(&json)?;
    let mapping = vrm_mapping(&table, version);
    let mut map = BoneMap::new_gd();
    map.set_profile(&SkeletonProfileHumanoid::new_gd());
    for (profile, node) in &mapping {
        map.set_skeleton_bone_name(profile.as_str(), node.as_str());
    }
    Ok((map, version, mapping.len()))
}
