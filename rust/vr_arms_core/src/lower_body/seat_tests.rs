//! The whole lower body seated: the reference humanoid (hips 0.95 m, thigh and shin 0.42 m, the
//! ankle 6 cm over the floor: a seat at knee height puts the eyes at 1.18 m).

use super::tests::{headset, input, knee_bend, run};
use super::*;

/// The eyes of the reference humanoid sitting on a chair at its knee height.
const SEATED_EYES: Vec3 = Vec3::new(0.0, 1.18, 0.09);

fn body(seated: bool) -> LowerBody {
    let (tree, bones, eyes) = reference_lower_body();
    let settings = LowerBodySettings {
        seated,
        ..Default::default()
    };
    LowerBody::new(settings, bones, &tree, Some(eyes))
}

/// Seated with the headset at seated eye height: the hips on the seat under the upright torso,
/// the feet ahead under the knees, the knees bent near a right angle, no knee on the floor
/// (held three seconds, past the kneeling time). The same headset without `seated` crouches:
/// the feet stay under the body.
#[test]
fn a_seated_player_sits_with_the_feet_ahead_under_the_knees() {
    let bones = reference_lower_body().1;
    let i = input(headset(SEATED_EYES, 0.0));
    let (mut t, out) = run(&mut body(true), &i, 270);
    assert!(out.head_miss < 0.01, "head {} off", out.head_miss);
    let hips = t.global(bones.hips).position;
    assert!((hips.y - 0.48).abs() < 0.03, "hips on the seat: {hips}");
    assert!(hips.z.abs() < 0.03, "under the upright torso: {hips}");
    for side in Side::BOTH {
        let leg = bones.legs.get(side).unwrap();
        let bend = knee_bend(&mut t, leg).to_degrees();
        assert!(
            (70.0..110.0).contains(&bend),
            "{side:?} knee {bend} degrees"
        );
        let [_, knee, ankle] = leg.map(|b| t.global(b).position);
        assert!(ankle.z > 0.3, "{side:?} foot ahead: {ankle}");
        assert!(
            (ankle.y - 0.06).abs() < 0.01,
            "{side:?} foot on the floor: {ankle}"
        );
        assert!(knee.y > 0.4, "{side:?} no knee on the floor: {knee}");
        assert!(out.feet.get(side).unwrap().planted);
    }
    let (mut t, _) = run(&mut body(false), &i, 270);
    let hips = t.global(bones.hips).position;
    let ankle = t.global(bones.legs.left.unwrap()[2]).position;
    assert!(
        ankle.z < 0.25,
        "crouching, the feet stay under the body: {ankle}, hips {hips}"
    );
}

/// The game says the player sits while they still stand, then they sit down over half a
/// second: the hips come down onto the seat with them (the seat is where the body sits, not
/// where it stood).
#[test]
fn told_first_then_sitting_down_the_hips_come_down_onto_the_seat() {
    let bones = reference_lower_body().1;
    let mut b = body(true);
    run(&mut b, &input(headset(Vec3::new(0.0, 1.65, 0.09), 0.0)), 90);
    let (rest, _, _) = reference_lower_body();
    for k in 0..45 {
        let eyes = Vec3::new(0.0, 1.65, 0.09).lerp(SEATED_EYES, k as f32 / 45.0);
        let mut t = rest.clone();
        b.update(Side::Left, &mut t, &input(headset(eyes, 0.0)), 1.0 / 90.0);
    }
    let (mut t, out) = run(&mut b, &input(headset(SEATED_EYES, 0.0)), 90);
    assert!(out.head_miss < 0.01, "head {} off", out.head_miss);
    let hips = t.global(bones.hips).position;
    assert!((hips.y - 0.48).abs() < 0.03, "hips on the seat: {hips}");
    let bend = knee_bend(&mut t, bones.legs.left.unwrap()).to_degrees();
    assert!((70.0..110.0).contains(&bend), "knee {bend} degrees");
    let torso = t.global(bones.head).position - hips;
    let lean = torso.angle_between(Vec3::Y).to_degrees();
    assert!(lean < 10.0, "the torso upright: {lean} degrees");
}

/// Standing up again (the game says so and the headset rises to standing height over a
/// second): the hips move no more than 2.5 cm a frame at 90 Hz (no pop) and the body ends
/// standing with the feet under it.
#[test]
fn standing_up_from_the_seat_is_smooth() {
    let bones = reference_lower_body().1;
    let mut b = body(true);
    let (mut seated, _) = run(&mut b, &input(headset(SEATED_EYES, 0.0)), 180);
    let ankle = seated.global(bones.legs.left.unwrap()[2]).position;
    assert!(ankle.z > 0.3, "seated first, the feet ahead: {ankle}");
    b.settings.seated = false;
    let (rest, _, _) = reference_lower_body();
    let mut last = Some(seated.global(bones.hips).position);
    let mut worst = 0.0f32;
    for k in 0..180 {
        let rise = (k as f32 / 90.0).min(1.0);
        let eyes = SEATED_EYES.lerp(Vec3::new(0.0, 1.65, 0.09), rise);
        let mut t = rest.clone();
        b.update(Side::Left, &mut t, &input(headset(eyes, 0.0)), 1.0 / 90.0);
        let hips = t.global(bones.hips).position;
        if let Some(l) = last {
            worst = worst.max(l.distance(hips));
        }
        last = Some(hips);
    }
    assert!(worst < 0.015, "the hips jumped {worst} m in a frame");
    let (mut t, out) = run(&mut b, &input(headset(Vec3::new(0.0, 1.65, 0.09), 0.0)), 60);
    assert!(out.head_miss < 0.01);
    let ankle = t.global(bones.legs.left.unwrap()[2]).position;
    assert!(
        ankle.z.abs() < 0.05,
        "standing, the feet under the body: {ankle}"
    );
}

/// Leaning forward from the seat to reach something (the head 25 cm ahead and 10 cm down for a
/// third of a second, within the spine's reach): the hips stay on the seat (within 5 cm) and
/// the spine bends over it; crouched at the same height instead, the same lean carries the hips
/// along.
#[test]
fn leaning_forward_from_the_seat_bends_over_it() {
    let bones = reference_lower_body().1;
    let lean = |seated: bool| {
        let mut b = body(seated);
        run(&mut b, &input(headset(SEATED_EYES, 0.0)), 180);
        let before = run(&mut b, &input(headset(SEATED_EYES, 0.0)), 1)
            .0
            .global(bones.hips);
        let (mut t, out) = run(
            &mut b,
            &input(headset(SEATED_EYES + Vec3::new(0.0, -0.1, 0.25), 0.3)),
            30,
        );
        assert!(out.head_miss < 0.01, "head {} off", out.head_miss);
        t.global(bones.hips).position - before.position
    };
    let (seated, crouched) = (lean(true), lean(false));
    assert!(seated.z.abs() < 0.05, "the hips stay on the seat: {seated}");
    assert!(seated.y.abs() < 0.03, "and do not sink into it: {seated}");
    assert!(
        crouched.z > seated.z + 0.05,
        "crouched, the hips go along: {crouched}"
    );
}

/// With `sit_from_headset`, nobody telling it: a player sits down (the headset from standing to
/// seated eye height over a second) and stays. Within three seconds the body sits, the feet ahead
/// under the knees, and no knee touches the floor on the way (it does not kneel first). Off,
/// the same headset never sits. Standing up again stands it up.
#[test]
fn sitting_down_is_seen_from_the_headset_when_asked() {
    let bones = reference_lower_body().1;
    let standing = Vec3::new(0.0, 1.65, 0.09);
    let sit_down = |from_headset: bool| {
        let mut b = body(false);
        b.settings.sit_from_headset = from_headset;
        run(&mut b, &input(headset(standing, 0.0)), 90);
        let (rest, _, _) = reference_lower_body();
        let mut lowest_knee = f32::INFINITY;
        let mut sat_after = None;
        for k in 0..360 {
            let eyes = standing.lerp(SEATED_EYES, (k as f32 / 90.0).min(1.0));
            let mut t = rest.clone();
            b.update(Side::Left, &mut t, &input(headset(eyes, 0.0)), 1.0 / 90.0);
            for side in Side::BOTH {
                let knee = bones.legs.get(side).unwrap()[1];
                lowest_knee = lowest_knee.min(t.global(knee).position.y);
            }
            if b.sitting() && sat_after.is_none() {
                sat_after = Some(k as f32 / 90.0);
            }
        }
        let (t, _) = run(&mut b, &input(headset(SEATED_EYES, 0.0)), 1);
        (b, t, lowest_knee, sat_after)
    };
    let (mut b, mut t, lowest_knee, sat_after) = sit_down(true);
    let sat_after = sat_after.expect("never sat");
    assert!(sat_after < 3.0, "sat {sat_after} s after starting down");
    assert!(lowest_knee > 0.15, "a knee went down to {lowest_knee} m");
    let ankle = t.global(bones.legs.left.unwrap()[2]).position;
    assert!(ankle.z > 0.3, "seated, the feet ahead: {ankle}");
    // Up again: standing, the feet back under the body.
    let (rest, _, _) = reference_lower_body();
    for k in 0..90 {
        let eyes = SEATED_EYES.lerp(standing, k as f32 / 90.0);
        b.update(
            Side::Left,
            &mut rest.clone(),
            &input(headset(eyes, 0.0)),
            1.0 / 90.0,
        );
    }
    assert!(!b.sitting(), "stood up");
    let (mut t, _) = run(&mut b, &input(headset(standing, 0.0)), 90);
    let ankle = t.global(bones.legs.left.unwrap()[2]).position;
    assert!(ankle.z.abs() < 0.05, "standing, the feet under: {ankle}");

    let (b, mut t, _, sat_after) = sit_down(false);
    assert_eq!(sat_after, None);
    assert!(!b.sitting());
    let ankle = t.global(bones.legs.left.unwrap()[2]).position;
    assert!(ankle.z < 0.25, "not asked, the feet stay under: {ankle}");
}

/// The reference humanoid with a left upper arm hanging from its chest (bone 2), as the
/// whole body gives the lower body its arms: the tree, its rest and the arm's bone.
fn with_an_arm() -> (PoseTree, LowerBody, usize) {
    let (mut rest, bones, eyes) = reference_lower_body();
    let n = rest.len();
    let mut parents: Vec<Option<usize>> = (0..n).map(|i| rest.parent(i)).collect();
    let mut globals: Vec<Pose> = (0..n).map(|i| rest.global(i)).collect();
    parents.push(Some(2));
    globals.push(Pose::new(Vec3::new(0.18, 1.4, 0.0), Quat::IDENTITY));
    let mut tree = PoseTree::new(&parents).expect("a tree");
    tree.set_globals(&globals);
    let settings = LowerBodySettings {
        seated: true,
        ..Default::default()
    };
    let body = LowerBody::new(settings, bones, &tree, Some(eyes))
        .with_arms(PerSide::new(Some((n, 0.6)), None));
    (tree, body, n)
}

/// Seated, a reach that twists the body 30 degrees (its root turned, as the body's yaw follows
/// the hands) turns the torso over still hips and feet: no foot steps, the hips keep their
/// facing, and the spine below the shoulders takes the twist, so the chest the arms hang from
/// faces the body's way. Turning 90 degrees (a swivel chair) turns the seat to within
/// `SEAT_TWIST_DEG` of the body and the feet step round with it.
#[test]
fn a_seated_twist_turns_the_torso_not_the_feet() {
    let bones = reference_lower_body().1;
    let (rest, mut b, _) = with_an_arm();
    let turned = |deg: f32| {
        let mut i = input(headset(SEATED_EYES, 0.0));
        // The skeleton turns with its root, as the avatar's does.
        i.root = Pose::new(Vec3::ZERO, Quat::from_rotation_y(deg.to_radians()));
        i.skeleton = i.root;
        i
    };
    let mut run_at = |deg: f32, frames: usize| {
        let mut last = None;
        for _ in 0..frames {
            let mut t = rest.clone();
            let out = b.update(Side::Left, &mut t, &turned(deg), 1.0 / 90.0);
            last = Some((t, out));
        }
        last.expect("a frame")
    };
    let feet = |o: &LowerBodyOutput| {
        PerSide::new(
            o.feet.left.unwrap().place.position,
            o.feet.right.unwrap().place.position,
        )
    };
    // A bone's turn in the world (the tree is in the skeleton's space, which turns).
    let world = |t: &mut PoseTree, bone: usize, deg: f32| {
        turned(deg).skeleton.rotation * t.global(bone).rotation
    };
    let yaw = |q: Quat| {
        let z = q * Vec3::Z;
        z.x.atan2(z.z).to_degrees()
    };
    let (mut before, out) = run_at(0.0, 180);
    let (feet_before, hips_before) = (feet(&out), world(&mut before, bones.hips, 0.0));
    let (mut twisted, out) = run_at(30.0, 180);
    let hips_turn = world(&mut twisted, bones.hips, 30.0)
        .angle_between(hips_before)
        .to_degrees();
    assert!(hips_turn < 1.0, "the hips turned {hips_turn} degrees");
    let chest = yaw(world(&mut twisted, 2, 30.0));
    assert!(
        (chest - 30.0).abs() < 1.0,
        "the chest faces {chest} degrees"
    );
    let spine = yaw(world(&mut twisted, 1, 30.0));
    assert!(
        (spine - 15.0).abs() < 1.0,
        "the spine below it {spine} degrees"
    );
    for side in Side::BOTH {
        let moved = feet(&out).get(side).distance(*feet_before.get(side));
        assert!(moved < 1e-4, "{side:?} foot moved {moved} m");
    }
    let (mut swivelled, out) = run_at(90.0, 270);
    let hips_turn = world(&mut swivelled, bones.hips, 90.0)
        .angle_between(hips_before)
        .to_degrees();
    assert!(
        (hips_turn - (90.0 - seat::SEAT_TWIST_DEG)).abs() < 2.0,
        "the seat turned {hips_turn} degrees"
    );
    let moved = feet(&out).left.distance(feet_before.left);
    assert!(
        moved > 0.1,
        "the feet stepped round with the chair ({moved} m)"
    );
}

/// With `sit_from_headset`, a player kneeling low (the head lower than any seat, held) who
/// rises to a seat's height: the knee comes up easing as a kneel ends, never jumping (at most
/// 1.5 cm a frame at 90 Hz; ending the kneel at once, it jumps 2.2 cm).
#[test]
fn rising_from_a_kneel_to_a_seats_height_eases_the_knee_up() {
    let bones = reference_lower_body().1;
    let mut b = body(false);
    b.settings.sit_from_headset = true;
    let standing = Vec3::new(0.0, 1.65, 0.09);
    let low = Vec3::new(0.0, 0.85, 0.2);
    run(&mut b, &input(headset(standing, 0.0)), 90);
    let (rest, _, _) = reference_lower_body();
    let mut knees = Vec::new();
    let path = [
        (standing, low, 90),
        (low, low, 180),
        (low, SEATED_EYES, 45),
        (SEATED_EYES, SEATED_EYES, 90),
    ];
    for (from, to, frames) in path {
        for k in 1..=frames {
            let eyes = from.lerp(to, k as f32 / frames as f32);
            let mut t = rest.clone();
            b.update(Side::Left, &mut t, &input(headset(eyes, 0.3)), 1.0 / 90.0);
            let lowest = Side::BOTH
                .map(|side| t.global(bones.legs.get(side).unwrap()[1]).position.y)
                .into_iter()
                .fold(f32::INFINITY, f32::min);
            knees.push(lowest);
        }
    }
    let knelt = knees[90..270].iter().fold(f32::INFINITY, |a, &k| a.min(k));
    assert!(knelt < 0.12, "held low, it kneels (the knee {knelt} m up)");
    // Rising (from the end of the held kneel on).
    let jump = knees[265..]
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0f32, f32::max);
    assert!(jump < 0.015, "the knee jumped {jump} m in a frame");
}
