//! Core benchmarks: the two-bone solve, one arm through the body, a full avatar frame (the
//! core's one composition, `Body`, as the engine runs it by default: input checks, body follow,
//! both arms, spine, clavicles, twist, 30 finger bones, and the lower body: hips, spine bend,
//! legs and feet, on the bones as the engine gives them), and the lower body alone beside both
//! legs' plain two-bone solves.
//!
//! `vr_arms_bench` prints medians of repeated timed batches (ns per operation); ratios between
//! the rows of one run are what to compare on a noisy machine. `vr_arms_bench --frames N` just
//! runs N full-avatar frames, for instruction counting under callgrind; `--lower` runs the lower
//! body alone instead.

use std::hint::black_box;
use std::time::Instant;

use glam::{Quat, Vec3};
use vr_arms_core::arms::two_bone_ik::{LimbPose, TwoBoneGoal, solve_two_bone};
use vr_arms_core::body::body_pipeline::{HandInput, Steps};
use vr_arms_core::body::profile::ArmProfile;
use vr_arms_core::body::{Body, Placement, Tracking};
use vr_arms_core::hands::hand_pose::HandPoseState;
use vr_arms_core::lower_body::ground::FlatFloor;
use vr_arms_core::lower_body::{LowerBody, LowerBodyInput, reference_lower_body};
use vr_arms_core::maths::pose_tree::PoseTree;
use vr_arms_core::testing::reference_body::{reference_whole_body, reference_whole_pipeline};
use vr_arms_core::{PerSide, Pose, Side};

/// One avatar's whole body, [`Body`], as `VRRemoteBody` runs it: the body follow, then every
/// bone-writing stage on the bones as they come in each frame (the engine restores them).
struct Avatar {
    body: Body,
    placement: Placement,
    tree: PoseTree,
    /// The bones' local poses as the engine gives them each frame.
    locals: Vec<Pose>,
    /// The two hand bones (for the result the loop keeps).
    hands: [usize; 2],
}

impl Avatar {
    fn new() -> Self {
        let (tree, bones, _, _) = reference_whole_body();
        let locals = (0..tree.len()).map(|i| tree.local(i)).collect();
        let profile = ArmProfile::default();
        Self {
            body: Body::new(reference_whole_pipeline(&profile), profile.body_follow),
            placement: Placement::default(),
            tree,
            locals,
            hands: [bones.arms.left[3], bones.arms.right[3]],
        }
    }

    /// The same body with one arm tracked: no follow, no spine, clavicle or lower body step, the
    /// right hand untracked (it rests beside the body, solved too).
    fn one_arm() -> Self {
        let mut a = Self::new();
        a.body.follow.follow_head = false;
        a.body.pipeline.steps = Steps {
            spine: false,
            clavicles: false,
            lower_body: false,
            ..Steps::default()
        };
        a
    }

    /// One frame of motion `m` (the right hand untracked when `one_arm`).
    fn frame(&mut self, m: &Motion, dt: f32, one_arm: bool) -> f32 {
        let (l, r, head) = (m.left, m.right, m.head);
        self.tree.set_locals(black_box(&self.locals));
        let hand = |grip: f32| HandInput {
            state: HandPoseState::Default,
            grip: black_box(grip),
            trigger: black_box(0.3),
            ..Default::default()
        };
        let tracking = Tracking {
            head: Some(head),
            controllers: PerSide::new(Some(l), (!one_arm).then_some(r)),
            hands: PerSide::new(hand(m.grip), hand(0.7)),
            ..Default::default()
        };
        let out = self.body.update(
            &tracking,
            &mut self.placement,
            &mut self.tree,
            dt,
            &FlatFloor,
        );
        let fingers: f32 = out.fingers.left.iter().flatten().map(|q| q.z).sum();
        fingers
            + self.tree.global(self.hands[0]).position.x
            + self.tree.global(self.hands[1]).position.x
    }
}

/// One frame of the tracked motion: headset, controllers and the left grip.
struct Motion {
    head: Pose,
    left: Pose,
    right: Pose,
    grip: f32,
}

/// Frames of motion in the table: `--frames` runs of up to this many never wrap; the timed
/// batches cycle through it (a jump back to the start every 4096 frames, smoothed like any other).
const MOTION_FRAMES: usize = 4096;

/// The motion at 90 Hz, worked out before timing, so the rows time our stages and not the sines
/// that make their input.
fn motion() -> Vec<Motion> {
    (0..MOTION_FRAMES)
        .map(|k| {
            let t = k as f32 / 90.0;
            let (left, right) = controllers(t);
            Motion {
                // Standing, then down into a 30 cm crouch and back, every 7 s.
                head: Pose::new(
                    Vec3::new(0.0, 1.65 - 0.15 * (1.0 - (t * 0.9).cos()), 0.05),
                    Quat::from_rotation_y(3.0 + 0.3 * t.sin()),
                ),
                left,
                right,
                grip: 0.5 + 0.5 * t.sin(),
            }
        })
        .collect()
}

fn controllers(t: f32) -> (Pose, Pose) {
    let l = Pose::new(
        Vec3::new(
            0.3 + 0.15 * (t * 2.0).sin(),
            1.2 + 0.3 * (t * 1.3).sin(),
            0.3 + 0.1 * t.cos(),
        ),
        Quat::from_rotation_x(0.5 * t.sin()),
    );
    let r = Pose::new(
        Vec3::new(-0.3 - 0.1 * (t * 1.7).cos(), 1.1 + 0.2 * t.sin(), 0.35),
        Quat::from_rotation_z(0.4 * t.cos()),
    );
    (l, r)
}

/// Median ns per call of `f` over `batches` batches of `per_batch` calls.
fn measure(batches: usize, per_batch: usize, mut f: impl FnMut(usize) -> f32) -> f64 {
    let mut times = Vec::with_capacity(batches);
    let mut sink = 0.0f32;
    for b in 0..batches {
        let start = Instant::now();
        for i in 0..per_batch {
            sink += f(b * per_batch + i);
        }
        times.push(start.elapsed().as_nanos() as f64 / per_batch as f64);
    }
    black_box(sink);
    times.sort_by(|a, b| a.total_cmp(b));
    times[times.len() / 2]
}

/// `--frames N [--lower]`, parsed with lexopt: the frames to run, and whether of the lower body
/// alone.
fn frames_arg() -> Result<(Option<usize>, bool), lexopt::Error> {
    use lexopt::prelude::*;
    let (mut frames, mut lower) = (None, false);
    let mut p = lexopt::Parser::from_env();
    while let Some(arg) = p.next()? {
        match arg {
            Long("frames") => frames = Some(p.value()?.parse()?),
            Long("lower") => lower = true,
            _ => return Err(arg.unexpected()),
        }
    }
    Ok((frames, lower))
}

/// The lower body alone on its own tree, from the bones as they come in each frame (the
/// engine restores them): one frame of `m`.
struct Lower {
    stage: LowerBody,
    rest: PoseTree,
    tree: PoseTree,
}

impl Lower {
    fn new() -> Self {
        let (rest, bones, eyes) = reference_lower_body();
        Self {
            stage: LowerBody::new(Default::default(), bones, &rest, Some(eyes)),
            tree: rest.clone(),
            rest,
        }
    }

    fn frame(&mut self, m: &Motion) -> f32 {
        self.tree.clone_from(&self.rest);
        self.stage
            .update(
                Side::Left,
                &mut self.tree,
                &LowerBodyInput::at_origin(m.head),
                1.0 / 90.0,
            )
            .head_miss
    }
}

fn main() {
    let (frames, lower_only) = match frames_arg() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("vr_arms_bench [--frames N [--lower]]: {e}");
            std::process::exit(2);
        }
    };
    if let Some(n) = frames {
        let motion = motion();
        let mut avatar = Avatar::new();
        let mut lower = Lower::new();
        let mut sink = 0.0;
        for m in motion.iter().cycle().take(n) {
            sink += if lower_only {
                lower.frame(black_box(m))
            } else {
                avatar.frame(black_box(m), 1.0 / 90.0, false)
            };
        }
        black_box(sink);
        return;
    }
    let pose = LimbPose {
        shoulder: Vec3::new(0.17, 1.41, 0.0),
        elbow: Vec3::new(0.45, 1.41, 0.0),
        wrist: Vec3::new(0.69, 1.41, 0.0),
        hinge: Vec3::NEG_Y,
    };
    // The targets are worked out before timing, so the row times the solve and not a sine.
    let targets: Vec<Vec3> = (0..1024)
        .map(|i| Vec3::new(0.3 + 0.1 * (i as f32 * 0.001).sin(), 1.2, 0.3))
        .collect();
    let two_bone = measure(31, 20_000, |i| {
        let goal = TwoBoneGoal {
            target: black_box(targets[i % targets.len()]),
            pole: Vec3::new(0.2, -1.0, -0.3),
        };
        solve_two_bone(black_box(&pose), &goal).wrist.x
    });
    let mut one_arm = Avatar::one_arm();
    let motion = motion();
    let at = |i: usize| black_box(&motion[i % MOTION_FRAMES]);
    let arm = measure(31, 5_000, |i| one_arm.frame(at(i), 1.0 / 90.0, true));
    let mut avatar = Avatar::new();
    let full = measure(31, 2_000, |i| avatar.frame(at(i), 1.0 / 90.0, false));
    // The lower body alone on its own tree (the bones as they come in each frame), and what a
    // plain two-bone solve of each leg costs.
    let mut lower = Lower::new();
    let lower_body = measure(31, 5_000, |i| lower.frame(at(i)));
    let leg = |x: f32| LimbPose {
        shoulder: Vec3::new(x, 0.9, 0.0),
        elbow: Vec3::new(x, 0.48, 0.0),
        wrist: Vec3::new(x, 0.06, 0.0),
        hinge: Vec3::X,
    };
    let legs = [leg(0.15), leg(-0.15)];
    let ankles: Vec<Vec3> = (0..1024)
        .map(|i| Vec3::new(0.0, 0.06, 0.1 + 0.05 * (i as f32 * 0.01).sin()))
        .collect();
    let two_legs = measure(31, 10_000, |i| {
        let mut sum = 0.0;
        for leg in &legs {
            let goal = TwoBoneGoal {
                target: black_box(ankles[i % ankles.len()] + Vec3::X * leg.shoulder.x),
                pole: Vec3::Z,
            };
            sum += solve_two_bone(black_box(leg), &goal).wrist.x;
        }
        sum
    });
    println!("| work | median ns | ratio to the two-bone solve |");
    println!("|---|---|---|");
    println!("| two-bone solve (one arm) | {two_bone:.0} | 1.0 |");
    println!(
        "| one arm tracked (`Body` without follow, spine or clavicles; the other hand untracked, resting beside the body): input checks, controller targets, tracking loss, body avoidance, reach clamp, router, elbow hint, soft IK, solve, twist, 30 finger bones | {arm:.0} | {:.1} |",
        arm / two_bone
    );
    println!(
        "| full avatar (`Body`, as `VRRemoteBody` runs it by default): input checks, body follow, both arms, spine, 2 clavicles, 2 twists, 30 finger bones, the lower body (hips, spine bend, both legs, feet) | {full:.0} | {:.1} |",
        full / two_bone
    );
    println!(
        "| lower body alone (`LowerBody`: hips placed, spine bent, both legs solved, feet planted or stepping) | {lower_body:.0} | {:.1} |",
        lower_body / two_bone
    );
    println!(
        "| both legs' two-bone solves (what a plain leg IK does) | {two_legs:.0} | {:.1} |",
        two_legs / two_bone
    );
}
