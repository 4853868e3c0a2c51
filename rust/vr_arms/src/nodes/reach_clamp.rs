//! `ReachClamp` node: stage 3 of the arm target pipeline.

use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::arms::reach_clamp::{ReachClamp as Stage, ReachClampSettings};

use crate::nodes::vr_arm_rig::VRArmRig;
use crate::nodes::vr_arm_rig::links::{arm_frame, slot_problems};
use crate::problems::ProblemReport;
use crate::relay::release_rewired_output;
use crate::settings_bridge;
use crate::shared::common::{DebugMarkers, colors, read_pose, side_slots, write_pose};

/// Stage 3 of the arm target pipeline: reach clamp and overhead guard.
///
/// In exact-hands mode (default, the local player) targets pass 1:1 with zero lag: nothing here
/// moves a hand off its controller (the bend overhead comes from `ClavicleFollow` raising the
/// shoulder with the arm). The full mode (remote players) has a hard clamp, an optional soft
/// zone, optional near-body safety and the overhead guard: as the shoulder->hand direction
/// rises, the allowed reach shrinks toward `overhead_clamp_ratio` x arm length, keeping a
/// visible elbow bend. Only the correction is smoothed, never the target. Runs in `_process` at
/// priority -800.
#[derive(GodotClass)]
#[class(base = Node3D, tool)]
pub struct ReachClamp {
    /// The arm rig (shoulders and arm lengths come from it).
    #[export]
    rig: Option<Gd<VRArmRig>>,
    /// The avatar root, facing +Z. Empty: the rig's skeleton.
    #[export]
    body_root: Option<Gd<Node3D>>,
    /// Left target to clamp (from BodyAvoidance).
    #[export_group(name = "Targets")]
    #[export]
    left_input: Option<Gd<Node3D>>,
    /// Node that receives the clamped left target.
    #[export]
    left_output: Option<Gd<Node3D>>,
    /// Right target to clamp.
    #[export]
    right_input: Option<Gd<Node3D>>,
    /// Node that receives the clamped right target.
    #[export]
    right_output: Option<Gd<Node3D>>,

    /// Exact hands: targets pass untouched, zero lag (local player); off, the full mode's
    /// clamps and overhead guard apply.
    #[export_group(name = "Mode")]
    #[export]
    exact_hands_mode: bool,
    /// Full mode: keep the hand within this fraction of the arm length.
    #[export_group(name = "Far Reach Clamp")]
    #[export(range = (0.9, 1.0))]
    hard_clamp_ratio: f32,
    /// Full mode: ease into the hard clamp over a soft zone.
    #[export]
    use_soft_far_clamp: bool,
    /// Width of the soft zone (metres).
    #[export(range = (0.0, 0.5, suffix = "m"))]
    soft_zone_m: f32,
    /// Power of the soft zone's easing curve.
    #[export(range = (0.5, 8.0))]
    soft_curve_power: f32,
    /// Full mode: keep the hand off the shoulder and out of the chest.
    #[export_group(name = "Near-Body Safety")]
    #[export]
    use_near_body_safety: bool,
    /// The hand stays at least this far from the shoulder (metres).
    #[export(range = (0.0, 0.5, suffix = "m"))]
    min_shoulder_distance_m: f32,
    /// How far behind the shoulder the hand may go (metres).
    #[export(range = (-0.2, 0.5, suffix = "m"))]
    max_behind_shoulder_m: f32,
    /// How far inward of the shoulder the hand may cross (metres).
    #[export(range = (-0.2, 1.0, suffix = "m"))]
    max_inward_cross_from_shoulder_m: f32,
    /// Forward push when the inward limit engages (metres).
    #[export(range = (-0.2, 0.2, suffix = "m"))]
    inward_push_forward_bias_m: f32,
    /// Full mode: dot of (arm direction, up) where the guard starts (0.25 ~ 15 degrees above
    /// horizontal).
    #[export_group(name = "Overhead Guard")]
    #[export(range = (-1.0, 1.0))]
    overhead_guard_start_dot: f32,
    /// Dot where the guard is fully engaged.
    #[export(range = (-1.0, 1.0))]
    overhead_guard_full_dot: f32,
    /// Allowed reach at full guard, as a fraction of arm length.
    #[export(range = (0.75, 0.96))]
    overhead_clamp_ratio: f32,
    /// Correction smoothing at full guard (1/s); 200 at the threshold.
    #[export(range = (0.0, 200.0, or_greater))]
    overhead_smooth: f32,
    /// Correction smoothing of the far clamp and near-body safety (1/s).
    #[export_group(name = "Smoothing")]
    #[export(range = (0.0, 200.0, or_greater))]
    position_smooth: f32,
    /// Rotation smoothing when `smooth_always` (1/s).
    #[export(range = (0.0, 200.0, or_greater))]
    rotation_smooth: f32,
    /// Also smooth the whole target (remote players' network poses); adds lag.
    #[export]
    smooth_always: bool,
    /// Show the clamped targets (red).
    #[export_group(name = "Debug")]
    #[export]
    debug_draw: bool,

    stage: Stage,
    markers: DebugMarkers,
    report: ProblemReport,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for ReachClamp {
    /// Bridged settings go through the core's validation (the same as a profile's).
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        release_rewired_output(&property, &self.left_output, &self.right_output);
        self.set_validated(&property, &value)
    }

    fn init(base: Base<Node3D>) -> Self {
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::REACH_CLAMP);
        let mut node = Self {
            rig: None,
            body_root: None,
            left_input: None,
            left_output: None,
            right_input: None,
            right_output: None,
            exact_hands_mode: true,
            hard_clamp_ratio: 0.0,
            use_soft_far_clamp: false,
            soft_zone_m: 0.0,
            soft_curve_power: 0.0,
            use_near_body_safety: false,
            min_shoulder_distance_m: 0.0,
            max_behind_shoulder_m: 0.0,
            max_inward_cross_from_shoulder_m: 0.0,
            inward_push_forward_bias_m: 0.0,
            overhead_guard_start_dot: 0.0,
            overhead_guard_full_dot: 0.0,
            overhead_clamp_ratio: 0.0,
            overhead_smooth: 0.0,
            position_smooth: 0.0,
            rotation_smooth: 0.0,
            smooth_always: false,
            debug_draw: false,
            stage: Stage::default(),
            markers: DebugMarkers::default(),
            report: ProblemReport::new("ReachClamp"),
            base,
        };
        node.set_core_settings(&ReachClampSettings::default());
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
        let mut shown = [None; 2];
        for side in Side::BOTH {
            let (input, output) = self.slots(side);
            let Some(target) = read_pose(&input) else {
                continue;
            };
            let Some(out) = frame.clamp(&mut self.stage, side, target, dt) else {
                continue;
            };
            write_pose(&output, &out.target, self.debug_draw);
            shown[side.index()] = Some(out.target.position);
        }
        const STYLES: [(Color, f32); 2] = [(colors::CLAMPED, 0.016), (colors::CLAMPED, 0.016)];
        // The base, not `to_gd()`: that casts to our class through the engine every frame.
        let owner = self.base().clone().upcast::<Node3D>();
        self.markers.sync(self.debug_draw, owner, &STYLES, &shown);
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl ReachClamp {
    settings_bridge!(ReachClampSettings {
        exact_hands_mode => exact_hands_mode,
        hard_clamp_ratio => hard_clamp_ratio,
        use_soft_far_clamp => use_soft_far_clamp,
        soft_zone_m => soft_zone_m,
        soft_curve_power => soft_curve_power,
        use_near_body_safety => use_near_body_safety,
        min_shoulder_distance_m => min_shoulder_distance_m,
        max_behind_shoulder_m => max_behind_shoulder_m,
        max_inward_cross_from_shoulder_m => max_inward_cross_from_shoulder_m,
        inward_push_forward_bias_m => inward_push_forward_bias_m,
        overhead_guard_start_dot => overhead_guard_start_dot,
        overhead_guard_full_dot => overhead_guard_full_dot,
        overhead_clamp_ratio => overhead_clamp_ratio,
        overhead_smooth => overhead_smooth,
        position_smooth => position_smooth,
        rotation_smooth => rotation_smooth,
        smooth_always => smooth_always,
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
    ReachClamp,
    "ReachClamp",
    reach_clamp,
    load: "Loads the `[reach_clamp]` section of a TOML profile; on error the settings stay.",
    save: "Saves these settings into the `[reach_clamp]` section of a TOML profile.",
    problems: "What is wrong with the setup (the editor's configuration warnings)."
);
