//! A node's bind to a skeleton: what it looked up and measured on the skeleton's bones is kept
//! until the skeleton, its bones (Godot's `get_version`, which changes with any bone's name,
//! parent or rest) or what else the node keys it on (bone names, a profile) change. One type
//! for every node that binds.

use godot::classes::Skeleton3D;
use godot::prelude::*;

/// The skeleton and version a node last bound to, with what else the bind depended on.
#[derive(Clone, Debug, PartialEq)]
pub struct SkeletonBind<K> {
    last: Option<(InstanceId, u64, K)>,
}

impl<K> Default for SkeletonBind<K> {
    fn default() -> Self {
        Self { last: None }
    }
}

impl<K: PartialEq> SkeletonBind<K> {
    /// Whether the node must bind again to `skeleton` with `extra`: the skeleton, its bones or
    /// `extra` differ from the last bind (or there was none). The new key is kept as the last.
    pub fn rebind(&mut self, skeleton: &Gd<Skeleton3D>, extra: K) -> bool {
        let key = (skeleton.instance_id(), skeleton.get_version(), extra);
        if self.last.as_ref() == Some(&key) {
            return false;
        }
        self.last = Some(key);
        true
    }

    /// Forgets the last bind: the next [`SkeletonBind::rebind`] binds again.
    pub fn forget(&mut self) {
        self.last = None;
    }

    /// Whether the node has bound since it last forgot.
    pub fn is_bound(&self) -> bool {
        self.last.is_some()
    }

    /// The skeleton of the last bind.
    pub fn skeleton(&self) -> Option<InstanceId> {
        self.last.as_ref().map(|(id, _, _)| *id)
    }
}
