//! `VRRemoteBody`'s floor-ray exceptions (`floor_ray`: the feet on steps and ramps).

use godot::classes::CollisionObject3D;
use godot::prelude::*;

use super::VRRemoteBody;

#[godot_api(secondary)]
impl VRRemoteBody {
    /// The feet's rays (`floor_ray`) pass through `body` (a held object, another player's
    /// body), as `RayCast3D.add_exception`. The avatar's own colliders under `body_root` (hit
    /// boxes on its bones) are passed through without it.
    #[func]
    fn add_floor_ray_exception(&mut self, body: Gd<CollisionObject3D>) {
        self.ray_exceptions.add(&body);
    }

    /// The feet's rays stand on `body` again.
    #[func]
    fn remove_floor_ray_exception(&mut self, body: Gd<CollisionObject3D>) {
        self.ray_exceptions.remove(&body);
    }

    /// Forgets every exception added with `add_floor_ray_exception`.
    #[func]
    fn clear_floor_ray_exceptions(&mut self) {
        self.ray_exceptions.clear();
    }
}
