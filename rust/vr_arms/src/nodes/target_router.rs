//! `TargetRouter` node: stage 4 of the arm target pipeline.

use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::arms::target_router::{RouterEvent, TargetRouter as Stage, TargetRouterSettings};

use crate::nodes::vr_arm_rig::links::slot_problems;
use crate::problems::ProblemReport;
use crate::shared::common::{read_pose, side_slots, write_pose};
use crate::shared::hand::Hand;

/// Stage 4 of the arm target pipeline: per arm, blends the default target with an interaction
/// override (a holster draw, a two-handed grip) so the interaction can pose the arm without
/// fighting the controller.
///
/// Call [method set_override] with the hand and an override node, [method clear_override] to
/// blend back, or [method force_clear] to go back at once. [signal override_engaged] and
/// [signal override_released] report when a blend has finished. Runs in `_process` at
/// priority -700.
#[derive(GodotClass)]
#[class(base = Node3D, tool)]
pub struct TargetRouter {
    /// The left default target (from ReachClamp).
    #[export_group(name = "Targets")]
    #[export]
    left_input: Option<Gd<Node3D>>,
    /// Node that receives the routed left target (the final wrist target).
    #[export]
    left_output: Option<Gd<Node3D>>,
    /// The right default target.
    #[export]
    right_input: Option<Gd<Node3D>>,
    /// Node that receives the routed right target.
    #[export]
    right_output: Option<Gd<Node3D>>,
    /// How fast the override weight moves (weight per second).
    #[export(range = (0.1, 60.0, or_greater, suffix = "/s"))]
    blend_speed: f32,

    routers: [Stage; 2],
    overrides: [Option<Gd<Node3D>>; 2],
    report: ProblemReport,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for TargetRouter {
    /// A rewired output leaves its old node at its last pose ([crate::relay]).
    /// The blend speed goes through the core's validation, as a profile's does.
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        crate::relay::release_rewired_output(&property, &self.left_output, &self.right_output);
        if property == "blend_speed"
            && let Ok(v) = value.try_to::<f32>()
        {
            let mut s = TargetRouterSettings { blend_speed: v };
            s.validate();
            self.blend_speed = s.blend_speed;
            return true;
        }
        false
    }

    fn init(base: Base<Node3D>) -> Self {
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::TARGET_ROUTER);
        Self {
            left_input: None,
            left_output: None,
            right_input: None,
            right_output: None,
            blend_speed: TargetRouterSettings::default().blend_speed,
            routers: [Stage::default(), Stage::default()],
            overrides: [None, None],
            report: ProblemReport::new("TargetRouter"),
            base,
        }
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
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
        let settings = self.core_settings();
        for side in Side::BOTH {
            let (input, output) = self.slots(side);
            let Some(default) = read_pose(&input) else {
                continue;
            };
            let override_pose = read_pose(&self.overrides[side.index()]);
            let router = &mut self.routers[side.index()];
            router.settings = settings;
            let out = router.route(side, default, override_pose, delta as f32);
            write_pose(&output, &out.target, false);
            self.emit(side, out.event);
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl TargetRouter {
    /// An override finished blending in (`hand` 0 = left, 1 = right).
    #[signal]
    fn override_engaged(hand: Hand);
    /// An override finished blending out.
    #[signal]
    fn override_released(hand: Hand);

    /// Starts blending `hand`'s arm (0 = left, 1 = right) toward `target`.
    #[func]
    pub fn set_override(&mut self, hand: Hand, target: Option<Gd<Node3D>>) {
        let i = hand.side().index();
        self.overrides[i] = target;
        self.routers[i].set_override();
    }

    /// Starts blending `hand`'s arm back to its default target.
    #[func]
    pub fn clear_override(&mut self, hand: Hand) {
        self.routers[hand.side().index()].clear_override();
    }

    /// Puts `hand`'s arm back on its default target at once.
    #[func]
    pub fn force_clear(&mut self, hand: Hand) {
        let side = hand.side();
        let event = self.routers[side.index()].force_clear();
        self.emit(side, event);
    }

    /// Current override weight of `hand` (0 = default target, 1 = override).
    #[func]
    pub fn get_override_weight(&self, hand: Hand) -> f32 {
        self.routers[hand.side().index()].weight
    }

    fn core_settings(&self) -> TargetRouterSettings {
        let mut s = TargetRouterSettings {
            blend_speed: self.blend_speed,
        };
        s.validate();
        s
    }

    /// Puts a profile's settings into the inspector's properties (as loaded, unvalidated: the
    /// next frame validates them).
    fn set_core_settings(&mut self, s: &TargetRouterSettings) {
        self.blend_speed = s.blend_speed;
    }

    fn emit(&mut self, side: Side, event: Option<RouterEvent>) {
        let hand = Hand::of(side);
        match event {
            Some(RouterEvent::Engaged) => self.signals().override_engaged().emit(hand),
            Some(RouterEvent::Released) => self.signals().override_released().emit(hand),
            None => {}
        }
    }

    fn slots(&self, side: Side) -> (Option<Gd<Node3D>>, Option<Gd<Node3D>>) {
        side_slots(
            side,
            (&self.left_input, &self.left_output),
            (&self.right_input, &self.right_output),
        )
    }

    fn problems(&self) -> Vec<String> {
        slot_problems(
            &None,
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
            false,
        )
    }
}

crate::stage_node_api!(
    TargetRouter,
    "TargetRouter",
    target_router,
    load: "Loads the `[target_router]` section of a TOML profile; on error the settings stay.",
    save: "Saves these settings into the `[target_router]` section of a TOML profile.",
    problems: "What is wrong with the setup (the editor's configuration warnings)."
);
