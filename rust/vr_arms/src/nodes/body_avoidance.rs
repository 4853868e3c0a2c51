//! `BodyAvoidance` node: stage 2 of the arm target pipeline.

use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::arms::body_avoidance::{BodyAvoidance as Stage, BodyAvoidanceSettings};

use crate::nodes::vr_arm_rig::VRArmRig;
use crate::nodes::vr_arm_rig::links::{arm_frame, slot_problems};
use crate::problems::ProblemReport;
use crate::relay::release_rewired_output;
use crate::settings_bridge;
use crate::shared::common::{read_pose, side_slots, write_pose};

/// Stage 2 of the arm target pipeline: keeps each raw wrist target out of the torso.
///
/// Keeps the hand target out of the avatar's own torso, measured from its skeleton every frame
/// (an upright elliptic cylinder under the shoulders, sized by the shoulder span): a hand inside
/// leaves it straight away from the torso's axis (in exact-hands mode only once the hand is past
/// the arm's reach: a reachable hand always stays exactly on its controller); anywhere else a
/// reachable hand stays exactly on its controller. Targets across the body at (or beyond) full reach come in front of it, and no hand goes
/// too far behind its shoulder. The correction is smoothed, so it engages without a pop. Runs
/// in `_process` at priority -900.
#[derive(GodotClass)]
#[class(base = Node3D, tool)]
pub struct BodyAvoidance {
    /// The arm rig (shoulder positions come from its skeleton).
    #[export]
    rig: Option<Gd<VRArmRig>>,
    /// The avatar root, facing +Z. Empty: the rig's skeleton.
    #[export]
    body_root: Option<Gd<Node3D>>,
    /// Left target to correct (the raw target from ControllerTargets).
    #[export_group(name = "Targets")]
    #[export]
    left_input: Option<Gd<Node3D>>,
    /// Node that receives the corrected left target.
    #[export]
    left_output: Option<Gd<Node3D>>,
    /// Right target to correct.
    #[export]
    right_input: Option<Gd<Node3D>>,
    /// Node that receives the corrected right target.
    #[export]
    right_output: Option<Gd<Node3D>>,

    /// Master switch: off passes targets through.
    #[export_group(name = "Limits")]
    #[export]
    enabled: bool,
    /// Exact hands (the local player; keep it as `ReachClamp`'s exact-hands mode): no limit
    /// moves a target the arm can reach, so a hand held where the avatar's torso is stays on
    /// its controller; the limits fade in past the arm's reach. Off (remote players): the
    /// limits apply wherever the target is.
    #[export]
    exact_hands: bool,
    /// Half the torso's width, per metre of the avatar's shoulder span (the distance between
    /// its upper-arm bones, read from the skeleton every frame).
    #[export(range = (0.0, 2.0))]
    torso_half_width_ratio: f32,
    /// How far the torso's front is ahead of the shoulder line, per metre of shoulder span.
    #[export(range = (0.0, 2.0))]
    torso_front_ratio: f32,
    /// How far the torso's back is behind the shoulder line, per metre of shoulder span.
    #[export(range = (0.0, 2.0))]
    torso_back_ratio: f32,
    /// How far the torso reaches down from the shoulder line, per metre of shoulder span.
    #[export(range = (0.0, 5.0))]
    torso_height_ratio: f32,
    /// How far behind its shoulder a hand may go (metres).
    #[export(range = (0.0, 1.0, suffix = "m"))]
    max_behind_shoulder_m: f32,
    /// A target out of reach and inward of its shoulder must be this many metres ahead of the
    /// torso's front per metre crossed (reachable targets are never moved by it).
    #[export(range = (0.0, 2.0))]
    cross_body_forward_ratio: f32,
    /// Target distance from the shoulder, per metre of arm length, where that limit starts (a
    /// little inside the reach: a nearly straight arm reaching across low would pass through the
    /// torso) ...
    #[export(range = (0.5, 2.0))]
    out_of_reach_start_ratio: f32,
    /// ... and where it acts fully.
    #[export(range = (0.5, 2.0))]
    out_of_reach_full_ratio: f32,
    /// Correction smoothing rate (1/s).
    #[export(range = (0.0, 100.0, or_greater, suffix = "/s"))]
    smoothing_rate: f32,

    stage: Stage,
    report: ProblemReport,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for BodyAvoidance {
    /// Bridged settings go through the core's validation (the same as a profile's).
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        release_rewired_output(&property, &self.left_output, &self.right_output);
        self.set_validated(&property, &value)
    }

    fn init(base: Base<Node3D>) -> Self {
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::BODY_AVOIDANCE);
        let mut node = Self {
            rig: None,
            body_root: None,
            left_input: None,
            left_output: None,
            right_input: None,
            right_output: None,
            enabled: true,
            exact_hands: true,
            torso_half_width_ratio: 0.0,
            torso_front_ratio: 0.0,
            torso_back_ratio: 0.0,
            torso_height_ratio: 0.0,
            max_behind_shoulder_m: 0.0,
            cross_body_forward_ratio: 0.0,
            out_of_reach_start_ratio: 0.0,
            out_of_reach_full_ratio: 0.0,
            smoothing_rate: 0.0,
            stage: Stage::default(),
            report: ProblemReport::new("BodyAvoidance"),
            base,
        };
        node.set_core_settings(&BodyAvoidanceSettings::default());
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
        for side in Side::BOTH {
            let (input, output) = self.slots(side);
            let Some(raw) = read_pose(&input) else {
                continue;
            };
            let Some(out) = frame.avoid(&mut self.stage, side, raw, dt) else {
                continue;
            };
            write_pose(&output, &out.target, false);
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl BodyAvoidance {
    settings_bridge!(BodyAvoidanceSettings {
        enabled => enabled,
        exact_hands => exact_hands,
        torso_half_width_ratio => torso_half_width_ratio,
        torso_front_ratio => torso_front_ratio,
        torso_back_ratio => torso_back_ratio,
        torso_height_ratio => torso_height_ratio,
        max_behind_shoulder_m => max_behind_shoulder_m,
        cross_body_forward_ratio => cross_body_forward_ratio,
        out_of_reach_start_ratio => out_of_reach_start_ratio,
        out_of_reach_full_ratio => out_of_reach_full_ratio,
        smoothing_rate => smoothing_rate,
    });

    fn slots(&self, side: Side) -> (Option<Gd<Node3D>>, Option<Gd<Node3D>>) {
        side_slots(
            side,
            (&self.left_input, &self.left_output),
            (&self.right_input, &self.right_output),
        )
    }

    fn problems(&self) -> Vec<String> {
        let mut out = slot_problems(
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
        );
        out.extend(self.mode_problem());
        out
    }

    /// A `ReachClamp` beside it (the same parent, the same rig) in the other mode: exact hands
    /// here with a full-mode clamp leaves remote hands inside the torso, and the other way round
    /// moves the local player's reachable hands.
    fn mode_problem(&self) -> Option<String> {
        let parent = self.base().get_parent()?;
        let clamp = parent
            .get_children()
            .iter_shared()
            .filter_map(|c| c.try_cast::<crate::nodes::reach_clamp::ReachClamp>().ok())
            .find(|c| c.get("rig") == self.rig.to_variant())?;
        let clamp_exact = clamp.get("exact_hands_mode").try_to::<bool>().ok()?;
        (clamp_exact != self.exact_hands).then(|| {
            format!(
                "\"exact_hands\" is {} but ReachClamp \"{}\" has \"exact_hands_mode\" {}: set both the same (on for the local player, off for remote players).",
                if self.exact_hands { "on" } else { "off" },
                clamp.get_name(),
                if clamp_exact { "on" } else { "off" },
            )
        })
    }
}

crate::stage_node_api!(
    BodyAvoidance,
    "BodyAvoidance",
    body_avoidance,
    load: "Loads the `[body_avoidance]` section of a TOML profile; on error the settings stay.",
    save: "Saves these settings into the `[body_avoidance]` section of a TOML profile.",
    problems: "What is wrong with the setup (the editor's configuration warnings)."
);
