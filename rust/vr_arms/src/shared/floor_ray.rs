//! The ground under the feet as the physics world has it: one ray down per foot place, for the
//! `floor_ray` of `LowerBodyRig`, `VRRemoteBody` and `VRBodySolver` (steps and ramps).

use godot::classes::{
    CollisionObject3D, Node3D, PhysicsDirectSpaceState3D, PhysicsRayQueryParameters3D,
};
use godot::prelude::*;
use vr_arms_core::lower_body::ground::Ground;

use crate::convert::{to_vector3, vec3};

/// Rays down through the physics world, in the core's frame (`to_core` from the world), not
/// hitting `exclude`.
pub(crate) struct PhysicsGround {
    pub(crate) space: Gd<PhysicsDirectSpaceState3D>,
    pub(crate) mask: u32,
    pub(crate) to_core: Transform3D,
    pub(crate) exclude: Array<Rid>,
}

/// Frames between two looks for the avatar's own colliders.
const RESCAN_FRAMES: u64 = 60;

/// What the feet's rays pass through: the avatar's own colliders (hit boxes on its bones, a
/// body under `body_root`; looked for every [`RESCAN_FRAMES`] frames, so one added later counts
/// within a second), and those the game adds (`add_floor_ray_exception`).
#[derive(Default)]
pub(crate) struct RayExceptions {
    added: Vec<Rid>,
    own: Vec<Rid>,
    scanned_at: Option<u64>,
    all: Array<Rid>,
}

impl RayExceptions {
    /// The rays pass through `body` too (`add_floor_ray_exception`).
    pub(crate) fn add(&mut self, body: &Gd<CollisionObject3D>) {
        let rid = body.get_rid();
        if !self.added.contains(&rid) {
            self.added.push(rid);
            self.refresh();
        }
    }

    /// The rays stand on `body` again (`remove_floor_ray_exception`).
    pub(crate) fn remove(&mut self, body: &Gd<CollisionObject3D>) {
        let rid = body.get_rid();
        self.added.retain(|r| *r != rid);
        self.refresh();
    }

    /// Forgets every added exception (`clear_floor_ray_exceptions`).
    pub(crate) fn clear(&mut self) {
        self.added.clear();
        self.refresh();
    }

    /// Every collider the rays pass through, as of `frame` (the avatar under `root`).
    pub(crate) fn exclude(&mut self, root: &Gd<Node3D>, frame: u64) -> Array<Rid> {
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
    fn refresh(&mut self) {
        self.all = self.own.iter().chain(&self.added).copied().collect();
    }
}

/// Whether the feet's rays are on, and on which layers, for a node with its own `floor_ray` and
/// `floor_collision_mask` whose body may also carry a profile's (`[lower_body]`): the node's when
/// it is on, else the profile's when that is on.
pub(crate) fn rays_on(
    node: (bool, u32),
    profile: Option<&vr_arms_core::lower_body::LowerBodySettings>,
) -> Option<u32> {
    match (node, profile) {
        ((true, mask), _) => Some(mask),
        (_, Some(s)) if s.floor_ray => Some(s.floor_collision_mask),
        _ => None,
    }
}

impl PhysicsGround {
    /// The rays for this frame when they are on (`rays_on`): `node`'s world, through
    /// `exceptions` and the avatar's own colliders under `root`.
    pub(crate) fn when_on(
        node: &Gd<Node3D>,
        on: (bool, u32),
        profile: Option<&vr_arms_core::lower_body::LowerBodySettings>,
        exceptions: &mut RayExceptions,
        root: &Gd<Node3D>,
    ) -> Option<Self> {
        let mask = rays_on(on, profile)?;
        let frame = godot::classes::Engine::singleton().get_process_frames();
        Self::of(node, mask, exceptions, root, frame)
    }

    /// The rays of `node`'s physics world on `mask`, through `exceptions` (the avatar's own
    /// colliders under `root`, as of process `frame`); `None` outside a 3D world.
    pub(crate) fn of(
        node: &Gd<Node3D>,
        mask: u32,
        exceptions: &mut RayExceptions,
        root: &Gd<Node3D>,
        frame: u64,
    ) -> Option<Self> {
        let space = node.get_world_3d()?.get_direct_space_state()?;
        Some(Self {
            space,
            mask,
            to_core: Transform3D::IDENTITY,
            // Not the avatar's own hit boxes: a foot would stand on its own shin.
            exclude: exceptions.exclude(root, frame),
        })
    }

    /// The same rays for a core whose frame is `to_core` from the world.
    pub(crate) fn in_frame(self, to_core: Transform3D) -> Self {
        Self { to_core, ..self }
    }
}

/// The physics ground when there is one, else the flat floor.
pub(crate) fn or_flat(physics: Option<&PhysicsGround>) -> &dyn Ground {
    match physics {
        Some(p) => p,
        None => &vr_arms_core::lower_body::ground::FlatFloor,
    }
}

impl Ground for PhysicsGround {
    fn height_at(&self, at: glam::Vec3, lowest: f32) -> Option<f32> {
        let to_world = self.to_core.affine_inverse();
        let from = to_world * to_vector3(at);
        let to = to_world * to_vector3(glam::Vec3::new(at.x, lowest, at.z));
        let mut query = PhysicsRayQueryParameters3D::create(from, to)?;
        query.set_collision_mask(self.mask);
        query.set_exclude(&self.exclude);
        let hit = self.space.clone().intersect_ray(&query);
        let p = hit.get("position")?.try_to::<Vector3>().ok()?;
        Some(vec3(self.to_core * p).y)
    }
}

#[cfg(test)]
mod tests {
    use super::rays_on;
    use vr_arms_core::lower_body::LowerBodySettings;

    #[test]
    fn the_nodes_rays_win_and_the_profiles_count_when_the_node_has_none() {
        let profile = LowerBodySettings {
            floor_ray: true,
            floor_collision_mask: 8,
            ..Default::default()
        };
        assert_eq!(rays_on((true, 4), Some(&profile)), Some(4));
        assert_eq!(rays_on((false, 4), Some(&profile)), Some(8));
        assert_eq!(
            rays_on((false, 4), Some(&LowerBodySettings::default())),
            None
        );
        assert_eq!(rays_on((false, 4), None), None);
        assert_eq!(rays_on((true, 2), None), Some(2));
    }
}
