//! The arms' frame of reference for one frame: the body, world up, the torso between the
//! shoulders and each arm's shoulder and measures, built once a frame and shared by the arms'
//! target steps after the controller: body avoidance, the reach clamp and the elbow hint. The
//! core's arm pipeline and the node graph's stage nodes both take each step through it, so the
//! two build every stage's input the same way. One difference stays: the elbow hint keeps out
//! of a torso sized by the body avoidance's settings, which the pipeline has and the
//! `ElbowHintSolver` node does not (it sizes the torso by the defaults).

use glam::Vec3;

use crate::arms::arm_solve::{ArmBones, ArmCalibration};
use crate::arms::body_avoidance::TorsoShape;
use crate::arms::body_avoidance::{
    BodyAvoidance, BodyAvoidanceInput, BodyAvoidanceOutput, BodyAvoidanceSettings, Torso,
};
use crate::arms::elbow_hint::{ElbowHintInput, ElbowHintOutput, ElbowHintSolver};
use crate::arms::reach_clamp::{ReachClamp, ReachClampInput, ReachClampOutput};
use crate::maths::body_frame::BodyFrame;
use crate::maths::pose::Pose;
use crate::maths::side::{PerSide, Side};

/// World up in the engine's convention (+Y): the reach clamp's overhead guard measures from it.
pub const WORLD_UP: Vec3 = Vec3::Y;

/// One arm as the target steps see it: its shoulder (world) and its measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmReach {
    pub shoulder: Vec3,
    pub calibration: ArmCalibration,
}

/// What the arms' target steps share in one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmFrame {
    pub body: BodyFrame,
    /// World up.
    pub up: Vec3,
    /// The torso between the shoulders (no span with an arm missing).
    pub torso: Torso,
    /// Each arm, `None` when it is not measured: its steps give nothing.
    pub arms: PerSide<Option<ArmReach>>,
}

impl ArmFrame {
    /// The frame of `body` with each arm's shoulder and measures (`None`: not measured).
    pub fn new(body: BodyFrame, up: Vec3, arms: PerSide<Option<ArmReach>>) -> Self {
        let shoulder = |side: Side| arms.get(side).map_or(Vec3::NAN, |a| a.shoulder);
        Self {
            body,
            up,
            torso: Torso::from_shoulders(shoulder(Side::Left), shoulder(Side::Right), &body),
            arms,
        }
    }

    /// The frame of a skeleton placed at `skeleton` (world, rigid) whose arm bones are `bones`
    /// (skeleton space), with each arm's `calibration`.
    pub fn of_bones(
        body: BodyFrame,
        skeleton: &Pose,
        up: Vec3,
        bones: &PerSide<ArmBones>,
        calibration: &PerSide<ArmCalibration>,
    ) -> Self {
        let arm = |side: Side| {
            Some(ArmReach {
                shoulder: skeleton.transform_point(bones.get(side).upper.position),
                calibration: *calibration.get(side),
            })
        };
        Self::new(body, up, PerSide::new(arm(Side::Left), arm(Side::Right)))
    }

    /// Body avoidance: `raw` (world) kept out of the torso and within the arm's reach.
    pub fn avoid(
        &self,
        stage: &mut BodyAvoidance,
        side: Side,
        raw: Pose,
        dt: f32,
    ) -> Option<BodyAvoidanceOutput> {
        let arm = (*self.arms.get(side))?;
        let input = BodyAvoidanceInput {
            raw_target: raw,
            shoulder: arm.shoulder,
            arm_length: arm.calibration.arm_length(),
            torso: self.torso,
            body: self.body,
        };
        Some(stage.update(side, &input, dt))
    }

    /// The reach clamp: `target` (world) within the arm's reach, the overhead guard and soft
    /// reach applied.
    pub fn clamp(
        &self,
        stage: &mut ReachClamp,
        side: Side,
        target: Pose,
        dt: f32,
    ) -> Option<ReachClampOutput> {
        let arm = (*self.arms.get(side))?;
        let input = ReachClampInput {
            target,
            shoulder: arm.shoulder,
            arm_length: arm.calibration.arm_length(),
            body: self.body,
            up: self.up,
        };
        Some(stage.update(side, &input, dt))
    }

    /// The elbow hint for the hand at `hand` (world), the elbow kept out of the torso sized as
    /// the body avoidance `torso` sizes it.
    pub fn hint(
        &self,
        stage: &mut ElbowHintSolver,
        side: Side,
        hand: Pose,
        torso: &BodyAvoidanceSettings,
        dt: f32,
    ) -> Option<ElbowHintOutput> {
        let arm = (*self.arms.get(side))?;
        let input = ElbowHintInput {
            shoulder: arm.shoulder,
            hand,
            upper_length: arm.calibration.upper_length,
            lower_length: arm.calibration.lower_length,
            body: self.body,
            torso: Some(TorsoShape::new(&self.torso, torso)),
        };
        Some(stage.update(side, &input, dt))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arms::arm_steps::reference_rig;

    fn frame(arms: PerSide<Option<ArmReach>>) -> ArmFrame {
        ArmFrame::new(BodyFrame::new(Pose::IDENTITY), WORLD_UP, arms)
    }

    /// The reference rig's arm of `side`, its shoulder at `x`: 0.28 + 0.24 m long.
    fn reach(x: f32) -> ArmReach {
        let side = if x > 0.0 { Side::Left } else { Side::Right };
        let calibration = ArmCalibration::from_rest(reference_rig().get(side), Vec3::Z);
        ArmReach {
            shoulder: Vec3::new(x, 1.4, 0.0),
            calibration,
        }
    }

    /// A target far beyond the arm is brought within its reach (the clamp on, not the exact
    /// hands' default) from its own shoulder, each arm from its own.
    #[test]
    fn each_arm_is_clamped_from_its_own_shoulder() {
        let f = frame(PerSide::new(Some(reach(0.17)), Some(reach(-0.17))));
        let mut stage = ReachClamp::new(crate::arms::reach_clamp::ReachClampSettings {
            exact_hands_mode: false,
            ..Default::default()
        });
        let far = Pose::new(Vec3::new(3.0, 1.4, 0.0), glam::Quat::IDENTITY);
        let left = f.clamp(&mut stage, Side::Left, far, 1.0).unwrap();
        let right = f.clamp(&mut stage, Side::Right, far, 1.0).unwrap();
        let from = |t: ReachClampOutput, x: f32| t.target.position.distance(Vec3::new(x, 1.4, 0.0));
        let arm = reach(0.17).calibration.arm_length();
        assert!((arm - 0.52).abs() < 1e-4, "{arm}");
        assert!(from(left, 0.17) <= arm + 1e-4, "{left:?}");
        assert!(from(right, -0.17) <= arm + 1e-4, "{right:?}");
    }

    /// An arm that is not measured gives nothing from any step; the torso then has no span.
    #[test]
    fn an_arm_not_measured_gives_nothing() {
        let f = frame(PerSide::new(Some(reach(0.17)), None));
        let target = Pose::new(Vec3::new(0.3, 1.2, 0.3), glam::Quat::IDENTITY);
        assert!(
            f.avoid(
                &mut BodyAvoidance::new(Default::default()),
                Side::Right,
                target,
                0.01
            )
            .is_none()
        );
        assert!(
            f.clamp(
                &mut ReachClamp::new(Default::default()),
                Side::Right,
                target,
                0.01
            )
            .is_none()
        );
        let mut hints = ElbowHintSolver::new(Default::default());
        let torso = BodyAvoidanceSettings::default();
        assert!(
            f.hint(&mut hints, Side::Right, target, &torso, 0.01)
                .is_none()
        );
        assert!(
            f.hint(&mut hints, Side::Left, target, &torso, 0.01)
                .is_some()
        );
        assert_eq!(f.torso.span, 0.0);
    }

    /// The frame of a rig's bones puts each shoulder where its skeleton carries it.
    #[test]
    fn the_shoulders_of_bones_are_where_the_skeleton_carries_them() {
        let skeleton = Pose::new(Vec3::new(1.0, 0.0, 2.0), glam::Quat::IDENTITY);
        let bones = reference_rig();
        let cal = PerSide::new(reach(0.17).calibration, reach(-0.17).calibration);
        let f = ArmFrame::of_bones(BodyFrame::new(skeleton), &skeleton, WORLD_UP, &bones, &cal);
        let left = f.arms.left.unwrap().shoulder;
        assert!((left - (bones.left.upper.position + Vec3::new(1.0, 0.0, 2.0))).length() < 1e-6);
        assert!(f.torso.span > 0.3, "{:?}", f.torso);
    }
}
