//! The shape of a stage: its settings (validated in one place), an input, an output, and one
//! `update(side, &input, dt)`. Every stage of the body has it: the arms' target stages and
//! solve, the upper body's bone writers and the body follow ([`Stage`]), and the lower body,
//! which poses a whole skeleton, with the bones it poses beside its input ([`BoneStage`]). The
//! contract the types cannot hold (nothing non-finite comes out, a time step of 0, below 0 or
//! not a number changes no state) is checked for each in this file's tests.

use crate::maths::pose_tree::PoseTree;
use crate::maths::side::Side;

/// A stage's settings: one `validate` brings every field into its range (a profile's, the
/// inspector's or a script's values), a value that is not a number to its default.
pub trait StageSettings {
    fn validate(&mut self);
}

/// A stage of the body.
pub trait Stage {
    type Settings: StageSettings;
    type Input;
    type Output;

    /// One frame of `dt` seconds for the arm (or side) `side`.
    fn update(&mut self, side: Side, input: &Self::Input, dt: f32) -> Self::Output;
}

/// A stage that poses the bones of a skeleton (the lower body: hips, spine and legs): the same
/// shape, with the bones it reads and writes in place beside the input.
pub trait BoneStage {
    type Settings: StageSettings;
    type Input<'a>;
    type Output;

    /// One frame of `dt` seconds for `side` on `bones`.
    fn update(
        &mut self,
        side: Side,
        bones: &mut PoseTree,
        input: &Self::Input<'_>,
        dt: f32,
    ) -> Self::Output;
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;
    use crate::arms::body_avoidance::{BodyAvoidance, BodyAvoidanceInput, Torso};
    use crate::arms::controller_targets::{ControllerTargets, ControllerTargetsInput};
    use crate::arms::elbow_hint::{ElbowHintInput, ElbowHintSolver};
    use crate::arms::reach_clamp::{ReachClamp, ReachClampInput};
    use crate::arms::target_router::{TargetRouter, TargetRouterInput};
    use crate::arms::tracking_loss::{TrackingLoss, TrackingLossInput};
    use crate::body::body_follow::{BodyFollow, BodyFollowInput};
    use crate::maths::body_frame::BodyFrame;
    use crate::maths::pose::Pose;
    use crate::upper_body::clavicle_follow::{ClavicleFollow, ClavicleFollowInput};
    use crate::upper_body::forearm_twist::{ForearmTwist, ForearmTwistInput};
    use crate::upper_body::upper_body_follow::{UpperBodyFollow, UpperBodyFollowInput};

    /// Checks the contract on `stage` for a usable `input` and a `hostile` one (not finite):
    /// every output `finite`, and a step of 0, -1 or NaN leaves the state as it was (the next
    /// real step gives what it gives from the untouched stage).
    fn holds_the_contract<S>(
        stage: S,
        input: S::Input,
        hostile: S::Input,
        finite: impl Fn(&S::Output) -> bool,
    ) where
        S: Stage + Clone,
        S::Output: PartialEq + std::fmt::Debug,
    {
        let mut warm = stage.clone();
        for _ in 0..5 {
            warm.update(Side::Left, &input, 1.0 / 90.0);
        }
        for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let mut touched = warm.clone();
            let out = touched.update(Side::Left, &input, bad);
            assert!(finite(&out), "dt {bad}: {out:?}");
            let next = touched.update(Side::Left, &input, 1.0 / 90.0);
            let untouched = warm.clone().update(Side::Left, &input, 1.0 / 90.0);
            if bad != f32::INFINITY {
                assert_eq!(next, untouched, "dt {bad} changed the state");
            }
        }
        let mut s = warm.clone();
        for dt in [1.0 / 90.0, f32::NAN, 0.5] {
            let out = s.update(Side::Right, &hostile, dt);
            assert!(finite(&out), "hostile input, dt {dt}: {out:?}");
        }
    }

    fn pose(x: f32, y: f32, z: f32) -> Pose {
        Pose::new(Vec3::new(x, y, z), Quat::from_rotation_x(0.3))
    }

    fn nan_pose() -> Pose {
        Pose::new(Vec3::NAN, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 0.0))
    }

    fn body() -> BodyFrame {
        BodyFrame::new(Pose::IDENTITY)
    }

    #[test]
    fn the_controller_targets_hold_the_contract() {
        let mut stage = ControllerTargets::new(Default::default());
        stage.add_recoil(
            Side::Left,
            Vec3::new(0.0, 0.02, -0.05),
            Vec3::new(8.0, 0.0, 0.0),
        );
        holds_the_contract(
            stage,
            ControllerTargetsInput {
                controller: pose(0.3, 1.2, 0.4),
            },
            ControllerTargetsInput {
                controller: nan_pose(),
            },
            |o| o.target.is_finite(),
        );
    }

    #[test]
    fn the_body_avoidance_holds_the_contract() {
        let torso = Torso::from_shoulders(
            Vec3::new(0.17, 1.4, 0.0),
            Vec3::new(-0.17, 1.4, 0.0),
            &body(),
        );
        let input = |raw: Pose| BodyAvoidanceInput {
            raw_target: raw,
            shoulder: Vec3::new(0.17, 1.4, 0.0),
            arm_length: 0.55,
            torso,
            body: body(),
        };
        holds_the_contract(
            BodyAvoidance::new(Default::default()),
            input(pose(-0.05, 1.1, 0.05)),
            input(nan_pose()),
            |o| o.target.is_finite(),
        );
    }

    #[test]
    fn the_reach_clamp_holds_the_contract() {
        let input = |target: Pose| ReachClampInput {
            target,
            shoulder: Vec3::new(0.17, 1.4, 0.0),
            arm_length: 0.55,
            body: body(),
            up: Vec3::Y,
        };
        let stage = ReachClamp::new(crate::arms::reach_clamp::ReachClampSettings {
            exact_hands_mode: false,
            ..Default::default()
        });
        holds_the_contract(stage, input(pose(0.3, 2.2, 0.9)), input(nan_pose()), |o| {
            o.target.is_finite() && o.guard_weight.is_finite()
        });
    }

    #[test]
    fn the_target_router_holds_the_contract() {
        let mut stage = TargetRouter::new(Default::default());
        stage.set_override();
        let input = |target: Pose| TargetRouterInput {
            target,
            override_target: Some(pose(0.1, 1.0, 0.3)),
        };
        holds_the_contract(stage, input(pose(0.3, 1.2, 0.4)), input(nan_pose()), |o| {
            o.target.is_finite()
        });
    }

    #[test]
    fn the_elbow_hint_holds_the_contract() {
        let input = |hand: Pose| ElbowHintInput {
            shoulder: Vec3::new(0.17, 1.4, 0.0),
            hand,
            upper_length: 0.28,
            lower_length: 0.26,
            body: body(),
            torso: None,
        };
        holds_the_contract(
            ElbowHintSolver::new(Default::default()),
            input(pose(0.3, 1.1, 0.35)),
            input(nan_pose()),
            |o| o.hint.is_finite(),
        );
    }

    #[test]
    fn the_clavicle_follow_holds_the_contract() {
        let input = |target: Vec3| ClavicleFollowInput {
            clavicle_position: Vec3::new(0.03, 1.41, 0.0),
            clavicle_rotation: Quat::IDENTITY,
            parent_rotation: Quat::IDENTITY,
            shoulder: Vec3::new(0.17, 1.41, 0.0),
            target,
            arm_length: 0.52,
            up: Vec3::Y,
        };
        holds_the_contract(
            ClavicleFollow::new(Default::default()),
            input(Vec3::new(0.9, 1.9, 0.3)),
            input(Vec3::NAN),
            |o| o.local_rotation.is_finite() && o.yaw.is_finite() && o.pitch.is_finite(),
        );
    }

    #[test]
    fn the_forearm_twist_holds_the_contract() {
        let input = |hand_local: Quat| ForearmTwistInput {
            hand_local,
            hand_rest_local: Quat::IDENTITY,
            axis: Vec3::Y,
        };
        holds_the_contract(
            ForearmTwist::new(Default::default()),
            input(Quat::from_rotation_y(1.2)),
            input(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)),
            |o| {
                [o.wrist_twist, o.distributed, o.lower_arm, o.wrist_joint]
                    .iter()
                    .all(|v| v.is_finite())
            },
        );
    }

    #[test]
    fn the_arm_solver_holds_the_contract() {
        use crate::arms::arm_solve::{ArmAim, ArmBones, ArmCalibration, ArmSolver, ArmSolverInput};
        let along_x = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2);
        let at = |x: f32| Pose::new(Vec3::new(x, 1.4, 0.0), along_x);
        let bones = ArmBones {
            parent: at(0.03),
            upper: at(0.17),
            lower: at(0.45),
            hand: at(0.69),
        };
        let input = |target: Pose| ArmSolverInput {
            bones,
            calibration: ArmCalibration::from_rest(&bones, Vec3::Z),
            aim: ArmAim {
                target,
                hint: Some(Vec3::new(0.4, 1.0, -0.3)),
                apply_hand_rotation: true,
            },
        };
        // A target past the reach: soft IK holds state (straight or not) from frame to frame.
        holds_the_contract(
            ArmSolver::new(Default::default()),
            input(pose(0.9, 1.5, 0.3)),
            input(nan_pose()),
            |o| {
                [o.upper_local, o.lower_local, o.hand_local]
                    .iter()
                    .all(|q| q.is_finite())
                    && [o.upper, o.lower, o.hand].iter().all(Pose::is_finite)
            },
        );
    }

    #[test]
    fn the_upper_body_follow_holds_the_contract() {
        let input = |head: Quat| UpperBodyFollowInput {
            drop_m: 0.3,
            ..UpperBodyFollowInput::chain(
                Quat::IDENTITY,
                head,
                Quat::from_rotation_x(0.1),
                [Some(Quat::IDENTITY), None, Some(Quat::from_rotation_y(0.2))],
            )
        };
        holds_the_contract(
            UpperBodyFollow::new(Default::default()),
            input(Quat::from_rotation_y(0.7) * Quat::from_rotation_x(0.3)),
            input(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)),
            |o| o.local_rotations.iter().flatten().all(|q| q.is_finite()),
        );
    }

    #[test]
    fn the_body_follow_holds_the_contract() {
        let input = |head: Pose| BodyFollowInput {
            head,
            left_hand: Some(Vec3::new(0.3, 1.1, 0.4)),
            right_hand: Some(Vec3::new(-0.2, 1.0, 0.5)),
            left_grip: Some(Quat::IDENTITY),
            right_grip: None,
            floor_y: 0.0,
        };
        holds_the_contract(
            BodyFollow::new(Default::default()),
            input(Pose::new(
                Vec3::new(0.1, 1.6, 0.0),
                Quat::from_rotation_y(2.0),
            )),
            input(nan_pose()),
            |o| o.root.is_finite() && o.yaw.is_finite() && o.hands_weight.is_finite(),
        );
    }

    #[test]
    fn the_tracking_loss_holds_the_contract() {
        let input = |live: Option<Pose>| TrackingLossInput {
            live,
            rest: Some(pose(0.2, 0.8, 0.05)),
        };
        // Lost after a tracked frame, so the warm stage is easing toward rest.
        let mut stage = TrackingLoss::new(Default::default());
        stage.update(Side::Left, &input(Some(pose(0.3, 1.2, 0.4))), 1.0 / 90.0);
        holds_the_contract(stage, input(None), input(Some(nan_pose())), |o| {
            o.target.is_finite()
        });
    }

    /// The lower body, on the reference body's tree (set back to its rest pose every frame, as
    /// the engine does): the same contract, its bones' local rotations included.
    #[test]
    fn the_lower_body_holds_the_contract() {
        use crate::lower_body::{LowerBody, LowerBodyInput, reference_lower_body};
        let (rest, bones, eyes) = reference_lower_body();
        let input = LowerBodyInput::at_origin;
        // Walking forward and crouching a little: the feet step and the hips sink.
        let walking = |k: usize| {
            let turn = Quat::from_rotation_y(std::f32::consts::PI);
            input(Pose::new(
                eyes + Vec3::new(0.0, -0.2, 0.01 * k as f32),
                turn,
            ))
        };
        let frame = |stage: &mut LowerBody, i: &LowerBodyInput, dt: f32| {
            let mut tree = rest.clone();
            let out = BoneStage::update(stage, Side::Left, &mut tree, i, dt);
            let locals: Vec<Quat> = (0..tree.len()).map(|b| tree.local_rotation(b)).collect();
            (out, locals)
        };
        let mut warm = LowerBody::new(Default::default(), bones, &rest, Some(eyes));
        for k in 0..30 {
            frame(&mut warm, &walking(k), 1.0 / 90.0);
        }
        // The last frame's input again with a bad step, then the next frame.
        let (last, next) = (walking(29), walking(30));
        for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let mut touched = warm.clone();
            let (out, locals) = frame(&mut touched, &last, bad);
            assert!(out.head_miss.is_finite() && out.hips.is_none_or(|h| h.is_finite()));
            assert!(locals.iter().all(|q| q.is_finite()), "dt {bad}");
            if bad != f32::INFINITY {
                let after = frame(&mut touched, &next, 1.0 / 90.0);
                let untouched = frame(&mut warm.clone(), &next, 1.0 / 90.0);
                assert!(after.0.hips.is_some(), "a real step solves");
                assert_eq!(after, untouched, "dt {bad} changed the state");
            }
        }
        let mut hostile = warm.clone();
        for dt in [1.0 / 90.0, f32::NAN, 0.5] {
            let (out, locals) = frame(&mut hostile, &input(nan_pose()), dt);
            assert!(out.head_miss.is_finite() && out.hips.is_none_or(|h| h.is_finite()));
            assert!(
                locals.iter().all(|q| q.is_finite()),
                "hostile input, dt {dt}"
            );
        }
    }

    /// `StageSettings::validate` makes each stage's settings usable: a field that is not a
    /// number comes back finite (its default or its range's end).
    #[test]
    fn each_stages_settings_validate_through_the_trait() {
        fn validated<S: StageSettings>(mut s: S) -> S {
            StageSettings::validate(&mut s);
            s
        }
        use crate::arms::body_avoidance::BodyAvoidanceSettings;
        use crate::arms::controller_targets::ControllerTargetsSettings;
        use crate::arms::elbow_hint::ElbowHintSettings;
        use crate::arms::reach_clamp::ReachClampSettings;
        use crate::arms::target_router::TargetRouterSettings;
        use crate::arms::tracking_loss::TrackingLossSettings;
        use crate::body::body_follow::BodyFollowSettings;
        use crate::upper_body::clavicle_follow::ClavicleFollowSettings;
        use crate::upper_body::forearm_twist::ForearmTwistSettings;
        use crate::upper_body::upper_body_follow::UpperBodyFollowSettings;
        let nan = f32::NAN;
        let mut c = ControllerTargetsSettings::default();
        c.recoil.out_speed = nan;
        assert!(validated(c).recoil.out_speed.is_finite());
        let b = BodyAvoidanceSettings {
            torso_half_width_ratio: nan,
            ..Default::default()
        };
        assert!(validated(b).torso_half_width_ratio.is_finite());
        let r = ReachClampSettings {
            hard_clamp_ratio: nan,
            ..Default::default()
        };
        assert!(validated(r).hard_clamp_ratio.is_finite());
        let t = TargetRouterSettings { blend_speed: nan };
        assert!(validated(t).blend_speed.is_finite());
        let e = ElbowHintSettings {
            hint_distance_m: nan,
            ..Default::default()
        };
        assert!(validated(e).hint_distance_m.is_finite());
        let k = ClavicleFollowSettings {
            max_follow_deg: nan,
            ..Default::default()
        };
        assert!(validated(k).max_follow_deg.is_finite());
        let f = ForearmTwistSettings {
            elbow_twist_weight: nan,
            ..Default::default()
        };
        assert!(validated(f).elbow_twist_weight.is_finite());
        let u = UpperBodyFollowSettings {
            max_yaw_deg: nan,
            ..Default::default()
        };
        assert!(validated(u).max_yaw_deg.is_finite());
        let y = BodyFollowSettings {
            response_time_s: nan,
            ..Default::default()
        };
        assert!(validated(y).response_time_s.is_finite());
        let a = crate::arms::soft_ik::SoftIkSettings {
            min_elbow_bend_deg: nan,
            ..Default::default()
        };
        assert!(validated(a).min_elbow_bend_deg.is_finite());
        let b = crate::lower_body::LowerBodySettings {
            step_distance_m: nan,
            ..Default::default()
        };
        assert!(validated(b).step_distance_m.is_finite());
        let l = TrackingLossSettings {
            ease_to_rest_s: nan,
            ..Default::default()
        };
        assert!(validated(l).ease_to_rest_s.is_finite());
    }
}
