//! `ClavicleFollow`: the shoulders take part in far reaches (a `SkeletonModifier3D`).

use godot::classes::{ISkeletonModifier3D, SkeletonModifier3D};
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::upper_body::clavicle_follow::{
    ClavicleArm, ClavicleFollow as Stage, ClavicleFollowSettings,
};

use crate::convert::vec3;
use crate::nodes::vr_arm_rig::VRArmRig;
use crate::nodes::vr_arm_rig::links::rig_problem;
use crate::problems::ProblemReport;
use crate::settings_bridge;
use crate::shared::common::{
    alive, apply_profile, missing_bones, parent_skeleton, skip_in_editor, store_profile,
};
use crate::shared::modifier_order::{RigOrder, rig_order_problem};
use crate::skeleton_read::SkeletonRead;

/// Turns each clavicle toward its hand target as the reach grows: from `start_at_reach` (hand
/// distance over arm length) it starts following, from `full_at_reach` it follows fully, up to
/// `max_follow_deg` of yaw and pitch in the clavicle parent's space. The shoulder also rises as
/// the arm rises, at any reach, as a real shoulder girdle does: past `rise_start_deg` of arm
/// elevation, `rise_ratio` degrees per degree, at most `rise_max_deg`. A hand overhead then
/// keeps a bent elbow while staying exactly on its controller.
///
/// Place it under the [Skeleton3D] BEFORE the `VRArmRig` (modifiers run in child order), so the
/// arm reaches from the moved shoulder. Targets and arm lengths come from the rig.
#[derive(GodotClass)]
#[class(base = SkeletonModifier3D, tool)]
pub struct ClavicleFollow {
    /// The arm rig whose targets the clavicles follow.
    #[export]
    rig: Option<Gd<VRArmRig>>,
    /// Left clavicle bone.
    #[export]
    left_clavicle_bone: GString,
    /// Right clavicle bone.
    #[export]
    right_clavicle_bone: GString,
    /// Reach ratio where the clavicle starts to follow.
    #[export(range = (0.0, 1.5))]
    start_at_reach: f32,
    /// Reach ratio where it follows fully.
    #[export(range = (0.0, 1.5))]
    full_at_reach: f32,
    /// Largest clavicle yaw and pitch (degrees).
    #[export(range = (0.0, 60.0, suffix = "°"))]
    max_follow_deg: f32,
    /// Largest the follow lowers the shoulder toward a hand below it (degrees, at most
    /// `max_follow_deg`); 0: a relaxed shoulder does not drop toward a hanging hand.
    #[export(range = (0.0, 60.0, suffix = "°"))]
    max_lower_deg: f32,
    /// Arm elevation (degrees from hanging straight down: 90 level, 180 straight up) past which
    /// the shoulder rises with the arm.
    #[export_group(name = "Rise With The Arm")]
    #[export(range = (0.0, 180.0, suffix = "°"))]
    rise_start_deg: f32,
    /// Degrees the clavicle rises per degree of arm elevation past `rise_start_deg` (a real
    /// shoulder girdle: about a third).
    #[export(range = (0.0, 1.0, 0.01))]
    rise_ratio: f32,
    /// Largest rise of the clavicle (degrees); 0 turns the rise off.
    #[export(range = (0.0, 60.0, suffix = "°"))]
    rise_max_deg: f32,

    /// The clavicle per side, for the skeleton and version in `bound_to` (bone names change the
    /// version).
    bones: [Option<i32>; 2],
    bound_to: crate::skeleton_bind::SkeletonBind<()>,
    /// The last two solves, replayed between them (the rig's update budget).
    held: vr_arms_core::crowd::budget::HeldRotations,
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
impl ISkeletonModifier3D for ClavicleFollow {
    fn on_validate_property(&self, property: &mut godot::register::info::PropertyInfo) {
        let bones = ["left_clavicle_bone", "right_clavicle_bone"];
        crate::shared::bone_list::suggest_bones(
            property,
            &bones,
            parent_skeleton(&self.base().clone().upcast()),
        );
    }

    /// Bridged settings go through the core's validation (the same as a profile's).
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        if property == "left_clavicle_bone" || property == "right_clavicle_bone" {
            self.bound_to.forget();
        }
        self.set_validated(&property, &value)
    }

    fn init(base: Base<SkeletonModifier3D>) -> Self {
        let mut node = Self {
            rig: None,
            left_clavicle_bone: "LeftShoulder".into(),
            right_clavicle_bone: "RightShoulder".into(),
            start_at_reach: 0.0,
            full_at_reach: 0.0,
            max_follow_deg: 0.0,
            max_lower_deg: 0.0,
            rise_start_deg: 0.0,
            rise_ratio: 0.0,
            rise_max_deg: 0.0,
            stage: Stage::default(),
            bones: [None; 2],
            bound_to: Default::default(),
            held: Default::default(),
            editor_preview: false,
            report: ProblemReport::new("ClavicleFollow"),
            base,
        };
        node.set_core_settings(&ClavicleFollowSettings::default());
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
        let Some(mut rig) = alive(&self.rig) else {
            return;
        };
        self.bind(&skeleton);
        let budget = rig.bind().budget();
        if !budget.solving() {
            crate::shared::budget::replay(&mut skeleton, &self.held, &budget);
            return;
        }
        self.stage.settings = self.core_settings();
        let to_skeleton = skeleton.get_global_transform().affine_inverse();
        // The world's up in the skeleton's space (another axis under a Z-up import node).
        let up = vec3(to_skeleton.basis * Vector3::UP);
        // Both sides are read before either is written (a read after a write recomputes every
        // bone under the written one).
        let mut solved = [(0, glam::Quat::IDENTITY); 2];
        let mut count = 0;
        for side in Side::BOTH {
            let Some(clavicle) = self.bones[side.index()] else {
                continue;
            };
            let mut r = rig.bind_mut();
            let mut measure = || Some((r.target_global_position(side)?, r.calibration(side)?));
            let (Some((target, cal)), Some(upper)) = (measure(), r.upper_arm_bone(side)) else {
                continue;
            };
            drop(r);
            let arm = ClavicleArm {
                clavicle: clavicle as usize,
                upper_arm: upper as usize,
                arm_length: cal.arm_length(),
            };
            let target = vec3(to_skeleton * crate::convert::to_vector3(target));
            let mut read = SkeletonRead(&skeleton);
            solved[count] = (
                clavicle,
                self.stage
                    .follow_bones(side, &mut read, arm, target, up, 0.0),
            );
            count += 1;
        }
        crate::shared::budget::write_solved(
            &mut skeleton,
            &mut self.held,
            &solved[..count],
            &budget,
        );
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

impl ClavicleFollow {
    /// Looks the clavicles up when the skeleton or its bones changed.
    fn bind(&mut self, skeleton: &Gd<godot::classes::Skeleton3D>) {
        if !self.bound_to.rebind(skeleton, ()) {
            return;
        }
        // Held solves name the old bones.
        self.held.clear();
        let names = [&self.left_clavicle_bone, &self.right_clavicle_bone];
        self.bones = names.map(|name| {
            let clavicle = skeleton.find_bone(name);
            (clavicle >= 0).then_some(clavicle)
        });
    }
}

#[godot_api]
impl ClavicleFollow {
    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    /// Loads the `[clavicle_follow]` section of a TOML profile (its `weight` is this modifier's
    /// `influence`); on error the settings stay.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        let mut s = None;
        let ok = apply_profile("ClavicleFollow", &path, |p| s = Some(p.clavicle_follow));
        if let Some(mut s) = s {
            s.validate();
            self.set_core_settings(&s);
            // The profile's `weight` is this modifier's own `influence`.
            self.base_mut().set_influence(s.weight);
        }
        ok
    }

    /// Saves these settings into the `[clavicle_follow]` section of a TOML profile, `influence`
    /// as its `weight`.
    #[func]
    fn save_profile(&self, path: GString) -> bool {
        let mut s = self.core_settings();
        s.weight = self.base().get_influence();
        store_profile("ClavicleFollow", &path, |p| p.clavicle_follow = s)
    }

    settings_bridge!(ClavicleFollowSettings {
        start_at_reach => start_at_reach,
        full_at_reach => full_at_reach,
        max_follow_deg => max_follow_deg,
        max_lower_deg => max_lower_deg,
        rise_start_deg => rise_start_deg,
        rise_ratio => rise_ratio,
        rise_max_deg => rise_max_deg,
    });

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let Some(skeleton) = parent_skeleton(&self.base().clone().upcast()) else {
            return vec!["ClavicleFollow must be a child of a Skeleton3D.".into()];
        };
        out.extend(rig_order_problem(
            &self.base().clone().upcast(),
            "ClavicleFollow",
            RigOrder::Before,
            "the arms are solved from the raised shoulders",
        ));
        out.extend(rig_problem(&self.rig, "the clavicles follow its targets"));

        out.extend(missing_bones(
            &skeleton,
            "Bone",
            [&self.left_clavicle_bone, &self.right_clavicle_bone],
        ));
        out
    }
}
