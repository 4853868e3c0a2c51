//! `ForearmTwist`: the wrist's roll spread along the forearm (a `SkeletonModifier3D`).

use godot::classes::{ISkeletonModifier3D, SkeletonModifier3D};
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::upper_body::forearm_twist::{
    ForearmTwist as Stage, ForearmTwistSettings, share_twist, twist_rotation,
};

use crate::convert::{pose, quat, to_quaternion, vec3};
use crate::nodes::vr_arm_rig::VRArmRig;
use crate::nodes::vr_arm_rig::links::rig_problem;
use crate::problems::ProblemReport;
use crate::settings_bridge;
use crate::shared::common::{alive, missing_bones, parent_skeleton, skip_in_editor};
use crate::shared::modifier_order::{RigOrder, rig_order_problem};

/// Spreads the hand's twist about the forearm over the forearm, so a rolled wrist does not
/// collapse the mesh at the wrist alone (no candy-wrapper).
///
/// With twist bones (set `*_elbow_twist_bone` / `*_wrist_twist_bone`) they take
/// `elbow_twist_weight` and `wrist_twist_weight` of the twist; without, the lower-arm bone takes
/// `lower_arm_weight`. The hand's final orientation is kept (it counter-rotates), so only the
/// distribution is smoothed. Place it under the [Skeleton3D] AFTER the `VRArmRig`.
#[derive(GodotClass)]
#[class(base = SkeletonModifier3D, tool)]
pub struct ForearmTwist {
    /// The arm rig whose lower-arm and hand bones are used.
    #[export]
    rig: Option<Gd<VRArmRig>>,
    /// Optional twist bone near the left elbow (empty: none).
    #[export_group(name = "Twist Bones")]
    #[export]
    left_elbow_twist_bone: GString,
    /// Optional twist bone near the left wrist (empty: none).
    #[export]
    left_wrist_twist_bone: GString,
    /// Optional twist bone near the right elbow (empty: none).
    #[export]
    right_elbow_twist_bone: GString,
    /// Optional twist bone near the right wrist (empty: none).
    #[export]
    right_wrist_twist_bone: GString,
    /// Share of the twist on the elbow twist bone.
    #[export_group(name = "Distribution")]
    #[export(range = (0.0, 1.0))]
    elbow_twist_weight: f32,
    /// Share of the twist on the wrist twist bone.
    #[export(range = (0.0, 1.0))]
    wrist_twist_weight: f32,
    /// Share of the twist on the lower-arm bone when there are no twist bones.
    #[export(range = (0.0, 1.0))]
    lower_arm_weight: f32,
    /// Largest twist followed toward pronation (degrees).
    #[export(range = (0.0, 180.0, suffix = "°"))]
    pronation_limit_deg: f32,
    /// Largest twist followed toward supination (degrees).
    #[export(range = (0.0, 180.0, suffix = "°"))]
    supination_limit_deg: f32,
    /// Time for the distributed twist to cover 90 % of a change (seconds).
    #[export(range = (0.001, 0.5, suffix = "s"))]
    response_time_s: f32,

    stage: Stage,
    /// Solve in the editor too (off by default: in the editor there is no tracking, and the
    /// modifier would pull the bones toward targets at the origin).
    #[export_group(name = "Editor")]
    #[export]
    editor_preview: bool,
    report: ProblemReport,
    base: Base<SkeletonModifier3D>,
}

#[godot_api]
impl ISkeletonModifier3D for ForearmTwist {
    fn on_validate_property(&self, property: &mut godot::register::info::PropertyInfo) {
        let bones = [
            "left_elbow_twist_bone",
            "left_wrist_twist_bone",
            "right_elbow_twist_bone",
            "right_wrist_twist_bone",
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
        let mut node = Self {
            rig: None,
            left_elbow_twist_bone: GString::new(),
            left_wrist_twist_bone: GString::new(),
            right_elbow_twist_bone: GString::new(),
            right_wrist_twist_bone: GString::new(),
            elbow_twist_weight: 0.0,
            wrist_twist_weight: 0.0,
            lower_arm_weight: 0.0,
            pronation_limit_deg: 0.0,
            supination_limit_deg: 0.0,
            response_time_s: 0.0,
            stage: Stage::default(),
            editor_preview: false,
            report: ProblemReport::new("ForearmTwist"),
            base,
        };
        node.set_core_settings(&ForearmTwistSettings::default());
        node
    }

    fn process_modification_with_delta(&mut self, delta: f64) {
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
        let Some(mut rig) = alive(&self.rig) else {
            return;
        };
        self.stage.settings = self.core_settings();
        for side in Side::BOTH {
            let Some([_, lower, hand]) = rig.bind_mut().arm_bones(side) else {
                continue;
            };
            if !rig.bind().posed(side) {
                continue;
            }
            // Read every frame: Godot's skeleton version does not change with a rest or parent.
            let (hand_rest, hand_parent) =
                (skeleton.get_bone_rest(hand), skeleton.get_bone_parent(hand));
            let axis = vec3(hand_rest.origin);
            let hand_local = quat(skeleton.get_bone_pose_rotation(hand));
            let out = self
                .stage
                .twist_hand(side, hand_local, pose(&hand_rest), delta as f32);
            let (elbow_name, wrist_name) = match side {
                Side::Left => (&self.left_elbow_twist_bone, &self.left_wrist_twist_bone),
                Side::Right => (&self.right_elbow_twist_bone, &self.right_wrist_twist_bone),
            };
            let twist_bones: Vec<(i32, f32)> = [
                (elbow_name, out.elbow_twist_bone),
                (wrist_name, out.wrist_twist_bone),
            ]
            .into_iter()
            .filter(|(n, _)| !n.is_empty())
            .map(|(n, w)| (skeleton.find_bone(n), w))
            .filter(|(i, _)| *i >= 0)
            .collect();
            // With the hand a child of the lower arm and no twist bones, the hand turns back by
            // the lower arm's share and stays exactly where the solve put it, no re-read; else
            // its solved pose is read now, before the writes below move its parents.
            let keep_by_algebra = twist_bones.is_empty() && hand_parent == lower;
            let hand_global = (!keep_by_algebra).then(|| skeleton.get_bone_global_pose(hand));
            if twist_bones.is_empty() {
                let lower_local = quat(skeleton.get_bone_pose_rotation(lower));
                let (lower_local, kept) = share_twist(lower_local, hand_local, axis, out.lower_arm);
                skeleton.set_bone_pose_rotation(lower, to_quaternion(lower_local));
                if keep_by_algebra {
                    skeleton.set_bone_pose_rotation(hand, to_quaternion(kept));
                }
            } else {
                for (bone, angle) in twist_bones {
                    let rest = skeleton.get_bone_rest(bone);
                    let own_axis = skeleton
                        .get_bone_children(bone)
                        .as_slice()
                        .first()
                        .map(|c| vec3(skeleton.get_bone_rest(*c).origin))
                        .unwrap_or(glam::Vec3::Y);
                    let twist = twist_rotation(own_axis, angle);
                    skeleton.set_bone_pose_rotation(
                        bone,
                        to_quaternion((pose(&rest).rotation * twist).normalize()),
                    );
                }
            }
            // Keep the hand exactly where the solve put it (done above when kept by algebra).
            let Some(hand_global) = hand_global else {
                continue;
            };
            let parent_global = pose(&skeleton.get_bone_global_pose(hand_parent));
            let local = parent_global.rotation.inverse() * pose(&hand_global).rotation;
            skeleton.set_bone_pose_rotation(hand, to_quaternion(local.normalize()));
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl ForearmTwist {
    settings_bridge!(ForearmTwistSettings {
        elbow_twist_weight => elbow_twist_weight,
        wrist_twist_weight => wrist_twist_weight,
        lower_arm_weight => lower_arm_weight,
        pronation_limit_deg => pronation_limit_deg,
        supination_limit_deg => supination_limit_deg,
        response_time_s => response_time_s,
    });

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let Some(skeleton) = parent_skeleton(&self.base().clone().upcast()) else {
            return vec!["ForearmTwist must be a child of a Skeleton3D.".into()];
        };
        out.extend(rig_order_problem(
            &self.base().clone().upcast(),
            "ForearmTwist",
            RigOrder::After,
            "it shares out the twist of the solved hands",
        ));
        out.extend(rig_problem(&self.rig, "its forearms are twisted"));
        out.extend(missing_bones(
            &skeleton,
            "Twist bone",
            [
                &self.left_elbow_twist_bone,
                &self.left_wrist_twist_bone,
                &self.right_elbow_twist_bone,
                &self.right_wrist_twist_bone,
            ],
        ));
        out
    }
}

crate::stage_node_api!(
    ForearmTwist,
    "ForearmTwist",
    forearm_twist,
    load: "Loads the `[forearm_twist]` section of a TOML profile; on error the settings stay.",
    save: "Saves these settings into the `[forearm_twist]` section of a TOML profile.",
    problems: "What is wrong with the setup (the editor's configuration warnings)."
);
