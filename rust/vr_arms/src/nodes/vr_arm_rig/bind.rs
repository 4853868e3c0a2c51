//! `VRArmRig`'s binding to its skeleton and bones (indices and rest measurements per skeleton
//! version), and what is wrong with the setup.

use super::*;

impl VRArmRig {
    /// Bone names and node references changed: rebind on the next frame and refresh the editor.
    pub(super) fn changed(&mut self, bones: bool) {
        if bones {
            self.bound_to.forget();
            self.frame = None;
        }
        self.report.reset();
        self.base_mut().update_configuration_warnings();
    }

    pub(super) fn names(&self, side: usize) -> [&GString; 3] {
        if side == LEFT {
            [
                &self.left_upper_arm_bone,
                &self.left_lower_arm_bone,
                &self.left_hand_bone,
            ]
        } else {
            [
                &self.right_upper_arm_bone,
                &self.right_lower_arm_bone,
                &self.right_hand_bone,
            ]
        }
    }

    pub(super) fn valid_target(&self, side: usize) -> Option<Gd<Node3D>> {
        let t = if side == LEFT {
            &self.left_target
        } else {
            &self.right_target
        };
        alive(t)
    }

    pub(super) fn valid_hint(&self, side: usize) -> Option<Gd<Node3D>> {
        let h = if side == LEFT {
            &self.left_hint
        } else {
            &self.right_hint
        };
        alive(h)
    }

    /// Resolves bone indices and measures the rest pose, when the skeleton or its bones changed.
    pub(super) fn bind(&mut self, skeleton: &Gd<Skeleton3D>) {
        if !self.bound_to.rebind(skeleton, ()) {
            return;
        }
        // Held solves name the old bones.
        self.held.iter_mut().for_each(HeldRotations::clear);
        let find = |name: &GString| {
            let i = skeleton.find_bone(name);
            (i >= 0).then_some(i)
        };
        let indices: [Option<[i32; 3]>; 2] = [LEFT, RIGHT].map(|side| {
            let [u, l, h] = self.names(side);
            Some([find(u)?, find(l)?, find(h)?])
        });
        let rest = |i: i32| pose(&skeleton.get_bone_global_rest(i));
        // Up and forward in the skeleton's own space, which an imported node above it may
        // have turned (Mixamo's Z-up `Armature`).
        let up = crate::shared::rest_measure::skeleton_up(skeleton);
        let forward = match (indices[LEFT], indices[RIGHT]) {
            (Some(l), Some(r)) => {
                body_forward_from_rest(rest(l[0]).position, rest(r[0]).position, up)
            }
            _ => glam::Vec3::Z,
        };
        self.body_in_skeleton = vr_arms_core::rig::rest_facing::RestFacing { up, forward }
            .quarter_turn()
            .inverse();
        self.chains = [LEFT, RIGHT].map(|side| {
            let Some([upper, _, hand]) = indices[side] else {
                return Vec::new();
            };
            let mut chain = Vec::new();
            let mut b = hand;
            while b >= 0 && b != upper && chain.len() < 16 {
                chain.push((b, skeleton.get_bone_rest(b).origin));
                b = skeleton.get_bone_parent(b);
            }
            if b == upper { chain } else { Vec::new() }
        });
        self.arms = [LEFT, RIGHT].map(|side| {
            let [upper, lower, hand] = indices[side]?;
            let parent = skeleton.get_bone_parent(upper);
            let bones = ArmBones {
                parent: if parent >= 0 {
                    rest(parent)
                } else {
                    Pose::IDENTITY
                },
                upper: rest(upper),
                lower: rest(lower),
                hand: rest(hand),
            };
            let side_of = [vr_arms_core::Side::Left, vr_arms_core::Side::Right][side];
            let mut calibration = ArmCalibration::from_rest(&bones, forward);
            calibration.default_pole = vr_arms_core::arms::arm_solve::default_pole(up, forward);
            calibration.upper_length *= self.arm_length_scale;
            calibration.lower_length *= self.arm_length_scale;
            let hand_rest = crate::shared::rest_measure::hand_rest(skeleton, hand, side_of);
            Some(BoundArm {
                parent,
                upper,
                lower,
                hand,
                calibration: calibration.with_hand(&hand_rest),
            })
        });
    }

    /// With `arm_length_scale` other than 1: every bone from the elbow down to the wrist moved
    /// out along its rest offset by the scale (a pose the modifier pass writes every frame, as
    /// it writes the rotations).
    pub(super) fn stretch_arms(&mut self, skeleton: &mut Gd<Skeleton3D>) {
        if (self.arm_length_scale - 1.0).abs() < 1e-4 {
            return;
        }
        for chain in &self.chains {
            for (bone, rest) in chain {
                skeleton.set_bone_pose_position(*bone, *rest * self.arm_length_scale);
            }
        }
    }

    /// Everything wrong with the setup, in words a user can act on.
    pub(super) fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let Some(skeleton) = parent_skeleton(&self.base().clone().upcast()) else {
            out.push("VRArmRig must be a child of a Skeleton3D.".to_string());
            return out;
        };
        out.extend(crate::shared::budget::interval_problem(
            self.update_interval_frames,
            Some(&skeleton),
            "the rig",
        ));
        for (side, label) in [(LEFT, "left"), (RIGHT, "right")] {
            for name in self.names(side) {
                if skeleton.find_bone(name) < 0 {
                    out.push(format!(
                        "Bone \"{name}\" ({label} arm) is not in the skeleton \"{}\".",
                        skeleton.get_name()
                    ));
                }
            }
            if self.valid_target(side).is_none() {
                out.push(format!(
                    "No {label} target node: the {label} arm is not solved. Set \"{label}_target\"."
                ));
            }
            let bones: Vec<i32> = self
                .names(side)
                .iter()
                .map(|n| skeleton.find_bone(*n))
                .collect();
            if bones.iter().all(|&b| b >= 0) {
                let at = |b: i32| skeleton.get_bone_global_rest(b).origin;
                for (a, b) in [(bones[0], bones[1]), (bones[1], bones[2])] {
                    if at(a).distance_to(at(b)) < 1e-3 {
                        out.push(format!(
                            "Bone \"{}\" ({label} arm) has zero length in the rest pose: the {label} arm cannot bend and is left as animated.",
                            skeleton.get_bone_name(a)
                        ));
                    }
                }
            }
        }
        // Outside the tree there is no global transform yet (the check waits until it is added).
        let scale = if skeleton.is_inside_tree() {
            skeleton.get_global_transform().basis.get_scale()
        } else {
            Vector3::ONE
        };
        let (lo, hi) = (
            scale.x.min(scale.y).min(scale.z),
            scale.x.max(scale.y).max(scale.z),
        );
        if lo <= 0.0 || hi / lo > 1.01 {
            out.push(format!(
                "The Skeleton3D (or a parent) has a non-uniform scale {scale}: bone lengths differ along each axis, so arm reach and elbow placement are approximate. Scale the character uniformly."
            ));
        }
        out
    }
}
