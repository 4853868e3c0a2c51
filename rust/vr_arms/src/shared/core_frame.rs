//! The core's frame for a skeleton: the world without the skeleton's scale, in which the core
//! works with lengths in the skeleton's units; poses, points and the floor converted into it.

use godot::prelude::*;
use vr_arms_core::Pose;

use crate::convert::{pose, vec3};

/// The core's frame for a skeleton placed at `skeleton_global` ([`unscaled`]): world poses,
/// points and the floor taken into it, the same way for every node that runs the core's body.
pub(crate) struct CoreFrame {
    /// World to core.
    pub(crate) to_core: Transform3D,
    /// The rotation part of `to_core` (poses turn by it).
    turn: glam::Quat,
    /// The skeleton placed in the core's frame (rigid).
    pub(crate) skeleton: Pose,
}

impl CoreFrame {
    pub(crate) fn new(skeleton_global: &Transform3D) -> Self {
        let unscaled = unscaled(skeleton_global);
        let to_core = unscaled * skeleton_global.affine_inverse();
        let turn = crate::convert::quat(
            crate::shared::common::rotation_of(&to_core.basis).get_quaternion(),
        );
        Self {
            to_core,
            turn,
            skeleton: pose(&unscaled),
        }
    }

    /// A world point in the core's frame.
    pub(crate) fn point(&self, p: glam::Vec3) -> glam::Vec3 {
        vec3(self.to_core * crate::convert::to_vector3(p))
    }

    /// A world pose in the core's frame, as it is (not repaired: a non-finite pose must reach
    /// the core's input checks as it is).
    pub(crate) fn pose(&self, p: Pose) -> Pose {
        Pose {
            position: self.point(p.position),
            rotation: self.turn * p.rotation,
        }
    }

    /// A node's global transform in the core's frame.
    pub(crate) fn transform(&self, t: &Transform3D) -> Pose {
        pose(&(self.to_core * *t))
    }

    /// The height in the core's frame of a floor at world height `floor`, under a root at
    /// `root_global`.
    pub(crate) fn floor_y(&self, root_global: &Transform3D, floor: f32) -> f32 {
        (self.to_core * Vector3::new(root_global.origin.x, floor, root_global.origin.z)).y
    }
}

/// The skeleton's placement in the core's frame: the world scaled by the skeleton's scale
/// about the world's origin (lengths in the skeleton's units), so the skeleton is placed there
/// without its scale; `skeleton_global * unscaled.affine_inverse()` takes the core's frame back
/// to the world. The frame is still in the world as the body moves: a planted foot stays
/// planted on a scaled avatar (scaled about the skeleton, the frame moved with it, and a
/// planted foot slid by `1 - scale` of the body's motion).
pub(crate) fn unscaled(skeleton_global: &Transform3D) -> Transform3D {
    let scale = crate::shared::common::uniform_scale(skeleton_global).max(1e-6);
    Transform3D::new(
        crate::shared::common::rotation_of(&skeleton_global.basis),
        skeleton_global.origin / scale,
    )
}
