//! Which joint of a BVH skeleton is which: the same bone-name recognition the one-click setup
//! uses on a user's avatar ([`vr_arms_core::rig::rig_names::auto_map`]), then the structure for what
//! names do not say (the chest is where the clavicles hang, the abdomen is the chest's parent,
//! the eyes are the joints below the head named so).

use vr_arms_core::rig::rig_names::{RigFamily, auto_map_tree};

use crate::bvh::Bvh;

/// Joint indices the evaluation reads.
#[derive(Clone, Copy, Debug)]
pub struct Joints {
    pub hips: usize,
    pub chest: usize,
    pub neck: usize,
    pub head: usize,
    pub eyes: Option<(usize, usize)>,
    /// Per side, left first.
    pub clavicle: [usize; 2],
    pub upper: [usize; 2],
    pub lower: [usize; 2],
    pub hand: [usize; 2],
    /// The legs, when the skeleton has them all.
    pub lower_body: Option<LowerJoints>,
    /// Per side: the roots of the fingers that give the hand's frame, when it has them.
    pub fingers: [Option<FingerRoots>; 2],
}

/// A hand's finger roots that give its frame: the long axis runs from the wrist to `long`
/// (the middle finger, else the index), the palm's width from `little` (else the ring finger)
/// to `index`.
#[derive(Clone, Copy, Debug)]
pub struct FingerRoots {
    pub long: usize,
    pub index: usize,
    pub little: usize,
}

/// The lower body's joints of a clip.
#[derive(Clone, Copy, Debug)]
pub struct LowerJoints {
    /// The joint between the hips and the chest.
    pub abdomen: usize,
    /// Per side: upper leg, lower leg, ankle.
    pub legs: [[usize; 3]; 2],
}

/// The joints the evaluation cannot do without, as Godot's humanoid profile names them.
const REQUIRED: [&str; 10] = [
    "Hips",
    "Head",
    "LeftShoulder",
    "LeftUpperArm",
    "LeftLowerArm",
    "LeftHand",
    "RightShoulder",
    "RightUpperArm",
    "RightLowerArm",
    "RightHand",
];

impl Joints {
    /// The joints of `bvh`, and the naming they were recognised by; or one error naming every
    /// joint the skeleton lacks.
    pub fn find(bvh: &Bvh) -> Result<(Joints, RigFamily), String> {
        let names: Vec<String> = bvh.joints.iter().map(|j| j.name.clone()).collect();
        let parents: Vec<Option<usize>> = bvh.joints.iter().map(|j| j.parent).collect();
        let map = auto_map_tree(&names, &parents).ok_or_else(|| {
            "no humanoid joints recognised: no naming names both upper arms (lacks LeftUpperArm, \
             RightUpperArm)"
                .to_string()
        })?;
        let index = |profile: &str| map.bone(profile).and_then(|b| bvh.joint(b));
        let missing: Vec<&str> = REQUIRED
            .iter()
            .filter(|p| index(p).is_none())
            .copied()
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "a {} skeleton without the joints the evaluation needs: lacks {}",
                map.family.label(),
                missing.join(", ")
            ));
        }
        let get = |p: &str| index(p).expect("checked above");
        let parent = |j: usize| bvh.joints[j].parent;
        let head = get("Head");
        let clavicle = [get("LeftShoulder"), get("RightShoulder")];
        // The chest is the joint the clavicles hang from, whatever its name.
        let chest = parent(clavicle[0]).ok_or("the left clavicle has no parent")?;
        let hips = get("Hips");
        let neck = index("Neck").or_else(|| parent(head)).unwrap_or(chest);
        let below_head = |mut j: usize| {
            while let Some(p) = parent(j) {
                if p == head {
                    return true;
                }
                j = p;
            }
            false
        };
        let eyes: Vec<usize> = (0..bvh.joints.len())
            .filter(|&j| bvh.joints[j].name.to_ascii_lowercase().contains("eye"))
            .filter(|&j| below_head(j))
            .collect();
        let legs = [
            ["LeftUpperLeg", "LeftLowerLeg", "LeftFoot"],
            ["RightUpperLeg", "RightLowerLeg", "RightFoot"],
        ];
        let lower_body = (|| {
            let legs = [legs[0].map(index), legs[1].map(index)];
            let abdomen = parent(chest).filter(|&a| a != hips)?;
            Some(LowerJoints {
                abdomen,
                legs: [
                    [legs[0][0]?, legs[0][1]?, legs[0][2]?],
                    [legs[1][0]?, legs[1][1]?, legs[1][2]?],
                ],
            })
        })();
        let fingers = ["Left", "Right"].map(|side| {
            let f = |finger: &str| index(&format!("{side}{finger}Proximal"));
            Some(FingerRoots {
                long: f("Middle").or_else(|| f("Index"))?,
                index: f("Index")?,
                little: f("Little").or_else(|| f("Ring"))?,
            })
        });
        Ok((
            Joints {
                hips,
                chest,
                neck,
                head,
                eyes: (eyes.len() == 2).then(|| (eyes[0], eyes[1])),
                clavicle,
                upper: [get("LeftUpperArm"), get("RightUpperArm")],
                lower: [get("LeftLowerArm"), get("RightLowerArm")],
                hand: [get("LeftHand"), get("RightHand")],
                lower_body,
                fingers,
            },
            map.family,
        ))
    }
}
