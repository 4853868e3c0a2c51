//! One remote player's avatar: its nodes, its jitter buffer, its events, and how it is driven
//! each frame.

use std::collections::VecDeque;

use godot::classes::{Node, Node3D, PackedScene, Skeleton3D};
use godot::prelude::*;
use vr_arms_core::net::{
    AvatarState, EventOrder, Impairment, JitterBuffer, JitterSettings, Playback, Receipt,
    StateHeader,
};

use crate::convert::{to_quaternion, to_vector3};
use crate::nodes::vr_remote_body::VRRemoteBody;
use crate::shared::common::descendants;

use super::remote_gun::RemoteGun;

/// A remote avatar: a holder node ("Peer<id>") with the avatar scene's instance and the three
/// tracking nodes its `VRRemoteBody` follows. Freeing the holder frees all of it.
pub struct RemoteAvatar {
    pub holder: Gd<Node3D>,
    pub avatar: Gd<Node3D>,
    points: [Gd<Node3D>; 3],
    body: Option<Gd<VRRemoteBody>>,
    pub buffer: JitterBuffer,
    pub events: EventOrder,
    /// Packets held back by the test impairment: (deliver at, header, state).
    delayed: VecDeque<(f64, StateHeader, AvatarState)>,
    pub impairment: Impairment,
    pub playback: Playback,
    /// The state drawn last frame.
    pub drawn: AvatarState,
    /// State packets the buffer took, refused as duplicates, and refused as too old.
    pub receipts: [u64; 3],
    /// The revolver in its right hand, when there is a scene for it.
    pub gun: Option<RemoteGun>,
    last_drive_s: Option<f64>,
    /// The body's `update_interval_frames` as last set.
    update_interval: Option<i32>,
    /// The body's `detail_settings` as last set (`Some(None)`: none).
    detail: Option<Option<InstanceId>>,
}

impl RemoteAvatar {
    /// Instances `scene` for `peer` under `parent`, sets its skeleton up as a remote body.
    /// `None`, with one error, when the scene is no avatar.
    pub fn spawn(
        peer: i64,
        scene: &Gd<PackedScene>,
        parent: &mut Gd<Node>,
        settings: JitterSettings,
        impairment: Impairment,
        profile: &GString,
        gun_scene: Option<&Gd<PackedScene>>,
    ) -> Option<Self> {
        let Some(avatar) = scene
            .instantiate()
            .and_then(|n| n.try_cast::<Node3D>().ok())
        else {
            godot_error!("VRAvatarSync: \"remote_avatar_scene\" must have a Node3D root");
            return None;
        };
        let mut holder = Node3D::new_alloc();
        holder.set_name(&format!("Peer{peer}"));
        // Hidden until its first state plays: not a rest pose that then jumps to the player.
        holder.set_visible(false);
        parent.add_child(&holder);
        holder.add_child(&avatar);
        let points = ["Head", "LeftHand", "RightHand"].map(|name| {
            let mut n = Node3D::new_alloc();
            n.set_name(name);
            holder.add_child(&n);
            n
        });
        let skeleton = descendants(&avatar.clone().upcast())
            .into_iter()
            .find_map(|n| n.try_cast::<Skeleton3D>().ok());
        let gun = skeleton
            .clone()
            .zip(gun_scene)
            .and_then(|(mut s, scene)| RemoteGun::spawn(scene, &mut s));
        let body = skeleton.and_then(|s| {
            let made = crate::nodes::vr_remote_body::setup::setup_remote(
                Some(s),
                points.clone().map(Some),
            );
            made.get("body")
                .and_then(|b| b.try_to::<Gd<VRRemoteBody>>().ok())
        });
        if let Some(mut b) = body.clone() {
            b.set("profile", &profile.to_variant());
        }
        if body.is_none() {
            godot_error!(
                "VRAvatarSync: the remote avatar of peer {peer} has no humanoid Skeleton3D to drive"
            );
        }
        Some(Self {
            holder,
            avatar,
            points,
            body,
            buffer: JitterBuffer::new(settings),
            events: EventOrder::default(),
            delayed: VecDeque::new(),
            impairment,
            playback: Playback::Waiting,
            drawn: AvatarState::default(),
            receipts: [0; 3],
            gun,
            last_drive_s: None,
            update_interval: None,
            detail: None,
        })
    }

    /// Takes a decoded state in (through the test impairment, when there is one).
    pub fn receive(&mut self, header: StateHeader, state: AvatarState, now_s: f64) {
        if self.impairment.is_clean() {
            self.take(header, state, now_s);
            return;
        }
        if let Some(at) = self.impairment.admit(now_s) {
            let i = self.delayed.partition_point(|d| d.0 <= at);
            self.delayed.insert(i, (at, header, state));
        }
    }

    fn take(&mut self, header: StateHeader, state: AvatarState, at_s: f64) {
        let i = match self.buffer.receive(header, state, at_s) {
            Receipt::Accepted => 0,
            Receipt::Duplicate => 1,
            Receipt::TooOld => 2,
        };
        self.receipts[i] += 1;
    }

    /// Places the tracking nodes and sets the body's inputs for `now_s`.
    pub fn drive(&mut self, now_s: f64) {
        while self.delayed.front().is_some_and(|d| d.0 <= now_s) {
            if let Some((at, h, s)) = self.delayed.pop_front() {
                self.take(h, s, at);
            }
        }
        let (state, playback) = self.buffer.sample(now_s);
        self.playback = playback;
        let dt = (now_s - self.last_drive_s.unwrap_or(now_s)).max(0.0) as f32;
        self.last_drive_s = Some(now_s);
        if let Some(gun) = self.gun.as_mut() {
            let shown = (playback != Playback::Waiting).then_some(state.revolver);
            gun.update(now_s, dt, shown.flatten());
        }
        if playback == Playback::Waiting {
            return;
        }
        self.drawn = state;
        let appearing = !self.holder.is_visible();
        if appearing {
            self.holder.set_visible(true);
        }
        // As tall as the sender's avatar, so its arms reach as far.
        let scale = state.scale;
        if (self.avatar.get_scale().y - scale).abs() > 1e-3 {
            self.avatar.set_scale(Vector3::splat(scale));
        }
        // The holder stands on the sender's floor (the root's height), so the body's floor is.
        self.holder
            .set_global_position(Vector3::new(0.0, state.root.y, 0.0));
        let poses = [state.head, state.hands[0].pose, state.hands[1].pose];
        for (node, p) in self.points.iter_mut().zip(poses) {
            let mut t = Transform3D::IDENTITY;
            t.basis = Basis::from_quaternion(to_quaternion(p.rotation));
            t.origin = to_vector3(state.root + p.position);
            node.set_global_transform(t);
        }
        if let Some(body) = self.body.as_mut().filter(|b| b.is_instance_valid()) {
            let hands = state.hands.map(|h| (h.tracked, h.grip, h.trigger));
            let curls = state.hands.map(|h| h.hand_tracking.then_some(h.curls));
            let mut body = body.bind_mut();
            body.set_stream_inputs(state.head_tracked, hands, curls, state.seated);
            if appearing {
                body.start_from_stream();
            }
        }
    }

    /// The body's crowd budget (`VRRemoteBody.update_interval_frames`), set when it changes.
    pub fn set_update_interval(&mut self, frames: i32) {
        if self.update_interval == Some(frames) {
            return;
        }
        self.update_interval = Some(frames);
        if let Some(body) = self.body.as_mut().filter(|b| b.is_instance_valid()) {
            body.bind_mut().set_interval_from_stream(frames);
        }
    }

    /// The body's levels of detail (`VRRemoteBody.detail_settings`), set when they change.
    pub fn set_detail(&mut self, detail: &Option<Gd<crate::nodes::body_detail::VRBodyDetail>>) {
        let id = detail.as_ref().map(|d| d.instance_id());
        if self.detail == Some(id) {
            return;
        }
        self.detail = Some(id);
        if let Some(body) = self.body.as_mut().filter(|b| b.is_instance_valid()) {
            body.bind_mut().set_detail_from_stream(detail.clone());
        }
    }

    /// Frees every node of the avatar.
    pub fn free(self) {
        // Queued: the tree may be busy (a departure is signalled mid-frame, exit_tree while
        // the scene is torn down).
        if self.holder.is_instance_valid() {
            self.holder.clone().queue_free();
        }
    }
}
