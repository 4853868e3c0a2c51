//! The whole body's figures on a clip, per method: mean position error of each joint group,
//! the full-body MPJPE over the 13 compared joints, frames with a foot under the floor and
//! foot skating against the clip's own.

use glam::Vec3;
use vr_arms_core::PerSide;
use vr_arms_core::body::Tracking;
use vr_arms_core::lower_body::LowerBodySettings;

use crate::clip::Clip;
use crate::eval::{EvalOptions, Track, chest_yaw_error_deg, yaw_of_rotation};
use crate::floor_plane::FloorPlane;
use crate::whole_body::{Hanging, JOINTS, Joints, WholeClipBody, truth};
use vr_arms_core::maths::angles::head_yaw;

/// The methods compared, in [`WholeBodyResult::methods`] order.
pub const WHOLE_BODY_METHODS: [&str; 3] = ["ours (whole body)", "standing", "hanging"];

/// One method's figures on one clip (cm, cm/s, frames).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WholeBodyFigures {
    pub head_cm: f32,
    pub hips_cm: f32,
    pub chest_cm: f32,
    pub knees_cm: f32,
    pub feet_cm: f32,
    pub arms_cm: f32,
    /// Both elbows alone (of the arms' joints).
    pub elbows_cm: f32,
    pub full_body_mpjpe_cm: f32,
    pub floor_penetration_frames: usize,
    /// The method's mean horizontal ankle speed while the ankle is on the floor, less the
    /// clip's own (cm/s).
    pub foot_skate_cm_s_excess: f32,
    /// Steps per minute (an ankle rising more than [`LIFT_M`] over its lowest since its last
    /// step, see [`Lifts`]) and the clip's own.
    pub steps_per_min: f32,
    pub clip_steps_per_min: f32,
    /// Elbow flips a minute beyond the clip's own (as the arm tables count them).
    pub flips_per_min_excess: f32,
    /// The chest's yaw error (degrees, its forward flattened, as the arm tables measure it).
    pub chest_yaw_deg: f32,
    pub frames: usize,
    /// The full-body MPJPE over the frames where the performer bends over (hips to head more
    /// than [`BENT_DEG`] from upright), and how many frames those are (0: none, the error 0).
    pub bent_mpjpe_cm: f32,
    pub bent_frames: usize,
}

/// The performer's hips-to-head line this far from upright (degrees) is bending over.
pub const BENT_DEG: f32 = 25.0;

/// A clip's figures for every method.
#[derive(Clone, Debug, PartialEq)]
pub struct WholeBodyResult {
    pub clip: String,
    pub methods: [WholeBodyFigures; 3],
}

/// Sums over frames, for one method.
#[derive(Clone, Debug, Default)]
struct Sums {
    joint: [f32; JOINTS],
    penetration: usize,
    skate: (f32, usize),
    last: Option<Joints>,
    lifts: Lifts,
    arms: Arms,
    chest_yaw_deg: f32,
    frames: usize,
    /// The joints' summed mean error over the frames the performer bends over, and their count.
    bent: (f32, usize),
}

/// Each arm's elbow track, for its flips.
#[derive(Clone, Debug, Default)]
struct Arms([Track; 2]);

impl Arms {
    fn add(&mut self, joints: &Joints, time: f32) {
        for (track, [s, e, w]) in self.0.iter_mut().zip(ARMS) {
            track.push(time, joints[s], joints[e], joints[w]);
        }
    }

    fn flips(&self) -> usize {
        self.0.iter().map(|t| t.flips).sum()
    }
}

/// Shoulder, elbow and wrist of each arm in [`Joints`].
const ARMS: [[usize; 3]; 2] = [[5, 6, 7], [10, 11, 12]];

/// An ankle rising more than this (metres) over the lowest it was since its last step is a
/// step; it must fall as far again from its highest before the next one can count.
pub const LIFT_M: f32 = 0.03;

/// Counts steps by each ankle's rise and fall, not by a fixed floor height: capture floors
/// drift a few centimetres over a walk (not quite level), one stance can stand higher than the
/// other, and markers wobble a centimetre.
#[derive(Clone, Copy, Debug, Default)]
struct Lifts {
    /// Per ankle: `Some(highest)` while it is up, else `None`, and the lowest since it last came
    /// down.
    up: [Option<f32>; 2],
    low: [Option<f32>; 2],
    count: usize,
}

impl Lifts {
    fn add(&mut self, joints: &Joints) {
        for ((up, low), a) in self.up.iter_mut().zip(&mut self.low).zip(ANKLES) {
            let y = joints[a].y;
            match *up {
                Some(high) if y < high - LIFT_M => {
                    *up = None;
                    *low = Some(y);
                }
                Some(high) => *up = Some(high.max(y)),
                None => {
                    let l = low.map_or(y, |l| l.min(y));
                    *low = Some(l);
                    if y > l + LIFT_M {
                        *up = Some(y);
                        self.count += 1;
                    }
                }
            }
        }
    }
}

/// Indices of the ankles in [`Joints`].
const ANKLES: [usize; 2] = [4, 9];

impl Sums {
    fn add(&mut self, method: &Joints, truth: &Joints, floor: &AnkleFloor, dt: f32) {
        self.arms.add(method, self.frames as f32 * dt);
        let mut all = 0.0;
        for (i, s) in self.joint.iter_mut().enumerate() {
            let d = method[i].distance(truth[i]);
            *s += d;
            all += d;
        }
        let spine = truth[0] - truth[1];
        if spine.angle_between(glam::Vec3::Y).to_degrees() > BENT_DEG {
            self.bent.0 += all / JOINTS as f32;
            self.bent.1 += 1;
        }
        if ANKLES
            .iter()
            .any(|&a| method[a].y < floor.y(method[a]) - 0.01)
        {
            self.penetration += 1;
        }
        self.skate = skate(self.skate, self.last.as_ref(), method, floor, dt);
        self.lifts.add(method);
        self.last = Some(*method);
        self.frames += 1;
    }

    fn figures(
        &self,
        clip_skate: f32,
        (clip_lifts, clip_flips): (usize, usize),
        minutes: f32,
    ) -> WholeBodyFigures {
        let n = self.frames.max(1) as f32;
        let per_min = |c: usize| {
            if minutes > 0.0 {
                c as f32 / minutes
            } else {
                0.0
            }
        };
        let m = |i: &[usize]| {
            100.0 * i.iter().map(|&i| self.joint[i]).sum::<f32>() / (n * i.len() as f32)
        };
        WholeBodyFigures {
            head_cm: m(&[0]),
            hips_cm: m(&[1]),
            chest_cm: m(&[2]),
            knees_cm: m(&[3, 8]),
            feet_cm: m(&ANKLES),
            arms_cm: m(&[5, 6, 7, 10, 11, 12]),
            elbows_cm: m(&[6, 11]),
            full_body_mpjpe_cm: m(&(0..JOINTS).collect::<Vec<_>>()),
            floor_penetration_frames: self.penetration,
            foot_skate_cm_s_excess: mean_speed(self.skate) - clip_skate,
            steps_per_min: per_min(self.lifts.count),
            clip_steps_per_min: per_min(clip_lifts),
            flips_per_min_excess: per_min(self.arms.flips()) - per_min(clip_flips),
            chest_yaw_deg: self.chest_yaw_deg / n,
            frames: self.frames,
            bent_mpjpe_cm: 100.0 * self.bent.0 / self.bent.1.max(1) as f32,
            bent_frames: self.bent.1,
        }
    }
}

/// Where an ankle standing on a clip's floor is (world): the floor's plane
/// ([`Clip::floor_plane`]) and the rest ankle's height over it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnkleFloor {
    pub plane: FloorPlane,
    pub over: f32,
}

impl AnkleFloor {
    /// The height of an ankle standing on the floor under `at` (world).
    pub fn y(&self, at: Vec3) -> f32 {
        self.plane.at(at.x, at.z) + self.over
    }
}

/// An ankle standing on `clip`'s floor; `None` for a clip without legs.
pub fn ankle_floor(clip: &Clip) -> Option<AnkleFloor> {
    let (_, _, legs) = clip.rest_lower()?;
    Some(AnkleFloor {
        plane: clip.floor_plane(),
        over: legs[0][2].y.min(legs[1][2].y) - clip.rest_floor(),
    })
}

/// Adds the ankles' horizontal speeds (cm/s) of the frames where an ankle is on the floor
/// (within 2 cm of its standing height) in this frame and the one before.
fn skate(
    acc: (f32, usize),
    last: Option<&Joints>,
    now: &Joints,
    floor: &AnkleFloor,
    dt: f32,
) -> (f32, usize) {
    let Some(last) = last else {
        return acc;
    };
    let on = |p: Vec3| p.y < floor.y(p) + 0.02;
    let mut acc = acc;
    for a in ANKLES {
        if on(now[a]) && on(last[a]) {
            let d = Vec3::new(now[a].x - last[a].x, 0.0, now[a].z - last[a].z);
            acc.0 += 100.0 * d.length() / dt;
            acc.1 += 1;
        }
    }
    acc
}

fn mean_speed(acc: (f32, usize)) -> f32 {
    if acc.1 == 0 {
        0.0
    } else {
        acc.0 / acc.1 as f32
    }
}

/// Every method on `clip` (`None` for a clip without legs).
pub fn evaluate_whole_body(
    clip: &Clip,
    options: &EvalOptions,
    settings: LowerBodySettings,
) -> Option<WholeBodyResult> {
    let scale = options.avatar_scale;
    let mut ours = WholeClipBody::new(clip, scale, &options.profile, settings)?;
    let mut standing = WholeClipBody::new(clip, scale, &options.profile, settings)?.standing();
    let hanging = Hanging::new(clip)?;
    let floor = ankle_floor(clip)?;
    let dt = clip.frame_time;
    let mut sums: [Sums; 3] = Default::default();
    let mut clip_skate = (0.0, 0);
    let mut last_truth: Option<Joints> = None;
    let mut clip_lifts = Lifts::default();
    let mut clip_arms = Arms::default();
    let mut seated = crate::seated::SeatedFlag::default();
    for k in 0..clip.frame_count() {
        let f = clip.frame(k);
        let t = truth(clip, k)?;
        if options.seated_from_clip
            && let (Some(lower), Some(l)) = (f.lower, ours.body.pipeline.lower_body.as_mut())
        {
            l.settings.seated = seated.update(&lower, dt);
        }
        let tracking = Tracking {
            head: Some(f.headset),
            controllers: PerSide::new(Some(f.controllers.left), Some(f.controllers.right)),
            ..Default::default()
        };
        let methods = [
            ours.frame(&tracking, dt),
            standing.frame(&tracking, dt),
            hanging.frame(&f.headset),
        ];
        // The hanging skeleton's chest faces where the headset looks.
        let chests = [
            yaw_of_rotation(ours.chest_rotation()),
            yaw_of_rotation(standing.chest_rotation()),
            head_yaw(&f.headset.rotation),
        ];
        for ((s, m), chest) in sums.iter_mut().zip(&methods).zip(chests) {
            s.add(m, &t, &floor, dt);
            s.chest_yaw_deg += chest_yaw_error_deg(chest, f.chest.rotation);
        }
        clip_skate = skate(clip_skate, last_truth.as_ref(), &t, &floor, dt);
        clip_lifts.add(&t);
        clip_arms.add(&t, k as f32 * dt);
        last_truth = Some(t);
    }
    let own = mean_speed(clip_skate);
    let minutes = clip.frame_count() as f32 * dt / 60.0;
    Some(WholeBodyResult {
        clip: clip.name.clone(),
        methods: sums.map(|s| s.figures(own, (clip_lifts.count, clip_arms.flips()), minutes)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bending error is measured on the frames where the performer's hips-to-head line is
    /// more than [`BENT_DEG`] from upright, whichever way: upright frames do not count.
    #[test]
    fn the_bending_error_counts_only_the_frames_the_performer_bends_over() {
        let mut sums = Sums::default();
        let floor = AnkleFloor {
            plane: FloorPlane::level(0.0),
            over: 0.0,
        };
        let mut truth: Joints = [Vec3::ZERO; JOINTS];
        truth[1] = Vec3::new(0.0, 1.0, 0.0);
        let method: Joints = truth.map(|j| j + Vec3::X * 0.1);
        // Upright, then leaning 20 degrees (not bending), then 40 forward and 40 sideways.
        for (lean, side) in [(0.0f32, false), (20.0, false), (40.0, false), (40.0, true)] {
            let r = lean.to_radians();
            let (a, b) = (0.7 * r.sin(), 0.7 * r.cos());
            truth[0] = truth[1]
                + if side {
                    Vec3::new(a, b, 0.0)
                } else {
                    Vec3::new(0.0, b, a)
                };
            let mut m = method;
            m[0] = truth[0] + Vec3::X * if lean > 30.0 { 0.3 } else { 0.1 };
            sums.add(&m, &truth, &floor, 0.01);
        }
        let f = sums.figures(0.0, (0, 0), 1.0);
        assert_eq!(f.bent_frames, 2);
        // 12 joints 10 cm off, the head 30: (12 * 10 + 30) / 13 cm.
        let expected = (12.0 * 10.0 + 30.0) / JOINTS as f32;
        assert!(
            (f.bent_mpjpe_cm - expected).abs() < 1e-3,
            "{}",
            f.bent_mpjpe_cm
        );
        assert!(f.full_body_mpjpe_cm < f.bent_mpjpe_cm);
    }

    /// A walk whose stance ankles hover 2 cm over a floor rising 6 cm over the clip, with
    /// marker noise: one step per lift, however the stance wobbles.
    #[test]
    fn steps_are_counted_once_each_on_a_floor_that_drifts() {
        let dt = 1.0 / 120.0;
        let mut lifts = Lifts::default();
        let mut joints: Joints = [Vec3::ZERO; JOINTS];
        let frames = 6 * 120;
        for k in 0..frames {
            let t = k as f32 * dt;
            let ground = 0.01 * t; // 6 cm over 6 s
            for (i, a) in ANKLES.into_iter().enumerate() {
                // Each foot swings 0.4 s of every second, the other half a second later.
                let phase = (t + 0.5 * i as f32) % 1.0;
                let swing = if phase < 0.4 {
                    0.15 * (phase / 0.4 * std::f32::consts::PI).sin()
                } else {
                    0.0
                };
                let noise = 0.008 * ((k * 7 + i * 3) as f32 * 1.3).sin();
                joints[a].y = ground + 0.02 + noise + swing;
            }
            lifts.add(&joints);
        }
        // Six swings of each foot.
        assert_eq!(lifts.count, 12);
    }

    /// The whole body's arms count a flip as the arm tables do: the right elbow swinging from
    /// one side of its arm to the other within a frame is one flip; held still, none.
    #[test]
    fn an_elbow_swinging_across_its_arm_is_one_flip() {
        let mut joints: Joints = [Vec3::ZERO; JOINTS];
        let [s, e, w] = ARMS[1];
        joints[s] = Vec3::new(0.2, 1.4, 0.0);
        joints[w] = Vec3::new(0.2, 1.4, 0.5);
        let mut arms = Arms::default();
        for (k, side) in [1.0f32, 1.0, -1.0, -1.0].into_iter().enumerate() {
            joints[e] = Vec3::new(0.2 + 0.15 * side, 1.3, 0.25);
            arms.add(&joints, k as f32 / 90.0);
        }
        assert_eq!(arms.flips(), 1);
        let mut still = Arms::default();
        for k in 0..4 {
            still.add(&joints, k as f32 / 90.0);
        }
        assert_eq!(still.flips(), 0);
    }
}
