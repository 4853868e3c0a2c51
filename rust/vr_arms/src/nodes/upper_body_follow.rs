//! `UpperBodyFollow`: head yaw and pitch spread over chest, neck and head (a `SkeletonModifier3D`).

use godot::classes::{ISkeletonModifier3D, Node3D, SkeletonModifier3D};
use godot::prelude::*;
use vr_arms_core::upper_body::upper_body_follow::{
    UpperBodyFollow as Stage, UpperBodyFollowSettings,
};

use crate::convert::{pose, to_quaternion};
use crate::problems::ProblemReport;
use crate::settings_bridge;
use crate::shared::common::missing_bones;
use crate::shared::common::{alive, parent_skeleton, read_pose, read_tracked, skip_in_editor};
use crate::shared::modifier_order::{RigOrder, rig_order_problem};
use crate::skeleton_read::SkeletonRead;

/// Counts every change of any `UpperBodyFollow`'s bones or place in the tree (renamed bones, a
/// follow added or removed), so that a `LowerBodyRig` beside one binds again, at the cost of one
/// comparison a frame.
static BONES_GENERATION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn bones_changed() {
    BONES_GENERATION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// The count of [`BONES_GENERATION`] now.
pub fn bones_generation() -> u64 {
    BONES_GENERATION.load(std::sync::atomic::Ordering::Relaxed)
}

/// Turns the chest, neck and head bones toward where the headset looks, each by its share of the
/// head's yaw and pitch relative to the body: an S-curve instead of a lone head bone turning.
///
/// Place it under the [Skeleton3D] before the `ClavicleFollow` and `VRArmRig`, so the arms reach
/// from the turned chest. The body's rotation comes from `body_root` (the avatar that
/// `BodyFollow` turns), else the skeleton.
#[derive(GodotClass)]
#[class(base = SkeletonModifier3D, tool)]
pub struct UpperBodyFollow {
    /// The headset (an [XRCamera3D]).
    #[export]
    head: Option<Gd<Node3D>>,
    /// The avatar root, facing +Z. Empty: the skeleton.
    #[export]
    body_root: Option<Gd<Node3D>>,
    /// The chest bone.
    #[export_group(name = "Bones")]
    #[export]
    chest_bone: GString,
    /// The neck bone.
    #[export]
    neck_bone: GString,
    /// The head bone.
    #[export]
    head_bone: GString,
    /// Share of the head's yaw for chest, neck and head.
    #[export_group(name = "Shares")]
    #[export]
    yaw_weights: Vector3,
    /// Share of the head's pitch for chest, neck and head.
    #[export]
    pitch_weights: Vector3,
    /// Largest head yaw followed (degrees).
    #[export(range = (0.0, 180.0, suffix = "°"))]
    max_yaw_deg: f32,
    /// Largest head pitch followed (degrees).
    #[export(range = (0.0, 90.0, suffix = "°"))]
    max_pitch_deg: f32,
    /// In a low stance (a lunge, a deep stance, a crouch) the chest stays with the body and the
    /// head turns on the neck: the head this far below its standing height (metres of the
    /// avatar) starts a low stance. Needs a `LowerBodyRig` beside it, which knows the standing
    /// height; without one the body is taken as upright.
    #[export_group(name = "Low stance")]
    #[export(range = (0.0, 2.0, 0.01, suffix = "m"))]
    low_stance_start_m: f32,
    /// The head this far below its standing height is fully in a low stance (metres).
    #[export(range = (0.0, 2.0, 0.01, suffix = "m"))]
    low_stance_full_m: f32,
    /// The chest's share of the head's yaw in a full low stance (the rest of its share goes to
    /// the neck, so the head still faces where the headset looks).
    #[export(range = (0.0, 1.0, 0.01))]
    low_stance_chest_yaw_weight: f32,

    last_head: Option<vr_arms_core::Pose>,
    head_guard: vr_arms_core::body::input_guard::InputGuard,
    /// Solve in the editor too (off by default: in the editor there is no tracking, and the
    /// modifier would pull the bones toward targets at the origin).
    #[export_group(name = "Editor")]
    #[export]
    editor_preview: bool,
    report: ProblemReport,
    base: Base<SkeletonModifier3D>,
}

#[godot_api]
impl ISkeletonModifier3D for UpperBodyFollow {
    fn on_validate_property(&self, property: &mut godot::register::info::PropertyInfo) {
        let bones = ["chest_bone", "neck_bone", "head_bone"];
        crate::shared::bone_list::suggest_bones(
            property,
            &bones,
            parent_skeleton(&self.base().clone().upcast()),
        );
    }

    /// Bridged settings go through the core's validation (the same as a profile's).
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        if ["chest_bone", "neck_bone", "head_bone"].contains(&property.to_string().as_str()) {
            bones_changed();
        }
        self.set_validated(&property, &value)
    }

    fn enter_tree(&mut self) {
        bones_changed();
    }

    fn exit_tree(&mut self) {
        bones_changed();
    }

    fn init(base: Base<SkeletonModifier3D>) -> Self {
        let mut node = Self {
            head: None,
            body_root: None,
            chest_bone: "Chest".into(),
            neck_bone: "Neck".into(),
            head_bone: "Head".into(),
            yaw_weights: Vector3::ZERO,
            pitch_weights: Vector3::ZERO,
            max_yaw_deg: 0.0,
            max_pitch_deg: 0.0,
            low_stance_start_m: 0.0,
            low_stance_full_m: 0.0,
            low_stance_chest_yaw_weight: 0.0,
            last_head: None,
            head_guard: Default::default(),
            editor_preview: false,
            report: ProblemReport::new("UpperBodyFollow"),
            base,
        };
        node.set_core_settings(&UpperBodyFollowSettings::default());
        node
    }

    fn process_modification_with_delta(&mut self, _delta: f64) {
        if skip_in_editor(self.editor_preview) {
            return;
        }
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
        let Some(mut skeleton) = self.base().get_skeleton() else {
            return;
        };
        // The headset lost tracking (or gave an unusable pose): keep the last tracked head, so
        // the chest and neck freeze.
        if let Some(head) = alive(&self.head)
            .filter(|n| n.is_inside_tree())
            .and_then(|n| read_tracked(&n, &mut self.head_guard))
        {
            self.last_head = Some(head);
        }
        let Some(head) = self.last_head else {
            return;
        };
        let skeleton_pose = pose(&skeleton.get_global_transform());
        let body = read_pose(&self.body_root).unwrap_or(skeleton_pose);
        let to_skeleton = skeleton_pose.rotation.inverse();
        let spine = [&self.chest_bone, &self.neck_bone, &self.head_bone]
            .map(|n| usize::try_from(skeleton.find_bone(n)).ok());
        let stage = Stage::new(self.core_settings());
        let locals = stage.follow_bones(
            &mut SkeletonRead(&skeleton),
            spine,
            to_skeleton * body.rotation,
            to_skeleton * head.rotation,
            // Alone it does not know the standing height (a `LowerBodyRig` beside it runs the
            // follow again with it): upright.
            0.0,
        );
        for (bone, local) in locals.into_iter().flatten() {
            skeleton.set_bone_pose_rotation(bone as i32, to_quaternion(local));
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl UpperBodyFollow {
    settings_bridge!(UpperBodyFollowSettings {
        yaw_weights => yaw_weights,
        pitch_weights => pitch_weights,
        max_yaw_deg => max_yaw_deg,
        max_pitch_deg => max_pitch_deg,
        low_stance_start_m => low_stance_start_m,
        low_stance_full_m => low_stance_full_m,
        low_stance_chest_yaw_weight => low_stance_chest_yaw_weight,
    });

    /// The chest, neck and head bone names it turns.
    pub fn spine_bones(&self) -> [String; 3] {
        [&self.chest_bone, &self.neck_bone, &self.head_bone].map(|n| n.to_string())
    }

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let Some(skeleton) = parent_skeleton(&self.base().clone().upcast()) else {
            return vec!["UpperBodyFollow must be a child of a Skeleton3D.".into()];
        };
        out.extend(rig_order_problem(
            &self.base().clone().upcast(),
            "UpperBodyFollow",
            RigOrder::Before,
            "the arms are solved from the turned chest",
        ));
        if self.head.is_none() {
            out.push("Set \"head\" to the XRCamera3D.".into());
        }
        out.extend(missing_bones(
            &skeleton,
            "Bone",
            [&self.chest_bone, &self.neck_bone, &self.head_bone],
        ));
        out
    }
}

crate::stage_node_api!(
    UpperBodyFollow,
    "UpperBodyFollow",
    upper_body_follow,
    load: "Loads the `[upper_body_follow]` section of a TOML profile; on error the settings stay.",
    save: "Saves these settings into the `[upper_body_follow]` section of a TOML profile.",
    problems: "What is wrong with the setup (the editor's configuration warnings)."
);
