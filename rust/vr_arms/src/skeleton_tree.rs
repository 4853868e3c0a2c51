//! The core's [`PoseTree`] over some of a `Skeleton3D`'s bones: each added bone comes with its
//! ancestors (up to a bone already in, a stop bone, or the skeleton's root), so every tree bone's
//! parent is in the tree and its local pose is the skeleton's.

use godot::classes::Skeleton3D;
use godot::obj::Gd;
use vr_arms_core::maths::pose_tree::{MAX_BONES, PoseTree};

/// Engine bones gathered into a tree, parents first.
#[derive(Default)]
pub struct TreeBuilder {
    /// Engine bone index of each tree bone.
    pub bones: Vec<i32>,
    parents: Vec<Option<usize>>,
    /// A bone whose ancestors are not added (it becomes a root of the tree).
    pub stop: Option<i32>,
}

impl TreeBuilder {
    /// Adds `bone` and its ancestors not in yet; returns its tree index.
    pub fn add(&mut self, skeleton: &Gd<Skeleton3D>, bone: i32) -> Option<usize> {
        if bone < 0 {
            return None;
        }
        let mut chain = vec![bone];
        loop {
            let b = *chain.last()?;
            if self.bones.contains(&b) || Some(b) == self.stop {
                break;
            }
            let p = skeleton.get_bone_parent(b);
            if p < 0 {
                break;
            }
            chain.push(p);
        }
        for &b in chain.iter().rev() {
            if !self.bones.contains(&b) {
                let p = skeleton.get_bone_parent(b);
                self.parents.push(self.bones.iter().position(|t| *t == p));
                self.bones.push(b);
            }
        }
        self.bones.iter().position(|t| *t == bone)
    }

    /// An empty builder whose chains stop at `stop`.
    pub fn stopping_at(stop: Option<i32>) -> Self {
        Self {
            stop,
            ..Default::default()
        }
    }

    /// The tree (identity poses), or why there is none.
    pub fn tree(&self) -> Result<PoseTree, String> {
        PoseTree::new(&self.parents).map_err(|e| {
            format!("the body's chains have too many bones ({e:?}; at most {MAX_BONES})")
        })
    }

    /// The tree at the skeleton's rest pose.
    pub fn rest_tree(&self, skeleton: &Gd<Skeleton3D>) -> Result<PoseTree, String> {
        let mut tree = self.tree()?;
        let rest: Vec<_> = self
            .bones
            .iter()
            .map(|&b| crate::convert::pose(&skeleton.get_bone_global_rest(b)))
            .collect();
        tree.set_globals(&rest);
        Ok(tree)
    }
}
