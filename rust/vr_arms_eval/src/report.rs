//! Tables of the evaluation, as text for the terminal and markdown for the docs.

use crate::eval::{ClipResult, Metrics, mean, p95};

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
    let jitter_excess = mean(&m.jitter) - mean(&m.clip_jitter);
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

/// The overall table over all clips.
pub fn overall(results: &[ClipResult]) -> String {
    let mut merged: Vec<(String, String, Metrics)> = Vec::new();
    for r in results {
        for (method, mode, m) in &r.rows {
            match merged.iter_mut().find(|(a, b, _)| a == method && b == mode) {
                Some((_, _, acc)) => acc.merge(m),
                None => merged.push((method.clone(), mode.clone(), m.clone())),
            }
        }
    }
    let mut out = String::from(HEADER);
    for (method, mode, m) in &merged {
        out.push('\n');
        out.push_str(&row(method, mode, m));
    }
    out
}

/// Our pipeline's elbow error per clip (arm-only and full), and chest yaw, next to the baselines.
pub fn per_clip(results: &[ClipResult]) -> String {
    let mut out = String::from(
        "| clip | frames | elbow ours arm-only (cm) | lookat | fixed_pole | elbow ours full (cm) | chest yaw ours (deg) | headset-only (deg) | hand reachable ours (cm) |\n|---|---|---|---|---|---|---|---|---|",
    );
    for r in results {
        let get = |method: &str, mode: &str| {
            r.rows
                .iter()
                .find(|(a, b, _)| a == method && b == mode)
                .map(|(_, _, m)| m)
        };
        let e = |method: &str, mode: &str| {
            get(method, mode)
                .map(|m| mean(&m.elbow_cm))
                .unwrap_or(f32::NAN)
        };
        let frames = get("ours", "arm-only").map(|m| m.frames / 2).unwrap_or(0);
        out.push_str(&format!(
            "\n| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.name,
            frames,
            f(e("ours", "arm-only"), 2),
            f(e("lookat", "arm-only"), 2),
            f(e("fixed_pole", "arm-only"), 2),
            f(e("ours", "full"), 2),
            f(
                get("ours", "full")
                    .map(|m| mean(&m.chest_yaw_deg))
                    .unwrap_or(f32::NAN),
                1
            ),
            f(
                get("headset_only_torso", "full")
                    .map(|m| mean(&m.chest_yaw_deg))
                    .unwrap_or(f32::NAN),
                1
            ),
            f(
                get("ours", "arm-only")
                    .map(|m| mean(&m.hand_reachable_cm))
                    .unwrap_or(f32::NAN),
                3
            ),
        ));
    }
    out
}
