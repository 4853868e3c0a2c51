//! The receiving side of the state stream: packets arrive late, out of order or not at all; the
//! remote avatar is drawn a fixed delay behind the sender, interpolated between the packets
//! around that moment, extrapolated briefly when the next one is late, held, and at last handed
//! to the tracking-loss behaviour when the stream stops.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::state_packet::{AvatarState, StateHeader};
use crate::controller_targets::finite_clamp;
use crate::pose::Pose;

/// How the remote avatar trails the sender.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JitterSettings {
    /// How far behind the sender the avatar is drawn (seconds, 0..1): late packets up to this
    /// much later than the quickest still arrive in time.
    pub interpolation_delay_s: f32,
    /// Longest a late stream is continued along its last motion (seconds, 0..0.5).
    pub max_extrapolation_s: f32,
    /// After this long without a new packet (seconds, beyond the delay) the avatar's tracking
    /// counts as lost: its hands and head ease to rest as for lost tracking.
    pub stale_after_s: f32,
}

impl Default for JitterSettings {
    fn default() -> Self {
        Self {
            interpolation_delay_s: 0.1,
            max_extrapolation_s: 0.1,
            stale_after_s: 0.5,
        }
    }
}

impl JitterSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.interpolation_delay_s = finite_clamp(
            self.interpolation_delay_s,
            0.0,
            1.0,
            d.interpolation_delay_s,
        );
        self.max_extrapolation_s =
            finite_clamp(self.max_extrapolation_s, 0.0, 0.5, d.max_extrapolation_s);
        self.stale_after_s = finite_clamp(self.stale_after_s, 0.0, 10.0, d.stale_after_s);
    }
}

/// What the avatar shows at a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playback {
    /// Nothing received yet.
    Waiting,
    /// Between two received states.
    Interpolated,
    /// Past the newest state, continued along its motion.
    Extrapolated,
    /// Past the extrapolation: the last shown state, kept.
    Held,
    /// The stream stopped: the held state with nothing tracked.
    Lost,
}

/// A received packet's fate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Receipt {
    Accepted,
    /// Its sequence number is already in the buffer.
    Duplicate,
    /// It arrived after the moment it describes was drawn.
    TooOld,
}

/// Received states kept (about two seconds at 30 Hz); older ones are dropped first.
const CAPACITY: usize = 64;
/// Longest span between two states whose motion is continued (seconds): after a longer gap
/// their difference is no motion.
const MAX_SPAN_S: f64 = 0.25;
/// Packets over which the clock offset is the quickest seen.
const OFFSET_WINDOW: usize = 32;

/// The jitter buffer of one remote avatar.
#[derive(Clone, Debug)]
pub struct JitterBuffer {
    pub settings: JitterSettings,
    /// (sender time in seconds, unwrapped; sequence number; state), in time order.
    samples: VecDeque<(f64, u8, AvatarState)>,
    /// The last packet's clock, as sent and unwrapped.
    clock: Option<(u16, f64)>,
    /// Receiver minus sender time of recent packets; the smallest is the clock offset.
    offsets: VecDeque<f64>,
}

impl JitterBuffer {
    pub fn new(mut settings: JitterSettings) -> Self {
        settings.validate();
        Self {
            settings,
            samples: VecDeque::with_capacity(CAPACITY),
            clock: None,
            offsets: VecDeque::with_capacity(OFFSET_WINDOW),
        }
    }

    /// Takes in a packet received at `now_s` (the receiver's clock, seconds).
    pub fn receive(&mut self, header: StateHeader, state: AvatarState, now_s: f64) -> Receipt {
        if self.samples.iter().any(|s| s.1 == header.sequence) {
            return Receipt::Duplicate;
        }
        let sent = match self.clock {
            None => header.time_ms as f64 / 1000.0,
            Some((ms, at)) => at + header.time_ms.wrapping_sub(ms) as i16 as f64 / 1000.0,
        };
        if let Some(t) = self.playback_time(now_s)
            && sent <= t
            && self.samples.len() > 1
        {
            return Receipt::TooOld;
        }
        if self.clock.is_none_or(|(_, at)| sent > at) {
            self.clock = Some((header.time_ms, sent));
        }
        if self.offsets.len() == OFFSET_WINDOW {
            self.offsets.pop_front();
        }
        self.offsets.push_back(now_s - sent);
        let at = self.samples.partition_point(|s| s.0 < sent);
        self.samples.insert(at, (sent, header.sequence, state));
        if self.samples.len() > CAPACITY {
            self.samples.pop_front();
        }
        Receipt::Accepted
    }

    /// The sender's time drawn at `now_s` (seconds of the sender's clock): now, less the clock
    /// offset, less the delay. `None` before the first packet.
    pub fn playback_time(&self, now_s: f64) -> Option<f64> {
        let offset = self.offsets.iter().copied().reduce(f64::min)?;
        Some(now_s - offset - self.settings.interpolation_delay_s as f64)
    }

    /// The avatar's state to draw at `now_s`, and how it was found. Samples that can no longer
    /// be drawn are let go.
    pub fn sample(&mut self, now_s: f64) -> (AvatarState, Playback) {
        let Some(t) = self.playback_time(now_s) else {
            return (AvatarState::default(), Playback::Waiting);
        };
        // Keep the two newest states at or before `t`: the start of the current span, and the
        // one before it for a motion to continue along when the stream is late.
        while self.samples.len() > 2 && self.samples[2].0 <= t {
            self.samples.pop_front();
        }
        let (first_t, _, first) = self.samples[0];
        if t < first_t {
            return (first, Playback::Held);
        }
        let at = if self.samples.get(1).is_some_and(|s| s.0 <= t) {
            1
        } else {
            0
        };
        let (from_t, _, from) = self.samples[at];
        if let Some(&(to_t, _, to)) = self.samples.get(at + 1) {
            let f = ((t - from_t) / (to_t - from_t)) as f32;
            return (blend(&from, &to, f), Playback::Interpolated);
        }
        // Past the newest state: continue the last span's motion for a while.
        let late = (t - from_t) as f32;
        let s = &self.settings;
        let state = match at {
            1 if from_t - first_t <= MAX_SPAN_S => {
                let continued = late.min(s.max_extrapolation_s) as f64;
                let f = (1.0 + continued / (from_t - first_t)) as f32;
                blend(&first, &from, f.min(2.0))
            }
            _ => from,
        };
        if late <= s.max_extrapolation_s {
            (state, Playback::Extrapolated)
        } else if late <= s.max_extrapolation_s + s.stale_after_s {
            (state, Playback::Held)
        } else {
            (untracked(state), Playback::Lost)
        }
    }
}

/// `a` toward `b` by `f` (beyond 1: continued): poses lerp and slerp, analog values lerp, the
/// flags and the revolver state are `a`'s until `b` is reached.
fn blend(a: &AvatarState, b: &AvatarState, f: f32) -> AvatarState {
    let pose = |p: &Pose, q: &Pose| {
        Pose::new(
            p.position.lerp(q.position, f),
            p.rotation.slerp(q.rotation, f).normalize(),
        )
    };
    let lerp = |x: f32, y: f32| (x + (y - x) * f).clamp(0.0, 1.0);
    let discrete = if f >= 1.0 { b } else { a };
    let mut out = *discrete;
    out.root = a.root.lerp(b.root, f);
    out.scale = a.scale + (b.scale - a.scale) * f.clamp(0.0, 1.0);
    out.head = pose(&a.head, &b.head);
    for (o, (ha, hb)) in out.hands.iter_mut().zip(a.hands.iter().zip(&b.hands)) {
        o.pose = pose(&ha.pose, &hb.pose);
        o.grip = lerp(ha.grip, hb.grip);
        o.trigger = lerp(ha.trigger, hb.trigger);
        // Curls only between two hand-tracked samples: a sample without tracking carries none
        // (zeros), and blending toward them would open the hand before the flag changes.
        o.curls = match (ha.hand_tracking, hb.hand_tracking) {
            (true, true) => std::array::from_fn(|k| lerp(ha.curls[k], hb.curls[k])),
            (true, false) => ha.curls,
            (false, _) => hb.curls,
        };
    }
    out
}

fn untracked(mut s: AvatarState) -> AvatarState {
    s.head_tracked = false;
    for h in &mut s.hands {
        h.tracked = false;
        h.hand_tracking = false;
    }
    s
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;
    use crate::net::state_packet::{StateLimits, decode_state, encode_state};

    /// The sender's body at time `t`: the right hand swings 0.3 m side to side once a second.
    fn body_at(t: f64) -> AvatarState {
        let mut s = AvatarState {
            scale: 1.0,
            head: Pose::new(Vec3::new(0.0, 1.6, 0.0), Quat::from_rotation_y(0.2)),
            head_tracked: true,
            ..Default::default()
        };
        let swing = (t * std::f64::consts::TAU).sin() as f32 * 0.3;
        s.hands[1] = crate::net::HandState {
            pose: Pose::new(Vec3::new(-0.3 + swing, 1.2, 0.35), Quat::IDENTITY),
            tracked: true,
            grip: 0.5 + swing,
            ..Default::default()
        };
        s
    }

    /// The packet the sender sends at `t` (30 Hz: sequence `n`), as the receiver reads it.
    fn packet(n: u32) -> (StateHeader, AvatarState, f64) {
        let t = n as f64 / 30.0;
        let header = StateHeader {
            sequence: n as u8,
            time_ms: (t * 1000.0).round() as u32 as u16,
        };
        let (h, s) = decode_state(&encode_state(header, &body_at(t)), &StateLimits::default())
            .expect("a good packet");
        (h, s, t)
    }

    fn hand_x(s: &AvatarState) -> f32 {
        s.hands[1].pose.position.x
    }

    /// Plays `seconds` of 30 Hz packets, each delayed by `latency(n)` (None: lost), sampling at
    /// 90 Hz; returns (receiver time, drawn state, playback) per frame. The receiver's clock
    /// starts 1000 s ahead of the sender's.
    fn play(
        seconds: f64,
        latency: impl Fn(u32) -> Option<f64>,
    ) -> Vec<(f64, AvatarState, Playback)> {
        let mut buffer = JitterBuffer::new(JitterSettings::default());
        let mut arrivals: Vec<(f64, u32)> = (0..(seconds * 30.0) as u32)
            .filter_map(|n| latency(n).map(|l| (n as f64 / 30.0 + l + 1000.0, n)))
            .collect();
        arrivals.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut next = 0;
        let mut out = Vec::new();
        for frame in 0..(seconds * 90.0) as u32 {
            let now = 1000.0 + frame as f64 / 90.0;
            while next < arrivals.len() && arrivals[next].0 <= now {
                let (h, s, _) = packet(arrivals[next].1);
                buffer.receive(h, s, arrivals[next].0);
                next += 1;
            }
            let (s, p) = buffer.sample(now);
            out.push((now, s, p));
        }
        out
    }

    #[test]
    fn a_steady_stream_is_the_sender_one_delay_ago() {
        let frames = play(3.0, |_| Some(0.02));
        let mut worst = 0.0f32;
        for (now, s, p) in &frames[60..] {
            assert_eq!(*p, Playback::Interpolated);
            // The quickest packet took 20 ms: the avatar is 100 ms behind that.
            let truth = hand_x(&body_at(now - 1000.0 - 0.02 - 0.1));
            worst = worst.max((hand_x(s) - truth).abs());
        }
        assert!(worst < 0.003, "worst {worst} m");
    }

    #[test]
    fn loss_and_jitter_make_no_pops() {
        // 10 % lost, 0-50 ms of extra delay, deterministic.
        let frames = play(6.0, |n| {
            let h = n.wrapping_mul(2_654_435_761);
            (h % 10 != 3).then(|| 0.01 + (h >> 8) as f64 % 50.0 / 1000.0)
        });
        let mut worst_step = 0.0f32;
        let mut errors: Vec<f32> = Vec::new();
        for w in frames[60..].windows(2) {
            worst_step = worst_step.max((hand_x(&w[1].1) - hand_x(&w[0].1)).abs());
            let truth = hand_x(&body_at(w[1].0 - 1000.0 - 0.01 - 0.1));
            errors.push((hand_x(&w[1].1) - truth).abs());
        }
        errors.sort_by(f32::total_cmp);
        let p95 = errors[errors.len() * 95 / 100];
        // The hand moves at most 1.9 m/s: 2.1 cm a frame at 90 Hz.
        assert!(worst_step < 0.03, "step {worst_step} m");
        assert!(p95 < 0.03, "p95 {p95} m");
    }

    #[test]
    fn a_stopped_stream_is_continued_held_then_lost() {
        let mut buffer = JitterBuffer::new(JitterSettings::default());
        for n in 0..30 {
            let (h, s, t) = packet(n);
            buffer.receive(h, s, t + 0.02);
        }
        let last_t = 29.0 / 30.0;
        // Drawn 120 ms behind: the newest state is drawn at last_t + 0.12.
        let at = |late: f64| last_t + 0.12 + late;
        let (s, p) = buffer.sample(at(0.03));
        assert_eq!(p, Playback::Extrapolated);
        // Continued along the last motion: the last span's velocity for the 30 ms (at most one
        // span's worth).
        let (x28, x29) = (hand_x(&packet(28).1), hand_x(&packet(29).1));
        let expected = x29 + (x29 - x28) * (0.03 * 30.0);
        // (The packets carry whole milliseconds: a span is 33 or 34 ms, not 1/30 s.)
        assert!(
            (hand_x(&s) - expected).abs() < 2e-3,
            "{} vs {expected}",
            hand_x(&s)
        );
        let (held, p) = buffer.sample(at(0.3));
        assert_eq!(p, Playback::Held);
        let (again, _) = buffer.sample(at(0.5));
        assert_eq!(held, again, "held still");
        let (lost, p) = buffer.sample(at(0.7));
        assert_eq!(p, Playback::Lost);
        assert!(!lost.head_tracked && !lost.hands[1].tracked);
        assert_eq!(lost.hands[1].pose, held.hands[1].pose, "no jump when lost");
        // The stream resumes: interpolated again.
        for n in 70..80 {
            let (h, s, t) = packet(n);
            buffer.receive(h, s, t + 0.02);
        }
        assert_eq!(buffer.sample(78.5 / 30.0 + 0.12).1, Playback::Interpolated);
    }

    #[test]
    fn after_a_long_gap_the_newest_state_is_not_continued() {
        // Two packets a second apart: their difference is no motion to continue.
        let mut buffer = JitterBuffer::new(JitterSettings::default());
        for n in [0, 30] {
            let (h, s, t) = packet(n);
            buffer.receive(h, s, t + 0.02);
        }
        let (shown, p) = buffer.sample(1.0 + 0.12 + 0.05);
        assert_eq!(p, Playback::Extrapolated);
        assert_eq!(shown, packet(30).1, "held as it came");
    }

    #[test]
    fn blending_lerps_the_scale_and_switches_flags_at_the_newer_state() {
        let a = AvatarState {
            scale: 1.0,
            ..Default::default()
        };
        let b = AvatarState {
            scale: 1.2,
            head_tracked: true,
            revolver: Some(2),
            ..Default::default()
        };
        let half = blend(&a, &b, 0.5);
        assert!((half.scale - 1.1).abs() < 1e-6);
        assert_eq!((half.head_tracked, half.revolver), (false, None));
        let at_b = blend(&a, &b, 1.0);
        assert_eq!((at_b.head_tracked, at_b.revolver), (true, Some(2)));
        assert!(
            (blend(&a, &b, 1.5).scale - 1.2).abs() < 1e-6,
            "no scale beyond the newer"
        );
    }

    #[test]
    fn curls_blend_only_between_hand_tracked_samples() {
        let tracked = |curl: f32| {
            let mut s = AvatarState::default();
            s.hands[0].hand_tracking = true;
            s.hands[0].curls = [curl; 5];
            s
        };
        let (open, fist, ended) = (tracked(0.0), tracked(1.0), AvatarState::default());
        assert_eq!(blend(&open, &fist, 0.25).hands[0].curls, [0.25; 5]);
        // Tracking ends in the next sample: the hand keeps its curls until the flag changes.
        let half = blend(&fist, &ended, 0.5).hands[0];
        assert_eq!((half.hand_tracking, half.curls), (true, [1.0; 5]));
        // Tracking starts: the flag (and so the curls' use) waits for the newer sample.
        let half = blend(&ended, &fist, 0.5).hands[0];
        assert!(!half.hand_tracking);
        assert_eq!(blend(&ended, &fist, 1.0).hands[0].curls, [1.0; 5]);
    }

    #[test]
    fn the_buffer_keeps_a_bounded_history() {
        let mut buffer = JitterBuffer::new(JitterSettings::default());
        for n in 0..200 {
            let (h, s, t) = packet(n);
            buffer.receive(h, s, t + 0.02);
        }
        assert_eq!(buffer.samples.len(), CAPACITY);
        assert_eq!(buffer.samples[0].1, 136, "the oldest went first");
    }

    #[test]
    fn duplicates_and_stale_packets_are_refused() {
        let mut buffer = JitterBuffer::new(JitterSettings::default());
        assert_eq!(buffer.sample(0.0).1, Playback::Waiting);
        for n in 0..10 {
            let (h, s, t) = packet(n);
            assert_eq!(buffer.receive(h, s, t + 0.02), Receipt::Accepted);
        }
        let (h, s, t) = packet(9);
        assert_eq!(buffer.receive(h, s, t + 0.03), Receipt::Duplicate);
        buffer.sample(0.3 + 0.12);
        // Packet 2 (t = 0.067 s) arrives long after it was drawn.
        let (h, s, _) = packet(2);
        assert_eq!(buffer.receive(h, s, 0.5), Receipt::TooOld);
    }

    #[test]
    fn the_clocks_wrap_without_a_jump() {
        // Around the sender's 65.536 s clock wrap and sequence 255 -> 0.
        let mut buffer = JitterBuffer::new(JitterSettings::default());
        let first = 65_536 * 30 / 1000 - 15;
        let mut checked = 0;
        for n in first..first + 40 {
            let (mut h, s, t) = packet(n);
            h.sequence = (n + 200) as u8;
            buffer.receive(h, s, t + 0.02);
            let (drawn, p) = buffer.sample(t + 0.02);
            if p == Playback::Interpolated {
                let truth = hand_x(&body_at(t - 0.1));
                assert!((hand_x(&drawn) - truth).abs() < 0.005, "at {n}");
                checked += 1;
            }
        }
        assert!(checked > 30, "{checked}");
    }

    #[test]
    fn sampling_depends_on_the_time_not_the_frame_rate() {
        let fill = || {
            let mut b = JitterBuffer::new(JitterSettings::default());
            for n in 0..30 {
                let (h, s, t) = packet(n);
                b.receive(h, s, t + 0.02);
            }
            b
        };
        let (mut fast, mut slow) = (fill(), fill());
        for i in 0..60 {
            let now = 0.3 + i as f64 / 120.0;
            let a = fast.sample(now);
            if i % 4 == 0 {
                assert_eq!(slow.sample(now), a, "at {now}");
            }
        }
    }

    #[test]
    fn settings_are_validated() {
        let b = JitterBuffer::new(JitterSettings {
            interpolation_delay_s: -1.0,
            max_extrapolation_s: f32::NAN,
            stale_after_s: 100.0,
        });
        assert_eq!(
            (
                b.settings.interpolation_delay_s,
                b.settings.max_extrapolation_s,
                b.settings.stale_after_s
            ),
            (0.0, 0.1, 10.0)
        );
    }
}
