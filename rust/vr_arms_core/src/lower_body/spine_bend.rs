//! The spine bent toward where the head must be: each spine bone between the hips and the head
//! turns by an even share of the turn that brings the head onto the target as seen from the
//! hips, a few times over (the share is the same for every bone, so the bend is a curve, not
//! a kink). Each round sizes its share by how far the round before moved the head for the share
//! it asked (the joints above the lowest carry less of the turn than it), so the rounds close in
//! on the bend within a few; they stop once the head points at the target within
//! [`DONE_CHORD`]. What is left (the chain cannot stretch) the caller takes up by moving the
//! hips.

use glam::{Quat, Vec3};

use crate::maths::pose::Pose;
use crate::maths::pose_tree::{MAX_BONES, PoseTree};

/// Most rounds of the bend.
const ROUNDS: usize = 6;

/// The bend is done when the head's direction from the lowest spine joint is this close to the
/// target's (the chord between the unit directions: 1e-5 is 6 um at 0.6 m).
const DONE_CHORD: f32 = 1e-5;

/// Bends `spine` (the bones between the hips and the head, hips side first) of `tree` so the
/// `head` bone points from the first spine joint toward `target` (skeleton space), turning
/// that direction by at most `max_turn` radians. Bones turn about their own joints; a target
/// on the first spine joint bends nothing.
pub fn bend_toward(tree: &mut PoseTree, spine: &[usize], head: usize, target: Vec3, max_turn: f32) {
    let Some(&first) = spine.first() else {
        return;
    };
    // Seen from the lowest spine joint (it does not move): where the head is and where it
    // should be, no further than `max_turn` from where it is.
    let pivot = tree.global(first).position;
    let mut head_at = tree.global(head).position;
    let (Some(start), Some(want)) = (
        (head_at - pivot).try_normalize(),
        (target - pivot).try_normalize(),
    ) else {
        return;
    };
    let full = crate::maths::finite::rotation_arc(start, want);
    let angle = full.angle_between(Quat::IDENTITY);
    let want = if angle > max_turn.max(0.0) {
        Quat::IDENTITY.slerp(full, max_turn.max(0.0) / angle) * start
    } else {
        want
    };
    // The chain's joints and turns (skeleton space), bent here and written to the tree once:
    // a bone turned about its joint carries the bones above it and the head.
    let n = spine.len().min(MAX_BONES);
    let mut at = [Vec3::ZERO; MAX_BONES];
    let mut turn = [Quat::IDENTITY; MAX_BONES];
    for (k, &bone) in spine[..n].iter().enumerate() {
        let g = tree.global(bone);
        (at[k], turn[k]) = (g.position, g.rotation);
    }
    // The first round asks each bone for an even share of the turn; each round after asks for
    // what the round before gave per share asked (at most three times the even share).
    let even = 1.0 / n as f32;
    let mut share = even;
    for _ in 0..ROUNDS {
        let Some(now) = (head_at - pivot).try_normalize() else {
            break;
        };
        let asked = (want - now).length();
        if asked < DONE_CHORD {
            break;
        }
        let step = Quat::IDENTITY.slerp(crate::maths::finite::rotation_arc(now, want), share);
        // Every bone turns by `step` about its own joint, lowest first, carrying those above:
        // bone j's segment (from joint j - 1) turns j times and bone j itself j + 1 times, so
        // one power of `step` per bone does it (the same turns as about each joint in turn).
        let head_arm = head_at - at[n - 1];
        let mut power = step;
        let mut below = at[0];
        turn[0] = step * turn[0];
        for k in 1..n {
            // `power` is step^k here: segment k (from joint k - 1) turns k times...
            let was = at[k];
            at[k] = at[k - 1] + power * (was - below);
            below = was;
            // ... and bone k itself k + 1 times.
            power *= step;
            turn[k] = power * turn[k];
        }
        // The head, past the last joint, turns n times.
        head_at = at[n - 1] + power * head_arm;
        for t in &mut turn[..n] {
            *t = t.normalize();
        }
        if let Some(after) = (head_at - pivot).try_normalize() {
            let got = (after - now).length();
            if got > DONE_CHORD {
                share = (share * asked / got).clamp(0.5 * even, 3.0 * even);
            }
        }
    }
    for (k, &bone) in spine[..n].iter().enumerate() {
        tree.set_global(bone, Pose::new(at[k], turn[k]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hips (0), spine (1), chest (2), neck (3), head (4): straight up, 0.15 to 0.2 m apart.
    fn chain() -> PoseTree {
        let mut t = PoseTree::new(&[None, Some(0), Some(1), Some(2), Some(3)]).unwrap();
        let at = |y: f32| Pose::new(Vec3::new(0.0, y, 0.0), Quat::IDENTITY);
        t.set_globals(&[at(1.0), at(1.15), at(1.35), at(1.55), at(1.65)]);
        t
    }

    /// The bend equals turning the bones one at a time about their joints, carrying everything
    /// above (a tree write per bone, as the bend is described), by an even share round after
    /// round until nothing is left: the sized rounds end where the even ones do, in fewer.
    #[test]
    fn the_bend_is_each_bone_turned_about_its_joint_in_turn() {
        let target = Vec3::new(0.3, 1.3, 0.4);
        let mut fast = chain();
        bend_toward(&mut fast, &[1, 2, 3], 4, target, 3.0);
        let mut slow = chain();
        let pivot = slow.global(1).position;
        let want = (target - pivot).normalize();
        // Each even round leaves about 0.4 of the one before: 40 leave nothing an f32 holds.
        for _ in 0..40 {
            let now = (slow.global(4).position - pivot).normalize();
            let step =
                Quat::IDENTITY.slerp(crate::maths::finite::rotation_arc(now, want), 1.0 / 3.0);
            for bone in [1, 2, 3] {
                let g = slow.global(bone);
                slow.set_global(bone, Pose::new(g.position, (step * g.rotation).normalize()));
            }
        }
        for bone in 0..5 {
            let (a, b) = (fast.global(bone), slow.global(bone));
            assert!(
                a.position.distance(b.position) < 1e-5,
                "bone {bone}: {a:?} {b:?}"
            );
            assert!(a.rotation.dot(b.rotation).abs() > 1.0 - 1e-6, "bone {bone}");
        }
    }

    #[test]
    fn a_bow_bends_every_spine_bone_and_brings_the_head_onto_the_target() {
        let mut t = chain();
        // The head 0.45 m forward and down, as far from the hips as the chain is long.
        let target = Vec3::new(0.0, 1.0, 0.0) + Vec3::new(0.0, 0.45, 0.45).normalize() * 0.65;
        bend_toward(&mut t, &[1, 2, 3], 4, target, 3.0);
        let pivot = Vec3::new(0.0, 1.15, 0.0);
        let dir = (t.global(4).position - pivot).normalize();
        // Within the bend's tolerance (a chord; six even rounds left 40 times as much).
        let miss = (dir - (target - pivot).normalize()).length();
        assert!(miss < 2.0 * DONE_CHORD, "{miss}");
        // A curve: each bone turned by about the same.
        let turns: Vec<f32> = [1, 2, 3]
            .map(|b| t.local_rotation(b).angle_between(Quat::IDENTITY))
            .to_vec();
        for w in turns.windows(2) {
            assert!((w[0] - w[1]).abs() < 0.1, "{turns:?}");
        }
        assert!(turns.iter().all(|a| *a > 0.1));
        // The hips do not turn (the caller moves them).
        assert_eq!(t.global(0).rotation, Quat::IDENTITY);
    }

    /// A head a hundredth of a degree off its target still turns (glam's rotation arc drops
    /// turns under about 0.04 degrees: the bend then jumped by that much between frames).
    #[test]
    fn a_tiny_correction_is_made_not_dropped() {
        let mut t = chain();
        let pivot = Vec3::new(0.0, 1.15, 0.0);
        let off = Quat::from_rotation_x(0.01f32.to_radians());
        let target = pivot + off * Vec3::new(0.0, 0.5, 0.0);
        bend_toward(&mut t, &[1, 2, 3], 4, target, 3.0);
        let dir = (t.global(4).position - pivot).normalize();
        // The chord (f32's acos reads an angle this small as 0).
        let miss = (dir - (target - pivot).normalize()).length();
        assert!(miss < 2e-5, "{miss}");
    }

    #[test]
    fn the_turn_is_limited_and_a_target_on_the_pivot_bends_nothing() {
        let mut t = chain();
        let behind = Vec3::new(0.0, 1.0, -0.65);
        bend_toward(&mut t, &[1, 2, 3], 4, behind, 0.5);
        let dir = (t.global(4).position - Vec3::new(0.0, 1.15, 0.0)).normalize();
        assert!((dir.angle_between(Vec3::Y) - 0.5).abs() < 0.02, "{dir}");
        // The same away from the skeleton's origin: the limit is from where the head is.
        let mut far = chain();
        let aside = Vec3::new(0.5, 0.0, 0.0);
        let moved: Vec<Pose> = (0..5)
            .map(|i| {
                let g = far.global(i);
                Pose::new(g.position + aside, g.rotation)
            })
            .collect();
        far.set_globals(&moved);
        bend_toward(&mut far, &[1, 2, 3], 4, behind + aside, 0.5);
        let dir = (far.global(4).position - Vec3::new(0.5, 1.15, 0.0)).normalize();
        assert!((dir.angle_between(Vec3::Y) - 0.5).abs() < 0.02, "{dir}");
        let mut u = chain();
        let before = u.clone();
        bend_toward(&mut u, &[1, 2, 3], 4, Vec3::new(0.0, 1.15, 0.0), 3.0);
        assert_eq!(u, before);
        bend_toward(&mut u, &[], 4, behind, 3.0);
        assert_eq!(u, before);
    }
}
