//! `VRArmPipeline`: the core's composed pipeline, callable from GDScript without nodes.

use godot::classes::{IRefCounted, RefCounted, Skeleton3D};
use godot::prelude::*;
use vr_arms_core::pipeline::{ArmPipeline, PipelineInput};
use vr_arms_core::profile::ArmProfile;
use vr_arms_core::{ArmBones, PerSide, Pose, Side};

use crate::convert::{pose, to_quaternion};
use crate::nodes::common::apply_profile;
use crate::nodes::hand::Hand;

use crate::nodes::common::HUMANOID_ARMS as BONES;

/// The whole arm pipeline (controller targets, body avoidance, reach clamp, router, elbow
/// hints, soft IK and the two-bone solve) as one object, on a humanoid skeleton's arm bones.
///
/// It runs the very same core code as the node graph, in one call per frame: use it for avatars
/// that need no per-stage nodes (remote players, crowds), or to check a node setup. The body
/// root is the skeleton itself (facing +Z).
#[derive(GodotClass)]
#[class(base = RefCounted)]
pub struct VRArmPipeline {
    pipeline: Option<ArmPipeline>,
    last_hints: [Vector3; 2],
    profile: ArmProfile,
    bones: [[i32; 4]; 2],
    base: Base<RefCounted>,
}

#[godot_api]
impl IRefCounted for VRArmPipeline {
    fn init(base: Base<RefCounted>) -> Self {
        Self {
            pipeline: None,
            last_hints: [Vector3::ZERO; 2],
            profile: ArmProfile::default(),
            bones: [[-1; 4]; 2],
            base,
        }
    }
}

#[godot_api]
impl VRArmPipeline {
    /// Binds to a humanoid skeleton (Godot humanoid bone names) and measures its rest pose.
    /// Returns false, with an error, when an arm bone is missing.
    #[func]
    fn configure(&mut self, skeleton: Gd<Skeleton3D>) -> bool {
        let mut rest = [ArmBones {
            parent: Pose::IDENTITY,
            upper: Pose::IDENTITY,
            lower: Pose::IDENTITY,
            hand: Pose::IDENTITY,
        }; 2];
        for (side, names) in BONES.iter().enumerate() {
            for (i, name) in names.iter().enumerate() {
                let idx = skeleton.find_bone(*name);
                if idx < 0 {
                    godot_error!("VRArmPipeline: bone \"{name}\" is not in the skeleton");
                    return false;
                }
                self.bones[side][i] = idx;
            }
            let r = |i: usize| pose(&skeleton.get_bone_global_rest(self.bones[side][i]));
            rest[side] = ArmBones {
                parent: r(0),
                upper: r(1),
                lower: r(2),
                hand: r(3),
            };
        }
        self.pipeline = Some(ArmPipeline::new(
            &self.profile,
            &PerSide::new(rest[0], rest[1]),
        ));
        true
    }

    /// Loads a TOML profile for the next `configure`. Returns false (settings kept) on error.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        apply_profile("VRArmPipeline", &path, |p| self.profile = *p)
    }

    /// The elbow hints (world positions) of the last `step`: [left, right].
    #[func]
    fn get_last_hints(&self) -> Array<Vector3> {
        self.last_hints.iter().copied().collect()
    }

    /// Kicks one hand (0 = left, 1 = right), as `ControllerTargets.add_recoil`.
    #[func]
    fn add_recoil(&mut self, hand: Hand, position_kick: Vector3, rotation_kick_deg: Vector3) {
        let side = hand.side();
        if let Some(p) = self.pipeline.as_mut() {
            p.controller_targets.add_recoil(
                side,
                crate::convert::vec3(position_kick),
                crate::convert::vec3(rotation_kick_deg),
            );
        }
    }

    /// Runs one frame from the controllers' global transforms, reading the skeleton's current
    /// (pre-modifier) arm bones. Returns the six bone-local rotations [left upper, left lower,
    /// left hand, right upper, right lower, right hand] to write with `set_bone_pose_rotation`.
    #[func]
    fn step(
        &mut self,
        skeleton: Gd<Skeleton3D>,
        left_controller: Transform3D,
        right_controller: Transform3D,
        dt: f32,
    ) -> Array<Quaternion> {
        let mut out = Array::new();
        let Some(pipeline) = self.pipeline.as_mut() else {
            godot_error!("VRArmPipeline.step: call configure first");
            return out;
        };
        let read = |side: usize| {
            let b = |i: usize| pose(&skeleton.get_bone_global_pose(self.bones[side][i]));
            ArmBones {
                parent: b(0),
                upper: b(1),
                lower: b(2),
                hand: b(3),
            }
        };
        // The core works in the skeleton's own units: a scaled skeleton's controllers are taken
        // into its frame without the scale (the poses in `convert` carry none), so lengths stay
        // in proportion; bone-local rotations need no conversion back.
        let global = skeleton.get_global_transform();
        let unscaled = Transform3D::new(global.basis.orthonormalized(), global.origin);
        let to_core = unscaled * global.affine_inverse();
        let skeleton_pose = pose(&unscaled);
        let input = PipelineInput {
            body: vr_arms_core::body_frame::BodyFrame::new(skeleton_pose),
            skeleton: skeleton_pose,
            up: glam::Vec3::Y,
            controllers: PerSide::new(
                Some(pose(&(to_core * left_controller))),
                Some(pose(&(to_core * right_controller))),
            ),
            overrides: PerSide::default(),
            bones: PerSide::new(read(0), read(1)),
        };
        let result = pipeline.update(&input, dt);
        for side in Side::BOTH {
            if let Some(arm) = result.get(side) {
                self.last_hints[side.index()] =
                    to_core.affine_inverse() * crate::convert::to_vector3(arm.hint);
                for q in [
                    arm.solve.upper_local,
                    arm.solve.lower_local,
                    arm.solve.hand_local,
                ] {
                    out.push(to_quaternion(q));
                }
            }
        }
        out
    }
}
