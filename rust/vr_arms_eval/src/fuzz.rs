//! Adversarial frames through the whole core (`vr_arms_fuzz [FRAMES] [SEED]`).
//!
//! Every frame feeds the core's one composition of the whole body ([`Body`]: input checks, body
//! follow, tracking loss, both arms with overrides switching on and off, spine, clavicles, twist,
//! fingers from grip and trigger or from hand-tracked curls), the revolver and hand-pose state
//! machines, a [`PoseTree`] of random shape, the network's packet decoders (arbitrary bytes of
//! any length, and mangled real packets) and the jitter buffer (arbitrary arrival orders and
//! clocks), with random and hostile input: NaN, infinities, 1e9 m poses, zero and non-normalised
//! quaternions, dt of 0, negative, NaN and 1 s hitches. It counts panics (caught per frame) and
//! non-finite outputs.

use std::panic::{AssertUnwindSafe, catch_unwind};

use glam::{Quat, Vec3};
use vr_arms_core::body::body_pipeline::{BodyOutput, HandInput};
use vr_arms_core::body::profile::ArmProfile;
use vr_arms_core::body::{Body, Placement, Tracking};
use vr_arms_core::hands::hand_pose::{HandPoseDriver, HandPoseState};
use vr_arms_core::lower_body::{
    LowerBody, LowerBodyInput, LowerBodySettings, reference_lower_body,
};
use vr_arms_core::maths::pose_tree::PoseTree;
use vr_arms_core::net::events::decode_event;
use vr_arms_core::net::jitter_buffer::{JitterBuffer, JitterSettings};
use vr_arms_core::net::state_packet::{
    AvatarState, HandState, StateHeader, StateLimits, decode_state, encode_state,
};
use vr_arms_core::revolver::{Revolver, RevolverInput};
use vr_arms_core::testing::reference_body::{reference_whole_body, reference_whole_pipeline};
use vr_arms_core::{PerSide, Pose};

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

/// The body as the engine runs it by default: with its lower half.
fn new_body() -> Body {
    let profile = ArmProfile::default();
    Body::new(reference_whole_pipeline(&profile), profile.body_follow)
}

/// Non-finite outputs of one body frame: targets, hints, every tree bone, the fingers, and the
/// root when it was finite before (a root the caller placed is the caller's input).
fn bad_body(out: &BodyOutput, tree: &mut PoseTree, placement: &Placement, before: &Pose) -> u64 {
    let mut bad = u64::from(finite_pose(before) && !finite_pose(&placement.root));
    for t in [out.targets.left, out.targets.right].into_iter().flatten() {
        bad += u64::from(!(finite_pose(&t.target) && t.hint.is_finite()));
    }
    for i in 0..tree.len() {
        bad += u64::from(!finite_pose(&tree.global(i)));
    }
    for q in out.fingers.left.iter().chain(&out.fingers.right).flatten() {
        bad += u64::from(!q.is_finite());
    }
    bad
}

/// The lower body (not yet in the engine's body: on its own reference tree): a headset now and
/// then lost, the root, the skeleton, the floor and the scale at random, the bones as they
/// come in; every bone and every output is finite.
fn fuzz_lower_body(
    rng: &mut Rng,
    lower: &mut LowerBody,
    tree: &mut PoseTree,
    template: &PoseTree,
) -> u64 {
    let (headset, root, skeleton) = (rng.pose(), rng.pose(), rng.pose());
    let lost = rng.next().is_multiple_of(7);
    let input = LowerBodyInput {
        headset: (!lost).then_some(headset),
        root: if rng.next().is_multiple_of(3) {
            root
        } else {
            Pose::IDENTITY
        },
        skeleton: if rng.next().is_multiple_of(3) {
            skeleton
        } else {
            Pose::IDENTITY
        },
        floor_y: rng.value(2.0),
        scale: rng.value(2.0),
        origin: rng.next().is_multiple_of(2).then(|| rng.pose()),
        hands: Default::default(),
        ground: &vr_arms_core::lower_body::ground::FlatFloor,
    };
    // The game seats and stands the player at random moments.
    if rng.next().is_multiple_of(5) {
        lower.settings.seated = !lower.settings.seated;
    }
    tree.clone_from(template);
    let out = lower.update(vr_arms_core::Side::Left, tree, &input, rng.dt());
    let mut bad = u64::from(!(out.head_miss.is_finite() || out.hips.is_none()));
    bad += u64::from(!(0.0..=1.0).contains(&out.walk_animation_share));
    bad += u64::from(out.hips.is_some_and(|h| !finite_pose(&h)));
    for foot in [out.feet.left, out.feet.right].into_iter().flatten() {
        bad += u64::from(!(foot.place.position.is_finite() && foot.place.yaw.is_finite()));
    }
    for i in 0..tree.len() {
        bad += u64::from(!finite_pose(&tree.global(i)));
    }
    bad
}

/// A tree of up to 12 bones with random parents (sometimes not a tree: refused) and random
/// poses: every global and local pose it gives is finite.
fn fuzz_tree(rng: &mut Rng) -> u64 {
    let n = (rng.next() % 12) as usize;
    let parents: Vec<Option<usize>> = (0..n)
        .map(|i| match rng.next() % 8 {
            0 => None,
            1 => Some((rng.next() % 16) as usize), // maybe ahead, maybe out of range
            _ if i > 0 => Some((rng.next() as usize) % i),
            _ => None,
        })
        .collect();
    let Ok(mut tree) = PoseTree::new(&parents) else {
        return 0;
    };
    let poses: Vec<Pose> = (0..n).map(|_| rng.pose()).collect();
    if rng.next().is_multiple_of(2) {
        tree.set_globals(&poses);
    } else {
        tree.set_locals(&poses);
    }
    let mut bad = 0;
    for i in 0..n {
        if rng.next().is_multiple_of(3) {
            tree.set_local_rotation(i, rng.quat());
        }
        bad += u64::from(!(finite_pose(&tree.global(i)) && finite_pose(&tree.local(i))));
    }
    bad
}

/// A plausible state packet's bytes, for mangling.
fn packet(rng: &mut Rng) -> Vec<u8> {
    let hand = |rng: &mut Rng| HandState {
        pose: Pose::new(rng.vec(0.5), rng.quat()),
        tracked: rng.next().is_multiple_of(2),
        hand_tracking: rng.next().is_multiple_of(3),
        grip: rng.value(1.0),
        trigger: rng.value(1.0),
        curls: std::array::from_fn(|_| rng.value(1.0)),
    };
    let state = AvatarState {
        scale: rng.value(2.0),
        root: rng.vec(10.0),
        head: Pose::new(rng.vec(1.0), rng.quat()),
        head_tracked: rng.next().is_multiple_of(2),
        hands: [hand(rng), hand(rng)],
        revolver: rng.next().is_multiple_of(2).then(|| rng.next() as u8),
        seated: rng.next().is_multiple_of(2),
    };
    let header = StateHeader {
        sequence: rng.next() as u8,
        time_ms: rng.next() as u16,
    };
    encode_state(header, &state)
}

/// The decoders on arbitrary bytes of any length and on mangled real packets, and what they
/// accept fed to the jitter buffer at an arbitrary clock: everything that comes out is finite.
fn fuzz_network(rng: &mut Rng, buffer: &mut JitterBuffer, clock: &mut f64) -> u64 {
    let mut bytes = if rng.next().is_multiple_of(2) {
        let len = (rng.next() % 96) as usize;
        (0..len).map(|_| rng.next() as u8).collect()
    } else {
        packet(rng)
    };
    // Mangle: flip bytes, cut or extend.
    for _ in 0..(rng.next() % 4) {
        if let Some(i) = (!bytes.is_empty()).then(|| (rng.next() as usize) % bytes.len()) {
            bytes[i] ^= rng.next() as u8;
        }
    }
    match rng.next() % 4 {
        0 => bytes.truncate((rng.next() as usize) % (bytes.len() + 1)),
        1 => bytes.push(rng.next() as u8),
        _ => {}
    }
    let mut bad = 0;
    if let Ok((_, event)) = decode_event(&bytes) {
        bad += u64::from(format!("{event:?}").contains("NaN"));
    }
    // The clock: forward, backward, stuck, jumping, non-finite.
    *clock = match rng.next() % 10 {
        0 => *clock - 1.0,
        1 => *clock + 1e6,
        2 => f64::NAN,
        3 => 0.0,
        _ => *clock + rng.unit() as f64 * 0.05,
    };
    if !clock.is_finite() && rng.next().is_multiple_of(2) {
        *clock = 0.0;
    }
    if let Ok((header, state)) = decode_state(&bytes, &StateLimits::default()) {
        buffer.receive(header, state, *clock);
    }
    let (state, _) = buffer.sample(*clock);
    let hands_ok = state.hands.iter().all(|h| {
        finite_pose(&h.pose) && h.grip.is_finite() && h.curls.iter().all(|c| c.is_finite())
    });
    bad += u64::from(
        !(state.scale.is_finite()
            && state.root.is_finite()
            && finite_pose(&state.head)
            && hands_ok),
    );
    bad
}

/// Runs `frames` adversarial frames from `seed`.
pub fn run(frames: u64, seed: u64) -> FuzzReport {
    let mut rng = Rng(seed | 1);
    let mut body = new_body();
    let mut placement = Placement::default();
    let (template, _, _, _) = reference_whole_body();
    let mut tree = template.clone();
    let mut revolver = Revolver::default();
    let mut hand_pose = HandPoseDriver::default();
    let mut buffer = JitterBuffer::new(JitterSettings::default());
    let mut clock = 0.0f64;
    let mut events = Vec::with_capacity(16);
    let (lower_template, lower_bones, eyes) = reference_lower_body();
    let new_lower = || {
        LowerBody::new(
            // The walk animation's blend on, so hostile origins reach it.
            LowerBodySettings {
                walk_animation_share: 1.0,
                ..Default::default()
            },
            lower_bones,
            &lower_template,
            Some(eyes),
        )
    };
    let mut lower = new_lower();
    let mut lower_tree = lower_template.clone();
    let (mut panics, mut non_finite) = (0u64, 0u64);
    for f in 0..frames {
        // Now and then start over, so state built from garbage is also tried from scratch.
        if f % 100_000 == 0 && f > 0 {
            body = new_body();
            placement = Placement::default();
            revolver = Revolver::default();
            hand_pose = HandPoseDriver::default();
            buffer = JitterBuffer::new(JitterSettings::default());
            lower = new_lower();
        }
        let dt = rng.dt();
        let (l, r, head, root, ovr) = (rng.pose(), rng.pose(), rng.pose(), rng.pose(), rng.pose());
        let use_override = rng.next().is_multiple_of(4);
        let grip = rng.value(1.0);
        let trigger = rng.value(1.0);
        let stick = rng.value(1.0);
        let hand_q = rng.quat();
        let drop = rng.next();
        let curls: [f32; 5] = std::array::from_fn(|_| rng.value(1.0));
        let weight = rng.value(1.0);
        let scale = rng.value(2.0);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut bad = 0u64;
            let router = &mut body.pipeline.arms.routers.left;
            if use_override {
                router.set_override();
            } else {
                router.clear_override();
            }
            // The whole body: a point dropped now and then, the root sometimes placed by the
            // caller, the bones as they come in (sometimes garbage).
            let hand = |g: f32| HandInput {
                grip: g,
                trigger,
                tracked_curls: curls,
                tracked_weight: weight,
                ..Default::default()
            };
            let tracking = Tracking {
                head: (!drop.is_multiple_of(7)).then_some(head),
                controllers: PerSide::new(
                    (!drop.is_multiple_of(5)).then_some(l),
                    (!drop.is_multiple_of(11)).then_some(r),
                ),
                overrides: PerSide::new(Some(ovr), None),
                hands: PerSide::new(hand(grip), hand(stick)),
            };
            body.follow.follow_head = !drop.is_multiple_of(13);
            if !body.follow.follow_head {
                placement.root = root;
            }
            placement.scale = scale;
            placement.floor_y = l.position.y;
            placement.skeleton_in_root = if drop.is_multiple_of(17) {
                ovr
            } else {
                Pose::IDENTITY
            };
            tree.clone_from(&template);
            if drop.is_multiple_of(19) {
                tree.set_local_rotation((drop as usize / 19) % tree.len(), hand_q);
            }
            let before = placement.root;
            let out = body.update(
                &tracking,
                &mut placement,
                &mut tree,
                dt,
                &vr_arms_core::lower_body::ground::FlatFloor,
            );
            bad += bad_body(&out, &mut tree, &placement, &before);
            bad += fuzz_tree(&mut rng);
            bad += fuzz_network(&mut rng, &mut buffer, &mut clock);
            bad += fuzz_lower_body(&mut rng, &mut lower, &mut lower_tree, &lower_template);
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
