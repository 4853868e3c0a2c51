//! The bones a row of vr_arms modifiers share during a skeleton's modifier pass.
//!
//! Godot runs a skeleton's modifiers in child order and, after each one, recomputes the global
//! pose of every bone it wrote and of every bone under it. With our five bone writers in a row
//! (spine, clavicles, arms, twist, fingers) most of the skeleton was recomputed five times a
//! frame, and each writer read global poses through the engine again. Instead, consecutive
//! vr_arms modifiers share one pass: a bone's local pose is read once, global poses are worked
//! out here along the parent chain, and writes stay here until the last modifier of the row
//! writes each bone once. The row ends before anything that must see the bones as written: a
//! modifier that is not ours, an inactive one, or one with an influence below 1 (Godot blends it
//! by comparing the bones before and after it).
//!
//! Known limit: the parents are read once per skeleton version, and Godot does not change the
//! version when a bone is re-parented without adding or removing bones.

use std::cell::RefCell;
use std::collections::HashMap;

use glam::{Affine3A, Mat3, Quat, Vec3};
use godot::classes::{Skeleton3D, SkeletonModifier3D};
use godot::prelude::*;
use vr_arms_core::Pose;

use crate::convert::{quat, to_quaternion};

/// One skeleton's shared bones.
#[derive(Default)]
struct Pass {
    /// The skeleton's modifier children in order (None: to be listed again).
    modifiers: Option<Vec<InstanceId>>,
    /// Whether `child_order_changed` is connected (it clears `modifiers`).
    watching: bool,
    /// Skeleton version the parents were read for, and the parents.
    version: Option<u64>,
    parents: Vec<i32>,
    /// The vr_arms modifier the open row was handed to (None: no row open).
    handed_to: Option<InstanceId>,
    /// This row's bones: local poses read or written, global poses worked out.
    local: Vec<Option<Affine3A>>,
    rotation: Vec<Option<Quat>>,
    written: Vec<Option<Quat>>,
    global: Vec<Option<Affine3A>>,
    /// Bones written in this row and not yet in the skeleton, in the order first written.
    pending: Vec<i32>,
}

thread_local! {
    static PASSES: RefCell<HashMap<InstanceId, Pass>> = RefCell::new(HashMap::new());
}

/// A vr_arms modifier's part in its skeleton's pass, from [begin] to [end].
pub struct Turn {
    skeleton: Gd<Skeleton3D>,
    modifier: Gd<SkeletonModifier3D>,
    /// Whether the row was handed to this modifier (the one before checked it is at full
    /// influence).
    continued: bool,
}

/// Starts `modifier`'s turn: it continues the row the modifier before it handed over, or starts
/// a new row that reads the skeleton afresh.
pub fn begin(skeleton: &Gd<Skeleton3D>, modifier: &Gd<SkeletonModifier3D>) -> Turn {
    let me = modifier.instance_id();
    let continued = with_pass(skeleton, |pass| {
        if pass.handed_to == Some(me) {
            // The row goes on: its bones (and the skeleton's layout) are as the last turn left them.
            pass.handed_to = None;
            return true;
        }
        // A new row. Writes of a row whose last modifier did not run are of no use now.
        pass.clear_row();
        let version = skeleton.get_version();
        if pass.version != Some(version) {
            let count = skeleton.get_bone_count().max(0);
            pass.parents = (0..count).map(|b| skeleton.get_bone_parent(b)).collect();
            pass.version = Some(version);
            let n = pass.parents.len();
            pass.local = vec![None; n];
            pass.rotation = vec![None; n];
            pass.written = vec![None; n];
            pass.global = vec![None; n];
        }
        false
    });
    Turn {
        skeleton: skeleton.clone(),
        modifier: modifier.clone(),
        continued,
    }
}

impl Turn {
    /// The skeleton this turn works on.
    pub fn skeleton(&self) -> &Gd<Skeleton3D> {
        &self.skeleton
    }

    /// A bone's parent (-1 for a root or an unknown bone).
    pub fn parent(&self, bone: i32) -> i32 {
        with_pass(&self.skeleton, |p| {
            p.parents.get(bone as usize).copied().unwrap_or(-1)
        })
    }

    /// A bone's global pose in the skeleton's space, as `get_bone_global_pose` would give it with
    /// this row's writes applied (identity for an unknown bone).
    pub fn global(&self, bone: i32) -> Pose {
        with_pass(&self.skeleton, |p| {
            match p.global_affine(&self.skeleton, bone) {
                Some(a) => {
                    Pose::from_basis_origin(Mat3::from(a.matrix3), Vec3::from(a.translation))
                }
                None => Pose::IDENTITY,
            }
        })
    }

    /// A bone's local rotation, as `get_bone_pose_rotation` would give it with this row's
    /// writes applied.
    pub fn local_rotation(&self, bone: i32) -> Quat {
        with_pass(&self.skeleton, |p| p.rotation_of(&self.skeleton, bone))
    }

    /// Sets a bone's local rotation (in the skeleton when the row ends).
    pub fn set_rotation(&self, bone: i32, rotation: Quat) {
        with_pass(&self.skeleton, |p| p.write(bone, rotation));
    }
}

/// Ends the turn: hands the row to the next modifier when it is one of ours, active, at full
/// influence (and this one is at full influence too); else writes the row's bones.
pub fn end(turn: Turn) {
    let next = next_in_row(&turn);
    let mut skeleton = turn.skeleton;
    // The row's writes are taken out of the pass while the skeleton gets them (no borrow of the
    // pass across engine calls), and put back emptied (no allocation per frame).
    let row = with_pass(&skeleton, |pass| {
        pass.handed_to = next;
        next.is_none().then(|| {
            (
                std::mem::take(&mut pass.pending),
                std::mem::take(&mut pass.written),
            )
        })
    });
    let Some((mut pending, mut written)) = row else {
        return;
    };
    for &bone in &pending {
        if let Some(rotation) = written.get(bone as usize).copied().flatten() {
            skeleton.set_bone_pose_rotation(bone, to_quaternion(rotation));
        }
    }
    pending.clear();
    written.iter_mut().for_each(|w| *w = None);
    with_pass(&skeleton, |pass| {
        pass.pending = pending;
        pass.written = written;
        pass.clear_row();
    });
}

/// The modifier after this turn's when the row may continue into it.
fn next_in_row(turn: &Turn) -> Option<InstanceId> {
    let me = turn.modifier.instance_id();
    let after = |list: &[InstanceId]| {
        let at = list.iter().position(|&m| m == me)?;
        list.get(at + 1).copied()
    };
    let listed = with_pass(&turn.skeleton, |p| p.modifiers.as_deref().map(after));
    let next_id = match listed {
        Some(next) => next?,
        None => after(&list_modifiers(&turn.skeleton))?,
    };
    let next = Gd::<SkeletonModifier3D>::try_from_instance_id(next_id).ok()?;
    let ours = is_ours(&next);
    (ours
        && next.is_active()
        && next.get_influence() >= 1.0
        && (turn.continued || turn.modifier.get_influence() >= 1.0))
        .then_some(next_id)
}

/// Whether a modifier is one of the bone writers that share the pass.
fn is_ours(modifier: &Gd<SkeletonModifier3D>) -> bool {
    KINDS.with_borrow_mut(|k| {
        *k.entry(modifier.instance_id()).or_insert_with(|| {
            use crate::nodes::{
                clavicle_follow::ClavicleFollow, forearm_twist::ForearmTwist,
                hand_pose_copy::HandPoseCopy, upper_body_follow::UpperBodyFollow,
                vr_arm_rig::VRArmRig,
            };
            let m = modifier.clone();
            m.clone().try_cast::<VRArmRig>().is_ok()
                || m.clone().try_cast::<ClavicleFollow>().is_ok()
                || m.clone().try_cast::<UpperBodyFollow>().is_ok()
                || m.clone().try_cast::<ForearmTwist>().is_ok()
                || m.try_cast::<HandPoseCopy>().is_ok()
        })
    })
}

thread_local! {
    /// Whether a modifier (by instance) shares the pass: a node's class never changes.
    static KINDS: RefCell<HashMap<InstanceId, bool>> = RefCell::new(HashMap::new());
}

/// The skeleton's modifier children in order, kept until its children change. Also forgets
/// what it kept for skeletons and modifiers that no longer exist (avatars come and go).
fn list_modifiers(skeleton: &Gd<Skeleton3D>) -> Vec<InstanceId> {
    PASSES.with_borrow_mut(|p| p.retain(|id, _| id.lookup_validity()));
    KINDS.with_borrow_mut(|k| k.retain(|id, _| id.lookup_validity()));
    let list: Vec<InstanceId> = skeleton
        .get_children()
        .iter_shared()
        .filter_map(|c| c.try_cast::<SkeletonModifier3D>().ok())
        .map(|m| m.instance_id())
        .collect();
    let id = skeleton.instance_id();
    let connect = with_pass(skeleton, |p| {
        p.modifiers = Some(list.clone());
        !std::mem::replace(&mut p.watching, true)
    });
    if connect {
        let forget = Callable::from_fn("vr_arms_modifiers_changed", move |_| {
            PASSES.with_borrow_mut(|passes| {
                if let Some(p) = passes.get_mut(&id) {
                    p.modifiers = None;
                }
            });
        });
        let mut s = skeleton.clone();
        s.connect("child_order_changed", &forget);
    }
    list
}

fn with_pass<R>(skeleton: &Gd<Skeleton3D>, f: impl FnOnce(&mut Pass) -> R) -> R {
    PASSES.with_borrow_mut(|passes| f(passes.entry(skeleton.instance_id()).or_default()))
}

impl Pass {
    fn clear_row(&mut self) {
        self.handed_to = None;
        self.local.iter_mut().for_each(|l| *l = None);
        self.rotation.iter_mut().for_each(|r| *r = None);
        self.written.iter_mut().for_each(|w| *w = None);
        self.global.iter_mut().for_each(|g| *g = None);
        self.pending.clear();
    }

    fn known(&self, bone: i32) -> bool {
        bone >= 0 && (bone as usize) < self.parents.len()
    }

    /// The bone's local pose: as read at the row's start (once), with its written rotation.
    fn local_affine(&mut self, skeleton: &Gd<Skeleton3D>, bone: i32) -> Affine3A {
        let i = bone as usize;
        let read = match self.local[i] {
            Some(l) => l,
            None => {
                let l = crate::convert::affine(&skeleton.get_bone_pose(bone));
                self.local[i] = Some(l);
                l
            }
        };
        match self.written[i] {
            // The written rotation, with the pose's own position and scale.
            Some(rotation) => Affine3A::from_scale_rotation_translation(
                Vec3::new(
                    read.matrix3.x_axis.length(),
                    read.matrix3.y_axis.length(),
                    read.matrix3.z_axis.length(),
                ),
                rotation,
                Vec3::from(read.translation),
            ),
            None => read,
        }
    }

    fn global_affine(&mut self, skeleton: &Gd<Skeleton3D>, bone: i32) -> Option<Affine3A> {
        if !self.known(bone) {
            return None;
        }
        if let Some(g) = self.global[bone as usize] {
            return Some(g);
        }
        let local = self.local_affine(skeleton, bone);
        let parent = self.parents[bone as usize];
        let g = match self.global_affine(skeleton, parent) {
            Some(p) => p * local,
            None => local,
        };
        self.global[bone as usize] = Some(g);
        Some(g)
    }

    fn rotation_of(&mut self, skeleton: &Gd<Skeleton3D>, bone: i32) -> Quat {
        if !self.known(bone) {
            return Quat::IDENTITY;
        }
        let i = bone as usize;
        if let Some(r) = self.written[i].or(self.rotation[i]) {
            return r;
        }
        let r = quat(skeleton.get_bone_pose_rotation(bone));
        self.rotation[i] = Some(r);
        r
    }

    /// Records a bone's new local rotation (no engine call: the skeleton gets it when the row
    /// ends).
    fn write(&mut self, bone: i32, rotation: Quat) {
        if !self.known(bone) {
            return;
        }
        let i = bone as usize;
        if self.written[i].is_none() {
            self.pending.push(bone);
        }
        self.written[i] = Some(rotation);
        // Every global under the bone may change: they are worked out again when asked.
        self.global.iter_mut().for_each(|g| *g = None);
    }
}
