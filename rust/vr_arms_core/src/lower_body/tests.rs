use super::*;

/// The headset of a player whose eyes are at `eyes`, looking along +Z pitched down by `pitch`.
pub(super) fn headset(eyes: Vec3, pitch: f32) -> Pose {
    Pose::new(
        eyes,
        Quat::from_rotation_y(std::f32::consts::PI) * Quat::from_rotation_x(-pitch),
    )
}

pub(super) fn input(headset: Pose) -> LowerBodyInput<'static> {
    LowerBodyInput::at_origin(headset)
}

/// Runs `frames` frames at 90 Hz, each from the rest pose; the last frame's tree and output.
pub(super) fn run(
    body: &mut LowerBody,
    i: &LowerBodyInput,
    frames: usize,
) -> (PoseTree, LowerBodyOutput) {
    let (rest, _, _) = reference_lower_body();
    let mut last = None;
    for _ in 0..frames {
        let mut t = rest.clone();
        let out = body.update(Side::Left, &mut t, i, 1.0 / 90.0);
        last = Some((t, out));
    }
    last.expect("at least one frame")
}

fn body() -> LowerBody {
    let (tree, bones, eyes) = reference_lower_body();
    LowerBody::new(LowerBodySettings::default(), bones, &tree, Some(eyes))
}

/// The knee's bend (radians): the angle between the thigh and the shin.
pub(super) fn knee_bend(t: &mut PoseTree, leg: [usize; 3]) -> f32 {
    let [u, l, f] = leg.map(|b| t.global(b).position);
    (l - u).angle_between(f - l)
}

/// Standing at the rest height: hips, spine and head turned as at rest, the body sunk a few
/// millimetres (no more than 1 cm) so the (straight) rest legs reach the floor with a slight
/// knee bend; the ankles where they are at rest.
#[test]
fn standing_at_the_rest_height_leaves_the_rest_pose() {
    let mut b = body();
    let (mut t, out) = run(&mut b, &input(headset(Vec3::new(0.0, 1.65, 0.09), 0.0)), 30);
    let (mut rest, bones, _) = reference_lower_body();
    let legs = bones
        .legs
        .left
        .unwrap()
        .into_iter()
        .chain(bones.legs.right.unwrap());
    let legs: Vec<usize> = legs.collect();
    for i in 0..rest.len() {
        let (a, r) = (t.global(i), rest.global(i));
        if legs.contains(&i) {
            continue;
        }
        let sunk = r.position - a.position;
        assert!(
            sunk.x.abs() < 1e-4 && sunk.z.abs() < 1e-4 && (0.0..0.01).contains(&sunk.y),
            "bone {i}: {a:?}"
        );
        assert!(a.rotation.angle_between(r.rotation) < 1e-3, "bone {i}");
    }
    for leg in [bones.legs.left.unwrap(), bones.legs.right.unwrap()] {
        let bend = knee_bend(&mut t, leg).to_degrees();
        assert!(
            (3.0..=10.01).contains(&bend),
            "a slight knee bend: {bend} degrees"
        );
        // Standing tall on straight legs, the feet stand under the hip joints, where they are
        // at rest (the stance opens only as the body lowers).
        let ankle = t.global(leg[2]).position;
        assert!(
            ankle.distance(rest.global(leg[2]).position) < 1e-4,
            "ankle {ankle}"
        );
    }
    assert!(out.head_miss < 0.01);
    let feet = out.feet.left.unwrap();
    assert!(feet.planted && feet.place.position.distance(Vec3::new(0.15, 0.0, 0.0)) < 1e-5);
}

#[test]
fn a_crouch_brings_the_head_down_on_the_headset_with_bent_knees_and_feet_on_the_floor() {
    for drop in [0.2, 0.4, 0.7] {
        let mut b = body();
        let eyes = Vec3::new(0.0, 1.65 - drop, 0.09);
        let (mut t, out) = run(&mut b, &input(headset(eyes, 0.0)), 30);
        let bones = reference_lower_body().1;
        let head = t.global(bones.head).position;
        assert!(
            out.head_miss < 0.01,
            "drop {drop}: head {} off",
            out.head_miss
        );
        assert!(
            head.distance(Vec3::new(0.0, 1.6 - drop, 0.0)) < 0.01,
            "drop {drop}: {head}"
        );
        let hips = t.global(bones.hips).position;
        assert!(
            hips.y < 0.95 - drop + 0.1,
            "drop {drop}: the hips drop: {hips}"
        );
        assert!(hips.z < -0.01, "drop {drop}: and go back: {hips}");
        for side in Side::BOTH {
            let leg = bones.legs.get(side).unwrap();
            assert!(knee_bend(&mut t, leg) > 0.3, "drop {drop}: knees bent");
            let [_, knee, foot] = leg.map(|i| t.global(i).position);
            assert!(
                knee.z > foot.z + 0.05,
                "drop {drop}: the knee ahead of the foot"
            );
            assert!(
                (foot.y - 0.06).abs() < 1e-3,
                "drop {drop}: the ankle over the floor"
            );
            assert!(knee.y > 0.0, "drop {drop}: the knee above the floor");
        }
    }
}

#[test]
fn a_bow_and_a_lean_bend_the_spine_and_keep_the_head_on_the_headset() {
    // A bow: looking down 45 degrees with the eyes 30 cm ahead and 25 cm lower.
    let mut b = body();
    let (mut t, out) = run(&mut b, &input(headset(Vec3::new(0.0, 1.4, 0.39), 0.8)), 30);
    assert!(out.head_miss < 0.01, "bow: {}", out.head_miss);
    let chest = t.global(2).rotation;
    assert!(chest.angle_between(Quat::IDENTITY) > 0.2, "the chest bends");
    // The head looks where the headset looks.
    let look = t.global(4).rotation * Vec3::Z;
    assert!(look.angle_between(Vec3::new(0.0, -0.8f32.sin(), 0.8f32.cos())) < 0.01);
    // Standing, then leaning 25 cm to the left: the spine curves, the hips move less than
    // the head.
    let (tree, bones, eyes) = reference_lower_body();
    let peek = LowerBodySettings {
        hips_over_feet: 0.5,
        ..Default::default()
    };
    let mut b = LowerBody::new(peek, bones, &tree, Some(eyes));
    run(&mut b, &input(headset(Vec3::new(0.0, 1.65, 0.09), 0.0)), 5);
    let (mut t, out) = run(&mut b, &input(headset(Vec3::new(0.25, 1.6, 0.09), 0.0)), 30);
    assert!(out.head_miss < 0.01, "lean: {}", out.head_miss);
    let hips = t.global(0).position;
    assert!(hips.x < 0.2, "{hips}");
    let left = out.feet.left.unwrap();
    assert!(left.planted, "the feet stand: {left:?}");
    assert!(t.global(1).rotation.angle_between(Quat::IDENTITY) > 0.05);
}

#[test]
fn on_tiptoe_the_legs_do_not_stretch_and_the_head_falls_short() {
    let mut b = body();
    let (mut t, out) = run(&mut b, &input(headset(Vec3::new(0.0, 1.85, 0.09), 0.0)), 10);
    // The hips at most at their standing height (sunk as standing), the head 20 cm short and
    // the few millimetres the body sank.
    let hips = t.global(0).position.y;
    assert!((0.94..=0.95).contains(&hips), "{hips}");
    assert!(
        (out.head_miss - (0.2 + 0.95 - hips)).abs() < 0.005,
        "{}",
        out.head_miss
    );
}

#[test]
fn turning_in_place_steps_the_feet_round_without_sliding_a_planted_one() {
    let mut b = body();
    let eyes = Vec3::new(0.0, 1.65, 0.09);
    run(&mut b, &input(headset(eyes, 0.0)), 5);
    let (rest, _, _) = reference_lower_body();
    let mut last: Option<LowerBodyOutput> = None;
    let mut steps = 0;
    for k in 0..180 {
        // The body turns 90 degrees over the first second, then stands.
        let yaw = std::f32::consts::FRAC_PI_2 * (k as f32 / 90.0).min(1.0);
        let mut i = input(headset(Quat::from_rotation_y(yaw) * eyes, 0.0));
        i.headset = i
            .headset
            .map(|h| Pose::new(h.position, Quat::from_rotation_y(yaw) * h.rotation));
        i.root = Pose::new(Vec3::ZERO, Quat::from_rotation_y(yaw));
        let mut t = rest.clone();
        let out = b.update(Side::Left, &mut t, &i, 1.0 / 90.0);
        if let Some(prev) = last {
            for side in Side::BOTH {
                let (a, p) = (out.feet.get(side).unwrap(), prev.feet.get(side).unwrap());
                if a.planted && p.planted {
                    assert_eq!(a.place, p.place, "a planted foot does not slide");
                }
                if !a.planted && p.planted {
                    steps += 1;
                }
            }
        }
        last = Some(out);
    }
    let out = last.unwrap();
    assert!(steps >= 2, "{steps} steps");
    for side in Side::BOTH {
        let f = out.feet.get(side).unwrap();
        assert!(f.planted);
        // Turned by steps to within the step angle of the body (a foot nearer than that stays).
        let off = (f.place.yaw - std::f32::consts::FRAC_PI_2).abs();
        assert!(off < 50f32.to_radians(), "{side:?}: {}", f.place.yaw);
        assert!(f.place.yaw > 0.5, "{side:?} turned");
    }
}

#[test]
fn a_lost_headset_holds_the_last_pose_and_none_before_does_nothing() {
    let mut b = body();
    let mut i = input(headset(Vec3::new(0.0, 1.25, 0.09), 0.0));
    i.headset = None;
    let (t, out) = run(&mut b, &i, 1);
    assert_eq!(out, LowerBodyOutput::default());
    assert_eq!(t, reference_lower_body().0);
    let crouch = input(headset(Vec3::new(0.0, 1.25, 0.09), 0.0));
    let (mut held, _) = run(&mut b, &crouch, 10);
    let (mut lost, _) = run(&mut b, &i, 1);
    assert!(lost.global(0).position.distance(held.global(0).position) < 1e-4);
}

/// `poses` says beforehand whether a frame poses the legs (the body skips measuring the arms
/// before the lower body when it will): before any headset, on a skeleton that cannot be
/// used, after one tracked headset with the headset lost, and when tracked again.
#[test]
fn poses_says_beforehand_whether_a_frame_has_hips() {
    let mut b = body();
    let tracked = input(headset(Vec3::new(0.0, 1.25, 0.09), 0.0));
    let lost = LowerBodyInput {
        headset: None,
        ..tracked
    };
    let broken = LowerBodyInput {
        skeleton: Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
        ..tracked
    };
    // A tracked headset on a broken skeleton is still kept for the frames after it.
    let broken_root = LowerBodyInput {
        root: Pose::new(Vec3::NAN, Quat::IDENTITY),
        headset: Some(headset(Vec3::new(0.0, 1.5, 0.09), 0.0)),
        ..lost
    };
    let frames = [
        (&lost, false),
        (&broken, false),
        (&tracked, true),
        (&lost, true),
        (&broken, false),
        (&broken_root, false),
        (&lost, true),
    ];
    for (n, (i, expected)) in frames.into_iter().enumerate() {
        let said = b.poses(i.headset, i.root, i.skeleton);
        let (_, out) = run(&mut b, i, 1);
        assert_eq!(said, expected, "frame {n}");
        assert_eq!(out.hips.is_some(), expected, "frame {n}");
    }
}

#[test]
fn hostile_input_gives_finite_bones() {
    let mut b = body();
    let crouch = input(headset(Vec3::new(0.0, 1.25, 0.09), 0.0));
    run(&mut b, &crouch, 5);
    for bad in [
        LowerBodyInput {
            floor_y: f32::NAN,
            scale: f32::INFINITY,
            ..crouch
        },
        LowerBodyInput {
            headset: Some(Pose::new(
                Vec3::new(0.0, 1.25, 0.09),
                Quat::from_xyzw(0.0, 1e9, 0.0, 0.0),
            )),
            skeleton: Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
            ..crouch
        },
        LowerBodyInput {
            headset: Some(Pose::new(Vec3::NAN, Quat::IDENTITY)),
            root: Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 3.0, 0.0, 0.0)),
            ..crouch
        },
    ] {
        let (mut t, out) = run(&mut b, &bad, 3);
        for i in 0..t.len() {
            assert!(t.global(i).is_finite(), "bone {i}: {bad:?}");
        }
        assert!(out.head_miss.is_finite());
        assert!(out.hips.is_none_or(|h| h.is_finite()));
    }
}

/// Standing up from a wide crouch: the feet planted wide cannot be reached from the standing
/// height, so they step back under the body (not the body staying sunk until it moves).
#[test]
fn standing_up_from_a_wide_crouch_steps_the_feet_back_under_the_body() {
    let (tree, bones, eyes) = reference_lower_body();
    let wide = LowerBodySettings {
        stance_width_m: 0.6,
        ..Default::default()
    };
    let mut b = LowerBody::new(wide, bones, &tree, Some(eyes));
    let (_, crouched) = run(&mut b, &input(headset(Vec3::new(0.0, 1.25, 0.09), 0.0)), 60);
    let left = crouched.feet.left.unwrap().place.position;
    assert!(left.x > 0.25, "the crouch opened the stance: {left}");
    let (_, stood) = run(
        &mut b,
        &input(headset(Vec3::new(0.0, 1.65, 0.09), 0.0)),
        120,
    );
    let left = stood.feet.left.unwrap();
    assert!(
        left.planted && (left.place.position.x - 0.15).abs() < 0.01,
        "back under the hip: {left:?}"
    );
    assert!(
        stood.head_miss < 0.006,
        "standing tall again: {}",
        stood.head_miss
    );
}

/// `reset` forgets the last headset: a lost headset right after it poses nothing (before it,
/// the last one is held).
#[test]
fn reset_forgets_the_last_headset() {
    let mut b = body();
    let crouch = input(headset(Vec3::new(0.0, 1.25, 0.09), 0.0));
    run(&mut b, &crouch, 10);
    let mut lost = crouch;
    lost.headset = None;
    assert!(
        run(&mut b, &lost, 1).1.hips.is_some(),
        "held before the reset"
    );
    b.reset();
    assert_eq!(run(&mut b, &lost, 1).1, LowerBodyOutput::default());
}

/// A scale that cannot be used (zero, negative, not finite) is the avatar's own size: the same
/// body as at scale 1.
#[test]
fn an_unusable_scale_is_the_avatars_own_size() {
    let crouch = input(headset(Vec3::new(0.3, 1.25, 0.2), 0.3));
    let (mut at_one, _) = run(&mut body(), &crouch, 30);
    for scale in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let odd = LowerBodyInput { scale, ..crouch };
        let (mut t, _) = run(&mut body(), &odd, 30);
        for i in 0..t.len() {
            assert!(
                t.global(i).position.distance(at_one.global(i).position) < 1e-5,
                "scale {scale}: bone {i}"
            );
        }
    }
}

/// Walking with the thumbstick (the origin and the headset carried along +Z at 1.2 m/s) with
/// the walk animation's share on: the output hands the legs to the animation, and the
/// procedural feet go with the body (no step, no planted foot left behind) so that when the walk
/// stops they stand under it and the legs come back without a step. With the share at 0 (the
/// default) the same walk steps the feet.
#[test]
fn walking_with_the_thumbstick_hands_the_legs_to_the_walk_animation() {
    let steps_while_walking = |share: f32| {
        let (tree, bones, eyes) = reference_lower_body();
        let settings = LowerBodySettings {
            walk_animation_share: share,
            ..Default::default()
        };
        let mut b = LowerBody::new(settings, bones, &tree, Some(eyes));
        let mut steps = 0;
        let mut last_share = 0.0;
        let mut worst_behind: f32 = 0.0;
        for k in 0..180 {
            let z = 1.2 * (k.min(90) as f32) / 90.0;
            let i = LowerBodyInput {
                origin: Some(Pose::from_position(Vec3::new(0.0, 0.0, z))),
                hands: Default::default(),
                ..input(headset(Vec3::new(0.0, 1.65, 0.09 + z), 0.0))
            };
            let mut t = tree.clone();
            let out = b.update(Side::Left, &mut t, &i, 1.0 / 90.0);
            if k == 89 {
                last_share = out.walk_animation_share;
            }
            for foot in [out.feet.left, out.feet.right].into_iter().flatten() {
                steps += usize::from(!foot.planted);
                if k > 150 {
                    worst_behind = worst_behind.max((z - foot.place.position.z).abs());
                }
            }
        }
        (steps, last_share, worst_behind)
    };
    let (steps, share, behind) = steps_while_walking(1.0);
    assert!(
        (share - 1.0).abs() < 1e-4,
        "the animation has the legs: {share}"
    );
    assert_eq!(steps, 0, "the procedural feet went with the body");
    assert!(
        behind < 0.02,
        "stopped, the feet are under the body: {behind}"
    );
    let (steps, share, _) = steps_while_walking(0.0);
    assert_eq!(share, 0.0);
    assert!(steps > 0, "procedural, the feet step");
}

/// A 15 cm step up for z > 0.4 (world), found "by a ray" under each foot's place.
struct StepUp;
impl ground::Ground for StepUp {
    fn height_at(&self, at: Vec3, _lowest: f32) -> Option<f32> {
        (at.z > 0.4).then_some(0.15)
    }
}

/// Walking up onto a step with the ground found under the feet: every planted foot stands on
/// what is under it (never in the step; never floating over the floor but for a foot leaving
/// its place, whose heel lifts up to `max_heel_lift_m`), the stepping foot
/// clears the step's edge (its ankle never under its standing height over what is under it: it
/// rises before it moves over the step), and at the end both ankles stand on the step. On the flat floor
/// alone (`update`) they stay on the floor, in the step.
#[test]
fn the_feet_step_up_onto_the_ground_found_under_them() {
    let walk = |found: bool, lift: f32| {
        let mut b = body();
        b.settings.max_heel_lift_m = lift;
        let (rest, bones, _) = reference_lower_body();
        let ankle_height = rest.clone().global(bones.legs.left.unwrap()[2]).position.y;
        let mut worst_off: f32 = 0.0;
        let mut last = None;
        for k in 0..360 {
            let z = (k as f32 / 180.0).min(1.0);
            // The player's head rises with the step as the body goes over it.
            let up = if z > 0.55 { 0.15 } else { 0.0 };
            let i = input(headset(Vec3::new(0.0, 1.65 + up, 0.09 + z), 0.0));
            let mut t = rest.clone();
            let out = if found {
                b.update(
                    Side::Left,
                    &mut t,
                    &LowerBodyInput {
                        ground: &StepUp,
                        ..i
                    },
                    1.0 / 90.0,
                )
            } else {
                b.update(Side::Left, &mut t, &i, 1.0 / 90.0)
            };
            for (foot, leg) in [out.feet.left, out.feet.right]
                .into_iter()
                .zip([bones.legs.left, bones.legs.right])
            {
                let foot = foot.unwrap();
                let ankle = t.global(leg.unwrap()[2]).position;
                let under = if ankle.z > 0.4 { 0.15 } else { 0.0 };
                if foot.planted {
                    let over = ankle.y - ankle_height - under;
                    assert!(
                        !found || over > -0.01,
                        "frame {k}: a planted foot in the step: {ankle}"
                    );
                    worst_off = worst_off.max(over);
                } else if found {
                    assert!(
                        ankle.y >= under + ankle_height - 0.001,
                        "frame {k}: {ankle}"
                    );
                }
            }
            last = Some(t);
        }
        let mut t = last.unwrap();
        let ankles = [bones.legs.left, bones.legs.right].map(|l| t.global(l.unwrap()[2]).position);
        (worst_off, ankles.map(|a| a.y - ankle_height))
    };
    let lift = LowerBodySettings::default().max_heel_lift_m;
    let (off, heights) = walk(true, lift);
    assert!(
        off < lift + 0.01,
        "planted feet on what is under them: {off}"
    );
    for h in heights {
        assert!((h - 0.15).abs() < 0.005, "on the step: {heights:?}");
    }
    let (off, _) = walk(true, 0.0);
    assert!(
        off < 0.01,
        "no heel lift, the hips sink for the feet: {off}"
    );
    let (_, flat) = walk(false, lift);
    for h in flat {
        assert!(h.abs() < 0.005, "the flat floor: {flat:?}");
    }
}

/// A rig without eye bones, its headset at the eye height the calibration fits it to (its
/// measured height less the 11 cm eyes to top): standing, the head bone reaches the headset's
/// head (the two guesses of where such a rig's eyes are agree; they differed by 6 cm, and every
/// real avatar without eyes stood 6 cm under the headset).
#[test]
fn a_rig_without_eyes_stands_with_its_eyes_where_the_calibration_fits_them() {
    let (mut tree, bones, _) = reference_lower_body();
    let head = tree.global(bones.head).position;
    let measured =
        crate::rig::calibration::AvatarMeasures::from_rest(&crate::rig::calibration::RestJoints {
            head: Some(head),
            ..Default::default()
        });
    let eye_height = measured.height_m - 0.11;
    let mut b = LowerBody::new(LowerBodySettings::default(), bones, &tree, None);
    let (_, out) = run(
        &mut b,
        &input(headset(Vec3::new(0.0, eye_height, 0.2), 0.0)),
        30,
    );
    assert!(out.head_miss < 0.005, "standing: {} m off", out.head_miss);
}

/// Frames at 90 Hz with the eyes at `eyes` (world), from the rest pose each; the last tree and
/// output, and the lowest knee (lower-leg bone) height seen.
fn hold(b: &mut LowerBody, eyes: Vec3, seconds: f32) -> (PoseTree, LowerBodyOutput, f32) {
    let (rest, bones, _) = reference_lower_body();
    let mut lowest = f32::INFINITY;
    let mut last = None;
    for _ in 0..(seconds * 90.0) as usize {
        let mut t = rest.clone();
        let out = b.update(Side::Left, &mut t, &input(headset(eyes, 0.0)), 1.0 / 90.0);
        for leg in [bones.legs.left, bones.legs.right].into_iter().flatten() {
            lowest = lowest.min(t.global(leg[1]).position.y);
        }
        last = Some((t, out));
    }
    let (t, out) = last.expect("a frame");
    (t, out, lowest)
}

/// Staying low (the eyes 60 cm down for 2 s) kneels on one knee: that knee on the floor, its
/// ankle behind it, the other foot ahead of its hip under a knee bent near a right angle, the
/// head still on the headset, no knee through the floor. A quick duck to the same height squats
/// (no knee on the floor); standing up again leaves the kneel.
#[test]
fn staying_low_kneels_on_one_knee_a_quick_duck_squats() {
    let (_, bones, _) = reference_lower_body();
    let legs = [bones.legs.left.unwrap(), bones.legs.right.unwrap()];
    let stand = Vec3::new(0.0, 1.65, 0.09);
    let low = Vec3::new(0.0, 1.10, 0.09);

    let mut b = body();
    hold(&mut b, stand, 0.5);
    let (_, _, lowest) = hold(&mut b, low, 0.3);
    assert!(lowest > 0.15, "a quick duck squats: lowest knee {lowest}");
    let (mut t, _, _) = hold(&mut b, stand, 1.0);
    for leg in legs {
        assert!(knee_bend(&mut t, leg).to_degrees() < 11.0, "stood up");
    }

    let (mut t, out, lowest) = hold(&mut b, low, 2.0);
    assert!(
        out.head_miss < 0.01,
        "the head on the headset: {}",
        out.head_miss
    );
    assert!(lowest > 0.04, "no knee through the floor: {lowest}");
    let knees = legs.map(|l| t.global(l[1]).position);
    let (down, up) = if knees[0].y < knees[1].y {
        (0, 1)
    } else {
        (1, 0)
    };
    assert!(
        (knees[down].y - kneel::KNEE_PAD_M).abs() < 0.01,
        "one knee on the floor: {knees:?}"
    );
    let ankle_down = t.global(legs[down][2]).position;
    assert!(
        ankle_down.z < knees[down].z - 0.3,
        "its shin lies back: {ankle_down}"
    );
    let hip_up = t.global(legs[up][0]).position;
    let ankle_up = t.global(legs[up][2]).position;
    assert!(
        ankle_up.z > hip_up.z + 0.2,
        "the other foot ahead: {ankle_up} {hip_up}"
    );
    assert!(
        (ankle_up.y - 0.06).abs() < 0.005,
        "on the floor: {ankle_up}"
    );
    let bend = knee_bend(&mut t, legs[up]).to_degrees();
    assert!(
        (60.0..120.0).contains(&bend),
        "its knee near a right angle: {bend}"
    );
    assert_eq!(
        out.feet
            .get(if down == 0 { Side::Left } else { Side::Right })
            .map(|f| f.planted),
        Some(true)
    );

    let (mut t, _, _) = hold(&mut b, stand, 2.0);
    for leg in legs {
        let bend = knee_bend(&mut t, leg).to_degrees();
        assert!(bend < 11.0, "stood up again: {bend}");
        assert!(
            t.global(leg[2])
                .position
                .distance(t.global(leg[0]).position)
                > 0.8
        );
    }

    let mut no = LowerBody::new(
        LowerBodySettings {
            kneel: false,
            ..Default::default()
        },
        bones,
        &reference_lower_body().0,
        Some(reference_lower_body().2),
    );
    let (_, _, lowest) = hold(&mut no, low, 2.0);
    assert!(lowest > 0.15, "kneeling off: a squat ({lowest})");
}

/// 15 cm down for z > 0.4 (world).
struct StepDown;
impl ground::Ground for StepDown {
    fn height_at(&self, at: Vec3, _lowest: f32) -> Option<f32> {
        (at.z > 0.4).then_some(-0.15)
    }
}

/// Walking down a 15 cm step (the player's floor stays flat, so the body sinks to reach it):
/// both ankles end on the lower ground, and once the body stands still the feet stand still
/// (a foot already at its place does not step on the spot again and again).
#[test]
fn the_feet_step_down_and_stand_still_there() {
    let mut b = body();
    let (rest, bones, _) = reference_lower_body();
    let legs = [bones.legs.left.unwrap(), bones.legs.right.unwrap()];
    let mut steps_standing = 0;
    let mut last = None;
    for k in 0..450 {
        let z = (k as f32 / 180.0).min(1.0);
        let i = input(headset(Vec3::new(0.0, 1.5, 0.09 + z), 0.0));
        let mut t = rest.clone();
        let out = b.update(
            Side::Left,
            &mut t,
            &LowerBodyInput {
                ground: &StepDown,
                ..i
            },
            1.0 / 90.0,
        );
        if k > 300 {
            for foot in [out.feet.left, out.feet.right].into_iter().flatten() {
                steps_standing += usize::from(!foot.planted);
            }
        }
        last = Some(t);
    }
    let mut t = last.unwrap();
    for leg in legs {
        let ankle = t.global(leg[2]).position;
        assert!(
            (ankle.y - (0.06 - 0.15)).abs() < 0.005,
            "on the lower ground: {ankle}"
        );
    }
    assert_eq!(steps_standing, 0, "standing still, the feet stand still");
}

/// A crouched walk (the eyes 55 cm down, moving on at 0.6 m/s for 3 s) stays a crouch: the
/// body never kneels, and no knee goes down to the floor (nor through it: a trailing knee, its
/// ankle far behind the low hip, turns out as far as keeps it off the floor; bent forward and
/// down alone it went 3 cm under the floor).
#[test]
fn a_crouched_walk_does_not_kneel() {
    let mut b = body();
    let (rest, bones, _) = reference_lower_body();
    let mut lowest = f32::INFINITY;
    let mut knelt = false;
    for k in 0..270 {
        let z = 0.6 * k as f32 / 90.0;
        let mut t = rest.clone();
        b.update(
            Side::Left,
            &mut t,
            &input(headset(Vec3::new(0.0, 1.10, 0.09 + z), 0.0)),
            1.0 / 90.0,
        );
        knelt |= b.kneel.pose().is_some();
        for leg in [bones.legs.left, bones.legs.right].into_iter().flatten() {
            lowest = lowest.min(t.global(leg[1]).position.y);
        }
    }
    assert!(!knelt, "moving, the body did not kneel");
    assert!(
        lowest > kneel::KNEE_PAD_M + 0.01,
        "the lowest knee {lowest}"
    );
}

/// Kneeling on lower ground found under the feet (walked down a 15 cm step, the player's floor
/// still the upper one): the knee goes down onto that ground, not onto the floor 15 cm above it.
#[test]
fn a_knee_kneels_on_the_ground_its_foot_stands_on() {
    let mut b = body();
    let (rest, bones, _) = reference_lower_body();
    let legs = [bones.legs.left.unwrap(), bones.legs.right.unwrap()];
    let mut last = None;
    for k in 0..(450 + 270) {
        let z = (k as f32 / 180.0).min(1.0);
        // Down the step, then the eyes 55 cm lower for 3 s.
        let eyes_y = if k < 450 { 1.5 } else { 0.95 };
        let i = input(headset(Vec3::new(0.0, eyes_y, 0.09 + z), 0.0));
        let mut t = rest.clone();
        b.update(
            Side::Left,
            &mut t,
            &LowerBodyInput {
                ground: &StepDown,
                ..i
            },
            1.0 / 90.0,
        );
        last = Some(t);
    }
    let mut t = last.unwrap();
    assert!(b.kneel.pose().is_some(), "kneeling");
    let lowest = legs
        .map(|l| t.global(l[1]).position.y)
        .into_iter()
        .fold(f32::INFINITY, f32::min);
    assert!(
        (lowest - (-0.15 + kneel::KNEE_PAD_M)).abs() < 0.01,
        "the knee on the lower ground: {lowest}"
    );
}

/// The reference lower body with toes bones: each foot's ball 12 cm ahead of the ankle and
/// 2 cm over the floor (its toes' tips another 6 cm ahead); the tree, its bones, the eyes.
fn lower_body_with_toes() -> (PoseTree, LowerBodyBones, Vec3) {
    let (mut rest, mut bones, eyes) = reference_lower_body();
    let mut parents: Vec<Option<usize>> = (0..rest.len()).map(|i| rest.parent(i)).collect();
    let mut globals: Vec<Pose> = (0..rest.len()).map(|i| rest.global(i)).collect();
    for side in Side::BOTH {
        let foot = bones.legs.get(side).expect("a leg")[2];
        let at = globals[foot].position;
        parents.push(Some(foot));
        globals.push(Pose::from_position(Vec3::new(at.x, 0.02, 0.12)));
        *bones.toes.get_mut(side) = Some(globals.len() - 1);
    }
    let mut tree = PoseTree::new(&parents).expect("a valid tree");
    tree.set_globals(&globals);
    (tree, bones, eyes)
}

/// Kneeling with toes bones: the kneeling foot's ball of the foot at its standing height
/// (2 cm over the floor), its toes bent back flat on the floor (their tips too, not through
/// it); the standing foot's toes as they were.
#[test]
fn a_kneeling_foot_bends_its_toes_flat_on_the_floor() {
    let (rest, bones, eyes) = lower_body_with_toes();
    let mut b = LowerBody::new(LowerBodySettings::default(), bones, &rest, Some(eyes));
    let frame = |b: &mut LowerBody, eyes: Vec3| {
        let mut t = rest.clone();
        b.update(Side::Left, &mut t, &input(headset(eyes, 0.0)), 1.0 / 90.0);
        t
    };
    for _ in 0..45 {
        frame(&mut b, Vec3::new(0.0, 1.65, 0.09));
    }
    let mut t = rest.clone();
    for _ in 0..180 {
        t = frame(&mut b, Vec3::new(0.0, 1.10, 0.09));
    }
    let legs = [bones.legs.left.unwrap(), bones.legs.right.unwrap()];
    let down = if t.global(legs[0][1]).position.y < t.global(legs[1][1]).position.y {
        0
    } else {
        1
    };
    let knee = t.global(legs[down][1]).position;
    assert!(
        (knee.y - kneel::KNEE_PAD_M).abs() < 0.01,
        "kneeling: {knee}"
    );
    let toes = [bones.toes.left.unwrap(), bones.toes.right.unwrap()];
    let ball = t.global(toes[down]);
    assert!((ball.position.y - 0.02).abs() < 0.003, "the ball: {ball:?}");
    let tip = ball.transform_point(Vec3::new(0.0, 0.0, 0.06));
    assert!(
        (tip.y - 0.02).abs() < 0.003,
        "the toes flat on the floor: {tip}"
    );
    let up = toes[1 - down];
    assert!(
        t.local_rotation(up).angle_between(rest.local_rotation(up)) < 1e-5,
        "the standing foot's toes untouched"
    );
}

/// Kneeling, the player sways 6 cm to the side (slowly): the knee on the floor stays where it
/// went down, but for the few millimetres the thigh's length needs (it slid 6 cm with the
/// hips), and so does the foot behind it; the head stays on the headset.
#[test]
fn a_kneeling_knee_stays_planted_while_the_body_sways() {
    let (_, bones, _) = reference_lower_body();
    let legs = [bones.legs.left.unwrap(), bones.legs.right.unwrap()];
    let mut b = body();
    hold(&mut b, Vec3::new(0.0, 1.65, 0.09), 0.5);
    let low = Vec3::new(0.0, 1.10, 0.09);
    let (mut t, _, _) = hold(&mut b, low, 2.0);
    let down = if t.global(legs[0][1]).position.y < t.global(legs[1][1]).position.y {
        0
    } else {
        1
    };
    let knee = t.global(legs[down][1]).position;
    let ankle = t.global(legs[down][2]).position;
    assert!(
        (knee.y - kneel::KNEE_PAD_M).abs() < 0.01,
        "kneeling: {knee}"
    );
    // 1 s to sway 6 cm: slower than a walk.
    for i in 1..=90 {
        hold(&mut b, low + Vec3::X * 0.06 * (i as f32 / 90.0), 1.0 / 90.0);
    }
    let (mut t, out, _) = hold(&mut b, low + Vec3::X * 0.06, 0.5);
    assert!(
        out.head_miss < 0.01,
        "the head on the headset: {}",
        out.head_miss
    );
    let moved = t.global(legs[down][1]).position.distance(knee);
    assert!(moved < 0.01, "the knee stays planted: moved {moved}");
    let foot = t.global(legs[down][2]).position.distance(ankle);
    assert!(foot < 0.01, "the foot behind it too: moved {foot}");
    // Up, 40 cm to the side (slowly), and down again: the knee goes down afresh under the body.
    hold(&mut b, Vec3::new(0.06, 1.65, 0.09), 1.0);
    for i in 1..=180 {
        let x = 0.06 + 0.34 * (i as f32 / 180.0);
        hold(&mut b, Vec3::new(x, 1.65, 0.09), 1.0 / 90.0);
    }
    hold(&mut b, Vec3::new(0.4, 1.65, 0.09), 1.0);
    let (mut t, _, _) = hold(&mut b, Vec3::new(0.4, 1.10, 0.09), 2.0);
    let knees = legs.map(|l| t.global(l[1]).position);
    let kneeling = if knees[0].y < knees[1].y {
        knees[0]
    } else {
        knees[1]
    };
    assert!(
        (kneeling.y - kneel::KNEE_PAD_M).abs() < 0.01 && (kneeling.x - 0.4).abs() < 0.25,
        "kneeling again under the body: {kneeling}"
    );
}

/// A bow from standing (the eyes 30 cm ahead and 30 cm lower, looking 45 degrees down) hinges
/// at the hips over the planted feet: the feet stay, the hips go back behind where they stood
/// and stay higher, the torso leans further than the knees bend from standing. Without bending
/// over the feet (`bend_balance_share` 0) the hips follow the head forward and the knees bend
/// more than the torso leans: a semi-squat.
#[test]
fn a_bow_hinges_at_the_hips_over_the_planted_feet() {
    let bow = |share: f32| {
        let (tree, bones, eyes) = reference_lower_body();
        let s = LowerBodySettings {
            bend_balance_share: share,
            ..Default::default()
        };
        let mut b = LowerBody::new(s, bones, &tree, Some(eyes));
        let (mut t, stood) = run(&mut b, &input(headset(Vec3::new(0.0, 1.65, 0.09), 0.0)), 30);
        let feet = stood.feet.left.unwrap().place.position;
        let leg = bones.legs.left.unwrap();
        let standing_knee = knee_bend(&mut t, leg).to_degrees();
        let mut last = None;
        for k in 1..=45 {
            let f = k as f32 / 45.0;
            let eyes = Vec3::new(0.0, 1.65 - 0.3 * f, 0.09 + 0.3 * f);
            last = Some(run(&mut b, &input(headset(eyes, 0.8 * f)), 2));
        }
        let (mut t, out) = last.unwrap();
        let (hips, head) = (t.global(bones.hips).position, t.global(bones.head).position);
        let lean = (head.z - hips.z).atan2(head.y - hips.y).to_degrees();
        // How much further the knee bends than standing (the rest pose's knee is a little bent).
        let knee = knee_bend(&mut t, leg).to_degrees() - standing_knee;
        let moved = out.feet.left.unwrap().place.position.distance(feet);
        assert!(out.head_miss < 0.01, "{share}: head {} off", out.head_miss);
        (hips, lean, knee, moved)
    };
    let (hips, lean, knee, moved) = bow(LowerBodySettings::default().bend_balance_share);
    let (squat_hips, squat_lean, squat_knee, _) = bow(0.0);
    assert!(moved < 1e-4, "the feet stay: moved {moved}");
    assert!(hips.z < -0.08, "the hips go back: {hips}");
    assert!(
        hips.y > squat_hips.y + 0.05,
        "and stay up: {hips} ({squat_hips} without)"
    );
    assert!(
        lean > 35.0 && lean > knee,
        "the torso leans {lean} degrees, the knee bends {knee}"
    );
    assert!(
        squat_hips.z > 0.0 && squat_knee > squat_lean,
        "without: the hips {squat_hips}, lean {squat_lean}, knee {squat_knee}"
    );
}

/// Easing into a kneel and out of it (the eyes 55 cm down for 2 s, then back up), the balls
/// of both feet never go below their standing height: the kneeling foot turns its toes down as
/// its ankle rises, and the ankle rises as far as the turned toes need (the ball went 1.6 mm
/// under it mid-ease without; on the test characters 1.4 to 2.7 cm). The toes' tips (6 cm
/// ahead of the ball) stay as high too: the toes stay flat while the foot turns (turned with
/// it, a tip went 0.5 cm lower here; Mannequiny's skin 2.6 cm under the floor).
#[test]
fn easing_into_and_out_of_a_kneel_keeps_the_toes_out_of_the_floor() {
    let (rest, bones, eyes) = lower_body_with_toes();
    let mut b = LowerBody::new(LowerBodySettings::default(), bones, &rest, Some(eyes));
    let toes = [bones.toes.left.unwrap(), bones.toes.right.unwrap()];
    let (mut lowest, mut lowest_tip) = (f32::INFINITY, f32::INFINITY);
    let mut knelt = false;
    for k in 0..(45 + 180 + 90) {
        let y = if (45..225).contains(&k) { 1.10 } else { 1.65 };
        let mut t = rest.clone();
        b.update(
            Side::Left,
            &mut t,
            &input(headset(Vec3::new(0.0, y, 0.09), 0.0)),
            1.0 / 90.0,
        );
        knelt |= b.kneel.pose().is_some_and(|(_, w)| w >= 1.0);
        for toe in toes {
            let g = t.global(toe);
            lowest = lowest.min(g.position.y);
            lowest_tip = lowest_tip.min(g.transform_point(Vec3::Z * 0.06).y);
        }
    }
    assert!(knelt, "the body knelt");
    assert!(
        lowest > 0.02 - 0.0005,
        "the lowest ball {lowest} (standing 0.02)"
    );
    assert!(
        lowest_tip > 0.02 - 0.0005,
        "the lowest toes' tip {lowest_tip} (standing 0.02)"
    );
}

/// A crouch (the eyes 40 cm down) on a foot left turned out 40 degrees (less than a step's
/// turn, so it stays): the knee bends the way the hips face, over the line from the hip to the
/// ankle, not out along the foot (a thigh turns with the hips; the shin turns on the bent knee).
/// Bent in the foot's own plane, it went 20 cm out.
#[test]
fn a_knee_bends_the_way_the_hips_face_over_a_foot_turned_out() {
    let mut b = body();
    let (rest, bones, _) = reference_lower_body();
    let leg = bones.legs.left.unwrap();
    let i = input(headset(Vec3::new(0.0, 1.25, 0.09), 0.0));
    let mut t = rest.clone();
    for _ in 0..180 {
        if let Some(p) = b.feet.place(Side::Left) {
            b.feet
                .replant(Side::Left, feet::FootPlace { yaw: 0.7, ..p });
        }
        t = rest.clone();
        b.update(Side::Left, &mut t, &i, 1.0 / 90.0);
    }
    let [hip, knee, ankle] = leg.map(|bone| t.global(bone).position);
    assert!(knee_bend(&mut t, leg) > 0.5, "the knee bends");
    let (lo, hi) = (hip.x.min(ankle.x), hip.x.max(ankle.x));
    let out = (knee.x - hi).max(lo - knee.x).max(0.0);
    assert!(
        out < 0.02,
        "the knee {out} m out of line with the hip and ankle"
    );
}

/// The legs' mask holds the upper legs, lower legs and feet and nothing of the hips, spine or
/// head; the whole mask holds those too.
#[test]
fn the_legs_mask_is_the_legs_and_the_bones_mask_the_rest_too() {
    let b = body();
    let legs: u32 = (5..=10).fold(0, |m, i| m | 1 << i);
    assert_eq!(b.legs_mask(), legs);
    assert_eq!(b.bones_mask(), legs | 0b11111);
}

/// A foot that hangs from the hips, not its shin, is given with where the solve put it; a foot
/// under its shin is not.
#[test]
fn a_foot_hanging_from_elsewhere_than_its_shin_is_loose() {
    let (rest, bones, eyes) = reference_lower_body();
    let mut shin_feet = rest.clone();
    let b = LowerBody::new(LowerBodySettings::default(), bones, &rest, Some(eyes));
    assert_eq!(b.loose_feet(&mut shin_feet), PerSide::new(None, None));
    let mut rest = rest;
    let mut parents: Vec<Option<usize>> = (0..rest.len()).map(|i| rest.parent(i)).collect();
    let globals: Vec<Pose> = (0..rest.len()).map(|i| rest.global(i)).collect();
    parents[10] = Some(0);
    let mut tree = PoseTree::new(&parents).unwrap();
    tree.set_globals(&globals);
    let mut b = LowerBody::new(LowerBodySettings::default(), bones, &tree, Some(eyes));
    b.update(
        Side::Left,
        &mut tree,
        &input(headset(eyes, 0.0)),
        1.0 / 90.0,
    );
    let loose = b.loose_feet(&mut tree);
    assert_eq!(loose.left, None);
    let r = loose.right.expect("the right foot hangs from the hips");
    assert_eq!((r.foot, r.lower), (10, 9));
    let ankle = tree.global(10).position;
    assert!(
        r.local_position
            .distance(tree.global(0).inverse().transform_point(ankle))
            < 1e-5
    );
    assert!(
        tree.global(9)
            .transform_point(r.ankle_in_lower)
            .distance(ankle)
            < 1e-5
    );
    assert!((r.ankle_in_lower.length() - 0.42).abs() < 0.01, "{r:?}");
}

/// A bone listed twice has its bit once; bones from 32 on have none.
#[test]
fn a_mask_has_one_bit_a_bone_and_none_past_31() {
    assert_eq!(mask_of([3, 3, 31, 32, 40].into_iter()), 1 << 3 | 1 << 31);
    assert_eq!(mask_of(std::iter::empty()), 0);
}

/// The head's drop is in avatar metres: the same place on a body twice the size (twice the
/// world units per avatar metre) is half as far down.
#[test]
fn the_heads_drop_is_in_avatar_metres() {
    let mut b = body();
    let (_, _, eyes) = reference_lower_body();
    let low = headset(eyes - Vec3::Y * 0.3, 0.0);
    let at = |b: &mut LowerBody, scale: f32| {
        b.head_drop_m(low, Pose::IDENTITY, Pose::IDENTITY, 0.0, scale)
    };
    let one = at(&mut b, 1.0);
    assert!((one - 0.3).abs() < 0.02, "{one}");
    assert!((at(&mut b, 2.0) - one / 2.0).abs() < 1e-5);
}

/// The input's debug text names what it holds (the ground is left out).
#[test]
fn the_input_prints_its_fields() {
    let text = format!("{:?}", input(Pose::IDENTITY));
    assert!(
        text.contains("floor_y: 0.0") && text.contains("scale: 1.0"),
        "{text}"
    );
}

/// The reference body with a floor-level root above the hips and both thighs hanging from that
/// root, beside the hips (Quaternius' game rigs: `Root` > `Hips`, `Root` > `UpperLeg.L`).
fn thighs_on_the_root() -> (PoseTree, LowerBodyBones, Vec3) {
    let (reference, bones, eyes) = reference_lower_body();
    let n = reference.len();
    // Bone i of the reference is bone i + 1 here; bone 0 is the root on the floor.
    let mut parents = vec![None];
    let mut globals = vec![Pose::IDENTITY];
    let mut reference = reference;
    for i in 0..n {
        parents.push(Some(reference.parent(i).map_or(0, |p| p + 1)));
        globals.push(reference.global(i));
    }
    let shift = |leg: Option<[usize; 3]>| leg.map(|l| l.map(|b| b + 1));
    let legs = PerSide::new(shift(bones.legs.left), shift(bones.legs.right));
    for leg in [legs.left, legs.right].into_iter().flatten() {
        parents[leg[0]] = Some(0);
    }
    let mut tree = PoseTree::new(&parents).expect("a valid tree");
    tree.set_globals(&globals);
    let shifted = LowerBodyBones {
        hips: bones.hips + 1,
        spine: bones.spine.map(|s| s.map(|b| b + 1)),
        head: bones.head + 1,
        legs,
        toes: bones.toes,
    };
    (tree, shifted, eyes)
}

/// Thighs hanging from a root beside the hips are carried with the hips, as if they hung from
/// them: crouching, walking and bowing, every leg joint is where the reference body (thighs on
/// the hips) puts it. Before, the hips went down without the legs and the thighs stayed
/// standing (a skinned mesh stretched from the hips to the knees).
#[test]
fn thighs_hanging_beside_the_hips_are_carried_with_them() {
    let (rest, bones, eyes) = thighs_on_the_root();
    let mut loose = LowerBody::new(LowerBodySettings::default(), bones, &rest, Some(eyes));
    let mut reference = body();
    let ref_bones = reference_lower_body().1;
    assert_eq!(
        loose.loose_thigh_bones(),
        PerSide::new(
            Some(bones.legs.left.unwrap()[0]),
            Some(bones.legs.right.unwrap()[0])
        )
    );
    assert_eq!(reference.loose_thigh_bones(), PerSide::new(None, None));
    let moves = [
        headset(Vec3::new(0.0, 1.25, 0.09), 0.0),
        headset(Vec3::new(0.0, 1.05, 0.35), 0.8),
        headset(Vec3::new(0.3, 1.6, 0.5), 0.0),
    ];
    for (k, head) in moves.into_iter().enumerate() {
        let mut last = None;
        for _ in 0..40 {
            let mut t = rest.clone();
            loose.update(Side::Left, &mut t, &input(head), 1.0 / 90.0);
            let (r, _) = run(&mut reference, &input(head), 1);
            last = Some((t, r));
        }
        let (mut t, mut r) = last.expect("frames");
        for (leg, ref_leg) in [
            (bones.legs.left, ref_bones.legs.left),
            (bones.legs.right, ref_bones.legs.right),
        ] {
            for (b, rb) in leg.unwrap().into_iter().zip(ref_leg.unwrap()) {
                let (a, e) = (t.global(b).position, r.global(rb).position);
                assert!(
                    a.distance(e) < 1e-4,
                    "move {k}: bone {b} at {a}, the reference's at {e}"
                );
            }
        }
        let hips = t.global(bones.hips).position;
        assert!(
            hips.y < 0.9 || k == 2,
            "move {k}: the hips came down: {hips}"
        );
    }
}
