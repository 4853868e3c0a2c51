//! The target relay: a stage's output pose handed to the next vr_arms stage in memory.
//!
//! The pipeline's targets are real `Node3D`s (markers a user can see, move and insert a stage of
//! their own between). Moving a node and reading it back costs engine calls on every stage of
//! every avatar, every frame, while the next stage only needs the numbers. So every stage
//! publishes its outputs here ([publish], [publish_position]) and reads its inputs from here
//! ([read], [read_position]) before asking the engine:
//!
//! - a pose published for a node is what the next vr_arms stage reads, without a round trip;
//! - the node itself is moved as before, except while a vr_arms stage has read the previous pose
//!   from here since it was published (the node has a vr_arms consumer) and neither the
//!   publishing stage's debug drawing nor the project setting [ALWAYS_UPDATE_SETTING] asks for it.
//!   A node read by something else (a stage of the user's own between two of ours, a script)
//!   gets no vr_arms read and so stays up to date;
//! - when a stage leaves the tree, [release] moves its nodes to their last published pose and
//!   forgets them, so a removed stage leaves its markers where the numbers were and the next
//!   stage reads the nodes again. A stage that is only paused or disabled keeps its entries:
//!   its readers go on reading its last outputs, as they would read its frozen nodes;
//! - scripts read a target's current pose with `VRArmTargets.global_transform_of(node)`.
//!
//! Everything here runs on the main thread (a stage in a threaded process group gets its own
//! table, finds nothing of the other threads' and falls back to the engine: slower, still right).

use std::cell::RefCell;
use std::collections::HashMap;

use godot::classes::{Node3D, ProjectSettings};
use godot::prelude::*;
use vr_arms_core::Pose;

use crate::convert::{pose, to_transform, to_vector3, vec3};
use crate::engine::alive;

/// Project setting: move every target node every frame, even when only vr_arms stages read it
/// (for scripts that read intermediate targets). Read once, when the first stage runs.
pub const ALWAYS_UPDATE_SETTING: &str = "vr_arms/pipeline/always_update_target_nodes";

#[derive(Clone, Copy)]
struct Entry {
    pose: Pose,
    /// Only the position was published (the node keeps its own rotation).
    position_only: bool,
    /// A vr_arms stage read this pose from the relay since it was published.
    read: bool,
    /// The node does not show `pose` (its move was skipped).
    stale: bool,
}

/// Instance ids are unique 64-bit numbers: a multiply spreads them well enough, at a fraction of
/// the default hasher's cost (the relay is asked several times per avatar and frame, and
/// `common::is_tracked` several more).
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_i32(&mut self, v: i32) {
        self.write_u64(v as u32 as u64);
    }
}

/// The hasher of maps keyed by instance ids.
pub(crate) type Ids = std::hash::BuildHasherDefault<IdHasher>;

#[derive(Default)]
struct Relay {
    entries: HashMap<InstanceId, Entry, Ids>,
    always_update: Option<bool>,
}

thread_local! {
    static RELAY: RefCell<Relay> = RefCell::new(Relay::default());
}

impl Relay {
    fn always_update(&mut self) -> bool {
        *self.always_update.get_or_insert_with(|| {
            let settings = ProjectSettings::singleton();
            settings.has_setting(ALWAYS_UPDATE_SETTING)
                && settings
                    .get_setting(ALWAYS_UPDATE_SETTING)
                    .try_to::<bool>()
                    .unwrap_or(false)
        })
    }

    /// Records `pose` for `node`; whether the node itself must be moved.
    fn publish(&mut self, node: &Gd<Node3D>, pose: Pose, position_only: bool, show: bool) -> bool {
        let always = show || self.always_update();
        let entry = self.entries.entry(node.instance_id()).or_insert(Entry {
            pose,
            position_only,
            read: false,
            stale: false,
        });
        let move_node = always || !entry.read;
        *entry = Entry {
            pose,
            position_only,
            read: false,
            stale: !move_node,
        };
        move_node
    }

    fn take(&mut self, node: &Gd<Node3D>) -> Option<Entry> {
        let entry = self.entries.get_mut(&node.instance_id())?;
        entry.read = true;
        Some(*entry)
    }
}

/// Adds [ALWAYS_UPDATE_SETTING] to the project settings (off), so it shows in the editor's
/// Project Settings with the others; a project that sets it keeps its value.
pub fn register_setting() {
    let mut settings = ProjectSettings::singleton();
    if !settings.has_setting(ALWAYS_UPDATE_SETTING) {
        settings.set_setting(ALWAYS_UPDATE_SETTING, &false.to_variant());
    }
    settings.set_initial_value(ALWAYS_UPDATE_SETTING, &false.to_variant());
    let mut info = VarDictionary::new();
    info.set("name", ALWAYS_UPDATE_SETTING);
    info.set("type", VariantType::BOOL.ord());
    settings.add_property_info(&info);
}

/// Moves every target node every frame (true) or only those something other than our stages
/// reads (false), from now on, whatever the project setting says.
pub fn set_always_update(on: bool) {
    RELAY.with_borrow_mut(|r| r.always_update = Some(on));
}

/// Whether every target node is moved every frame (the project setting, or the last
/// [set_always_update]).
pub fn always_update() -> bool {
    RELAY.with_borrow_mut(Relay::always_update)
}

/// Publishes a stage's output pose for `node` (moving the node when it must, see the module
/// docs); `show`: the publishing stage draws its targets, so the node is always moved.
pub fn publish(node: &Option<Gd<Node3D>>, p: &Pose, show: bool) {
    let Some(mut n) = alive(node) else { return };
    if RELAY.with_borrow_mut(|r| r.publish(&n, *p, false, show)) && n.is_inside_tree() {
        n.set_global_transform(to_transform(p));
    }
}

/// Publishes only a position for `node` (an elbow hint: the node keeps its rotation).
pub fn publish_position(node: &Option<Gd<Node3D>>, position: glam::Vec3, show: bool) {
    let Some(mut n) = alive(node) else { return };
    let p = Pose::new(position, glam::Quat::IDENTITY);
    if RELAY.with_borrow_mut(|r| r.publish(&n, p, true, show)) && n.is_inside_tree() {
        n.set_global_position(to_vector3(position));
    }
}

/// A target node's global pose: the relayed one if a vr_arms stage published it, else the
/// node's own (if it is set, alive and in the tree).
pub fn read(node: &Option<Gd<Node3D>>) -> Option<Pose> {
    let n = alive(node)?;
    match RELAY.with_borrow_mut(|r| r.take(&n)) {
        Some(e) if !e.position_only => Some(e.pose),
        Some(e) => {
            // The node's rotation is its own; only the position may be stale.
            let own = n
                .is_inside_tree()
                .then(|| pose(&n.get_global_transform()))?;
            Some(Pose::new(e.pose.position, own.rotation))
        }
        None => n.is_inside_tree().then(|| pose(&n.get_global_transform())),
    }
}

/// A target node's global position, relayed when published (see [read]).
pub fn read_position(node: &Option<Gd<Node3D>>) -> Option<glam::Vec3> {
    let n = alive(node)?;
    match RELAY.with_borrow_mut(|r| r.take(&n)) {
        Some(e) => Some(e.pose.position),
        None => n.is_inside_tree().then(|| vec3(n.get_global_position())),
    }
}

/// A stopping stage's outputs: each node whose move was skipped is moved to its last published
/// pose, and the relay forgets them all (their readers ask the nodes again).
pub fn release<'a>(nodes: impl IntoIterator<Item = &'a Option<Gd<Node3D>>>) {
    for node in nodes {
        let Some(mut n) = alive(node) else { continue };
        let Some(entry) = RELAY.with_borrow_mut(|r| r.entries.remove(&n.instance_id())) else {
            continue;
        };
        if entry.stale && n.is_inside_tree() {
            if entry.position_only {
                n.set_global_position(to_vector3(entry.pose.position));
            } else {
                n.set_global_transform(to_transform(&entry.pose));
            }
        }
    }
}

thread_local! {
    /// Finger rotations a `HandPoseDriver` wrote into a hand rig, by (rig skeleton, bone).
    static BONES: RefCell<HashMap<(InstanceId, i32), glam::Quat, Ids>> = RefCell::new(HashMap::default());
}

/// Records the local rotation a stage wrote into `bone` of `skeleton` (a hand rig only it
/// drives), so the stage that copies from that rig reads it here.
pub fn publish_bone(skeleton: InstanceId, bone: i32, rotation: glam::Quat) {
    BONES.with_borrow_mut(|b| b.insert((skeleton, bone), rotation));
}

/// The rotation last published for `bone` of `skeleton`, if a stage drives it.
pub fn read_bone(skeleton: InstanceId, bone: i32) -> Option<glam::Quat> {
    BONES.with_borrow(|b| b.get(&(skeleton, bone)).copied())
}

/// Forgets the published rotations of these bones (their driver stopped: something else, such
/// as an animation, moves them now and they are read from the skeleton again).
pub fn forget_bones(skeleton: InstanceId, bones: impl IntoIterator<Item = i32>) {
    BONES.with_borrow_mut(|b| {
        for bone in bones {
            b.remove(&(skeleton, bone));
        }
    });
}

/// A stage's `left_output` or `right_output` is about to be set to another node: the old one is
/// moved to its last published pose and forgotten (it is no longer this stage's to publish).
pub fn release_rewired_output(
    property: &StringName,
    left: &Option<Gd<Node3D>>,
    right: &Option<Gd<Node3D>>,
) {
    if *property == "left_output" {
        release([left]);
    } else if *property == "right_output" {
        release([right]);
    }
}
