//! `VRRemoteBody`'s binding to a skeleton: the tree of bones its stages read and write, the rest
//! measurements and the finger curls, made once per skeleton version.

use godot::classes::Skeleton3D;
use godot::prelude::*;
use vr_arms_core::arms::arm_solve::ArmBones;
use vr_arms_core::body::Body;
use vr_arms_core::body::body_pipeline::{BodyBones, BodyPipeline, FINGERS};
use vr_arms_core::body::profile::ArmProfile;
use vr_arms_core::maths::pose_tree::PoseTree;
use vr_arms_core::{PerSide, Pose, Side};

use crate::convert::pose;
use crate::shared::common::{HUMANOID_ARMS as ARMS, HUMANOID_SPINE as SPINE};
use crate::shared::lower_body_bind::{
    LowerBodyNames, add_lower_body, feet_hang_from_shins, lower_body_problems,
    thighs_hang_from_hips,
};
use crate::skeleton_tree::TreeBuilder;
use vr_arms_core::lower_body::LowerBody;

/// The body bound to one skeleton and its bones.
pub(crate) struct Bound {
    pub(crate) body: Body,
    pub(crate) tree: PoseTree,
    /// Engine bone index of each tree bone.
    pub(crate) tree_bones: Vec<i32>,
    /// Engine bone index of each finger bone (`finger_bones` order), -1 when absent.
    pub(crate) fingers: [[i32; FINGERS]; 2],
    /// This frame's poses as read: local ones when `by_locals`, else global ones.
    pub(crate) read: Vec<Pose>,
    /// Every tree bone is unscaled at bind time: its local poses are read (cheaper, exact for an
    /// unscaled chain) instead of its global ones, unless a bone above the tree is scaled in a
    /// frame (its root's global pose then says so).
    pub(crate) by_locals: bool,
    /// The last frame's written rotations (engine bone, local rotation), see `gather_solved`.
    pub(crate) solved: Vec<(i32, glam::Quat)>,
    /// The hips bone (engine, tree index) when the lower body is bound: its position is written
    /// too.
    pub(crate) hips: Option<(i32, usize)>,
    /// The hips' local position the last frame's lower body solved (`gather_solved`).
    pub(crate) hips_position: Option<glam::Vec3>,
    /// The last two solves, replayed blended between solves under the crowd budget.
    pub(crate) held: vr_arms_core::crowd::budget::HeldRotations,
    /// The hips' position across the budget's solves, blended in step with `held`.
    pub(crate) held_hips: vr_arms_core::crowd::held_position::HeldPosition,
    /// How many of `solved`'s entries are tree bones (the fingers follow them).
    pub(crate) tree_solved: usize,
    /// This frame's rotations to write (kept, so no allocation per frame).
    pub(crate) frame: Vec<(i32, glam::Quat)>,
    /// The rotations last written, in `solved`'s order (a change of level fades from them; the
    /// fingers' stay as they were while the fingers are frozen).
    pub(crate) shown: Vec<(i32, glam::Quat)>,
    /// The hips' position last written.
    pub(crate) shown_hips: Option<glam::Vec3>,
    /// While the body writes outside the modifier pass (its poses then persist), the pose the
    /// skeleton had before: what the solves read, and what is put back when it stops.
    pub(crate) outside: Option<OutsidePose>,
    /// While the fingers are frozen (written once outside the pass, so they persist), their own
    /// rotations before, put back when they are live again or the body lets go.
    pub(crate) kept_fingers: Option<KeptRotations>,
}

/// Bones' own rotations on one skeleton, kept while the body's writes outside the modifier
/// pass stand over them.
pub(crate) struct KeptRotations {
    /// The skeleton they were read from (put back there even after a reparent).
    pub(crate) skeleton: InstanceId,
    pub(crate) rotations: Vec<(i32, Quaternion)>,
}

/// The skeleton's own pose of the body's bones, kept while the body writes over it outside the
/// modifier pass.
pub(crate) struct OutsidePose {
    /// The chain as `read_chain` read it (local poses when `by_locals`, else global ones).
    pub(crate) read: Vec<Pose>,
    pub(crate) by_locals: bool,
    /// Every tree bone's own rotation (whether a solve has written it yet or not).
    pub(crate) rotations: KeptRotations,
    /// The hips' own position.
    pub(crate) hips: Option<Vector3>,
}

/// The tree of bones the stages read and write, the rest measurements and the finger curls.
/// Why it cannot bind, as a configuration warning: the arm chains the two-bone solve and the
/// twist algebra need (each hand a child of its lower arm, each lower arm of its upper arm,
/// each upper arm with a parent).
pub(crate) fn chain_problems(skeleton: &Gd<Skeleton3D>) -> Vec<String> {
    let mut out = Vec::new();
    for [_, upper, lower, hand] in ARMS {
        let [u, l, h] = [upper, lower, hand].map(|n| skeleton.find_bone(n));
        if u < 0 || l < 0 || h < 0 {
            continue; // named as missing bones
        }
        if skeleton.get_bone_parent(u) < 0 {
            out.push(format!(
                "\"{upper}\" has no parent bone (its clavicle or chest)."
            ));
        }
        for (child, c, parent, p) in [(lower, l, upper, u), (hand, h, lower, l)] {
            if skeleton.get_bone_parent(c) != p {
                out.push(format!("\"{child}\" is not a child of \"{parent}\": bones in between (twist bones) are not supported here; use the node graph (VRArmsSetup.setup_skeleton) with ForearmTwist."));
            }
        }
    }
    out
}

/// Why the remote body gives `skeleton` no lower body although `lower_body` is on, when the
/// reason is how its legs hang: feet from elsewhere than the lower legs (a rig whose feet were
/// IK targets), or upper legs from elsewhere than below the hips (a game rig's root): the
/// remote body writes bone rotations only, and such bones would stay behind.
pub(crate) fn detached_legs_problem(skeleton: &Gd<Skeleton3D>, lower_body: bool) -> Option<String> {
    let names = LowerBodyNames::default();
    if !lower_body || !lower_body_problems(skeleton, &names).is_empty() {
        return None;
    }
    let reason = if !feet_hang_from_shins(skeleton, &names) {
        "The feet do not hang from the lower legs (a rig whose feet were IK targets)"
    } else if !thighs_hang_from_hips(skeleton, &names) {
        "The upper legs do not hang from the hips bone (a game rig whose thighs hang from its root)"
    } else {
        return None;
    };
    Some(format!(
        "{reason}: this body gets no lower body, the hips and legs keep their pose. The node graph's LowerBodyRig (VRArmsSetup.setup_skeleton) solves such legs."
    ))
}

/// `lower_body`: also the hips, spine and legs (when the skeleton has a hips and a head bone).
pub(crate) fn bind_bones(
    skeleton: &Gd<Skeleton3D>,
    profile: &ArmProfile,
    lower_body: bool,
) -> Result<Bound, String> {
    if let Some(p) = chain_problems(skeleton).into_iter().next() {
        return Err(p);
    }
    let find = |name: &str| Some(skeleton.find_bone(name)).filter(|i| *i >= 0);
    let arms = ARMS.map(|names| {
        let [_, upper, lower, hand] = names.map(find);
        let (upper, lower, hand) = (upper?, lower?, hand?);
        let parent = Some(skeleton.get_bone_parent(upper)).filter(|p| *p >= 0)?;
        Some([parent, upper, lower, hand])
    });
    let [Some(left), Some(right)] = arms else {
        return Err("the humanoid arm bones are missing".into());
    };
    let spine = SPINE.map(find);
    let chest_parent = spine[0]
        .map(|c| skeleton.get_bone_parent(c))
        .filter(|p| *p >= 0);

    // Whole chains, parents first: from the hips (the lower body's bones first, so the hips
    // are the root) or, without a lower body, from the chest's parent (or the skeleton's root).
    let mut tb = TreeBuilder::default();
    // Only a rig whose legs are solved (as the one-click setup's `LowerBodyRig`): a crouch must
    // not lower hips whose legs are not. Each foot under its shin: the remote body writes
    // rotations only, and a foot hanging from elsewhere would stay behind
    // ([`detached_legs_problem`] says so); each thigh below the hips likewise.
    let names = LowerBodyNames::default();
    let lower = if lower_body
        && lower_body_problems(skeleton, &names).is_empty()
        && feet_hang_from_shins(skeleton, &names)
        && thighs_hang_from_hips(skeleton, &names)
    {
        add_lower_body(skeleton, &names, &mut tb)
    } else {
        None
    };
    if lower.is_none() {
        tb = TreeBuilder::stopping_at(chest_parent);
    }
    let chest_parent_index = chest_parent.and_then(|b| tb.add(skeleton, b));
    let spine_index = spine.map(|b| b.and_then(|b| tb.add(skeleton, b)));
    let arm_index = [left, right].map(|a| a.map(|b| tb.add(skeleton, b).unwrap_or(0)));
    let clavicles = ARMS.map(|names| find(names[0]).and_then(|b| tb.add(skeleton, b)));
    let tree = tb.tree()?;
    let tree_bones = tb.bones.clone();
    let rest = [left, right].map(|a| {
        let r = |i: usize| pose(&skeleton.get_bone_global_rest(a[i]));
        ArmBones {
            parent: r(0),
            upper: r(1),
            lower: r(2),
            hand: r(3),
        }
    });
    let hand_rest = [left, right].map(|a| pose(&skeleton.get_bone_rest(a[3])));
    // Each hand's rest, read once: its palm frame bends the fingers and turns the hand bone.
    let hands = Side::BOTH.map(|side| {
        crate::shared::rest_measure::hand_rest(skeleton, [left, right][side.index()][3], side)
    });
    let measured = Side::BOTH.map(|side| {
        let frame = hands[side.index()].measure();
        crate::shared::rest_measure::finger_curls_in(skeleton, side, &frame)
    });
    let fingers = measured.map(|hand| hand.map(|f| f.map_or(-1, |(bone, _)| bone)));
    let curls = measured.map(|hand| hand.map(|f| f.map(|(_, curl)| curl)));
    let bones = BodyBones {
        chest_parent: chest_parent_index,
        spine: spine_index,
        clavicles: PerSide::new(clavicles[0], clavicles[1]),
        arms: PerSide::new(arm_index[0], arm_index[1]),
    };
    let read = vec![Pose::IDENTITY; tree.len()];
    let unit = |s: Vector3| (s - Vector3::ONE).length() < 1e-4;
    let by_locals = tree_bones.iter().all(|&b| {
        unit(skeleton.get_bone_rest(b).basis.get_scale()) && unit(skeleton.get_bone_pose_scale(b))
    });
    let mut pipeline = BodyPipeline::new(
        profile,
        &PerSide::new(rest[0], rest[1]),
        bones,
        PerSide::new(hand_rest[0], hand_rest[1]),
        PerSide::new(curls[0], curls[1]),
    );
    // Each hand bone's axes in the palm frame, from its fingers.
    for side in Side::BOTH {
        let cal = pipeline.arms.calibration.get_mut(side);
        *cal = cal.with_hand(&hands[side.index()]);
    }
    let hips = lower.map(|(bones, _)| (tree_bones[bones.hips], bones.hips));
    if let Some((bones, eyes)) = lower {
        let rest_tree = tb.rest_tree(skeleton)?;
        let skins = crate::mesh_read::lower_body_leg_vertices(skeleton, &bones, &tree_bones);
        pipeline = pipeline.with_lower_body(
            LowerBody::new(profile.lower_body, bones, &rest_tree, eyes).with_leg_skins(skins),
        );
    }
    Ok(Bound {
        body: Body::new(pipeline, profile.body_follow),
        tree,
        tree_bones,
        fingers,
        read,
        by_locals,
        solved: Vec::new(),
        hips,
        hips_position: None,
        held: Default::default(),
        held_hips: Default::default(),
        tree_solved: 0,
        frame: Vec::new(),
        shown: Vec::new(),
        shown_hips: None,
        outside: None,
        kept_fingers: None,
    })
}
