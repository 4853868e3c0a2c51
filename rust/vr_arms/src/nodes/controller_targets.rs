//! `ControllerTargets` node: stage 1 of the arm target pipeline.

use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::controller_targets::{ControllerTargets as Stage, ControllerTargetsSettings};

use crate::convert::vec3;
use crate::nodes::common::{
    DebugMarkers, apply_profile, colors, read_pose, store_profile, write_pose,
};
use crate::problems::ProblemReport;
use crate::settings_bridge;

/// Stage 1 of the arm target pipeline: writes each controller's pose, mapped onto the hand bone by
/// a per-hand calibration offset and moved by arm recoil, into a raw target node.
///
/// Runs in `_process` at priority -1000 (first). Call [method add_recoil] on every shot; the kick
/// snaps out at `recoil_out_speed` and eases back at `recoil_return_speed`.
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
    #[export(range = (0.0, 200.0, or_greater))]
    recoil_out_speed: f32,
    /// How fast a recoil kick decays back to zero (1/s).
    #[export(range = (0.0, 100.0, or_greater))]
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

    /// Show the controller (blue) and raw target (yellow) markers.
    #[export_group(name = "Debug")]
    #[export]
    debug_draw: bool,

    stage: Stage,
    markers: DebugMarkers,
    report: ProblemReport,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for ControllerTargets {
    fn init(base: Base<Node3D>) -> Self {
        base.to_init_gd().set_process_priority(-1000);
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
            debug_draw: false,
            stage: Stage::default(),
            markers: DebugMarkers::default(),
            report: ProblemReport::new("ControllerTargets"),
            base,
        };
        node.set_core_settings(&ControllerTargetsSettings::default());
        node
    }

    fn process(&mut self, delta: f64) {
        if godot::classes::Engine::singleton().is_editor_hint() {
            return;
        }
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
        self.stage.settings = self.core_settings();
        let dt = delta as f32;
        let mut shown = [None; 4];
        for side in Side::BOTH {
            let (controller, output) = self.slots(side);
            let (controller, output) = (controller.clone(), output.clone());
            let Some(c) = read_pose(&controller) else {
                continue;
            };
            let raw = self.stage.update(side, &c, dt);
            write_pose(&output, &raw);
            shown[side.index() * 2] = Some(c.position);
            shown[side.index() * 2 + 1] = Some(raw.position);
        }
        self.draw(&shown);
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl ControllerTargets {
    /// Left hand, for [method add_recoil].
    #[constant]
    const HAND_LEFT: i32 = 0;
    /// Right hand, for [method add_recoil].
    #[constant]
    const HAND_RIGHT: i32 = 1;

    /// Kicks one hand (`HAND_LEFT` or `HAND_RIGHT`): `position_kick` in metres and
    /// `rotation_kick_deg` in degrees, both in the controller's space, with random jitter.
    #[func]
    pub fn add_recoil(&mut self, hand: i32, position_kick: Vector3, rotation_kick_deg: Vector3) {
        let side = if hand == Self::HAND_RIGHT {
            Side::Right
        } else {
            Side::Left
        };
        self.stage.settings = self.core_settings();
        self.stage
            .add_recoil(side, vec3(position_kick), vec3(rotation_kick_deg));
    }

    /// Loads the `[controller_targets]` section of a TOML profile. On error (named line) the
    /// settings stay as they were and false is returned.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        apply_profile("ControllerTargets", &path, |p| {
            self.set_core_settings(&p.controller_targets)
        })
    }

    /// Saves this node's settings into the `[controller_targets]` section of a TOML profile.
    #[func]
    fn save_profile(&self, path: GString) -> bool {
        let s = self.core_settings();
        store_profile("ControllerTargets", &path, |p| p.controller_targets = s)
    }

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
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
        let owner = self.to_gd().upcast::<Node3D>();
        self.markers.sync(self.debug_draw, owner, &STYLES, shown);
    }
}
