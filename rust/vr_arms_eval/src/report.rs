//! Tables of the evaluation, as text for the terminal and markdown for the docs.

use crate::clip::Clip;
use crate::clip_rest::{unit_name, up_name};
use crate::eval::{ClipResult, Metrics, mean, p95};

/// The arm methods ours is compared with.
pub const BASELINES: [&str; 3] = ["lookat", "lookat_pole", "fixed_pole"];

/// How each clip was read: the naming its joints were recognised by, the unit, up axis and rest
/// found from its data, the floor's rise (cm a metre along its steepest way, [`Clip::floor_plane`]),
/// the frames skipped and the frame rate used.
pub fn reading(clips: &[Clip]) -> String {
    let mut s = String::from(
        "| clip | group | naming | unit | up | rest from | floor rise (cm/m) | skipped | frames | fps |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for c in clips {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {:.1} | {} | {} | {:.0} |\n",
            c.name,
            c.group.key(),
            c.naming.label(),
            unit_name(c.unit_m()),
            up_name(c.read.upright),
            c.rest_source().label(),
            100.0 * c.floor_plane().slope.length(),
            c.read.first_frame,
            c.frame_count(),
            1.0 / c.frame_time
        );
    }
    s
}

/// `x` with `digits` decimals, "-" when it is not finite.
pub fn fmt(x: f32, digits: usize) -> String {
    f(x, digits)
}

fn f(x: f32, digits: usize) -> String {
    if x.is_finite() {
        format!("{x:.digits$}")
    } else {
        "-".into()
    }
}

/// One table row for a method and mode.
pub fn row(method: &str, mode: &str, m: &Metrics) -> String {
    let per_min = |n: usize| {
        if m.minutes > 0.0 {
            n as f32 / m.minutes
        } else {
            f32::NAN
        }
    };
    let jitter_excess = m.jitter_excess();
    let is_torso_only = m.frames == 0;
    format!(
        "| {method} | {mode} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        f(mean(&m.hand_reachable_cm), 3),
        f(mean(&m.hand_unreachable_cm), 2),
        f(mean(&m.elbow_cm), 2),
        f(p95(&m.elbow_cm), 2),
        f(mean(&m.shoulder_cm), 2),
        f(mean(&m.chest_yaw_deg), 1),
        if is_torso_only {
            "-".into()
        } else {
            format!(
                "{} ({})",
                f(per_min(m.flips), 2),
                f(per_min(m.clip_flips), 2)
            )
        },
        if is_torso_only {
            "-".into()
        } else {
            f(jitter_excess, 1)
        },
        if is_torso_only {
            "-".into()
        } else {
            format!("{} ({})", m.torso_frames, m.clip_torso_frames)
        },
    )
}

pub const HEADER: &str = "| method | mode | hand, reachable (cm) | hand, unreachable (cm) | elbow mean (cm) | elbow p95 (cm) | shoulder (cm) | chest yaw (deg) | flips/min (clip's own) | elbow jitter excess (m/s^3) | frames in torso (clip's own) |\n|---|---|---|---|---|---|---|---|---|---|---|";

/// Every (method, mode) pooled over all clips, in the order they first appear.
pub fn merged(results: &[ClipResult]) -> Vec<(String, String, Metrics)> {
    let mut merged: Vec<(String, String, Metrics)> = Vec::new();
    for r in results {
        for (method, mode, m) in &r.rows {
            match merged.iter_mut().find(|(a, b, _)| a == method && b == mode) {
                Some((_, _, acc)) => acc.merge(m),
                None => merged.push((method.clone(), mode.clone(), m.clone())),
            }
        }
    }
    merged
}

/// The overall table over all clips.
pub fn overall(results: &[ClipResult]) -> String {
    let mut out = String::from(HEADER);
    for (method, mode, m) in &merged(results) {
        out.push('\n');
        out.push_str(&row(method, mode, m));
    }
    out
}

/// Each clip's hand, elbow, flips and chest yaw for ours, beside the best baseline on that clip
/// (the lowest of LookAt, LookAt as a pole, the fixed pole; headset-only for the chest yaw).
pub fn per_clip(results: &[ClipResult]) -> String {
    let mut out = String::from(
        "| clip | frames | hand reachable, arm-only: ours (cm) | best baseline | elbow arm-only: ours (cm) | best baseline | elbow full, standing body: ours (cm) | best baseline | flips/min excess arm-only: ours | best baseline | flips/min excess full, standing body: ours | best baseline | chest yaw, standing body: ours (deg) | headset-only |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    );
    let baselines = BASELINES;
    for r in results {
        let get = |method: &str, mode: &str, pick: &dyn Fn(&Metrics) -> f32| {
            r.rows
                .iter()
                .find(|(a, b, _)| a == method && b == mode)
                .map_or(f32::NAN, |(_, _, m)| pick(m))
        };
        let pair = |mode: &str, pick: &dyn Fn(&Metrics) -> f32, digits: usize| {
            let best = baselines
                .iter()
                .map(|b| get(b, mode, pick))
                .filter(|v| v.is_finite())
                .fold(f32::NAN, f32::min);
            format!(
                "{} | {}",
                f(get("ours", mode, pick), digits),
                f(best, digits)
            )
        };
        let hand = |m: &Metrics| mean(&m.hand_reachable_cm);
        let elbow = |m: &Metrics| mean(&m.elbow_cm);
        let flips = |m: &Metrics| m.flips_per_min_excess();
        let yaw = |m: &Metrics| mean(&m.chest_yaw_deg);
        let frames = r
            .rows
            .iter()
            .find(|(a, b, _)| a == "ours" && b == "arm-only")
            .map_or(0, |(_, _, m)| m.frames / 2);
        out.push_str(&format!(
            "\n| {} | {frames} | {} | {} | {} | {} | {} | {} | {} |",
            r.name,
            pair("arm-only", &hand, 3),
            pair("arm-only", &elbow, 2),
            pair("full", &elbow, 2),
            pair("arm-only", &flips, 2),
            pair("full", &flips, 2),
            f(get("ours", "full", &yaw), 1),
            f(get("headset_only_torso", "full", &yaw), 1),
        ));
    }
    out
}

/// The upper-body table: position error over head, neck, chest, shoulders, elbows and wrists,
/// and jitter over those joints (in 10^2 m/s^3, as published three-point methods report it).
pub fn upper_body(results: &[ClipResult]) -> String {
    let mut out = String::from(
        "| method | mode | upper body (cm) | elbow mean (cm) | upper-body jitter (10^2 m/s^3) | the clip's own (10^2 m/s^3) |\n|---|---|---|---|---|---|",
    );
    for (method, mode, m) in merged(results).iter().filter(|(_, _, m)| m.frames > 0) {
        out += &format!(
            "\n| {method} | {mode} | {} | {} | {} | {} |",
            f(mean(&m.upper_body_cm), 2),
            f(mean(&m.elbow_cm), 2),
            f(m.upper_jitter.mean() / 100.0, 2),
            f(m.clip_upper_jitter.mean() / 100.0, 2),
        );
    }
    out
}

/// Hand and elbow errors with the avatar's bones scaled against the performer's.
pub fn proportions(results: &[ClipResult], scaled: &[(f32, Vec<ClipResult>)]) -> String {
    type Rows = Vec<(String, String, Metrics)>;
    let mut runs: Vec<(f32, Rows)> = vec![(1.0, merged(results))];
    runs.extend(scaled.iter().map(|(s, r)| (*s, merged(r))));
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = String::from("| method | mode |");
    for (s, _) in &runs {
        out += &format!(" hand, reachable, x{s} (cm) |");
    }
    for (s, _) in &runs {
        out += &format!(" elbow mean, x{s} (cm) |");
    }
    out += "\n|---|---|";
    out += &"---|".repeat(runs.len() * 2);
    for (method, mode, _) in merged(results).iter().filter(|(_, _, m)| m.frames > 0) {
        out += &format!("\n| {method} | {mode} |");
        let find = |r: &[(String, String, Metrics)]| {
            r.iter()
                .find(|(a, b, _)| a == method && b == mode)
                .map(|(_, _, m)| m.clone())
                .unwrap_or_default()
        };
        for (_, r) in &runs {
            out += &format!(" {} |", f(mean(&find(r).hand_reachable_cm), 3));
        }
        for (_, r) in &runs {
            out += &format!(" {} |", f(mean(&find(r).elbow_cm), 2));
        }
    }
    out
}
