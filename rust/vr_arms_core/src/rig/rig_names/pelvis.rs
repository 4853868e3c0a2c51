//! A bone called the hips that the legs do not hang from (Quaternius' game rigs: `Root` >
//! `Body` > `Hips` > `Abdomen`, the thighs on `Body`): taken by its name, the body would lower
//! only the spine in a crouch, the legs staying where they stood. The pelvis is the bone the
//! legs hang from; the bone called the hips is then the spine's first.

use super::{AutoMap, PROFILE_BONES};

/// Moves `map`'s `Hips` to the bone both upper legs hang from, when that bone is above the
/// mapped hips, is not the skeleton's root and maps nothing else, and makes the bone called the hips the `Spine` if the
/// map has none (it would otherwise keep the name `Hips` beside the pelvis renamed to it). A
/// map whose hips carry the legs, or whose legs hang from different bones, is left alone.
pub(super) fn hips_where_legs_hang(map: &mut AutoMap, bones: &[String], parents: &[Option<usize>]) {
    let index = |profile: &str| {
        let name = map.bone(profile)?;
        bones.iter().position(|b| b == name)
    };
    let (Some(hips), Some(left), Some(right)) =
        (index("Hips"), index("LeftUpperLeg"), index("RightUpperLeg"))
    else {
        return;
    };
    let parent = |i: usize| parents.get(i).copied().flatten();
    let above = |ancestor: usize, bone: usize| {
        crate::maths::pose_tree::hangs_below(bone, ancestor, bones.len(), parent)
    };
    let Some(pelvis) = parent(left).filter(|&p| Some(p) == parent(right)) else {
        return;
    };
    // Hips that carry the legs have the legs' parent at or below them, never above; the
    // skeleton's root bone (a game rig's floor-level `Root`) is no pelvis.
    let taken = map.mapping.iter().any(|(_, b)| *b == bones[pelvis]);
    let root = parent(pelvis).is_none();
    if !above(pelvis, hips) || taken || root || map.bone("Spine").is_some() {
        return;
    }
    let called_hips = bones[hips].clone();
    for entry in map.mapping.iter_mut() {
        if entry.0 == "Hips" {
            entry.1 = bones[pelvis].clone();
        }
    }
    map.mapping.push(("Spine".into(), called_hips));
    let order = |p: &str| PROFILE_BONES.iter().position(|q| *q == p);
    map.mapping.sort_by_key(|(p, _)| order(p));
}

#[cfg(test)]
mod tests {
    use crate::rig::rig_names::{auto_map, auto_map_tree};

    /// Quaternius' Cyberpunk character (its glTF's bones and parents, the arms cut to one).
    fn quaternius() -> (Vec<String>, Vec<Option<usize>>) {
        let tree: [(&str, Option<&str>); 16] = [
            ("Root", None),
            ("Body", Some("Root")),
            ("Hips", Some("Body")),
            ("Abdomen", Some("Hips")),
            ("Torso", Some("Abdomen")),
            ("Chest", Some("Torso")),
            ("Neck", Some("Chest")),
            ("Head", Some("Neck")),
            ("UpperArm.L", Some("Chest")),
            ("UpperArm.R", Some("Chest")),
            ("UpperLeg.L", Some("Body")),
            ("LowerLeg.L", Some("UpperLeg.L")),
            ("UpperLeg.R", Some("Body")),
            ("LowerLeg.R", Some("UpperLeg.R")),
            ("Foot.L", Some("Root")),
            ("Foot.R", Some("Root")),
        ];
        crate::rig::rig_names::tests::skeleton(&tree)
    }

    /// The names take `Hips`; the legs hang from `Body`, so `Body` is the hips and the bone
    /// called the hips the spine.
    #[test]
    fn the_hips_are_the_bone_the_legs_hang_from() {
        let (names, parents) = quaternius();
        assert_eq!(auto_map(&names).unwrap().bone("Hips"), Some("Hips"));
        let m = auto_map_tree(&names, &parents).unwrap();
        assert_eq!(m.bone("Hips"), Some("Body"));
        assert_eq!(m.bone("Spine"), Some("Hips"));
        assert_eq!(m.bone("Chest"), Some("Chest"));
        let profiles: Vec<&str> = m.mapping.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(&profiles[..3], ["Hips", "Spine", "Chest"]);
    }

    /// Hips that carry the legs, legs on two different bones, on a bone beside the hips or on
    /// the skeleton's root, and a map with a spine of its own stay as the names map them.
    #[test]
    fn other_hips_are_left_alone() {
        let (names, parents) = quaternius();
        let hips_of = |names: &[String], parents: &[Option<usize>]| {
            auto_map_tree(names, parents)
                .unwrap()
                .bone("Hips")
                .map(str::to_string)
        };
        // The legs on the hips.
        let mut on_hips = parents.clone();
        on_hips[10] = Some(2);
        on_hips[12] = Some(2);
        assert_eq!(hips_of(&names, &on_hips).as_deref(), Some("Hips"));
        // One leg on the root.
        let mut apart = parents.clone();
        apart[12] = Some(0);
        assert_eq!(hips_of(&names, &apart).as_deref(), Some("Hips"));
        // Both legs on a bone beside the hips (not above them).
        let mut beside = names.clone();
        beside.push("Legs".into());
        let mut beside_parents = parents.clone();
        beside_parents.push(Some(1));
        beside_parents[10] = Some(16);
        beside_parents[12] = Some(16);
        assert_eq!(hips_of(&beside, &beside_parents).as_deref(), Some("Hips"));
        // Both legs on the skeleton's root bone.
        let mut on_root = parents.clone();
        on_root[10] = Some(0);
        on_root[12] = Some(0);
        assert_eq!(hips_of(&names, &on_root).as_deref(), Some("Hips"));
        // A spine by name already.
        let mut spined = names.clone();
        spined[3] = "Spine".into();
        assert_eq!(hips_of(&spined, &parents).as_deref(), Some("Hips"));
    }
}
