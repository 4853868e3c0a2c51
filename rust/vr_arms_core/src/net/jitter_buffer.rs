//! The receiving side of the state stream: packets arrive late, out of order or not at all; the
//! remote avatar is drawn a fixed delay behind the sender, interpolated between the packets
//! around that moment, extrapolated briefly when the next one is late, held, and at last handed
//! to the tracking-loss behaviour when the stream stops. The clock it plays by slews rather
//! than jumps when the network's delay changes, and after a late stretch the avatar eases back
//! onto the stream ([`Correction`]) rather than popping.

use std::collections::VecDeque;

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::correction::Correction;
use super::state_packet::{AvatarState, StateHeader};
use crate::maths::finite::finite_clamp;
use crate::maths::pose::Pose;

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
/// How fast the playback clock may run fast or slow to follow a changed clock offset (seconds
/// per second): 10 %, too little to see as a change of speed.
const CLOCK_SLEW: f64 = 0.1;
/// A change of the clock offset beyond this (seconds) is a new clock, taken at once.
const CLOCK_SNAP_S: f64 = 0.5;

/// The jitter buffer of one remote avatar.
#[derive(Clone, Debug)]
pub struct JitterBuffer {
    pub settings: JitterSettings,
    /// (sender time in seconds, unwrapped; sequence number; state), in time order.
    samples: VecDeque<(f64, u8, AvatarState)>,
    /// The last packet's clock, as sent and unwrapped.
    clock: Option<(u16, f64)>,
    /// Receiver minus sender time of recent packets; the smallest is the clock offset's target.
    offsets: VecDeque<f64>,
    /// The clock offset played by: it follows the target at [`CLOCK_SLEW`].
    offset: Option<f64>,
    /// The last sample: receiver time, the state drawn, how it was found.
    last: Option<(f64, AvatarState, Playback)>,
    /// A packet was taken in since the last sample.
    received: bool,
    /// What is left of the last easing back onto the stream.
    correction: Option<Correction>,
}

impl JitterBuffer {
    pub fn new(mut settings: JitterSettings) -> Self {
        settings.validate();
        Self {
            settings,
            samples: VecDeque::with_capacity(CAPACITY),
            clock: None,
            offsets: VecDeque::with_capacity(OFFSET_WINDOW),
            offset: None,
            last: None,
            received: false,
            correction: None,
        }
    }

    /// `now_s` when it is finite, else the last sample's time (else 0): a broken clock reading
    /// stands still rather than poisoning the offsets and the draw.
    fn finite_clock(&self, now_s: f64) -> f64 {
        if now_s.is_finite() {
            now_s
        } else {
            self.last.map_or(0.0, |(then, ..)| then)
        }
    }

    /// Takes in a packet received at `now_s` (the receiver's clock, seconds).
    pub fn receive(&mut self, header: StateHeader, state: AvatarState, now_s: f64) -> Receipt {
        let now_s = self.finite_clock(now_s);
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
        self.offset.get_or_insert(now_s - sent);
        self.received = true;
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
        Some(now_s - self.offset? - self.settings.interpolation_delay_s as f64)
    }

    /// Moves the clock offset toward the quickest packet's, by at most [`CLOCK_SLEW`] of the
    /// time since the last sample.
    fn slew_clock(&mut self, now_s: f64) {
        let Some(target) = self.offsets.iter().copied().reduce(f64::min) else {
            return;
        };
        self.offset = Some(match (self.offset, self.last) {
            (Some(offset), Some((then, ..))) if (target - offset).abs() <= CLOCK_SNAP_S => {
                let step = CLOCK_SLEW * (now_s - then).max(0.0);
                offset + (target - offset).clamp(-step, step)
            }
            _ => target,
        });
    }

    /// The avatar's state to draw at `now_s`, and how it was found. Samples that can no longer
    /// be drawn are let go.
    pub fn sample(&mut self, now_s: f64) -> (AvatarState, Playback) {
        let now_s = self.finite_clock(now_s);
        self.slew_clock(now_s);
        let (stream, playback) = self.sample_stream(now_s);
        let drawn = self.eased(stream, playback, now_s);
        self.last = Some((now_s, drawn, playback));
        self.received = false;
        (drawn, playback)
    }

    /// The stream's state with what is left of the easing back onto it. A packet that ends a
    /// stretch drawn extrapolated or held starts a new easing from what was drawn.
    fn eased(&mut self, stream: AvatarState, playback: Playback, now_s: f64) -> AvatarState {
        use Playback::{Extrapolated, Held, Interpolated};
        if self.received
            && matches!(playback, Interpolated | Extrapolated)
            && let Some((_, drawn, Extrapolated | Held)) = self.last
        {
            self.correction = Correction::between(&drawn, &stream, now_s);
        }
        if !matches!(playback, Interpolated | Extrapolated | Held) {
            self.correction = None;
        }
        match self.correction {
            Some(c) if !c.is_done(now_s) => c.apply(&stream, now_s),
            _ => {
                self.correction = None;
                stream
            }
        }
    }

    /// The stream's own state at `now_s`, uncorrected.
    fn sample_stream(&mut self, now_s: f64) -> (AvatarState, Playback) {
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
            if jumped(&from, &to, to_t - from_t) {
                // A snap turn or a teleport: shown when it happened, not swept through.
                return (from, Playback::Interpolated);
            }
            let f = ((t - from_t) / (to_t - from_t)) as f32;
            return (blend(&from, &to, f), Playback::Interpolated);
        }
        // Past the newest state: continue the last span's motion for a while.
        let late = (t - from_t) as f32;
        let s = &self.settings;
        let state = match at {
            1 if from_t - first_t <= MAX_SPAN_S && !jumped(&first, &from, from_t - first_t) => {
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

/// Faster than this (metres per second) a head or hand moved between two states, or the head
/// turned faster than [`JUMP_DEG_S`]: the player was moved (a snap turn, a teleport), no body
/// moves so. Such a span is not blended, the jump shown when it happened.
pub const JUMP_M_S: f32 = 20.0;
/// See [`JUMP_M_S`] (degrees per second; a head turns at most about 800).
pub const JUMP_DEG_S: f32 = 1000.0;

/// Whether the player was moved between `a` and `b`, `dt` seconds apart (see [`JUMP_M_S`]).
fn jumped(a: &AvatarState, b: &AvatarState, dt: f64) -> bool {
    let dt = dt.max(1e-3) as f32;
    let at = |s: &AvatarState, p: Vec3| s.root + p;
    let moved = |p: Vec3, q: Vec3| p.distance(q) / dt > JUMP_M_S;
    let head_turn = a.head.rotation.angle_between(b.head.rotation).to_degrees() / dt;
    moved(at(a, a.head.position), at(b, b.head.position))
        || head_turn > JUMP_DEG_S
        || a.hands.iter().zip(&b.hands).any(|(p, q)| {
            p.tracked && q.tracked && moved(at(a, p.pose.position), at(b, q.pose.position))
        })
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
#[path = "jitter_buffer_tests.rs"]
mod tests;
