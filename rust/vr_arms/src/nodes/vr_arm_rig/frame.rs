//! What a `VRArmRig` measures once per frame for every target stage that asks.

use godot::classes::Skeleton3D;
use godot::prelude::*;
use vr_arms_core::ArmCalibration;
use vr_arms_core::maths::body_frame::BodyFrame;

/// The skeleton's placement and the shoulders, measured on the first request of a frame and
/// shared by every target stage of the avatar (each stage used to read them through the engine
/// again). The rig drops it in its `_process` (priority -1090: after `BodyFollow` moved the body,
/// before the first target stage) and in its modification pass, so every frame measures again.
/// Something that moves the avatar between two target stages is seen from the next frame on.
pub struct RigFrame {
    pub skeleton: Gd<Skeleton3D>,
    pub to_world: Transform3D,
    /// The skeleton's uniform scale (arm lengths in world units).
    pub scale: f32,
    /// Per arm: not measured yet, or the shoulder's world position and world-unit lengths.
    pub arms: [Option<Option<(glam::Vec3, ArmCalibration)>>; 2],
    /// The body frame for the `body_root` node it was asked with.
    pub body: Option<(Option<InstanceId>, BodyFrame)>,
    /// The skeleton's `LowerBodyRig`, if it has one: the shoulders are where it carries them.
    pub lower_body: Option<Gd<crate::nodes::lower_body_rig::LowerBodyRig>>,
}

impl RigFrame {
    pub fn new(skeleton: Gd<Skeleton3D>, to_world: Transform3D) -> Self {
        Self {
            scale: crate::engine::uniform_scale(&to_world),
            to_world,
            arms: [None; 2],
            body: None,
            lower_body: skeleton
                .get_children()
                .iter_shared()
                .find_map(|c| c.try_cast().ok()),
            skeleton,
        }
    }

    /// Whether the skeleton is still alive (no engine call).
    pub fn is_current(&self) -> bool {
        self.skeleton.is_instance_valid()
    }
}
