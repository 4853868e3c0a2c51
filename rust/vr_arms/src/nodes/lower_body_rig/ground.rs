//! The ground under the feet as the physics world has it: one ray down per foot place, for
//! `LowerBodyRig.floor_ray` (steps and ramps).

use godot::classes::{
    CollisionObject3D, Node3D, PhysicsDirectSpaceState3D, PhysicsRayQueryParameters3D,
};
use godot::prelude::*;
use vr_arms_core::lower_body::ground::Ground;

use crate::convert::{to_vector3, vec3};

/// Rays down through the physics world, in the core's frame (`to_core` from the world), not
/// hitting `exclude`.
pub(super) struct PhysicsGround {
    pub(super) space: Gd<PhysicsDirectSpaceState3D>,
    pub(super) mask: u32,
    pub(super) to_core: Transform3D,
    pub(super) exclude: Array<Rid>,
}

/// Frames between two looks for the avatar's own colliders.
const RESCAN_FRAMES: u64 = 60;

/// What the feet's rays pass through: the avatar's own colliders (hit boxes on its bones, a
/// body under `body_root`; looked for every [`RESCAN_FRAMES`] frames, so one added later counts
/// within a second), and those the game adds (`add_floor_ray_exception`).
#[derive(Default)]
pub(super) struct RayExceptions {
    pub(super) added: Vec<Rid>,
    own: Vec<Rid>,
    scanned_at: Option<u64>,
    all: Array<Rid>,
}

impl RayExceptions {
    /// Every collider the rays pass through, as of `frame` (the avatar under `root`).
    pub(super) fn exclude(&mut self, root: &Gd<Node3D>, frame: u64) -> Array<Rid> {
        let due = self
            .scanned_at
            .is_none_or(|at| frame.wrapping_sub(at) >= RESCAN_FRAMES);
        if due {
            self.scanned_at = Some(frame);
            self.own = root
                .find_children_ex("*")
                .type_("CollisionObject3D")
                .owned(false)
                .done()
                .iter_shared()
                .filter_map(|n| n.try_cast::<CollisionObject3D>().ok())
                .map(|c| c.get_rid())
                .collect();
            self.refresh();
        }
        self.all.clone()
    }

    /// After a change of `added`: the next rays see it.
    pub(super) fn refresh(&mut self) {
        self.all = self.own.iter().chain(&self.added).copied().collect();
    }
}

impl Ground for PhysicsGround {
    fn height_at(&mut self, at: glam::Vec3, lowest: f32) -> Option<f32> {
        let to_world = self.to_core.affine_inverse();
        let from = to_world * to_vector3(at);
        let to = to_world * to_vector3(glam::Vec3::new(at.x, lowest, at.z));
        let mut query = PhysicsRayQueryParameters3D::create(from, to)?;
        query.set_collision_mask(self.mask);
        query.set_exclude(&self.exclude);
        let hit = self.space.intersect_ray(&query);
        let p = hit.get("position")?.try_to::<Vector3>().ok()?;
        Some(vec3(self.to_core * p).y)
    }
}
