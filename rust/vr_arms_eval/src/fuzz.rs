//! Adversarial frames through the whole core (`vr_arms_fuzz [FRAMES] [SEED]`).
//!
//! Every frame feeds the arm pipeline (both arms, overrides switching on and off), body follow,
//! upper body, clavicles, twist, tracking loss, the input guard and the revolver and hand-pose
//! state machines with random and hostile input:
//! NaN, infinities, 1e9 m poses, zero and non-normalised quaternions, dt of 0, negative, NaN and
//! 1 s hitches. It counts panics (caught per frame) and non-finite outputs.

use std::panic::{AssertUnwindSafe, catch_unwind};

use glam::{Quat, Vec3};
use vr_arms_core::body_follow::{BodyFollow, BodyFollowInput};
use vr_arms_core::body_frame::BodyFrame;
use vr_arms_core::clavicle_follow::{ClavicleFollow, ClavicleInput};
use vr_arms_core::forearm_twist::ForearmTwist;
use vr_arms_core::hand_pose::{HandPoseDriver, HandPoseState};
use vr_arms_core::input_guard::InputGuard;
use vr_arms_core::pipeline::{ArmPipeline, PipelineInput, reference_rig};
use vr_arms_core::profile::ArmProfile;
use vr_arms_core::revolver::{Revolver, RevolverInput};
use vr_arms_core::tracking_loss::{TrackingLoss, TrackingLossSettings};
use vr_arms_core::upper_body_follow::UpperBodyFollow;
use vr_arms_core::{PerSide, Pose, Side};

/// xorshift64*: deterministic, seedable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Mostly plausible numbers, sometimes hostile ones.
    fn value(&mut self, scale: f32) -> f32 {
        match self.next() % 40 {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => f32::NEG_INFINITY,
            3 => 1e9,
            4 => -1e9,
            5 => 0.0,
            6 => f32::MIN_POSITIVE,
            _ => (self.unit() * 2.0 - 1.0) * scale,
        }
    }

    fn vec(&mut self, scale: f32) -> Vec3 {
        Vec3::new(
            self.value(scale),
            self.value(scale) + scale,
            self.value(scale),
        )
    }

    fn quat(&mut self) -> Quat {
        match self.next() % 20 {
            0 => Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            1 => Quat::from_xyzw(3.0, -2.0, 1.0, 5.0),
            _ => Quat::from_xyzw(
                self.value(1.0),
                self.value(1.0),
                self.value(1.0),
                self.value(1.0),
            ),
        }
    }

    fn pose(&mut self) -> Pose {
        Pose::new(self.vec(1.0), self.quat())
    }

    fn dt(&mut self) -> f32 {
        match self.next() % 30 {
            0 => 0.0,
            1 => -0.01,
            2 => f32::NAN,
            3 => 1.0,
            4 => f32::INFINITY,
            _ => 1.0 / (60.0 + self.unit() * 90.0),
        }
    }
}

fn finite_pose(p: &Pose) -> bool {
    p.position.is_finite() && p.rotation.is_finite()
}

/// What a fuzz run found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FuzzReport {
    pub frames: u64,
    pub panics: u64,
    pub non_finite: u64,
}

/// Runs `frames` adversarial frames from `seed`.
pub fn run(frames: u64, seed: u64) -> FuzzReport {
    let mut rng = Rng(seed | 1);
    let rig = reference_rig();
    let mut pipeline = ArmPipeline::new(&ArmProfile::default(), &rig);
    let mut body = BodyFollow::default();
    let upper = UpperBodyFollow::default();
    let clavicle = ClavicleFollow::default();
    let mut twist = ForearmTwist::default();
    let mut revolver = Revolver::default();
    let mut loss = TrackingLoss::default();
    let mut guard = InputGuard::default();
    let mut hand_pose = HandPoseDriver::default();
    let loss_settings = TrackingLossSettings::default();
    let mut events = Vec::with_capacity(16);
    let (mut panics, mut non_finite) = (0u64, 0u64);
    for f in 0..frames {
        // Now and then start over, so state built from garbage is also tried from scratch.
        if f % 100_000 == 0 && f > 0 {
            pipeline = ArmPipeline::new(&ArmProfile::default(), &rig);
            body = BodyFollow::default();
            revolver = Revolver::default();
            loss = TrackingLoss::default();
            hand_pose = HandPoseDriver::default();
        }
        let dt = rng.dt();
        let (l, r, head, root, ovr) = (rng.pose(), rng.pose(), rng.pose(), rng.pose(), rng.pose());
        let use_override = rng.next().is_multiple_of(4);
        let grip = rng.value(1.0);
        let trigger = rng.value(1.0);
        let stick = rng.value(1.0);
        let hand_q = rng.quat();
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut bad = 0u64;
            if use_override {
                pipeline.routers.left.set_override();
            } else {
                pipeline.routers.left.clear_override();
            }
            let input = PipelineInput {
                body: BodyFrame::new(root),
                skeleton: root,
                up: Vec3::Y,
                controllers: PerSide::new(Some(l), Some(r)),
                overrides: PerSide::new(Some(ovr), None),
                bones: rig,
            };
            let out = pipeline.update(&input, dt);
            for arm in [out.left, out.right].into_iter().flatten() {
                let s = &arm.solve;
                let ok = finite_pose(&arm.target)
                    && arm.hint.is_finite()
                    && s.upper_local.is_finite()
                    && s.lower_local.is_finite()
                    && s.hand_local.is_finite()
                    && finite_pose(&s.hand);
                bad += u64::from(!ok);
            }
            let b = body.update(
                &BodyFollowInput {
                    head,
                    left_hand: Some(l.position),
                    right_hand: Some(r.position),
                    left_grip: Some(l.rotation),
                    right_grip: Some(r.rotation),
                    floor_y: l.position.y,
                },
                dt,
            );
            bad += u64::from(!(finite_pose(&b.root) && b.yaw.is_finite()));
            for q in upper
                .solve(
                    b.root.rotation,
                    head.rotation,
                    root.rotation,
                    [Some(hand_q), None, Some(l.rotation)],
                )
                .into_iter()
                .flatten()
            {
                bad += u64::from(!q.is_finite());
            }
            let c = clavicle.update(&ClavicleInput {
                clavicle_position: root.position,
                clavicle_rotation: hand_q,
                parent_rotation: root.rotation,
                shoulder: l.position,
                target: r.position,
                arm_length: trigger * 0.6,
                up: head.position,
            });
            bad += u64::from(!c.local_rotation.is_finite());
            let t = twist.update(Side::Left, hand_q, l.rotation, r.position, dt);
            bad += u64::from(!(t.distributed.is_finite() && t.wrist_twist.is_finite()));
            events.clear();
            revolver.update(
                &RevolverInput {
                    grip,
                    trigger,
                    stick_y: stick,
                    hand_position: r.position,
                    hand_in_holster_zone: grip > 0.0,
                    hand_on_gun: trigger > 0.5,
                    holster_anchor: root.position,
                    holster_rotation: root.rotation,
                    draw_clear_point: head.position,
                    gun_holster_point: ovr.position,
                    gun_rotation: ovr.rotation,
                    fan_palm: Some((l.position, ovr.position)),
                    flick_rate_rad_s: stick * 40.0,
                    cylinder_palm: Some(l.position - r.position),
                },
                dt,
                &mut events,
            );
            // The hammer by the thumb, and landings.
            if grip < 0.2 {
                revolver.thumb_hammer(stick, &mut events);
                revolver.release_hammer(&mut events);
            }
            revolver.landed(trigger * 10.0, grip > 0.5, &mut events);
            bad += u64::from(
                !(revolver.draw_t.is_finite()
                    && revolver.trigger_pull().is_finite()
                    && revolver.hammer.travel().is_finite()),
            );
            // Tracking loss and the input guard: the hand's pose through the guard, dropped now
            // and then, eased toward a random rest.
            let live = if grip > 0.3 { guard.check(&l) } else { None };
            let (held, _) = loss.update(live, &r, dt, &loss_settings);
            bad += u64::from(!finite_pose(&held));
            // The hand-pose state machine: flags and one-shots at random.
            hand_pose.hand_in_holster_zone = trigger > 0.0;
            hand_pose.pistol_held = stick > 0.0;
            if grip > 0.95 {
                hand_pose.play_one_shot(HandPoseState::Shoot, trigger);
            }
            if let Some(state) = hand_pose.update(dt) {
                bad += u64::from(state.name().is_empty());
            }
            if stick > 0.9 {
                revolver.open_cylinder(&mut events);
                revolver.eject_spent(&mut events);
                revolver.load_round(&mut events);
                revolver.close_cylinder(&mut events);
            }
            bad
        }));
        match result {
            Ok(bad) => non_finite += bad,
            Err(_) => panics += 1,
        }
    }
    FuzzReport {
        frames,
        panics,
        non_finite,
    }
}
