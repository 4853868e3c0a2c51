//! Fingers from an [XRHandTracker] onto the hand-pose source skeleton, faded in over the
//! controller-driven pose while the runtime tracks the hand and out again when it stops.
//! Used by `HandPoseDriver`; the maths is `vr_arms_core::hand_tracking`.

use godot::classes::xr_hand_tracker::{HandJoint, HandJointFlags};
use godot::classes::{Skeleton3D, XrHandTracker, XrServer};
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::hand_pose::{finger_bones, hand_bone};
use vr_arms_core::hand_tracking::{FingerRest, HandRest, JOINT_COUNT, TrackingFade};

use crate::convert::{pose, quat, to_quaternion, vec3};

/// A rig's hand at rest and its finger bones' indices, for the skeleton (id, version) and side
/// it was read from.
type RigHand = ((InstanceId, u64, Side), HandRest, [i32; 15]);

/// What one hand's tracking remembers between frames.
#[derive(Default)]
pub struct HandTrackingSource {
    /// The rig's hand at rest, its finger bones, for the skeleton and version in the key.
    rest: Option<RigHand>,
    /// The last tracked pose, held while the fade runs out after tracking stops.
    last: Option<[Option<glam::Quat>; 15]>,
    /// Per finger bone, what this wrote last frame, and the pose under the tracked one: what the
    /// curl or an animation wrote, or, when nothing writes the bone again, what it held before
    /// tracking started.
    written: [Option<glam::Quat>; 15],
    base: [glam::Quat; 15],
    /// The skeleton written to, for `reset`.
    rig: Option<Gd<Skeleton3D>>,
    fade: TrackingFade,
}

impl HandTrackingSource {
    /// How much of the tracked pose shows now (0 to 1).
    pub fn weight(&self) -> f32 {
        self.fade.weight
    }

    /// Blends the tracked fingers of `tracker` (its path in the XRServer) over what `skeleton`'s
    /// finger bones hold now. Returns whether it wrote anything (the caller's own pose must then
    /// be written again next frame, since this one replaced it).
    pub fn apply(
        &mut self,
        skeleton: &mut Gd<Skeleton3D>,
        tracker: &StringName,
        side: Side,
        fade_s: f32,
        dt: f32,
    ) -> bool {
        let key = (skeleton.instance_id(), skeleton.get_version(), side);
        if self.rest.as_ref().map(|r| r.0) != Some(key) {
            self.rest = hand_rest(skeleton, side).map(|(rest, bones)| (key, rest, bones));
            self.last = None;
        }
        let Some((_, rest, bones)) = &self.rest else {
            return false;
        };
        let now = tracked_joints(tracker).and_then(|joints| rest.pose(&joints));
        let tracking = now.is_some();
        self.last = now.or(self.last);
        let weight = self.fade.update(tracking, fade_s, dt);
        let Some(last) = self.last.filter(|_| weight > 0.0) else {
            // Faded out: the bones get back what was under the tracked pose.
            self.reset();
            return false;
        };
        let bones = *bones;
        let rig = skeleton.instance_id();
        self.rig = Some(skeleton.clone());
        for (k, tracked) in last.iter().enumerate() {
            let (Some(tracked), bone) = (tracked, bones[k]) else {
                continue;
            };
            let now = quat(skeleton.get_bone_pose_rotation(bone));
            // Rewritten since (a curl, an animation): that is the pose under tracking now.
            if self.written[k].is_none_or(|w| w.angle_between(now) > 1e-5) {
                self.base[k] = now;
            }
            let local = self.base[k].slerp(*tracked, weight).normalize();
            skeleton.set_bone_pose_rotation(bone, to_quaternion(local));
            crate::relay::publish_bone(rig, bone, local);
            self.written[k] = Some(local);
        }
        true
    }

    /// Stops showing tracking at once (tracking turned off, the driver leaves the tree, or the
    /// fade ran out): the bones this wrote get their pose under tracking back, and the relay
    /// forgets them, so `HandPoseCopy` reads the skeleton again.
    pub fn reset(&mut self) {
        self.fade = TrackingFade::default();
        let Some(mut skeleton) = self.rig.take().filter(|s| s.is_instance_valid()) else {
            self.written = [None; 15];
            return;
        };
        let Some((_, _, bones)) = &self.rest else {
            self.written = [None; 15];
            return;
        };
        let bones = *bones;
        let mut forget = Vec::new();
        for ((written, base), &bone) in self.written.iter_mut().zip(&self.base).zip(&bones) {
            if let (Some(wrote), true) = (written.take(), bone >= 0) {
                let now = quat(skeleton.get_bone_pose_rotation(bone));
                // Only what nobody rewrote since.
                if wrote.angle_between(now) <= 1e-5 {
                    skeleton.set_bone_pose_rotation(bone, to_quaternion(*base));
                }
                forget.push(bone);
            }
        }
        crate::relay::forget_bones(skeleton.instance_id(), forget);
    }
}

/// The tracked joint positions (tracker space), or `None` while the tracker is absent, has no
/// data, or does not know where the palm's joints are.
pub(crate) fn tracked_joints(tracker: &StringName) -> Option<[glam::Vec3; JOINT_COUNT]> {
    let tracker = XrServer::singleton()
        .get_tracker(tracker)?
        .try_cast::<XrHandTracker>()
        .ok()?;
    if !tracker.get_has_tracking_data() {
        return None;
    }
    let mut joints = [glam::Vec3::ZERO; JOINT_COUNT];
    for (i, joint) in joints.iter_mut().enumerate() {
        let j = HandJoint::from_ord(i as i32);
        if !tracker
            .get_hand_joint_flags(j)
            .is_set(HandJointFlags::POSITION_VALID)
        {
            return None;
        }
        *joint = vec3(tracker.get_hand_joint_transform(j).origin);
    }
    Some(joints)
}

/// The rig's hand at rest, from `skeleton`'s rest pose, and its finger bones' indices (-1 for a
/// bone it lacks). `None` without a hand bone or the knuckles that make a palm.
fn hand_rest(skeleton: &Gd<Skeleton3D>, side: Side) -> Option<(HandRest, [i32; 15])> {
    let hand = skeleton.find_bone(hand_bone(side));
    if hand < 0 {
        return None;
    }
    let to_hand = pose(&skeleton.get_bone_global_rest(hand)).inverse();
    let names = finger_bones(side);
    let bones: [i32; 15] = std::array::from_fn(|k| skeleton.find_bone(names[k].as_str()));
    let in_hand = |bone: i32| to_hand.mul_pose(&pose(&skeleton.get_bone_global_rest(bone)));
    let position = |k: usize| (bones[k] >= 0).then(|| in_hand(bones[k]).position);
    let mut fingers = [None; 15];
    for k in 0..15 {
        let bone = bones[k];
        if bone < 0 {
            continue;
        }
        let here = in_hand(bone);
        // Toward the child; a tip bone continues its parent's direction (or its own +Y).
        let next = (k % 3 != 2).then(|| position(k + 1)).flatten();
        let prev = (k % 3 != 0).then(|| position(k - 1)).flatten();
        let direction = next
            .map(|n| n - here.position)
            .or(prev.map(|p| here.position - p))
            .and_then(vr_arms_core::finite::direction)
            .unwrap_or(here.rotation * glam::Vec3::Y);
        let parent_bone = skeleton.get_bone_parent(bone);
        let finger_parent = if k % 3 != 0 && bones[k - 1] >= 0 && parent_bone == bones[k - 1] {
            Some(k - 1)
        } else {
            None
        };
        let parent_rest_in_hand = if parent_bone >= 0 {
            in_hand(parent_bone).rotation
        } else {
            glam::Quat::IDENTITY
        };
        fingers[k] = Some(FingerRest {
            rotation_in_hand: here.rotation,
            direction_in_hand: direction,
            parent: finger_parent,
            parent_rest_in_hand,
        });
    }
    let rest = HandRest::new(
        glam::Vec3::ZERO,
        position(3)?,
        position(6)?,
        position(12)?,
        fingers,
    )?;
    Some((rest, bones))
}
