//! A `Skeleton3D` seen through the core's [`SkeletonBones`]: the steps that measure their input
//! from the bones (the spine's chain, a clavicle and its arm) read a Godot skeleton the way they
//! read the core's pose tree. Only reads and conversion here.

use godot::classes::Skeleton3D;
use godot::obj::Gd;
use vr_arms_core::Pose;
use vr_arms_core::maths::skeleton_bones::SkeletonBones;

use crate::convert::pose;

/// A skeleton's bones for a core step (skeleton space, as the modifiers so far left them).
pub struct SkeletonRead<'a>(pub &'a Gd<Skeleton3D>);

impl SkeletonBones for SkeletonRead<'_> {
    fn parent(&self, bone: usize) -> Option<usize> {
        let p = self.0.get_bone_parent(bone as i32);
        usize::try_from(p).ok()
    }

    fn global(&mut self, bone: usize) -> Pose {
        pose(&self.0.get_bone_global_pose(bone as i32))
    }
}
