//! A few bones of a skeleton, in skeleton space, kept consistent while a frame writes them.
//!
//! A whole-body pass writes the spine, then reads the clavicles the spine moved, then writes
//! those, then reads the arms, and so on. Asking the engine for each global pose after each write
//! would make it recompute the skeleton every time; [`PoseTree`] keeps the bones a pass needs,
//! each relative to its parent in the tree, and works out their global poses itself.
//!
//! Every bone but the first has its direct parent in the tree before it (the caller lists whole
//! chains, parents first), so a bone's pose relative to its tree parent is its local pose.

use glam::Quat;

use crate::pose::Pose;

/// Largest number of bones a tree holds (the upper body needs about 13).
pub const MAX_BONES: usize = 32;

/// The bones of one pass: parents, local and global poses (skeleton space).
#[derive(Clone, Debug, PartialEq)]
pub struct PoseTree {
    parents: Vec<Option<usize>>,
    /// Per bone, the bits of itself and every bone under it.
    subtree: Vec<u32>,
    local: Vec<Pose>,
    global: Vec<Pose>,
    /// Bones whose global pose is out of date (a bone above them was written).
    stale: u32,
}

/// Why a tree could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoseTreeError {
    /// More than [`MAX_BONES`] bones.
    TooManyBones,
    /// Bone `.0` names a parent that is not before it in the list.
    ParentNotBefore(usize),
}

impl PoseTree {
    /// A tree whose bone `i` has the tree parent `parents[i]` (an index below `i`, or `None` for
    /// a root), all at the identity until [`PoseTree::set_globals`].
    pub fn new(parents: &[Option<usize>]) -> Result<Self, PoseTreeError> {
        if parents.len() > MAX_BONES {
            return Err(PoseTreeError::TooManyBones);
        }
        if let Some(i) = parents
            .iter()
            .enumerate()
            .position(|(i, p)| p.is_some_and(|p| p >= i))
        {
            return Err(PoseTreeError::ParentNotBefore(i));
        }
        let mut subtree: Vec<u32> = (0..parents.len()).map(|i| 1 << i).collect();
        // Children come after their parents: from the last bone up, each adds its own to its
        // parent's.
        for i in (0..parents.len()).rev() {
            if let Some(p) = parents[i] {
                subtree[p] |= subtree[i];
            }
        }
        Ok(Self {
            parents: parents.to_vec(),
            subtree,
            local: vec![Pose::IDENTITY; parents.len()],
            global: vec![Pose::IDENTITY; parents.len()],
            stale: 0,
        })
    }

    /// Number of bones.
    pub fn len(&self) -> usize {
        self.parents.len()
    }

    /// Whether the tree has no bones.
    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }

    /// The frame's starting poses, as the engine reports them (skeleton space, one per bone in
    /// tree order; a missing or non-finite one keeps its parent's pose). Local poses follow.
    pub fn set_globals(&mut self, globals: &[Pose]) {
        for i in 0..self.len() {
            let parent = self.parents[i].map(|p| self.global[p]);
            let fallback = parent.unwrap_or(Pose::IDENTITY);
            let g = globals.get(i).map_or(fallback, |g| g.sanitized(&fallback));
            self.global[i] = g;
            self.local[i] = match parent {
                Some(p) => p.inverse().mul_pose(&g),
                None => g,
            };
        }
        self.stale = 0;
    }

    /// The frame's starting poses as local poses (relative to each bone's parent; a root's in
    /// skeleton space), one per bone in tree order: cheaper than [`PoseTree::set_globals`] when
    /// the engine gives local poses directly. Bone scale is not modelled (a scaled bone's
    /// children would be placed as if it were unscaled): use `set_globals` for such a rig. A
    /// missing or non-finite pose is the identity.
    pub fn set_locals(&mut self, locals: &[Pose]) {
        for i in 0..self.len() {
            let l = locals
                .get(i)
                .map_or(Pose::IDENTITY, |l| l.sanitized(&Pose::IDENTITY));
            self.local[i] = l;
            self.global[i] = match self.parents[i] {
                Some(p) => self.global[p].mul_pose(&l),
                None => l,
            };
        }
        self.stale = 0;
    }

    /// Bone `i`'s parent in the tree.
    pub fn parent(&self, i: usize) -> Option<usize> {
        self.parents[i]
    }

    /// Bone `i`'s global pose (skeleton space) as written so far (worked out now if a bone
    /// above it was written since it was last asked for).
    pub fn global(&mut self, i: usize) -> Pose {
        if self.stale & (1 << i) != 0 {
            self.global[i] = match self.parents[i] {
                Some(p) => self.global(p).mul_pose(&self.local[i]),
                None => self.local[i],
            };
            self.stale &= !(1 << i);
        }
        self.global[i]
    }

    /// Bone `i`'s local pose (relative to its parent; a root's in skeleton space).
    pub fn local(&self, i: usize) -> Pose {
        self.local[i]
    }

    /// Bone `i`'s local rotation (relative to its parent) as written so far.
    pub fn local_rotation(&self, i: usize) -> Quat {
        self.local[i].rotation
    }

    /// Writes bone `i`'s local rotation: it and every bone under it move (their global poses
    /// are worked out when next asked for).
    pub fn set_local_rotation(&mut self, i: usize, rotation: Quat) {
        self.local[i].rotation =
            crate::finite::unit_quat(rotation).unwrap_or(self.local[i].rotation);
        self.stale |= self.subtree[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn chain() -> PoseTree {
        // 0 root, 1 and 2 its children, 3 under 1.
        let mut t = PoseTree::new(&[None, Some(0), Some(0), Some(1)]).unwrap();
        t.set_globals(&[
            Pose::new(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY),
            Pose::new(Vec3::new(0.0, 1.2, 0.0), Quat::from_rotation_z(0.3)),
            Pose::new(Vec3::new(0.5, 1.0, 0.0), Quat::IDENTITY),
            Pose::new(Vec3::new(0.1, 1.5, 0.0), Quat::from_rotation_x(0.2)),
        ]);
        t
    }

    #[test]
    fn locals_rebuild_the_globals() {
        let mut t = chain();
        let rebuilt = t.global(1).mul_pose(&t.local[3]);
        assert!(rebuilt.position.distance(Vec3::new(0.1, 1.5, 0.0)) < 1e-6);
        assert!(rebuilt.rotation.angle_between(Quat::from_rotation_x(0.2)) < 1e-5);
    }

    #[test]
    fn local_poses_give_the_same_tree_as_global_ones() {
        let mut from_globals = chain();
        let mut from_locals = PoseTree::new(&[None, Some(0), Some(0), Some(1)]).unwrap();
        from_locals.set_locals(&from_globals.local);
        for i in 0..4 {
            let (a, b) = (from_globals.global(i), from_locals.global(i));
            assert!(a.position.distance(b.position) < 1e-6);
            assert!(a.rotation.angle_between(b.rotation) < 1e-5);
        }
        from_locals.set_locals(&[Pose::new(Vec3::NAN, Quat::IDENTITY)]);
        assert!((0..4).all(|i| from_locals.global(i).is_finite()));
    }

    #[test]
    fn a_write_moves_the_bone_and_its_children_only() {
        let mut t = chain();
        let mut before = t.clone();
        t.set_local_rotation(1, Quat::from_rotation_z(0.3) * Quat::from_rotation_y(1.0));
        // Bone 3 keeps its pose relative to 1; bones 0 and 2 do not move.
        assert_eq!(t.global(0), before.global(0));
        assert_eq!(t.global(2), before.global(2));
        let expected = t.global(1).mul_pose(&before.local[3]);
        assert!(t.global(3).position.distance(expected.position) < 1e-6);
        assert!(t.global(3).position.distance(before.global(3).position) > 0.05);
        assert!(
            t.global(1)
                .rotation
                .angle_between(Quat::from_rotation_z(0.3) * Quat::from_rotation_y(1.0))
                < 1e-5
        );
    }

    #[test]
    fn bad_input_is_refused_or_repaired() {
        assert_eq!(
            PoseTree::new(&[None, Some(1)]),
            Err(PoseTreeError::ParentNotBefore(1))
        );
        assert_eq!(
            PoseTree::new(&[None; MAX_BONES + 1]),
            Err(PoseTreeError::TooManyBones)
        );
        let mut t = PoseTree::new(&[None, Some(0)]).unwrap();
        t.set_globals(&[Pose::new(Vec3::ONE, Quat::IDENTITY)]);
        // The missing second pose sits on its parent.
        assert_eq!(t.global(1).position, Vec3::ONE);
        t.set_local_rotation(1, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0));
        assert!(t.global(1).is_finite());
    }
}
