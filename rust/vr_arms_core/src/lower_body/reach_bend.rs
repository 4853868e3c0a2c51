//! The body turned toward a hand it cannot reach yet: reaching for the floor, a player brings
//! the shoulder over the hand rather than leaving the torso where the head alone puts it. With
//! the head held on the headset, the torso turns about the head in the body's forward plane
//! (its pitch): the smallest turn (at most `reach_bend_max_deg`, in full once the head is
//! [`FULL_AT_DROP_M`] below its standing height, none standing) that brings the farther-out
//! shoulder within [`REACH_SHARE`] of its arm's reach of its hand's target, for a hand below
//! its shoulder.

use glam::{Quat, Vec3};

use crate::side::{PerSide, Side};

/// The share of an arm's reach the body bends to bring a hand's target within: a little short
/// of straight, where the arm solve's soft reach still lands the hand on its target.
pub const REACH_SHARE: f32 = 0.97;

/// How far below its standing height the head must be (avatar metres) for the whole
/// `reach_bend_max_deg`; standing, none, and in between in proportion (no pop as the player
/// comes down).
pub const FULL_AT_DROP_M: f32 = 0.3;

/// How low the hips may go while the torso turns toward a hand, as a share of their lowest
/// height in a squat over the floor (`min_hips_height_share`): sitting back on the heels.
pub const HIPS_SHARE_OF_SQUAT: f32 = 0.5;

/// One arm, as the bend sees it this frame (one space, e.g. the skeleton's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmReach {
    /// The shoulder (the upper arm's joint) where the body has put it.
    pub shoulder: Vec3,
    /// Where the hand must go (the wrist's target).
    pub target: Vec3,
    /// The arm's reach: upper arm plus lower arm.
    pub reach: f32,
}

/// The turn in the body's forward plane about `head` (the head's joint, which stays where it is),
/// about the body's `across` axis (horizontal, unit: the avatar's right), that brings the
/// shoulder farther out of reach within [`REACH_SHARE`] of its reach, or as close as a turn of
/// at most `max_turn` radians can; `None` when every hand is within reach, above its shoulder
/// (reaching up the body does not bend: the head holds it) or not given.
pub fn turn(
    head: Vec3,
    across: Vec3,
    arms: &PerSide<Option<ArmReach>>,
    max_turn: f32,
) -> Option<Quat> {
    let excess = |a: &ArmReach| a.shoulder.distance(a.target) - REACH_SHARE * a.reach;
    let arm = Side::BOTH
        .into_iter()
        .filter_map(|s| *arms.get(s))
        .filter(|a| a.shoulder.is_finite() && a.target.is_finite() && a.reach.is_finite())
        .filter(|a| a.target.y < a.shoulder.y && excess(a) > 0.0)
        .max_by(|a, b| excess(a).total_cmp(&excess(b)))?;
    let axis = across.try_normalize()?;
    if max_turn.is_nan() || max_turn <= 0.0 {
        return None;
    }
    let miss = |angle: f32| {
        let moved = head + Quat::from_axis_angle(axis, angle) * (arm.shoulder - head);
        moved.distance(arm.target)
    };
    // The way that brings the shoulder closer.
    let sign = if miss(1e-3) <= miss(-1e-3) { 1.0 } else { -1.0 };
    let miss = |angle: f32| miss(sign * angle);
    let goal = REACH_SHARE * arm.reach;
    let angle = if miss(max_turn) > goal {
        // Not within reach even at the largest turn: the turn that comes closest (the
        // distance to a point from a circle about `head` has one minimum on the way).
        let (mut lo, mut hi) = (0.0, max_turn);
        for _ in 0..24 {
            let (a, b) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if miss(a) <= miss(b) {
                hi = b;
            } else {
                lo = a;
            }
        }
        0.5 * (lo + hi)
    } else {
        // The least turn that brings it within reach.
        let (mut lo, mut hi) = (0.0, max_turn);
        for _ in 0..20 {
            let mid = 0.5 * (lo + hi);
            if miss(mid) <= goal {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    };
    (angle > 1e-5).then(|| Quat::from_axis_angle(axis, sign * angle))
}

/// `turn` (about `head`) eased so the hips at `hips` swing no lower than
/// [`HIPS_SHARE_OF_SQUAT`] of the way from the floor (`floor_y`) to their squat height `squat`
/// (nor lower than they are): reaching down they may sit back onto the heels, no further.
pub fn keep_hips_over(turn: Quat, head: Vec3, hips: Vec3, floor_y: f32, squat: f32) -> Quat {
    let lowest = (floor_y + HIPS_SHARE_OF_SQUAT * (squat - floor_y)).min(hips.y);
    let swung = |share: f32| head + Quat::IDENTITY.slerp(turn, share) * (hips - head);
    if swung(1.0).y >= lowest {
        return turn;
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..16 {
        let mid = 0.5 * (lo + hi);
        if swung(mid).y >= lowest {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Quat::IDENTITY.slerp(turn, lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The avatar's right facing +Z.
    const RIGHT: Vec3 = Vec3::NEG_X;

    fn arm(shoulder: Vec3, target: Vec3) -> PerSide<Option<ArmReach>> {
        PerSide::new(
            Some(ArmReach {
                shoulder,
                target,
                reach: 0.5,
            }),
            None,
        )
    }

    #[test]
    fn the_hips_swing_down_no_lower_than_half_their_squat_height() {
        let head = Vec3::new(0.0, 0.7, 0.4);
        let hips = Vec3::new(0.0, 0.3, 0.1);
        // A turn swinging the hips forward and down, about 57 degrees.
        let q = Quat::from_axis_angle(RIGHT, 1.0);
        let swung = head + q * (hips - head);
        assert!(swung.y < 0.24 && swung.z > hips.z, "{swung}");
        // Half of a squat height of 0.5 over the floor at 0.
        let kept = keep_hips_over(q, head, hips, 0.0, 0.5);
        let at = head + kept * (hips - head);
        assert!((at.y - 0.25).abs() < 1e-3, "{at}");
        // A turn that keeps them high enough is left alone.
        let small = Quat::from_axis_angle(RIGHT, 0.05);
        assert_eq!(keep_hips_over(small, head, hips, 0.0, 0.5), small);
    }

    #[test]
    fn a_hand_within_reach_bends_nothing() {
        let a = arm(Vec3::new(0.2, 1.4, 0.0), Vec3::new(0.2, 1.0, 0.2));
        assert!(turn(Vec3::new(0.0, 1.6, 0.0), RIGHT, &a, 0.5).is_none());
        assert!(turn(Vec3::ZERO, RIGHT, &PerSide::new(None, None), 0.5).is_none());
        // Out of reach overhead: the head holds the body, no bend.
        let up = arm(Vec3::new(0.2, 1.4, 0.0), Vec3::new(0.2, 2.2, 0.0));
        assert!(turn(Vec3::new(0.0, 1.6, 0.0), RIGHT, &up, 0.5).is_none());
    }

    #[test]
    fn a_hand_out_of_reach_turns_the_shoulder_just_within_it_about_the_head() {
        let head = Vec3::new(0.0, 0.8, 0.4);
        let shoulder = Vec3::new(0.17, 0.64, 0.26);
        let target = Vec3::new(0.15, 0.12, 0.5);
        let q = turn(head, RIGHT, &arm(shoulder, target), 0.6).expect("a bend");
        let moved = head + q * (shoulder - head);
        let d = moved.distance(target);
        assert!(
            (d - REACH_SHARE * 0.5).abs() < 1e-3,
            "just within reach: {d}"
        );
        assert!(moved.z > shoulder.z, "the shoulder comes forward: {moved}");
        // A small allowed turn is not enough: it goes as far as it may.
        let most = turn(head, RIGHT, &arm(shoulder, target), 0.05).expect("a bend");
        assert!((most.angle_between(Quat::IDENTITY) - 0.05).abs() < 1e-4);
        // Only about the body's across axis: no twist, no side lean.
        let (axis, _) = q.to_axis_angle();
        assert!(axis.cross(RIGHT).length() < 1e-4, "{axis}");
    }

    #[test]
    fn the_arm_further_out_of_reach_decides_and_bad_input_bends_nothing() {
        let head = Vec3::new(0.0, 0.8, 0.4);
        let near = ArmReach {
            shoulder: Vec3::new(0.17, 0.64, 0.26),
            target: Vec3::new(0.15, 0.12, 0.5),
            reach: 0.5,
        };
        let far = ArmReach {
            shoulder: Vec3::new(-0.17, 0.64, 0.26),
            target: Vec3::new(-0.3, 0.05, 0.6),
            reach: 0.5,
        };
        let both = turn(head, RIGHT, &PerSide::new(Some(near), Some(far)), 1.0).unwrap();
        let alone = turn(head, RIGHT, &PerSide::new(None, Some(far)), 1.0).unwrap();
        assert!(both.angle_between(alone) < 1e-5);
        let nan = ArmReach {
            target: Vec3::NAN,
            ..near
        };
        assert!(turn(head, RIGHT, &PerSide::new(Some(nan), None), 1.0).is_none());
        assert!(turn(head, RIGHT, &PerSide::new(Some(near), None), f32::NAN).is_none());
        assert!(turn(head, Vec3::ZERO, &PerSide::new(Some(near), None), 1.0).is_none());
    }
}
