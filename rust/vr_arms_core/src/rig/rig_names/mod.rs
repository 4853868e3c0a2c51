//! Bone names of the rigs people bring, mapped onto Godot's humanoid profile names
//! (`SkeletonProfileHumanoid`: `Hips`, `LeftUpperArm`, `LeftIndexProximal`, ...).
//!
//! Recognised: Godot's own names, Mixamo (`mixamorig:LeftArm`, or `mixamorig_LeftArm` as Godot's
//! importer writes it), VRoid / VRM (`J_Bip_L_UpperArm`), VRM's humanoid bone names
//! (`leftUpperArm`, 0.x and 1.0, see [`vrm_bone`]), Unreal's mannequin (`upperarm_l`,
//! `index_01_l`), Blender / Rigify (`upper_arm.L`, `DEF-upper_arm.L`, `f_index.01.L`), Mixamo's
//! names without the prefix (`LeftArm`, as Ready Player Me and CMU's "MotionBuilder-friendly" BVH
//! have them), Daz (`lShldr`, `lForearmBend`) and Character Creator (`CC_Base_L_Upperarm`). The
//! result is a bone map: the plan of [`crate::rig::bone_rename`] applies it.

use std::collections::HashMap;

mod generic;
mod pelvis;
mod prefixed;
mod wrist;

pub use wrist::auto_map_tree;

/// The five fingers, in Godot's humanoid order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Finger {
    Thumb = 0,
    Index = 1,
    Middle = 2,
    Ring = 3,
    Little = 4,
}

/// Which finger a bone's name speaks of (any rig's naming), and whether the bone is that
/// finger's metacarpal (in the palm, before the knuckle).
pub fn finger_of(name: &str) -> Option<(Finger, bool)> {
    let n = name.to_ascii_lowercase();
    let finger = if n.contains("thumb") {
        Finger::Thumb
    } else if n.contains("index") {
        Finger::Index
    } else if n.contains("middle") {
        Finger::Middle
    } else if n.contains("ring") {
        Finger::Ring
    } else if n.contains("little") || n.contains("pinky") {
        Finger::Little
    } else {
        return None;
    };
    Some((finger, n.contains("metacarpal")))
}

/// A naming family this module recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RigFamily {
    Godot,
    Mixamo,
    Vroid,
    VrmHumanoid,
    Unreal,
    Rigify,
    /// Mixamo's names without a `mixamorig` prefix (Ready Player Me).
    MixamoPlain,
    Daz,
    CharacterCreator,
    /// Common words (`L_UpperArm`, `forearm.R`): the last resort.
    Generic,
}

impl RigFamily {
    /// The known namings, tried first; [`RigFamily::Generic`] only when none names both arms.
    pub const ALL: [RigFamily; 9] = [
        RigFamily::Godot,
        RigFamily::Mixamo,
        RigFamily::Vroid,
        RigFamily::VrmHumanoid,
        RigFamily::Unreal,
        RigFamily::Rigify,
        RigFamily::MixamoPlain,
        RigFamily::Daz,
        RigFamily::CharacterCreator,
    ];

    /// How people call it.
    pub fn label(self) -> &'static str {
        match self {
            RigFamily::Godot => "Godot humanoid",
            RigFamily::Mixamo => "Mixamo",
            RigFamily::Vroid => "VRoid / VRM (J_Bip_)",
            RigFamily::VrmHumanoid => "VRM humanoid names",
            RigFamily::Unreal => "Unreal mannequin",
            RigFamily::Rigify => "Blender / Rigify",
            RigFamily::MixamoPlain => "Mixamo without prefix (Ready Player Me)",
            RigFamily::Daz => "Daz",
            RigFamily::CharacterCreator => "Character Creator",
            RigFamily::Generic => "common bone words",
        }
    }

    /// The profile name of a bone named `name` in this family, if it is one of its bones.
    pub fn profile_name(self, name: &str) -> Option<String> {
        match self {
            RigFamily::Godot => PROFILE_BONES
                .iter()
                .find(|p| **p == name)
                .map(|p| p.to_string()),
            RigFamily::Mixamo => mixamo(name),
            RigFamily::Vroid => vroid(name),
            RigFamily::VrmHumanoid => vrm_bone(name, VrmVersion::V1),
            RigFamily::Unreal => unreal(name),
            RigFamily::Rigify => rigify(name),
            RigFamily::MixamoPlain => mixamo_part(name),
            RigFamily::Daz => prefixed::DAZ.profile_name(name),
            RigFamily::CharacterCreator => prefixed::CHARACTER_CREATOR.profile_name(name),
            RigFamily::Generic => generic::profile_name(name),
        }
    }
}

/// Godot's humanoid profile, the bones this module maps onto (`Root` and the eyes and jaw,
/// which no stage uses, are left out).
pub const PROFILE_BONES: [&str; 52] = [
    "Hips",
    "Spine",
    "Chest",
    "UpperChest",
    "Neck",
    "Head",
    "LeftShoulder",
    "LeftUpperArm",
    "LeftLowerArm",
    "LeftHand",
    "LeftThumbMetacarpal",
    "LeftThumbProximal",
    "LeftThumbDistal",
    "LeftIndexProximal",
    "LeftIndexIntermediate",
    "LeftIndexDistal",
    "LeftMiddleProximal",
    "LeftMiddleIntermediate",
    "LeftMiddleDistal",
    "LeftRingProximal",
    "LeftRingIntermediate",
    "LeftRingDistal",
    "LeftLittleProximal",
    "LeftLittleIntermediate",
    "LeftLittleDistal",
    "RightShoulder",
    "RightUpperArm",
    "RightLowerArm",
    "RightHand",
    "RightThumbMetacarpal",
    "RightThumbProximal",
    "RightThumbDistal",
    "RightIndexProximal",
    "RightIndexIntermediate",
    "RightIndexDistal",
    "RightMiddleProximal",
    "RightMiddleIntermediate",
    "RightMiddleDistal",
    "RightRingProximal",
    "RightRingIntermediate",
    "RightRingDistal",
    "RightLittleProximal",
    "RightLittleIntermediate",
    "RightLittleDistal",
    "LeftUpperLeg",
    "LeftLowerLeg",
    "LeftFoot",
    "LeftToes",
    "RightUpperLeg",
    "RightLowerLeg",
    "RightFoot",
    "RightToes",
];

const FINGER_PROFILE: [&str; 5] = ["Thumb", "Index", "Middle", "Ring", "Little"];
/// Joint names of the thumb (metacarpal first) and of the other fingers, in profile terms.
const THUMB_JOINTS: [&str; 3] = ["Metacarpal", "Proximal", "Distal"];
const FINGER_JOINTS: [&str; 3] = ["Proximal", "Intermediate", "Distal"];

/// The profile name of `finger`'s `joint`-th bone (0, 1, 2) on `side` ("Left" / "Right").
fn finger_profile(side: &str, finger: Finger, joint: usize) -> Option<String> {
    let joints = if finger == Finger::Thumb {
        THUMB_JOINTS
    } else {
        FINGER_JOINTS
    };
    Some(format!(
        "{side}{}{}",
        FINGER_PROFILE[finger as usize],
        joints.get(joint)?
    ))
}

fn finger_word(word: &str) -> Option<Finger> {
    Some(match word {
        "thumb" => Finger::Thumb,
        "index" => Finger::Index,
        "middle" => Finger::Middle,
        "ring" => Finger::Ring,
        "little" | "pinky" => Finger::Little,
        _ => return None,
    })
}

/// The body bones (no fingers) shared by Mixamo's and Godot's side-prefixed names.
fn limb(side: &str, part: &str) -> Option<String> {
    let p = match part {
        "Shoulder" => "Shoulder",
        "Arm" | "UpperArm" => "UpperArm",
        "ForeArm" | "LowerArm" => "LowerArm",
        "Hand" => "Hand",
        "UpLeg" | "UpperLeg" => "UpperLeg",
        "Leg" | "LowerLeg" => "LowerLeg",
        "Foot" => "Foot",
        "ToeBase" | "Toes" => "Toes",
        _ => return None,
    };
    Some(format!("{side}{p}"))
}

/// `Left` / `Right` and the rest, for a name that starts with one of them.
fn split_side(name: &str) -> Option<(&'static str, &str)> {
    if let Some(rest) = name.strip_prefix("Left") {
        Some(("Left", rest))
    } else {
        name.strip_prefix("Right").map(|rest| ("Right", rest))
    }
}

/// Mixamo: `mixamorig:Hips`, `mixamorig_Spine1`, `mixamorig1:LeftHandIndex1`, ... (any
/// `mixamorig` prefix, with `:` or `_`).
fn mixamo(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let start = lower.find("mixamorig")?;
    let rest = &name[start + "mixamorig".len()..];
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = rest.strip_prefix(':').or_else(|| rest.strip_prefix('_'))?;
    mixamo_part(rest)
}

/// A Mixamo bone name after its prefix (`Hips`, `Spine1`, `LeftHandIndex1`).
fn mixamo_part(rest: &str) -> Option<String> {
    match rest {
        "Hips" => return Some("Hips".into()),
        "Spine" => return Some("Spine".into()),
        "Spine1" => return Some("Chest".into()),
        "Spine2" => return Some("UpperChest".into()),
        "Neck" => return Some("Neck".into()),
        "Head" => return Some("Head".into()),
        _ => {}
    }
    let (side, part) = split_side(rest)?;
    if let Some(finger_part) = part.strip_prefix("Hand").filter(|f| !f.is_empty()) {
        let digits = finger_part.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let word = &finger_part[..finger_part.len() - digits.len()];
        let finger = finger_word(&word.to_ascii_lowercase())?;
        let joint: usize = digits.parse().ok()?;
        return finger_profile(side, finger, joint.checked_sub(1)?);
    }
    limb(side, part)
}

/// VRoid's `J_Bip_C_Hips`, `J_Bip_L_UpperArm`, `J_Bip_L_Index1`, `J_Bip_L_ToeBase`.
fn vroid(name: &str) -> Option<String> {
    let rest = name.strip_prefix("J_Bip_")?;
    let (side, part) = if let Some(p) = rest.strip_prefix("C_") {
        ("", p)
    } else if let Some(p) = rest.strip_prefix("L_") {
        ("Left", p)
    } else {
        ("Right", rest.strip_prefix("R_")?)
    };
    if side.is_empty() {
        return ["Hips", "Spine", "Chest", "UpperChest", "Neck", "Head"]
            .iter()
            .find(|p| **p == part)
            .map(|p| p.to_string());
    }
    let digits = part.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    if !digits.is_empty() {
        let word = &part[..part.len() - digits.len()];
        let finger = finger_word(&word.to_ascii_lowercase())?;
        let joint: usize = digits.parse().ok()?;
        return finger_profile(side, finger, joint.checked_sub(1)?);
    }
    limb(side, part)
}

/// Which VRM humanoid table a name comes from: VRM 0.x calls the thumb's three bones
/// proximal, intermediate and distal; VRM 1.0 (as Godot) metacarpal, proximal and distal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VrmVersion {
    V0,
    V1,
}

/// The profile name of a VRM humanoid bone name (`hips`, `leftUpperArm`, `leftThumbProximal`,
/// ...). VRM 0.x's `leftThumbProximal` is Godot's `LeftThumbMetacarpal`.
pub fn vrm_bone(name: &str, version: VrmVersion) -> Option<String> {
    let mut chars = name.chars();
    let first = chars.next()?;
    if !first.is_ascii_lowercase() {
        return None;
    }
    let pascal: String = first.to_ascii_uppercase().to_string() + chars.as_str();
    if let Some((side, part)) = split_side(&pascal) {
        for (fi, word) in FINGER_PROFILE.iter().enumerate() {
            if let Some(joint) = part.strip_prefix(word) {
                let finger = [
                    Finger::Thumb,
                    Finger::Index,
                    Finger::Middle,
                    Finger::Ring,
                    Finger::Little,
                ][fi];
                let joints: &[&str] = if finger == Finger::Thumb && version == VrmVersion::V0 {
                    &["Proximal", "Intermediate", "Distal"]
                } else if finger == Finger::Thumb {
                    &THUMB_JOINTS
                } else {
                    &FINGER_JOINTS
                };
                let j = joints.iter().position(|j| *j == joint)?;
                return finger_profile(side, finger, j);
            }
        }
        if part == "Eye" {
            return None;
        }
        return limb(side, part);
    }
    ["Hips", "Spine", "Chest", "UpperChest", "Neck", "Head"]
        .iter()
        .find(|p| **p == pascal)
        .map(|p| p.to_string())
}

/// A VRM humanoid table ((VRM bone name, node name) pairs, as a VRM file lists them) as a bone
/// map of (profile name, node name) pairs in profile order. Node names are written as Godot's
/// glTF importer names bones (`:` and `/` become `_`). Entries naming no profile bone (eyes,
/// jaw) are left out.
pub fn vrm_mapping(table: &[(String, String)], version: VrmVersion) -> Vec<(String, String)> {
    let mut by_profile: HashMap<String, String> = HashMap::new();
    for (bone, node) in table {
        if let Some(p) = vrm_bone(bone, version) {
            by_profile
                .entry(p)
                .or_insert_with(|| node.replace([':', '/'], "_"));
        }
    }
    PROFILE_BONES
        .iter()
        .filter_map(|p| by_profile.get(*p).map(|n| (p.to_string(), n.clone())))
        .collect()
}

/// A naming whose sides are suffixes (`upperarm_l`, `upper_arm.L`): its spine by whole names,
/// its side suffixes, its fingers as `WORD<sep>NUMBER` and its limbs by their base names.
struct SuffixNaming {
    /// Lower-case the name first (Unreal's names are matched in any case).
    lower_case: bool,
    prefixes: &'static [&'static str],
    spine: &'static [(&'static str, &'static str)],
    left: &'static [&'static str],
    right: &'static [&'static str],
    finger_separator: char,
    finger_prefix: &'static str,
    limbs: &'static [(&'static str, &'static str)],
}

impl SuffixNaming {
    fn profile_name(&self, name: &str) -> Option<String> {
        let lowered;
        let mut n = if self.lower_case {
            lowered = name.to_ascii_lowercase();
            lowered.as_str()
        } else {
            name
        };
        if let Some(rest) = self.prefixes.iter().find_map(|p| n.strip_prefix(p)) {
            n = rest;
        }
        if let Some((_, p)) = self.spine.iter().find(|(bone, _)| *bone == n) {
            return Some(p.to_string());
        }
        let strip = |suffixes: &[&str]| suffixes.iter().find_map(|s| n.strip_suffix(s));
        let (base, side) = match (strip(self.left), strip(self.right)) {
            (Some(b), _) => (b, "Left"),
            (None, Some(b)) => (b, "Right"),
            (None, None) => return None,
        };
        if let Some((word, joint)) = base.split_once(self.finger_separator) {
            let finger = finger_word(word.trim_start_matches(self.finger_prefix))?;
            let joint: usize = joint.parse().ok()?;
            return finger_profile(side, finger, joint.checked_sub(1)?);
        }
        let (_, part) = self.limbs.iter().find(|(bone, _)| *bone == base)?;
        Some(format!("{side}{part}"))
    }
}

/// Unreal's mannequin: `pelvis`, `spine_01`..`spine_03` (..`_05` in UE5), `neck_01`, `head`,
/// `clavicle_l`, `upperarm_l`, `lowerarm_l`, `hand_l`, `thumb_01_l`, `index_01_l`, `pinky_03_l`,
/// `thigh_l`, `calf_l`, `foot_l`, `ball_l`, also with `.l` as Blender exports of the mannequin
/// have it (GDQuest's Mannequiny). Twist and metacarpal bones are not profile bones.
const UNREAL: SuffixNaming = SuffixNaming {
    lower_case: true,
    prefixes: &[],
    spine: &[
        ("pelvis", "Hips"),
        ("spine_01", "Spine"),
        ("spine_02", "Chest"),
        ("spine_03", "UpperChest"),
        ("neck_01", "Neck"),
        ("head", "Head"),
    ],
    left: &["_l", ".l"],
    right: &["_r", ".r"],
    finger_separator: '_',
    finger_prefix: "",
    limbs: &[
        ("clavicle", "Shoulder"),
        ("upperarm", "UpperArm"),
        ("lowerarm", "LowerArm"),
        ("hand", "Hand"),
        ("thigh", "UpperLeg"),
        ("calf", "LowerLeg"),
        ("foot", "Foot"),
        ("ball", "Toes"),
    ],
};

/// Blender's metarig and Rigify's deform bones: `spine` (the hips) .. `spine.006` (the head),
/// or the deform bones `DEF-hips`, `DEF-neck` and `DEF-head` (as Quaternius' Universal
/// Animation Library rig has them; a generated Rigify rig's `hips`, `neck` and `head` are
/// controls, which deform nothing), `shoulder.L`, `upper_arm.L`, `forearm.L`, `hand.L`, `thumb.01.L`, `f_index.01.L`,
/// `thigh.L`, `shin.L`, `foot.L`, `toe.L`, with or without `DEF-` / `ORG-`.
const RIGIFY: SuffixNaming = SuffixNaming {
    lower_case: false,
    prefixes: &["DEF-", "ORG-"],
    spine: &[
        ("spine", "Hips"),
        ("spine.001", "Spine"),
        ("spine.002", "Chest"),
        ("spine.003", "UpperChest"),
        ("spine.004", "Neck"),
        ("spine.006", "Head"),
    ],
    left: &[".L", "_L"],
    right: &[".R", "_R"],
    finger_separator: '.',
    finger_prefix: "f_",
    limbs: &[
        ("shoulder", "Shoulder"),
        ("upper_arm", "UpperArm"),
        ("forearm", "LowerArm"),
        ("hand", "Hand"),
        ("thigh", "UpperLeg"),
        ("shin", "LowerLeg"),
        ("foot", "Foot"),
        ("toe", "Toes"),
    ],
};

fn unreal(name: &str) -> Option<String> {
    UNREAL.profile_name(name)
}

fn rigify(name: &str) -> Option<String> {
    match name {
        "DEF-hips" => Some("Hips".to_string()),
        "DEF-neck" => Some("Neck".to_string()),
        "DEF-head" => Some("Head".to_string()),
        _ => RIGIFY.profile_name(name),
    }
}

/// A bone map found from the names alone: the family that names the most bones (both upper
/// arms at least; common words only when no known naming does), and its (profile name,
/// skeleton bone name) pairs in profile order.
#[derive(Clone, Debug, PartialEq)]
pub struct AutoMap {
    pub family: RigFamily,
    pub mapping: Vec<(String, String)>,
}

impl AutoMap {
    /// The skeleton bone given the profile name `profile`, if mapped.
    pub fn bone(&self, profile: &str) -> Option<&str> {
        self.mapping
            .iter()
            .find(|(p, _)| p == profile)
            .map(|(_, b)| b.as_str())
    }

    /// Profile bones the rig lacks (a rig without ring fingers or toes is fine: these are for
    /// the record, never a per-frame message).
    pub fn missing(&self) -> Vec<&'static str> {
        PROFILE_BONES
            .iter()
            .filter(|p| self.bone(p).is_none())
            .copied()
            .collect()
    }
}

/// The best bone map for a skeleton whose bones are `bones`, or `None` when no family names
/// both upper arms. A profile bone named twice in one family (Unreal's `spine_04` after
/// `spine_03`...) keeps its first bone in skeleton order.
pub fn auto_map(bones: &[String]) -> Option<AutoMap> {
    let generic = map_by(&[RigFamily::Generic], bones);
    let Some(mut known) = map_by(RigFamily::ALL.as_slice(), bones) else {
        return generic;
    };
    // A rig named partly like a known one (Quaternius' `UpperArm.L` is Unreal's `upperarm_l`,
    // its `Index1.L` and `Shoulder.L` are nobody's): what the known naming leaves out is filled
    // from the common words, never with a bone it already uses.
    if let Some(generic) = generic {
        let filled: Vec<(String, String)> = generic
            .mapping
            .into_iter()
            .filter(|(p, b)| {
                known.bone(p).is_none() && known.mapping.iter().all(|(_, used)| used != b)
            })
            .collect();
        if !filled.is_empty() {
            known.mapping.extend(filled);
            let order = |p: &str| PROFILE_BONES.iter().position(|q| *q == p);
            known.mapping.sort_by_key(|(p, _)| order(p));
        }
    }
    Some(known)
}

/// `name` after its namespace (`Beta:Hips` is `Hips`), `None` without one.
fn without_namespace(name: &str) -> Option<&str> {
    name.rsplit_once(':')
        .map(|(_, bone)| bone)
        .filter(|b| !b.is_empty())
}

/// The best of `families` for `bones` (see [`auto_map`]).
fn map_by(families: &[RigFamily], bones: &[String]) -> Option<AutoMap> {
    let mut best: Option<AutoMap> = None;
    for &family in families {
        let mut by_profile: HashMap<String, String> = HashMap::new();
        for bone in bones {
            // A name under a namespace (`Beta:LeftArm`, as Maya and Mixamo export a named
            // character's bones) is the name after it.
            let name = family
                .profile_name(bone)
                .or_else(|| family.profile_name(without_namespace(bone)?));
            if let Some(p) = name {
                by_profile.entry(p).or_insert_with(|| bone.clone());
            }
        }
        if !(by_profile.contains_key("LeftUpperArm") && by_profile.contains_key("RightUpperArm")) {
            continue;
        }
        let mapping: Vec<(String, String)> = PROFILE_BONES
            .iter()
            .filter_map(|p| by_profile.get(*p).map(|b| (p.to_string(), b.clone())))
            .collect();
        if best
            .as_ref()
            .is_none_or(|b| mapping.len() > b.mapping.len())
        {
            best = Some(AutoMap { family, mapping });
        }
    }
    best
}

#[cfg(test)]
mod tests;
