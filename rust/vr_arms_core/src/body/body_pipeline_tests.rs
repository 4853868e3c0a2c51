//! Tests of the body's second step: each stage in its order on the reference body.

use super::*;
use crate::hands::hand_pose::HandPoseState;
use crate::lower_body::ground::FlatFloor;
use crate::testing::reference_body::{
    reference_body, reference_pipeline, reference_whole_body, reference_whole_pipeline,
};

fn tree() -> (PoseTree, BodyBones) {
    reference_body()
}

/// The reference pipeline with no finger curls prepared on the right hand.
fn pipeline(profile: &ArmProfile) -> (BodyPipeline, PoseTree) {
    let mut p = reference_pipeline(profile);
    p.curls.right = [None; FINGERS];
    (p, tree().0)
}

/// The avatar faces +Z at the origin, the headset looks along +Z (a camera looks along -Z).
fn input(head_yaw: f32, left: Option<Pose>) -> BodyInput {
    BodyInput {
        body: BodyFrame::new(Pose::IDENTITY),
        skeleton: Pose::IDENTITY,
        up: Vec3::Y,
        head: Some(Pose::new(
            Vec3::new(0.0, 1.65, 0.05),
            Quat::from_rotation_y(std::f32::consts::PI + head_yaw),
        )),
        controllers: PerSide::new(left, None),
        overrides: PerSide::default(),
        hands: PerSide::default(),
        floor_y: 0.0,
    }
}

fn left_controller(roll: f32) -> Pose {
    Pose::new(
        Vec3::new(0.3, 1.15, 0.35),
        Quat::from_rotation_x(-1.2) * Quat::from_rotation_y(roll),
    )
}

/// Runs `frames` frames at 90 Hz from a fresh tree each frame (the engine restores the
/// animated pose every frame); returns the last frame's tree and output.
fn run(p: &mut BodyPipeline, input: &BodyInput, frames: usize) -> (PoseTree, BodyOutput) {
    let mut last = None;
    for _ in 0..frames {
        let (mut t, _) = tree();
        let out = p.update(input, &mut t, 1.0 / 90.0, &FlatFloor);
        last = Some((t, out));
    }
    last.unwrap()
}

#[test]
fn the_hand_bone_reaches_the_routed_target_after_spine_and_clavicle_moved_it() {
    let (mut p, _) = pipeline(&ArmProfile::default());
    let (mut t, out) = run(&mut p, &input(0.6, Some(left_controller(0.0))), 120);
    let target = out.targets.left.unwrap().target.position;
    let (_, rest_bones) = tree();
    let [clavicle, upper, _, hand] = rest_bones.arms.left;
    let (mut rest, _) = tree();
    // The spine turned with the head and the clavicle moved: the shoulder is elsewhere.
    assert!(
        t.global(upper)
            .position
            .distance(rest.global(upper).position)
            > 0.01
    );
    assert!(out.written & (1 << clavicle) != 0);
    // Yet the hand is on the target, solved on the bones as they were moved.
    assert!(
        t.global(hand).position.distance(target) < 0.002,
        "{} vs {target}",
        t.global(hand).position
    );
    // The right arm has no controller: its hand hangs toward its rest beside the body.
    let [_, r_upper, _, r_hand] = rest_bones.arms.right;
    assert!(out.written & (1 << r_upper) != 0);
    assert!(t.global(r_upper).position.y - t.global(r_hand).position.y > 0.4);
}

#[test]
fn a_lost_hand_holds_then_eases_to_rest_and_comes_back() {
    let (mut p, _) = pipeline(&ArmProfile::default());
    let tracked = input(0.0, Some(left_controller(0.0)));
    let (mut t, _) = run(&mut p, &tracked, 60);
    let hand = tree().1.arms.left[3];
    let held_at = t.global(hand).position;
    let mut lost = tracked;
    lost.controllers.left = None;
    let (mut t, out) = run(&mut p, &lost, 1);
    assert_eq!(out.tracking.left, Some(TrackingEvent::Lost));
    assert!(
        t.global(hand).position.distance(held_at) < 0.01,
        "holds at first"
    );
    let (mut t, out) = run(&mut p, &lost, 90);
    assert_eq!(out.tracking.left, None);
    let rest = DEFAULT_REST_POSITIONS[0];
    assert!(
        t.global(hand).position.y < held_at.y - 0.2,
        "eased down toward its rest"
    );
    assert!(t.global(hand).position.distance(rest) < 0.15);
    let (_, out) = run(&mut p, &tracked, 1);
    assert_eq!(out.tracking.left, Some(TrackingEvent::Regained));
}

#[test]
fn a_non_finite_controller_holds_the_hand_and_a_rig_without_chest_keeps_its_spine() {
    let (mut p, _) = pipeline(&ArmProfile::default());
    let tracked = input(0.0, Some(left_controller(0.0)));
    let (mut t, _) = run(&mut p, &tracked, 60);
    let hand = tree().1.arms.left[3];
    let held_at = t.global(hand).position;
    let mut bad = tracked;
    bad.controllers.left = Some(Pose::new(Vec3::NAN, Quat::IDENTITY));
    let (mut t, out) = run(&mut p, &bad, 1);
    assert_eq!(out.tracking.left, Some(TrackingEvent::Lost));
    assert!(t.global(hand).position.distance(held_at) < 0.01);

    let (mut p, _) = pipeline(&ArmProfile::default());
    p.bones.spine[0] = None;
    let (mut t, out) = run(&mut p, &input(0.6, None), 1);
    assert_eq!(out.written & 0b111, 0, "no chest: no spine follow");
    assert_eq!(t.global(1).rotation, Quat::IDENTITY);
}

#[test]
fn the_twist_turns_the_lower_arm_and_leaves_the_hand_where_the_solve_put_it() {
    let mut no_twist = ArmProfile::default();
    no_twist.forearm_twist.lower_arm_weight = 0.0;
    let controller = Some(left_controller(1.0));
    let (mut with, _) = pipeline(&ArmProfile::default());
    let (mut without, _) = pipeline(&no_twist);
    let (mut a, _) = run(&mut with, &input(0.0, controller), 120);
    let (mut b, _) = run(&mut without, &input(0.0, controller), 120);
    let [_, _, lower, hand] = tree().1.arms.left;
    assert!(
        a.local_rotation(lower)
            .angle_between(b.local_rotation(lower))
            > 0.1
    );
    assert!(
        a.global(hand)
            .rotation
            .angle_between(b.global(hand).rotation)
            < 1e-3
    );
    assert!(a.global(hand).position.distance(b.global(hand).position) < 1e-4);
}

#[test]
fn the_arm_steps_alone_write_only_the_arm_bones_as_the_solve_left_them() {
    let (mut all, _) = pipeline(&ArmProfile::default());
    let (mut arms, _) = pipeline(&ArmProfile::default());
    arms.steps = Steps::ARMS;
    let i = input(0.6, Some(left_controller(1.0)));
    let (mut t_all, out_all) = run(&mut all, &i, 30);
    let (t, out) = run(&mut arms, &i, 30);
    let [clavicle, upper, lower, hand] = tree().1.arms.left;
    let [_, r_upper, r_lower, r_hand] = tree().1.arms.right;
    // The untracked right hand rests beside the body: its arm is solved too.
    let arm_bits = [upper, lower, hand, r_upper, r_lower, r_hand]
        .iter()
        .fold(0, |bits, b| bits | (1 << b));
    assert_eq!(out.written, arm_bits, "only the arms' three bones each");
    assert_ne!(
        out_all.written & (1 << clavicle),
        0,
        "all steps write the clavicle"
    );
    for bone in tree().1.spine.into_iter().flatten() {
        assert_ne!(
            out_all.written & (1 << bone),
            0,
            "and the spine's bone {bone}"
        );
    }
    assert!(
        out.fingers.left.iter().all(Option::is_none),
        "no finger written"
    );
    assert!(out_all.fingers.left.iter().any(Option::is_some));
    // No twist: the lower arm and hand keep the solve's own rotations (the twist turns the
    // lower arm about its axis, with the roll at 1.0 rad here).
    let solve = out.solves.left.unwrap();
    assert!(t.local_rotation(lower).angle_between(solve.lower_local) < 1e-3);
    assert!(t.local_rotation(hand).angle_between(solve.hand_local) < 1e-3);
    let twisted = out_all.solves.left.unwrap();
    assert!(
        t_all
            .local_rotation(lower)
            .angle_between(twisted.lower_local)
            > 0.05,
        "with every step, the twist turns the lower arm off the solve's rotation"
    );
    let _ = t_all.global(hand);
}

/// The spine's rotations (chest, neck, head, global) after a few frames of `input` on a
/// body whose spine is `tree`'s bones `spine`.
fn spine_after(tree: &PoseTree, bones: BodyBones, input: &BodyInput) -> [Quat; 3] {
    let mut p = BodyPipeline::new(
        &ArmProfile::default(),
        &crate::arms::arm_steps::reference_rig(),
        bones,
        PerSide::new(Pose::IDENTITY, Pose::IDENTITY),
        PerSide::new([None; FINGERS], [None; FINGERS]),
    );
    let mut t = tree.clone();
    for _ in 0..30 {
        t = tree.clone();
        p.update(input, &mut t, 1.0 / 90.0, &FlatFloor);
    }
    bones.spine.map(|b| t.global(b.unwrap()).rotation)
}

/// `bones` in a tree with bones inserted: each index moved by `shift`, the chest's parent
/// `chest_parent`.
fn moved_bones(
    bones: &BodyBones,
    chest_parent: Option<usize>,
    shift: impl Fn(usize) -> usize,
) -> BodyBones {
    BodyBones {
        chest_parent,
        spine: bones.spine.map(|b| b.map(&shift)),
        clavicles: PerSide::new(
            bones.clavicles.left.map(&shift),
            bones.clavicles.right.map(&shift),
        ),
        arms: PerSide::new(bones.arms.left.map(&shift), bones.arms.right.map(&shift)),
    }
}

#[test]
fn a_bone_between_chest_and_neck_is_the_necks_parent() {
    // The reference spine, and the same with an upper chest between chest and neck that is
    // pitched at rest: the head must come out the same (it follows the headset).
    let (mut plain, bones) = tree();
    // The same bones with the upper chest inserted as bone 1 (every later index one up).
    let shift = |i: usize| if i == 0 { 0 } else { i + 1 };
    let mut parents = vec![None, Some(0)];
    let mut globals = vec![
        plain.global(0),
        Pose::new(Vec3::new(0.0, 1.35, 0.0), Quat::from_rotation_x(0.3)),
    ];
    for i in 1..plain.len() {
        let parent = plain.parent(i).map(|p| if i == 1 { 1 } else { shift(p) });
        parents.push(parent);
        globals.push(plain.global(i));
    }
    let mut with_upper = PoseTree::new(&parents).unwrap();
    with_upper.set_globals(&globals);
    let moved = moved_bones(&bones, None, shift);
    let i = input(0.5, None);
    let a = spine_after(&plain, bones, &i);
    let b = spine_after(&with_upper, moved, &i);
    assert!(
        a[2].angle_between(b[2]) < 1e-3,
        "head {:?} vs {:?}",
        a[2],
        b[2]
    );
}

#[test]
fn a_rotated_hips_bone_under_the_chest_does_not_turn_the_spine() {
    // The chest under a hips bone pitched at rest: the spine's own parent is the hips.
    let (mut plain, bones) = tree();
    let shift = |i: usize| i + 1;
    let mut parents = vec![None];
    let mut globals = vec![Pose::new(
        Vec3::new(0.0, 0.95, 0.0),
        Quat::from_rotation_x(0.4),
    )];
    for i in 0..plain.len() {
        parents.push(Some(plain.parent(i).map_or(0, shift)));
        globals.push(plain.global(i));
    }
    let mut with_hips = PoseTree::new(&parents).unwrap();
    with_hips.set_globals(&globals);
    let moved = moved_bones(&bones, Some(0), shift);
    let i = input(0.5, None);
    let a = spine_after(&plain, bones, &i);
    let b = spine_after(&with_hips, moved, &i);
    for k in 0..3 {
        assert!(
            a[k].angle_between(b[k]) < 1e-3,
            "bone {k}: {:?} vs {:?}",
            a[k],
            b[k]
        );
    }
}

#[test]
fn the_spine_turns_relative_to_the_body_not_the_world() {
    // Body and headset turned together, the skeleton turned with them or turned otherwise
    // under the root (as a rig facing elsewhere is stood up): nothing for the spine to turn
    // (it turns by the head's yaw against the body's, whatever the skeleton's own turn).
    for (body_yaw, skeleton_yaw) in [(0.8, 0.8), (0.3, 0.8)] {
        let mut i = input(0.0, None);
        let body = Quat::from_rotation_y(body_yaw);
        i.body = BodyFrame::new(Pose::new(Vec3::ZERO, body));
        i.skeleton = Pose::new(Vec3::ZERO, Quat::from_rotation_y(skeleton_yaw));
        i.head = i
            .head
            .map(|h| Pose::new(body * h.position, body * h.rotation));
        let (t, bones) = tree();
        let spine = spine_after(&t, bones, &i);
        for (k, q) in spine.iter().enumerate() {
            assert!(
                q.angle_between(Quat::IDENTITY) < 1e-3,
                "body {body_yaw}, skeleton {skeleton_yaw}, bone {k}: {q:?}"
            );
        }
    }
}

#[test]
fn a_skeleton_turned_on_its_side_gives_the_same_body_in_the_world() {
    // A rig imported Z-up stands upright because its skeleton node is turned a quarter
    // turn; its bones are the plain rig's turned back. The world must not see the turn: the
    // clavicles lift about the world's up, not the skeleton's +Y, and the hands land on the
    // same targets.
    let world = |turn: Quat| {
        let back = Pose::new(Vec3::ZERO, turn.inverse());
        let turned = |a: &ArmBones| ArmBones {
            parent: back.mul_pose(&a.parent),
            upper: back.mul_pose(&a.upper),
            lower: back.mul_pose(&a.lower),
            hand: back.mul_pose(&a.hand),
        };
        let r = crate::arms::arm_steps::reference_rig();
        let rest = PerSide::new(turned(&r.left), turned(&r.right));
        let (mut plain, bones) = tree();
        let globals: Vec<Pose> = (0..plain.len())
            .map(|i| back.mul_pose(&plain.global(i)))
            .collect();
        let hand_rest = Pose::new(Vec3::new(0.0, 0.24, 0.0), Quat::IDENTITY);
        let mut p = BodyPipeline::new(
            &ArmProfile::default(),
            &rest,
            bones,
            PerSide::new(hand_rest, hand_rest),
            PerSide::new([None; FINGERS], [None; FINGERS]),
        );
        let mut i = input(0.4, Some(left_controller(0.0)));
        // Reaching far up and out: the clavicle lifts.
        i.controllers.left = Some(Pose::new(
            Vec3::new(0.55, 1.9, 0.3),
            Quat::from_rotation_x(-1.2),
        ));
        i.skeleton = Pose::new(Vec3::ZERO, turn);
        let mut t = plain.clone();
        for _ in 0..60 {
            t = plain.clone();
            t.set_globals(&globals);
            p.update(&i, &mut t, 1.0 / 90.0, &FlatFloor);
        }
        let [clavicle, _, _, hand] = bones.arms.left;
        let mut on = |k: usize| i.skeleton.mul_pose(&t.global(k));
        (on(clavicle), on(hand), on(0))
    };
    let (clavicle, hand, chest) = world(Quat::IDENTITY);
    let rest_clavicle = {
        let (mut t, b) = tree();
        t.global(b.arms.left[0])
    };
    assert!(
        clavicle.rotation.angle_between(rest_clavicle.rotation) > 0.05,
        "the clavicle lifts"
    );
    for turn in [
        Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    ] {
        let (c, h, ch) = world(turn);
        assert!(
            c.rotation.angle_between(clavicle.rotation) < 1e-3,
            "{turn:?}: clavicle {} rad off",
            c.rotation.angle_between(clavicle.rotation)
        );
        assert!(ch.rotation.angle_between(chest.rotation) < 1e-3);
        assert!(h.position.distance(hand.position) < 1e-3, "{turn:?}");
    }
}

#[test]
fn the_spine_follows_the_head_and_holds_the_last_tracked_one() {
    let (mut p, _) = pipeline(&ArmProfile::default());
    let (mut turned, _) = run(&mut p, &input(0.6, None), 1);
    let chest = turned.global(0).rotation;
    assert!(chest.angle_between(Quat::IDENTITY) > 0.05);
    let mut lost = input(0.0, None);
    lost.head = None;
    let (mut held, _) = run(&mut p, &lost, 1);
    assert!(held.global(0).rotation.angle_between(chest) < 1e-6);
    let (mut back, _) = run(&mut p, &input(0.0, None), 1);
    assert!(back.global(0).rotation.angle_between(Quat::IDENTITY) < 1e-4);
}

#[test]
fn fingers_curl_with_grip_and_trigger_and_unprepared_ones_are_not_written() {
    let (mut p, _) = pipeline(&ArmProfile::default());
    let mut i = input(0.0, None);
    i.hands.left = HandInput {
        state: HandPoseState::Default,
        grip: 1.0,
        trigger: 0.5,
        ..Default::default()
    };
    let (_, out) = run(&mut p, &i, 1);
    let angle = |k: usize| out.fingers.left[k].unwrap().angle_between(Quat::IDENTITY);
    // Middle proximal at full grip, index proximal at half trigger (the profile's degrees).
    assert!((angle(6).to_degrees() - 75.0).abs() < 0.01, "{}", angle(6));
    assert!((angle(3).to_degrees() - 35.0).abs() < 0.01, "{}", angle(3));
    assert!(out.fingers.right.iter().all(Option::is_none));
    i.hands.left.grip = 0.0;
    let (_, open) = run(&mut p, &i, 1);
    assert!(open.fingers.left[6].unwrap().angle_between(Quat::IDENTITY) < 1e-4);
}

#[test]
fn tracked_curls_pose_each_finger_over_the_controller_at_their_weight() {
    let (mut p, _) = pipeline(&ArmProfile::default());
    let mut i = input(0.0, None);
    // Full grip on the controller; the tracked hand points the index, curls the middle
    // halfway and leaves the little finger straight.
    i.hands.left = HandInput {
        grip: 1.0,
        tracked_curls: [0.0, 0.0, 0.5, 1.0, 0.0],
        tracked_weight: 1.0,
        ..Default::default()
    };
    let deg = |out: &BodyOutput, k: usize| {
        out.fingers.left[k]
            .unwrap()
            .angle_between(Quat::IDENTITY)
            .to_degrees()
    };
    let (_, out) = run(&mut p, &i, 1);
    for (bone, want) in [
        (3, 0.0),
        (6, 37.5),
        (8, 37.5),
        (9, 75.0),
        (12, 0.0),
        (0, 0.0),
    ] {
        assert!(
            (deg(&out, bone) - want).abs() < 0.01,
            "bone {bone}: {}",
            deg(&out, bone)
        );
    }
    // Halfway through the fade: half-way between the grip's 75 and the tracked 0.
    i.hands.left.tracked_weight = 0.5;
    let (_, out) = run(&mut p, &i, 1);
    assert!((deg(&out, 12) - 37.5).abs() < 0.01, "{}", deg(&out, 12));
    // Out of range and non-finite values are held to 0..1 and 0.
    i.hands.left.tracked_weight = f32::NAN;
    let (_, out) = run(&mut p, &i, 1);
    assert!((deg(&out, 12) - 75.0).abs() < 0.01, "{}", deg(&out, 12));
    i.hands.left.tracked_weight = 3.0;
    i.hands.left.tracked_curls = [f32::NAN, 7.0, -1.0, 0.2, f32::INFINITY];
    let (_, out) = run(&mut p, &i, 1);
    for (bone, want) in [(0, 0.0), (3, 70.0), (6, 0.0), (9, 15.0), (12, 0.0)] {
        assert!(
            (deg(&out, bone) - want).abs() < 0.01,
            "bone {bone}: {}",
            deg(&out, bone)
        );
    }
}

/// Without a lower body the target stages measure the arms as the bones came in, before the
/// spine's follow turns the chest (as the nodes read the skeleton before its modifiers run):
/// the targets and the elbow hint are the same with the spine's step on as with it off, though
/// the spine turned the shoulder.
#[test]
fn without_a_lower_body_the_targets_are_measured_on_the_bones_as_they_came_in() {
    let run_with = |spine: bool| {
        let (mut p, _) = pipeline(&ArmProfile::default());
        p.steps.spine = spine;
        p.steps.clavicles = false;
        run(&mut p, &input(0.6, Some(left_controller(0.0))), 30)
    };
    targets_as_the_bones_came_in(run_with, tree().1.arms.left[1]);
}

/// The spine's step (`run_with(true)`) moved the shoulder `upper`, yet the left arm's targets,
/// the elbow hint measured from the shoulder too, are those without it (`run_with(false)`).
fn targets_as_the_bones_came_in(run_with: impl Fn(bool) -> (PoseTree, BodyOutput), upper: usize) {
    let (mut turned, with_spine) = run_with(true);
    let (mut still, without) = run_with(false);
    let moved = turned
        .global(upper)
        .position
        .distance(still.global(upper).position);
    assert!(moved > 0.01, "the spine moved the shoulder by {moved}");
    assert_eq!(with_spine.targets.left, without.targets.left);
}

/// The same with a lower body that poses no legs: a headset with no usable rotation (a zero
/// quaternion) gives the lower body nothing to stand under, while the spine still follows it.
#[test]
fn with_no_legs_posed_the_targets_are_measured_on_the_bones_as_they_came_in() {
    let unusable = Pose::new(
        Vec3::new(0.0, 1.65, 0.05),
        Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
    );
    let run_with = |spine: bool| {
        let mut p = reference_whole_pipeline(&ArmProfile::default());
        p.steps.spine = spine;
        p.steps.clavicles = false;
        let input = BodyInput {
            head: Some(unusable),
            ..input(0.0, Some(left_controller(0.0)))
        };
        let mut t = reference_whole_body().0;
        let out = p.update(&input, &mut t, 1.0 / 90.0, &FlatFloor);
        (t, out)
    };
    assert!(run_with(true).1.lower.hips.is_none(), "no legs posed");
    targets_as_the_bones_came_in(run_with, reference_whole_body().1.arms.left[1]);
}

/// Picking something off a low table: the headset low and looking down, the controller 35 cm
/// over the floor ahead, out of a standing arm's reach. The lower body takes the shoulders down
/// and forward with the head, and the hand reaches the controller.
#[test]
fn picking_off_the_floor_the_hand_reaches_the_controller_from_the_crouched_shoulder() {
    let mut p = reference_whole_pipeline(&ArmProfile::default());
    let controller = Pose::new(Vec3::new(0.2, 0.35, 0.4), Quat::from_rotation_x(1.4));
    let look_down = Quat::from_rotation_y(std::f32::consts::PI) * Quat::from_rotation_x(-1.0);
    let input = BodyInput {
        head: Some(Pose::new(Vec3::new(0.0, 0.85, 0.3), look_down)),
        controllers: PerSide::new(Some(controller), None),
        ..input(0.0, None)
    };
    let mut last = None;
    for _ in 0..120 {
        let mut t = reference_whole_body().0;
        let out = p.update(&input, &mut t, 1.0 / 90.0, &FlatFloor);
        last = Some((t, out));
    }
    let (mut t, out) = last.unwrap();
    let hand = t.global(reference_whole_body().1.arms.left[3]).position;
    let shoulder = t.global(reference_whole_body().1.arms.left[1]).position;
    assert!(out.lower.hips.is_some(), "the lower body ran");
    assert!(
        shoulder.y < 1.2,
        "the shoulder came down with the head: {shoulder}"
    );
    let target = out.targets.left.unwrap().target.position;
    assert!(
        target.distance(controller.position) < 0.01,
        "the target stages left the controller where it is: {target} for {}",
        controller.position
    );
    assert!(
        hand.distance(controller.position) < 0.01,
        "the hand on the controller: {hand} for {}",
        controller.position
    );
}

/// Reaching up and ahead while crouched (full mode, where the overhead guard is): the guard
/// measures the direction from the crouched shoulder, so it engages and bends the elbow as it
/// does standing. Measured from the
/// standing shoulder (40 cm higher), the same hand is nearly level with it and the arm stays
/// far straighter.
#[test]
fn reaching_up_in_a_crouch_the_overhead_guard_bends_the_elbow_as_standing() {
    let [_, upper, lower, hand] = reference_whole_body().1.arms.left;
    // The elbow's bend and the guard's weight with the controller at arm's length up and ahead
    // of the shoulder, with the head at `head_y`.
    let reach_up = |head_y: f32| {
        let mut profile = ArmProfile::default();
        profile.reach_clamp.exact_hands_mode = false;
        let mut p = reference_whole_pipeline(&profile);
        let still = BodyInput {
            head: Some(Pose::new(
                Vec3::new(0.0, head_y, 0.05),
                Quat::from_rotation_y(std::f32::consts::PI),
            )),
            ..input(0.0, None)
        };
        let mut t = reference_whole_body().0;
        p.update(&still, &mut t, 1.0 / 90.0, &FlatFloor);
        let shoulder = t.global(upper).position;
        let controller = Pose::new(
            shoulder + Vec3::new(0.0, 0.42, 0.25).normalize() * 0.56,
            Quat::from_rotation_x(-1.5),
        );
        let reach = BodyInput {
            controllers: PerSide::new(Some(controller), None),
            ..still
        };
        let mut last = None;
        for _ in 0..180 {
            let mut t = reference_whole_body().0;
            let out = p.update(&reach, &mut t, 1.0 / 90.0, &FlatFloor);
            last = Some((t, out));
        }
        let (mut t, out) = last.unwrap();
        let [s, e, w] = [upper, lower, hand].map(|b| t.global(b).position);
        (
            shoulder,
            (e - s).angle_between(w - e).to_degrees(),
            out.targets.left.unwrap().guard_weight,
        )
    };
    let (standing_shoulder, standing_bend, _) = reach_up(1.65);
    let (shoulder, bend, guard) = reach_up(1.25);
    assert!(
        shoulder.y < standing_shoulder.y - 0.3,
        "crouched: {shoulder} against {standing_shoulder}"
    );
    assert!(guard > 0.9, "the guard engaged: {guard}");
    assert!(
        (bend - standing_bend).abs() < 10.0,
        "the elbow bends as standing: {bend} against {standing_bend} degrees"
    );
}

/// With the lower body, the written bones (what `VRRemoteBody` writes back) are the hips,
/// spine, head and legs besides the arms, exactly.
#[test]
fn the_lower_bodys_bones_are_among_the_written_ones() {
    let mut p = reference_whole_pipeline(&ArmProfile::default());
    let (_, _, lower, _) = reference_whole_body();
    let mut t = reference_whole_body().0;
    let crouch = BodyInput {
        head: Some(Pose::new(
            Vec3::new(0.0, 1.3, 0.1),
            Quat::from_rotation_y(std::f32::consts::PI),
        )),
        ..input(0.0, None)
    };
    let out = p.update(&crouch, &mut t, 1.0 / 90.0, &FlatFloor);
    let legs = lower
        .legs
        .left
        .unwrap()
        .into_iter()
        .chain(lower.legs.right.unwrap());
    let mut lower_bits = 0u32;
    for b in [lower.hips, lower.head]
        .into_iter()
        .chain(lower.spine.into_iter().flatten())
        .chain(legs)
    {
        assert!(
            out.written & (1 << b) != 0,
            "bone {b} written: {:b}",
            out.written
        );
        lower_bits |= 1 << b;
    }
    assert_eq!(p.lower_body.as_ref().unwrap().bones_mask(), lower_bits);
    // Before a first tracked headset the lower body poses nothing, and nothing of it counts
    // as written.
    let mut fresh = reference_whole_pipeline(&ArmProfile::default());
    let mut t = reference_whole_body().0;
    let headless = BodyInput {
        head: None,
        ..input(0.0, None)
    };
    let out = fresh.update(&headless, &mut t, 1.0 / 90.0, &FlatFloor);
    let [Some([upper_leg, ..]), _] = [lower.legs.left, lower.legs.right] else {
        panic!("legs");
    };
    assert_eq!(
        out.written & (1 << upper_leg | 1 << lower.hips),
        0,
        "{:b}",
        out.written
    );
}

/// Reaching straight up: the shoulder rises with the arm (the clavicle, as a shoulder girdle
/// does). To a controller 5 % beyond an arm's length over the resting shoulder, the hand reaches it
/// with the elbow still bent; with the girdle still (no rise, no follow) the same controller is
/// out of reach and the hand stops short on an almost straight arm. At a reach where the follow
/// toward far hands is less engaged (70 % of the arm's length straight up), the rise lifts the
/// shoulder its whole 30 degrees, the follow alone about 11.
#[test]
fn reaching_straight_up_the_shoulder_rises_and_the_hand_reaches_with_a_bent_elbow() {
    let (_, bones) = tree();
    let [clavicle, upper, lower, hand] = bones.arms.left;
    let (mut rest, _) = tree();
    let [c, s, e, w] = [clavicle, upper, lower, hand].map(|b| rest.global(b).position);
    let arm = s.distance(e) + e.distance(w);
    let reach = |share: f32, rise_max_deg: f32, max_follow_deg: f32| {
        let mut profile = ArmProfile::default();
        profile.clavicle_follow.rise_max_deg = rise_max_deg;
        profile.clavicle_follow.max_follow_deg = max_follow_deg;
        let (mut p, _) = pipeline(&profile);
        let controller = Pose::new(s + Vec3::Y * arm * share, Quat::from_rotation_x(-1.5));
        let (mut t, out) = run(&mut p, &input(0.0, Some(controller)), 90);
        let target = out.targets.left.unwrap().target.position;
        let [s2, e2, w2] = [upper, lower, hand].map(|b| t.global(b).position);
        (
            s2.y - s.y,
            w2.distance(target),
            (e2 - s2).angle_between(w2 - e2).to_degrees(),
        )
    };
    let (rose, miss, bend) = reach(1.05, 30.0, 25.0);
    assert!(rose > 0.03, "the shoulder rose {rose} m");
    assert!(miss < 0.002, "the hand on the controller: {miss} m off");
    assert!(bend > 15.0, "the elbow bent: {bend} degrees");
    let (_, short, straight) = reach(1.05, 0.0, 0.0);
    assert!(
        short > 0.02 && straight < 10.0,
        "still: {short} m short, {straight} degrees"
    );
    // 70 %: how high the clavicle (from its joint to the shoulder) lifts the shoulder.
    let lift = |deg: f32| c.distance(s) * deg.to_radians().sin();
    let (risen, _, _) = reach(0.7, 30.0, 25.0);
    let (followed, _, _) = reach(0.7, 0.0, 25.0);
    assert!(risen > lift(28.0), "risen {risen} m");
    assert!(followed < lift(15.0), "followed {followed} m");
}

/// The chest's yaw (flattened forward, +Z) and the head bone's, after 60 frames with the
/// headset at `height` looking `yaw` aside of the body (which faces +Z).
fn chest_and_head_yaw(height: f32, yaw: f32) -> (f32, f32) {
    let mut p = reference_whole_pipeline(&ArmProfile::default());
    let mut base = input(yaw, None);
    if let Some(h) = base.head.as_mut() {
        h.position.y = height;
    }
    let mut last = None;
    for _ in 0..60 {
        let mut t = reference_whole_body().0;
        p.update(&base, &mut t, 1.0 / 90.0, &FlatFloor);
        last = Some(t);
    }
    let mut t = last.unwrap();
    let [chest, _, head] = reference_whole_body().1.spine;
    let yaw_of = |q: Quat| {
        let f = q * Vec3::Z;
        f.x.atan2(f.z)
    };
    (
        yaw_of(t.global(chest.unwrap()).rotation),
        yaw_of(t.global(head.unwrap()).rotation),
    )
}

/// Standing, the chest takes its share of a look aside; in a low stance (the headset 55 cm
/// down: a lunge, a deep stance) the chest stays with the body and the neck turns the head, which
/// still faces where the headset looks.
#[test]
fn in_a_low_stance_the_chest_stays_with_the_body_and_the_neck_turns_the_head() {
    let look = 50f32.to_radians();
    let share =
        crate::upper_body::upper_body_follow::UpperBodyFollowSettings::default().yaw_weights[0];
    let (chest_up, head_up) = chest_and_head_yaw(1.65, look);
    let (chest_straight, _) = chest_and_head_yaw(1.65, 0.0);
    assert!(
        ((chest_up - chest_straight) - share * look).abs() < 0.02,
        "standing, the chest takes its share: {} of {}",
        (chest_up - chest_straight).to_degrees(),
        look.to_degrees()
    );
    let (chest_low, head_low) = chest_and_head_yaw(1.1, look);
    let (chest_low_straight, _) = chest_and_head_yaw(1.1, 0.0);
    assert!(
        (chest_low - chest_low_straight).abs() < 0.02,
        "low, the chest keeps to the body: {} degrees",
        (chest_low - chest_low_straight).to_degrees()
    );
    assert!(
        (head_low - head_up).abs() < 0.02 && (head_up - look).abs() < 0.05,
        "the head faces the headset both ways: {} and {}",
        head_up.to_degrees(),
        head_low.to_degrees()
    );
}

/// Bowing to look at the floor: the lower body bends the spine after the spine turned toward
/// the headset, and the eyes the head bone carries stay on the headset (the spine's turn set
/// again after the bend put them centimetres off).
#[test]
fn bowing_the_whole_body_keeps_the_eyes_on_the_headset() {
    let mut p = reference_whole_pipeline(&ArmProfile::default());
    let (mut rest, _, lower, eyes) = reference_whole_body();
    // The eyes in the head bone's frame, carried with it.
    let eyes_in_head = rest.global(lower.head).inverse().transform_point(eyes);
    let look_down = Quat::from_rotation_y(std::f32::consts::PI) * Quat::from_rotation_x(-0.9);
    let headset = Pose::new(Vec3::new(0.0, 1.3, 0.35), look_down);
    let input = BodyInput {
        head: Some(headset),
        ..input(0.0, None)
    };
    let mut worst = 0.0f32;
    for frame in 0..120 {
        let mut t = reference_whole_body().0;
        let out = p.update(&input, &mut t, 1.0 / 90.0, &FlatFloor);
        assert!(out.lower.hips.is_some(), "the lower body ran");
        let eyes_now = t.global(lower.head).transform_point(eyes_in_head);
        if frame >= 60 {
            worst = worst.max(eyes_now.distance(headset.position));
        }
    }
    assert!(worst < 0.01, "the eyes {worst} m off the headset");
}
