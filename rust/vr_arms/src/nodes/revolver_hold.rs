//! `RevolverHold`: the held revolver on the visible hand bone, after the arm solve (a
//! `SkeletonModifier3D`).

use godot::classes::{ISkeletonModifier3D, Skeleton3D, SkeletonModifier3D};
use godot::prelude::*;

use crate::convert::{quat, to_quaternion};
use crate::nodes::revolver::Revolver;
use crate::problems::ProblemReport;
use crate::shared::common::{alive, parent_skeleton, skip_in_editor};
use crate::shared::hand::Hand;
use crate::shared::modifier_order::{RigOrder, rig_order_problem};

/// Holds a [Revolver] in the hand the player sees: during the skeleton update, after
/// `VRArmRig` has solved the arm, it turns the hand bone by the revolver's hand recoil layer and
/// then places the gun on the hand bone's attach point. Recoil, body avoidance, or the reach
/// clamp and overhead guard of full mode may move the hand off the controller; the gun moves with the hand, never
/// apart from it (the original design parents the gun to the hand).
///
/// Place it under the [Skeleton3D] after the `VRArmRig` (and before `HandPoseCopy`, which only
/// touches the fingers). The one-click setup does not add it; the demo does.
#[derive(GodotClass)]
#[class(base = SkeletonModifier3D, tool)]
pub struct RevolverHold {
    /// The revolver to hold while it is in the hand.
    #[export]
    revolver: Option<Gd<Revolver>>,
    /// The hand bone; empty picks `LeftHand` or `RightHand` from the revolver's hand.
    #[export]
    hand_bone: GString,
    /// The attach point in the hand's palm frame (the controller's grip frame as the avatar's
    /// hand holds it: -Z along the fingers, +Y the thumb's side; measured from the rig's fingers,
    /// whatever its hand bone's axes). The default, identity, makes a gun authored for the
    /// controller sit the same in the hand.
    #[export]
    attach_offset: Transform3D,
    /// Hold in the editor too (off by default).
    #[export_group(name = "Editor")]
    #[export]
    editor_preview: bool,

    /// The hand bone and the palm frame in it, bound to the skeleton with the bone's name.
    bone: (
        crate::skeleton_bind::SkeletonBind<GString>,
        i32,
        Transform3D,
    ),
    report: ProblemReport,
    base: Base<SkeletonModifier3D>,
}

#[godot_api]
impl ISkeletonModifier3D for RevolverHold {
    fn on_validate_property(&self, property: &mut godot::register::info::PropertyInfo) {
        let bones = ["hand_bone"];
        crate::shared::bone_list::suggest_bones(
            property,
            &bones,
            parent_skeleton(&self.base().clone().upcast()),
        );
    }

    fn init(base: Base<SkeletonModifier3D>) -> Self {
        Self {
            revolver: None,
            hand_bone: GString::new(),
            attach_offset: Transform3D::IDENTITY,
            editor_preview: false,
            bone: (Default::default(), -1, Transform3D::IDENTITY),
            report: ProblemReport::new("RevolverHold"),
            base,
        }
    }

    fn process_modification_with_delta(&mut self, _delta: f64) {
        if skip_in_editor(self.editor_preview) {
            return;
        }
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
        let (Some(mut skeleton), Some(mut revolver)) =
            (self.base().get_skeleton(), alive(&self.revolver))
        else {
            return;
        };
        let (in_hand, side, recoil) = {
            let r = revolver.bind();
            (r.is_in_hand(), r.hand(), r.hand_recoil_rotation())
        };
        if !in_hand {
            return;
        }
        let (bone, palm_in_hand) = self.bone_index(&skeleton, side);
        if bone < 0 {
            return;
        }
        if recoil != glam::Vec3::ZERO {
            // The kick turns the palm frame; in the bone's own axes that is the kick conjugated.
            let kick = vr_arms_core::revolver::placement::euler_yxz(recoil);
            let palm = quat(palm_in_hand.basis.get_quaternion());
            let local = quat(skeleton.get_bone_pose_rotation(bone)) * palm * kick * palm.inverse();
            skeleton.set_bone_pose_rotation(bone, to_quaternion(local.normalize()));
        }
        let hand = skeleton.get_global_transform() * skeleton.get_bone_global_pose(bone);
        let attach = palm_in_hand * self.attach_offset;
        revolver
            .bind_mut()
            .place_on_hand(hand * attach, attach.affine_inverse());
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl RevolverHold {
    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn bone_name(&self, hand: Hand) -> GString {
        if !self.hand_bone.is_empty() {
            self.hand_bone.clone()
        } else {
            vr_arms_core::hands::hand_pose::hand_bone(hand.side()).into()
        }
    }

    /// The hand bone and the palm frame in the bone's space (measured once per skeleton
    /// version).
    fn bone_index(&mut self, skeleton: &Gd<Skeleton3D>, hand: Hand) -> (i32, Transform3D) {
        let name = self.bone_name(hand);
        if self.bone.0.rebind(skeleton, name.clone()) {
            let b = skeleton.find_bone(&name);
            let palm = if b >= 0 {
                let frame = crate::shared::rest_measure::measure_hand(skeleton, b, hand.side());
                Transform3D::new(
                    Basis::from_quaternion(to_quaternion(frame.hand_from_palm.inverse())),
                    Vector3::ZERO,
                )
            } else {
                Transform3D::IDENTITY
            };
            (self.bone.1, self.bone.2) = (b, palm);
        }
        (self.bone.1, self.bone.2)
    }

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let Some(skeleton) = parent_skeleton(&self.base().clone().upcast()) else {
            return vec!["RevolverHold must be a child of a Skeleton3D.".into()];
        };
        out.extend(rig_order_problem(
            &self.base().clone().upcast(),
            "RevolverHold",
            RigOrder::After,
            "it keeps the gun on the solved hand",
        ));
        match &self.revolver {
            None => out.push("Set \"revolver\" to the Revolver this hand holds.".into()),
            Some(r) if !r.is_instance_valid() => {
                out.push("The Revolver in \"revolver\" has been freed.".into())
            }
            Some(r) => {
                let name = self.bone_name(r.bind().hand());
                if skeleton.find_bone(&name) < 0 {
                    out.push(format!("Bone \"{name}\" is not in the skeleton."));
                }
            }
        }
        out
    }
}
