//! The ground under the feet as the physics world has it: one ray down per foot place, for
//! `LowerBodyRig.floor_ray` (steps and ramps).

use godot::classes::{PhysicsDirectSpaceState3D, PhysicsRayQueryParameters3D};
use godot::prelude::*;
use vr_arms_core::lower_body::ground::Ground;

use crate::convert::{to_vector3, vec3};

/// Rays down through the physics world, in the core's frame (`to_core` from the world).
pub(super) struct PhysicsGround {
    pub(super) space: Gd<PhysicsDirectSpaceState3D>,
    pub(super) mask: u32,
    pub(super) to_core: Transform3D,
}

impl Ground for PhysicsGround {
    fn height_at(&mut self, at: glam::Vec3, lowest: f32) -> Option<f32> {
        let to_world = self.to_core.affine_inverse();
        let from = to_world * to_vector3(at);
        let to = to_world * to_vector3(glam::Vec3::new(at.x, lowest, at.z));
        let mut query = PhysicsRayQueryParameters3D::create(from, to)?;
        query.set_collision_mask(self.mask);
        let hit = self.space.intersect_ray(&query);
        let p = hit.get("position")?.try_to::<Vector3>().ok()?;
        Some(vec3(self.to_core * p).y)
    }
}
