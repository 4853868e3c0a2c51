//! `VRArmRig`: the two-bone arm solve for both arms, as a `SkeletonModifier3D`.

use godot::classes::{ISkeletonModifier3D, Node3D, Skeleton3D, SkeletonModifier3D};
use godot::prelude::*;
use vr_arms_core::arms::arm_solve::{ArmAim, ArmChain, ArmSolver, body_forward_from_rest};
use vr_arms_core::arms::soft_ik::SoftIkSettings;
use vr_arms_core::maths::body_frame::BodyFrame;
use vr_arms_core::{ArmBones, ArmCalibration, Pose, Side};

use crate::convert::{pose, to_transform, to_vector3, vec3};
use crate::nodes::vr_arm_rig::frame::RigFrame;
use crate::problems::ProblemReport;
use crate::settings_bridge;
use crate::shared::common::{
    DebugMarkers, alive, apply_profile, colors, parent_skeleton, skip_in_editor, store_profile,
};
use crate::shared::hand::Hand;
use crate::skeleton_read::SkeletonRead;
use vr_arms_core::crowd::budget::{Budget, HeldRotations};

mod bind;
pub mod frame;
pub mod links;
mod shared;

/// Solves both arms of a humanoid [Skeleton3D] with analytic two-bone IK every frame: the hand
/// bone goes to a target node (the controller, or the last stage of the arm target pipeline) and
/// the elbow bends toward a hint node.
///
/// Place it as a child of the [Skeleton3D]. It runs after any [AnimationPlayer] or
/// [AnimationTree], so authored animation and the arms compose. The hand lands on its target in
/// the same frame the target moved (zero frames of lag) whenever the target is within reach.
///
/// Bone names default to Godot's [SkeletonProfileHumanoid] (`LeftUpperArm`, `LeftLowerArm`,
/// `LeftHand`, ...). Arm lengths and the elbow's hinge axis are measured from the skeleton's rest
/// pose, so no tuning is needed for a standard humanoid.
#[derive(GodotClass)]
#[class(base = SkeletonModifier3D, tool)]
pub struct VRArmRig {
    /// Node whose global transform is the left wrist target (position and hand rotation).
    #[export_group(name = "Left Arm", prefix = "left_")]
    #[export]
    #[var(set = set_left_target)]
    left_target: Option<Gd<Node3D>>,
    /// Node whose global position the left elbow bends toward (the pole). Without one the elbow
    /// bends down and back.
    #[export]
    #[var(set = set_left_hint)]
    left_hint: Option<Gd<Node3D>>,
    /// Name of the left upper-arm bone.
    #[export]
    #[var(set = set_left_upper_arm_bone)]
    left_upper_arm_bone: GString,
    /// Name of the left forearm bone (its origin is the elbow).
    #[export]
    #[var(set = set_left_lower_arm_bone)]
    left_lower_arm_bone: GString,
    /// Name of the left hand bone (its origin is the wrist).
    #[export]
    #[var(set = set_left_hand_bone)]
    left_hand_bone: GString,

    /// Node whose global transform is the right wrist target (position and hand rotation).
    #[export_group(name = "Right Arm", prefix = "right_")]
    #[export]
    #[var(set = set_right_target)]
    right_target: Option<Gd<Node3D>>,
    /// Node whose global position the right elbow bends toward (the pole). Without one the elbow
    /// bends down and back.
    #[export]
    #[var(set = set_right_hint)]
    right_hint: Option<Gd<Node3D>>,
    /// Name of the right upper-arm bone.
    #[export]
    #[var(set = set_right_upper_arm_bone)]
    right_upper_arm_bone: GString,
    /// Name of the right forearm bone (its origin is the elbow).
    #[export]
    #[var(set = set_right_lower_arm_bone)]
    right_lower_arm_bone: GString,
    /// Name of the right hand bone (its origin is the wrist).
    #[export]
    #[var(set = set_right_hand_bone)]
    right_hand_bone: GString,

    /// When on, each hand bone takes its target's rotation; when off, the hand keeps its pose
    /// relative to the forearm.
    #[export_group(name = "Solve")]
    #[export]
    apply_hand_rotation: bool,
    /// Both arms lengthened (or shortened) by this: the bones from the elbow to the wrist are
    /// moved out along their rest offsets every frame, and the solve reaches that far. For a
    /// stylised avatar with short arms (a big head, a chibi), so its hands reach the player's
    /// controllers; `AvatarCalibrator` sets it from the player's arm span when
    /// `fit_arm_length` is on. 1: the arms as made.
    #[export(range = (0.7, 1.6, 0.01))]
    #[var(set = set_arm_length_scale)]
    arm_length_scale: f32,

    /// Soft IK: keep a minimum elbow bend and ease the last part of the reach (the stability note).
    #[export_group(name = "Soft IK", prefix = "soft_ik_")]
    #[export]
    soft_ik_enabled: bool,
    /// Exact hands: every target within the minimum-bend reach is reached exactly (local player).
    /// Off: easing starts at `soft_ik_soft_start_ratio` of that reach (remote players).
    #[export]
    soft_ik_exact_hands: bool,
    /// Smallest elbow bend kept at full reach (degrees).
    #[export(range = (0.0, 30.0, suffix = "°"))]
    soft_ik_min_elbow_bend_deg: f32,
    /// Where easing starts, as a fraction of the minimum-bend reach (not in exact-hands mode).
    #[export(range = (0.5, 1.0))]
    soft_ik_soft_start_ratio: f32,
    /// Reach ratio at which the arm enters the straight state.
    #[export(range = (0.5, 1.0))]
    soft_ik_straight_enter_ratio: f32,
    /// Reach ratio at which it leaves it (hysteresis, below the enter ratio).
    #[export(range = (0.5, 1.0))]
    soft_ik_straight_exit_ratio: f32,
    /// Bend-direction smoothing while bent (1/s; 60 is 2-3 frames at 90 Hz).
    #[export(range = (0.0, 200.0, or_greater, suffix = "/s"))]
    soft_ik_bend_rate: f32,
    /// Bend-direction smoothing while straight (1/s).
    #[export(range = (0.0, 60.0, or_greater, suffix = "/s"))]
    soft_ik_straight_bend_rate: f32,

    /// Solve every this many frames (1: every frame). In between, the target stages that use
    /// this rig (BodyAvoidance, ReachClamp, ElbowHintSolver) and ClavicleFollow do nothing and the
    /// arm bones blend from the previous solve to the last one: less CPU for remote or distant
    /// avatars, at one interval of extra latency. Keep 1 for the local player.
    #[export_group(name = "Budget")]
    #[export(range = (1.0, 8.0, suffix = "frames"))]
    update_interval_frames: i32,

    /// Show the solved wrists (green) and the hints used (magenta).
    #[export_group(name = "Debug")]
    #[export]
    debug_draw: bool,

    arms: [Option<BoundArm>; 2],
    /// Per arm: the bones below the upper arm down to the hand, with their rest offsets (what
    /// `arm_length_scale` stretches).
    chains: [Vec<(i32, Vector3)>; 2],
    solver: ArmSolver,
    budget: Budget,
    /// Per arm: the last two solves' rotations, replayed between solves.
    held: [HeldRotations; 2],
    /// Per arm: whether this frame's pass posed it (solved, or replayed a solve).
    posed: [bool; 2],
    /// Tells the modifier pass Godot runs at setup, before any `_process`, apart.
    setup_pass: crate::engine::SetupPass,
    markers: DebugMarkers,
    bound_to: crate::skeleton_bind::SkeletonBind<()>,
    /// This frame's measurements for the target stages (see [RigFrame]).
    frame: Option<RigFrame>,
    /// The body's facing in the skeleton's space (+Z forward, +Y up), measured at bind: the
    /// body frame without a `body_root`.
    body_in_skeleton: glam::Quat,
    /// Solve in the editor too (off by default: in the editor there is no tracking, and the
    /// modifier would pull the bones toward targets at the origin).
    #[export_group(name = "Editor")]
    #[export]
    editor_preview: bool,
    report: ProblemReport,
    base: Base<SkeletonModifier3D>,
}

/// One arm's resolved bones and rest measurements.
#[derive(Clone, Copy, Debug)]
struct BoundArm {
    parent: i32,
    upper: i32,
    lower: i32,
    hand: i32,
    calibration: ArmCalibration,
}

impl BoundArm {
    /// The arm as the core's solve takes it.
    fn chain(&self) -> ArmChain {
        ArmChain {
            parent: usize::try_from(self.parent).ok(),
            upper: self.upper as usize,
            lower: self.lower as usize,
            hand: self.hand as usize,
            calibration: self.calibration,
        }
    }
}

const LEFT: usize = 0;
const RIGHT: usize = 1;

#[godot_api]
impl ISkeletonModifier3D for VRArmRig {
    fn on_validate_property(&self, property: &mut godot::register::info::PropertyInfo) {
        let bones = [
            "left_upper_arm_bone",
            "left_lower_arm_bone",
            "left_hand_bone",
            "right_upper_arm_bone",
            "right_lower_arm_bone",
            "right_hand_bone",
        ];
        crate::shared::bone_list::suggest_bones(
            property,
            &bones,
            parent_skeleton(&self.base().clone().upcast()),
        );
    }

    /// Bridged settings go through the core's validation (the same as a profile's).
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        self.set_validated(&property, &value)
    }

    fn init(base: Base<SkeletonModifier3D>) -> Self {
        // Its `_process` (before every target stage) starts the frame's measurements afresh.
        let mut gd = base.to_init_gd();
        gd.set_process_priority(PROCESS_PRIORITY);
        gd.set_process(true);
        let mut rig = Self {
            left_target: None,
            left_hint: None,
            left_upper_arm_bone: "LeftUpperArm".into(),
            left_lower_arm_bone: "LeftLowerArm".into(),
            left_hand_bone: "LeftHand".into(),
            right_target: None,
            right_hint: None,
            right_upper_arm_bone: "RightUpperArm".into(),
            right_lower_arm_bone: "RightLowerArm".into(),
            right_hand_bone: "RightHand".into(),
            apply_hand_rotation: true,
            arm_length_scale: 1.0,
            soft_ik_enabled: false,
            soft_ik_exact_hands: false,
            soft_ik_min_elbow_bend_deg: 0.0,
            soft_ik_soft_start_ratio: 0.0,
            soft_ik_straight_enter_ratio: 0.0,
            soft_ik_straight_exit_ratio: 0.0,
            soft_ik_bend_rate: 0.0,
            soft_ik_straight_bend_rate: 0.0,
            update_interval_frames: 1,
            budget: Budget::new(1),
            held: Default::default(),
            posed: [false; 2],
            setup_pass: Default::default(),
            debug_draw: false,
            arms: [None, None],
            chains: Default::default(),
            solver: ArmSolver::default(),
            markers: DebugMarkers::default(),
            bound_to: Default::default(),
            frame: None,
            body_in_skeleton: glam::Quat::IDENTITY,
            editor_preview: false,
            report: ProblemReport::new("VRArmRig"),
            base,
        };
        rig.set_core_settings(&SoftIkSettings::default());
        rig
    }

    /// A new frame: the target stages measure the skeleton again (also when the rig's own
    /// modification pass does not run, e.g. while it is inactive).
    fn process(&mut self, delta: f64) {
        if crate::threads::off_main_thread() {
            return;
        }
        self.frame = None;
        self.setup_pass.processed();
        let interval = self.effective_interval();
        let id = self.base().instance_id();
        crate::shared::budget::advance_frame(&mut self.budget, interval, id, delta);
    }

    fn enter_tree(&mut self) {
        self.setup_pass.entered_tree();
    }

    fn process_modification_with_delta(&mut self, delta: f64) {
        // The target stages have run for this frame: the next frame measures again.
        self.frame = None;
        if skip_in_editor(self.editor_preview) {
            return;
        }
        // Godot runs the modifiers once at setup, before any `_process`: no stage has placed a
        // target yet, and a solve now would start the smoothing from wherever the markers are.
        if self.setup_pass.is_setup_pass() {
            self.posed = [false; 2];
            return;
        }
        let Some(mut skeleton) = self.base().get_skeleton() else {
            if self.report.due() {
                let problems = self.problems();
                self.report.runtime(&problems);
            }
            return;
        };
        self.bind(&skeleton);
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
        self.stretch_arms(&mut skeleton);

        let budget = self.budget;
        if !budget.solving() {
            for (side, held) in self.held.iter().enumerate() {
                crate::shared::budget::replay(&mut skeleton, held, &budget);
                self.posed[side] = self.arms[side].is_some() && self.posed[side];
            }
            return;
        }
        self.posed = [false; 2];
        let skeleton_global = skeleton.get_global_transform();
        let to_skeleton = skeleton_global.affine_inverse();
        let settings = self.core_settings();
        let dt = budget.step(delta as f32);
        let mut shown = [None; 4];
        self.solver.settings = settings;
        // Both arms are solved before either is written: a read after a write makes the
        // skeleton recompute every bone under the written one (the fingers too).
        let solved = [LEFT, RIGHT].map(|side| {
            let arm = self.arms[side]?;
            let target = crate::relay::read(&self.valid_target(side))?;
            let aim = ArmAim {
                target: pose(&(to_skeleton * to_transform(&target))),
                hint: crate::relay::read_position(&self.valid_hint(side))
                    .map(|p| vec3(to_skeleton * to_vector3(p))),
                apply_hand_rotation: self.apply_hand_rotation,
            };
            let mut bones = SkeletonRead(&skeleton);
            let solved =
                self.solver
                    .solve_bones(Side::BOTH[side], &mut bones, &arm.chain(), &aim, dt);
            Some((arm, solved))
        });
        for (side, solved) in solved.into_iter().enumerate() {
            let Some((arm, solved)) = solved else {
                // Not solved: nothing of an earlier solve may be replayed over the animation.
                self.held[side].clear();
                continue;
            };
            self.posed[side] = true;
            crate::shared::budget::write_solved(
                &mut skeleton,
                &mut self.held[side],
                &[
                    (arm.upper, solved.upper_local),
                    (arm.lower, solved.lower_local),
                    (arm.hand, solved.hand_local),
                ],
                &budget,
            );
            shown[side * 2] = Some(vec3(skeleton_global * to_vector3(solved.hand.position)));
            shown[side * 2 + 1] = Some(vec3(skeleton_global * to_vector3(solved.hint)));
        }
        self.draw(&shown);
    }

    fn ready(&mut self) {
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.get_setup_problems()
    }
}

#[godot_api]
impl VRArmRig {
    #[func]
    fn set_left_target(&mut self, node: Option<Gd<Node3D>>) {
        self.left_target = node;
        self.changed(false);
    }
    #[func]
    fn set_left_hint(&mut self, node: Option<Gd<Node3D>>) {
        self.left_hint = node;
        self.changed(false);
    }
    #[func]
    fn set_left_upper_arm_bone(&mut self, name: GString) {
        self.left_upper_arm_bone = name;
        self.changed(true);
    }
    #[func]
    fn set_left_lower_arm_bone(&mut self, name: GString) {
        self.left_lower_arm_bone = name;
        self.changed(true);
    }
    #[func]
    fn set_left_hand_bone(&mut self, name: GString) {
        self.left_hand_bone = name;
        self.changed(true);
    }
    #[func]
    fn set_right_target(&mut self, node: Option<Gd<Node3D>>) {
        self.right_target = node;
        self.changed(false);
    }
    #[func]
    fn set_right_hint(&mut self, node: Option<Gd<Node3D>>) {
        self.right_hint = node;
        self.changed(false);
    }
    #[func]
    fn set_right_upper_arm_bone(&mut self, name: GString) {
        self.right_upper_arm_bone = name;
        self.changed(true);
    }
    #[func]
    fn set_right_lower_arm_bone(&mut self, name: GString) {
        self.right_lower_arm_bone = name;
        self.changed(true);
    }
    #[func]
    fn set_arm_length_scale(&mut self, scale: f32) {
        let range = vr_arms_core::rig::calibration::ARM_LENGTH_SCALES;
        self.arm_length_scale = if scale.is_finite() {
            scale.clamp(*range.start(), *range.end())
        } else {
            1.0
        };
        self.changed(true);
    }

    #[func]
    fn set_right_hand_bone(&mut self, name: GString) {
        self.right_hand_bone = name;
        self.changed(true);
    }

    /// Forgets what the solve remembers between frames (soft-IK straight state and smoothed
    /// bend direction), for example after a teleport.
    #[func]
    pub fn reset(&mut self) {
        self.solver = ArmSolver::default();
    }

    /// What is wrong with the setup (the same list the editor shows as configuration
    /// warnings); empty when the rig is ready.
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    /// Arm length (upper arm + forearm, metres in the skeleton's space) measured from the rest
    /// pose; 0 when the arm's bones are not found. `side` is 0 for left, 1 for right.
    #[func]
    fn get_arm_length(&mut self, hand: Hand) -> f32 {
        let side = hand.side();
        self.calibration(side)
            .map(|c| c.arm_length())
            .unwrap_or(0.0)
    }

    /// Global position of an arm's shoulder (upper-arm joint) this frame: in `_process`, where
    /// this frame's body (`LowerBodyRig`, `UpperBodyFollow`) carries it, before the clavicles
    /// lift it (the point the arm's reach is measured from); in `skeleton_updated`, where the
    /// modifiers put it. Asked before the body's nodes in a frame (a `_process` at a priority
    /// below `BodyFollow`'s, -1100, or `LowerBodyRig`'s, -1095), it is without this frame's
    /// body (or without its lower body): a rig resting crouched or turned has it elsewhere.
    #[func]
    fn get_shoulder_global_position(&mut self, hand: Hand) -> Vector3 {
        let side = hand.side();
        self.arm_info(side)
            .map(|(p, _)| to_vector3(p))
            .unwrap_or(Vector3::ZERO)
    }

    /// Loads the `[soft_ik]` section of a TOML profile; on error the settings stay as they were.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        apply_profile("VRArmRig", &path, |p| self.set_core_settings(&p.soft_ik))
    }

    /// Saves the soft-IK settings into the `[soft_ik]` section of a TOML profile.
    #[func]
    fn save_profile(&self, path: GString) -> bool {
        let s = self.core_settings();
        store_profile("VRArmRig", &path, |p| p.soft_ik = s)
    }

    settings_bridge!(SoftIkSettings {
        soft_ik_enabled => enabled,
        soft_ik_exact_hands => exact_hands,
        soft_ik_min_elbow_bend_deg => min_elbow_bend_deg,
        soft_ik_soft_start_ratio => soft_start_ratio,
        soft_ik_straight_enter_ratio => straight_enter_ratio,
        soft_ik_straight_exit_ratio => straight_exit_ratio,
        soft_ik_bend_rate => bend_rate,
        soft_ik_straight_bend_rate => straight_bend_rate,
    });

    fn draw(&mut self, shown: &[Option<glam::Vec3>; 4]) {
        const STYLES: [(Color, f32); 4] = [
            (colors::WRIST, 0.018),
            (colors::HINT, 0.015),
            (colors::WRIST, 0.018),
            (colors::HINT, 0.015),
        ];
        // The base, not `to_gd()`: that casts to our class through the engine every frame.
        let owner = self.base().clone().upcast::<Node3D>();
        self.markers.sync(self.debug_draw, owner, &STYLES, shown);
    }
}

/// The rig processes before the target stages (-1000 and up) and after `BodyFollow` (-1100),
/// which moves the body.
pub const PROCESS_PRIORITY: i32 = crate::shared::priorities::ARM_RIG;
