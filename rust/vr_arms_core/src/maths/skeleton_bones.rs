//! A skeleton's bones as the bone-writing steps read them, in skeleton space: the core's
//! [`PoseTree`], or an engine's skeleton behind the same two calls (the glue's `Skeleton3D`).
//!
//! A step that measures its input from the bones (the spine's chain, a clavicle and its arm)
//! does it once, here in the core, for every caller: the node graph's nodes and the
//! [`crate::body::Body`] read the same bones the same way.

use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;

/// Read access to a skeleton's bones (indices as the skeleton numbers them).
pub trait SkeletonBones {
    /// The bone's parent; `None` for a root (or a bone the caller does not have).
    fn parent(&self, bone: usize) -> Option<usize>;
    /// The bone's pose in skeleton space, as the writes so far left it.
    fn global(&mut self, bone: usize) -> Pose;
}

impl SkeletonBones for PoseTree {
    fn parent(&self, bone: usize) -> Option<usize> {
        PoseTree::parent(self, bone)
    }

    fn global(&mut self, bone: usize) -> Pose {
        PoseTree::global(self, bone)
    }
}
