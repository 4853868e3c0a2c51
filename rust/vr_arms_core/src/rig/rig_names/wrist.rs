//! A wrist bone with a tip bone after it (KayKit's `lowerarm.l` > `wrist.l` > `hand.l` >
//! `handslot.l`, no fingers): the names alone take the tip for the hand (`hand.l` is Unreal's
//! hand), so the wrist would never bend and the fist would point where the tip does. With the
//! skeleton's parents known, the wrist is the hand.

use super::{AutoMap, auto_map, generic};

/// [`auto_map`] for a skeleton whose bone `i` is named `bones[i]` with parent `parents[i]`
/// (`None` for a root): where the hand it finds hangs from a bone between it and the lower arm
/// that common words also call a hand or a wrist, and no finger is mapped on that side, the
/// hand is that bone. The hips are the bone the legs hang from
/// ([`super::pelvis::hips_where_legs_hang`]).
pub fn auto_map_tree(bones: &[String], parents: &[Option<usize>]) -> Option<AutoMap> {
    let mut map = auto_map(bones)?;
    super::pelvis::hips_where_legs_hang(&mut map, bones, parents);
    for side in ["Left", "Right"] {
        let hand = format!("{side}Hand");
        let Some(wrist) = wrist_before(&map, &hand, side, bones, parents) else {
            continue;
        };
        if let Some(entry) = map.mapping.iter_mut().find(|(p, _)| *p == hand) {
            entry.1 = wrist;
        }
    }
    Some(map)
}

/// The bone to take for `hand` instead of the one `map` gives, if any (see [`auto_map_tree`]).
fn wrist_before(
    map: &AutoMap,
    hand: &str,
    side: &str,
    bones: &[String],
    parents: &[Option<usize>],
) -> Option<String> {
    let index = |name: &str| bones.iter().position(|b| b == name);
    let tip = index(map.bone(hand)?)?;
    let lower_arm = map.bone(&format!("{side}LowerArm")).and_then(index);
    let parent = (*parents.get(tip)?)?;
    let fingers = map
        .mapping
        .iter()
        .any(|(p, _)| p.starts_with(side) && super::finger_of(p).is_some());
    let wrist = &bones[parent];
    let called_hand = generic::profile_name(wrist).as_deref() == Some(hand);
    let used = map.mapping.iter().any(|(_, b)| b == wrist);
    (Some(parent) != lower_arm && called_hand && !fingers && !used).then(|| wrist.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::rig_names::RigFamily;

    /// KayKit's character rig (`Rig_Medium`), names and parents as its files have them.
    fn kaykit() -> (Vec<String>, Vec<Option<usize>>) {
        let tree: [(&str, Option<&str>); 23] = [
            ("root", None),
            ("hips", Some("root")),
            ("spine", Some("hips")),
            ("chest", Some("spine")),
            ("head", Some("chest")),
            ("upperarm.l", Some("chest")),
            ("lowerarm.l", Some("upperarm.l")),
            ("wrist.l", Some("lowerarm.l")),
            ("hand.l", Some("wrist.l")),
            ("handslot.l", Some("hand.l")),
            ("upperarm.r", Some("chest")),
            ("lowerarm.r", Some("upperarm.r")),
            ("wrist.r", Some("lowerarm.r")),
            ("hand.r", Some("wrist.r")),
            ("handslot.r", Some("hand.r")),
            ("upperleg.l", Some("hips")),
            ("lowerleg.l", Some("upperleg.l")),
            ("foot.l", Some("lowerleg.l")),
            ("toes.l", Some("foot.l")),
            ("upperleg.r", Some("hips")),
            ("lowerleg.r", Some("upperleg.r")),
            ("foot.r", Some("lowerleg.r")),
            ("toes.r", Some("foot.r")),
        ];
        crate::rig::rig_names::tests::skeleton(&tree)
    }

    /// The names alone take the tip for the hand; with the parents, the wrist. The rest of the
    /// KayKit rig maps too: no neck, no shoulders, no fingers (none are made up).
    #[test]
    fn a_wrist_with_a_tip_after_it_is_the_hand() {
        let (names, parents) = kaykit();
        assert_eq!(auto_map(&names).unwrap().bone("LeftHand"), Some("hand.l"));
        let m = auto_map_tree(&names, &parents).unwrap();
        for (profile, bone) in [
            ("LeftHand", "wrist.l"),
            ("RightHand", "wrist.r"),
            ("LeftLowerArm", "lowerarm.l"),
            ("Hips", "hips"),
            ("Spine", "spine"),
            ("Chest", "chest"),
            ("Head", "head"),
            ("LeftUpperLeg", "upperleg.l"),
            ("RightLowerLeg", "lowerleg.r"),
            ("RightToes", "toes.r"),
        ] {
            assert_eq!(m.bone(profile), Some(bone), "{profile}");
        }
        for lacking in ["Neck", "LeftShoulder", "RightShoulder", "LeftIndexProximal"] {
            assert_eq!(m.bone(lacking), None, "{lacking}");
        }
    }

    /// A hand straight after the lower arm, a hand with fingers, and a parent that is no hand or
    /// wrist by name stay as the names map them.
    #[test]
    fn other_hands_are_left_alone() {
        let (names, parents) = kaykit();
        // The tip hanging from the lower arm (no wrist between).
        let mut direct = parents.clone();
        direct[8] = Some(6);
        assert_eq!(
            auto_map_tree(&names, &direct).unwrap().bone("LeftHand"),
            Some("hand.l")
        );
        // A finger on the hand: the hand is the hand.
        let mut with_finger = names.clone();
        with_finger.push("index_01_l".into());
        let mut finger_parents = parents.clone();
        finger_parents.push(Some(8));
        let m = auto_map_tree(&with_finger, &finger_parents).unwrap();
        assert_eq!(m.family, RigFamily::Unreal);
        assert_eq!(m.bone("LeftHand"), Some("hand.l"));
        assert_eq!(m.bone("RightHand"), Some("wrist.r"));
        // A parent called something else.
        let mut renamed = names.clone();
        renamed[7] = "forearm_twist.l".into();
        assert_eq!(
            auto_map_tree(&renamed, &parents).unwrap().bone("LeftHand"),
            Some("hand.l")
        );
        // Parents that do not fit the names: as the names alone.
        assert_eq!(auto_map_tree(&names, &[]), auto_map(&names));
    }
}
