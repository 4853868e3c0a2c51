//! The joints of an [XRHandTracker], read for the core's finger curls (`vr_arms_core::
//! tracked_curls`): `HandPoseDriver` curls the local avatar's fingers from them, `VRAvatarSync`
//! sends them to the other players.

use godot::classes::XrHandTracker;
use godot::classes::XrServer;
use godot::classes::xr_hand_tracker::{HandJoint, HandJointFlags};
use godot::prelude::*;
use vr_arms_core::hands::hand_tracking::JOINT_COUNT;

use crate::convert::vec3;

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
