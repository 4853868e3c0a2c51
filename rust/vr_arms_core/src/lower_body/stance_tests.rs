//! A rest pose that is not a standing stance (a game rig's combat stance: one foot ahead, the
//! other behind): the body stands as a person does, not as the rest.

use super::standing::MAX_STAGGER_SHARE;
use super::tests::{headset, input, knee_bend};
use super::*;

/// The tree and output after standing a second (90 frames, each from `rest`) with the eyes at
/// `eyes`, looking ahead.
fn stand(
    rest: &PoseTree,
    bones: LowerBodyBones,
    rig_eyes: Option<Vec3>,
    eyes: Vec3,
) -> (PoseTree, LowerBodyOutput) {
    let mut b = LowerBody::new(LowerBodySettings::default(), bones, rest, rig_eyes);
    let i = input(headset(eyes, 0.0));
    let mut last = None;
    for _ in 0..90 {
        let mut t = rest.clone();
        let out = b.update(Side::Left, &mut t, &i, 1.0 / 90.0);
        last = Some((t, out));
    }
    last.expect("frames")
}

/// The reference lower body with its left foot `ahead` (m) and its right foot as far behind,
/// both then `back` behind that, each shin slanting to its foot.
fn staggered(ahead: f32, back: f32) -> (PoseTree, LowerBodyBones, Vec3) {
    let (mut tree, bones, eyes) = reference_lower_body();
    for (side, z) in [(Side::Left, ahead - back), (Side::Right, -ahead - back)] {
        let [_, knee, foot] = bones.legs.get(side).expect("both legs");
        let (k, f) = (tree.global(knee).position, tree.global(foot).position);
        tree.set_global(knee, Pose::new(k + Vec3::Z * 0.5 * z, Quat::IDENTITY));
        tree.set_global(foot, Pose::new(f + Vec3::Z * z, Quat::IDENTITY));
    }
    (tree, bones, eyes)
}

/// The ankles' places (left, right) after standing a second at the rest height on the rest
/// with its feet `ahead` (m) each way of `back` behind the hips.
fn standing_ankles(ahead: f32, back: f32) -> (Vec3, Vec3) {
    let (rest, bones, eyes) = staggered(ahead, back);
    let (mut t, _) = stand(&rest, bones, Some(eyes), Vec3::new(0.0, 1.65, 0.09));
    let [left, right] = [Side::Left, Side::Right].map(|s| bones.legs.get(s).expect("a leg")[2]);
    (t.global(left).position, t.global(right).position)
}

/// Standing on a rest with the feet 30 cm apart fore and aft (a combat stance), 10 cm behind
/// the hips on average, the feet stand at most a tenth of the leg (8.5 cm) apart about the
/// point under the hip joints: such a rest's feet say nothing of where standing feet go. A
/// rest whose feet stand 4 cm apart (a performer's) keeps them where they are, behind the hips
/// as at rest.
#[test]
fn a_staggered_rest_stands_its_feet_a_tenth_of_the_leg_apart_under_the_hips() {
    let (l, r) = standing_ankles(0.15, 0.1);
    // The longer leg (the right, its foot 25 cm behind).
    let leg = 0.42_f32.hypot(0.125) * 2.0;
    assert!(
        l.z - r.z <= MAX_STAGGER_SHARE * leg + 1e-3,
        "left {l}, right {r}"
    );
    assert!(l.z - r.z > 0.08, "left {l}, right {r}");
    assert!((l.z + r.z).abs() < 0.01, "left {l}, right {r}");
    let (l, r) = standing_ankles(0.02, 0.1);
    assert!(
        (l.z + 0.08).abs() < 1e-3 && (r.z + 0.12).abs() < 1e-3,
        "left {l}, right {r}"
    );
}

/// The reference lower body resting on bent knees: each knee 20 cm ahead of its hip joint and
/// ankle (thigh and shin 46.5 cm, the knees bent 51 degrees, the hips where they were).
fn on_bent_knees() -> (PoseTree, LowerBodyBones) {
    let (mut tree, bones, _) = reference_lower_body();
    for side in Side::BOTH {
        let [_, knee, foot] = bones.legs.get(side).expect("both legs");
        let (k, f) = (tree.global(knee).position, tree.global(foot).position);
        tree.set_global(knee, Pose::new(k + Vec3::Z * 0.2, Quat::IDENTITY));
        tree.set_global(foot, Pose::new(f, Quat::IDENTITY));
    }
    (tree, bones)
}

/// A rest on bent knees, fitted to the headset by the calibration (its height measured from its
/// rest joints, legs included): standing at that height, the knees straighten to the leg's
/// longest exact reach (10 degrees) and the head stays on the headset, where the rest's own
/// height would leave the knees bent as at rest.
#[test]
fn a_rest_on_bent_knees_stands_on_straight_legs_at_the_height_it_is_fitted_to() {
    let (mut tree, bones) = on_bent_knees();
    let leg = |side: Side, tree: &mut PoseTree| {
        bones
            .legs
            .get(side)
            .expect("both legs")
            .map(|b| tree.global(b).position)
    };
    let legs = [leg(Side::Left, &mut tree), leg(Side::Right, &mut tree)];
    let measured =
        crate::rig::calibration::AvatarMeasures::from_rest(&crate::rig::calibration::RestJoints {
            head: Some(tree.global(bones.head).position),
            legs: Some(legs),
            ..Default::default()
        });
    let eyes = Vec3::new(0.0, measured.height_m - 0.11, 0.2);
    let (mut t, out) = stand(&tree, bones, None, eyes);
    assert!(out.head_miss < 0.005, "standing: {} m off", out.head_miss);
    for side in Side::BOTH {
        let bend = knee_bend(&mut t, bones.legs.get(side).unwrap()).to_degrees();
        assert!(bend < 10.5, "{side:?} knee bent {bend} degrees");
    }
}

/// The reference lower body resting with its pelvis turned `deg` degrees left (its legs with
/// it) under a torso that faces forward, as a combat stance rests.
fn pelvis_turned(deg: f32) -> (PoseTree, LowerBodyBones, Vec3) {
    let (mut tree, bones, eyes) = reference_lower_body();
    let first = bones.spine[0].expect("a spine");
    let torso = tree.global(first);
    let hips = tree.global(bones.hips);
    let turn = Quat::from_rotation_y(deg.to_radians());
    tree.set_global(bones.hips, Pose::new(hips.position, turn * hips.rotation));
    tree.set_global(first, torso);
    (tree, bones, eyes)
}

/// Standing on a rest whose pelvis is turned 30 degrees under a torso facing forward: the hip
/// joints stand side by side across the body (level fore and aft) and the torso still faces
/// forward. A pelvis turned 10 degrees (a captured performer's rest) is left turned.
#[test]
fn a_turned_rest_pelvis_stands_square_under_the_torso() {
    let stand = |deg: f32| {
        let (rest, bones, eyes) = pelvis_turned(deg);
        let (mut t, _) = stand(&rest, bones, Some(eyes), Vec3::new(0.0, 1.65, 0.09));
        let [l, r] = [Side::Left, Side::Right]
            .map(|s| t.global(bones.legs.get(s).expect("a leg")[0]).position);
        let chest = t.global(bones.spine[1].expect("a chest")).rotation;
        (l.z - r.z, chest.angle_between(Quat::IDENTITY).to_degrees())
    };
    let (stagger, chest) = stand(30.0);
    assert!(
        stagger.abs() < 0.005,
        "hip joints {stagger} m apart fore and aft"
    );
    assert!(chest < 1.0, "the chest turned {chest} degrees");
    let (stagger, _) = stand(10.0);
    let own = 0.3 * 10f32.to_radians().sin();
    assert!(
        (stagger.abs() - own).abs() < 0.005,
        "{stagger} against {own}"
    );
}

/// A rig without spine bones has nothing to turn back above a levelled pelvis: its turned rest
/// pelvis is left turned, so the torso on it still faces forward.
#[test]
fn without_a_spine_a_turned_rest_pelvis_stays_under_the_torso() {
    let (rest, mut bones, eyes) = pelvis_turned(30.0);
    bones.spine = [None; 4];
    let (mut t, _) = stand(&rest, bones, Some(eyes), Vec3::new(0.0, 1.65, 0.09));
    let chest = t.global(2).rotation;
    let turned = chest.angle_between(Quat::IDENTITY).to_degrees();
    assert!(turned < 1.0, "the chest turned {turned} degrees");
}
