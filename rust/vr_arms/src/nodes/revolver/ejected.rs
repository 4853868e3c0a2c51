//! What the ejector rod pushes out of the gate becomes a physical object that falls: a spent case
//! (group `vr_arms_cases`) or a live round (group `vr_arms_rounds` half a second later, so it can
//! be loaded again once clear of the gate).
//! And cartridges: a node of the group `vr_arms_rounds` brought to the open gate loads the
//! chamber there.

use godot::classes::{
    CollisionShape3D, CylinderMesh, CylinderShape3D, MeshInstance3D, Node3D, RigidBody3D,
    StandardMaterial3D,
};
use godot::prelude::*;
use vr_arms_core::revolver::Chamber;

use super::Revolver;

/// A .45 Colt case: radius and length (metres); a loaded round is longer.
const CASE_RADIUS_M: f32 = 0.0061;
const CASE_LENGTH_M: f32 = 0.033;
const ROUND_LENGTH_M: f32 = 0.040;
/// An ejected live round can be loaded again after this long (seconds).
const LOADABLE_AFTER_S: f64 = 0.5;
/// How fast the rod pushes it out, backward along the gun (m/s).
const EJECT_SPEED_MPS: f32 = 0.6;

impl Revolver {
    /// Where the loading gate is: the `Gate` child, else the `Cylinder` child, else the gun.
    pub(super) fn gate_global(&self) -> Transform3D {
        if self.base().has_node("Gate") {
            self.child_global("Gate")
        } else {
            self.child_global("Cylinder")
        }
    }

    /// The rod pushed a case (or a live round) out of the gate: it falls from there.
    pub(super) fn spawn_ejected(&mut self, spent: bool) {
        let scene = if spent {
            self.case_scene.clone()
        } else {
            self.round_scene.clone()
        };
        let Some(mut object) = scene
            .and_then(|s| s.instantiate())
            .and_then(|n| n.try_cast::<Node3D>().ok())
            .or_else(|| Some(brass(spent).upcast()))
        else {
            return;
        };
        if spent {
            object.add_to_group("vr_arms_cases");
        }
        let mut tree = self.base().get_tree();
        let parent = tree
            .get_current_scene()
            .or_else(|| self.base().get_parent());
        let Some(mut parent) = parent else {
            object.free();
            return;
        };
        parent.add_child(&object);
        let gate = self.gate_global();
        object.set_global_transform(gate);
        if let Ok(mut body) = object.clone().try_cast::<RigidBody3D>() {
            // Out of the back of the gate (the muzzle is -Z).
            body.set_linear_velocity(gate.basis * Vector3::new(0.0, 0.0, EJECT_SPEED_MPS));
        }
        if spent && self.case_lifetime_s > 0.0 {
            let mut timer = tree.create_timer(self.case_lifetime_s as f64);
            timer.connect("timeout", &object.callable("queue_free"));
        }
        if !spent {
            // A round to load again, once it has fallen clear of the gate (it would go straight
            // back into the chamber it left).
            let mut timer = tree.create_timer(LOADABLE_AFTER_S);
            timer.connect(
                "timeout",
                &object
                    .callable("add_to_group")
                    .bind(&["vr_arms_rounds".to_variant()]),
            );
        }
    }

    /// Loads a round (a node in the group `vr_arms_rounds`) brought within
    /// `round_load_radius_m` of the open gate into the gate's chamber when it is empty, and
    /// frees the round. One a frame: the next needs the cylinder turned.
    pub(super) fn load_rounds_at_gate(&mut self) {
        let c = &self.stage.cylinder;
        if !self.is_in_hand() || !c.gate_open || c.chambers[c.gate_chamber()] != Chamber::Empty {
            return;
        }
        let gate = self.gate_global().origin;
        let tree = self.base().get_tree();
        let round = tree
            .get_nodes_in_group("vr_arms_rounds")
            .iter_shared()
            .filter_map(|n| n.try_cast::<Node3D>().ok())
            .find(|r| {
                !r.is_queued_for_deletion()
                    && r.get_global_position().distance_to(gate) <= self.round_load_radius_m
            });
        if let Some(mut round) = round
            && self.insert_cartridge() >= 0
        {
            round.queue_free();
        }
    }
}

/// A brass case (or a round: a longer one with a lead nose's grey) as a small rigid body.
fn brass(spent: bool) -> Gd<RigidBody3D> {
    let length = if spent { CASE_LENGTH_M } else { ROUND_LENGTH_M };
    let mut body = RigidBody3D::new_alloc();
    body.set_name(if spent { "Case" } else { "Round" });
    body.set_mass(0.015);
    let mut shape = CylinderShape3D::new_gd();
    shape.set_radius(CASE_RADIUS_M);
    shape.set_height(length);
    let mut collision = CollisionShape3D::new_alloc();
    collision.set_shape(&shape);
    // Lying along the gun's Z, as it leaves the chamber.
    collision.rotate_x(std::f32::consts::FRAC_PI_2);
    body.add_child(&collision);
    let mut mesh = CylinderMesh::new_gd();
    mesh.set_top_radius(CASE_RADIUS_M);
    mesh.set_bottom_radius(CASE_RADIUS_M);
    mesh.set_height(length);
    let mut material = StandardMaterial3D::new_gd();
    material.set_albedo(Color::from_rgb(0.78, 0.6, 0.26));
    material.set_metallic(0.8);
    material.set_roughness(0.35);
    mesh.set_material(&material);
    let mut look = MeshInstance3D::new_alloc();
    look.set_mesh(&mesh);
    look.rotate_x(std::f32::consts::FRAC_PI_2);
    body.add_child(&look);
    body
}
