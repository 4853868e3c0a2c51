//! A remote player's revolver: in the remote avatar's right hand while the stream says the gun
//! is held, and playing the shooter's events (sound, muzzle flash, recoil) one interpolation
//! delay after they arrive, so they line up with the body drawn that far behind. The shooter's
//! machine decided every outcome; nothing here re-decides one.

use std::collections::VecDeque;

use godot::classes::{AudioStreamPlayer3D, BoneAttachment3D, Node3D, PackedScene, Skeleton3D};
use godot::prelude::*;
use vr_arms_core::arms::controller_targets::HandCalibration;
use vr_arms_core::hands::hand_pose::hand_bone;
use vr_arms_core::net::RevolverNetEvent;
use vr_arms_core::revolver::{RecoilLayer, RevolverProfile, RevolverState};
use vr_arms_core::{Pose, Side};

use crate::convert::to_transform;

/// How long the muzzle flash shows per shot (seconds), as on the local revolver.
const FLASH_S: f32 = 0.05;

pub struct RemoteGun {
    gun: Gd<Node3D>,
    /// The gun's `Mesh` child and its rest transform (the recoil moves it).
    mesh: Option<(Gd<Node3D>, Transform3D)>,
    recoil: RecoilLayer,
    flash_left: f32,
    /// Events to play and when (the receiver's clock).
    pending: VecDeque<(f64, RevolverNetEvent)>,
}

impl RemoteGun {
    /// Instances `scene` (the gun's look: `Mesh`, `MuzzleFlash`, `ShotSound`, `CockSound`, ... as
    /// a `Revolver` has them) into the right hand of `skeleton`; hidden until held. `None`,
    /// with one error, when the scene's root is no `Node3D`.
    pub fn spawn(scene: &Gd<PackedScene>, skeleton: &mut Gd<Skeleton3D>) -> Option<Self> {
        let Some(mut gun) = scene
            .instantiate()
            .and_then(|n| n.try_cast::<Node3D>().ok())
        else {
            godot_error!("VRAvatarSync: \"remote_revolver_scene\" must have a Node3D root");
            return None;
        };
        // A child of the skeleton: freed with the avatar.
        let mut attachment = BoneAttachment3D::new_alloc();
        attachment.set_name("RemoteRevolver");
        skeleton.add_child(&attachment);
        attachment.set_bone_name(hand_bone(Side::Right));
        // Where the local revolver sits on its hand bone (RevolverHold's default): the
        // controller's place relative to the hand.
        gun.set_transform(to_transform(&HandCalibration::default().offset().inverse()));
        gun.set_visible(false);
        attachment.add_child(&gun);
        let mesh = gun
            .get_node_or_null("Mesh")
            .and_then(|n| n.try_cast::<Node3D>().ok())
            .map(|m| {
                let rest = m.get_transform();
                (m, rest)
            });
        Some(Self {
            gun,
            mesh,
            recoil: RecoilLayer::new(RevolverProfile::default().recoil.mesh),
            flash_left: 0.0,
            pending: VecDeque::new(),
        })
    }

    /// Plays `event` at `at_s` (the receiver's clock).
    pub fn schedule(&mut self, event: RevolverNetEvent, at_s: f64) {
        self.pending.push_back((at_s, event));
    }

    /// Shows the gun as `state` (the stream's revolver state) says and plays the events due by
    /// `now_s`; `dt` seconds since the last update.
    pub fn update(&mut self, now_s: f64, dt: f32, state: Option<u8>) {
        // In the hand as the local gun is (one definition, the core's).
        let held = state
            .and_then(RevolverState::from_u8)
            .is_some_and(vr_arms_core::revolver::placement::in_hand);
        if self.gun.is_visible() != held {
            self.gun.set_visible(held);
        }
        while self.pending.front().is_some_and(|(at, _)| *at <= now_s) {
            let Some((_, event)) = self.pending.pop_front() else {
                break;
            };
            match event {
                RevolverNetEvent::Fire { .. } => {
                    self.set_flash(true);
                    self.flash_left = FLASH_S;
                    self.play("ShotSound");
                    self.recoil.kick(glam::Vec3::ZERO);
                }
                RevolverNetEvent::Cock => self.play("CockSound"),
                _ => {}
            }
        }
        if self.flash_left > 0.0 {
            self.flash_left -= dt;
            if self.flash_left <= 0.0 {
                self.set_flash(false);
            }
        }
        let moving = self.recoil.update(dt);
        if let Some((mesh, rest)) = self.mesh.as_mut().filter(|(m, _)| m.is_instance_valid()) {
            let r = self.recoil.rotation;
            let q = vr_arms_core::revolver::placement::euler_yxz(r);
            let t = if moving {
                *rest * to_transform(&Pose::new(self.recoil.position, q))
            } else {
                *rest
            };
            mesh.set_transform(t);
        }
    }

    fn set_flash(&mut self, on: bool) {
        if let Some(mut f) = self
            .gun
            .get_node_or_null("MuzzleFlash")
            .and_then(|n| n.try_cast::<Node3D>().ok())
        {
            f.set_visible(on);
        }
    }

    fn play(&mut self, name: &str) {
        if let Some(mut s) = self
            .gun
            .get_node_or_null(name)
            .and_then(|n| n.try_cast::<AudioStreamPlayer3D>().ok())
        {
            s.play();
        }
    }
}
