//! Where the revolver is: in the holster, sliding out on the draw, on the hand (from
//! `RevolverHold` after the arm solve, or `hand_attach`), and its moving parts.

use godot::prelude::*;

use super::*;
use crate::convert::to_vector3;
use vr_arms_core::revolver::placement;

impl Revolver {
    /// The hand layer's recoil rotation (radians per axis, the hand bone's space), for
    /// [RevolverHold].
    pub fn hand_recoil_rotation(&self) -> glam::Vec3 {
        self.hand_recoil.rotation
    }

    /// Which hand holds it.
    pub fn hand(&self) -> Hand {
        self.hand
    }

    /// Whether the gun is in the hand (held or cocking).
    pub fn is_in_hand(&self) -> bool {
        vr_arms_core::revolver::placement::in_hand(self.stage.state)
    }

    /// Puts the held gun on `attach` (the hand bone's attach point, after the arm solve), with
    /// the grip alignment and the cocking sweep. Called by [RevolverHold] during the skeleton
    /// update; `attach_to_hand` maps the attach point back to the hand bone.
    pub fn place_on_hand(&mut self, attach: Transform3D, attach_to_hand: Transform3D) {
        if !self.is_in_hand() {
            return;
        }
        self.placed_by_hold = true;
        self.attach_to_hand = attach_to_hand;
        let t = self.held_transform(attach);
        self.base_mut().set_global_transform(t);
        self.place_draw_target();
    }

    /// The gun's global transform for an attach point: the hold (offset or `GripPoint`) and the
    /// cocking sweep back and roll.
    pub(super) fn held_transform(&self, attach: Transform3D) -> Transform3D {
        let sweep = placement::cock_sweep(
            self.stage.cock_time(),
            vec3(self.cock_back_offset),
            vec3(self.cock_back_rotation_deg),
        );
        attach * self.hold() * to_transform(&sweep) * self.twirl_turn()
    }

    /// The twirl's spin: about the `TwirlPivot` child (else the `Trigger` child), about the
    /// gun's side (X) axis.
    fn twirl_turn(&self) -> Transform3D {
        let angle = self.stage.twirl.angle(&self.stage.twirl_settings);
        if angle == 0.0 {
            return Transform3D::IDENTITY;
        }
        let pivot = ["TwirlPivot", "Trigger"]
            .into_iter()
            .find_map(|n| self.base().get_node_or_null(n))
            .and_then(|n| n.try_cast::<Node3D>().ok())
            .map(|n| n.get_position())
            .unwrap_or(Vector3::ZERO);
        to_transform(&placement::twirl_turn(angle, vec3(pivot)))
    }

    /// The gun relative to the attach point: `grip_offset`, or with `GripPoint` alignment the
    /// inverse of the `GripPoint` child's pose in the gun's frame, so that child lands on the
    /// attach point (the original design's legacy alignment).
    fn hold(&self) -> Transform3D {
        if self.grip_alignment == 1 {
            let me = self.base().get_global_transform();
            (me.affine_inverse() * self.child_global("GripPoint")).affine_inverse()
        } else {
            self.grip_offset
        }
    }

    /// The arm's draw override: where the hand bone would be while holding the gun.
    pub(super) fn place_draw_target(&mut self) {
        let hand =
            self.base().get_global_transform() * self.hold().affine_inverse() * self.attach_to_hand;
        if let Some(mut marker) = alive(&self.draw_target) {
            marker.set_global_transform(hand);
        }
    }

    /// Global transform of a child by name, or the gun's own.
    pub(super) fn child_global(&self, name: &str) -> Transform3D {
        self.base()
            .get_node_or_null(name)
            .and_then(|n| n.try_cast::<Node3D>().ok())
            .map(|n| n.get_global_transform())
            .unwrap_or_else(|| self.base().get_global_transform())
    }

    /// Puts the gun where its state says, and animates hammer, trigger, cylinder and recoil.
    /// `holster_point` is the `HolsterPoint` child's global transform, read once per frame.
    pub(super) fn place(
        &mut self,
        anchor: Transform3D,
        clear: Vector3,
        holster_point: Transform3D,
        mesh_active: bool,
    ) {
        let me = self.base().get_global_transform();
        // The gun placed so that its HolsterPoint sits on the anchor.
        let in_holster = anchor * (me.affine_inverse() * holster_point).affine_inverse();
        let target = match self.stage.state {
            RevolverState::Holstered => Some(in_holster),
            RevolverState::Latched => {
                // The slide moves, never turns: the holstered basis (and any scale) is kept.
                let slid = placement::latched(
                    &crate::convert::pose_unrepaired(&in_holster),
                    vec3(anchor.origin),
                    vec3(clear),
                    self.stage.draw_t,
                );
                Some(Transform3D::new(
                    in_holster.basis,
                    to_vector3(slid.position),
                ))
            }
            // On the hand bone, the RevolverHold places it after the arm solve.
            RevolverState::Held | RevolverState::Cocking if self.placed_by_hold => None,
            RevolverState::Held | RevolverState::Cocking => {
                alive(&self.hand_attach).map(|h| self.held_transform(h.get_global_transform()))
            }
            RevolverState::Dropped => None,
        };
        if let Some(t) = target {
            self.base_mut().set_global_transform(t);
        }
        // The RevolverHold sets this again after the solve; without one it stays unset.
        self.placed_by_hold = false;
        self.place_draw_target();
        // The hammer where the mechanism has it (the cocking clip moves it continuously).
        let turns = placement::part_turns(
            self.stage.hammer.travel(),
            self.stage.trigger_pull(),
            self.stage.cylinder.current,
            self.hammer_cock_deg,
            self.trigger_pull_deg,
        );
        let (mesh_pos, mesh_rot) = (self.mesh_recoil.position, self.mesh_recoil.rotation);
        for (node, rest) in self.parts_rest.iter_mut() {
            if !node.is_instance_valid() {
                continue;
            }
            let name = node.get_name().to_string();
            let t = match name.as_str() {
                "Hammer" => rest.rotated_local(Vector3::RIGHT, turns.hammer),
                "Trigger" => rest.rotated_local(Vector3::RIGHT, turns.trigger),
                "Cylinder" => rest.rotated_local(Vector3::FORWARD, turns.cylinder),
                // The mesh recoil stops writing once recovered, so it never fights the hand at rest.
                "Mesh" if !mesh_active => continue,
                "Mesh" => {
                    let q = placement::euler_yxz(mesh_rot);
                    *rest * to_transform(&vr_arms_core::Pose::new(mesh_pos, q))
                }
                _ => continue,
            };
            node.set_transform(t);
        }
    }
}
