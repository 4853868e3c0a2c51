//! `VRArmTargets`: what scripts use to read the pipeline's target nodes.

use godot::classes::{Node3D, RefCounted};
use godot::prelude::*;

use crate::convert::{to_transform, to_vector3};

/// Reads the arm pipeline's target nodes as the stages see them.
///
/// The stages hand their targets to each other in memory: a target node that only vr_arms
/// stages read is not moved every frame (that costs engine calls per avatar). Its current pose
/// is what these functions return. A node the stages do not publish is read as it is.
/// To have every target node moved every frame instead (slower), set the project setting
/// `vr_arms/pipeline/always_update_target_nodes` to true.
#[derive(GodotClass)]
#[class(base = RefCounted, init)]
pub struct VRArmTargets {
    base: Base<RefCounted>,
}

#[godot_api]
impl VRArmTargets {
    /// The target's current global transform (the one the next stage reads). Identity for a null
    /// node or one outside the tree.
    #[func]
    pub fn global_transform_of(node: Option<Gd<Node3D>>) -> Transform3D {
        crate::relay::read(&node).map_or(Transform3D::IDENTITY, |p| to_transform(&p))
    }

    /// Moves every target node every frame from now on (true; slower), or only the nodes that
    /// something other than a vr_arms stage reads (false). Starts as the project setting
    /// `vr_arms/pipeline/always_update_target_nodes` (default false).
    #[func]
    pub fn set_always_update_nodes(on: bool) {
        crate::relay::set_always_update(on);
    }

    /// Whether every target node is moved every frame (see `set_always_update_nodes`).
    #[func]
    pub fn is_always_updating_nodes() -> bool {
        crate::relay::always_update()
    }

    /// The target's current global position (see `global_transform_of`).
    #[func]
    pub fn global_position_of(node: Option<Gd<Node3D>>) -> Vector3 {
        crate::relay::read_position(&node).map_or(Vector3::ZERO, to_vector3)
    }
}
