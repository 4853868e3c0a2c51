//! The revolver's shot and effects: the ray and damage, the three recoil layers' kicks and the
//! arm layer's offset on the IK targets, muzzle flash, sounds, the debug ray.

use godot::prelude::*;

use super::*;

impl Revolver {
    /// A live shot: ray, damage, recoil, haptics, signal.
    pub(super) fn shoot(&mut self) {
        let muzzle = self.child_global("Muzzle");
        let from = muzzle.origin;
        let dir = -muzzle.basis.col_c().normalized();
        let to = from + dir * self.max_range_m;
        let mut hit = (false, Vector3::ZERO, Vector3::ZERO, None::<Gd<Object>>);
        let rid = self.base().get_rid();
        if let Some(mut space) = self
            .base()
            .get_world_3d()
            .and_then(|w| w.get_direct_space_state())
            && let Some(mut query) = PhysicsRayQueryParameters3D::create(from, to)
        {
            query.set_collision_mask(self.hit_mask);
            query.set_collide_with_areas(false);
            let mut exclude = Array::new();
            exclude.push(rid);
            query.set_exclude(&exclude);
            let result = space.intersect_ray(&query);
            if let (Some(point), Some(normal), Some(collider)) = (
                result
                    .get("position")
                    .and_then(|v| v.try_to::<Vector3>().ok()),
                result
                    .get("normal")
                    .and_then(|v| v.try_to::<Vector3>().ok()),
                result
                    .get("collider")
                    .and_then(|v| v.try_to::<Gd<Object>>().ok()),
            ) {
                let mut c = collider.clone();
                if c.has_method("take_damage") {
                    c.call(
                        "take_damage",
                        &[
                            self.damage.to_variant(),
                            point.to_variant(),
                            normal.to_variant(),
                        ],
                    );
                }
                hit = (true, point, normal, Some(collider));
            }
        }
        if self.debug_draw_shots {
            self.draw_shot(from, if hit.0 { hit.1 } else { to });
        }
        // Muzzle flash for a few frames, and the shot sound.
        self.set_child_visible("MuzzleFlash", true);
        self.flash_left = 0.05;
        self.play_sound("ShotSound");
        // Three independent layers, each with its own jitter draw.
        let (a, h, m) = (self.jitter(), self.jitter(), self.jitter());
        self.arm_recoil.kick(a);
        self.hand_recoil.kick(h);
        self.mesh_recoil.kick(m);
        self.write_arm_recoil();
        self.signals()
            .fired()
            .emit(hit.0, hit.1, hit.2, hit.3.as_ref());
    }

    /// The arm recoil layer's offset on the IK targets: all on the gun hand, or split with the
    /// support hand by `support_recoil_share`. Written while it moves and once more as zero.
    pub(super) fn write_arm_recoil(&mut self) {
        let (p, r) = (self.arm_recoil.position, self.arm_recoil.rotation);
        let moving = p != glam::Vec3::ZERO || r != glam::Vec3::ZERO;
        if !moving && !self.arm_recoil_written {
            return;
        }
        self.arm_recoil_written = moving;
        let Some(mut ct) = alive(&self.controller_targets) else {
            return;
        };
        let support = if self.supported {
            self.support_recoil_share.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let mut ct = ct.bind_mut();
        ct.hold_recoil(self.hand.side(), p * (1.0 - support), r * (1.0 - support));
        ct.hold_recoil(self.hand.other().side(), p * support, r * support);
    }

    /// Plays the child [AudioStreamPlayer3D] of that name, if there is one with a stream.
    pub(super) fn play_sound(&mut self, name: &str) {
        if let Some(mut p) = self
            .base()
            .get_node_or_null(name)
            .and_then(|n| n.try_cast::<godot::classes::AudioStreamPlayer3D>().ok())
            && p.get_stream().is_some()
        {
            p.play();
        }
    }

    pub(super) fn set_child_visible(&mut self, name: &str, visible: bool) {
        if let Some(mut n) = self
            .base()
            .get_node_or_null(name)
            .and_then(|n| n.try_cast::<Node3D>().ok())
        {
            n.set_visible(visible);
        }
    }

    /// The last shot's ray as a red line (kept until the next shot).
    pub(super) fn draw_shot(&mut self, from: Vector3, to: Vector3) {
        use godot::classes::{
            ImmediateMesh, MeshInstance3D, StandardMaterial3D, base_material_3d::ShadingMode,
            mesh::PrimitiveType,
        };
        let mut line = match alive(&self.shot_line) {
            Some(l) => l,
            None => {
                let mut l = MeshInstance3D::new_alloc();
                l.set_name("ShotRay");
                l.set_as_top_level(true);
                let mut material = StandardMaterial3D::new_gd();
                material.set_shading_mode(ShadingMode::UNSHADED);
                material.set_albedo(Color::from_rgb(1.0, 0.1, 0.1));
                l.set_material_override(&material);
                self.base_mut().add_child(&l);
                self.shot_line = Some(l.clone());
                l
            }
        };
        let mut mesh = ImmediateMesh::new_gd();
        mesh.surface_begin(PrimitiveType::LINES);
        mesh.surface_add_vertex(from);
        mesh.surface_add_vertex(to);
        mesh.surface_end();
        line.set_global_transform(Transform3D::IDENTITY);
        line.set_mesh(&mesh);
        line.set_visible(true);
    }

    pub(super) fn jitter(&mut self) -> glam::Vec3 {
        vr_arms_core::maths::jitter::next_unit_vec3(&mut self.rng)
    }
}
