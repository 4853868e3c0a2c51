//! `ElbowHintSolver` node: stage 5 of the arm target pipeline.

use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::arms::body_avoidance::BodyAvoidanceSettings;
use vr_arms_core::arms::elbow_hint::{ElbowHintSettings, ElbowHintSolver as Stage};

use crate::nodes::vr_arm_rig::VRArmRig;
use crate::nodes::vr_arm_rig::links::{arm_frame, slot_problems};
use crate::problems::ProblemReport;
use crate::relay::release_rewired_output;
use crate::settings_bridge;
use crate::shared::common::{read_pose, side_slots};

/// Stage 5 of the arm target pipeline: places each elbow hint (the pole the arm solve bends
/// toward) in a stable torso frame, never driven by wrist roll.
///
/// The pole is down + back + outward in the body's frame with the shoulder->hand axis projected
/// out, blends to an outward plane overhead, takes a cue from the hand's forearm axis (the elbow
/// one forearm length behind the hand), is pushed out, back and down when the hand is near the
/// torso, and is smoothed. Inputs are the final wrist targets; outputs are the hint nodes the
/// `VRArmRig` reads. Runs in `_process` at priority -600 (last of the pipeline).
#[derive(GodotClass)]
#[class(base = Node3D, tool)]
pub struct ElbowHintSolver {
    /// The arm rig (shoulders and bone lengths come from it).
    #[export]
    rig: Option<Gd<VRArmRig>>,
    /// The avatar root, facing +Z. Empty: the rig's skeleton.
    #[export]
    body_root: Option<Gd<Node3D>>,
    /// The left final wrist target (from TargetRouter).
    #[export_group(name = "Targets")]
    #[export]
    left_input: Option<Gd<Node3D>>,
    /// Node that receives the left elbow hint (VRArmRig's left_hint).
    #[export]
    left_output: Option<Gd<Node3D>>,
    /// The right final wrist target.
    #[export]
    right_input: Option<Gd<Node3D>>,
    /// Node that receives the right elbow hint.
    #[export]
    right_output: Option<Gd<Node3D>>,

    /// Where along the shoulder->hand line the hint sits (fraction of arm length).
    #[export_group(name = "Pole")]
    #[export(range = (0.0, 1.0))]
    along_arm_factor: f32,
    /// Distance of the hint from that line (metres).
    #[export(range = (0.01, 1.0, suffix = "m"))]
    hint_distance_m: f32,
    /// Weight of "down" in the torso-frame pole.
    #[export(range = (0.0, 2.0))]
    pole_down: f32,
    /// Weight of "back".
    #[export(range = (0.0, 2.0))]
    pole_back: f32,
    /// Weight of "outward".
    #[export(range = (0.0, 2.0))]
    pole_outward: f32,
    /// Arm elevation (dot with up) where the outward overhead plane starts blending in.
    #[export(range = (-1.0, 1.0))]
    overhead_start_dot: f32,
    /// ... and where it has fully taken over.
    #[export(range = (-1.0, 1.0))]
    overhead_full_dot: f32,
    /// Arm direction (dot with down) where the relaxed arm's pole starts blending in: a hand
    /// hanging at the side bends its elbow back and a little out.
    #[export(range = (-1.0, 1.0))]
    relaxed_start_dot: f32,
    /// ... and where it has fully taken over.
    #[export(range = (-1.0, 1.0))]
    relaxed_full_dot: f32,
    /// The relaxed arm's pole: back, and this much outward per 1 back.
    #[export(range = (0.0, 2.0))]
    relaxed_pole_outward: f32,
    /// On a relaxed arm the forearm cue counts fully only where it agrees with the relaxed pole
    /// this well (the cosine of the angle between them), and not at all from a right angle on:
    /// a relaxed hand bent at the wrist would otherwise put the elbow into the body.
    #[export(range = (0.0, 1.0))]
    relaxed_cue_agreement: f32,
    /// Weight of the forearm cue (elbow behind the hand along its forearm axis), 0..1.
    #[export(range = (0.0, 1.0))]
    forearm_cue_weight: f32,
    /// The forearm axis (elbow to wrist) in the wrist target's space. +Y, the hand bone's long
    /// axis, is a straight wrist; the default leans 0.15 toward -Z, the mean wrist posture of
    /// the motion capture the defaults were chosen on.
    #[export]
    forearm_axis: Vector3,
    /// The forearm cue counts only once its elbow guess is further off the shoulder-hand line
    /// than this, per metre of forearm (the default: the axis's own tilt, so a hand held along
    /// its arm says nothing).
    #[export(range = (0.0, 1.0))]
    forearm_cue_dead_zone: f32,
    /// Hint smoothing rate (1/s).
    #[export(range = (0.0, 100.0, or_greater, suffix = "/s"))]
    smoothing_rate: f32,
    /// How fast the elbow may swing round the shoulder-hand line (degrees a second; 0: no
    /// limit): a hand flapping at the wrist turns the forearm cue faster than any elbow swings,
    /// and the elbow would flip back and forth with it.
    #[export(range = (0.0, 1440.0, or_greater, suffix = "°/s"))]
    max_swivel_deg_s: f32,
    /// Push the hint out, back and down when the hand is near the torso, and keep the elbow out
    /// of the avatar's torso (sized from its shoulder span as `BodyAvoidance`'s defaults size it).
    #[export_group(name = "Hint Body Avoidance")]
    #[export]
    avoidance_enabled: bool,
    /// Horizontal distance of the hand from the body axis below which the push starts (metres).
    #[export(range = (0.0, 1.0, suffix = "m"))]
    avoidance_near_m: f32,
    /// Full outward push (metres).
    #[export(range = (0.0, 0.5, suffix = "m"))]
    push_outward_m: f32,
    /// Full backward push (metres).
    #[export(range = (0.0, 0.5, suffix = "m"))]
    push_back_m: f32,
    /// Full downward push (metres).
    #[export(range = (0.0, 0.5, suffix = "m"))]
    push_down_m: f32,

    stage: Stage,
    report: ProblemReport,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for ElbowHintSolver {
    /// Bridged settings go through the core's validation (the same as a profile's).
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        release_rewired_output(&property, &self.left_output, &self.right_output);
        crate::shared::common::refresh_warnings_on_set(&self.to_gd().upcast());
        self.set_validated(&property, &value)
    }

    fn init(base: Base<Node3D>) -> Self {
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::ELBOW_HINTS);
        let mut node = Self {
            rig: None,
            body_root: None,
            left_input: None,
            left_output: None,
            right_input: None,
            right_output: None,
            along_arm_factor: 0.0,
            hint_distance_m: 0.0,
            pole_down: 0.0,
            pole_back: 0.0,
            pole_outward: 0.0,
            overhead_start_dot: 0.0,
            overhead_full_dot: 0.0,
            relaxed_start_dot: 0.0,
            relaxed_full_dot: 0.0,
            relaxed_pole_outward: 0.0,
            relaxed_cue_agreement: 0.0,
            forearm_cue_weight: 0.0,
            forearm_cue_dead_zone: 0.0,
            forearm_axis: Vector3::UP,
            smoothing_rate: 0.0,
            max_swivel_deg_s: 0.0,
            avoidance_enabled: true,
            avoidance_near_m: 0.0,
            push_outward_m: 0.0,
            push_back_m: 0.0,
            push_down_m: 0.0,
            stage: Stage::default(),
            report: ProblemReport::new("ElbowHintSolver"),
            base,
        };
        node.set_core_settings(&ElbowHintSettings::default());
        node
    }

    /// A stage leaving the tree leaves its target nodes at its last outputs
    /// ([crate::relay::release]).
    fn exit_tree(&mut self) {
        crate::relay::release([&self.left_output, &self.right_output]);
    }

    fn process(&mut self, delta: f64) {
        if crate::shared::common::skip_in_editor(false) {
            return;
        }
        // A frame the avatar's update budget skips: the outputs keep their last values.
        let Some(dt) = crate::nodes::vr_arm_rig::links::stage_step(&self.rig, delta) else {
            return;
        };
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
        self.stage.settings = self.core_settings();
        let Some(frame) = arm_frame(&self.body_root, &self.rig) else {
            return;
        };
        // The torso the elbows keep out of, sized as `BodyAvoidance`'s defaults size it.
        let torso = BodyAvoidanceSettings::default();
        for side in Side::BOTH {
            let (input, output) = self.slots(side);
            let Some(hand) = read_pose(&input) else {
                continue;
            };
            let Some(out) = frame.hint(&mut self.stage, side, hand, &torso, dt) else {
                continue;
            };
            crate::relay::publish_position(&output, out.hint, false);
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl ElbowHintSolver {
    settings_bridge!(ElbowHintSettings {
        along_arm_factor => along_arm_factor,
        hint_distance_m => hint_distance_m,
        pole_down => pole_down,
        pole_back => pole_back,
        pole_outward => pole_outward,
        overhead_start_dot => overhead_start_dot,
        overhead_full_dot => overhead_full_dot,
        relaxed_start_dot => relaxed_start_dot,
        relaxed_full_dot => relaxed_full_dot,
        relaxed_pole_outward => relaxed_pole_outward,
        relaxed_cue_agreement => relaxed_cue_agreement,
        forearm_cue_weight => forearm_cue_weight,
        forearm_axis => forearm_axis,
        forearm_cue_dead_zone => forearm_cue_dead_zone,
        smoothing_rate => smoothing_rate,
        max_swivel_deg_s => max_swivel_deg_s,
        avoidance_enabled => avoidance_enabled,
        avoidance_near_m => avoidance_near_m,
        push_outward_m => push_outward_m,
        push_back_m => push_back_m,
        push_down_m => push_down_m,
    });

    fn slots(&self, side: Side) -> (Option<Gd<Node3D>>, Option<Gd<Node3D>>) {
        side_slots(
            side,
            (&self.left_input, &self.left_output),
            (&self.right_input, &self.right_output),
        )
    }

    fn problems(&self) -> Vec<String> {
        slot_problems(
            &self.rig,
            [
                (
                    "left",
                    self.left_input.is_some(),
                    self.left_output.is_some(),
                ),
                (
                    "right",
                    self.right_input.is_some(),
                    self.right_output.is_some(),
                ),
            ],
            true,
        )
    }
}

crate::stage_node_api!(
    ElbowHintSolver,
    "ElbowHintSolver",
    elbow_hint,
    load: "Loads the `[elbow_hint]` section of a TOML profile; on error the settings stay.",
    save: "Saves these settings into the `[elbow_hint]` section of a TOML profile.",
    problems: "What is wrong with the setup (the editor's configuration warnings)."
);
