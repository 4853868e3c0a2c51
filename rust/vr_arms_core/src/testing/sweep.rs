//! Scripted arm sweeps and the stability report: elbow flips and fully straight frames.
//!
//! The sweep moves a controller through the situations that break naive arms (full extension
//! forward and back, overhead, across the chest, behind the back, a fast flick) and runs the
//! whole pipeline on it. A test asserts that the report shows zero flips and zero straight frames.

use glam::{Quat, Vec3};

use crate::arms::arm_steps::reference_rig;
use crate::body::profile::ArmProfile;
use crate::maths::pose::Pose;
use crate::maths::side::Side;
use crate::testing::reference_arms::{ReferenceArms, controllers};

/// A swivel jump larger than this in one frame, while the arm is clearly bent, is a flip.
pub const FLIP_THRESHOLD_DEG: f32 = 45.0;
/// The elbow counts as clearly bent when it is this far (metres) off the shoulder-wrist line.
pub const BENT_OFFSET_M: f32 = 0.03;
/// An elbow bent less than this (degrees) counts as fully straight.
pub const STRAIGHT_DEG: f32 = 1.0;

/// What a sweep did to the elbow.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SweepReport {
    pub frames: usize,
    pub flips: usize,
    pub straight_frames: usize,
    /// Largest swivel change between consecutive bent frames (degrees).
    pub max_swivel_step_deg: f32,
    /// Smallest elbow bend seen (degrees).
    pub min_bend_deg: f32,
    pub non_finite_frames: usize,
}

/// Right-controller position (world = body space) at time `t` of the scripted sweep, and its
/// duration. The controller's rotation points its forward (-Z) from the shoulder to the hand.
pub fn sweep_controller(t: f32) -> Pose {
    let shoulder = Vec3::new(-0.17, 1.41, 0.0);
    let keys: [(f32, Vec3); 12] = [
        (0.0, Vec3::new(-0.25, 0.95, 0.1)),  // rest at the side
        (1.0, Vec3::new(-0.2, 1.35, 0.45)),  // forward, bent
        (2.0, Vec3::new(-0.17, 1.41, 0.75)), // forward, beyond reach
        (3.0, Vec3::new(-0.2, 1.35, 0.4)),   // back
        (4.0, Vec3::new(-0.2, 2.1, 0.1)),    // overhead, beyond reach
        (5.0, Vec3::new(-0.3, 1.75, 0.2)),   // down from overhead
        (6.0, Vec3::new(0.25, 1.2, 0.2)),    // across the chest
        (7.0, Vec3::new(-0.35, 1.1, -0.25)), // behind the back
        (8.0, Vec3::new(-0.3, 1.2, 0.35)),   // front again
        (8.15, Vec3::new(0.1, 1.5, 0.5)),    // fast flick across
        (8.3, Vec3::new(-0.45, 1.1, 0.3)),   // and back
        (9.0, Vec3::new(-0.25, 0.95, 0.1)),  // rest
    ];
    let t = t.clamp(0.0, keys[keys.len() - 1].0);
    let i = keys
        .iter()
        .rposition(|(k, _)| *k <= t)
        .unwrap_or(0)
        .min(keys.len() - 2);
    let (t0, p0) = keys[i];
    let (t1, p1) = keys[i + 1];
    let u = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
    let u = crate::maths::smoothing::smoothstep(u);
    let pos = p0.lerp(p1, u);
    let forward = (pos - shoulder).normalize_or(Vec3::Z);
    Pose::new(pos, held_upright(forward))
}

/// A controller pointing along `forward` (its -Z) held upright: its +Y as close to world up as
/// the pointing allows (straight up or down, toward the back), so its roll never spins.
pub fn held_upright(forward: Vec3) -> Quat {
    let forward = forward.normalize_or(Vec3::NEG_Z);
    let up_hint = if forward.y.abs() > 0.99 {
        Vec3::Z
    } else {
        Vec3::Y
    };
    let right = forward.cross(up_hint).normalize();
    let up = right.cross(forward);
    Quat::from_mat3(&glam::Mat3::from_cols(right, up, -forward)).normalize()
}

/// Duration of [`sweep_controller`] (seconds).
pub const SWEEP_SECONDS: f32 = 9.0;

/// Runs the sweep on the right arm of the reference rig at `hz` and reports.
pub fn run_sweep(profile: &ArmProfile, hz: f32) -> SweepReport {
    let rig = reference_rig();
    let mut arms = ReferenceArms::new(profile);
    let dt = 1.0 / hz;
    let frames = (SWEEP_SECONDS * hz).round() as usize;
    let mut report = SweepReport {
        min_bend_deg: 180.0,
        ..Default::default()
    };
    let mut observer = SweepObserver::default();
    for f in 0..=frames {
        let t = f as f32 * dt;
        let out = arms.update(
            &controllers(None, Some(sweep_controller(t))),
            Pose::IDENTITY,
            dt,
        );
        if let Some(arm) = out.get(Side::Right) {
            observer.observe(
                &mut report,
                rig.right.upper.position,
                arm.solve.lower.position,
                arm.solve.hand.position,
            );
        }
    }
    report
}

/// Adds frames to a [`SweepReport`]: the bend, and the swivel step between consecutive frames
/// in which the arm is clearly bent.
#[derive(Clone, Copy, Debug, Default)]
pub struct SweepObserver {
    last_bend_dir: Option<Vec3>,
}

impl SweepObserver {
    /// One frame's shoulder, elbow and wrist.
    pub fn observe(&mut self, report: &mut SweepReport, shoulder: Vec3, elbow: Vec3, wrist: Vec3) {
        report.frames += 1;
        if !(elbow.is_finite() && wrist.is_finite()) {
            report.non_finite_frames += 1;
            return;
        }
        let upper = (elbow - shoulder).normalize();
        let lower = (wrist - elbow).normalize();
        let bend = upper.dot(lower).clamp(-1.0, 1.0).acos().to_degrees();
        report.min_bend_deg = report.min_bend_deg.min(bend);
        if bend < STRAIGHT_DEG {
            report.straight_frames += 1;
        }
        let axis = (wrist - shoulder).normalize();
        let off = (elbow - shoulder) - axis * (elbow - shoulder).dot(axis);
        if off.length() > BENT_OFFSET_M {
            let dir = off.normalize();
            if let Some(prev) = self.last_bend_dir {
                let step = prev.dot(dir).clamp(-1.0, 1.0).acos().to_degrees();
                report.max_swivel_step_deg = report.max_swivel_step_deg.max(step);
                if step > FLIP_THRESHOLD_DEG {
                    report.flips += 1;
                }
            }
            self.last_bend_dir = Some(dir);
        } else {
            self.last_bend_dir = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_visits_what_it_promises() {
        let shoulder = Vec3::new(-0.17, 1.41, 0.0);
        let arm = 0.52;
        let at = |t: f32| sweep_controller(t).position;
        let (rest, end) = (at(0.0), at(SWEEP_SECONDS));
        assert_eq!(rest, end, "starts and ends at rest");
        assert!(rest.x < -0.2 && rest.y < 1.0, "at the right side: {rest}");
        assert!(
            at(1.0).z > 0.3 && at(1.0).distance(shoulder) < arm,
            "forward, bent"
        );
        assert!(
            at(2.0).z > 0.7 && at(2.0).distance(shoulder) > arm,
            "forward, out of reach"
        );
        assert!(
            at(3.0).z > 0.3 && at(3.0).distance(shoulder) < arm,
            "back in reach"
        );
        assert!(
            at(4.0).y > shoulder.y + arm && at(4.0).x < 0.0,
            "overhead, out of reach"
        );
        assert!(
            at(5.0).y > shoulder.y && at(5.0).y < at(4.0).y,
            "down from overhead"
        );
        assert!(at(6.0).x > 0.2 && at(6.0).z > 0.0, "across the chest");
        assert!(at(7.0).z < -0.2 && at(7.0).x < -0.3, "behind the back");
        assert!(at(8.0).z > 0.3 && at(8.0).x < 0.0, "in front again");
        assert!(
            at(8.15).x > 0.0 && at(8.3).x < -0.4,
            "a fast flick across and back"
        );
        // Between keys an ease: half-way at half time, slower near the keys.
        let mid = at(0.5);
        assert!(mid.distance(rest.lerp(at(1.0), 0.5)) < 1e-6, "{mid}");
        let early = at(0.25);
        assert!(
            early.distance(rest.lerp(at(1.0), 0.156_25)) < 1e-6,
            "{early}"
        );
        // The controller's forward (-Z) points from the shoulder to it.
        for t in [0.0, 2.0, 4.0, 7.0] {
            let p = sweep_controller(t);
            let forward = p.rotation * Vec3::NEG_Z;
            assert!(
                forward.distance((p.position - shoulder).normalize()) < 1e-5,
                "{t}"
            );
        }
    }

    /// Shoulder at the origin, wrist 0.4 m along +X, the elbow `off` metres off the line in
    /// direction `dir` (perpendicular to X), half-way along.
    fn frame(obs: &mut SweepObserver, r: &mut SweepReport, off: f32, dir: Vec3) {
        obs.observe(
            r,
            Vec3::ZERO,
            Vec3::new(0.2, 0.0, 0.0) + dir * off,
            Vec3::new(0.4, 0.0, 0.0),
        );
    }

    fn fresh() -> SweepReport {
        SweepReport {
            min_bend_deg: 180.0,
            ..Default::default()
        }
    }

    #[test]
    fn the_observer_measures_the_bend_and_counts_straight_frames() {
        let (mut obs, mut r) = (SweepObserver::default(), fresh());
        // Elbow 0.2 m off the line at mid-length: upper and forearm at 45 degrees each way.
        frame(&mut obs, &mut r, 0.2, Vec3::NEG_Y);
        assert!((r.min_bend_deg - 90.0).abs() < 1e-3, "{r:?}");
        assert_eq!(r.straight_frames, 0);
        frame(&mut obs, &mut r, 0.0, Vec3::NEG_Y);
        assert_eq!((r.frames, r.straight_frames), (2, 1));
        assert!(r.min_bend_deg < 1e-3);
        obs.observe(&mut r, Vec3::ZERO, Vec3::NAN, Vec3::X);
        assert_eq!((r.frames, r.non_finite_frames), (3, 1));
    }

    #[test]
    fn the_observer_counts_swivel_jumps_of_a_bent_arm_as_flips() {
        let (mut obs, mut r) = (SweepObserver::default(), fresh());
        frame(&mut obs, &mut r, 0.1, Vec3::NEG_Y);
        // 30 degrees of swivel: a step, not a flip.
        let d30 = Vec3::new(0.0, -(30f32.to_radians().cos()), 30f32.to_radians().sin());
        frame(&mut obs, &mut r, 0.1, d30);
        assert!((r.max_swivel_step_deg - 30.0).abs() < 1e-2, "{r:?}");
        assert_eq!(r.flips, 0);
        // From there straight up: 150 degrees in one frame, a flip.
        frame(&mut obs, &mut r, 0.1, Vec3::Y);
        assert_eq!(r.flips, 1);
        assert!((r.max_swivel_step_deg - 150.0).abs() < 1e-2, "{r:?}");
        // Through a nearly straight frame (2 cm off the line) the swivel is not compared.
        frame(&mut obs, &mut r, 0.02, Vec3::Y);
        frame(&mut obs, &mut r, 0.1, Vec3::NEG_Y);
        assert_eq!(r.flips, 1);
    }

    #[test]
    fn a_controller_held_upright_keeps_its_roll() {
        // Pointing forward: +Y up. Pointing straight up or down: +Y toward the back (+Z),
        // still a proper rotation.
        let q = held_upright(Vec3::NEG_Z);
        assert!((q * Vec3::NEG_Z).distance(Vec3::NEG_Z) < 1e-6);
        assert!((q * Vec3::Y).distance(Vec3::Y) < 1e-6);
        for f in [Vec3::Y, Vec3::NEG_Y] {
            let q = held_upright(f);
            assert!(q.is_finite() && q.is_normalized(), "{f}: {q}");
            assert!((q * Vec3::NEG_Z).distance(f) < 1e-5, "{f}");
        }
        // Turning the pointing a little turns the roll a little (no spin near 180 degrees).
        let a = held_upright(Vec3::new(0.01, 0.0, 1.0));
        let b = held_upright(Vec3::new(-0.01, 0.0, 1.0));
        assert!(a.angle_between(b) < 0.05, "{}", a.angle_between(b));
    }
}
