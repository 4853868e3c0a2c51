//! Scenario tests of the whole body (lower half included, as the engine runs it by default)
//! for elbow flips: the player turning round 90 and 180 degrees with the hands held in front,
//! and the hands passing overhead from one side to the other, in exact-hands mode (the local
//! player) and full mode (remote players). A flip is counted as the evaluation counts it on
//! motion capture: the elbow's swivel (its direction off the shoulder-wrist line) turning more
//! than 90 degrees within 0.1 s while the arm is clearly bent.

use glam::{Quat, Vec3};
use vr_arms_core::body::profile::ArmProfile;
use vr_arms_core::body::{Body, Placement, Tracking};
use vr_arms_core::lower_body::ground::FlatFloor;
use vr_arms_core::testing::reference_body::{reference_whole_body, reference_whole_pipeline};
use vr_arms_core::{PerSide, Pose, Side};

const HZ: f32 = 90.0;
/// The evaluation's flip: more than this swivel change (degrees) within [`WINDOW_S`].
const FLIP_DEG: f32 = 90.0;
const WINDOW_S: f32 = 0.1;
/// Clearly bent: the elbow this far (metres) off the shoulder-wrist line.
const BENT_M: f32 = 0.03;

/// The two modes: the local player's (exact hands) and the remote player's (clamped, smoothed).
fn profiles() -> [(&'static str, ArmProfile); 2] {
    let mut remote = ArmProfile::default();
    remote.reach_clamp.exact_hands_mode = false;
    remote.reach_clamp.use_soft_far_clamp = true;
    remote.reach_clamp.smooth_always = true;
    remote.soft_ik.exact_hands = false;
    [("exact hands", ArmProfile::default()), ("full", remote)]
}

/// Flips per arm, and how far each hand ended from its controller at the end (metres).
#[derive(Debug, Default)]
struct Seen {
    flips: [usize; 2],
    recent: [Vec<(f32, Vec3)>; 2],
}

impl Seen {
    fn observe(&mut self, side: usize, time: f32, shoulder: Vec3, elbow: Vec3, wrist: Vec3) {
        let axis = (wrist - shoulder).normalize_or_zero();
        let off = (elbow - shoulder) - axis * (elbow - shoulder).dot(axis);
        let recent = &mut self.recent[side];
        if off.length() <= BENT_M {
            recent.clear();
            return;
        }
        let d = off.normalize();
        recent.retain(|(t, _)| time - *t <= WINDOW_S + 1e-6);
        if recent
            .iter()
            .any(|(_, p)| p.dot(d).clamp(-1.0, 1.0).acos().to_degrees() > FLIP_DEG)
        {
            self.flips[side] += 1;
            recent.clear();
        }
        recent.push((time, d));
    }
}

/// Runs the whole body for `seconds` with the headset and controllers from `script(t)`
/// (world; the player stands at the origin), every frame from the rest pose as the engine
/// does. Returns the flips seen and the last frame's hands' distances from their controllers.
fn run(
    profile: &ArmProfile,
    seconds: f32,
    script: impl Fn(f32) -> (Pose, PerSide<Pose>),
) -> (Seen, [f32; 2]) {
    let (rest, bones, _, _) = reference_whole_body();
    let mut body = Body::new(reference_whole_pipeline(profile), profile.body_follow);
    let mut placement = Placement::default();
    let mut seen = Seen::default();
    let mut misses = [0.0; 2];
    let frames = (seconds * HZ) as usize;
    for k in 0..=frames {
        let t = k as f32 / HZ;
        let (head, hands) = script(t);
        let tracking = Tracking {
            head: Some(head),
            controllers: PerSide::new(Some(hands.left), Some(hands.right)),
            ..Default::default()
        };
        let mut tree = rest.clone();
        let out = body.update(&tracking, &mut placement, &mut tree, 1.0 / HZ, &FlatFloor);
        let skeleton = placement.skeleton();
        for side in Side::BOTH {
            let [_, upper, lower, hand] = *bones.arms.get(side);
            let at = |tree: &mut vr_arms_core::maths::pose_tree::PoseTree, b: usize| {
                skeleton.transform_point(tree.global(b).position)
            };
            let (s, e, w) = (
                at(&mut tree, upper),
                at(&mut tree, lower),
                at(&mut tree, hand),
            );
            seen.observe(side.index(), t, s, e, w);
            if let Some(arm) = out.targets.get(side) {
                misses[side.index()] = w.distance(arm.target.position);
            }
        }
    }
    (seen, misses)
}

/// The headset at eye height looking along `yaw` (radians about +Y from +Z), and each hand
/// `ahead` metres in front of the chest, 20 cm to its side, at `height`, turned with the body.
fn facing(yaw: f32, ahead: f32, height: f32) -> (Pose, PerSide<Pose>) {
    let turn = Quat::from_rotation_y(yaw);
    // A camera looks along its -Z.
    let head = Pose::new(
        turn * Vec3::new(0.0, 1.65, 0.05),
        turn * Quat::from_rotation_y(std::f32::consts::PI),
    );
    let hand = |x: f32| {
        Pose::new(
            turn * Vec3::new(x, height, ahead),
            turn * Quat::from_rotation_x(-1.2),
        )
    };
    (head, PerSide::new(hand(0.2), hand(-0.2)))
}

/// Eases 0 to 1 over [0, 1] (smoothstep).
fn ease(u: f32) -> f32 {
    let u = u.clamp(0.0, 1.0);
    u * u * (3.0 - 2.0 * u)
}

fn turn_in_place(degrees: f32, seconds: f32) {
    for (mode, profile) in profiles() {
        let (seen, misses) = run(&profile, seconds + 1.0, |t| {
            let u = if seconds > 0.0 {
                ease((t - 0.3) / seconds)
            } else {
                f32::from(t >= 0.3)
            };
            let yaw = degrees.to_radians() * u;
            facing(yaw, 0.35, 1.15)
        });
        assert_eq!(
            seen.flips,
            [0, 0],
            "{mode}: no elbow flips turning {degrees} degrees"
        );
        if mode == "exact hands" {
            assert!(
                misses.iter().all(|m| *m < 0.002),
                "{mode}: the hands on their controllers: {misses:?}"
            );
        }
    }
}

/// Turning round a quarter turn in half a second, hands held in front: no elbow flips in
/// either mode, and the exact hands stay on their controllers.
#[test]
fn a_quarter_turn_in_place_flips_no_elbow() {
    turn_in_place(90.0, 0.5);
}

/// Turning right round in a second, hands held in front: no elbow flips in either mode.
#[test]
fn a_half_turn_in_place_flips_no_elbow() {
    turn_in_place(180.0, 1.0);
    turn_in_place(-180.0, 0.6);
}

/// Snap turns (the game turns the player 90 and 180 degrees at once, head and hands with it):
/// the body turns after them, yet no elbow flips in either mode.
#[test]
fn snap_turns_flip_no_elbow() {
    turn_in_place(90.0, 0.0);
    turn_in_place(180.0, 0.0);
}

/// The hands rise over the shoulders (each hand 40 cm from its shoulder, so the elbow stays
/// bent) through straight up, where the shoulder-to-hand line is vertical and a pole below or
/// behind says nothing: forward and up over the shoulder a little behind it and back; then
/// from out at the side up over it, across over the head and back. No elbow flips in either
/// mode, and the exact hands on their controllers at the end.
#[test]
fn hands_passing_overhead_flip_no_elbow() {
    let (_, bones, _, _) = reference_whole_body();
    let (mut rest, _, _, _) = reference_whole_body();
    let mut shoulder = |side: Side| rest.global(bones.arms.get(side)[1]).position;
    let shoulders = PerSide::new(shoulder(Side::Left), shoulder(Side::Right));
    let pi = std::f32::consts::PI;
    // `a` 0 to `top` and back over 2.5 s, eased.
    let swing = |t: f32, top: f32| top * (pi * (t / 2.5).min(1.0)).sin();
    // Each path: the hand 40 cm from its shoulder at arm angle `a`, and the controller held
    // along the arm (its -Z from the shoulder to the hand), turning with it as a hand does.
    type Path = fn(Vec3, f32, f32) -> Pose;
    let paths: [(&str, Path); 2] = [
        // In the shoulder's forward plane: ahead (0), straight up (pi/2), behind (past pi/2).
        ("forward and up", |s, _, a| {
            Pose::new(
                s + Vec3::new(0.0, a.sin(), a.cos()) * 0.4,
                Quat::from_rotation_x(-a) * Quat::from_rotation_y(std::f32::consts::PI),
            )
        }),
        // In the shoulder's side plane: out at the side (0), up (pi/2), across (past pi/2).
        ("out and up", |s, out, a| {
            Pose::new(
                s + Vec3::new(out * a.cos(), a.sin(), 0.0) * 0.4,
                Quat::from_rotation_z(out * a)
                    * Quat::from_rotation_y(-out * std::f32::consts::FRAC_PI_2),
            )
        }),
    ];
    for (mode, profile) in profiles() {
        for (name, path) in paths {
            let (seen, misses) = run(&profile, 2.6, |t| {
                let (head, _) = facing(0.0, 0.0, 0.0);
                let a = swing(t, 0.65 * pi);
                let hand = |side: Side| {
                    let out = if side == Side::Left { 1.0 } else { -1.0 };
                    path(*shoulders.get(side), out, a)
                };
                (head, PerSide::new(hand(Side::Left), hand(Side::Right)))
            });
            assert_eq!(
                seen.flips,
                [0, 0],
                "{mode}, {name}: no elbow flips overhead"
            );
            if mode == "exact hands" {
                assert!(
                    misses.iter().all(|m| *m < 0.002),
                    "{mode}, {name}: the hands on their controllers: {misses:?}"
                );
            }
        }
    }
}
