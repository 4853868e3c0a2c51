//! `BodyFollow` node: the avatar root follows the player.

use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use vr_arms_core::body::body_follow::BodyFollowSettings;
use vr_arms_core::body::{FollowStep, Placement, Tracking};

use crate::convert::{to_quaternion, to_vector3};
use crate::problems::ProblemReport;
use crate::settings_bridge;
use crate::shared::common::{alive, read_pose, read_raw};

/// Moves the avatar root under the player: horizontally under the headset (slightly behind the
/// head, on the XR origin's floor) and turned by a yaw that never follows the headset's pitch.
///
/// The yaw blends the headset's with the hands' (weighted by how far forward and raised the
/// hands are: 0 at rest, up to `hands_weight_max` when aiming) through a critically damped
/// spring with a maximum turn speed; hands behind the head never flip it. Runs in `_process` at
/// priority -1100, before the arm pipeline. The avatar's scale is kept.
#[derive(GodotClass)]
#[class(base = Node3D, tool)]
pub struct BodyFollow {
    /// The headset (an [XRCamera3D]).
    #[export]
    head: Option<Gd<Node3D>>,
    /// The left controller.
    #[export]
    left_controller: Option<Gd<Node3D>>,
    /// The right controller.
    #[export]
    right_controller: Option<Gd<Node3D>>,
    /// The avatar root to move (it faces +Z).
    #[export]
    body_root: Option<Gd<Node3D>>,
    /// The XR origin: the floor is at its height. Empty: the head's parent.
    #[export]
    origin: Option<Gd<Node3D>>,

    /// Time for the yaw to cover 90 % of a change (seconds).
    #[export_group(name = "Turning")]
    #[export(range = (0.01, 1.0, suffix = "s"))]
    response_time_s: f32,
    /// Fastest body turn (degrees per second).
    #[export(range = (10.0, 2000.0, suffix = "°/s"))]
    max_turn_speed_deg_per_s: f32,
    /// Largest weight of the hands' yaw (0 = headset only).
    #[export_group(name = "Hands")]
    #[export(range = (0.0, 1.0))]
    hands_weight_max: f32,
    /// Weight of the wrist-to-wrist line's normal at any hand position (hands at the sides span
    /// the body, so the line's normal is the torso's forward), scaled by the wrists' span.
    #[export(range = (0.0, 1.0))]
    hands_weight_rest: f32,
    /// Hands this far below the head (metres, their midpoint) start to count as hanging at the
    /// sides, where the hands' lines give no yaw (walking, relaxed arms swing in opposition and
    /// the lines turn with the swing, not the body) ...
    #[export(range = (0.0, 3.0, suffix = "m"))]
    hands_hanging_start_m: f32,
    /// ... and hang fully from here.
    #[export(range = (0.0, 3.0, suffix = "m"))]
    hands_hanging_full_m: f32,
    /// Wrists this far apart (metres, horizontally) give the wrist line full confidence; 0.1 m
    /// gives none.
    #[export(range = (0.11, 3.0, suffix = "m"))]
    wrist_span_full_m: f32,
    /// Hands this far in front of the head start to count (metres).
    #[export(range = (-0.5, 1.0, suffix = "m"))]
    hands_forward_start_m: f32,
    /// ... and count fully from here.
    #[export(range = (-0.5, 1.0, suffix = "m"))]
    hands_forward_full_m: f32,
    /// Hands this far below the head (negative) start to count (metres).
    #[export(range = (-1.5, 0.5, suffix = "m"))]
    hands_raise_start_m: f32,
    /// ... and count fully from here.
    #[export(range = (-1.5, 0.5, suffix = "m"))]
    hands_raise_full_m: f32,
    /// Weight of the wrist-to-wrist line's normal against the hands' midpoint direction.
    #[export(range = (0.0, 2.0))]
    wrist_line_weight: f32,
    /// Weight of the normal of the line between the elbows the controllers suggest (one forearm
    /// behind each controller along `forearm_axis`): they stay at the torso's sides while the
    /// hands sweep across it. 0: not used.
    #[export(range = (0.0, 4.0))]
    elbow_line_weight: f32,
    /// The forearm's direction (elbow to wrist) in the controller's space.
    #[export]
    forearm_axis: Vector3,
    /// The forearm length for those elbows (metres of the unscaled avatar).
    #[export(range = (0.0, 1.0, suffix = "m"))]
    forearm_length_m: f32,
    /// The hands' yaw may differ from the head's by at most this much (degrees).
    #[export(range = (0.0, 170.0, suffix = "°"))]
    max_hands_offset_deg: f32,
    /// Weight of the walk's heading: a player walking forward with the hands low faces where
    /// they walk, whichever way the head looks (none standing, sideways or back, or with the
    /// hands raised). 0: the head and hands alone.
    #[export(range = (0.0, 1.0))]
    walk_heading_weight: f32,
    /// The root stands this far behind the head (metres).
    #[export_group(name = "Position")]
    #[export(range = (-0.3, 0.3, suffix = "m"))]
    head_back_offset_m: f32,

    step: FollowStep,
    head_tracked: bool,
    head_input_reported: bool,
    report: ProblemReport,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for BodyFollow {
    /// Bridged settings go through the core's validation (the same as a profile's).
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        self.set_validated(&property, &value)
    }

    fn init(base: Base<Node3D>) -> Self {
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::BODY_FOLLOW);
        let mut node = Self {
            head: None,
            left_controller: None,
            right_controller: None,
            body_root: None,
            origin: None,
            response_time_s: 0.0,
            max_turn_speed_deg_per_s: 0.0,
            hands_weight_max: 0.0,
            hands_weight_rest: 0.0,
            hands_hanging_start_m: 0.0,
            hands_hanging_full_m: 0.0,
            wrist_span_full_m: 0.0,
            hands_forward_start_m: 0.0,
            hands_forward_full_m: 0.0,
            hands_raise_start_m: 0.0,
            hands_raise_full_m: 0.0,
            wrist_line_weight: 0.0,
            elbow_line_weight: 0.0,
            forearm_axis: Vector3::ZERO,
            forearm_length_m: 0.0,
            max_hands_offset_deg: 0.0,
            walk_heading_weight: 0.0,
            head_back_offset_m: 0.0,
            step: FollowStep::new(BodyFollowSettings::default()),
            head_tracked: true,
            head_input_reported: false,
            report: ProblemReport::new("BodyFollow"),
            base,
        };
        node.set_core_settings(&BodyFollowSettings::default());
        node
    }

    fn process(&mut self, delta: f64) {
        if crate::shared::common::skip_in_editor(false) {
            return;
        }
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
        let inside = |n: &Option<Gd<Node3D>>| alive(n).filter(|n| n.is_inside_tree());
        if inside(&self.head).is_none() {
            return;
        }
        let Some(mut root) = inside(&self.body_root) else {
            return;
        };
        let tracking = Tracking {
            head: read_raw(&self.head),
            controllers: vr_arms_core::PerSide::new(
                read_raw(&self.left_controller),
                read_raw(&self.right_controller),
            ),
            ..Default::default()
        };
        let floor = floor_height(&self.origin, &self.head);
        let settings = self.core_settings();
        place_root(&mut self.step, settings, &tracking, floor, &mut root, delta);
        // A non-finite or absurd pose counts as lost tracking (counted, reported once).
        let counts = self.step.head_input_counts();
        if counts.total() > 0 && !self.head_input_reported {
            self.head_input_reported = true;
            godot_warn!(
                "BodyFollow: the headset gave unusable poses ({counts:?}); the body freezes on such frames. Reported once."
            );
        }
        // The headset lost tracking: the body freezes where it is until it comes back.
        let tracked = self.step.head_tracked();
        if tracked != self.head_tracked {
            self.head_tracked = tracked;
            self.signals().head_tracking_changed().emit(tracked);
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl BodyFollow {
    /// The headset lost (`tracked` false) or regained tracking. While it is lost the body stays
    /// where it was.
    #[signal]
    fn head_tracking_changed(tracked: bool);

    settings_bridge!(BodyFollowSettings {
        response_time_s => response_time_s,
        max_turn_speed_deg_per_s => max_turn_speed_deg_per_s,
        hands_weight_max => hands_weight_max,
        hands_weight_rest => hands_weight_rest,
        hands_hanging_start_m => hands_hanging_start_m,
        hands_hanging_full_m => hands_hanging_full_m,
        wrist_span_full_m => wrist_span_full_m,
        hands_forward_start_m => hands_forward_start_m,
        hands_forward_full_m => hands_forward_full_m,
        hands_raise_start_m => hands_raise_start_m,
        hands_raise_full_m => hands_raise_full_m,
        wrist_line_weight => wrist_line_weight,
        elbow_line_weight => elbow_line_weight,
        forearm_axis => forearm_axis,
        forearm_length_m => forearm_length_m,
        max_hands_offset_deg => max_hands_offset_deg,
        walk_heading_weight => walk_heading_weight,
        head_back_offset_m => head_back_offset_m,
    });

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.head.is_none() {
            out.push("Set \"head\" to the XRCamera3D.".into());
        }
        if self.body_root.is_none() {
            out.push("Set \"body_root\" to the avatar root to move (it faces +Z).".into());
        }
        out
    }
}

crate::stage_node_api!(
    BodyFollow,
    "BodyFollow",
    body_follow,
    load: "Loads the `[body_follow]` section of a TOML profile; on error the settings stay.",
    save: "Saves these settings into the `[body_follow]` section of a TOML profile.",
    problems: "What is wrong with the setup (the editor's configuration warnings)."
);

/// The floor's height: the XR origin's, else the head's parent's (the origin it moves in), else 0.
pub fn floor_height(origin: &Option<Gd<Node3D>>, head: &Option<Gd<Node3D>>) -> f32 {
    origin_pose(origin, head).map_or(0.0, |p| p.position.y)
}

/// The XR origin's pose (world): `origin`, else the head's parent (the origin it moves in).
pub fn origin_pose(
    origin: &Option<Gd<Node3D>>,
    head: &Option<Gd<Node3D>>,
) -> Option<vr_arms_core::Pose> {
    read_pose(origin).or_else(|| {
        let parent = alive(head)?.get_parent()?.try_cast::<Node3D>().ok()?;
        Some(crate::convert::pose(&parent.get_global_transform()))
    })
}

/// One step of the body follow (the core's [`FollowStep`]): `root` placed from the headset and
/// the controllers (world poses as read, `None` when not tracked) and the floor height, its
/// scale kept. Lengths are in the avatar's own metres, so a scaled avatar follows in
/// proportion. Shared by `BodyFollow` and `VRRemoteBody`.
pub fn place_root(
    step: &mut FollowStep,
    settings: BodyFollowSettings,
    tracking: &Tracking,
    floor_y: f32,
    root: &mut Gd<Node3D>,
    delta: f64,
) {
    let global = root.get_global_transform();
    step.stage.settings = settings;
    let placement = Placement {
        root: crate::convert::pose(&global),
        scale: crate::shared::common::uniform_scale(&global),
        floor_y,
        ..Default::default()
    };
    let Some(out) = step.place_root(tracking, &placement, delta as f32) else {
        return;
    };
    let basis =
        Basis::from_quaternion(to_quaternion(out.rotation)).scaled(global.basis.get_scale());
    root.set_global_transform(Transform3D::new(basis, to_vector3(out.position)));
}
