//! One arm's bones from a target and a hint: the bridge between bone transforms and
//! [`solve_two_bone`](crate::arms::two_bone_ik::solve_two_bone).
//!
//! [`ArmSolver`] is the stage: soft IK, then the two-bone solve ([`solve_arm`] is the solve
//! alone, without soft IK). The Godot `VRArmRig` node takes it through
//! [`ArmSolver::solve_bones`] on the skeleton's bones, the core pipeline through
//! [`ArmSolver::update`], so the engine and the tests solve bones with the same code. All poses
//! are in the skeleton's space.

use glam::{Quat, Vec3};

use crate::arms::soft_ik::{SoftIk, SoftIkSettings};
use crate::arms::two_bone_ik::{LimbPose, TwoBoneGoal, TwoBoneSolution, solve_two_bone_with_reach};
use crate::hands::hand_frame::HandRest;
use crate::maths::finite::direction;
use crate::maths::pose::Pose;
use crate::maths::side::Side;
use crate::maths::skeleton_bones::SkeletonBones;

/// Global poses (skeleton space) of the bones one arm solve reads, before the solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmBones {
    /// The upper arm's parent (clavicle / shoulder bone).
    pub parent: Pose,
    pub upper: Pose,
    pub lower: Pose,
    pub hand: Pose,
}

impl ArmBones {
    /// `chain`'s bones as `bones` poses them now (no parent: the identity).
    pub fn read(bones: &mut impl SkeletonBones, chain: &ArmChain) -> Self {
        Self {
            parent: chain.parent.map_or(Pose::IDENTITY, |p| bones.global(p)),
            upper: bones.global(chain.upper),
            lower: bones.global(chain.lower),
            hand: bones.global(chain.hand),
        }
    }
}

/// One arm of a skeleton: its bones (indices) and its measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmChain {
    /// The upper arm's parent (`None`: the upper arm is a root bone).
    pub parent: Option<usize>,
    pub upper: usize,
    pub lower: usize,
    pub hand: usize,
    pub calibration: ArmCalibration,
}

/// Where an arm reaches this frame (skeleton space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmAim {
    /// Wrist target: position, and the palm frame's rotation.
    pub target: Pose,
    /// Elbow hint (pole) position; `None` or not finite: the calibration's default pole.
    pub hint: Option<Vec3>,
    /// Whether the hand bone takes the target's rotation (else it keeps its pose relative to
    /// the forearm).
    pub apply_hand_rotation: bool,
}

/// What the solve needs to know about the rig, measured once from the rest pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmCalibration {
    /// The elbow hinge axis in the upper-arm bone's own space (unit).
    pub hinge_in_upper: Vec3,
    /// Upper-arm length (metres, skeleton space).
    pub upper_length: f32,
    /// Forearm length (metres, skeleton space).
    pub lower_length: f32,
    /// The hand bone's rotation in the palm frame (see [`crate::hands::hand_frame`]): the hand bone
    /// takes `target rotation x hand_from_palm`. Measured from the fingers by
    /// [`with_hand`](Self::with_hand); [`from_rest`](Self::from_rest) alone assumes a palm
    /// facing down along the forearm.
    pub hand_from_palm: Quat,
    /// Where the elbow points from the shoulder when nothing hints it (unit, skeleton space):
    /// see [`default_pole`]. [`from_rest`](Self::from_rest) measures it with +Y up; a rig whose
    /// up is measured otherwise sets it again with that up.
    pub default_pole: Vec3,
}

/// The elbow's direction from the shoulder when no hint is given: down, and back half as much,
/// as an arm hangs relaxed (`up` and `forward` the character's, unit).
pub fn default_pole(up: Vec3, forward: Vec3) -> Vec3 {
    direction(-up - forward * 0.5).unwrap_or(Vec3::NEG_Y)
}

impl ArmCalibration {
    /// Measures an arm from its rest globals. `body_forward` is the direction the character
    /// faces in the same space. The elbow flexes the forearm toward the front of the body, so the
    /// hinge is `upper_dir x forward` (for either side); a rest pose that is already bent gives
    /// its own hinge instead, which also copes with odd rigs.
    pub fn from_rest(bones: &ArmBones, body_forward: Vec3) -> Self {
        let upper_vec = bones.lower.position - bones.upper.position;
        let lower_vec = bones.hand.position - bones.lower.position;
        let upper_dir = direction(upper_vec).unwrap_or(Vec3::NEG_Y);
        let forward = direction(body_forward).unwrap_or(Vec3::Z);
        let bent = direction(lower_vec)
            .filter(|l| upper_dir.cross(*l).length() > 0.17) // more than ~10 degrees of bend
            .and_then(|l| direction(upper_dir.cross(l)))
            // Only trust the rest bend when it flexes toward the front.
            .filter(|h| h.dot(upper_dir.cross(forward)) > 0.0);
        let hinge = bent
            .or_else(|| direction(upper_dir.cross(forward)))
            .unwrap_or_else(|| upper_dir.any_orthonormal_vector());
        // Without fingers: the side from where the arm points (the left arm lies on the
        // character's left of its forward, in a Y-up rest), the palm down along the forearm.
        let palm = HandRest {
            side: if upper_dir.cross(forward).dot(Vec3::Y) >= 0.0 {
                Side::Right
            } else {
                Side::Left
            },
            hand: bones.hand,
            lower_arm: bones.lower.position,
            up: Vec3::Y,
            knuckles: [None; 4],
            thumb: None,
        };
        Self {
            hinge_in_upper: bones.upper.rotation.inverse() * hinge,
            upper_length: upper_vec.length(),
            lower_length: lower_vec.length(),
            hand_from_palm: palm.measure().hand_from_palm,
            default_pole: default_pole(Vec3::Y, forward),
        }
    }

    /// This arm with its hand measured from the rig's fingers (see [`HandRest::measure`]).
    pub fn with_hand(mut self, hand: &HandRest) -> Self {
        self.hand_from_palm = hand.measure().hand_from_palm;
        self
    }

    /// Total arm length (metres).
    pub fn arm_length(&self) -> f32 {
        self.upper_length + self.lower_length
    }
}

/// The direction a character faces, from its rest pose: the left upper arm is on the character's
/// left, so `forward = (left - right) x up`. Falls back to +Z (Godot's humanoid convention) when
/// the shoulders coincide or lie along `up`.
pub fn body_forward_from_rest(left_shoulder: Vec3, right_shoulder: Vec3, up: Vec3) -> Vec3 {
    direction((left_shoulder - right_shoulder).cross(up)).unwrap_or(Vec3::Z)
}

/// What the arm should do this frame (skeleton space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmGoal {
    /// Wrist target: position, and the palm frame's rotation (see [`crate::hands::hand_frame`]).
    pub target: Pose,
    /// Elbow hint (pole) position.
    pub hint: Vec3,
    /// Whether the hand bone takes the target's rotation (else it keeps its pose relative to
    /// the forearm).
    pub apply_hand_rotation: bool,
    /// Effective shoulder->wrist distance (soft IK); `None` uses the target's distance.
    pub reach: Option<f32>,
}

/// Bone-local rotations to write back (each relative to its parent bone), plus where the
/// joints ended up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmSolve {
    pub upper_local: Quat,
    pub lower_local: Quat,
    pub hand_local: Quat,
    /// New global poses (skeleton space) of the three bones.
    pub upper: Pose,
    pub lower: Pose,
    pub hand: Pose,
    pub ik: TwoBoneSolution,
    /// The elbow hint the solve was given (its default pole when it had none), before soft IK.
    pub hint: Vec3,
}

/// Solves one arm. Total: finite output for any input.
pub fn solve_arm(bones: &ArmBones, calibration: &ArmCalibration, goal: &ArmGoal) -> ArmSolve {
    let b = sanitize_bones(bones);
    let goal = ArmGoal {
        target: goal.target.sanitized(&b.hand),
        ..*goal
    };
    solve_sanitized(&b, calibration, &goal)
}

/// [`solve_arm`] for bones and a target already sanitized.
fn solve_sanitized(b: &ArmBones, calibration: &ArmCalibration, goal: &ArmGoal) -> ArmSolve {
    let target = goal.target;
    let hinge = b.upper.rotation * calibration.hinge_in_upper;
    let pose = LimbPose {
        shoulder: b.upper.position,
        elbow: b.lower.position,
        wrist: b.hand.position,
        hinge,
    };
    let ik_goal = TwoBoneGoal {
        target: target.position,
        pole: goal.hint - b.upper.position,
    };
    let ik = solve_two_bone_with_reach(&pose, &ik_goal, goal.reach);

    // The solve's deltas are normalised once here, where they are composed; the bone-local
    // rotations below are products of unit rotations, unit to rounding without another pass.
    let upper_rot = (ik.upper_delta * b.upper.rotation).normalize();
    let forearm_turn = ik.lower_delta * ik.upper_delta;
    let lower_rot = (forearm_turn * b.lower.rotation).normalize();
    let hand_rot = if goal.apply_hand_rotation {
        (target.rotation * calibration.hand_from_palm).normalize()
    } else {
        (forearm_turn * b.hand.rotation).normalize()
    };
    ArmSolve {
        upper_local: b.parent.rotation.inverse() * upper_rot,
        lower_local: upper_rot.inverse() * lower_rot,
        hand_local: lower_rot.inverse() * hand_rot,
        upper: Pose::new(b.upper.position, upper_rot),
        lower: Pose::new(ik.elbow, lower_rot),
        hand: Pose::new(ik.wrist, hand_rot),
        ik,
        hint: goal.hint,
    }
}

/// One frame's input for one arm (skeleton space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmSolverInput {
    /// The arm's bones as they came in.
    pub bones: ArmBones,
    pub calibration: ArmCalibration,
    /// Where it reaches.
    pub aim: ArmAim,
}

/// Both arms' solves with soft IK: what `VRArmRig` runs each frame, and what the core pipeline
/// runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct ArmSolver {
    pub settings: SoftIkSettings,
    soft_ik: [SoftIk; 2],
}

impl ArmSolver {
    pub fn new(mut settings: SoftIkSettings) -> Self {
        settings.validate();
        Self {
            settings,
            soft_ik: [SoftIk::new(settings); 2],
        }
    }

    /// Solves `side`'s arm toward the target with the elbow toward the hint, through soft IK.
    /// A step of no time (`dt <= 0`, as Godot's immediate update after a skeleton is set up)
    /// solves but changes no state, so stale targets at start-up leave no trace.
    #[inline]
    pub fn update(&mut self, side: Side, input: &ArmSolverInput, dt: f32) -> ArmSolve {
        let calibration = &input.calibration;
        let b = sanitize_bones(&input.bones);
        let aim = &input.aim;
        let target = aim.target.sanitized(&b.hand);
        let hint = crate::maths::finite::vec3_or(
            aim.hint.unwrap_or(Vec3::NAN),
            b.upper.position + calibration.default_pole,
        );
        let state = &mut self.soft_ik[side.index()];
        state.settings = self.settings;
        let mut preview = *state;
        let soft_ik = if dt > 0.0 { state } else { &mut preview };
        let soft = soft_ik.update(
            b.upper.position,
            target.position,
            hint - b.upper.position,
            (calibration.upper_length, calibration.lower_length),
            dt,
        );
        let goal = ArmGoal {
            target,
            hint: b.upper.position + soft.pole,
            apply_hand_rotation: aim.apply_hand_rotation,
            reach: Some(soft.reach),
        };
        ArmSolve {
            hint,
            ..solve_sanitized(&b, calibration, &goal)
        }
    }

    /// The step on a skeleton's bones: `arm`'s bones read from `bones` as they are now (nothing
    /// is written), solved toward `aim`. Read both arms before writing either.
    pub fn solve_bones(
        &mut self,
        side: Side,
        bones: &mut impl SkeletonBones,
        arm: &ArmChain,
        aim: &ArmAim,
        dt: f32,
    ) -> ArmSolve {
        let input = ArmSolverInput {
            bones: ArmBones::read(bones, arm),
            calibration: arm.calibration,
            aim: *aim,
        };
        self.update(side, &input, dt)
    }
}

impl crate::stage::StageSettings for SoftIkSettings {
    fn validate(&mut self) {
        Self::validate(self);
    }
}

impl crate::stage::Stage for ArmSolver {
    type Settings = SoftIkSettings;
    type Input = ArmSolverInput;
    type Output = ArmSolve;

    fn update(&mut self, side: Side, input: &Self::Input, dt: f32) -> Self::Output {
        Self::update(self, side, input, dt)
    }
}

fn sanitize_bones(bones: &ArmBones) -> ArmBones {
    let parent = bones.parent.sanitized(&Pose::IDENTITY);
    let upper = bones.upper.sanitized(&parent);
    let lower = bones.lower.sanitized(&upper);
    let hand = bones.hand.sanitized(&lower);
    ArmBones {
        parent,
        upper,
        lower,
        hand,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The left arm's solve.
    fn solve(
        solver: &mut ArmSolver,
        bones: &ArmBones,
        calibration: &ArmCalibration,
        target: &Pose,
        hint: Vec3,
        apply_hand_rotation: bool,
        dt: f32,
    ) -> ArmSolve {
        let input = ArmSolverInput {
            bones: *bones,
            calibration: *calibration,
            aim: ArmAim {
                target: *target,
                hint: Some(hint),
                apply_hand_rotation,
            },
        };
        solver.update(Side::Left, &input, dt)
    }

    fn left_t_pose() -> ArmBones {
        // Bone +Y along the bone (Godot humanoid convention): rotate +Y onto +X.
        let along_x = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2);
        ArmBones {
            parent: Pose::new(Vec3::new(0.03, 1.4, 0.0), along_x),
            upper: Pose::new(Vec3::new(0.17, 1.4, 0.0), along_x),
            lower: Pose::new(Vec3::new(0.45, 1.4, 0.0), along_x),
            hand: Pose::new(Vec3::new(0.69, 1.4, 0.0), along_x),
        }
    }

    #[test]
    fn without_a_hint_the_elbow_hangs_down_and_back() {
        let pole = default_pole(Vec3::Y, Vec3::Z);
        assert!(pole.distance(Vec3::new(0.0, -1.0, -0.5).normalize()) < 1e-6);
        // Another rig's up and forward turn it with them.
        let pole = default_pole(Vec3::Z, Vec3::X);
        assert!(pole.distance(Vec3::new(-0.5, 0.0, -1.0).normalize()) < 1e-6);
        let bones = left_t_pose();
        let cal = ArmCalibration::from_rest(&bones, Vec3::Z);
        assert_eq!(cal.default_pole, default_pole(Vec3::Y, Vec3::Z));
        // A hand target in front of the chest with a non-finite hint: the elbow falls to the
        // default pole's side (below and behind the shoulder-wrist line).
        let target = Pose::from_position(Vec3::new(0.25, 1.25, 0.3));
        let elbow = |hint: Vec3| {
            let mut solver = ArmSolver::new(SoftIkSettings::default());
            solve(&mut solver, &bones, &cal, &target, hint, false, 1.0 / 90.0)
                .lower
                .position
        };
        let shoulder = bones.upper.position;
        let unhinted = elbow(Vec3::NAN);
        assert!(unhinted.distance(elbow(shoulder + cal.default_pole)) < 1e-5);
        assert!(
            unhinted.distance(elbow(shoulder + Vec3::NEG_Y)) > 0.01,
            "not straight down"
        );
    }

    #[test]
    fn forward_comes_from_the_shoulders() {
        let f = body_forward_from_rest(
            Vec3::new(0.17, 1.4, 0.0),
            Vec3::new(-0.17, 1.4, 0.0),
            Vec3::Y,
        );
        assert!(f.distance(Vec3::Z) < 1e-6);
        assert_eq!(
            body_forward_from_rest(Vec3::ZERO, Vec3::ZERO, Vec3::Y),
            Vec3::Z
        );
    }

    #[test]
    fn forward_of_an_off_centre_or_turned_character() {
        // Shoulders not symmetric about the origin: only their difference counts.
        let f =
            body_forward_from_rest(Vec3::new(0.3, 1.4, 0.1), Vec3::new(-0.1, 1.4, 0.1), Vec3::Y);
        assert!(f.distance(Vec3::Z) < 1e-6, "{f}");
        // A character turned to face +X has its left shoulder toward -Z.
        let f = body_forward_from_rest(
            Vec3::new(0.0, 1.4, -0.17),
            Vec3::new(0.0, 1.4, 0.17),
            Vec3::Y,
        );
        assert!(f.distance(Vec3::X) < 1e-6, "{f}");
    }

    /// The left T-pose with the forearm pointing along `lower_dir` from the elbow.
    fn left_arm_with_forearm(lower_dir: Vec3) -> ArmBones {
        let mut bones = left_t_pose();
        bones.hand.position = bones.lower.position + lower_dir.normalize() * 0.24;
        bones
    }

    fn hinge_of(bones: &ArmBones) -> Vec3 {
        let cal = ArmCalibration::from_rest(bones, Vec3::Z);
        bones.upper.rotation * cal.hinge_in_upper
    }

    #[test]
    fn a_bent_rest_pose_gives_its_own_hinge() {
        // Forearm bent 45 degrees forward and down: the hinge is the bend's, not `upper x forward`.
        let bones = left_arm_with_forearm(Vec3::new(std::f32::consts::FRAC_1_SQRT_2, -0.5, 0.5));
        let expected = Vec3::new(0.0, -1.0, -1.0).normalize();
        assert!(
            hinge_of(&bones).distance(expected) < 1e-4,
            "{}",
            hinge_of(&bones)
        );
    }

    #[test]
    fn a_nearly_straight_rest_pose_uses_the_body_hinge() {
        // About 5 degrees of bend (below the 10-degree trust limit) toward front and down.
        let bones = left_arm_with_forearm(Vec3::new(1.0, -0.0617, 0.0617));
        assert!(
            hinge_of(&bones).distance(Vec3::NEG_Y) < 1e-5,
            "{}",
            hinge_of(&bones)
        );
    }

    #[test]
    fn a_rest_bend_backward_or_straight_up_is_not_trusted() {
        for lower_dir in [
            Vec3::new(
                std::f32::consts::FRAC_1_SQRT_2,
                0.0,
                -std::f32::consts::FRAC_1_SQRT_2,
            ),
            Vec3::new(
                std::f32::consts::FRAC_1_SQRT_2,
                std::f32::consts::FRAC_1_SQRT_2,
                0.0,
            ),
        ] {
            let bones = left_arm_with_forearm(lower_dir);
            assert!(
                hinge_of(&bones).distance(Vec3::NEG_Y) < 1e-5,
                "{lower_dir}: {}",
                hinge_of(&bones)
            );
        }
    }

    /// The elbow's offset from the shoulder-wrist line, as a unit direction.
    fn elbow_bend_direction(s: &ArmSolve) -> Vec3 {
        let axis = (s.hand.position - s.upper.position).normalize();
        let e = s.lower.position - s.upper.position;
        (e - axis * e.dot(axis)).normalize()
    }

    #[test]
    fn the_elbow_bends_toward_the_hint_from_a_shoulder_off_the_origin() {
        let bones = left_t_pose();
        let cal = ArmCalibration::from_rest(&bones, Vec3::Z);
        let target = Pose::from_position(Vec3::new(0.45, 1.4, 0.2));
        // Hint straight above the shoulder-target line, then straight below it.
        for (hint, expected) in [
            (Vec3::new(0.31, 1.9, 0.1), Vec3::Y),
            (Vec3::new(0.31, 0.9, 0.1), Vec3::NEG_Y),
        ] {
            let goal = ArmGoal {
                target,
                hint,
                apply_hand_rotation: true,
                reach: None,
            };
            let s = solve_arm(&bones, &cal, &goal);
            assert!(s.hand.position.distance(target.position) < 1e-4);
            let bend = elbow_bend_direction(&s);
            assert!(bend.distance(expected) < 1e-3, "{hint}: {bend}");
            // The solver with soft IK bends the same way.
            let mut solver = ArmSolver::default();
            let s = solve(&mut solver, &bones, &cal, &target, hint, true, 1.0 / 90.0);
            let bend = elbow_bend_direction(&s);
            assert!(bend.distance(expected) < 1e-3, "solver {hint}: {bend}");
        }
    }

    #[test]
    fn without_hand_rotation_the_hand_keeps_its_pose_on_the_forearm() {
        let mut bones = left_t_pose();
        // A hand turned 0.5 rad about its bone relative to the forearm.
        bones.hand.rotation = bones.lower.rotation * Quat::from_rotation_y(0.5);
        let cal = ArmCalibration::from_rest(&bones, Vec3::Z);
        let goal = ArmGoal {
            target: Pose::new(Vec3::new(0.3, 1.1, 0.3), Quat::from_rotation_x(0.4)),
            hint: Vec3::new(0.4, 0.9, -0.2),
            apply_hand_rotation: false,
            reach: None,
        };
        let s = solve_arm(&bones, &cal, &goal);
        assert!(
            s.hand_local.angle_between(Quat::from_rotation_y(0.5)) < 1e-4,
            "{}",
            s.hand_local
        );
        assert!(
            (s.lower.rotation.inverse() * s.hand.rotation)
                .angle_between(Quat::from_rotation_y(0.5))
                < 1e-4
        );
    }

    #[test]
    fn a_non_finite_hint_bends_the_elbow_toward_the_default_pole() {
        let bones = left_t_pose();
        let cal = ArmCalibration::from_rest(&bones, Vec3::Z);
        let target = Pose::from_position(Vec3::new(0.45, 1.4, 0.2));
        let mut solver = ArmSolver::default();
        let s = solve(
            &mut solver,
            &bones,
            &cal,
            &target,
            Vec3::NAN,
            true,
            1.0 / 90.0,
        );
        let bend = elbow_bend_direction(&s);
        // Down and back, as far as the arm's line lets it.
        let axis = (s.hand.position - s.upper.position).normalize();
        let expected = cal.default_pole.reject_from_normalized(axis).normalize();
        assert!(bend.distance(expected) < 1e-3, "{bend} vs {expected}");
    }

    #[test]
    fn a_step_of_no_time_leaves_no_state() {
        let bones = left_t_pose();
        let cal = ArmCalibration::from_rest(&bones, Vec3::Z);
        let hint = Vec3::new(0.3, 0.9, 0.1);
        let far = Pose::from_position(Vec3::new(0.72, 1.4, 0.0));
        let near = Pose::from_position(Vec3::new(0.45, 1.4, 0.2));
        let mut solver = ArmSolver::default();
        solve(&mut solver, &bones, &cal, &far, hint, true, 0.0);
        assert_eq!(solver.soft_ik, ArmSolver::default().soft_ik);
        let after = solve(&mut solver, &bones, &cal, &near, hint, true, 1.0 / 90.0);
        let fresh = solve(
            &mut ArmSolver::default(),
            &bones,
            &cal,
            &near,
            hint,
            true,
            1.0 / 90.0,
        );
        assert_eq!(after, fresh);
        // A real step does keep state (the smoothed bend).
        assert_ne!(solver.soft_ik, ArmSolver::default().soft_ik);
    }

    #[test]
    fn t_pose_hinge_flexes_forward() {
        let bones = left_t_pose();
        let cal = ArmCalibration::from_rest(&bones, Vec3::Z);
        let hinge = bones.upper.rotation * cal.hinge_in_upper;
        assert!(hinge.distance(Vec3::NEG_Y) < 1e-5, "{hinge}");
        assert!((cal.arm_length() - 0.52).abs() < 1e-5);
    }

    #[test]
    fn solved_locals_rebuild_the_solved_globals() {
        let bones = left_t_pose();
        let cal = ArmCalibration::from_rest(&bones, Vec3::Z);
        let target = Pose::new(Vec3::new(0.3, 1.1, 0.3), Quat::from_rotation_x(0.4));
        let goal = ArmGoal {
            target,
            hint: Vec3::new(0.4, 0.9, -0.2),
            apply_hand_rotation: true,
            reach: None,
        };
        let s = solve_arm(&bones, &cal, &goal);
        // Forward kinematics from the locals with the original bone offsets.
        let upper = bones.parent.mul_pose(&Pose::new(
            bones.parent.inverse_transform_point(bones.upper.position),
            s.upper_local,
        ));
        let lower_offset = bones.upper.inverse().mul_pose(&bones.lower).position;
        let lower = upper.mul_pose(&Pose::new(lower_offset, s.lower_local));
        let hand_offset = bones.lower.inverse().mul_pose(&bones.hand).position;
        let hand = lower.mul_pose(&Pose::new(hand_offset, s.hand_local));
        assert!(
            hand.position.distance(target.position) < 1e-4,
            "{}",
            hand.position
        );
        // The hand bone takes the palm frame through the rig's own hand axes.
        assert!(
            hand.rotation
                .angle_between(target.rotation * cal.hand_from_palm)
                < 1e-3
        );
        assert!(cal.hand_from_palm.angle_between(Quat::IDENTITY) > 0.1);
        // Elbow bends toward the hint (down and back).
        assert!(lower.position.y < 1.4 && lower.position.z < 0.3);
    }

    /// The step on a skeleton's bones reads the chain's bones from the skeleton and solves as
    /// the stage does on them; a root upper arm reads as under the identity; no hint gives the
    /// default pole, and the solve says which hint it took.
    #[test]
    fn the_step_on_the_bones_reads_the_chain_and_solves_as_the_stage() {
        let arm = left_t_pose();
        // 0 chest (the root), 1 clavicle, 2 upper arm, 3 forearm, 4 hand.
        let mut tree =
            crate::maths::pose_tree::PoseTree::new(&[None, Some(0), Some(1), Some(2), Some(3)])
                .unwrap();
        let chest = Pose::new(Vec3::new(0.0, 1.3, 0.0), Quat::from_rotation_y(0.2));
        tree.set_globals(&[chest, arm.parent, arm.upper, arm.lower, arm.hand]);
        let calibration = ArmCalibration::from_rest(&arm, Vec3::Z);
        let chain = ArmChain {
            parent: Some(1),
            upper: 2,
            lower: 3,
            hand: 4,
            calibration,
        };
        let aim = ArmAim {
            target: Pose::from_position(Vec3::new(0.4, 1.2, 0.3)),
            hint: None,
            apply_hand_rotation: false,
        };
        let read = ArmBones::read(&mut tree, &chain);
        let near = |a: Pose, b: Pose| {
            a.position.distance(b.position) < 1e-6 && a.rotation.angle_between(b.rotation) < 1e-5
        };
        assert!(near(read.parent, arm.parent) && near(read.upper, arm.upper));
        assert!(near(read.lower, arm.lower) && near(read.hand, arm.hand));
        let mut stage = ArmSolver::default();
        let solved = ArmSolver::default().solve_bones(Side::Left, &mut tree, &chain, &aim, 0.01);
        let input = ArmSolverInput {
            bones: read,
            calibration,
            aim,
        };
        assert_eq!(solved, stage.update(Side::Left, &input, 0.01));
        assert!(
            solved
                .hint
                .distance(arm.upper.position + calibration.default_pole)
                < 1e-6
        );
        let given = Vec3::new(0.3, 0.9, -0.4);
        let with_hint = stage.update(
            Side::Left,
            &ArmSolverInput {
                aim: ArmAim {
                    hint: Some(given),
                    ..aim
                },
                ..input
            },
            0.01,
        );
        assert_eq!(with_hint.hint, given);
        let rootless = ArmChain {
            parent: None,
            ..chain
        };
        assert_eq!(ArmBones::read(&mut tree, &rootless).parent, Pose::IDENTITY);
    }
}
