//! A rest pose that is not a standing stance (a game rig's combat stance: one foot ahead, the
//! other behind): the body stands as a person does, not as the rest.

use super::rest::MAX_STAGGER_SHARE;
use super::tests::{headset, input};
use super::*;

/// The reference lower body with its left foot `ahead` (m) and its right foot as far behind,
/// each shin slanting to its foot.
fn staggered(ahead: f32) -> (PoseTree, LowerBodyBones, Vec3) {
    let (mut tree, bones, eyes) = reference_lower_body();
    for (side, z) in [(Side::Left, ahead), (Side::Right, -ahead)] {
        let [_, knee, foot] = bones.legs.get(side).expect("both legs");
        let (k, f) = (tree.global(knee).position, tree.global(foot).position);
        tree.set_global(knee, Pose::new(k + Vec3::Z * 0.5 * z, Quat::IDENTITY));
        tree.set_global(foot, Pose::new(f + Vec3::Z * z, Quat::IDENTITY));
    }
    (tree, bones, eyes)
}

/// The ankles' places (left, right) after standing a second at the rest height on the rest
/// with its feet `ahead` (m) each way.
fn standing_ankles(ahead: f32) -> (Vec3, Vec3) {
    let (rest, bones, eyes) = staggered(ahead);
    let mut b = LowerBody::new(LowerBodySettings::default(), bones, &rest, Some(eyes));
    let i = input(headset(Vec3::new(0.0, 1.65, 0.09), 0.0));
    let mut t = rest.clone();
    for _ in 0..90 {
        t = rest.clone();
        b.update(&mut t, &i, 1.0 / 90.0);
    }
    let [left, right] = [Side::Left, Side::Right].map(|s| bones.legs.get(s).expect("a leg")[2]);
    (t.global(left).position, t.global(right).position)
}

/// Standing on a rest with the feet 30 cm apart fore and aft (a combat stance), the feet stand
/// at most a tenth of the leg (8.5 cm) apart, about the rest feet's middle; a rest whose feet
/// stand 4 cm apart (a performer's) keeps them where they are.
#[test]
fn a_staggered_rest_stands_with_the_feet_side_by_side() {
    let (l, r) = standing_ankles(0.15);
    let leg = 0.42_f32.hypot(0.075) * 2.0;
    assert!(
        l.z - r.z <= MAX_STAGGER_SHARE * leg + 1e-3,
        "left {l}, right {r}"
    );
    assert!(l.z - r.z > 0.08, "left {l}, right {r}");
    assert!((l.z + r.z).abs() < 1e-3, "left {l}, right {r}");
    let (l, r) = standing_ankles(0.02);
    assert!(
        (l.z - 0.02).abs() < 1e-3 && (r.z + 0.02).abs() < 1e-3,
        "left {l}, right {r}"
    );
}
