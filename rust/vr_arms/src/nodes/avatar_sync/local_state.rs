//! What the owner of an avatar sends: its tracked points, inputs and revolver, read from the
//! scene.

use godot::classes::{Node3D, XrController3D};
use godot::prelude::*;
use vr_arms_core::hands::tracked_curls::tracked_finger_curls;
use vr_arms_core::net::{AvatarState, HandState};
use vr_arms_core::{Pose, Side};

use crate::convert::{pose, vec3};
use crate::shared::common::{alive, is_tracked, read_pose};
use crate::shared::hand_tracking_source::tracked_joints;

/// The scene nodes an avatar's state is read from.
pub struct LocalSources<'a> {
    pub root: &'a Option<Gd<Node3D>>,
    pub head: &'a Option<Gd<Node3D>>,
    pub hands: [&'a Option<Gd<Node3D>>; 2],
    /// Grip, trigger and tracking per hand; unset: the hand node.
    pub controllers: [&'a Option<Gd<Node3D>>; 2],
    pub grip_action: &'a StringName,
    pub trigger_action: &'a StringName,
    /// Per hand, the [XRHandTracker] whose joints give the finger curls (empty: none).
    pub hand_trackers: [&'a StringName; 2],
    /// The revolver's state, when there is one.
    pub revolver: Option<u8>,
    /// The player sits.
    pub seated: bool,
}

/// The avatar's state now; `None` without a root and a head.
pub fn read(src: &LocalSources) -> Option<AvatarState> {
    let root = alive(src.root)?;
    let head = alive(src.head)?;
    let root_at = vec3(root.get_global_position());
    let from_root = |p: Pose| Pose::new(p.position - root_at, p.rotation);
    let mut state = AvatarState {
        // Uniform in practice (the height fit scales the root evenly); the height's share.
        scale: root.get_global_basis().get_scale().y,
        root: root_at,
        head: from_root(pose(&head.get_global_transform())),
        head_tracked: is_tracked(&head),
        hands: [HandState::default(); 2],
        revolver: src.revolver,
        seated: src.seated,
    };
    for (side, h) in state.hands.iter_mut().enumerate() {
        // Fingers from hand tracking, while the runtime tracks the hand.
        let tracker = src.hand_trackers[side];
        if let Some(curls) = (!tracker.is_empty())
            .then(|| tracked_joints(tracker))
            .flatten()
            .and_then(|joints| tracked_finger_curls(&joints, Side::BOTH[side]))
        {
            h.hand_tracking = true;
            h.curls = curls;
        }
        let Some(node) = alive(src.hands[side]) else {
            continue;
        };
        // A pipeline marker's pose this frame comes from the relay (the stages may not move
        // the node itself).
        let Some(p) = read_pose(&Some(node.clone())) else {
            continue;
        };
        h.pose = from_root(p);
        let controller = alive(src.controllers[side]).unwrap_or(node);
        h.tracked = is_tracked(&controller);
        if let Ok(c) = controller.try_cast::<XrController3D>() {
            h.grip = c.get_float(src.grip_action);
            h.trigger = c.get_float(src.trigger_action);
        }
    }
    Some(state)
}
