//! The arms' steps of the body ([`crate::body::Body`] composes them): the target stages in the
//! design's order, and the solve, for both arms.
//!
//! Where they come in the frame is [`crate::body::body_pipeline`]'s order; among themselves the code
//! below runs them in the design's order (`targets_from_raw`, then `solve`), body avoidance,
//! reach clamp and elbow hint through [`crate::arms::arm_frame::ArmFrame`]. The node graph runs each
//! as one node, on the same stage structs.

use glam::Vec3;

use crate::arms::arm_frame::ArmFrame;
use crate::arms::arm_solve::{
    ArmAim, ArmBones, ArmCalibration, ArmSolve, ArmSolver, ArmSolverInput, body_forward_from_rest,
};
use crate::arms::body_avoidance::BodyAvoidance;
use crate::arms::body_avoidance::BodyAvoidanceSettings;
use crate::arms::controller_targets::ControllerTargetsSettings;
use crate::arms::controller_targets::{ControllerTargets, ControllerTargetsInput};
use crate::arms::elbow_hint::ElbowHintSettings;
use crate::arms::elbow_hint::ElbowHintSolver;
use crate::arms::reach_clamp::ReachClamp;
use crate::arms::reach_clamp::ReachClampSettings;
use crate::arms::soft_ik::SoftIkSettings;
use crate::arms::target_router::TargetRouterSettings;
use crate::arms::target_router::{RouterEvent, TargetRouter};
use crate::arms::tracking_loss::{TrackingLoss, TrackingLossInput, TrackingLossOutput, rest_pose};
use crate::maths::body_frame::BodyFrame;
use crate::maths::pose::Pose;
use crate::maths::side::{PerSide, Side};

/// One frame of input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PipelineInput {
    /// Avatar root (world).
    pub body: BodyFrame,
    /// Skeleton node's world pose (rigid).
    pub skeleton: Pose,
    /// World up.
    pub up: Vec3,
    /// Controller world poses; `None` leaves that arm unsolved.
    pub controllers: PerSide<Option<Pose>>,
    /// Interaction override targets (world), used while the router has an override set.
    pub overrides: PerSide<Option<Pose>>,
    /// Current arm bones in skeleton space (after animation, before the solve).
    pub bones: PerSide<ArmBones>,
}

/// What every stage produced for one arm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmOutput {
    pub raw: Pose,
    pub avoided: Pose,
    pub clamped: Pose,
    /// Routed, final wrist target (world).
    pub target: Pose,
    /// Elbow hint (world).
    pub hint: Vec3,
    pub guard_weight: f32,
    pub router_event: Option<RouterEvent>,
    /// Bone rotations and joint positions (skeleton space).
    pub solve: ArmSolve,
}

/// One arm's raw target this frame: a usable controller pose (a non-finite one counts as lost)
/// through [`ControllerTargets`] (calibration, recoil), then the tracking-loss hold: a lost hand
/// holds, eases to rest at `rest_at` in the body's frame and blends back when tracking returns.
/// `body` gives that frame, asked only while the hand is not tracked (`None`: the hand only
/// holds). The body's first arm step; the `ControllerTargets` node runs it as it is.
#[inline]
pub fn raw_target(
    targets: &mut ControllerTargets,
    loss: &mut TrackingLoss,
    side: Side,
    controller: Option<Pose>,
    body: impl FnOnce() -> Option<BodyFrame>,
    rest_at: Vec3,
    dt: f32,
) -> TrackingLossOutput {
    let live = controller.filter(Pose::is_finite).map(|controller| {
        targets
            .update(side, &ControllerTargetsInput { controller }, dt)
            .target
    });
    if let Some(followed) = loss.followed(side, live) {
        return loss.follow(side, followed);
    }
    let last = loss.last(side);
    let rest = Some(match body() {
        Some(b) => rest_pose(last, &b, rest_at),
        None => last.unwrap_or(Pose::IDENTITY),
    });
    loss.update(side, &TrackingLossInput { live, rest }, dt)
}

/// What the target stages produced for one arm (world), before the solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmTargets {
    pub raw: Pose,
    pub avoided: Pose,
    pub clamped: Pose,
    /// Routed, final wrist target.
    pub target: Pose,
    /// Elbow hint.
    pub hint: Vec3,
    pub guard_weight: f32,
    pub router_event: Option<RouterEvent>,
}

/// The arm stages' settings, as a profile's arm sections give them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ArmSettings {
    pub controller_targets: ControllerTargetsSettings,
    pub body_avoidance: BodyAvoidanceSettings,
    pub reach_clamp: ReachClampSettings,
    pub target_router: TargetRouterSettings,
    pub elbow_hint: ElbowHintSettings,
    pub soft_ik: SoftIkSettings,
}

/// All stages for both arms.
#[derive(Clone, Debug)]
pub struct ArmPipeline {
    pub controller_targets: ControllerTargets,
    pub body_avoidance: BodyAvoidance,
    pub reach_clamp: ReachClamp,
    pub routers: PerSide<TargetRouter>,
    pub elbow_hints: ElbowHintSolver,
    pub solver: ArmSolver,
    pub calibration: PerSide<ArmCalibration>,
    /// Whether hand bones take the target's rotation.
    pub apply_hand_rotation: bool,
}

impl ArmPipeline {
    /// A pipeline with the stages' settings `p` (each stage validates its own:
    /// [`crate::body::profile::ArmProfile::arms`] gives them) for a rig whose rest arm bones
    /// (skeleton space) are `rest`.
    pub fn new(p: &ArmSettings, rest: &PerSide<ArmBones>) -> Self {
        let forward =
            body_forward_from_rest(rest.left.upper.position, rest.right.upper.position, Vec3::Y);
        Self {
            controller_targets: ControllerTargets::new(p.controller_targets),
            body_avoidance: BodyAvoidance::new(p.body_avoidance),
            reach_clamp: ReachClamp::new(p.reach_clamp),
            routers: PerSide::new(
                TargetRouter::new(p.target_router),
                TargetRouter::new(p.target_router),
            ),
            elbow_hints: ElbowHintSolver::new(p.elbow_hint),
            solver: ArmSolver::new(p.soft_ik),
            calibration: PerSide::new(
                ArmCalibration::from_rest(&rest.left, forward),
                ArmCalibration::from_rest(&rest.right, forward),
            ),
            apply_hand_rotation: true,
        }
    }

    /// Soft IK and the two-bone solve of one arm toward `targets` (from
    /// [`ArmPipeline::targets_from_raw`] of this frame), on `bones` (skeleton space) of a skeleton placed at `skeleton` (world).
    pub fn solve(
        &mut self,
        side: Side,
        bones: &ArmBones,
        targets: &ArmTargets,
        skeleton: &Pose,
        dt: f32,
    ) -> ArmSolve {
        let to_skeleton = skeleton.sanitized(&Pose::IDENTITY).inverse();
        self.solve_with(side, bones, targets, &to_skeleton, dt)
    }

    fn solve_with(
        &mut self,
        side: Side,
        bones: &ArmBones,
        targets: &ArmTargets,
        to_skeleton: &Pose,
        dt: f32,
    ) -> ArmSolve {
        let input = ArmSolverInput {
            bones: *bones,
            calibration: *self.calibration.get(side),
            aim: ArmAim {
                target: to_skeleton.mul_pose(&targets.target),
                hint: Some(to_skeleton.transform_point(targets.hint)),
                apply_hand_rotation: self.apply_hand_rotation,
            },
        };
        self.solver.update(side, &input, dt)
    }

    /// The target stages after [`ControllerTargets`], from each arm's raw target (world; `None`
    /// leaves that arm without targets): for a caller that puts a stage of its own between
    /// them, as the tracking-loss hold does in [`crate::body::body_pipeline`].
    pub fn targets_from_raw(
        &mut self,
        input: &PipelineInput,
        raw: PerSide<Option<Pose>>,
        dt: f32,
    ) -> PerSide<Option<ArmTargets>> {
        let frame = ArmFrame::of_bones(
            input.body,
            &input.skeleton.sanitized(&Pose::IDENTITY),
            input.up,
            &input.bones,
            &self.calibration,
        );
        let mut arm = |side: Side| {
            let raw = (*raw.get(side))?;
            self.after_raw(side, raw, input, &frame, dt)
        };
        PerSide::new(arm(Side::Left), arm(Side::Right))
    }

    fn after_raw(
        &mut self,
        side: Side,
        raw: Pose,
        input: &PipelineInput,
        frame: &ArmFrame,
        dt: f32,
    ) -> Option<ArmTargets> {
        let avoided = frame.avoid(&mut self.body_avoidance, side, raw, dt)?.target;
        let clamp = frame.clamp(&mut self.reach_clamp, side, avoided, dt)?;
        let routed =
            self.routers
                .get_mut(side)
                .route(side, clamp.target, *input.overrides.get(side), dt);
        let (target, router_event) = (routed.target, routed.event);
        let torso = self.body_avoidance.settings;
        let hint = frame
            .hint(&mut self.elbow_hints, side, target, &torso, dt)?
            .hint;
        Some(ArmTargets {
            raw,
            avoided,
            clamped: clamp.target,
            target,
            hint,
            guard_weight: clamp.guard_weight,
            router_event,
        })
    }
}

impl ArmTargets {
    /// These targets with the arm's solve.
    pub fn with_solve(self, solve: ArmSolve) -> ArmOutput {
        ArmOutput {
            raw: self.raw,
            avoided: self.avoided,
            clamped: self.clamped,
            target: self.target,
            hint: self.hint,
            guard_weight: self.guard_weight,
            router_event: self.router_event,
            solve,
        }
    }
}

/// The arm bones of a plain 1.75 m humanoid in T-pose (Godot's humanoid profile layout: facing
/// +Z, left at +X, each bone's +Y toward its child), in skeleton space. The same figure as the
/// engine tests' `HumanoidBuilder`.
#[cfg(any(test, feature = "testing"))]
pub fn reference_arm_bones(side: Side) -> ArmBones {
    let s = side.sign();
    // +Y along the arm: rotate +Y onto +X (left) or -X (right).
    let along = glam::Quat::from_rotation_z(-s * std::f32::consts::FRAC_PI_2);
    ArmBones {
        parent: Pose::new(Vec3::new(0.03 * s, 1.41, 0.0), along),
        upper: Pose::new(Vec3::new(0.17 * s, 1.41, 0.0), along),
        lower: Pose::new(Vec3::new(0.45 * s, 1.41, 0.0), along),
        hand: Pose::new(Vec3::new(0.69 * s, 1.41, 0.0), along),
    }
}

/// Both arms of [`reference_arm_bones`].
#[cfg(any(test, feature = "testing"))]
pub fn reference_rig() -> PerSide<ArmBones> {
    PerSide::new(
        reference_arm_bones(Side::Left),
        reference_arm_bones(Side::Right),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_arms_are_mirror_t_poses_with_bones_along_plus_y() {
        let left = reference_arm_bones(Side::Left);
        let right = reference_arm_bones(Side::Right);
        let joints = |b: &ArmBones| [b.parent, b.upper, b.lower, b.hand];
        let xs = [0.03, 0.17, 0.45, 0.69];
        for ((l, r), x) in joints(&left).iter().zip(joints(&right)).zip(xs) {
            assert_eq!(l.position, Vec3::new(x, 1.41, 0.0));
            assert_eq!(r.position, Vec3::new(-x, 1.41, 0.0));
            // Each bone's +Y points outward along the arm, toward its child.
            assert!((l.rotation * Vec3::Y).distance(Vec3::X) < 1e-6);
            assert!((r.rotation * Vec3::Y).distance(Vec3::NEG_X) < 1e-6);
        }
        assert_eq!(reference_rig().get(Side::Right), &right);
    }
}
