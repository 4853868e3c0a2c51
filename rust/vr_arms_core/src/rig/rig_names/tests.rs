//! Tests of the rig namings and the bone map found from the names.

use super::*;

/// A skeleton's bone names and parents from (name, parent name) pairs, as a test rig.
pub(super) fn skeleton(tree: &[(&str, Option<&str>)]) -> (Vec<String>, Vec<Option<usize>>) {
    let names: Vec<String> = tree.iter().map(|(n, _)| n.to_string()).collect();
    let parents = tree
        .iter()
        .map(|(_, p)| p.and_then(|p| names.iter().position(|n| n == p)))
        .collect();
    (names, parents)
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn fingers_are_told_by_name_on_every_rig() {
    for (name, want) in [
        ("LeftIndexProximal", Some((Finger::Index, false))),
        ("mixamorig:RightHandPinky1", Some((Finger::Little, false))),
        ("J_Bip_L_Thumb1", Some((Finger::Thumb, false))),
        ("index_metacarpal_l", Some((Finger::Index, true))),
        ("DEF-f_ring.01.L", Some((Finger::Ring, false))),
        ("LeftHand", None),
    ] {
        assert_eq!(finger_of(name), want, "{name}");
    }
}

#[test]
fn mixamo_names_map_with_either_separator() {
    for prefix in ["mixamorig:", "mixamorig_", "mixamorig1:"] {
        let m = |n: &str| mixamo(&format!("{prefix}{n}"));
        assert_eq!(m("Hips").as_deref(), Some("Hips"));
        assert_eq!(m("Spine1").as_deref(), Some("Chest"));
        assert_eq!(m("LeftArm").as_deref(), Some("LeftUpperArm"));
        assert_eq!(m("LeftHand").as_deref(), Some("LeftHand"));
        assert_eq!(m("RightForeArm").as_deref(), Some("RightLowerArm"));
        assert_eq!(m("LeftHandThumb1").as_deref(), Some("LeftThumbMetacarpal"));
        assert_eq!(m("LeftHandPinky3").as_deref(), Some("LeftLittleDistal"));
        assert_eq!(m("RightUpLeg").as_deref(), Some("RightUpperLeg"));
        assert_eq!(m("LeftToeBase").as_deref(), Some("LeftToes"));
        assert_eq!(
            m("LeftHandIndex4"),
            None,
            "the end bones are no profile bones"
        );
    }
    assert_eq!(mixamo("LeftArm"), None);
}

#[test]
fn vroid_vrm_unreal_and_rigify_names_map() {
    for (name, want) in [
        ("J_Bip_C_UpperChest", "UpperChest"),
        ("J_Bip_L_UpperArm", "LeftUpperArm"),
        ("J_Bip_R_Little2", "RightLittleIntermediate"),
        ("J_Bip_L_Thumb1", "LeftThumbMetacarpal"),
        ("J_Bip_R_ToeBase", "RightToes"),
    ] {
        assert_eq!(vroid(name).as_deref(), Some(want), "{name}");
    }
    for (name, want) in [
        ("pelvis", "Hips"),
        ("spine_02", "Chest"),
        ("clavicle_l", "LeftShoulder"),
        ("upperarm_r", "RightUpperArm"),
        ("lowerarm_l", "LeftLowerArm"),
        ("index_01_l", "LeftIndexProximal"),
        ("thumb_01_r", "RightThumbMetacarpal"),
        ("pinky_03_l", "LeftLittleDistal"),
        ("calf_r", "RightLowerLeg"),
        ("ball_l", "LeftToes"),
    ] {
        assert_eq!(unreal(name).as_deref(), Some(want), "{name}");
    }
    assert_eq!(unreal("upperarm.l").as_deref(), Some("LeftUpperArm"));
    assert_eq!(unreal("index_01.r").as_deref(), Some("RightIndexProximal"));
    assert_eq!(unreal("upperarm_twist_01_l"), None);
    assert_eq!(unreal("index_metacarpal_l"), None);
    for (name, want) in [
        ("spine", "Hips"),
        ("DEF-spine.003", "UpperChest"),
        ("upper_arm.L", "LeftUpperArm"),
        ("DEF-forearm.R", "RightLowerArm"),
        ("f_index.01.L", "LeftIndexProximal"),
        ("thumb.01.R", "RightThumbMetacarpal"),
        ("shin.L", "LeftLowerLeg"),
    ] {
        assert_eq!(rigify(name).as_deref(), Some(want), "{name}");
    }
}

/// Quaternius' Universal Animation Library rig: Rigify's deform bones, but `DEF-hips`,
/// `DEF-neck` and `DEF-head` where Rigify has `spine`, `spine.004` and `spine.006`. Every
/// profile bone is found (before, the hips, neck and head were not: no legs, no hidden head).
#[test]
fn a_rigify_rig_with_hips_neck_and_head_by_name_maps_whole() {
    let mut bones: Vec<String> = ["root", "DEF-hips", "DEF-spine.001", "DEF-spine.002"]
        .into_iter()
        .chain(["DEF-spine.003", "DEF-neck", "DEF-head"])
        .map(String::from)
        .collect();
    for side in ["L", "R"] {
        for part in ["shoulder", "upper_arm", "forearm", "hand"] {
            bones.push(format!("DEF-{part}.{side}"));
        }
        for finger in ["f_index", "f_middle", "f_pinky", "f_ring", "thumb"] {
            for n in 1..=3 {
                bones.push(format!("DEF-{finger}.0{n}.{side}"));
            }
        }
        for part in ["thigh", "shin", "foot", "toe"] {
            bones.push(format!("DEF-{part}.{side}"));
        }
    }
    let map = auto_map(&bones).expect("a map");
    assert_eq!(map.family, RigFamily::Rigify);
    assert_eq!(map.bone("Hips"), Some("DEF-hips"));
    assert_eq!(map.bone("Neck"), Some("DEF-neck"));
    assert_eq!(map.bone("Head"), Some("DEF-head"));
    assert_eq!(map.bone("UpperChest"), Some("DEF-spine.003"));
    assert!(map.missing().is_empty(), "{:?}", map.missing());
    assert_eq!(rigify("DEF-neck").as_deref(), Some("Neck"));
    // A generated Rigify rig's `head` is a control: not the head.
    assert_eq!(rigify("head"), None);
    // Common words see through Blender's deform prefix, and take no mechanism bone.
    assert_eq!(generic::profile_name("DEF-hips").as_deref(), Some("Hips"));
    assert_eq!(generic::profile_name("MCH-hips"), None);
}

#[test]
fn vrm_thumbs_differ_between_versions() {
    assert_eq!(
        vrm_bone("leftThumbProximal", VrmVersion::V0).as_deref(),
        Some("LeftThumbMetacarpal")
    );
    assert_eq!(
        vrm_bone("leftThumbIntermediate", VrmVersion::V0).as_deref(),
        Some("LeftThumbProximal")
    );
    assert_eq!(
        vrm_bone("leftThumbMetacarpal", VrmVersion::V1).as_deref(),
        Some("LeftThumbMetacarpal")
    );
    assert_eq!(
        vrm_bone("rightIndexIntermediate", VrmVersion::V1).as_deref(),
        Some("RightIndexIntermediate")
    );
    assert_eq!(
        vrm_bone("upperChest", VrmVersion::V1).as_deref(),
        Some("UpperChest")
    );
    assert_eq!(vrm_bone("leftEye", VrmVersion::V1), None);
    assert_eq!(vrm_bone("LeftUpperArm", VrmVersion::V1), None);
}

#[test]
fn a_vrm0_table_maps_its_thumb_and_keeps_node_names() {
    let table: Vec<(String, String)> = [
        ("hips", "pelvis_Armature"),
        ("leftUpperArm", "upper_arm.l_Armature"),
        ("leftThumbProximal", "thumb.01.l"),
        ("leftIndexProximal", "Finger:1"),
        ("leftEye", "eye.l"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let m = vrm_mapping(&table, VrmVersion::V0);
    let want: Vec<(String, String)> = [
        ("Hips", "pelvis_Armature"),
        ("LeftUpperArm", "upper_arm.l_Armature"),
        ("LeftThumbMetacarpal", "thumb.01.l"),
        ("LeftIndexProximal", "Finger_1"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(m, want);
}

#[test]
fn auto_map_picks_the_family_that_names_the_arms() {
    let bones = names(&[
        "mixamorig_Hips",
        "mixamorig_Spine",
        "mixamorig_LeftArm",
        "mixamorig_RightArm",
        "mixamorig_LeftHand",
        "Head", // a stray Godot-looking name does not win
    ]);
    let m = auto_map(&bones).unwrap();
    assert_eq!(m.family, RigFamily::Mixamo);
    assert_eq!(m.bone("LeftUpperArm"), Some("mixamorig_LeftArm"));
    assert_eq!(m.bone("Head"), None);
    assert!(m.missing().contains(&"LeftRingProximal"));
    assert!(auto_map(&names(&["Bone", "Bone.001"])).is_none());
    // Names of no known naming: common words, as a last resort.
    let own = auto_map(&names(&["Pelvis", "L_UpperArm", "R_UpperArm", "L_Forearm"])).unwrap();
    assert_eq!(own.family, RigFamily::Generic);
    assert_eq!(own.bone("LeftLowerArm"), Some("L_Forearm"));
}

#[test]
fn mixamo_names_the_spine_legs_and_every_finger() {
    for (bone, want) in [
        ("mixamorig:Spine", "Spine"),
        ("mixamorig:Spine1", "Chest"),
        ("mixamorig:Spine2", "UpperChest"),
        ("mixamorig:Neck", "Neck"),
        ("mixamorig:Head", "Head"),
        ("mixamorig:LeftShoulder", "LeftShoulder"),
        ("mixamorig:RightUpLeg", "RightUpperLeg"),
        ("mixamorig:LeftLeg", "LeftLowerLeg"),
        ("mixamorig:RightFoot", "RightFoot"),
        ("mixamorig:LeftToeBase", "LeftToes"),
        ("mixamorig:LeftHandMiddle1", "LeftMiddleProximal"),
        ("mixamorig:RightHandRing2", "RightRingIntermediate"),
        ("mixamorig:LeftHandPinky3", "LeftLittleDistal"),
    ] {
        assert_eq!(mixamo(bone).as_deref(), Some(want), "{bone}");
    }
    assert_eq!(finger_word("middle"), Some(Finger::Middle));
    assert_eq!(finger_word("ring"), Some(Finger::Ring));
    assert_eq!(finger_word("palm"), None);
}

#[test]
fn the_family_naming_more_bones_wins_and_a_tie_goes_to_the_first() {
    // Godot's names for both arms and a hand (3), Mixamo's for both arms, the forearms and
    // the hips (5): Mixamo.
    let bones = names(&[
        "LeftUpperArm",
        "RightUpperArm",
        "LeftHand",
        "mixamorig_LeftArm",
        "mixamorig_RightArm",
        "mixamorig_LeftForeArm",
        "mixamorig_RightForeArm",
        "mixamorig_Hips",
    ]);
    assert_eq!(auto_map(&bones).unwrap().family, RigFamily::Mixamo);
    // Both name the arms and two bones more: Godot, the first tried.
    let tie = names(&[
        "LeftUpperArm",
        "RightUpperArm",
        "LeftHand",
        "RightHand",
        "mixamorig_LeftArm",
        "mixamorig_RightArm",
        "mixamorig_LeftForeArm",
        "mixamorig_RightForeArm",
    ]);
    assert_eq!(auto_map(&tie).unwrap().family, RigFamily::Godot);
    // One upper arm is not enough for a family.
    let one = names(&[
        "mixamorig_LeftArm",
        "mixamorig_LeftForeArm",
        "mixamorig_Hips",
    ]);
    assert!(map_by(&[RigFamily::Mixamo], &one).is_none());
}

#[test]
fn a_rig_named_partly_like_a_known_one_is_completed_from_common_words() {
    // Quaternius' characters (CC0): the arms and legs match Unreal's names, the clavicles,
    // spine and fingers no known naming.
    let mut list = vec!["Root", "Hips", "Abdomen", "Torso", "Chest", "Neck", "Head"];
    let sides = ["L", "R"];
    let mut owned = Vec::new();
    for s in sides {
        for b in [
            "Shoulder", "UpperArm", "LowerArm", "Hand", "UpperLeg", "LowerLeg", "Foot",
        ] {
            owned.push(format!("{b}.{s}"));
        }
        for f in ["Thumb", "Index", "Middle", "Ring", "Pinky"] {
            for k in 1..=3 {
                owned.push(format!("{f}{k}.{s}"));
            }
        }
    }
    list.extend(owned.iter().map(String::as_str));
    let m = auto_map(&names(&list)).unwrap();
    assert_eq!(m.family, RigFamily::Unreal);
    for (profile, bone) in [
        ("LeftUpperArm", "UpperArm.L"),
        ("RightHand", "Hand.R"),
        ("LeftShoulder", "Shoulder.L"),
        ("RightShoulder", "Shoulder.R"),
        ("Head", "Head"),
        ("LeftIndexProximal", "Index1.L"),
        ("RightLittleDistal", "Pinky3.R"),
        ("LeftThumbMetacarpal", "Thumb1.L"),
    ] {
        assert_eq!(m.bone(profile), Some(bone), "{profile}");
    }
    let fingers = m
        .mapping
        .iter()
        .filter(|(_, b)| finger_of(b).is_some())
        .count();
    assert_eq!(fingers, 30);
    // No bone is used twice, and the map is in profile order.
    let mut used: Vec<&str> = m.mapping.iter().map(|(_, b)| b.as_str()).collect();
    used.sort();
    used.dedup();
    assert_eq!(used.len(), m.mapping.len());
    let order: Vec<usize> = m
        .mapping
        .iter()
        .map(|(p, _)| PROFILE_BONES.iter().position(|q| q == p).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn godot_names_map_onto_themselves() {
    let bones: Vec<String> = PROFILE_BONES.iter().map(|s| s.to_string()).collect();
    let m = auto_map(&bones).unwrap();
    assert_eq!(m.family, RigFamily::Godot);
    assert_eq!(m.mapping.len(), PROFILE_BONES.len());
    assert!(m.mapping.iter().all(|(a, b)| a == b));
}

#[test]
fn each_naming_has_its_own_label_as_the_docs_name_it() {
    let labels: Vec<&str> = RigFamily::ALL
        .iter()
        .chain([&RigFamily::Generic])
        .map(|f| f.label())
        .collect();
    for (family, label) in [
        (RigFamily::Godot, "Godot humanoid"),
        (RigFamily::Mixamo, "Mixamo"),
        (RigFamily::Unreal, "Unreal mannequin"),
        (RigFamily::Generic, "common bone words"),
    ] {
        assert_eq!(family.label(), label);
    }
    let mut unique = labels.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), labels.len(), "{labels:?}");
}

#[test]
fn motion_capture_skeletons_map_by_their_own_namings() {
    // CMU's "Daz-friendly" BVH: `lShldr` is the upper arm, `lCollar` the clavicle.
    let daz = names(&[
        "hip", "abdomen", "chest", "neck", "head", "leftEye", "rCollar", "rShldr", "rForeArm",
        "rHand", "rMid1", "lCollar", "lShldr", "lForeArm", "lHand", "lThumb1", "rButtock",
        "rThigh", "rShin", "rFoot", "lButtock", "lThigh", "lShin", "lFoot",
    ]);
    let m = auto_map(&daz).unwrap();
    assert_eq!(m.family, RigFamily::Daz);
    for (profile, bone) in [
        ("Spine", "abdomen"),
        ("Chest", "chest"),
        ("LeftShoulder", "lCollar"),
        ("LeftUpperArm", "lShldr"),
        ("RightLowerLeg", "rShin"),
        ("RightMiddleProximal", "rMid1"),
    ] {
        assert_eq!(m.bone(profile), Some(bone), "{profile}");
    }
    // The "MotionBuilder-friendly" one and Ready Player Me: Mixamo's names, no prefix.
    let plain = names(&[
        "Hips",
        "LHipJoint",
        "LeftUpLeg",
        "LeftLeg",
        "LeftFoot",
        "LowerBack",
        "Spine",
        "Spine1",
        "Neck",
        "Neck1",
        "Head",
        "LeftShoulder",
        "LeftArm",
        "LeftForeArm",
        "LeftHand",
        "LeftHandIndex1",
        "RightShoulder",
        "RightArm",
        "RightForeArm",
        "RightHand",
    ]);
    let m = auto_map(&plain).unwrap();
    assert_eq!(m.family, RigFamily::MixamoPlain);
    for (profile, bone) in [
        ("Chest", "Spine1"),
        ("Neck", "Neck"),
        ("LeftUpperArm", "LeftArm"),
        ("LeftShoulder", "LeftShoulder"),
        ("LeftLowerLeg", "LeftLeg"),
        ("LeftIndexProximal", "LeftHandIndex1"),
    ] {
        assert_eq!(m.bone(profile), Some(bone), "{profile}");
    }
    // Character Creator, twist helpers beside the chain.
    let cc = names(&[
        "RL_BoneRoot",
        "CC_Base_Hip",
        "CC_Base_Pelvis",
        "CC_Base_L_Thigh",
        "CC_Base_L_ThighTwist01",
        "CC_Base_Waist",
        "CC_Base_Spine01",
        "CC_Base_Spine02",
        "CC_Base_NeckTwist01",
        "CC_Base_Head",
        "CC_Base_L_Clavicle",
        "CC_Base_L_Upperarm",
        "CC_Base_L_UpperarmTwist01",
        "CC_Base_L_Forearm",
        "CC_Base_L_Hand",
        "CC_Base_R_Clavicle",
        "CC_Base_R_Upperarm",
        "CC_Base_R_Forearm",
        "CC_Base_R_Hand",
    ]);
    let m = auto_map(&cc).unwrap();
    assert_eq!(m.family, RigFamily::CharacterCreator);
    for (profile, bone) in [
        ("Hips", "CC_Base_Hip"),
        ("UpperChest", "CC_Base_Spine02"),
        ("LeftUpperArm", "CC_Base_L_Upperarm"),
        ("LeftUpperLeg", "CC_Base_L_Thigh"),
    ] {
        assert_eq!(m.bone(profile), Some(bone), "{profile}");
    }
}

/// A character's bones under a namespace (`Beta:LeftArm`, as Maya and Mixamo export a named
/// character) map as the names after it, and keep their own names in the map.
#[test]
fn names_under_a_namespace_map_as_the_names_after_it() {
    let bones = names(&[
        "Beta:Hips",
        "Beta:Spine",
        "Beta:Spine1",
        "Beta:Spine2",
        "Beta:Neck",
        "Beta:Head",
        "Beta:LeftShoulder",
        "Beta:LeftArm",
        "Beta:LeftForeArm",
        "Beta:LeftHand",
        "Beta:RightShoulder",
        "Beta:RightArm",
        "Beta:RightForeArm",
        "Beta:RightHand",
        "Beta:LeftUpLeg",
        "Beta:LeftLeg",
        "Beta:LeftFoot",
        "Beta:RightUpLeg",
        "Beta:RightLeg",
        "Beta:RightFoot",
    ]);
    let m = auto_map(&bones).unwrap();
    assert_eq!(m.family, RigFamily::MixamoPlain);
    for (profile, bone) in [
        ("Hips", "Beta:Hips"),
        ("LeftUpperArm", "Beta:LeftArm"),
        ("RightLowerArm", "Beta:RightForeArm"),
        ("LeftUpperLeg", "Beta:LeftUpLeg"),
        ("Head", "Beta:Head"),
    ] {
        assert_eq!(m.bone(profile), Some(bone), "{profile}");
    }
    // A trailing colon is no namespace.
    assert_eq!(super::without_namespace("Beta:"), None);
    assert_eq!(super::without_namespace("Hips"), None);
}

/// A Ready Player Me avatar's skeleton (Mixamo's names without the prefix, eyes and end bones
/// beside them): every profile bone maps, Chest, UpperChest and all thirty finger bones too.
#[test]
fn a_ready_player_me_skeleton_maps_every_profile_bone() {
    let mut list: Vec<String> = [
        "Armature",
        "Hips",
        "Spine",
        "Spine1",
        "Spine2",
        "Neck",
        "Head",
        "HeadTop_End",
        "LeftEye",
        "RightEye",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for side in ["Left", "Right"] {
        for part in [
            "Shoulder", "Arm", "ForeArm", "Hand", "UpLeg", "Leg", "Foot", "ToeBase",
        ] {
            list.push(format!("{side}{part}"));
        }
        list.push(format!("{side}Toe_End"));
        for finger in ["Thumb", "Index", "Middle", "Ring", "Pinky"] {
            for joint in 1..=4 {
                list.push(format!("{side}Hand{finger}{joint}"));
            }
        }
    }
    let m = auto_map(&list).unwrap();
    assert_eq!(m.family, RigFamily::MixamoPlain);
    assert!(m.missing().is_empty(), "unmapped: {:?}", m.missing());
    assert_eq!(m.bone("UpperChest"), Some("Spine2"));
    assert_eq!(m.bone("LeftThumbMetacarpal"), Some("LeftHandThumb1"));
    assert_eq!(m.bone("RightLittleDistal"), Some("RightHandPinky3"));
}

/// `names` with each `{s}` in `sided` made once per side (`sides`: the left's and the right's
/// spelling).
fn rig(names: &[&str], sided: &[&str], sides: [&str; 2]) -> Vec<String> {
    let mut list: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    for side in sides {
        list.extend(sided.iter().map(|n| n.replace("{s}", side)));
    }
    list
}

/// A VRoid Studio avatar exported without its VRM table (as a glTF or FBX): `J_Bip_` bones,
/// `J_Adj_` eyes and twist helpers, `J_Sec_` hair and cloth. Every profile bone maps (the eyes
/// are not profile bones).
#[test]
fn a_vroid_skeleton_maps_every_profile_bone() {
    let list = rig(
        &[
            "Root",
            "J_Bip_C_Hips",
            "J_Bip_C_Spine",
            "J_Bip_C_Chest",
            "J_Bip_C_UpperChest",
            "J_Bip_C_Neck",
            "J_Bip_C_Head",
            "J_Sec_Hair1_01",
            "J_Sec_Hair2_01",
        ],
        &[
            "J_Adj_{s}_FaceEye",
            "J_Bip_{s}_Shoulder",
            "J_Bip_{s}_UpperArm",
            "J_Adj_{s}_UpperArmTwist01",
            "J_Bip_{s}_LowerArm",
            "J_Bip_{s}_Hand",
            "J_Bip_{s}_Thumb1",
            "J_Bip_{s}_Thumb2",
            "J_Bip_{s}_Thumb3",
            "J_Bip_{s}_Index1",
            "J_Bip_{s}_Index2",
            "J_Bip_{s}_Index3",
            "J_Bip_{s}_Middle1",
            "J_Bip_{s}_Middle2",
            "J_Bip_{s}_Middle3",
            "J_Bip_{s}_Ring1",
            "J_Bip_{s}_Ring2",
            "J_Bip_{s}_Ring3",
            "J_Bip_{s}_Little1",
            "J_Bip_{s}_Little2",
            "J_Bip_{s}_Little3",
            "J_Bip_{s}_UpperLeg",
            "J_Bip_{s}_LowerLeg",
            "J_Bip_{s}_Foot",
            "J_Bip_{s}_ToeBase",
            "J_Sec_{s}_Bust1",
        ],
        ["L", "R"],
    );
    let m = auto_map(&list).unwrap();
    assert_eq!(m.family, RigFamily::Vroid);
    assert!(m.missing().is_empty(), "unmapped: {:?}", m.missing());
    assert_eq!(m.bone("Hips"), Some("J_Bip_C_Hips"));
    assert_eq!(m.bone("LeftUpperArm"), Some("J_Bip_L_UpperArm"));
    assert_eq!(m.bone("RightLittleDistal"), Some("J_Bip_R_Little3"));
}

/// A Daz Genesis 8 figure: bend and twist bones, a lower and upper abdomen, chest and neck,
/// carpal bones in the palm. Every profile bone maps, to the bend bones.
#[test]
fn a_daz_genesis_skeleton_maps_every_profile_bone() {
    let list = rig(
        &[
            "hip",
            "pelvis",
            "abdomenLower",
            "abdomenUpper",
            "chestLower",
            "chestUpper",
            "neckLower",
            "neckUpper",
            "head",
            "lowerJaw",
        ],
        &[
            "{s}Eye",
            "{s}Collar",
            "{s}ShldrBend",
            "{s}ShldrTwist",
            "{s}ForearmBend",
            "{s}ForearmTwist",
            "{s}Hand",
            "{s}Thumb1",
            "{s}Thumb2",
            "{s}Thumb3",
            "{s}Carpal1",
            "{s}Index1",
            "{s}Index2",
            "{s}Index3",
            "{s}Carpal2",
            "{s}Mid1",
            "{s}Mid2",
            "{s}Mid3",
            "{s}Carpal3",
            "{s}Ring1",
            "{s}Ring2",
            "{s}Ring3",
            "{s}Carpal4",
            "{s}Pinky1",
            "{s}Pinky2",
            "{s}Pinky3",
            "{s}ThighBend",
            "{s}ThighTwist",
            "{s}Shin",
            "{s}Foot",
            "{s}Metatarsals",
            "{s}Toe",
        ],
        ["l", "r"],
    );
    let m = auto_map(&list).unwrap();
    assert_eq!(m.family, RigFamily::Daz);
    assert!(m.missing().is_empty(), "unmapped: {:?}", m.missing());
    assert_eq!(m.bone("Hips"), Some("hip"));
    assert_eq!(m.bone("LeftUpperArm"), Some("lShldrBend"));
    assert_eq!(m.bone("RightUpperLeg"), Some("rThighBend"));
    assert_eq!(m.bone("LeftLowerLeg"), Some("lShin"));
}

/// A Character Creator 4 character: `CC_Base_` bones with twist helpers on the arms and legs
/// and two neck twists. Every profile bone maps, to the main bones.
#[test]
fn a_character_creator_skeleton_maps_every_profile_bone() {
    let list = rig(
        &[
            "CC_Base_BoneRoot",
            "CC_Base_Hip",
            "CC_Base_Pelvis",
            "CC_Base_Waist",
            "CC_Base_Spine01",
            "CC_Base_Spine02",
            "CC_Base_NeckTwist01",
            "CC_Base_NeckTwist02",
            "CC_Base_Head",
            "CC_Base_FacialBone",
        ],
        &[
            "CC_Base_{s}_Eye",
            "CC_Base_{s}_Clavicle",
            "CC_Base_{s}_Upperarm",
            "CC_Base_{s}_UpperarmTwist01",
            "CC_Base_{s}_Forearm",
            "CC_Base_{s}_ForearmTwist01",
            "CC_Base_{s}_Hand",
            "CC_Base_{s}_Thumb1",
            "CC_Base_{s}_Thumb2",
            "CC_Base_{s}_Thumb3",
            "CC_Base_{s}_Index1",
            "CC_Base_{s}_Index2",
            "CC_Base_{s}_Index3",
            "CC_Base_{s}_Mid1",
            "CC_Base_{s}_Mid2",
            "CC_Base_{s}_Mid3",
            "CC_Base_{s}_Ring1",
            "CC_Base_{s}_Ring2",
            "CC_Base_{s}_Ring3",
            "CC_Base_{s}_Pinky1",
            "CC_Base_{s}_Pinky2",
            "CC_Base_{s}_Pinky3",
            "CC_Base_{s}_Thigh",
            "CC_Base_{s}_ThighTwist01",
            "CC_Base_{s}_Calf",
            "CC_Base_{s}_CalfTwist01",
            "CC_Base_{s}_Foot",
            "CC_Base_{s}_ToeBase",
        ],
        ["L", "R"],
    );
    let m = auto_map(&list).unwrap();
    assert_eq!(m.family, RigFamily::CharacterCreator);
    assert!(m.missing().is_empty(), "unmapped: {:?}", m.missing());
    assert_eq!(m.bone("LeftUpperArm"), Some("CC_Base_L_Upperarm"));
    assert_eq!(m.bone("RightLowerLeg"), Some("CC_Base_R_Calf"));
    assert_eq!(m.bone("Neck"), Some("CC_Base_NeckTwist01"));
}
