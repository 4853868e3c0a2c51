//! The engine's body on a clip's skeleton: the core's one composition ([`Body`]) on a tree of
//! the bones it reads and writes, built with the clip's own bone lengths and standing on the
//! clip's floor.
//!
//! The full mode runs it as `VRRemoteBody` does: each frame starts from the rest pose (the
//! engine restores the animated pose every frame; the evaluation has no animation), the root
//! follows the headset on the floor, then every bone. The arm-only mode runs the same body with
//! its root, chest and shoulders given by the performer's (no follow, no spine or clavicle step),
//! so it measures the arms alone.

use glam::{Quat, Vec3};
use vr_arms_core::body::body_pipeline::{BodyBones, BodyOutput, BodyPipeline, FINGERS, Steps};
use vr_arms_core::body::profile::ArmProfile;
use vr_arms_core::body::{Body, Placement, Tracking};
use vr_arms_core::maths::pose_tree::PoseTree;
use vr_arms_core::{ArmBones, PerSide, Pose, Side};

use crate::clip::{Clip, align};

/// Tree indices: chest, neck, head, then per side (left first) clavicle, upper arm, lower arm,
/// hand.
pub const CHEST: usize = 0;
pub const NECK: usize = 1;
pub const HEAD: usize = 2;

/// A side's clavicle, upper arm, lower arm and hand in the tree.
pub fn arm_indices(side: Side) -> [usize; 4] {
    let first = 3 + 4 * side.index();
    [first, first + 1, first + 2, first + 3]
}

/// A clip's rest position (metres of the clip) as the avatar stands: on the floor at height 0,
/// scaled by `scale`.
pub fn standing(clip: &Clip, scale: f32) -> impl Fn(Vec3) -> Vec3 {
    let lift = Vec3::new(0.0, -clip.rest_floor(), 0.0);
    move |p: Vec3| (p + lift) * scale
}

/// The arms' rest bones as the avatar stands ([`standing`]; bone-aligned frames) and each
/// hand's rest in its lower arm's frame (the twist's reference and axis).
pub fn arm_rest(clip: &Clip, scale: f32) -> (PerSide<ArmBones>, PerSide<Pose>) {
    let at = standing(clip, scale);
    let arms = clip.rest_arms();
    let arm = |side: Side| {
        let a = arms.get(side);
        let moved = |p: Pose| Pose::new(at(p.position), p.rotation);
        ArmBones {
            parent: moved(a.parent),
            upper: moved(a.upper),
            lower: moved(a.lower),
            hand: moved(a.hand),
        }
    };
    let bones = PerSide::new(arm(Side::Left), arm(Side::Right));
    let hand_rest = |side: Side| {
        let b = bones.get(side);
        Pose::new(
            align(side).inverse() * (b.hand.position - b.lower.position),
            Quat::IDENTITY,
        )
    };
    (
        bones,
        PerSide::new(hand_rest(Side::Left), hand_rest(Side::Right)),
    )
}

/// Appends both arms (left first: clavicle under `chest`, upper arm, lower arm, hand) to a
/// tree's rest poses and parents; returns where each arm's bones are.
pub fn push_arms(
    rest: &mut Vec<Pose>,
    parents: &mut Vec<Option<usize>>,
    chest: usize,
    arms: &PerSide<ArmBones>,
) -> PerSide<[usize; 4]> {
    let mut at = PerSide::new([0; 4], [0; 4]);
    for side in Side::BOTH {
        let b = arms.get(side);
        let first = rest.len();
        rest.extend([b.parent, b.upper, b.lower, b.hand]);
        parents.extend([Some(chest), Some(first), Some(first + 1), Some(first + 2)]);
        *at.get_mut(side) = [first, first + 1, first + 2, first + 3];
    }
    at
}

/// The body on one clip's skeleton, with its tree and where it stands.
pub struct ClipBody {
    pub body: Body,
    pub tree: PoseTree,
    pub placement: Placement,
    /// The tree's rest pose (skeleton space: the floor at height 0, the character facing +Z).
    rest: Vec<Pose>,
}

impl ClipBody {
    /// The body for `clip`'s skeleton scaled by `scale` (the avatar against the performer).
    pub fn new(clip: &Clip, scale: f32, profile: &ArmProfile) -> Self {
        let at = standing(clip, scale);
        let (chest, _) = clip.rest_torso();
        let (neck, head) = clip.rest_neck_head();
        let mut rest = vec![
            Pose::from_position(at(chest)),
            Pose::from_position(at(neck)),
            Pose::from_position(at(head)),
        ];
        let mut parents = vec![None, Some(CHEST), Some(NECK)];
        let (rest_arms, hand_rest) = arm_rest(clip, scale);
        push_arms(&mut rest, &mut parents, CHEST, &rest_arms);
        let mut tree = PoseTree::new(&parents).expect("a valid tree");
        tree.set_globals(&rest);
        let bones = BodyBones {
            chest_parent: None,
            spine: [Some(CHEST), Some(NECK), Some(HEAD)],
            clavicles: PerSide::new(
                Some(arm_indices(Side::Left)[0]),
                Some(arm_indices(Side::Right)[0]),
            ),
            arms: PerSide::new(arm_indices(Side::Left), arm_indices(Side::Right)),
        };
        let pipeline = BodyPipeline::new(
            profile,
            &rest_arms,
            bones,
            hand_rest,
            PerSide::new([None; FINGERS], [None; FINGERS]),
        );
        Self {
            body: Body::new(pipeline, profile.body_follow),
            tree,
            placement: Placement {
                scale,
                ..Default::default()
            },
            rest,
        }
    }

    /// Only the arms: no body follow, no spine or clavicle step (their bones are given).
    pub fn arms_only(mut self) -> Self {
        self.body.follow.follow_head = false;
        self.body.pipeline.steps = Steps {
            spine: false,
            clavicles: false,
            ..Steps::default()
        };
        self
    }

    /// The arm bones' rest (skeleton space), as the pipeline was made with.
    pub fn rest_arms(&self, side: Side) -> ArmBones {
        let [c, u, l, h] = arm_indices(side);
        ArmBones {
            parent: self.rest[c],
            upper: self.rest[u],
            lower: self.rest[l],
            hand: self.rest[h],
        }
    }

    /// One frame of the whole body, from the rest pose, the root following the headset.
    pub fn full_frame(&mut self, tracking: &Tracking, dt: f32) -> BodyOutput {
        self.tree.set_globals(&self.rest);
        self.body.update(
            tracking,
            &mut self.placement,
            &mut self.tree,
            dt,
            &vr_arms_core::lower_body::ground::FlatFloor,
        )
    }

    /// One frame of the arms on given bones: the root at `root`, the chest, neck and head at
    /// `spine` and the arms at `arms` (world poses; the skeleton is the root).
    pub fn arms_frame(
        &mut self,
        tracking: &Tracking,
        root: Pose,
        spine: [Pose; 3],
        arms: PerSide<ArmBones>,
        dt: f32,
    ) -> BodyOutput {
        self.placement.root = root;
        let to_skeleton = self.placement.skeleton().inverse();
        let mut globals = spine.to_vec();
        for side in Side::BOTH {
            let a = arms.get(side);
            globals.extend([a.parent, a.upper, a.lower, a.hand]);
        }
        for g in &mut globals {
            *g = to_skeleton.mul_pose(g);
        }
        self.tree.set_globals(&globals);
        self.body.pose_bones(
            tracking,
            &self.placement,
            &mut self.tree,
            dt,
            &vr_arms_core::lower_body::ground::FlatFloor,
        )
    }

    /// A tree bone's world position now.
    pub fn position(&mut self, bone: usize) -> Vec3 {
        let skeleton = self.placement.skeleton();
        skeleton.transform_point(self.tree.global(bone).position)
    }

    /// A tree bone's world rotation now.
    pub fn rotation(&mut self, bone: usize) -> Quat {
        (self.placement.skeleton().rotation * self.tree.global(bone).rotation).normalize()
    }

    /// Arm bones in skeleton space, in world space.
    pub fn arm_to_world(&self, b: &ArmBones) -> ArmBones {
        let s = self.placement.skeleton();
        ArmBones {
            parent: s.mul_pose(&b.parent),
            upper: s.mul_pose(&b.upper),
            lower: s.mul_pose(&b.lower),
            hand: s.mul_pose(&b.hand),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bvh::Bvh;

    /// A small Daz-named skeleton (centimetres), standing with its toes 90 cm under the hips.
    pub(crate) fn clip() -> Clip {
        let text = "HIERARCHY\nROOT hip\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n JOINT lThigh\n {\n  OFFSET 10 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 -90 0\n  }\n }\n JOINT abdomen\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  JOINT chest\n  {\n   OFFSET 0 30 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n   JOINT neck\n   {\n    OFFSET 0 20 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n    JOINT head\n    {\n     OFFSET 0 10 0\n     CHANNELS 3 Zrotation Xrotation Yrotation\n     JOINT leftEye\n     {\n      OFFSET 3 10 8\n      CHANNELS 3 Zrotation Xrotation Yrotation\n      End Site\n      {\n       OFFSET 0 0 1\n      }\n     }\n     JOINT rightEye\n     {\n      OFFSET -3 10 8\n      CHANNELS 3 Zrotation Xrotation Yrotation\n      End Site\n      {\n       OFFSET 0 0 1\n      }\n     }\n    }\n   }\n   JOINT lCollar\n   {\n    OFFSET 3 15 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n    JOINT lShldr\n    {\n     OFFSET 15 0 0\n     CHANNELS 3 Zrotation Xrotation Yrotation\n     JOINT lForeArm\n     {\n      OFFSET 28 0 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n      JOINT lHand\n      {\n       OFFSET 25 0 0\n       CHANNELS 3 Zrotation Xrotation Yrotation\n       End Site\n       {\n        OFFSET 8 0 0\n       }\n      }\n     }\n    }\n   }\n   JOINT rCollar\n   {\n    OFFSET -3 15 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n    JOINT rShldr\n    {\n     OFFSET -15 0 0\n     CHANNELS 3 Zrotation Xrotation Yrotation\n     JOINT rForeArm\n     {\n      OFFSET -28 0 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n      JOINT rHand\n      {\n       OFFSET -25 0 0\n       CHANNELS 3 Zrotation Xrotation Yrotation\n       End Site\n       {\n        OFFSET -8 0 0\n       }\n      }\n     }\n    }\n   }\n  }\n }\n}\nMOTION\nFrames: 3\nFrame Time: 0.0083333\n";
        let row = ["0"; 51].join(" ");
        let text = format!("{text}{row}\n{row}\n{row}\n");
        Clip::from_bvh("test".into(), Bvh::parse(&text).expect("parses")).expect("a clip")
    }

    #[test]
    fn the_body_stands_on_the_floor_with_the_clips_proportions() {
        let c = clip();
        let mut b = ClipBody::new(&c, 1.0, &ArmProfile::default());
        // The lowest joints (hips and thigh; end sites are not joints) stand on the floor.
        assert!(c.rest_floor().abs() < 1e-6, "{}", c.rest_floor());
        assert!(
            (b.position(HEAD).y - 0.7).abs() < 1e-5,
            "{}",
            b.position(HEAD)
        );
        let [_, u, l, h] = arm_indices(Side::Left);
        let upper = b.position(u).distance(b.position(l));
        let lower = b.position(l).distance(b.position(h));
        assert!((upper - 0.28).abs() < 1e-5 && (lower - 0.25).abs() < 1e-5);
        // Scaled: every height in proportion.
        let mut big = ClipBody::new(&c, 1.5, &ArmProfile::default());
        assert!((big.position(HEAD).y - 1.05).abs() < 1e-5);
    }

    #[test]
    fn the_full_body_follows_the_headset_and_the_arm_only_body_keeps_its_given_shoulders() {
        let c = clip();
        let mut full = ClipBody::new(&c, 1.0, &ArmProfile::default());
        let head = Pose::new(
            Vec3::new(1.0, 0.8, 2.0),
            Quat::from_rotation_y(std::f32::consts::PI),
        );
        let hand = Pose::new(Vec3::new(1.3, 0.5, 2.3), Quat::IDENTITY);
        let t = Tracking {
            head: Some(head),
            controllers: PerSide::new(Some(hand), Some(hand)),
            ..Default::default()
        };
        full.full_frame(&t, 1.0 / 90.0);
        let root = full.placement.root.position;
        assert!(root.y.abs() < 1e-6 && Vec3::new(root.x - 1.0, 0.0, root.z - 2.0).length() < 0.2);
        let mut arms = ClipBody::new(&c, 1.0, &ArmProfile::default()).arms_only();
        let given = Pose::from_position(Vec3::new(5.0, 0.0, 5.0));
        let lifted = |p: Pose| Pose::new(p.position + Vec3::new(5.0, 0.3, 5.0), p.rotation);
        let spine = [CHEST, NECK, HEAD].map(|i| lifted(arms.rest[i]));
        let bones = PerSide::new(arms.rest_arms(Side::Left), arms.rest_arms(Side::Right));
        let bones = PerSide::new(
            ArmBones {
                parent: lifted(bones.left.parent),
                upper: lifted(bones.left.upper),
                lower: lifted(bones.left.lower),
                hand: lifted(bones.left.hand),
            },
            bones.right,
        );
        arms.arms_frame(&t, given, spine, bones, 1.0 / 90.0);
        assert_eq!(arms.placement.root, given, "no follow");
        let [_, u, _, _] = arm_indices(Side::Left);
        assert!(arms.position(u).distance(bones.left.upper.position) < 1e-5);
        assert!(
            arms.position(HEAD).distance(spine[2].position) < 1e-5,
            "no spine step"
        );
    }
}
