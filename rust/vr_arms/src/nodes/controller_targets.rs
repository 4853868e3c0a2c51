//! `ControllerTargets` node: stage 1 of the arm target pipeline.

use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::arms::controller_targets::{
    ControllerTargets as Stage, ControllerTargetsSettings,
};
use vr_arms_core::arms::tracking_loss::{
    DEFAULT_REST_POSITIONS, TrackingEvent, TrackingLoss, TrackingLossSettings,
};
use vr_arms_core::body::input_guard::InputGuard;

use crate::convert::vec3;
use crate::problems::ProblemReport;
use crate::relay::release_rewired_output;
use crate::settings_bridge;
use crate::shared::common::{DebugMarkers, alive, colors, read_tracked, write_pose};
use crate::shared::hand::Hand;

/// Stage 1 of the arm target pipeline: writes each controller's pose, mapped onto the hand bone by
/// a per-hand calibration offset and moved by arm recoil, into a raw target node.
///
/// Runs in `_process` at priority -1000 (first). Call [method add_recoil] on every shot; the kick
/// snaps out at `recoil_out_speed` and eases back at `recoil_return_speed`.
///
/// Tracking loss: when a controller reports no tracking, or a pose that is not finite or more
/// than 1 km away, its target holds the last good pose and eases to a relaxed rest pose (hand
/// hanging at `*_rest_position` in `body_root`'s frame) over `tracking_loss_ease_s`, and blends
/// back over `tracking_regain_blend_s` when tracking returns; [signal tracking_changed] reports
/// both. Rejected or repaired poses are counted ([method get_input_counts]) and reported once.
#[derive(GodotClass)]
#[class(base = Node3D, tool)]
pub struct ControllerTargets {
    /// The left controller (usually an [XRController3D]).
    #[export_group(name = "Left Hand", prefix = "left_")]
    #[export]
    left_controller: Option<Gd<Node3D>>,
    /// Node that receives the left raw target (a [Marker3D]).
    #[export]
    left_output: Option<Gd<Node3D>>,
    /// Left wrist position in the controller's space (metres): the calibration point.
    #[export]
    left_position_offset: Vector3,
    /// Left hand-bone rotation relative to the controller (Euler degrees, YXZ). The default maps
    /// the OpenXR grip pose onto a humanoid hand bone.
    #[export]
    left_rotation_offset_deg: Vector3,

    /// The right controller (usually an [XRController3D]).
    #[export_group(name = "Right Hand", prefix = "right_")]
    #[export]
    right_controller: Option<Gd<Node3D>>,
    /// Node that receives the right raw target (a [Marker3D]).
    #[export]
    right_output: Option<Gd<Node3D>>,
    /// Right wrist position in the controller's space (metres): the calibration point.
    #[export]
    right_position_offset: Vector3,
    /// Right hand-bone rotation relative to the controller (Euler degrees, YXZ).
    #[export]
    right_rotation_offset_deg: Vector3,

    /// How fast the hand moves out to a recoil kick (1/s).
    #[export_group(name = "Recoil", prefix = "recoil_")]
    #[export(range = (0.0, 200.0, or_greater, suffix = "/s"))]
    recoil_out_speed: f32,
    /// How fast a recoil kick decays back to zero (1/s).
    #[export(range = (0.0, 100.0, or_greater, suffix = "/s"))]
    recoil_return_speed: f32,
    /// Random extra position per kick, as a fraction of the kick (0..1).
    #[export(range = (0.0, 1.0))]
    recoil_position_jitter: f32,
    /// Random extra rotation per kick (degrees per axis).
    #[export(range = (0.0, 30.0, suffix = "°"))]
    recoil_rotation_jitter_deg: f32,
    /// Largest accumulated recoil offset (metres).
    #[export(range = (0.0, 1.0, suffix = "m"))]
    recoil_max_position_m: f32,
    /// Largest accumulated recoil rotation (degrees per axis).
    #[export(range = (0.0, 180.0, suffix = "°"))]
    recoil_max_rotation_deg: f32,

    /// The avatar root whose frame the rest positions are in (empty: hold the last pose).
    #[export_group(name = "Tracking Loss")]
    #[export]
    body_root: Option<Gd<Node3D>>,
    /// Where the left hand rests when its controller is lost, in `body_root`'s frame (metres).
    #[export]
    left_rest_position: Vector3,
    /// Where the right hand rests when its controller is lost, in `body_root`'s frame (metres).
    #[export]
    right_rest_position: Vector3,
    /// Time from the last good pose to the rest pose (seconds).
    #[export(range = (0.0, 5.0, suffix = "s"))]
    tracking_loss_ease_s: f32,
    /// Time to blend back onto the controller when tracking returns (seconds).
    #[export(range = (0.0, 5.0, suffix = "s"))]
    tracking_regain_blend_s: f32,

    /// Show the controller (blue) and raw target (yellow) markers.
    #[export_group(name = "Debug")]
    #[export]
    debug_draw: bool,

    stage: Stage,
    loss: TrackingLoss,
    guards: [InputGuard; 2],
    /// Input counts already reported, per hand.
    reported_counts: [u64; 2],
    markers: DebugMarkers,
    report: ProblemReport,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for ControllerTargets {
    /// Bridged settings go through the core's validation (the same as a profile's).
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        release_rewired_output(&property, &self.left_output, &self.right_output);
        self.set_validated(&property, &value)
    }

    fn init(base: Base<Node3D>) -> Self {
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::CONTROLLER_TARGETS);
        let mut node = Self {
            left_controller: None,
            left_output: None,
            left_position_offset: Vector3::ZERO,
            left_rotation_offset_deg: Vector3::ZERO,
            right_controller: None,
            right_output: None,
            right_position_offset: Vector3::ZERO,
            right_rotation_offset_deg: Vector3::ZERO,
            recoil_out_speed: 0.0,
            recoil_return_speed: 0.0,
            recoil_position_jitter: 0.0,
            recoil_rotation_jitter_deg: 0.0,
            recoil_max_position_m: 0.0,
            recoil_max_rotation_deg: 0.0,
            body_root: None,
            left_rest_position: crate::convert::to_vector3(DEFAULT_REST_POSITIONS[0]),
            right_rest_position: crate::convert::to_vector3(DEFAULT_REST_POSITIONS[1]),
            tracking_loss_ease_s: TrackingLossSettings::default().ease_to_rest_s,
            tracking_regain_blend_s: TrackingLossSettings::default().regain_blend_s,
            debug_draw: false,
            stage: Stage::default(),
            loss: TrackingLoss::default(),
            guards: [InputGuard::default(); 2],
            reported_counts: [0; 2],
            markers: DebugMarkers::default(),
            report: ProblemReport::new("ControllerTargets"),
            base,
        };
        node.set_core_settings(&ControllerTargetsSettings::default());
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
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
        self.stage.settings = self.core_settings();
        let dt = delta as f32;
        let mut shown = [None; 4];
        self.loss.settings = TrackingLossSettings {
            ease_to_rest_s: self.tracking_loss_ease_s,
            regain_blend_s: self.tracking_regain_blend_s,
        };
        for side in Side::BOTH {
            let i = side.index();
            let (controller, output) = self.slots(side);
            let output = alive(output);
            let Some(node) = alive(controller).filter(|n| n.is_inside_tree()) else {
                continue;
            };
            let live = read_tracked(&node, &mut self.guards[i]);
            self.report_input_counts(side);
            let rest_at = vec3(match side {
                Side::Left => self.left_rest_position,
                Side::Right => self.right_rest_position,
            });
            let body_root = &self.body_root;
            // The body's first arm step, as the core composes it.
            let out = vr_arms_core::arms::arm_steps::raw_target(
                &mut self.stage,
                &mut self.loss,
                side,
                live,
                || {
                    let t = alive(body_root)
                        .filter(|b| b.is_inside_tree())?
                        .get_global_transform();
                    Some(vr_arms_core::maths::body_frame::BodyFrame::scaled(
                        crate::convert::pose(&t),
                        crate::shared::common::uniform_scale(&t),
                    ))
                },
                rest_at,
                dt,
            );
            let raw = out.target;
            write_pose(&output, &raw, self.debug_draw);
            if let Some(e) = out.event {
                self.signals()
                    .tracking_changed()
                    .emit(Hand::of(side), e == TrackingEvent::Regained);
            }
            shown[i * 2] = live.map(|c| c.position);
            shown[i * 2 + 1] = Some(raw.position);
        }
        self.draw(&shown);
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl ControllerTargets {
    /// A hand's controller lost (`tracked` false) or regained tracking (`VRArms.Hand`).
    #[signal]
    fn tracking_changed(hand: Hand, tracked: bool);

    /// How many poses of each hand were rejected or repaired: `{"left": {"non_finite": n,
    /// "too_far": n, "normalised": n, "rotation_replaced": n}, "right": {...}}`.
    #[func]
    fn get_input_counts(&self) -> VarDictionary {
        let mut out = VarDictionary::new();
        for side in Side::BOTH {
            let c = self.guards[side.index()].counts;
            let mut d = VarDictionary::new();
            d.set("non_finite", c.non_finite as i64);
            d.set("too_far", c.too_far as i64);
            d.set("normalised", c.normalised as i64);
            d.set("rotation_replaced", c.rotation_replaced as i64);
            out.set(side.name(), &d);
        }
        out
    }

    /// Whether a hand's controller is tracked now (after the tracking-loss rules).
    #[func]
    fn is_hand_tracked(&self, hand: Hand) -> bool {
        self.loss.state(hand.side()) != vr_arms_core::arms::tracking_loss::TrackingState::Lost
    }

    /// Kicks one hand (`VRArms.Hand`): `position_kick` in metres and
    /// `rotation_kick_deg` in degrees, both in the controller's space, with random jitter.
    #[func]
    pub fn add_recoil(&mut self, hand: Hand, position_kick: Vector3, rotation_kick_deg: Vector3) {
        let side = hand.side();
        self.stage.settings = self.core_settings();
        self.stage
            .add_recoil(side, vec3(position_kick), vec3(rotation_kick_deg));
    }

    /// Holds an offset on one hand until replaced (the revolver's arm recoil layer sets it every
    /// frame): `position` in metres and `rotation_deg` in degrees per axis, in the controller's
    /// space, added to the kicks of [method add_recoil]. Zero clears it.
    #[func]
    pub fn set_recoil_offset(&mut self, hand: Hand, position: Vector3, rotation_deg: Vector3) {
        self.hold_recoil(
            hand.side(),
            vec3(position),
            vec3(rotation_deg) * (std::f32::consts::PI / 180.0),
        );
    }

    /// [method set_recoil_offset] from Rust: `rotation` in radians per axis.
    pub fn hold_recoil(&mut self, side: Side, position: glam::Vec3, rotation: glam::Vec3) {
        self.stage.set_held_recoil(side, position, rotation);
    }

    settings_bridge!(ControllerTargetsSettings {
        left_position_offset => left.position_offset,
        left_rotation_offset_deg => left.rotation_offset_deg,
        right_position_offset => right.position_offset,
        right_rotation_offset_deg => right.rotation_offset_deg,
        recoil_out_speed => recoil.out_speed,
        recoil_return_speed => recoil.return_speed,
        recoil_position_jitter => recoil.position_jitter,
        recoil_rotation_jitter_deg => recoil.rotation_jitter_deg,
        recoil_max_position_m => recoil.max_position_m,
        recoil_max_rotation_deg => recoil.max_rotation_deg,
    });

    fn slots(&self, side: Side) -> (&Option<Gd<Node3D>>, &Option<Gd<Node3D>>) {
        match side {
            Side::Left => (&self.left_controller, &self.left_output),
            Side::Right => (&self.right_controller, &self.right_output),
        }
    }

    /// Reports a hand's rejected or repaired input once when it first happens, then again only
    /// when the count has grown tenfold (never every frame).
    fn report_input_counts(&mut self, side: Side) {
        let i = side.index();
        let c = self.guards[i].counts;
        let total = c.total();
        if total > 0 && total >= self.reported_counts[i].saturating_mul(10).max(1) {
            self.reported_counts[i] = total;
            godot_warn!(
                "ControllerTargets: the {} controller gave unusable poses ({} not finite, {} farther than 1 km, {} rotations normalised, {} rotations replaced); they were rejected or repaired. Reported again only if this grows tenfold.",
                side.name(),
                c.non_finite,
                c.too_far,
                c.normalised,
                c.rotation_replaced
            );
        }
    }

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for side in Side::BOTH {
            let (c, o) = self.slots(side);
            match (c.is_some(), o.is_some()) {
                (true, false) => out.push(format!(
                    "The {0} controller is set but {0}_output is not: nothing receives its target.",
                    side.name()
                )),
                (false, true) => out.push(format!(
                    "{0}_output is set but the {0} controller is not.",
                    side.name()
                )),
                _ => {}
            }
        }
        if self.left_controller.is_none() && self.right_controller.is_none() {
            out.push("No controller is set: set left_controller and right_controller (XRController3D nodes).".into());
        }
        out
    }

    fn draw(&mut self, shown: &[Option<glam::Vec3>; 4]) {
        const STYLES: [(Color, f32); 4] = [
            (colors::CONTROLLER, 0.02),
            (colors::RAW, 0.015),
            (colors::CONTROLLER, 0.02),
            (colors::RAW, 0.015),
        ];
        // The base, not `to_gd()`: that casts to our class through the engine every frame.
        let owner = self.base().clone().upcast::<Node3D>();
        self.markers.sync(self.debug_draw, owner, &STYLES, shown);
    }
}

crate::stage_node_api!(
    ControllerTargets,
    "ControllerTargets",
    controller_targets,
    load: "Loads the `[controller_targets]` section of a TOML profile. On error (named line) the settings stay as they were and false is returned.",
    save: "Saves this node's settings into the `[controller_targets]` section of a TOML profile.",
    problems: "What is wrong with the setup (the editor's configuration warnings)."
);
