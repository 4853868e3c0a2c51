//! The last resort for a rig whose names are no known naming's: common words for each bone
//! (`L_UpperArm`, `arm_left`, `Forearm.R`, `hand_r`, `Index_2_L`), as Godot's `BoneMapper`
//! guesses. Only used when no known naming names both upper arms.

use super::{finger_profile, finger_word};

/// The words of a bone name: split at `_ . : - ` and spaces, at lower-to-upper case changes and
/// between letters and digits, lower-cased.
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut last: Option<char> = None;
    for c in name.chars() {
        let split = !c.is_alphanumeric()
            || last.is_some_and(|l| {
                (l.is_lowercase() && c.is_uppercase())
                    || (l.is_alphabetic() && c.is_ascii_digit())
                    || (l.is_ascii_digit() && c.is_alphabetic())
            });
        if split && !word.is_empty() {
            out.push(std::mem::take(&mut word).to_lowercase());
        }
        if c.is_alphanumeric() {
            word.push(c);
        }
        last = Some(c);
    }
    if !word.is_empty() {
        out.push(word.to_lowercase());
    }
    out
}

/// The profile name that common words in `name` speak of, if any.
pub(super) fn profile_name(name: &str) -> Option<String> {
    let mut w = words(name);
    // Blender's deform-bone prefix (`DEF-hips`) says nothing of the bone (its `ORG-` and
    // `MCH-` bones deform nothing: not taken).
    if w.first().is_some_and(|x| x == "def") {
        w.remove(0);
    } else if w.first().is_some_and(|x| x == "org" || x == "mch") {
        return None;
    }
    let side = if let Some(i) = w.iter().position(|x| x == "left" || x == "l") {
        w.remove(i);
        Some("Left")
    } else if let Some(i) = w.iter().position(|x| x == "right" || x == "r") {
        w.remove(i);
        Some("Right")
    } else {
        None
    };
    let number: Option<usize> = w.iter().find_map(|x| x.parse().ok());
    w.retain(|x| x.parse::<usize>().is_err());
    let joined = w.concat();
    let Some(side) = side else {
        let part = match joined.as_str() {
            "hips" | "hip" | "pelvis" => "Hips",
            "spine" if number.is_none_or(|n| n <= 1) => "Spine",
            "chest" => "Chest",
            "upperchest" => "UpperChest",
            "neck" => "Neck",
            "head" => "Head",
            _ => return None,
        };
        return Some(part.to_string());
    };
    if let Some(finger) = w
        .first()
        .and_then(|x| finger_word(x))
        .filter(|_| w.len() == 1)
    {
        // Numbered from 1, the thumb's first bone its metacarpal (as Mixamo and VRoid count).
        return finger_profile(side, finger, number?.checked_sub(1)?);
    }
    let part = match joined.as_str() {
        "shoulder" | "clavicle" | "collar" => "Shoulder",
        "upperarm" | "arm" | "uparm" => "UpperArm",
        "forearm" | "lowerarm" | "elbow" => "LowerArm",
        "hand" | "wrist" => "Hand",
        "thigh" | "upleg" | "upperleg" => "UpperLeg",
        "calf" | "shin" | "leg" | "lowerleg" | "knee" => "LowerLeg",
        "foot" | "ankle" => "Foot",
        "toe" | "toes" | "toebase" | "ball" => "Toes",
        _ => return None,
    };
    Some(format!("{side}{part}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_words_name_the_bones() {
        for (name, want) in [
            ("L_UpperArm", Some("LeftUpperArm")),
            ("arm_left", Some("LeftUpperArm")),
            ("Forearm.R", Some("RightLowerArm")),
            ("hand_r", Some("RightHand")),
            ("RightLeg", Some("RightLowerLeg")),
            ("Index_2_L", Some("LeftIndexIntermediate")),
            ("thumb1_r", Some("RightThumbMetacarpal")),
            ("Pelvis", Some("Hips")),
            ("Spine2", None),
            ("Head", Some("Head")),
            ("Bone.001", None),
            ("hair_l", None),
        ] {
            assert_eq!(profile_name(name).as_deref(), want, "{name}");
        }
    }

    #[test]
    fn words_split_at_case_digits_and_separators() {
        assert_eq!(words("L_UpperArm2"), ["l", "upper", "arm", "2"]);
        assert_eq!(words("forearm.R"), ["forearm", "r"]);
    }
}
