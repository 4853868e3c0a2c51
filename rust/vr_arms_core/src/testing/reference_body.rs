//! Reference bodies for tests, benchmarks and the fuzzer: a plain humanoid's upper body and
//! whole body as pose trees, and the body pipelines on them.

use glam::{Quat, Vec3};

use crate::body::body_pipeline::{BodyBones, BodyPipeline, FINGERS};
use crate::body::profile::ArmProfile;
use crate::hands::hand_pose::FingerCurl;
use crate::lower_body::LowerBody;
use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;
use crate::maths::side::{PerSide, Side};

/// Both reference arms ([`crate::arms::arm_steps::reference_arm_bones`]) added to a tree's parents
/// and globals, each clavicle under `chest`: each arm's clavicle, upper arm, lower arm and hand.
fn push_reference_arms(
    parents: &mut Vec<Option<usize>>,
    globals: &mut Vec<Pose>,
    chest: usize,
) -> [[usize; 4]; 2] {
    let mut arms = [[0; 4]; 2];
    for side in Side::BOTH {
        let r = crate::arms::arm_steps::reference_arm_bones(side);
        let first = parents.len();
        parents.extend([Some(chest), Some(first), Some(first + 1), Some(first + 2)]);
        globals.extend([r.parent, r.upper, r.lower, r.hand]);
        arms[side.index()] = [first, first + 1, first + 2, first + 3];
    }
    arms
}

/// A plain humanoid's upper body for tests and benchmarks: the tree (0 chest, 1 neck, 2 head,
/// then per side, left first, clavicle, upper arm, lower arm, hand; the arms as
/// [`crate::arms::arm_steps::reference_arm_bones`]) and where the stages' bones are in it.
pub fn reference_body() -> (PoseTree, BodyBones) {
    let mut parents = vec![None, Some(0), Some(1)];
    let mut globals = vec![
        Pose::new(Vec3::new(0.0, 1.2, 0.0), Quat::IDENTITY),
        Pose::new(Vec3::new(0.0, 1.5, 0.0), Quat::IDENTITY),
        Pose::new(Vec3::new(0.0, 1.6, 0.0), Quat::IDENTITY),
    ];
    let arms = push_reference_arms(&mut parents, &mut globals, 0);
    let mut t = PoseTree::new(&parents).expect("a valid tree");
    t.set_globals(&globals);
    let bones = BodyBones {
        chest_parent: None,
        spine: [Some(0), Some(1), Some(2)],
        clavicles: PerSide::new(Some(arms[0][0]), Some(arms[1][0])),
        arms: PerSide::new(arms[0], arms[1]),
    };
    (t, bones)
}

/// A plain humanoid's whole body for tests and benchmarks: [`crate::lower_body::reference_lower_body`]
/// (0 hips, 1 spine, 2 chest, 3 neck, 4 head, legs 5 to 10) with [`reference_body`]'s arms on
/// the chest (11 to 18, left first); the upper body's bones, the lower body's bones and the point
/// between the eyes.
pub fn reference_whole_body() -> (PoseTree, BodyBones, crate::lower_body::LowerBodyBones, Vec3) {
    let (mut lower_tree, lower, eyes) = crate::lower_body::reference_lower_body();
    let mut parents: Vec<Option<usize>> = (0..lower_tree.len())
        .map(|i| lower_tree.parent(i))
        .collect();
    let mut globals: Vec<Pose> = (0..lower_tree.len())
        .map(|i| lower_tree.global(i))
        .collect();
    let arms = push_reference_arms(&mut parents, &mut globals, 2);
    let mut t = PoseTree::new(&parents).expect("a valid tree");
    t.set_globals(&globals);
    let bones = BodyBones {
        chest_parent: Some(1),
        spine: [Some(2), Some(3), Some(4)],
        clavicles: PerSide::new(Some(arms[0][0]), Some(arms[1][0])),
        arms: PerSide::new(arms[0], arms[1]),
    };
    (t, bones, lower, eyes)
}

/// A [`BodyPipeline`] on [`reference_body`] with `profile`: hands 0.24 m past the wrists, and
/// every finger bone of both hands curled about the palm's side axis.
pub fn reference_pipeline(profile: &ArmProfile) -> BodyPipeline {
    pipeline_on(profile, reference_body().1)
}

/// [`reference_pipeline`] on [`reference_whole_body`], with its lower body (default settings).
pub fn reference_whole_pipeline(profile: &ArmProfile) -> BodyPipeline {
    let (tree, bones, lower, eyes) = reference_whole_body();
    let lower = LowerBody::new(Default::default(), lower, &tree, Some(eyes));
    pipeline_on(profile, bones).with_lower_body(lower)
}

fn pipeline_on(profile: &ArmProfile, bones: BodyBones) -> BodyPipeline {
    let rest = crate::arms::arm_steps::reference_rig();
    let hand_rest = Pose::new(Vec3::new(0.0, 0.24, 0.0), Quat::IDENTITY);
    let curl = FingerCurl::new(Quat::IDENTITY, Quat::IDENTITY, Vec3::X, Vec3::NEG_Y);
    BodyPipeline::new(
        profile,
        &rest,
        bones,
        PerSide::new(hand_rest, hand_rest),
        PerSide::new([Some(curl); FINGERS], [Some(curl); FINGERS]),
    )
}
