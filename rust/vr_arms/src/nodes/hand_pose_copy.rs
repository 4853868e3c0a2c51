//! `HandPoseCopy`: finger rotations from a source skeleton onto the live one (a
//! `SkeletonModifier3D`).

use godot::classes::{ISkeletonModifier3D, Skeleton3D, SkeletonModifier3D};
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::hands::hand_pose::{
    blend_copy, blend_wrist, copy_reads_live, finger_bones, hand_bone,
};

use crate::convert::{quat, to_quaternion};
use crate::problems::ProblemReport;
use crate::shared::common::missing_bones;
use crate::shared::common::{alive, apply_profile, parent_skeleton, skip_in_editor, store_profile};
use crate::shared::modifier_order::{RigOrder, rig_order_problem};

/// Copies the finger bones' local rotations from a source skeleton onto this skeleton: a hidden
/// rig playing hand-pose animations, or a hand-tracking skeleton.
/// `live = slerp(live, source, global_blend x weight)`.
///
/// The wrist (hand bone) is different: the arm solve already gives it the controller's rotation,
/// so only an authored wrist animation is added, as the source wrist's change from its own rest
/// pose, at `wrist_weight` (default 0.35): a source wrist at rest leaves the hand exactly where
/// the controller put it. Per-bone weights override the defaults. Place it under the [Skeleton3D] last,
/// after the `VRArmRig` and `ForearmTwist`.
#[derive(GodotClass)]
#[class(base = SkeletonModifier3D, tool)]
pub struct HandPoseCopy {
    /// The skeleton to copy from (same humanoid bone names).
    #[export]
    source_skeleton: Option<Gd<Skeleton3D>>,
    /// Overall blend of the copied pose.
    #[export(range = (0.0, 1.0))]
    global_blend: f32,
    /// Weight of the source wrist's animation (its change from its rest pose) added to the
    /// solved hand.
    #[export(range = (0.0, 1.0))]
    wrist_weight: f32,
    /// Per-bone weights (bone name -> 0..1) overriding the defaults (1 for fingers).
    #[export]
    bone_weights: VarDictionary,
    /// The finger bones copied, by name, the same in both skeletons. The default is the 30
    /// finger bones of Godot's humanoid profile (`LeftThumbMetacarpal` ... `RightLittleDistal`);
    /// a skeleton named otherwise lists its own (or is renamed with a `BoneMap` by the setup).
    #[export_group(name = "Bones")]
    #[export]
    copied_bones: PackedStringArray,
    /// The left wrist bone: only its authored animation is added, at [member wrist_weight].
    /// Empty: no left wrist.
    #[export]
    left_wrist_bone: GString,
    /// The right wrist bone, as [member left_wrist_bone].
    #[export]
    right_wrist_bone: GString,

    /// (source bone, live bone, default weight, name, source rest rotation for a wrist) per
    /// copied bone, for the skeletons and versions in `bound_to`; bone names are looked up only
    /// when a skeleton changes.
    pairs: Vec<(i32, i32, f32, GString, Option<glam::Quat>)>,
    bound_to: crate::skeleton_bind::SkeletonBind<(InstanceId, u64, u32)>,
    /// Solve in the editor too (off by default: in the editor there is no tracking, and the
    /// modifier would pull the bones toward targets at the origin).
    #[export_group(name = "Editor")]
    #[export]
    editor_preview: bool,
    report: ProblemReport,
    base: Base<SkeletonModifier3D>,
}

#[godot_api]
impl ISkeletonModifier3D for HandPoseCopy {
    fn on_validate_property(&self, property: &mut godot::register::info::PropertyInfo) {
        let bones = ["left_wrist_bone", "right_wrist_bone", "copied_bones"];
        crate::shared::bone_list::suggest_bones(
            property,
            &bones,
            parent_skeleton(&self.base().clone().upcast()),
        );
    }

    fn init(base: Base<SkeletonModifier3D>) -> Self {
        Self {
            source_skeleton: None,
            global_blend: 1.0,
            wrist_weight: 0.35,
            bone_weights: VarDictionary::new(),
            copied_bones: Side::BOTH
                .iter()
                .flat_map(|&side| finger_bones(side))
                .map(|name| GString::from(name.as_str()))
                .collect(),
            left_wrist_bone: hand_bone(Side::Left).into(),
            right_wrist_bone: hand_bone(Side::Right).into(),
            pairs: Vec::new(),
            bound_to: Default::default(),
            editor_preview: false,
            report: ProblemReport::new("HandPoseCopy"),
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
        let Some(mut live) = self.base().get_skeleton() else {
            return;
        };
        let Some(source) = alive(&self.source_skeleton) else {
            return;
        };
        // Keyed on the source skeleton, the live one and the wrists' weight.
        let live_key = (
            live.instance_id(),
            live.get_version(),
            self.wrist_weight.to_bits(),
        );
        if self.bound_to.rebind(&source, live_key) {
            self.pairs.clear();
            let fingers = self
                .copied_bones
                .as_slice()
                .iter()
                .map(|n| (n.clone(), 1.0, false));
            let wrists = [&self.left_wrist_bone, &self.right_wrist_bone]
                .into_iter()
                .filter(|n| !n.is_empty())
                .map(|n| (n.clone(), self.wrist_weight, true));
            for (name, default_weight, wrist) in fingers.chain(wrists) {
                let (src, dst) = (source.find_bone(&name), live.find_bone(&name));
                if src >= 0 && dst >= 0 {
                    let wrist_rest =
                        wrist.then(|| quat(source.get_bone_rest(src).basis.get_quaternion()));
                    self.pairs
                        .push((src, dst, default_weight, name, wrist_rest));
                }
            }
        }
        let per_bone = !self.bone_weights.is_empty();
        let source_id = source.instance_id();
        for (src, dst, default_weight, name, wrist_rest) in &self.pairs {
            let weight = if per_bone {
                self.bone_weights
                    .get(name)
                    .and_then(|v| v.try_to::<f32>().ok())
                    .unwrap_or(*default_weight)
            } else {
                *default_weight
            };
            // A finger copied at full weight does not depend on the live pose: no read. A rig
            // bone a HandPoseDriver curls comes from the relay, as it wrote it.
            let now = if wrist_rest.is_some() || copy_reads_live(self.global_blend, weight) {
                quat(live.get_bone_pose_rotation(*dst))
            } else {
                glam::Quat::IDENTITY
            };
            let from = crate::relay::read_bone(source_id, *src)
                .unwrap_or_else(|| quat(source.get_bone_pose_rotation(*src)));
            let out = match wrist_rest {
                Some(rest) => blend_wrist(now, from, *rest, self.global_blend, weight),
                None => blend_copy(now, from, self.global_blend, weight),
            };
            live.set_bone_pose_rotation(*dst, to_quaternion(out));
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl HandPoseCopy {
    /// Loads `global_blend` and `wrist_weight` from the `[hand_pose]` section of a TOML profile;
    /// on error (one line naming it) the settings stay.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        apply_profile("HandPoseCopy", &path, |p| {
            let mut s = p.hand_pose;
            s.validate();
            self.global_blend = s.global_blend;
            self.wrist_weight = s.wrist_weight;
        })
    }

    /// Saves `global_blend` and `wrist_weight` into the `[hand_pose]` section of a TOML profile
    /// (the rest of the file is kept).
    #[func]
    fn save_profile(&self, path: GString) -> bool {
        let (blend, wrist) = (self.global_blend, self.wrist_weight);
        store_profile("HandPoseCopy", &path, |p| {
            p.hand_pose.global_blend = blend;
            p.hand_pose.wrist_weight = wrist;
        })
    }

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if parent_skeleton(&self.base().clone().upcast()).is_none() {
            out.push("HandPoseCopy must be a child of a Skeleton3D.".into());
        }
        out.extend(rig_order_problem(
            &self.base().clone().upcast(),
            "HandPoseCopy",
            RigOrder::After,
            "the solved wrists are what the hand pose blends into",
        ));
        match self
            .source_skeleton
            .as_ref()
            .filter(|s| s.is_instance_valid())
        {
            None => {
                out.push("Set \"source_skeleton\" to the skeleton whose hand pose to copy.".into())
            }
            // An empty list copies nothing on purpose (a rig without fingers).
            Some(s)
                if !self.copied_bones.is_empty()
                    && !self
                        .copied_bones
                        .as_slice()
                        .iter()
                        .any(|n| s.find_bone(n) >= 0) =>
            {
                out.push(
                    "The source skeleton has none of the \"copied_bones\" (by default the \
                     humanoid finger bones, LeftIndexProximal, ...): list its finger bones."
                        .into(),
                )
            }
            _ => {}
        }
        if let Some(live) = parent_skeleton(&self.base().clone().upcast()) {
            let names = self.copied_bones.as_slice().to_vec();
            let wrists = [&self.left_wrist_bone, &self.right_wrist_bone];
            let named = names
                .iter()
                .chain(wrists.into_iter().filter(|n| !n.is_empty()));
            let missing = missing_bones(&live, "Bone", named);
            if missing.len() > 3 {
                out.push(format!(
                    "{} of the copied bones are not in the skeleton ({} ...): list its own \
                     finger bones in \"copied_bones\".",
                    missing.len(),
                    missing[0]
                ));
            } else {
                out.extend(missing);
            }
        }
        out
    }
}
