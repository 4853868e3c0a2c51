//! The lower body's bones in a skeleton (by name), gathered into a [`TreeBuilder`] with the
//! rest measures the core's [`LowerBody`] needs: shared by `LowerBodyRig` (the node graph) and
//! `VRRemoteBody`/`VRBodySolver` (one composition).

use godot::classes::Skeleton3D;
use godot::prelude::*;
use vr_arms_core::lower_body::{LowerBodyBones, legs::LegBones};
use vr_arms_core::maths::pose_tree::hangs_below;
use vr_arms_core::{PerSide, Side};

use crate::convert::vec3;
use crate::skeleton_tree::TreeBuilder;

/// The lower body's bone names: hips, the spine between hips and head (spine, chest, upper
/// chest, neck; any may be missing), head, per leg (left, right) upper leg, lower leg, foot,
/// and each foot's toes (optional: a missing one, or one not a child of its foot, is skipped).
#[derive(Clone, Debug, PartialEq)]
pub struct LowerBodyNames {
    pub hips: String,
    pub spine: [String; 4],
    pub head: String,
    pub legs: [[String; 3]; 2],
    pub toes: [String; 2],
}

impl Default for LowerBodyNames {
    /// Godot's humanoid names (`SkeletonProfileHumanoid`).
    fn default() -> Self {
        let s = |n: &str| n.to_string();
        Self {
            hips: s("Hips"),
            spine: [s("Spine"), s("Chest"), s("UpperChest"), s("Neck")],
            head: s("Head"),
            legs: ["Left", "Right"]
                .map(|side| ["UpperLeg", "LowerLeg", "Foot"].map(|b| format!("{side}{b}"))),
            toes: [s("LeftToes"), s("RightToes")],
        }
    }
}

/// Why the skeleton's lower body cannot be solved (a configuration warning), if it cannot:
/// a missing hips or head bone, or a leg whose lower leg is not a child of its upper leg (a
/// foot may hang from elsewhere: the core puts it where the shin ends).
pub fn lower_body_problems(skeleton: &Gd<Skeleton3D>, names: &LowerBodyNames) -> Vec<String> {
    let mut out = Vec::new();
    for name in [&names.hips, &names.head] {
        if skeleton.find_bone(name.as_str()) < 0 {
            out.push(format!("The skeleton has no bone \"{name}\"."));
        }
    }
    for leg in &names.legs {
        let found = leg.clone().map(|n| skeleton.find_bone(n.as_str()));
        if let Some(missing) = leg.iter().zip(found).find(|(_, b)| *b < 0) {
            out.push(format!(
                "The skeleton has no bone \"{}\": that leg is not solved.",
                missing.0
            ));
            continue;
        }
        // The foot may hang from elsewhere (a game rig whose feet were IK targets, exported
        // under its root): the core puts it where the shin ends.
        if skeleton.get_bone_parent(found[1]) != found[0] {
            out.push(format!(
                "\"{}\" is not a child of \"{}\": that leg is not solved.",
                leg[1], leg[0]
            ));
        }
    }
    out
}

/// Whether each leg's foot hangs from its lower leg (the remote body, which writes rotations
/// only, needs it; the node graph's `LowerBodyRig` also writes a foot hanging from elsewhere).
pub fn feet_hang_from_shins(skeleton: &Gd<Skeleton3D>, names: &LowerBodyNames) -> bool {
    names.legs.iter().all(|leg| {
        let [_, l, f] = leg.clone().map(|n| skeleton.find_bone(n.as_str()));
        f >= 0 && skeleton.get_bone_parent(f) == l
    })
}

/// Whether each leg's upper leg hangs below the hips bone (at any depth). A game rig may hang
/// its thighs from its floor-level root beside the hips: the core carries them with the hips
/// and `LowerBodyRig` writes their places; the remote body writes rotations only and cannot.
pub fn thighs_hang_from_hips(skeleton: &Gd<Skeleton3D>, names: &LowerBodyNames) -> bool {
    let index = |bone: i32| usize::try_from(bone).ok();
    let parent = |bone: usize| index(skeleton.get_bone_parent(bone as i32));
    let count = index(skeleton.get_bone_count()).unwrap_or(0);
    let hips = index(skeleton.find_bone(names.hips.as_str()));
    names.legs.iter().all(
        |leg| match (index(skeleton.find_bone(leg[0].as_str())), hips) {
            (Some(thigh), Some(hips)) => hangs_below(thigh, hips, count, parent),
            _ => false,
        },
    )
}

/// The lower body's bones added to `tree` (the hips first, so it is the tree's root when the
/// tree is empty) and the rest pose's point between the eyes (skeleton space), if the rig has
/// both eyes; `None` without a hips or head bone. A leg whose lower leg is not a child of its
/// upper leg is left out; its foot may hang from any bone.
pub fn add_lower_body(
    skeleton: &Gd<Skeleton3D>,
    names: &LowerBodyNames,
    tree: &mut TreeBuilder,
) -> Option<(LowerBodyBones, Option<glam::Vec3>)> {
    let find = |n: &str| Some(skeleton.find_bone(n)).filter(|b| *b >= 0);
    let hips = tree.add(skeleton, find(&names.hips)?)?;
    let spine = names
        .spine
        .clone()
        .map(|n| find(&n).and_then(|b| tree.add(skeleton, b)));
    let head = tree.add(skeleton, find(&names.head)?)?;
    let leg = |tree: &mut TreeBuilder, names: &[String; 3]| -> Option<LegBones> {
        let [u, l, f] = names.clone().map(|n| find(&n));
        let (u, l, f) = (u?, l?, f?);
        // The thigh carries the shin; the foot is put where the shin ends wherever it hangs.
        (skeleton.get_bone_parent(l) == u).then_some(())?;
        Some([
            tree.add(skeleton, u)?,
            tree.add(skeleton, l)?,
            tree.add(skeleton, f)?,
        ])
    };
    let legs = PerSide::new(leg(tree, &names.legs[0]), leg(tree, &names.legs[1]));
    // Each foot's toes, when the rig has them under the foot.
    let toes = |tree: &mut TreeBuilder, side: usize| {
        let foot = skeleton.find_bone(names.legs[side][2].as_str());
        let toes = find(&names.toes[side]).filter(|&t| skeleton.get_bone_parent(t) == foot)?;
        legs.get(Side::BOTH[side]).and(tree.add(skeleton, toes))
    };
    let toes = PerSide::new(toes(tree, 0), toes(tree, 1));
    let eyes = match (find("LeftEye"), find("RightEye")) {
        (Some(l), Some(r)) => {
            let at = |b| vec3(skeleton.get_bone_global_rest(b).origin);
            Some((at(l) + at(r)) * 0.5)
        }
        _ => None,
    };
    Some((
        LowerBodyBones {
            hips,
            spine,
            head,
            legs,
            toes,
        },
        eyes,
    ))
}
