//! Namings whose sides are prefixes and whose fingers are numbered words: Daz Studio's figures
//! (`lShldr`, `lForearmBend`, `lIndex1`) and Reallusion Character Creator's (`CC_Base_L_Upperarm`,
//! `CC_Base_L_Mid1`).

use super::{finger_profile, finger_word};

/// A naming with side prefixes (`l` / `r`, `L_` / `R_`): a prefix every bone has (empty for
/// Daz),
/// its spine by whole names, its limbs by base names, its fingers as `WORD<NUMBER>` counted from
/// 1 (the thumb's first bone is its metacarpal, as Mixamo and VRoid count).
pub(super) struct PrefixNaming {
    prefix: &'static str,
    spine: &'static [(&'static str, &'static str)],
    left: &'static str,
    right: &'static str,
    limbs: &'static [(&'static str, &'static str)],
    /// Finger words as this naming writes them (`Mid`) and the word [`finger_word`] reads.
    fingers: &'static [(&'static str, &'static str)],
}

impl PrefixNaming {
    pub(super) fn profile_name(&self, name: &str) -> Option<String> {
        let n = name.strip_prefix(self.prefix)?;
        if let Some((_, p)) = self.spine.iter().find(|(bone, _)| *bone == n) {
            return Some(p.to_string());
        }
        let (side, base) = if let Some(b) = n.strip_prefix(self.left) {
            ("Left", b)
        } else {
            ("Right", n.strip_prefix(self.right)?)
        };
        // Daz's sides are one lower-case letter before a capital: `lShldr`, not `lowerJaw`.
        if !base.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        let digits = base.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        if !digits.is_empty() {
            let word = &base[..base.len() - digits.len()];
            let (_, read) = self.fingers.iter().find(|(w, _)| *w == word)?;
            let joint: usize = digits.parse().ok()?;
            return finger_profile(side, finger_word(read)?, joint.checked_sub(1)?);
        }
        let (_, part) = self.limbs.iter().find(|(bone, _)| *bone == base)?;
        Some(format!("{side}{part}"))
    }
}

const FINGERS: &[(&str, &str)] = &[
    ("Thumb", "thumb"),
    ("Index", "index"),
    ("Mid", "middle"),
    ("Ring", "ring"),
    ("Pinky", "pinky"),
];

/// Daz Studio: the older figures' `hip`, `abdomen`, `chest`, `neck`, `head`, `lCollar`, `lShldr`
/// (the upper arm), `lForeArm`, `lHand`, `lThigh`, `lShin`, `lFoot` (as CMU's "Daz-friendly" BVH
/// names them), and Genesis' `abdomenLower`, `chestUpper`, `neckLower`, `lShldrBend`,
/// `lForearmBend`, `lThighBend`, `lToe`. Twist bones (`lShldrTwist`) are not profile bones.
pub(super) const DAZ: PrefixNaming = PrefixNaming {
    prefix: "",
    spine: &[
        ("hip", "Hips"),
        ("abdomen", "Spine"),
        ("abdomenLower", "Spine"),
        ("chest", "Chest"),
        ("chestLower", "Chest"),
        ("chestUpper", "UpperChest"),
        ("neck", "Neck"),
        ("neckLower", "Neck"),
        ("head", "Head"),
    ],
    left: "l",
    right: "r",
    limbs: &[
        ("Collar", "Shoulder"),
        ("Shldr", "UpperArm"),
        ("ShldrBend", "UpperArm"),
        ("ForeArm", "LowerArm"),
        ("ForearmBend", "LowerArm"),
        ("Hand", "Hand"),
        ("Thigh", "UpperLeg"),
        ("ThighBend", "UpperLeg"),
        ("Shin", "LowerLeg"),
        ("Foot", "Foot"),
        ("Toe", "Toes"),
    ],
    fingers: FINGERS,
};

/// Character Creator (3 and 4): `CC_Base_Hip`, `CC_Base_Waist`, `CC_Base_Spine01`,
/// `CC_Base_Spine02`, `CC_Base_NeckTwist01`, `CC_Base_Head`, `CC_Base_L_Clavicle`,
/// `CC_Base_L_Upperarm`, `CC_Base_L_Forearm`, `CC_Base_L_Hand`, `CC_Base_L_Thigh`,
/// `CC_Base_L_Calf`, `CC_Base_L_Foot`, `CC_Base_L_ToeBase`, `CC_Base_L_Index1`. The twist and
/// "ShareBone" helpers beside the chain are not profile bones; `CC_Base_Pelvis`, the legs' parent
/// at the hips' place, is not either (the hips are its parent `CC_Base_Hip`, above the spine too).
pub(super) const CHARACTER_CREATOR: PrefixNaming = PrefixNaming {
    prefix: "CC_Base_",
    spine: &[
        ("Hip", "Hips"),
        ("Waist", "Spine"),
        ("Spine01", "Chest"),
        ("Spine02", "UpperChest"),
        ("NeckTwist01", "Neck"),
        ("Head", "Head"),
    ],
    left: "L_",
    right: "R_",
    limbs: &[
        ("Clavicle", "Shoulder"),
        ("Upperarm", "UpperArm"),
        ("Forearm", "LowerArm"),
        ("Hand", "Hand"),
        ("Thigh", "UpperLeg"),
        ("Calf", "LowerLeg"),
        ("Foot", "Foot"),
        ("ToeBase", "Toes"),
    ],
    fingers: FINGERS,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn daz_names_map_old_and_genesis() {
        for (name, want) in [
            ("hip", Some("Hips")),
            ("abdomen", Some("Spine")),
            ("chestUpper", Some("UpperChest")),
            ("lCollar", Some("LeftShoulder")),
            ("lShldr", Some("LeftUpperArm")),
            ("rShldrBend", Some("RightUpperArm")),
            ("lForeArm", Some("LeftLowerArm")),
            ("rForearmBend", Some("RightLowerArm")),
            ("rShin", Some("RightLowerLeg")),
            ("lThumb1", Some("LeftThumbMetacarpal")),
            ("rMid2", Some("RightMiddleIntermediate")),
            ("lPinky3", Some("LeftLittleDistal")),
            ("lShldrTwist", None),
            ("lButtock", None),
            ("leftEye", None),
            ("lowerJaw", None),
        ] {
            assert_eq!(DAZ.profile_name(name).as_deref(), want, "{name}");
        }
    }

    #[test]
    fn character_creator_names_map_and_helpers_do_not() {
        for (name, want) in [
            ("CC_Base_Hip", Some("Hips")),
            ("CC_Base_Spine02", Some("UpperChest")),
            ("CC_Base_NeckTwist01", Some("Neck")),
            ("CC_Base_L_Clavicle", Some("LeftShoulder")),
            ("CC_Base_R_Upperarm", Some("RightUpperArm")),
            ("CC_Base_L_Calf", Some("LeftLowerLeg")),
            ("CC_Base_R_ToeBase", Some("RightToes")),
            ("CC_Base_L_Mid1", Some("LeftMiddleProximal")),
            ("CC_Base_R_Thumb1", Some("RightThumbMetacarpal")),
            ("CC_Base_L_UpperarmTwist01", None),
            ("CC_Base_L_ElbowShareBone", None),
            ("CC_Base_Pelvis", None),
            ("L_Upperarm", None),
        ] {
            assert_eq!(
                CHARACTER_CREATOR.profile_name(name).as_deref(),
                want,
                "{name}"
            );
        }
    }
}
