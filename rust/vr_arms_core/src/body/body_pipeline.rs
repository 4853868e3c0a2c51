//! The body's second step ([`crate::body::Body::pose_bones`]): every bone-writing stage of the
//! node graph, in its order, on a [`PoseTree`] of the bones they read and write.
//!
//! Order per frame (as the node graph runs it): each arm's raw target
//! ([`crate::arms::arm_steps::raw_target`]: controller targets and the tracking-loss hold);
//! [`UpperBodyFollow`] (chest, neck, head); the lower body when there is one ([`LowerBody`]:
//! hips, spine bend, legs); the other arm target stages ([`ArmPipeline::targets_from_raw`]) on
//! the shoulders where the lower body put them, or, without one, on the bones as they came in
//! (what the target nodes see in `_process`); then [`ClavicleFollow`] (both clavicles, toward
//! the routed targets), the soft-IK arm solve ([`ArmPipeline::solve`]), [`ForearmTwist`] (the
//! lower arm takes its share of the hand's twist, the hand stays where the solve put it) and
//! the fingers ([`crate::hands::finger_step`]). Each stage reads the bones as the stages before it left
//! them; each can be switched off ([`Steps`]).
//!
//! [`crate::body::Body`] runs it after its input checks and body follow: that is what one
//! `VRRemoteBody` node runs per avatar, where the node graph runs some fifteen nodes on the same
//! stage structs.

use glam::{Quat, Vec3};

use crate::arms::arm_solve::{ArmBones, ArmSolve};
use crate::arms::arm_steps::{ArmOutput, ArmPipeline, ArmTargets, PipelineInput, raw_target};
use crate::arms::tracking_loss::{DEFAULT_REST_POSITIONS, TrackingEvent, TrackingLoss};
use crate::body::profile::ArmProfile;
use crate::body::spine_and_legs::{SpineStep, StandFrame};
pub use crate::hands::finger_step::{FINGERS, HandInput};
use crate::hands::hand_pose::{FingerCurl, HandPoseSettings};
use crate::lower_body::ground::Ground;
use crate::lower_body::{LowerBody, LowerBodyOutput, mask_of};
use crate::maths::body_frame::BodyFrame;
use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;
use crate::maths::side::{PerSide, Side};
use crate::upper_body::clavicle_follow::{ClavicleArm, ClavicleFollow};
use crate::upper_body::forearm_twist::{ForearmTwist, share_twist};
use crate::upper_body::upper_body_follow::UpperBodyFollow;

/// Where the stages' bones are in the [`PoseTree`] (indices into it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyBones {
    /// The chest's parent (its rotation is the spine's reference), if any.
    pub chest_parent: Option<usize>,
    /// Chest, neck and head; a missing one is skipped.
    pub spine: [Option<usize>; 3],
    /// Each arm's clavicle (the upper arm's parent, moved by [`ClavicleFollow`]), if any.
    pub clavicles: PerSide<Option<usize>>,
    /// Each arm's upper arm's parent, upper arm, lower arm and hand.
    pub arms: PerSide<[usize; 4]>,
}

/// One frame of input (world poses; the skeleton's bones are in the tree).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyInput {
    /// Avatar root.
    pub body: BodyFrame,
    /// Skeleton node's pose (rigid).
    pub skeleton: Pose,
    pub up: Vec3,
    /// Headset; `None` while it is not tracked (the spine keeps the last tracked head).
    pub head: Option<Pose>,
    /// Controllers; `None` while one is not tracked: its hand holds, then eases to rest beside
    /// the body and blends back when tracking returns (as `ControllerTargets` does).
    pub controllers: PerSide<Option<Pose>>,
    /// Interaction override targets (world), used while an arm's router has its override set.
    pub overrides: PerSide<Option<Pose>>,
    pub hands: PerSide<HandInput>,
    /// The floor's height (world), where the lower body's feet stand.
    pub floor_y: f32,
}

/// What a frame produced besides the bones written into the tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyOutput {
    /// Each arm's targets (world), for drawing and signals.
    pub targets: PerSide<Option<ArmTargets>>,
    /// Tree bones written this frame (bit `i` for tree bone `i`).
    pub written: u32,
    /// A hand that lost or regained tracking this frame.
    pub tracking: PerSide<Option<TrackingEvent>>,
    /// Each arm's bones (skeleton space) as the solve found them: after the spine and clavicles
    /// moved them, before the arm solve (what a baseline solver would start from).
    pub arms_before_solve: PerSide<Option<ArmBones>>,
    /// Each arm's solve (skeleton space), before the twist's share moved the lower arm's roll.
    pub solves: PerSide<Option<ArmSolve>>,
    /// Each hand's finger-bone local rotations, in `hand_pose::finger_bones` order (`None`
    /// for a bone without a prepared curl: not written).
    pub fingers: PerSide<[Option<Quat>; FINGERS]>,
    /// What the lower body did (the default when it has none or is off).
    pub lower: LowerBodyOutput,
}

impl BodyOutput {
    /// Each arm's targets and solve together.
    pub fn arms(&self) -> PerSide<Option<ArmOutput>> {
        let arm = |side: Side| {
            let t = (*self.targets.get(side))?;
            Some(t.with_solve((*self.solves.get(side))?))
        };
        PerSide::new(arm(Side::Left), arm(Side::Right))
    }
}

/// Which of the upper body's steps run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steps {
    /// Chest, neck and head toward the headset ([`UpperBodyFollow`]).
    pub spine: bool,
    /// Clavicles toward the targets ([`ClavicleFollow`]).
    pub clavicles: bool,
    /// Each lower arm's share of the hand's twist ([`ForearmTwist`]; off: the solve's rotations
    /// as they are).
    pub twist: bool,
    /// The finger curls (off: no finger is written).
    pub fingers: bool,
    /// The hips, spine bend and legs from the headset ([`LowerBody`], when the pipeline has
    /// one).
    pub lower_body: bool,
}

impl Steps {
    /// Only the arms' targets and solve: no spine, clavicle, twist or finger step.
    pub const ARMS: Steps = Steps {
        spine: false,
        clavicles: false,
        twist: false,
        fingers: false,
        lower_body: false,
    };
}

impl Default for Steps {
    fn default() -> Self {
        Self {
            spine: true,
            clavicles: true,
            twist: true,
            fingers: true,
            lower_body: true,
        }
    }
}

/// Every bone-writing stage for one avatar.
#[derive(Clone, Debug)]
pub struct BodyPipeline {
    pub arms: ArmPipeline,
    pub upper_body: UpperBodyFollow,
    pub clavicles: ClavicleFollow,
    pub twist: ForearmTwist,
    pub hand_pose: HandPoseSettings,
    pub tracking_loss: TrackingLoss,
    /// Where a lost hand rests, in the avatar root's frame.
    pub rest_positions: PerSide<Vec3>,
    /// Which of the upper body's steps run (all by default).
    pub steps: Steps,
    /// The hips, spine bend and legs, for a rig that has them ([`BodyPipeline::with_lower_body`]).
    pub lower_body: Option<LowerBody>,
    bones: BodyBones,
    /// Each hand bone's rest (local): its twist reference, and the forearm axis (its position).
    hand_rest: PerSide<Pose>,
    curls: PerSide<[Option<FingerCurl>; FINGERS]>,
    last_head: Option<Pose>,
}

impl BodyPipeline {
    /// Whether the lower body sits (or is sitting down); false without one.
    pub fn sitting(&self) -> bool {
        self.lower_body.as_ref().is_some_and(LowerBody::sitting)
    }

    /// A pipeline for a rig whose rest arm bones (skeleton space) are `rest`, with its stages'
    /// bones at `bones` in the tree, the hands' rest local poses and the fingers' prepared curls.
    pub fn new(
        profile: &ArmProfile,
        rest: &PerSide<ArmBones>,
        bones: BodyBones,
        hand_rest: PerSide<Pose>,
        curls: PerSide<[Option<FingerCurl>; FINGERS]>,
    ) -> Self {
        let mut p = *profile;
        p.validate();
        Self {
            arms: ArmPipeline::new(&p.arms(), rest),
            upper_body: UpperBodyFollow::new(p.upper_body_follow),
            clavicles: ClavicleFollow::new(p.clavicle_follow),
            twist: ForearmTwist::new(p.forearm_twist),
            hand_pose: p.hand_pose,
            tracking_loss: TrackingLoss::default(),
            rest_positions: PerSide::new(DEFAULT_REST_POSITIONS[0], DEFAULT_REST_POSITIONS[1]),
            steps: Steps::default(),
            lower_body: None,
            bones,
            hand_rest,
            curls,
            last_head: None,
        }
    }

    /// The same pipeline with a lower body (its bones in the same tree).
    pub fn with_lower_body(mut self, lower_body: LowerBody) -> Self {
        // A hand out of reach bends the body toward it: each arm's shoulder and reach.
        let arm = |side: Side| {
            let [_, upper, _, _] = *self.bones.arms.get(side);
            Some((upper, self.arms.calibration.get(side).arm_length()))
        };
        let arms = PerSide::new(arm(Side::Left), arm(Side::Right));
        self.lower_body = Some(lower_body.with_arms(arms));
        self
    }

    /// Runs one frame of `dt` seconds on `tree` (this frame's bones, as they came in), writing
    /// the solved bones into it. The feet stand on `ground` (steps and ramps found under each
    /// foot's place; [`crate::lower_body::ground::FlatFloor`]: the floor at `input.floor_y`).
    pub fn update(
        &mut self,
        input: &BodyInput,
        tree: &mut PoseTree,
        dt: f32,
        ground: &dyn Ground,
    ) -> BodyOutput {
        let b = self.bones;
        let skeleton = input.skeleton.sanitized(&Pose::IDENTITY);
        let arm_bones = |tree: &mut PoseTree, side: Side| {
            let [parent, upper, lower, hand] = *b.arms.get(side);
            ArmBones {
                parent: tree.global(parent),
                upper: tree.global(upper),
                lower: tree.global(lower),
                hand: tree.global(hand),
            }
        };
        // Controller targets, then the tracking-loss hold, then the other target stages.
        let mut tracking = PerSide::new(None, None);
        let raw = Side::BOTH.map(|side| {
            let out = raw_target(
                &mut self.arms.controller_targets,
                &mut self.tracking_loss,
                side,
                *input.controllers.get(side),
                || Some(input.body),
                *self.rest_positions.get(side),
                dt,
            );
            *tracking.get_mut(side) = out.event;
            Some(out.target)
        });

        // Chest, neck and head toward the headset (the last tracked one while it is lost).
        if let Some(head) = input.head.filter(Pose::is_finite) {
            self.last_head = Some(head);
        }
        // As `UpperBodyFollow`: no chest bone, no spine follow. The spine toward the last
        // tracked headset, then the hips, the spine's bend and the legs from where the headset
        // puts the head.
        let spine = self.steps.spine.then_some(self.last_head).flatten();
        let stand = StandFrame::of_body(&input.body, skeleton, input.floor_y, input.head);
        // The arms as they came in: what the target stages measure when no lower body moves
        // them (not worked out when one will: they would be worked out again after it).
        let legs_posed = self
            .lower_body
            .as_ref()
            .filter(|_| self.steps.lower_body)
            .is_some_and(|lb| stand.poses_legs(lb));
        let bones_in = (!legs_posed).then(|| Side::BOTH.map(|side| arm_bones(tree, side)));
        // No walk animation to blend with outside the node graph: no XR origin.
        let (spine_written, lower) = stand.spine_then_lower_body(
            tree,
            spine.map(|head| SpineStep {
                follow: &self.upper_body,
                bones: b.spine,
                head,
            }),
            self.lower_body.as_mut().filter(|_| self.steps.lower_body),
            PerSide::new(raw[0].map(|r| r.position), raw[1].map(|r| r.position)),
            dt,
            ground,
        );
        // The spine's bones count as written (the step set them).
        let mut written = mask_of(spine_written.into_iter().flatten().map(|(bone, _)| bone));
        let mut write = |tree: &mut PoseTree, bone: usize, rotation: Quat| {
            tree.set_local_rotation(bone, rotation);
            written |= 1 << bone;
        };
        let lower = lower.unwrap_or_default();
        let lower_written = match &self.lower_body {
            Some(lb) if lower.hips.is_some() => lb.bones_mask(),
            _ => 0,
        };

        // The target stages measure the shoulders where the body put them: after the lower body
        // moved them (a crouch takes them down with the head), else as they came in.
        let [left, right] = match bones_in {
            Some(bones) if lower_written == 0 => bones,
            _ => Side::BOTH.map(|side| arm_bones(tree, side)),
        };
        let targets = self.arms.targets_from_raw(
            &PipelineInput {
                body: input.body,
                skeleton,
                up: input.up,
                controllers: input.controllers,
                overrides: input.overrides,
                bones: PerSide::new(left, right),
            },
            PerSide::new(raw[0], raw[1]),
            dt,
        );

        // Clavicles toward the routed targets: both measured, then both written.
        let to_skeleton = skeleton.inverse();
        // The world's up in the skeleton's space (another axis under a turned skeleton).
        let up = to_skeleton.rotation * input.up;
        let clavicles = Side::BOTH.map(|side| {
            let clavicle = (*b.clavicles.get(side)).filter(|_| self.steps.clavicles)?;
            let target = targets.get(side).as_ref()?;
            let arm = ClavicleArm {
                clavicle,
                upper_arm: b.arms.get(side)[1],
                arm_length: self.arms.calibration.get(side).arm_length(),
            };
            let to = to_skeleton.transform_point(target.target.position);
            Some((
                clavicle,
                self.clavicles.follow_bones(side, tree, arm, to, up, dt),
            ))
        });
        for (clavicle, local) in clavicles.into_iter().flatten() {
            write(tree, clavicle, local);
        }

        // The arms, then each lower arm's share of the hand's twist.
        let mut before_solve = PerSide::new(None, None);
        let mut solves = PerSide::new(None, None);
        for side in Side::BOTH {
            let Some(target) = targets.get(side) else {
                continue;
            };
            let bones = arm_bones(tree, side);
            *before_solve.get_mut(side) = Some(bones);
            let solve = self.arms.solve(side, &bones, target, &skeleton, dt);
            *solves.get_mut(side) = Some(solve);
            let [_, upper, lower, hand] = *b.arms.get(side);
            write(tree, upper, solve.upper_local);
            if !self.steps.twist {
                write(tree, lower, solve.lower_local);
                write(tree, hand, solve.hand_local);
                continue;
            }
            let rest = self.hand_rest.get(side);
            let share = self
                .twist
                .twist_hand(side, solve.hand_local, *rest, dt)
                .lower_arm;
            let (lower_local, hand_local) =
                share_twist(solve.lower_local, solve.hand_local, rest.position, share);
            write(tree, lower, lower_local);
            write(tree, hand, hand_local);
        }

        let fingers = Side::BOTH.map(|side| {
            if self.steps.fingers {
                crate::hands::finger_step::finger_rotations(
                    &self.hand_pose,
                    self.curls.get(side),
                    input.hands.get(side),
                )
            } else {
                [None; FINGERS]
            }
        });
        BodyOutput {
            targets,
            written: written | lower_written,
            tracking,
            arms_before_solve: before_solve,
            solves,
            fingers: PerSide::new(fingers[0], fingers[1]),
            lower,
        }
    }
}

#[cfg(test)]
#[path = "body_pipeline_tests.rs"]
mod tests;
