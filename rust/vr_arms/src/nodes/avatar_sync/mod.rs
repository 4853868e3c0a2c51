//! `VRAvatarSync`: other players' bodies over Godot's high-level multiplayer. The local
//! player's tracked points go out as a compact unreliable stream, the revolver's events
//! reliably; every other player who sends gets a remote avatar, played back through a jitter
//! buffer and driven by a `VRRemoteBody`.

mod local_state;
mod remote_avatar;
mod remote_gun;
pub mod setup;
mod stats;

use std::collections::BTreeMap;

use godot::classes::multiplayer_peer::{ConnectionStatus, TransferMode};
use godot::classes::{INode, Node, Node3D, PackedScene, SceneMultiplayer};
use godot::prelude::*;
use vr_arms_core::net::{
    EventReceipt, Impairment, JitterSettings, PacketError, RevolverNetEvent, StateHeader,
    StateLimits, decode_event, decode_state, encode_event, encode_state, events::EVENT_TAG,
    state_packet::STATE_TAG,
};

use crate::convert::{to_vector3, vec3};
use crate::nodes::lower_body_rig::LowerBodyRig;
use crate::nodes::revolver::Revolver;
use crate::problems::ProblemReport;
use crate::shared::common::{alive, in_editor, refresh_warnings_on_set, unset_problem};
use remote_avatar::RemoteAvatar;
use stats::Stats;

/// Shows every other player's body, and shows yours to them, over Godot's multiplayer API (the
/// `multiplayer` of this node's tree, with any `MultiplayerPeer`, ENet for example). It does not
/// open connections: your game hosts or joins; this node does the rest.
///
/// **Sending.** While connected, [member send_rate_hz] times a second it sends the local
/// player's head and hands (from [member avatar_root], quantised: 0.12 mm and 0.25 degrees),
/// grip, trigger, tracking, the revolver's state and whether the player sits, unreliably: 47
/// bytes a packet (53 with finger curls from hand tracking). The
/// revolver's draw, holster, cock, shot (with its hit point and normal), drop and reload go
/// reliably, in order.
///
/// **Receiving.** A peer that sends gets an avatar: [member remote_avatar_scene] instanced under
/// [member remote_parent] with a `VRRemoteBody` on its skeleton ([signal remote_avatar_added]).
/// It is drawn [member interpolation_delay_s] behind the sender, interpolated, continued for up
/// to [member max_extrapolation_s] when packets are late, then held; after
/// [member stale_after_s] its tracking counts as lost and the body eases to rest. A peer's
/// packets only ever move that peer's avatar. Malformed or absurd packets are dropped and
/// counted ([method get_stats]); nothing non-finite reaches a bone. A peer that disconnects is
/// removed with its nodes ([signal remote_avatar_removed]). Revolver events arrive as
/// [signal remote_revolver_event], once each and in order.
#[derive(GodotClass)]
#[class(base = Node, tool)]
pub struct VRAvatarSync {
    /// The local avatar's root (the character `BodyFollow` moves): positions are sent from it.
    #[export_group(name = "Local Player")]
    #[export]
    avatar_root: Option<Gd<Node3D>>,
    /// The local headset (the [XRCamera3D]).
    #[export]
    head: Option<Gd<Node3D>>,
    /// The local left controller (its pose is sent).
    #[export]
    left_hand: Option<Gd<Node3D>>,
    /// The local right controller.
    #[export]
    right_hand: Option<Gd<Node3D>>,
    /// Where grip, trigger and tracking of the left hand are read, when not from
    /// [member left_hand] (empty: from it).
    #[export]
    left_controller: Option<Gd<Node3D>>,
    /// As [member left_controller], for the right hand.
    #[export]
    right_controller: Option<Gd<Node3D>>,
    /// The local player's revolver, if any: its state is sent, and its events.
    #[export]
    revolver: Option<Gd<Revolver>>,
    /// The local player's [LowerBodyRig]: whether the player sits (its `seated`, or seen from
    /// the headset with `sit_from_headset`) is sent, and remote bodies sit with it. Empty:
    /// [member local_seated] is sent.
    #[export]
    lower_body_rig: Option<Gd<LowerBodyRig>>,
    /// Whether the local player sits, sent while [member lower_body_rig] is empty (a body of
    /// your own, `VRBodySolver.is_sitting()`).
    #[export]
    local_seated: bool,
    /// The OpenXR float action read as grip from an [XRController3D] hand.
    #[export]
    grip_action: StringName,
    /// The OpenXR float action read as trigger.
    #[export]
    trigger_action: StringName,
    /// The left hand's [XRHandTracker] (its name in the [XRServer]): while it tracks the
    /// hand, its finger curls are sent (six bytes more a packet) and remote avatars curl their
    /// fingers as the tracked ones. Empty: never sent.
    #[export]
    left_hand_tracker: StringName,
    /// As [member left_hand_tracker], for the right hand.
    #[export]
    right_hand_tracker: StringName,
    /// State packets sent per second.
    #[export(range = (1.0, 120.0, suffix = "Hz"))]
    send_rate_hz: f32,

    /// The scene instanced for each remote player: a character with a humanoid [Skeleton3D]
    /// (often your player's own avatar scene). Empty: remote players are not shown.
    #[export_group(name = "Remote Players")]
    #[export]
    remote_avatar_scene: Option<Gd<PackedScene>>,
    /// The look of a remote player's revolver, held in the remote avatar's right hand while
    /// the sender holds theirs: a plain scene (not a `Revolver`) with the children a
    /// `Revolver` has, all optional: `Mesh` (recoil), `MuzzleFlash`, and
    /// [AudioStreamPlayer3D]s `ShotSound` and `CockSound`. It plays the sender's shots and
    /// cocks one [member interpolation_delay_s] after they arrive, with the body drawn that far
    /// behind. Empty: no remote revolver ([signal remote_revolver_event] still arrives).
    #[export]
    remote_revolver_scene: Option<Gd<PackedScene>>,
    /// The rig profile of remote avatars' `VRRemoteBody`. The default is the local player's:
    /// the remote body is solved as the sender's own is (the jitter buffer already plays the
    /// stream smoothly, so `remote_player.toml`'s smoothing only adds lag).
    #[export(file = "*.toml")]
    remote_profile: GString,
    /// Where remote avatars are added (empty: this node's parent).
    #[export]
    remote_parent: Option<Gd<Node>>,
    /// The crowd budget of remote avatars: their `VRRemoteBody` solves every this many frames
    /// and blends the bones in between (its `update_interval_frames`). 1 for players close by,
    /// 2 or 3 for many or distant ones; see docs/performance.md. Changes apply to the avatars
    /// already shown too.
    #[export(range = (1.0, 8.0, suffix = "frames"))]
    remote_update_interval_frames: i32,
    /// The levels of detail of remote avatars (every one's `VRRemoteBody.detail_settings`):
    /// by distance to the nearest view, and off when no view sees them. Empty: the defaults
    /// (see [VRBodyDetail] and docs/performance.md). Changes apply to the avatars shown too.
    #[export]
    remote_detail: Option<Gd<crate::nodes::body_detail::VRBodyDetail>>,
    /// How far behind the sender remote avatars are drawn (seconds).
    #[export(range = (0.0, 1.0, suffix = "s"))]
    interpolation_delay_s: f32,
    /// Longest a late stream is continued along its motion (seconds).
    #[export(range = (0.0, 0.5, suffix = "s"))]
    max_extrapolation_s: f32,
    /// After this long without packets a remote avatar's tracking counts as lost (seconds).
    #[export(range = (0.0, 10.0, suffix = "s"))]
    stale_after_s: f32,

    /// Testing only: share of received state packets dropped on purpose.
    #[export_group(name = "Testing")]
    #[export(range = (0.0, 1.0))]
    test_drop_ratio: f32,
    /// Testing only: largest extra delay given to each received state packet (seconds).
    #[export(range = (0.0, 0.5, suffix = "s"))]
    test_extra_delay_s: f32,

    /// Seconds of this node's processing: the clock packets are stamped and played with.
    clock_s: f64,
    next_send_s: f64,
    sequence: u8,
    event_sequence: u16,
    remotes: BTreeMap<i64, RemoteAvatar>,
    stats: Stats,
    /// The multiplayer API whose signals are connected.
    connected_to: Option<InstanceId>,
    report: ProblemReport,
    base: Base<Node>,
}

#[godot_api]
impl INode for VRAvatarSync {
    fn init(base: Base<Node>) -> Self {
        let jitter = JitterSettings::default();
        Self {
            avatar_root: None,
            head: None,
            left_hand: None,
            right_hand: None,
            left_controller: None,
            right_controller: None,
            revolver: None,
            lower_body_rig: None,
            local_seated: false,
            grip_action: "grip".into(),
            trigger_action: "trigger".into(),
            left_hand_tracker: "/user/hand_tracker/left".into(),
            right_hand_tracker: "/user/hand_tracker/right".into(),
            send_rate_hz: 30.0,
            remote_avatar_scene: None,
            remote_revolver_scene: None,
            remote_parent: None,
            remote_update_interval_frames: 1,
            remote_detail: None,
            remote_profile: "res://addons/vr_arms/profiles/local_player.toml".into(),
            interpolation_delay_s: jitter.interpolation_delay_s,
            max_extrapolation_s: jitter.max_extrapolation_s,
            stale_after_s: jitter.stale_after_s,
            test_drop_ratio: 0.0,
            test_extra_delay_s: 0.0,
            clock_s: 0.0,
            next_send_s: 0.0,
            sequence: 0,
            event_sequence: 0,
            remotes: BTreeMap::new(),
            stats: Stats::default(),
            connected_to: None,
            report: ProblemReport::new("VRAvatarSync"),
            base,
        }
    }

    fn ready(&mut self) {
        if in_editor() {
            return;
        }
        let problems = self.problems();
        self.report.runtime(&problems);
        // After the frame's tracking has moved the local controllers (so the state sent is this
        // frame's); the remote avatars it places are read by their modifiers, which run after
        // every node's process.
        self.base_mut()
            .set_process_priority(crate::shared::priorities::AVATAR_SYNC);
        if let Some(mut gun) = alive(&self.revolver) {
            let me = self.to_gd();
            for (signal, event) in [
                ("drawn", "draw"),
                ("holstered", "holster"),
                ("cocked", "cock"),
                ("dropped", "drop"),
                ("cylinder_closed", "reload"),
            ] {
                gun.connect(
                    signal,
                    &me.callable("on_revolver_event").bind(&[event.to_variant()]),
                );
            }
            gun.connect("fired", &me.callable("on_revolver_fired"));
        }
    }

    fn exit_tree(&mut self) {
        for (_, r) in std::mem::take(&mut self.remotes) {
            r.free();
        }
    }

    fn process(&mut self, delta: f64) {
        if in_editor() {
            return;
        }
        self.clock_s += delta.max(0.0);
        let Some(mut mp) = self.scene_multiplayer() else {
            return;
        };
        self.connect_signals(&mut mp);
        if online(&mp) && !mp.get_peers().is_empty() && self.clock_s >= self.next_send_s {
            let period = 1.0 / self.send_rate_hz.clamp(1.0, 120.0) as f64;
            // On schedule, without a burst after a long frame.
            self.next_send_s = (self.next_send_s + period).max(self.clock_s);
            self.send_state(&mut mp);
        }
        let now = self.clock_s;
        let interval =
            vr_arms_core::crowd::budget::interval_frames(self.remote_update_interval_frames.into())
                as i32;
        if interval != self.remote_update_interval_frames {
            godot_error!(
                "VRAvatarSync: remote_update_interval_frames is 1 to 8, not {}; {interval} is used",
                self.remote_update_interval_frames
            );
            self.remote_update_interval_frames = interval;
        }
        for r in self.remotes.values_mut() {
            r.set_update_interval(interval);
            r.set_detail(&self.remote_detail);
            r.drive(now);
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        refresh_warnings_on_set(&self.to_gd().upcast())
    }
}

#[godot_api]
impl VRAvatarSync {
    /// A remote player's avatar appeared: `avatar` is the instance of
    /// [member remote_avatar_scene].
    #[signal]
    fn remote_avatar_added(peer_id: i64, avatar: Gd<Node3D>);

    /// A remote player left; their avatar and its nodes are gone.
    #[signal]
    fn remote_avatar_removed(peer_id: i64);

    /// A remote player's revolver did something: `event` is "draw", "holster", "cock",
    /// "fire", "drop" or "reload"; a shot that hit gives `hit`, `point` and `normal` (world
    /// space). Play it (sound, flash, recoil); the sender has already decided the outcome.
    #[signal]
    fn remote_revolver_event(
        peer_id: i64,
        event: GString,
        hit: bool,
        point: Vector3,
        normal: Vector3,
    );

    /// This peer's revolver event went out to the others (`event` as in
    /// [signal remote_revolver_event]).
    #[signal]
    fn revolver_event_sent(event: GString);

    /// The avatar of `peer_id`, or null.
    #[func]
    fn get_remote_avatar(&self, peer_id: i64) -> Option<Gd<Node3D>> {
        self.remotes.get(&peer_id).map(|r| r.avatar.clone())
    }

    /// Seconds of this node's clock, the one its packets are stamped with.
    #[func]
    fn get_clock(&self) -> f64 {
        self.clock_s
    }

    /// The moment of `peer_id`'s clock its avatar shows now (its [method get_clock] one
    /// interpolation delay, and the network's quickest delivery, ago); -1 before any packet.
    #[func]
    fn get_remote_sender_time(&self, peer_id: i64) -> f64 {
        self.remotes
            .get(&peer_id)
            .and_then(|r| r.buffer.playback_time(self.clock_s))
            .unwrap_or(-1.0)
    }

    /// How `peer_id`'s avatar is drawn now: "waiting", "interpolated", "extrapolated", "held"
    /// or "lost" (empty for no such peer).
    #[func]
    fn get_remote_playback(&self, peer_id: i64) -> GString {
        self.remotes
            .get(&peer_id)
            .map(|r| GString::from(format!("{:?}", r.playback).to_lowercase().as_str()))
            .unwrap_or_default()
    }

    /// The peers whose avatars are shown.
    #[func]
    fn get_remote_peers(&self) -> PackedInt64Array {
        self.remotes.keys().copied().collect()
    }

    /// Counts of what was sent, received and dropped: "state_packets_sent",
    /// "state_bytes_sent", "event_packets_sent", "event_bytes_sent", "state_packets_accepted",
    /// "events_played", and per reason "dropped_truncated", "dropped_oversized",
    /// "dropped_wrong_kind", "dropped_corrupt", "dropped_absurd", "dropped_duplicate",
    /// "dropped_too_old", "dropped_no_avatar", "events_repeated", "events_missed".
    #[func]
    fn get_stats(&self) -> VarDictionary {
        let mut stats = self.stats.clone();
        for r in self.remotes.values() {
            stats.add_receipts(&r.receipts);
        }
        stats.to_dictionary()
    }

    /// Sends a revolver event to every other peer (the connected revolver's events are sent by
    /// themselves): `event` as in [signal remote_revolver_event].
    #[func]
    fn send_revolver_event(&mut self, event: GString, hit: bool, point: Vector3, normal: Vector3) {
        let name = event.to_string();
        match RevolverNetEvent::named(&name, hit, vec3(point), vec3(normal)) {
            Some(e) => self.send_event(&e),
            None => godot_error!(
                "VRAvatarSync.send_revolver_event: no event \"{name}\" (draw, holster, cock, fire, drop, reload)"
            ),
        }
    }

    /// A connected revolver's signal without arguments, bound to its event's name.
    #[func]
    fn on_revolver_event(&mut self, event: GString) {
        self.send_revolver_event(event, false, Vector3::ZERO, Vector3::ZERO);
    }

    #[func]
    fn on_revolver_fired(
        &mut self,
        hit: bool,
        point: Vector3,
        normal: Vector3,
        _collider: Option<Gd<Object>>,
    ) {
        self.send_event(&RevolverNetEvent::Fire {
            hit,
            point: vec3(point),
            normal: vec3(normal),
        });
    }

    /// Takes a packet from `peer_id` as if it had come over the multiplayer API: for packets
    /// you carry yourself (a transport of your own, a replay, a benchmark). The same checks
    /// and counts apply.
    #[func]
    fn receive_packet(&mut self, peer_id: i64, packet: PackedByteArray) {
        self.on_peer_packet(peer_id, packet);
    }

    /// The local player's state packet now, as the next one sent would be (its sequence
    /// number taken): for a transport of your own, or a benchmark. Empty without
    /// [member avatar_root] and [member head].
    #[func]
    fn get_state_packet(&mut self) -> PackedByteArray {
        self.next_state_packet()
            .map(|b| PackedByteArray::from(b.as_slice()))
            .unwrap_or_default()
    }

    /// Removes `peer_id`'s avatar as if that peer had disconnected
    /// ([signal remote_avatar_removed]); nothing when it has none.
    #[func]
    fn remove_peer(&mut self, peer_id: i64) {
        self.on_peer_disconnected(peer_id);
    }

    #[func]
    fn on_peer_packet(&mut self, peer_id: i64, packet: PackedByteArray) {
        let bytes = packet.as_slice();
        match bytes.first() {
            Some(&STATE_TAG) => self.receive_state(peer_id, bytes),
            Some(&EVENT_TAG) => self.receive_event(peer_id, bytes),
            Some(_) => self.stats.dropped(PacketError::WrongKind),
            None => self.stats.dropped(PacketError::Truncated),
        }
    }

    #[func]
    fn on_peer_disconnected(&mut self, peer_id: i64) {
        if let Some(r) = self.remotes.remove(&peer_id) {
            r.free();
            self.signals().remote_avatar_removed().emit(peer_id);
        }
    }

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        // No local player at all is a dedicated server's setup: nothing is sent. Half of one
        // sends nothing either, and is a mistake.
        if self.avatar_root.is_some() || self.head.is_some() {
            out.extend(unset_problem(
                &self.avatar_root,
                "avatar_root",
                "the local avatar's root (the character BodyFollow moves)",
            ));
            out.extend(unset_problem(&self.head, "head", "the local XRCamera3D"));
        }
        if self.remote_avatar_scene.is_none() {
            out.push(
                "Set \"remote_avatar_scene\" to a character scene: without it other players are not shown."
                    .into(),
            );
        }
        out
    }

    fn scene_multiplayer(&self) -> Option<Gd<SceneMultiplayer>> {
        if !self.base().is_inside_tree() {
            return None;
        }
        self.base()
            .get_multiplayer()
            .and_then(|m| m.try_cast::<SceneMultiplayer>().ok())
    }

    /// Connects to the multiplayer API's packets and departures, once per API.
    fn connect_signals(&mut self, mp: &mut Gd<SceneMultiplayer>) {
        if self.connected_to == Some(mp.instance_id()) {
            return;
        }
        self.connected_to = Some(mp.instance_id());
        let me = self.to_gd();
        mp.connect("peer_packet", &me.callable("on_peer_packet"));
        mp.connect("peer_disconnected", &me.callable("on_peer_disconnected"));
    }

    fn send_state(&mut self, mp: &mut Gd<SceneMultiplayer>) {
        let Some(bytes) = self.next_state_packet() else {
            return;
        };
        let sent = mp
            .send_bytes_ex(&PackedByteArray::from(bytes.as_slice()))
            .mode(TransferMode::UNRELIABLE)
            .done();
        if sent == godot::global::Error::OK {
            self.stats.state_sent(bytes.len());
        }
    }

    /// The local state, encoded with the next sequence number; `None` without a local player.
    fn next_state_packet(&mut self) -> Option<Vec<u8>> {
        let revolver = alive(&self.revolver).map(|g| g.bind().get_state() as u8);
        let sources = local_state::LocalSources {
            root: &self.avatar_root,
            head: &self.head,
            hands: [&self.left_hand, &self.right_hand],
            controllers: [&self.left_controller, &self.right_controller],
            grip_action: &self.grip_action,
            trigger_action: &self.trigger_action,
            hand_trackers: [&self.left_hand_tracker, &self.right_hand_tracker],
            revolver,
            seated: alive(&self.lower_body_rig)
                .map_or(self.local_seated, |r| r.bind().is_sitting()),
        };
        let state = local_state::read(&sources)?;
        let header = StateHeader {
            sequence: self.sequence,
            time_ms: ((self.clock_s * 1000.0) as u64 & 0xffff) as u16,
        };
        self.sequence = self.sequence.wrapping_add(1);
        Some(encode_state(header, &state).to_vec())
    }

    fn send_event(&mut self, e: &RevolverNetEvent) {
        let Some(mut mp) = self.scene_multiplayer().filter(online) else {
            return;
        };
        let bytes = encode_event(self.event_sequence, e);
        self.event_sequence = self.event_sequence.wrapping_add(1);
        let sent = mp
            .send_bytes_ex(&PackedByteArray::from(&bytes[..]))
            .mode(TransferMode::RELIABLE)
            .done();
        if sent == godot::global::Error::OK {
            self.stats.event_sent(bytes.len());
            self.signals()
                .revolver_event_sent()
                .emit(&GString::from(e.name()));
        }
    }

    fn receive_state(&mut self, peer_id: i64, bytes: &[u8]) {
        let (header, state) = match decode_state(bytes, &StateLimits::default()) {
            Ok(ok) => ok,
            Err(e) => return self.stats.dropped(e),
        };
        let now = self.clock_s;
        if !self.remotes.contains_key(&peer_id) && !self.spawn(peer_id) {
            self.stats.no_avatar += 1;
            return;
        }
        if let Some(r) = self.remotes.get_mut(&peer_id) {
            r.receive(header, state, now);
        }
    }

    fn receive_event(&mut self, peer_id: i64, bytes: &[u8]) {
        let (sequence, event) = match decode_event(bytes) {
            Ok(ok) => ok,
            Err(e) => return self.stats.dropped(e),
        };
        let Some(r) = self.remotes.get_mut(&peer_id) else {
            self.stats.no_avatar += 1;
            return;
        };
        match r.events.accept(sequence) {
            EventReceipt::Repeated => {
                self.stats.events_repeated += 1;
                return;
            }
            EventReceipt::AfterGap { missed } => self.stats.events_missed += missed as u64,
            EventReceipt::InOrder => {}
        }
        self.stats.events_played += 1;
        // Effects with the body they belong to, drawn one delay behind.
        let at = self.clock_s + self.interpolation_delay_s as f64;
        if let Some(gun) = r.gun.as_mut() {
            gun.schedule(event, at);
        }
        let (hit, point, normal) = match event {
            RevolverNetEvent::Fire { hit, point, normal } => (hit, point, normal),
            _ => (false, glam::Vec3::ZERO, glam::Vec3::ZERO),
        };
        self.signals().remote_revolver_event().emit(
            peer_id,
            &GString::from(event.name()),
            hit,
            to_vector3(point),
            to_vector3(normal),
        );
    }

    /// A remote avatar for `peer_id`; false when there is no scene to make one from.
    fn spawn(&mut self, peer_id: i64) -> bool {
        let Some(scene) = self.remote_avatar_scene.clone() else {
            return false;
        };
        let parent = alive(&self.remote_parent).or_else(|| self.base().get_parent());
        let Some(mut parent) = parent else {
            return false;
        };
        let settings = JitterSettings {
            interpolation_delay_s: self.interpolation_delay_s,
            max_extrapolation_s: self.max_extrapolation_s,
            stale_after_s: self.stale_after_s,
        };
        let impairment = Impairment::new(
            self.test_drop_ratio,
            self.test_extra_delay_s,
            peer_id as u32 ^ 0x5eed,
        );
        let profile = self.remote_profile.clone();
        let gun = self.remote_revolver_scene.clone();
        let Some(r) = RemoteAvatar::spawn(
            peer_id,
            &scene,
            &mut parent,
            settings,
            impairment,
            &profile,
            gun.as_ref(),
        ) else {
            return false;
        };
        let avatar = r.avatar.clone();
        self.remotes.insert(peer_id, r);
        self.signals().remote_avatar_added().emit(peer_id, &avatar);
        true
    }
}

/// Whether the API has a connected peer to send to (not the offline placeholder).
fn online(mp: &Gd<SceneMultiplayer>) -> bool {
    mp.get_multiplayer_peer().is_some_and(|p| {
        !p.is_class("OfflineMultiplayerPeer")
            && p.get_connection_status() == ConnectionStatus::CONNECTED
    })
}
