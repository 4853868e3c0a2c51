//! Tests of the jitter buffer: playback, loss, the clock, the easing back onto the stream.

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
fn play(seconds: f64, latency: impl Fn(u32) -> Option<f64>) -> Vec<(f64, AvatarState, Playback)> {
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

/// The largest step of the right hand between two drawn frames, after the first `from`.
fn worst_step(frames: &[(f64, AvatarState, Playback)], from: usize) -> f32 {
    frames[from..]
        .windows(2)
        .map(|w| (hand_x(&w[1].1) - hand_x(&w[0].1)).abs())
        .fold(0.0, f32::max)
}

#[test]
fn after_a_late_stretch_the_avatar_eases_back_onto_the_stream() {
    // Packets 7-10 are lost just before the hand turns back (t = 0.25 s): it is drawn continued
    // outward, then packet 11 shows it already on its way back.
    let frames = play(1.5, |n| (!(7..=10).contains(&n)).then_some(0.02));
    let extrapolated = frames
        .iter()
        .position(|f| f.2 == Playback::Extrapolated)
        .expect("a late stretch");
    assert!(
        frames[extrapolated..]
            .iter()
            .any(|f| f.2 == Playback::Interpolated)
    );
    // The hand moves at most 1.9 m/s: 2.1 cm a frame at 90 Hz. Snapping would step 6 cm.
    let step = worst_step(&frames, 30);
    assert!(step < 0.03, "step {step} m");
    // Once eased, the stream is drawn as it is.
    for (now, s, p) in &frames[extrapolated + 60..] {
        assert_eq!(*p, Playback::Interpolated);
        let truth = hand_x(&body_at(now - 1000.0 - 0.02 - 0.1));
        assert!((hand_x(s) - truth).abs() < 0.003, "at {now}");
    }
}

#[test]
fn a_slower_network_slows_the_clock_rather_than_jumping_it() {
    // The network's delay grows from 20 to 80 ms at packet 45; a second later the quickest
    // packet of the window is 60 ms slower.
    let mut buffer = JitterBuffer::new(JitterSettings::default());
    let latency = |n: u32| if n < 45 { 0.02 } else { 0.08 };
    let mut arrivals: Vec<(f64, u32)> = (0..150)
        .map(|n| (n as f64 / 30.0 + latency(n), n))
        .collect();
    arrivals.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut next, mut last) = (0, None);
    let mut slowed = false;
    for frame in 0..450 {
        let now = frame as f64 / 90.0;
        while next < arrivals.len() && arrivals[next].0 <= now {
            let (h, s, _) = packet(arrivals[next].1);
            buffer.receive(h, s, arrivals[next].0);
            next += 1;
        }
        buffer.sample(now);
        let t = buffer.playback_time(now);
        if let (Some(before), Some(t)) = (last, t) {
            let advance: f64 = t - before;
            let dt = 1.0 / 90.0;
            assert!(
                advance >= dt * 0.9 - 1e-9 && advance <= dt * 1.1 + 1e-9,
                "at {now}: the drawn time moved {advance} s in a {dt} s frame"
            );
            slowed |= advance < dt * 0.95;
        }
        last = t;
    }
    assert!(slowed, "the clock followed the slower packets");
    // In the end the avatar is drawn 100 ms behind the slower packets.
    let t = buffer.playback_time(5.0).expect("playing");
    // (The packets carry whole milliseconds.)
    assert!((t - (5.0 - 0.08 - 0.1)).abs() < 1e-3, "{t}");
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

#[test]
fn a_non_finite_clock_reading_stands_still_instead_of_poisoning_the_draw() {
    let mut b = JitterBuffer::new(JitterSettings::default());
    for n in 0..10 {
        let (h, s, t) = packet(n);
        b.receive(h, s, t + 0.05);
        b.sample(t + 0.05);
    }
    let (h, s, _) = packet(10);
    b.receive(h, s, f64::NAN);
    for now in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let (state, _) = b.sample(now);
        assert!(
            state.root.is_finite() && state.head.position.is_finite() && hand_x(&state).is_finite(),
            "{now}: {state:?}"
        );
    }
    // The clock comes back: the stream plays on.
    let (state, _) = b.sample(11.0 / 30.0 + 0.05);
    assert!(hand_x(&state).is_finite());
}

#[test]
fn a_stream_longer_than_half_the_clocks_range_stays_on_time() {
    // 70 s of packets: past the 16-bit millisecond clock's half range (32.8 s, beyond which a
    // time reads as before the one it is told against) and its wrap at 65.5 s. The buffer
    // tells each packet's time against the newest one's, so it stays right throughout.
    let frames = play(70.0, |_| Some(0.02));
    let mut worst = 0.0f32;
    for (now, s, p) in frames.iter().skip(60) {
        assert_eq!(*p, Playback::Interpolated, "at {now}");
        let truth = hand_x(&body_at(now - 1000.0 - 0.02 - 0.1));
        worst = worst.max((hand_x(s) - truth).abs());
    }
    assert!(worst < 0.003, "worst {worst} m");
}

#[test]
fn before_any_draw_a_packet_whose_time_has_passed_is_too_old() {
    // The first packet (sender 0.1 s) arrives at 5 s: the sender is drawn 4.9 s behind, less
    // the delay. At 6 s the drawn time is 1.0 s: a packet sent at 0.9 s has passed already.
    let mut buffer = JitterBuffer::new(JitterSettings::default());
    let at = |ms: u16, sequence: u8| StateHeader {
        sequence,
        time_ms: ms,
    };
    let body = body_at(0.0);
    assert_eq!(buffer.receive(at(100, 1), body, 5.0), Receipt::Accepted);
    assert_eq!(buffer.receive(at(120, 2), body, 5.02), Receipt::Accepted);
    assert_eq!(buffer.receive(at(900, 3), body, 6.0), Receipt::TooOld);
    // With a single packet there is nothing to draw between: a late one is still taken.
    let mut one = JitterBuffer::new(JitterSettings::default());
    one.receive(at(100, 1), body, 5.0);
    assert_eq!(one.receive(at(50, 2), body, 6.0), Receipt::Accepted);
}

/// A snap turn between two packets (the head turned half round, the hands carried round it)
/// is shown when it happened, not swept through the body; the same span without the turn
/// blends as before.
#[test]
fn a_snap_turn_is_not_blended_through() {
    let turned = |s: &AvatarState| {
        let mut s = *s;
        let half = Quat::from_rotation_y(std::f32::consts::PI);
        s.head.rotation = half * s.head.rotation;
        for h in &mut s.hands {
            h.pose.position = half * h.pose.position;
            h.pose.rotation = half * h.pose.rotation;
        }
        s
    };
    let run = |turn: bool| {
        let mut buffer = JitterBuffer::new(JitterSettings::default());
        for n in 0..6u32 {
            let (h, s, t) = packet(n);
            let s = if turn && n >= 3 { turned(&s) } else { s };
            buffer.receive(h, s, t + 1000.0 + 0.02);
        }
        // Halfway between packets 2 and 3, one delay (0.1 s) later.
        let at = 1000.0 + 2.5 / 30.0 + 0.1 + 0.02;
        buffer.sample(at).0
    };
    let (_, before, _) = packet(2);
    let turned_out = run(true);
    assert!(
        turned_out.hands[1]
            .pose
            .position
            .distance(before.hands[1].pose.position)
            < 1e-3,
        "the turn shown when it happened: {:?}",
        turned_out.hands[1].pose
    );
    let plain = run(false);
    let (_, after, _) = packet(3);
    let mid = (before.hands[1].pose.position + after.hands[1].pose.position) * 0.5;
    assert!(
        plain.hands[1].pose.position.distance(mid) < 0.02,
        "blended: {:?}",
        plain.hands[1].pose
    );
}
