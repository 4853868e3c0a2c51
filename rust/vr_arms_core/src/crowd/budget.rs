//! The crowd budget: an avatar that solves every Nth frame, its bones blended in between.
//!
//! On the frames in between, the stages that share an avatar's rig do nothing and the bone
//! writers replay their last two solves, blended, so the arms keep moving smoothly at a fraction
//! of the cost (one interval of extra latency: what a remote or distant avatar can afford, a
//! local player's own arms never).

use glam::Quat;

use crate::maths::finite::quat_or;

/// The longest update interval (frames): a solve every 8 frames is as far as blending between
/// solves hides.
pub const MAX_INTERVAL_FRAMES: u32 = 8;

/// An update interval as asked for (a property, a profile: any integer) within
/// `1..=`[`MAX_INTERVAL_FRAMES`].
pub fn interval_frames(wanted: i64) -> u32 {
    wanted.clamp(1, MAX_INTERVAL_FRAMES as i64) as u32
}

/// Where an avatar is in its update interval (kept by its rig).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Solve every this many frames (1: every frame).
    pub interval: u32,
    /// Frames since the last solve (0 on a solving frame).
    pub frames_since: u32,
    /// Seconds since the last solve, this frame's included: the time step a solving frame's
    /// stages advance by, so smoothing keeps its rate whatever the interval.
    pub dt_since: f32,
    /// The step of the last solving frame.
    pub solve_dt: f32,
    /// Frames advanced so far.
    pub ticks: u64,
    started: bool,
    /// Frames the current interval is shorter by (the phase, first interval only).
    shorten: u32,
    /// The tick the current interval started after: solves at or before it belong to another.
    since: u64,
}

impl Budget {
    pub fn new(interval: u32) -> Self {
        Self {
            interval: interval.max(1),
            frames_since: 0,
            dt_since: 0.0,
            solve_dt: 0.0,
            ticks: 0,
            started: false,
            shorten: 0,
            since: 0,
        }
    }

    /// Changes the interval (1 and up): a new interval starts as a new budget does (its first
    /// frame solves, the phase applies again), but the ticks go on counting, so a solve held
    /// from before is never taken for the one just before (see [`HeldRotations::solved`]).
    pub fn set_interval(&mut self, interval: u32) {
        let interval = interval.max(1);
        if interval != self.interval {
            self.restart(interval);
        }
    }

    /// Starts a new interval of `interval` frames (1 and up) now, as [`Budget::set_interval`]
    /// does for a new one: its next frame solves (after a pause, so the body catches up at once).
    pub fn restart(&mut self, interval: u32) {
        *self = Self {
            ticks: self.ticks,
            since: self.ticks,
            ..Self::new(interval.max(1))
        };
    }

    /// Advances one frame of `delta` seconds; `phase` spreads avatars over the interval (the
    /// first interval is `phase % interval` frames shorter), so a crowd's cost is even per frame.
    /// The first frame always solves: an avatar never starts in its rest pose.
    pub fn advance(&mut self, delta: f32, phase: u64) {
        let delta = if delta.is_finite() && delta > 0.0 {
            delta
        } else {
            0.0
        };
        self.ticks += 1;
        self.dt_since += delta;
        if !self.started {
            self.started = true;
            self.shorten = (phase % u64::from(self.interval)) as u32;
            self.frames_since = 0;
        } else {
            self.frames_since += 1;
            if self.frames_since + self.shorten >= self.interval {
                self.frames_since = 0;
                self.shorten = 0;
            }
        }
        if self.frames_since == 0 {
            self.solve_dt = self.dt_since;
            self.dt_since = 0.0;
        }
    }

    /// The time step of a solving frame whose own step is `delta`: `delta` itself without a
    /// budget, else the time since the last solve.
    pub fn step(&self, delta: f32) -> f32 {
        if self.interval <= 1 {
            delta
        } else {
            self.solve_dt
        }
    }

    /// Whether this frame solves.
    pub fn solving(&self) -> bool {
        self.frames_since == 0
    }

    /// How far from the previous solve to the last one the bones are shown this frame (1 with
    /// no budget: the last solve itself).
    pub fn blend(&self) -> f32 {
        if self.interval <= 1 {
            1.0
        } else {
            (self.frames_since + 1) as f32 / self.interval as f32
        }
    }
}

/// A phase for [`Budget::advance`] from an object's id, its bits mixed (the splitmix64
/// finaliser): ids that share their low bits, as objects made in the same pattern do, still
/// spread evenly over any interval.
pub fn spread_phase(id: u64) -> u64 {
    let mut z = id.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The rotations a bone writer computed on its last two solves (bone -> local rotation).
#[derive(Clone, Debug, Default)]
pub struct HeldRotations {
    previous: Vec<(i32, Quat)>,
    last: Vec<(i32, Quat)>,
    /// The budget's tick and interval at the last solve.
    solved_at: Option<(u64, u32)>,
}

impl HeldRotations {
    /// Records a solve made at `budget`'s current frame. It blends from the previous one only if
    /// that was the solve just before (same interval, no solve missed, same bones); otherwise it
    /// starts afresh from this one. No allocation after the first one with the same bones (the
    /// two buffers swap).
    pub fn solved(&mut self, solved: &[(i32, Quat)], budget: &Budget) {
        let same_bones = self.last.len() == solved.len()
            && self.last.iter().zip(solved).all(|(a, b)| a.0 == b.0);
        let follows = follows(self.solved_at, budget);
        self.solved_at = Some((budget.ticks, budget.interval));
        // Kept unit and finite (a bad rotation holds the bone's previous one), so that showing
        // them, every frame in between, is a plain blend.
        if same_bones && follows {
            std::mem::swap(&mut self.previous, &mut self.last);
        } else {
            self.previous.clear();
            self.previous
                .extend(solved.iter().map(|&(b, q)| (b, quat_or(q, Quat::IDENTITY))));
        }
        self.last.clear();
        let previous = &self.previous;
        self.last.extend(
            solved
                .iter()
                .zip(previous)
                .map(|(&(b, q), &(_, from))| (b, quat_or(q, from))),
        );
    }

    /// Forgets the held solves (the bones changed, or this side did not solve).
    pub fn clear(&mut self) {
        self.previous.clear();
        self.last.clear();
        self.solved_at = None;
    }

    /// The rotations to show this frame of the interval: the previous solve blended toward the
    /// last one by [Budget::blend] (finite whatever was recorded). Nothing once the solve that
    /// was due did not come (the interval changed, or the writer stopped solving).
    pub fn shown(&self, budget: &Budget) -> impl Iterator<Item = (i32, Quat)> + '_ {
        let t = budget.blend();
        let n = if current(self.solved_at, budget) {
            self.last.len()
        } else {
            0
        };
        self.previous
            .iter()
            .zip(&self.last)
            .take(n)
            .map(move |(&(bone, from), &(_, to))| (bone, blend(from, to, t)))
    }
}

/// Whether a solve recorded at `solved_at` (the budget's tick and interval then) is the one
/// just before a solve at `budget`'s current frame. A solve recorded by another budget (rebuilt
/// for a new interval, its ticks counting from the start again) is later than this frame or too
/// long ago: not followed.
pub(crate) fn follows(solved_at: Option<(u64, u32)>, budget: &Budget) -> bool {
    solved_at.is_some_and(|(tick, interval)| {
        interval == budget.interval
            && budget
                .ticks
                .checked_sub(tick)
                .is_some_and(|d| d > 0 && d <= u64::from(budget.interval))
            && tick > budget.since
    })
}

/// Whether a solve recorded at `solved_at` is the one to show at `budget`'s current frame (not
/// one whose successor was due and did not come).
pub(crate) fn current(solved_at: Option<(u64, u32)>, budget: &Budget) -> bool {
    solved_at.is_some_and(|(tick, interval)| {
        interval == budget.interval
            && budget
                .ticks
                .checked_sub(tick)
                .is_some_and(|d| d < u64::from(interval))
    })
}

/// `from` turned toward `to` by `t` (0..1), both unit: the normalised linear blend on the short
/// way round. Between two solves a frame or a few apart the turn is small, where it follows the
/// arc of `slerp` to within a thousandth of the turn, without its arccosine and three sines
/// per bone per frame.
#[inline]
fn blend(from: Quat, to: Quat, t: f32) -> Quat {
    let to = if from.dot(to) < 0.0 { -to } else { to };
    quat_or(from + (to - from) * t, from)
}

#[cfg(test)]
mod tests {

    /// Any integer a property or a profile gives becomes an interval of 1 to 8 frames.
    #[test]
    fn an_interval_asked_for_is_one_to_eight_frames() {
        let got: Vec<u32> = [-3, 0, 1, 3, 8, 9, i64::MAX]
            .into_iter()
            .map(interval_frames)
            .collect();
        assert_eq!(got, [1, 1, 1, 3, 8, 8, 8]);
    }

    #[test]
    fn a_restart_solves_on_its_next_frame_whatever_the_phase() {
        let mut b = Budget::new(4);
        b.advance(0.01, 0);
        b.advance(0.01, 0);
        assert!(!b.solving(), "mid-interval");
        b.restart(4);
        b.advance(0.01, 0);
        assert!(b.solving(), "a restarted budget solves at once");
        assert_eq!(b.interval, 4);
    }

    use super::*;

    /// The angle between two rotations, accurate for tiny angles (glam's `angle_between` takes
    /// an arccosine near 1, which in f32 cannot tell 1e-5 rad from 3e-4).
    fn angle(a: Quat, b: Quat) -> f32 {
        let d = a * b.inverse();
        2.0 * glam::Vec3::new(d.x, d.y, d.z).length().atan2(d.w.abs())
    }

    fn solving_frames(interval: u32, phase: u64, frames: usize) -> Vec<usize> {
        let mut b = Budget::new(interval);
        (0..frames)
            .filter(|_| {
                b.advance(0.01, phase);
                b.solving()
            })
            .collect()
    }

    #[test]
    fn every_nth_frame_solves_and_the_phase_spreads_avatars() {
        assert_eq!(solving_frames(1, 7, 4), vec![0, 1, 2, 3]);
        assert_eq!(solving_frames(3, 0, 10), vec![0, 3, 6, 9]);
        // The first frame always solves; the phase shortens the first interval only.
        assert_eq!(solving_frames(3, 1, 10), vec![0, 2, 5, 8]);
        assert_eq!(solving_frames(3, 2, 10), vec![0, 1, 4, 7]);
        assert_eq!(solving_frames(3, 5, 10), solving_frames(3, 2, 10));
        assert_eq!(
            Budget::new(0).interval,
            1,
            "an interval of 0 means every frame"
        );
    }

    #[test]
    fn a_solving_frame_steps_by_the_time_since_the_last_solve() {
        let mut b = Budget::new(3);
        b.advance(0.01, 0);
        assert!(b.solving());
        assert!((b.solve_dt - 0.01).abs() < 1e-7);
        for dt in [0.02, 0.03] {
            b.advance(dt, 0);
            assert!(!b.solving());
        }
        b.advance(0.04, 0);
        assert!(b.solving());
        assert!((b.solve_dt - 0.09).abs() < 1e-6, "{}", b.solve_dt);
        assert_eq!(
            b.step(0.04),
            b.solve_dt,
            "a budget steps by the time since the last solve"
        );
        let mut every = Budget::new(1);
        every.advance(0.02, 0);
        assert_eq!(every.step(0.03), 0.03, "no budget: the frame's own step");
        // A bad step counts as none.
        b.advance(f32::NAN, 0);
        b.advance(-1.0, 0);
        b.advance(0.05, 0);
        assert!(b.solving());
        assert!((b.solve_dt - 0.05).abs() < 1e-7);
    }

    #[test]
    fn held_rotations_blend_from_the_previous_solve_to_the_last() {
        let mut b = Budget::new(2);
        let mut held = HeldRotations::default();
        let (a, c) = (Quat::from_rotation_x(0.2), Quat::from_rotation_x(0.6));
        b.advance(0.01, 0);
        held.solved(&[(4, a)], &b);
        // A first solve has nothing before it: it shows itself.
        let shown: Vec<_> = held.shown(&b).collect();
        assert_eq!(shown[0].0, 4);
        assert!(shown[0].1.angle_between(a) < 1e-6);
        b.advance(0.01, 0);
        b.advance(0.01, 0);
        assert!(b.solving());
        held.solved(&[(4, c)], &b);
        // Half way on the solving frame, all the way on the frame before the next solve.
        assert!(angle(held.shown(&b).next().unwrap().1, Quat::from_rotation_x(0.4)) < 1e-5);
        b.advance(0.01, 0);
        assert!(held.shown(&b).next().unwrap().1.angle_between(c) < 1e-6);
        // Other bones: start again from the new solve.
        held.solved(&[(5, a)], &b);
        assert!(
            held.shown(&b)
                .all(|(bone, q)| bone == 5 && q.angle_between(a) < 1e-6)
        );
        // No budget: the last solve itself.
        let mut one = Budget::new(1);
        one.advance(0.01, 0);
        held.solved(&[(5, c)], &one);
        assert!(held.shown(&one).next().unwrap().1.angle_between(c) < 1e-6);
        // Never a non-finite rotation out.
        held.solved(&[(5, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0))], &one);
        assert!(held.shown(&one).all(|(_, q)| q.is_finite()));
        held.clear();
        assert_eq!(held.shown(&one).count(), 0, "cleared: nothing to show");
    }

    #[test]
    fn the_phase_is_the_splitmix64_finaliser() {
        // The published first two outputs of splitmix64 seeded with 0.
        assert_eq!(spread_phase(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(spread_phase(0x9E37_79B9_7F4A_7C15), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn ids_made_in_one_pattern_spread_over_the_interval() {
        // Godot-like ids: a validator above bit 24 and a slot, every avatar taking 6 slots.
        for interval in [2u64, 3, 4, 8] {
            let mut count = vec![0; interval as usize];
            for k in 0..240u64 {
                let id = ((1000 + k) << 24) | (k * 6);
                count[(spread_phase(id) % interval) as usize] += 1;
            }
            let even = 240 / interval as usize;
            assert!(
                count.iter().all(|&c| c > even / 2 && c < even * 3 / 2),
                "interval {interval}: {count:?}"
            );
        }
    }

    #[test]
    fn a_changed_interval_starts_afresh_and_keeps_counting() {
        let (a, c) = (Quat::from_rotation_x(0.2), Quat::from_rotation_x(0.6));
        let mut b = Budget::new(3);
        let mut held = HeldRotations::default();
        b.advance(0.01, 0);
        held.solved(&[(1, a)], &b);
        // 3 -> 1 -> 3 within a frame or two: the old solve is not blended from.
        b.set_interval(1);
        b.advance(0.01, 0);
        b.set_interval(3);
        b.advance(0.01, 0);
        assert!(b.solving(), "a new interval's first frame solves");
        assert_eq!(b.ticks, 3);
        held.solved(&[(1, c)], &b);
        assert!(
            held.shown(&b).all(|(_, q)| angle(q, c) < 1e-5),
            "afresh from the new solve"
        );
        b.set_interval(3);
        assert_eq!(b.ticks, 3, "the same interval changes nothing");
    }

    #[test]
    fn a_rebuilt_budget_does_not_blend_from_the_old_ones_solve() {
        let (a, c) = (Quat::from_rotation_x(0.2), Quat::from_rotation_x(0.6));
        let mut b = Budget::new(3);
        let mut held = HeldRotations::default();
        for _ in 0..10 {
            b.advance(0.01, 0);
        }
        held.solved(&[(1, a)], &b);
        // The interval went to 1 and back to 3: a new budget, its ticks from the start again.
        let mut again = Budget::new(3);
        again.advance(0.01, 0);
        assert!(again.solving());
        held.solved(&[(1, c)], &again);
        assert!(
            held.shown(&again).all(|(_, q)| angle(q, c) < 1e-5),
            "afresh from the new solve"
        );
    }

    #[test]
    fn the_blend_takes_the_short_way_and_follows_the_arc() {
        let from = Quat::from_rotation_y(0.3);
        // The same rotation as a quaternion of the other sign: still a short turn of 0.4 rad.
        let to = -Quat::from_rotation_y(0.7);
        assert!(angle(blend(from, to, 0.5), Quat::from_rotation_y(0.5)) < 1e-5);
        // A third and two thirds of the way, as shown between solves at an interval of 3: on the
        // arc to within a thousandth of the turn.
        for t in [1.0 / 3.0, 2.0 / 3.0] {
            let want = Quat::from_rotation_y(0.3 + 0.4 * t);
            assert!(angle(blend(from, to, t), want) < 4e-4, "t {t}");
        }
        assert!((blend(from, to, 0.25).length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn held_rotations_start_afresh_when_a_solve_was_missed_or_the_interval_changed() {
        let (a, c) = (Quat::from_rotation_x(0.2), Quat::from_rotation_x(0.6));
        let mut b = Budget::new(2);
        let mut held = HeldRotations::default();
        b.advance(0.01, 0);
        held.solved(&[(1, a)], &b);
        b.advance(0.01, 0);
        assert_eq!(held.shown(&b).count(), 1, "between solves it shows");
        // The writer was inactive when its solve was due: nothing shown from then on.
        b.advance(0.01, 0);
        assert_eq!(held.shown(&b).count(), 0, "the due solve did not come");
        b.advance(0.01, 0);
        b.advance(0.01, 0);
        // The next solve does not blend from the old one.
        held.solved(&[(1, c)], &b);
        assert!(held.shown(&b).all(|(_, q)| q.angle_between(c) < 1e-6));
        // A new interval: afresh as well.
        let mut b3 = Budget::new(3);
        b3.advance(0.01, 0);
        held.solved(&[(1, a)], &b3);
        assert!(held.shown(&b3).all(|(_, q)| q.angle_between(a) < 1e-6));
        assert_eq!(
            held.shown(&b).count(),
            0,
            "shown for another interval: nothing"
        );
    }
}
