//! Runs the pipeline and the baselines on a clip and measures them against the clip.
//!
//! Modes: **arm-only** (the clip's true shoulders and chest are given: isolates the elbow and
//! hand heuristics) and **full** (the engine's whole body, [`vr_arms_core::body::Body`] as
//! `VRRemoteBody` runs it, on a skeleton with the clip's bone lengths standing on the floor:
//! the root follows the headset, the spine, clavicles and arms follow; see [`crate::clip_body`]).
//! Both modes run the same composition (arm-only without its follow, spine and clavicle steps).
//!
//! Methods: `ours` (the whole pipeline), `lookat` (the simple LookAt method: elbow one forearm
//! length behind the hand along the hand's forward axis), `lookat_pole` (that LookAt elbow used as
//! the pole of an exact two-bone solve), `fixed_pole` (plain two-bone IK with a downward pole, as
//! `TwoBoneIK3D` with a static pole); torso: `ours` vs `headset_only` (chest yaw = head yaw). All
//! methods get the same calibrated wrist target.

use glam::{Quat, Vec3};
use vr_arms_core::arms::soft_ik::min_bend_reach;
use vr_arms_core::arms::two_bone_ik::{LimbPose, TwoBoneGoal, solve_two_bone};
use vr_arms_core::body::Tracking;
use vr_arms_core::body::profile::ArmProfile;
use vr_arms_core::maths::angles::head_yaw;
use vr_arms_core::maths::angles::{wrap_angle, yaw_of};
use vr_arms_core::{ArmBones, ArmCalibration, PerSide, Pose, Side};

use crate::clip::{Clip, GRIP_OFFSET, align};
use crate::clip_body::{CHEST, ClipBody, HEAD, NECK, arm_indices};

/// A swivel change larger than this (degrees) within [`FLIP_WINDOW_S`], while the arm is clearly
/// bent, is a flip: a reversal spread over several frames counts as well as a one-frame jump,
/// at any frame rate.
pub const FLIP_DEG: f32 = 90.0;
/// The window of a flip (seconds).
pub const FLIP_WINDOW_S: f32 = 0.1;
/// "Clearly bent": the elbow at least this far (metres) off the shoulder-wrist line.
pub const BENT_M: f32 = 0.03;

/// Options of one evaluation run.
#[derive(Clone, Copy, Debug)]
pub struct EvalOptions {
    /// A fixed error in the controllers' orientation (degrees), as real grips are never
    /// calibrated perfectly.
    pub calibration_error_deg: f32,
    pub profile: ArmProfile,
    /// The avatar's size against the performer's: every bone length times this, applied as
    /// `AvatarCalibrator` does (a uniform scale of the avatar, its body settings in its own
    /// metres). 1: the performer's own proportions.
    pub avatar_scale: f32,
    /// The whole body is told when the performer sits ([`crate::seated`]), as a game that
    /// knows its chairs sets `seated`.
    pub seated_from_clip: bool,
}

impl Default for EvalOptions {
    fn default() -> Self {
        Self {
            calibration_error_deg: 0.0,
            profile: eval_profile(ArmProfile::default()),
            avatar_scale: 1.0,
            seated_from_clip: false,
        }
    }
}

/// The profile with the grip offset calibrated out: the default rotation calibration, and a
/// position offset that maps the grip centre back onto the wrist.
pub fn eval_profile(mut p: ArmProfile) -> ArmProfile {
    let q = crate::clip::grip_from_hand(Quat::IDENTITY);
    let offset = -(q.inverse() * GRIP_OFFSET);
    p.controller_targets.left.position_offset = offset.to_array();
    p.controller_targets.right.position_offset = offset.to_array();
    p
}

/// Accumulated errors of one method in one mode.
#[derive(Clone, Debug, Default)]
pub struct Metrics {
    pub hand_reachable_cm: Vec<f32>,
    pub hand_unreachable_cm: Vec<f32>,
    pub elbow_cm: Vec<f32>,
    pub shoulder_cm: Vec<f32>,
    pub chest_yaw_deg: Vec<f32>,
    /// Per frame: the mean position error (cm) over head, neck, chest, both shoulders, both
    /// elbows and both wrists (the joints published three-point methods report).
    pub upper_body_cm: Vec<f32>,
    /// Jitter over those nine joints, pooled over joints and frames (m/s^3), and the clip's own.
    pub upper_jitter: Pooled,
    pub clip_upper_jitter: Pooled,
    pub flips: usize,
    pub clip_flips: usize,
    pub minutes: f32,
    /// Elbow jitter pooled over frames: the sum of |third difference| x fps^3 (m/s^3) and the
    /// number of frames it sums.
    pub jitter: Pooled,
    pub clip_jitter: Pooled,
    /// Frames (per arm) with the method's hand or elbow inside the torso while the clip's own
    /// hand and elbow are outside it.
    pub torso_frames: usize,
    /// Frames (per arm) with the clip's own hand or elbow inside the torso.
    pub clip_torso_frames: usize,
    pub frames: usize,
}

/// A sum over frames and its frame count, so that pooling weights every frame alike.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pooled {
    pub sum: f64,
    pub frames: usize,
}

impl Pooled {
    pub fn add(&mut self, o: Pooled) {
        self.sum += o.sum;
        self.frames += o.frames;
    }

    /// The per-frame mean (NaN with no frames).
    pub fn mean(&self) -> f32 {
        if self.frames == 0 {
            f32::NAN
        } else {
            (self.sum / self.frames as f64) as f32
        }
    }
}

impl Metrics {
    /// Flips per minute beyond the clip's own (NaN without time).
    pub fn flips_per_min_excess(&self) -> f32 {
        if self.minutes > 0.0 {
            (self.flips as f32 - self.clip_flips as f32) / self.minutes
        } else {
            f32::NAN
        }
    }

    /// Elbow jitter beyond the clip's own (m/s^3), each pooled over frames.
    pub fn jitter_excess(&self) -> f32 {
        self.jitter.mean() - self.clip_jitter.mean()
    }

    pub fn merge(&mut self, o: &Metrics) {
        self.hand_reachable_cm.extend(&o.hand_reachable_cm);
        self.hand_unreachable_cm.extend(&o.hand_unreachable_cm);
        self.elbow_cm.extend(&o.elbow_cm);
        self.shoulder_cm.extend(&o.shoulder_cm);
        self.chest_yaw_deg.extend(&o.chest_yaw_deg);
        self.upper_body_cm.extend(&o.upper_body_cm);
        self.upper_jitter.add(o.upper_jitter);
        self.clip_upper_jitter.add(o.clip_upper_jitter);
        self.flips += o.flips;
        self.clip_flips += o.clip_flips;
        self.minutes += o.minutes;
        self.jitter.add(o.jitter);
        self.clip_jitter.add(o.clip_jitter);
        self.torso_frames += o.torso_frames;
        self.clip_torso_frames += o.clip_torso_frames;
        self.frames += o.frames;
    }
}

pub fn mean(v: &[f32]) -> f32 {
    if v.is_empty() {
        f32::NAN
    } else {
        v.iter().map(|x| *x as f64).sum::<f64>() as f32 / v.len() as f32
    }
}

pub fn p95(v: &[f32]) -> f32 {
    if v.is_empty() {
        return f32::NAN;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    s[((s.len() as f32 * 0.95) as usize).min(s.len() - 1)]
}

/// The results of one clip: per (method, mode).
#[derive(Clone)]
pub struct ClipResult {
    pub name: String,
    pub rows: Vec<(String, String, Metrics)>,
}

/// Per-arm history for flips and jitter.
#[derive(Default, Clone, Debug)]
pub struct Track {
    elbows: Vec<Vec3>,
    /// Bend directions of the clearly bent frames of the last [`FLIP_WINDOW_S`], with their times.
    recent: Vec<(f32, Vec3)>,
    pub flips: usize,
}

impl Track {
    /// One frame at `time` seconds.
    pub fn push(&mut self, time: f32, shoulder: Vec3, elbow: Vec3, wrist: Vec3) {
        self.elbows.push(elbow);
        let axis = (wrist - shoulder).normalize_or_zero();
        let off = (elbow - shoulder) - axis * (elbow - shoulder).dot(axis);
        if off.length() <= BENT_M {
            // Through a nearly straight arm the swivel is undefined: nothing to compare.
            self.recent.clear();
            return;
        }
        let d = off.normalize();
        self.recent
            .retain(|(t, _)| time - *t <= FLIP_WINDOW_S + 1e-6);
        let flipped = self
            .recent
            .iter()
            .any(|(_, p)| p.dot(d).clamp(-1.0, 1.0).acos().to_degrees() > FLIP_DEG);
        if flipped {
            // One reversal is one flip, however many frames it spans.
            self.flips += 1;
            self.recent.clear();
        }
        self.recent.push((time, d));
    }

    /// |third difference| x fps^3 (m/s^3) summed over the frames that have one.
    pub fn jitter(&self, dt: f32) -> Pooled {
        let e = &self.elbows;
        if e.len() < 4 {
            return Pooled::default();
        }
        let sum: f64 = (3..e.len())
            .map(|t| (e[t] - 3.0 * e[t - 1] + 3.0 * e[t - 2] - e[t - 3]).length() as f64)
            .sum();
        Pooled {
            sum: sum / (dt as f64).powi(3),
            frames: e.len() - 3,
        }
    }
}

/// The nine upper-body joints of one frame: head, neck, chest, shoulders, elbows, wrists (left
/// before right).
pub type UpperBody = [Vec3; 9];

/// |third difference| x fps^3 (m/s^3) of every joint of `frames`, pooled over joints and frames.
pub fn upper_jitter(frames: &[UpperBody], dt: f32) -> Pooled {
    if frames.len() < 4 {
        return Pooled::default();
    }
    let mut sum = 0.0f64;
    for w in frames.windows(4) {
        sum += (0..9)
            .map(|j| (w[3][j] - 3.0 * w[2][j] + 3.0 * w[1][j] - w[0][j]).length() as f64)
            .sum::<f64>();
    }
    Pooled {
        sum: sum / (dt as f64).powi(3),
        frames: (frames.len() - 3) * 9,
    }
}

/// The mean distance (cm) between the joints of a method and the truth.
pub fn upper_body_error_cm(method: &UpperBody, truth: &UpperBody) -> f32 {
    method
        .iter()
        .zip(truth)
        .map(|(a, b)| a.distance(*b))
        .sum::<f32>()
        / 9.0
        * 100.0
}

/// Whether `p` is inside the torso box of the true chest frame.
pub fn in_torso(chest: &Pose, p: Vec3) -> bool {
    let l = chest.inverse_transform_point(p);
    l.x.abs() < 0.12 && l.y > -0.30 && l.y < 0.12 && l.z > -0.10 && l.z < 0.08
}

/// A penetration the method adds: its elbow or hand inside the torso while the clip's own
/// elbow and hand are outside it (the performer's own contact is not counted against anyone).
pub fn adds_penetration(chest: &Pose, truth: (Vec3, Vec3), method: (Vec3, Vec3)) -> bool {
    let inside = |(elbow, wrist): (Vec3, Vec3)| in_torso(chest, elbow) || in_torso(chest, wrist);
    inside(method) && !inside(truth)
}

/// The yaw of a rotation's forward (+Z), flattened.
pub fn yaw_of_rotation(q: Quat) -> f32 {
    let f = q * Vec3::Z;
    yaw_of(Vec3::new(f.x, 0.0, f.z))
}

/// The chest-yaw error (degrees, 0..180) of an estimated yaw against the true chest rotation
/// (its forward +Z flattened; the chest's pitch and roll do not count).
pub fn chest_yaw_error_deg(estimate: f32, chest: Quat) -> f32 {
    wrap_angle(estimate - yaw_of_rotation(chest))
        .abs()
        .to_degrees()
}

/// The body root for a chest: the root stands so that the chest sits at body-local height 1.25 m
/// (the torso band body avoidance expects), turned by `yaw`.
fn root_for(chest: Vec3, yaw: f32, scale: f32) -> Pose {
    let r = Quat::from_rotation_y(yaw);
    Pose::new(chest - r * Vec3::new(0.0, 1.25 * scale, 0.0), r)
}

/// `bones` moved (not turned) so that the upper arm starts at `shoulder`.
fn moved_to(bones: ArmBones, shoulder: Vec3) -> ArmBones {
    let d = shoulder - bones.upper.position;
    let m = |p: Pose| Pose::new(p.position + d, p.rotation);
    ArmBones {
        parent: m(bones.parent),
        upper: m(bones.upper),
        lower: m(bones.lower),
        hand: m(bones.hand),
    }
}

/// Arm bones hanging in their rest pose from a clavicle pose.
fn bones_from_clavicle(
    rest: &ArmBones,
    clavicle_pos: Vec3,
    clavicle_rot: Quat,
    side: Side,
) -> ArmBones {
    let a = align(side);
    let r = clavicle_rot;
    let upper = clavicle_pos + r * (rest.upper.position - rest.parent.position);
    let lower = upper + r * (rest.lower.position - rest.upper.position);
    let hand = lower + r * (rest.hand.position - rest.lower.position);
    let rot = (r * a).normalize();
    ArmBones {
        parent: Pose::new(clavicle_pos, rot),
        upper: Pose::new(upper, rot),
        lower: Pose::new(lower, rot),
        hand: Pose::new(hand, rot),
    }
}

/// An exact two-bone solve of the arm toward `target` with the elbow toward `pole` (a direction
/// from the shoulder): elbow and wrist.
fn two_bone(bones: &ArmBones, cal: &ArmCalibration, target: Vec3, pole: Vec3) -> (Vec3, Vec3) {
    let pose = LimbPose {
        shoulder: bones.upper.position,
        elbow: bones.lower.position,
        wrist: bones.hand.position,
        hinge: bones.upper.rotation * cal.hinge_in_upper,
    };
    let s = solve_two_bone(&pose, &TwoBoneGoal { target, pole });
    (s.elbow, s.wrist)
}

fn fixed_pole(bones: &ArmBones, cal: &ArmCalibration, target: Vec3) -> (Vec3, Vec3) {
    two_bone(bones, cal, target, Vec3::NEG_Y)
}

fn lookat(shoulder: Vec3, cal: &ArmCalibration, target: &Pose) -> (Vec3, Vec3) {
    let (a, b) = (cal.upper_length, cal.lower_length);
    // Along the fingers: the palm frame's -Z.
    let forward = target.rotation * Vec3::NEG_Z;
    let to = target.position - shoulder;
    let guess = if to.length() >= a + b {
        shoulder + to.normalize_or_zero() * a
    } else {
        target.position - forward * b
    };
    let elbow = shoulder + (guess - shoulder).normalize_or(Vec3::NEG_Y) * a;
    let wrist = elbow + (target.position - elbow).normalize_or(Vec3::NEG_Y) * b;
    (elbow, wrist)
}

/// The LookAt elbow direction used as the pole of an exact two-bone solve: the hand is exact and
/// the elbow bends toward where LookAt would put it.
fn lookat_pole(bones: &ArmBones, cal: &ArmCalibration, target: &Pose) -> (Vec3, Vec3) {
    let shoulder = bones.upper.position;
    let (guess, _) = lookat(shoulder, cal, target);
    two_bone(bones, cal, target.position, guess - shoulder)
}

/// The methods every clip is run with, in table order.
pub const METHODS: [&str; 4] = ["ours", "lookat", "lookat_pole", "fixed_pole"];

/// Evaluates one clip.
pub fn evaluate_clip(clip: &Clip, options: &EvalOptions) -> ClipResult {
    let scale = if options.avatar_scale.is_finite() && options.avatar_scale > 0.0 {
        options.avatar_scale
    } else {
        1.0
    };
    let profile = options.profile;
    let mut arm_only = ClipBody::new(clip, scale, &profile).arms_only();
    let mut full = ClipBody::new(clip, scale, &profile);
    let cal = full.body.pipeline.arms.calibration;
    let dt = clip.frame_time;
    let err_rot = Quat::from_axis_angle(
        Vec3::new(1.0, 1.0, 0.0).normalize(),
        options.calibration_error_deg.to_radians(),
    );

    let methods = METHODS;
    let modes = ["arm-only", "full"];
    let mut metrics: Vec<Vec<Metrics>> = vec![vec![Metrics::default(); modes.len()]; methods.len()];
    let mut tracks: Vec<Vec<[Track; 2]>> =
        vec![vec![[Track::default(), Track::default()]; modes.len()]; methods.len()];
    let mut clip_tracks = [Track::default(), Track::default()];
    let mut clip_upper: Vec<UpperBody> = Vec::with_capacity(clip.frame_count());
    let mut upper: Vec<Vec<Vec<UpperBody>>> = vec![vec![Vec::new(); modes.len()]; methods.len()];
    let mut torso_headset_only = Metrics::default();
    let mut clip_torso = 0;

    for k in 0..clip.frame_count() {
        let f = clip.frame(k);
        let time = k as f32 * dt;
        let controllers = PerSide::new(
            Pose::new(
                f.controllers.left.position,
                f.controllers.left.rotation * err_rot,
            ),
            Pose::new(
                f.controllers.right.position,
                f.controllers.right.rotation * err_rot,
            ),
        );
        let chest_yaw_true = yaw_of_rotation(f.chest.rotation);
        for side in Side::BOTH {
            clip_tracks[side.index()].push(
                time,
                *f.shoulder.get(side),
                *f.elbow.get(side),
                *f.wrist.get(side),
            );
            if in_torso(&f.chest, *f.elbow.get(side)) || in_torso(&f.chest, *f.wrist.get(side)) {
                clip_torso += 1;
            }
        }

        // The full mode: the engine's whole body, from the headset and controllers.
        let tracking = Tracking {
            head: Some(f.headset),
            controllers: PerSide::new(Some(controllers.left), Some(controllers.right)),
            ..Default::default()
        };
        let full_out = full.full_frame(&tracking, dt);
        let chest_yaw_ours = yaw_of_rotation(full.rotation(CHEST));
        metrics[0][1]
            .chest_yaw_deg
            .push(chest_yaw_error_deg(chest_yaw_ours, f.chest.rotation));
        torso_headset_only.chest_yaw_deg.push(chest_yaw_error_deg(
            head_yaw(&f.headset.rotation),
            f.chest.rotation,
        ));

        // Arm-only: the avatar's shoulders on the performer's (its bones its own length).
        let true_arm = |side: Side| {
            let clavicle = f.clavicle.get(side);
            let rest = arm_only.rest_arms(side);
            let bones = bones_from_clavicle(&rest, clavicle.position, clavicle.rotation, side);
            moved_to(bones, *f.shoulder.get(side))
        };
        let bones_true = PerSide::new(true_arm(Side::Left), true_arm(Side::Right));
        let truth: UpperBody = [
            f.head,
            f.neck,
            f.chest.position,
            f.shoulder.left,
            f.shoulder.right,
            f.elbow.left,
            f.elbow.right,
            f.wrist.left,
            f.wrist.right,
        ];
        clip_upper.push(truth);
        let arm_out = arm_only.arms_frame(
            &tracking,
            root_for(f.chest.position, chest_yaw_true, scale),
            [
                f.chest,
                Pose::from_position(f.neck),
                Pose::from_position(f.head),
            ],
            bones_true,
            dt,
        );

        for (mode, (cb, out)) in [(&mut arm_only, arm_out), (&mut full, full_out)]
            .into_iter()
            .enumerate()
        {
            // Each arm as the solve found it (world): after the spine and clavicles.
            let bones =
                Side::BOTH.map(|side| out.arms_before_solve.get(side).map(|b| cb.arm_to_world(&b)));
            // This mode's head, neck, chest and shoulders (the truth's in arm-only).
            let mut frame_joints: UpperBody = truth;
            if mode == 1 {
                frame_joints[0] = cb.position(HEAD);
                frame_joints[1] = cb.position(NECK);
                frame_joints[2] = cb.position(CHEST);
            }
            for side in Side::BOTH {
                frame_joints[3 + side.index()] = cb.position(arm_indices(side)[1]);
            }
            let mut per_method = [frame_joints; METHODS.len()];
            for side in Side::BOTH {
                let (Some(arm), Some(b)) = (*out.targets.get(side), bones[side.index()]) else {
                    continue;
                };
                let b = &b;
                let c = cal.get(side);
                let shoulder = b.upper.position;
                let [_, _, lower, hand] = arm_indices(side);
                let results = [
                    (cb.position(lower), cb.position(hand)),
                    lookat(shoulder, c, &arm.raw),
                    lookat_pole(b, c, &arm.raw),
                    fixed_pole(b, c, arm.raw.position),
                ];
                let true_wrist = *f.wrist.get(side);
                let reachable = true_wrist.distance(shoulder)
                    <= min_bend_reach(
                        c.upper_length,
                        c.lower_length,
                        profile.soft_ik.min_elbow_bend_deg.to_radians(),
                    ) * 0.999;
                for (m, (elbow, wrist)) in results.into_iter().enumerate() {
                    let acc = &mut metrics[m][mode];
                    let hand_cm = wrist.distance(true_wrist) * 100.0;
                    if reachable {
                        acc.hand_reachable_cm.push(hand_cm)
                    } else {
                        acc.hand_unreachable_cm.push(hand_cm)
                    }
                    acc.elbow_cm
                        .push(elbow.distance(*f.elbow.get(side)) * 100.0);
                    if mode == 1 {
                        acc.shoulder_cm
                            .push(shoulder.distance(*f.shoulder.get(side)) * 100.0);
                    }
                    if adds_penetration(&f.chest, (*f.elbow.get(side), true_wrist), (elbow, wrist))
                    {
                        acc.torso_frames += 1;
                    }
                    acc.frames += 1;
                    tracks[m][mode][side.index()].push(time, shoulder, elbow, wrist);
                    per_method[m][5 + side.index()] = elbow;
                    per_method[m][7 + side.index()] = wrist;
                }
            }
            for (m, joints) in per_method.iter().enumerate() {
                metrics[m][mode]
                    .upper_body_cm
                    .push(upper_body_error_cm(joints, &truth));
                upper[m][mode].push(*joints);
            }
        }
    }

    let minutes = clip.frame_count() as f32 * dt / 60.0;
    let clip_flips: usize = clip_tracks.iter().map(|t| t.flips).sum();
    let mut clip_jitter = Pooled::default();
    for t in &clip_tracks {
        clip_jitter.add(t.jitter(dt));
    }
    let mut rows = Vec::new();
    for (m, method) in methods.iter().enumerate() {
        for (mode, mode_name) in modes.iter().enumerate() {
            let mut acc = std::mem::take(&mut metrics[m][mode]);
            acc.flips = tracks[m][mode].iter().map(|t| t.flips).sum();
            acc.clip_flips = clip_flips;
            acc.minutes = minutes;
            acc.jitter = Pooled::default();
            for t in &tracks[m][mode] {
                acc.jitter.add(t.jitter(dt));
            }
            acc.clip_jitter = clip_jitter;
            acc.clip_torso_frames = clip_torso;
            acc.upper_jitter = upper_jitter(&upper[m][mode], dt);
            acc.clip_upper_jitter = upper_jitter(&clip_upper, dt);
            rows.push((method.to_string(), mode_name.to_string(), acc));
        }
    }
    torso_headset_only.minutes = minutes;
    rows.push((
        "headset_only_torso".into(),
        "full".into(),
        torso_headset_only,
    ));
    ClipResult {
        name: clip.name.clone(),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds a track an elbow whose bend direction (about the +X arm) is `angle(t)` degrees.
    fn swivel(hz: f32, seconds: f32, angle: impl Fn(f32) -> f32) -> usize {
        let mut t = Track::default();
        let n = (seconds * hz).round() as usize;
        for k in 0..=n {
            let time = k as f32 / hz;
            let a = angle(time).to_radians();
            let bend = Vec3::new(0.0, -a.cos(), a.sin()) * 0.1;
            t.push(
                time,
                Vec3::ZERO,
                Vec3::new(0.2, 0.0, 0.0) + bend,
                Vec3::new(0.4, 0.0, 0.0),
            );
        }
        t.flips
    }

    #[test]
    fn a_reversal_spread_over_frames_is_one_flip_at_any_frame_rate() {
        // 180 degrees over 5 frames at 90 Hz (56 ms), then still.
        let fast = |t: f32| (t * 90.0 / 5.0).clamp(0.0, 1.0) * 180.0;
        for hz in [60.0, 90.0, 120.0, 144.0] {
            assert_eq!(swivel(hz, 1.0, fast), 1, "{hz} Hz");
        }
        // The same turn over half a second is a motion, not a flip.
        let slow = |t: f32| (t * 2.0).clamp(0.0, 1.0) * 180.0;
        assert_eq!(swivel(90.0, 1.0, slow), 0);
        // 80 degrees at once is under the threshold.
        assert_eq!(
            swivel(90.0, 1.0, |t: f32| if t > 0.5 { 80.0 } else { 0.0 }),
            0
        );
        // Two reversals, half a second apart, are two flips.
        let twice = |t: f32| if t > 0.25 && t < 0.75 { 180.0 } else { 0.0 };
        assert_eq!(swivel(90.0, 1.0, twice), 2);
    }

    #[test]
    fn a_straight_arm_breaks_the_comparison() {
        let mut t = Track::default();
        let (s, w) = (Vec3::ZERO, Vec3::new(0.4, 0.0, 0.0));
        t.push(0.0, s, Vec3::new(0.2, -0.1, 0.0), w);
        t.push(0.011, s, Vec3::new(0.2, -0.01, 0.0), w); // 1 cm off the line: straight
        t.push(0.022, s, Vec3::new(0.2, 0.1, 0.0), w);
        assert_eq!(t.flips, 0);
    }

    #[test]
    fn only_penetrations_the_clip_does_not_have_count() {
        let chest = Pose::from_position(Vec3::new(0.0, 1.3, 0.0));
        let inside = Vec3::new(0.05, 1.25, 0.0);
        let outside = Vec3::new(0.3, 1.2, 0.3);
        assert!(adds_penetration(
            &chest,
            (outside, outside),
            (outside, inside)
        ));
        assert!(adds_penetration(
            &chest,
            (outside, outside),
            (inside, outside)
        ));
        assert!(
            !adds_penetration(&chest, (outside, inside), (outside, inside)),
            "the performer's own"
        );
        assert!(!adds_penetration(
            &chest,
            (inside, outside),
            (outside, inside)
        ));
        assert!(!adds_penetration(
            &chest,
            (outside, outside),
            (outside, outside)
        ));
    }

    #[test]
    fn jitter_pools_over_frames() {
        let mut a = Pooled {
            sum: 10.0,
            frames: 1,
        };
        a.add(Pooled {
            sum: 0.0,
            frames: 9,
        });
        assert_eq!(
            a.mean(),
            1.0,
            "a long quiet track weighs more than a short noisy one"
        );
        assert!(Pooled::default().mean().is_nan());
        // A constant-jerk elbow: third differences of t^3 are 6 dt^3, so jitter is 6 m/s^3.
        let mut t = Track::default();
        let dt = 0.01;
        for k in 0..10 {
            let x = (k as f32 * dt).powi(3);
            t.push(k as f32 * dt, Vec3::ZERO, Vec3::new(x, 0.0, 0.0), Vec3::X);
        }
        let j = t.jitter(dt);
        assert_eq!(j.frames, 7);
        assert!((j.mean() - 6.0).abs() < 0.05, "{}", j.mean());
    }

    #[test]
    fn the_upper_body_error_is_the_mean_over_nine_joints() {
        let truth: UpperBody = std::array::from_fn(|j| Vec3::new(j as f32, 1.0, 0.0));
        let mut method = truth;
        // One joint 9 cm off, the others exact: 1 cm on average.
        method[5] += Vec3::new(0.0, 0.09, 0.0);
        assert!((upper_body_error_cm(&method, &truth) - 1.0).abs() < 1e-4);
        assert_eq!(upper_body_error_cm(&truth, &truth), 0.0);
    }

    #[test]
    fn upper_body_jitter_pools_over_joints_and_frames() {
        // Every joint on a constant-jerk path (t^3, third differences 6 dt^3): 6 m/s^3; one
        // joint still, the other eight moving: 8/9 of that.
        let dt = 0.01;
        let path = |k: usize, moving: usize| -> UpperBody {
            let x = (k as f32 * dt).powi(3);
            std::array::from_fn(|j| {
                if j < moving {
                    Vec3::new(x, 0.0, 0.0)
                } else {
                    Vec3::ZERO
                }
            })
        };
        let all: Vec<UpperBody> = (0..10).map(|k| path(k, 9)).collect();
        let j = upper_jitter(&all, dt);
        assert_eq!(j.frames, 7 * 9);
        assert!((j.mean() - 6.0).abs() < 0.05, "{}", j.mean());
        let eight: Vec<UpperBody> = (0..10).map(|k| path(k, 8)).collect();
        assert!((upper_jitter(&eight, dt).mean() - 6.0 * 8.0 / 9.0).abs() < 0.05);
        assert_eq!(upper_jitter(&all[..3], dt), Pooled::default());
    }

    #[test]
    fn the_avatars_arm_moves_onto_the_performers_shoulder() {
        let b = vr_arms_core::arms::arm_steps::reference_arm_bones(Side::Left);
        let moved = moved_to(b, Vec3::new(0.2, 1.4, 0.1));
        assert_eq!(moved.upper.position, Vec3::new(0.2, 1.4, 0.1));
        assert!(
            (moved.hand.position - moved.lower.position)
                .distance(b.hand.position - b.lower.position)
                < 1e-6
        );
    }

    #[test]
    fn a_pure_yaw_offset_is_that_chest_yaw_error() {
        for true_yaw in [-3.0f32, -1.0, 0.0, 0.5, 2.9] {
            // The chest leaning forward 20 degrees and rolled 10 does not count.
            let chest = Quat::from_rotation_y(true_yaw)
                * Quat::from_rotation_x(20f32.to_radians())
                * Quat::from_rotation_z(10f32.to_radians());
            for offset in [-35.0f32, 0.0, 12.5, 170.0] {
                let e = chest_yaw_error_deg(true_yaw + offset.to_radians(), chest);
                assert!((e - offset.abs()).abs() < 1e-3, "{true_yaw} {offset}: {e}");
            }
        }
        // Across the wrap: 350 degrees off is 10.
        let e = chest_yaw_error_deg(350f32.to_radians(), Quat::IDENTITY);
        assert!((e - 10.0).abs() < 1e-3, "{e}");
    }
}
