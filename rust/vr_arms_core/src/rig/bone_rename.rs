//! Which bones to rename so a skeleton with its own bone names (Mixamo's `mixamorig_LeftArm`,
//! VRM's `J_Bip_L_UpperArm`, ...) carries the humanoid profile's names (`LeftUpperArm`), from a
//! bone map of profile name -> skeleton name (Godot's `BoneMap`).
//!
//! Only the plan lives here; the extension applies it to the `Skeleton3D` and to the bone tracks
//! of the character's animations.

use std::collections::HashMap;

/// One bone to rename: its index in the skeleton, its name now, its profile name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoneRename {
    pub bone: usize,
    pub from: String,
    pub to: String,
}

/// Why a bone map cannot be applied. Nothing is renamed when one is found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoneRenameError {
    /// Two profile bones name the same skeleton bone.
    SharedBone {
        skeleton_bone: String,
        first: String,
        second: String,
    },
    /// A profile name is already a skeleton bone's name, and that bone is not being renamed.
    NameTaken { profile_bone: String },
}

impl std::fmt::Display for BoneRenameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::SharedBone {
                skeleton_bone,
                first,
                second,
            } => write!(
                f,
                "the bone map gives the skeleton bone \"{skeleton_bone}\" to both \"{first}\" and \"{second}\""
            ),
            Self::NameTaken { profile_bone } => write!(
                f,
                "the skeleton already has another bone named \"{profile_bone}\", which the bone map does not rename; map it or rename it first"
            ),
        }
    }
}

/// The renames that give the skeleton's bones (`bones`, by index) their profile names, from
/// `mapping` (profile name, skeleton name) pairs in profile order. Entries with an empty skeleton
/// name, or naming a bone the skeleton lacks, are skipped (a generic map may list bones a rig
/// does not have, such as a jaw); a bone already carrying its profile name needs no rename.
pub fn plan_bone_renames(
    bones: &[String],
    mapping: &[(String, String)],
) -> Result<Vec<BoneRename>, BoneRenameError> {
    let index: HashMap<&str, usize> = bones
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut claimed: HashMap<usize, &str> = HashMap::new();
    let mut renames = Vec::new();
    for (profile, skeleton_name) in mapping {
        let Some(&bone) = index.get(skeleton_name.as_str()) else {
            continue;
        };
        if let Some(first) = claimed.insert(bone, profile) {
            return Err(BoneRenameError::SharedBone {
                skeleton_bone: skeleton_name.clone(),
                first: first.to_string(),
                second: profile.clone(),
            });
        }
        if skeleton_name != profile {
            renames.push(BoneRename {
                bone,
                from: skeleton_name.clone(),
                to: profile.clone(),
            });
        }
    }
    for r in &renames {
        if let Some(&holder) = index.get(r.to.as_str())
            && !claimed.contains_key(&holder)
        {
            return Err(BoneRenameError::NameTaken {
                profile_bone: r.to.clone(),
            });
        }
    }
    Ok(renames)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn map(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn mixamo_names_become_profile_names() {
        let bones = names(&[
            "mixamorig_Hips",
            "mixamorig_LeftArm",
            "mixamorig_LeftForeArm",
        ]);
        let plan = plan_bone_renames(
            &bones,
            &map(&[
                ("Hips", "mixamorig_Hips"),
                ("LeftUpperArm", "mixamorig_LeftArm"),
                ("LeftLowerArm", "mixamorig_LeftForeArm"),
            ]),
        )
        .unwrap();
        let to: Vec<_> = plan.iter().map(|r| (r.bone, r.to.as_str())).collect();
        assert_eq!(to, [(0, "Hips"), (1, "LeftUpperArm"), (2, "LeftLowerArm")]);
        assert_eq!(plan[1].from, "mixamorig_LeftArm");
    }

    #[test]
    fn absent_and_empty_entries_are_skipped_and_right_names_kept() {
        let bones = names(&["Hips", "arm_l"]);
        let plan = plan_bone_renames(
            &bones,
            &map(&[
                ("Hips", "Hips"),
                ("Jaw", "jaw"),
                ("Neck", ""),
                ("LeftUpperArm", "arm_l"),
            ]),
        )
        .unwrap();
        assert_eq!(
            plan,
            [BoneRename {
                bone: 1,
                from: "arm_l".into(),
                to: "LeftUpperArm".into()
            }]
        );
    }

    #[test]
    fn two_profile_bones_on_one_skeleton_bone_are_refused() {
        let bones = names(&["spine"]);
        let err = plan_bone_renames(&bones, &map(&[("Spine", "spine"), ("Chest", "spine")]));
        assert_eq!(
            err,
            Err(BoneRenameError::SharedBone {
                skeleton_bone: "spine".into(),
                first: "Spine".into(),
                second: "Chest".into()
            })
        );
    }

    #[test]
    fn a_profile_name_held_by_an_unmapped_bone_is_refused() {
        let bones = names(&["Head", "head_real"]);
        let err = plan_bone_renames(&bones, &map(&[("Head", "head_real")]));
        assert_eq!(
            err,
            Err(BoneRenameError::NameTaken {
                profile_bone: "Head".into()
            })
        );
    }

    #[test]
    fn swapped_names_are_a_valid_plan() {
        // Both bones are renamed, so neither name stays taken (the extension renames in two
        // passes through temporary names).
        let bones = names(&["LeftHand", "RightHand"]);
        let plan = plan_bone_renames(
            &bones,
            &map(&[("LeftHand", "RightHand"), ("RightHand", "LeftHand")]),
        )
        .unwrap();
        assert_eq!(plan.len(), 2);
    }
}
