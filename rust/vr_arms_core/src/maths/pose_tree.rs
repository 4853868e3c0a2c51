//! A few bones of a skeleton, in skeleton space, kept consistent while a frame writes them.
//!
//! A whole-body pass writes the spine, then reads the clavicles the spine moved, then writes
//! those, then reads the arms, and so on. Asking the engine for each global pose after each write
//! would make it recompute the skeleton every time; [`PoseTree`] keeps the bones a pass needs,
//! each relative to its parent in the tree, and works out their global poses itself.
//!
//! Every bone but the first has its direct parent in the tree before it (the caller lists whole
//! chains, parents first), so a bone's pose relative to its tree parent is its local pose.

use glam::{Quat, Vec3};

use crate::maths::pose::Pose;

/// Largest number of bones a tree holds (the upper body needs about 13).
pub const MAX_BONES: usize = 32;

/// No parent (a root of the tree).
const NONE: u8 = u8::MAX;

/// The bones of one pass: parents, local and global poses (skeleton space). Fixed-size, so a
/// frame allocates nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseTree {
    len: usize,
    parents: [u8; MAX_BONES],
    /// Per bone, the bits of itself and every bone under it.
    subtree: [u32; MAX_BONES],
    /// Per bone, the bits of itself and every bone above it.
    path: [u32; MAX_BONES],
    local: [Pose; MAX_BONES],
    global: [Pose; MAX_BONES],
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
        let mut tree = Self {
            len: parents.len(),
            parents: [NONE; MAX_BONES],
            subtree: [0; MAX_BONES],
            path: [0; MAX_BONES],
            local: [Pose::IDENTITY; MAX_BONES],
            global: [Pose::IDENTITY; MAX_BONES],
            stale: 0,
        };
        for (i, p) in parents.iter().enumerate() {
            match *p {
                Some(p) if p >= i => return Err(PoseTreeError::ParentNotBefore(i)),
                Some(p) => tree.parents[i] = p as u8,
                None => {}
            }
            tree.subtree[i] = 1 << i;
            // Parents come first: theirs is already known.
            tree.path[i] = (1 << i) | tree.parent(i).map_or(0, |p| tree.path[p]);
        }
        // Children come after their parents: from the last bone up, each adds its own to its
        // parent's.
        for i in (0..tree.len).rev() {
            if let Some(p) = tree.parent(i) {
                tree.subtree[p] |= tree.subtree[i];
            }
        }
        Ok(tree)
    }

    /// Number of bones.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the tree has no bones.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The frame's starting poses, as the engine reports them (skeleton space, one per bone in
    /// tree order; a missing or non-finite one keeps its parent's pose). Local poses follow.
    pub fn set_globals(&mut self, globals: &[Pose]) {
        for i in 0..self.len {
            let parent = self.parent(i).map(|p| self.global[p]);
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
        for i in 0..self.len {
            self.local[i] = locals
                .get(i)
                .map_or(Pose::IDENTITY, |l| l.sanitized(&Pose::IDENTITY));
        }
        self.stale = self.all();
        self.refresh(self.stale);
    }

    /// Bone `i`'s parent in the tree (`None` also for an index out of the tree).
    pub fn parent(&self, i: usize) -> Option<usize> {
        let p = *self.parents.get(i)?;
        (p != NONE).then_some(p as usize)
    }

    /// Bone `i`'s global pose (skeleton space) as written so far (the identity for an index out
    /// of the tree).
    pub fn global(&mut self, i: usize) -> Pose {
        if i >= self.len {
            return Pose::IDENTITY;
        }
        // Only the bone and those above it: a read of the chest after a write of the hips does
        // not work out the legs.
        let need = self.stale & self.path[i];
        if need != 0 {
            self.refresh(need);
        }
        self.global[i]
    }

    /// Bone `i`'s local pose (relative to its parent; a root's in skeleton space).
    pub fn local(&self, i: usize) -> Pose {
        self.local.get(i).copied().unwrap_or(Pose::IDENTITY)
    }

    /// Bone `i`'s local rotation (relative to its parent) as written so far.
    pub fn local_rotation(&self, i: usize) -> Quat {
        self.local(i).rotation
    }

    /// Writes bone `i`'s local rotation: it and every bone under it move (their global poses
    /// are worked out when one of them is next asked for).
    pub fn set_local_rotation(&mut self, i: usize, rotation: Quat) {
        if i >= self.len {
            return;
        }
        self.local[i].rotation =
            crate::maths::finite::unit_quat(rotation).unwrap_or(self.local[i].rotation);
        self.stale |= self.subtree[i];
    }

    /// Puts bone `i` at `pose` (skeleton space): its local pose becomes `pose` relative to its
    /// parent as the parent is now; it and every bone under it move. A non-finite pose is
    /// refused (nothing moves).
    pub fn set_global(&mut self, i: usize, pose: Pose) {
        if i >= self.len || !pose.is_finite() {
            return;
        }
        let local = match self.parent(i) {
            Some(p) => self.global(p).inverse().mul_pose(&pose),
            None => pose,
        };
        self.local[i] = Pose::new(
            local.position,
            crate::maths::finite::unit_quat(local.rotation).unwrap_or(self.local[i].rotation),
        );
        self.stale |= self.subtree[i];
    }

    /// Moves bone `i` by `delta` (skeleton space) without turning it: it and every bone under it
    /// move by the same `delta`. The global poses already worked out under it are moved along
    /// instead of being worked out again (exact: a move turns nothing). A non-finite `delta`
    /// is refused (nothing moves).
    pub fn move_by(&mut self, i: usize, delta: Vec3) {
        if i >= self.len || !delta.is_finite() {
            return;
        }
        let local_delta = match self.parent(i) {
            Some(p) => self.global(p).rotation.inverse() * delta,
            None => delta,
        };
        self.local[i].position += local_delta;
        // A bone whose pose is up to date has every bone above it up to date (a write marks
        // a bone's whole subtree), so each of these is its old pose moved by `delta`.
        let mut fresh = self.subtree[i] & !self.stale;
        while fresh != 0 {
            let j = fresh.trailing_zeros() as usize;
            fresh &= fresh - 1;
            self.global[j].position += delta;
        }
    }

    fn all(&self) -> u32 {
        if self.len >= 32 {
            u32::MAX
        } else {
            (1 << self.len) - 1
        }
    }

    /// The global poses of the bones in `bones` (stale ones), parents first (they come first
    /// in the tree): each one's parent must be up to date or among them.
    fn refresh(&mut self, bones: u32) {
        let mut stale = bones;
        while stale != 0 {
            let j = stale.trailing_zeros() as usize;
            stale &= stale - 1;
            self.global[j] = match self.parent(j) {
                Some(p) => self.global[p].mul_pose(&self.local[j]),
                None => self.local[j],
            };
        }
        self.stale &= !bones;
    }
}

/// Whether `bone` hangs below `ancestor` (at any depth) in a tree of `count` bones whose parents
/// `parent` gives; a walk longer than the tree (a cycle) ends it.
pub fn hangs_below(
    bone: usize,
    ancestor: usize,
    count: usize,
    parent: impl Fn(usize) -> Option<usize>,
) -> bool {
    let mut at = bone;
    for _ in 0..count {
        match parent(at) {
            Some(p) if p == ancestor => return true,
            Some(p) => at = p,
            None => return false,
        }
    }
    false
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

    /// A read works out only the bone and those above it: reading bone 3 after a write of the
    /// root leaves bone 2 (on another branch) for when it is read.
    #[test]
    fn a_read_works_out_only_the_bones_above_it() {
        let mut t = chain();
        t.set_local_rotation(0, Quat::from_rotation_y(0.5));
        assert_eq!(t.stale, 0b1111);
        t.global(3);
        assert_eq!(t.stale, 0b0100);
        let moved = t.global(2);
        assert_eq!(t.stale, 0);
        let want = Pose::new(Vec3::new(0.0, 1.0, 0.0), Quat::from_rotation_y(0.5))
            .mul_pose(&Pose::new(Vec3::new(0.5, 0.0, 0.0), Quat::IDENTITY));
        assert!(moved.position.distance(want.position) < 1e-6);
    }

    /// A bone moved without turning carries every bone under it by the same amount: the ones
    /// already worked out (bone 3, read before) and the ones not yet (bone 3 after a write
    /// under the moved bone), the same as putting the bone at its moved pose.
    #[test]
    fn a_move_carries_the_bones_under_it_worked_out_or_not() {
        let delta = Vec3::new(0.1, -0.2, 0.3);
        for write_under_first in [false, true] {
            let (mut moved, mut put) = (chain(), chain());
            for t in [&mut moved, &mut put] {
                t.set_local_rotation(0, Quat::from_rotation_y(0.5));
                if write_under_first {
                    t.set_local_rotation(3, Quat::from_rotation_z(0.4));
                }
                // Bones 0, 1 and 3 worked out; bone 2 not.
                t.global(3);
            }
            let at = put.global(1);
            put.set_global(1, Pose::new(at.position + delta, at.rotation));
            moved.move_by(1, delta);
            for i in 0..4 {
                let (a, b) = (moved.global(i), put.global(i));
                assert!(
                    a.position.distance(b.position) < 1e-6,
                    "bone {i}: {a:?} {b:?}"
                );
                assert!(a.rotation.angle_between(b.rotation) < 1e-5, "bone {i}");
            }
            // The moved bone's own pose relative to its parent moved too: a later read of its
            // branch after a write above it keeps the move.
            moved.set_local_rotation(0, Quat::from_rotation_y(0.2));
            put.set_local_rotation(0, Quat::from_rotation_y(0.2));
            assert!(moved.global(3).position.distance(put.global(3).position) < 1e-6);
        }
        let mut t = chain();
        let before = t.global(3);
        t.move_by(1, Vec3::NAN);
        assert_eq!(t.global(3), before, "a non-finite move is refused");
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
    fn a_bone_put_at_a_global_pose_carries_its_children() {
        let mut t = chain();
        let mut before = t.clone();
        let at = Pose::new(Vec3::new(0.3, 0.7, -0.2), Quat::from_rotation_y(0.8));
        t.set_global(1, at);
        let got = t.global(1);
        assert!(got.position.distance(at.position) < 1e-6);
        assert!(got.rotation.angle_between(at.rotation) < 1e-5);
        let child = at.mul_pose(&before.local[3]);
        assert!(t.global(3).position.distance(child.position) < 1e-5);
        assert_eq!(t.global(2), before.global(2));
        // A root's local pose is its global one; a non-finite pose moves nothing.
        t.set_global(0, at);
        assert!(t.global(0).position.distance(at.position) < 1e-6);
        let kept = t.clone();
        t.set_global(0, Pose::new(Vec3::NAN, Quat::IDENTITY));
        assert_eq!(t, kept);
        assert_eq!(before.global(0), chain().global(0));
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

    /// Every global pose worked out afresh from the local ones.
    fn from_scratch(t: &PoseTree) -> Vec<Pose> {
        let mut g: Vec<Pose> = Vec::new();
        for i in 0..t.len() {
            let p = t.parent(i).map(|p| g[p]);
            g.push(p.map_or(t.local[i], |p| p.mul_pose(&t.local[i])));
        }
        g
    }

    #[test]
    fn reads_between_writes_at_any_depth_see_every_write_above() {
        // 0 root; 1, 2 under it; 3 under 1; 4 under 3; 5 under 2.
        let parents = [None, Some(0), Some(0), Some(1), Some(3), Some(2)];
        let mut t = PoseTree::new(&parents).unwrap();
        let locals: Vec<Pose> = (0..6)
            .map(|i| {
                Pose::new(
                    Vec3::new(0.1 * i as f32, 0.2, 0.0),
                    Quat::from_rotation_z(0.1),
                )
            })
            .collect();
        t.set_locals(&locals);
        // Reads of a deep bone, a write above it, reads of others, writes below, in a mixed
        // order: each read agrees with the tree worked out afresh.
        let steps: [(Option<usize>, usize); 9] = [
            (None, 4),
            (Some(1), 5),
            (None, 4),
            (Some(0), 3),
            (Some(3), 2),
            (None, 4),
            (Some(2), 5),
            (Some(0), 1),
            // A leaf written alone, then read.
            (Some(4), 4),
        ];
        for (k, (write, read)) in steps.into_iter().enumerate() {
            if let Some(w) = write {
                t.set_local_rotation(w, Quat::from_rotation_x(0.3 + 0.2 * k as f32));
            }
            let want = from_scratch(&t);
            for i in [read, 4, 5, 0] {
                let got = t.global(i);
                assert!(
                    got.position.distance(want[i].position) < 1e-5,
                    "step {k} bone {i}"
                );
                assert!(
                    got.rotation.angle_between(want[i].rotation) < 1e-4,
                    "step {k} bone {i}"
                );
            }
        }
    }

    #[test]
    fn a_full_tree_of_max_bones_works_and_an_empty_one_is_empty() {
        assert!(PoseTree::new(&[]).unwrap().is_empty());
        // One chain of MAX_BONES bones, each 0.01 m above its parent.
        let parents: Vec<Option<usize>> = (0..MAX_BONES).map(|i| i.checked_sub(1)).collect();
        let mut t = PoseTree::new(&parents).unwrap();
        assert!(!t.is_empty());
        t.set_locals(&vec![
            Pose::new(Vec3::new(0.0, 0.01, 0.0), Quat::IDENTITY);
            MAX_BONES
        ]);
        let last = t.global(MAX_BONES - 1).position;
        assert!((last.y - 0.01 * MAX_BONES as f32).abs() < 1e-5, "{last}");
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
        // Indices out of the tree read the identity and write nothing.
        t.set_local_rotation(40, Quat::from_rotation_x(1.0));
        assert_eq!(t.global(40), Pose::IDENTITY);
        assert_eq!(t.global(5), Pose::IDENTITY);
        assert_eq!(t.parent(40), None);
    }
}
