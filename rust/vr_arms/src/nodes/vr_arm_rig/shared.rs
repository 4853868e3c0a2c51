//! What `VRArmRig` shares with the target stages of its avatar: the shoulders, the arm
//! measurements, the body frame and the budget, measured once per frame.

use super::*;

impl VRArmRig {
    /// The shoulder's world position (current pose) and the arm's rest measurements in world
    /// units (the skeleton's global scale applied, so a scaled avatar's arm is compared with world
    /// distances at its real length), for the target-pipeline nodes.
    pub fn arm_info(&mut self, side: Side) -> Option<(glam::Vec3, ArmCalibration)> {
        self.current_frame()?;
        let arm = self.arms[side.index()]?;
        let frame = self.frame.as_mut()?;
        if let Some(known) = frame.arms[side.index()] {
            return known;
        }
        let mut local = frame.skeleton.get_bone_global_pose(arm.upper);
        // Where this frame's lower body (and spine follow) carries the shoulder.
        if let Some(lower) = frame.lower_body.as_ref().filter(|l| l.is_instance_valid())
            && let Some(p) = lower
                .bind()
                .carried(&frame.skeleton, arm.upper, pose(&local))
        {
            local = crate::convert::to_transform(&p);
        }
        let global = frame.to_world * local;
        // The lengths measured at bind time, scaled: no extra bone reads on this per-frame path
        // (a non-uniform scale is warned about and not supported).
        let mut calibration = arm.calibration;
        calibration.upper_length *= frame.scale;
        calibration.lower_length *= frame.scale;
        let info = Some((vec3(global.origin), calibration));
        frame.arms[side.index()] = Some(info);
        info
    }

    /// The body frame for the target stages: `body_root`'s pose and scale, else the skeleton's
    /// pose turned to the body's facing, at the skeleton's scale (measured once per frame and
    /// `body_root`).
    pub fn body_frame(&mut self, body_root: &Option<Gd<Node3D>>) -> Option<BodyFrame> {
        self.current_frame()?;
        let frame = self.frame.as_mut()?;
        let key = alive(body_root).map(|n| n.instance_id());
        if let Some((k, body)) = frame.body
            && k == key
        {
            return Some(body);
        }
        // Without a body root: the skeleton's pose turned to the body's measured facing (a
        // skeleton may be Z-up or face -Z inside its character).
        let body_in_skeleton = self.body_in_skeleton;
        let frame = self.frame.as_mut()?;
        let root = crate::shared::common::read_pose(body_root).unwrap_or_else(|| {
            let s = pose(&frame.to_world);
            vr_arms_core::Pose::new(s.position, (s.rotation * body_in_skeleton).normalize())
        });
        // The avatar's scale is its root's (a calibrated avatar); without a root, its
        // skeleton's. A skeleton in centimetres under a clean root is no smaller an avatar.
        let scale = alive(body_root)
            .filter(|n| n.is_inside_tree())
            .map_or(frame.scale, |n| {
                crate::shared::common::uniform_scale(&n.get_global_transform())
            });
        let body = BodyFrame::scaled(root, scale);
        frame.body = Some((key, body));
        Some(body)
    }

    /// This frame's measurements, made now if there are none or the skeleton moved since.
    pub(super) fn current_frame(&mut self) -> Option<&mut RigFrame> {
        if !self.frame.as_ref().is_some_and(RigFrame::is_current) {
            self.frame = None;
            let skeleton = self.base().get_skeleton().filter(|s| s.is_inside_tree())?;
            self.bind(&skeleton);
            let to_world = skeleton.get_global_transform();
            self.frame = Some(RigFrame::new(skeleton, to_world));
        }
        self.frame.as_mut()
    }

    /// The update interval in effect (see [crate::shared::budget::effective_interval]).
    pub(super) fn effective_interval(&self) -> u32 {
        if self.update_interval_frames <= 1 {
            return 1; // no engine call for the usual case
        }
        let skeleton = self.base().get_skeleton();
        crate::shared::budget::effective_interval(self.update_interval_frames, skeleton.as_ref())
    }

    /// Where this avatar is in its update interval (see `update_interval_frames`).
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// This arm's target node's global position, if set and alive.
    pub fn target_global_position(&self, side: Side) -> Option<glam::Vec3> {
        crate::relay::read_position(&self.valid_target(side.index()))
    }

    /// Whether this frame's pass posed one arm (solved it, or replayed its last solve): an arm
    /// it left alone (no target yet, as in the pass Godot runs at setup before any `_process`)
    /// gets no twist either, as in the core's body.
    pub fn posed(&self, side: Side) -> bool {
        self.posed[side.index()]
    }

    /// The bone index of one arm's upper arm, hand and lower arm: `[upper, lower, hand]`.
    /// Bound once; the rig's own pass rebinds every frame when the skeleton's bones change.
    pub fn arm_bones(&mut self, side: Side) -> Option<[i32; 3]> {
        if !self.bound_to.is_bound() {
            let skeleton = self.base().get_skeleton()?;
            self.bind(&skeleton);
        }
        self.arms[side.index()].map(|a| [a.upper, a.lower, a.hand])
    }

    /// The bone index of one arm's upper arm.
    pub fn upper_arm_bone(&mut self, side: Side) -> Option<i32> {
        self.arm_bones(side).map(|b| b[0])
    }

    /// The rest measurements of one arm in the skeleton's own space (binding the skeleton if
    /// needed).
    pub fn calibration(&mut self, side: Side) -> Option<ArmCalibration> {
        if !self.bound_to.is_bound() {
            let skeleton = self.base().get_skeleton()?;
            self.bind(&skeleton);
        }
        self.arms[side.index()].map(|a| a.calibration)
    }
}
