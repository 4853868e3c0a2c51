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

/// Our pipeline's elbow error per clip (arm-only and full), and chest yaw, next to the baselines.
pub fn per_clip(results: &[ClipResult]) -> String {
    let mut out = String::from(
        "| clip | frames | elbow ours arm-only (cm) | lookat | lookat_pole | fixed_pole | elbow ours full (cm) | chest yaw ours (deg) | headset-only (deg) | hand reachable ours (cm) |\n|---|---|---|---|---|---|---|---|---|---|",
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
            "\n| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.name,
            frames,
            f(e("ours", "arm-only"), 2),
            f(e("lookat", "arm-only"), 2),
            f(e("lookat_pole", "arm-only"), 2),
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

/// Where ours stands against the targets and the best baseline, as a table and one sentence that
/// is built from the same numbers (so it cannot disagree with them).
pub fn standing(results: &[ClipResult]) -> String {
    let all = merged(results);
    let get = |method: &str, mode: &str| {
        all.iter()
            .find(|(a, b, _)| a == method && b == mode)
            .map(|(_, _, m)| m)
    };
    let value = |method: &str, mode: &str, pick: &dyn Fn(&Metrics) -> f32| {
        get(method, mode).map(pick).unwrap_or(f32::NAN)
    };
    let per_min_excess = Metrics::flips_per_min_excess;
    let jitter_excess = Metrics::jitter_excess;
    let elbow = |m: &Metrics| mean(&m.elbow_cm);
    let baselines = ["lookat", "lookat_pole", "fixed_pole"];
    let best = |mode: &str, pick: &dyn Fn(&Metrics) -> f32| {
        baselines
            .iter()
            .map(|b| (value(b, mode, pick), *b))
            .filter(|(v, _)| v.is_finite())
            .fold((f32::INFINITY, ""), |a, x| if x.0 < a.0 { x } else { a })
    };
    struct Row {
        what: &'static str,
        ours: f32,
        target: f32,
        best: (f32, &'static str),
    }
    let hand = |m: &Metrics| mean(&m.hand_reachable_cm);
    let (elbow_arm_best, elbow_full_best) = (best("arm-only", &elbow), best("full", &elbow));
    let rows = [
        Row {
            what: "hand, reachable, arm-only (cm)",
            ours: value("ours", "arm-only", &hand),
            target: 0.1,
            best: best("arm-only", &hand),
        },
        Row {
            what: "elbow mean, arm-only (cm)",
            ours: value("ours", "arm-only", &elbow),
            target: 3.0_f32.min(elbow_arm_best.0),
            best: elbow_arm_best,
        },
        Row {
            what: "elbow mean, full (cm)",
            ours: value("ours", "full", &elbow),
            target: 5.0_f32.min(elbow_full_best.0),
            best: elbow_full_best,
        },
        Row {
            what: "chest yaw, full (deg)",
            ours: value("ours", "full", &|m| mean(&m.chest_yaw_deg)),
            target: 11.0,
            best: (
                value("headset_only_torso", "full", &|m| mean(&m.chest_yaw_deg)),
                "headset_only",
            ),
        },
        Row {
            what: "flips/min excess, arm-only",
            ours: value("ours", "arm-only", &per_min_excess),
            target: 0.0,
            best: best("arm-only", &per_min_excess),
        },
        Row {
            what: "flips/min excess, full",
            ours: value("ours", "full", &per_min_excess),
            target: 0.0,
            best: best("full", &per_min_excess),
        },
        Row {
            what: "elbow jitter excess, arm-only (m/s^3)",
            ours: value("ours", "arm-only", &jitter_excess),
            target: value("lookat", "arm-only", &jitter_excess),
            best: best("arm-only", &jitter_excess),
        },
        Row {
            what: "elbow jitter excess, full (m/s^3)",
            ours: value("ours", "full", &jitter_excess),
            target: value("lookat", "full", &jitter_excess),
            best: best("full", &jitter_excess),
        },
    ];
    let mut out =
        String::from("| figure | ours | target | met | best other method |\n|---|---|---|---|---|");
    let mut missed = Vec::new();
    for r in &rows {
        let met = r.ours.is_finite() && r.ours <= r.target + 1e-6;
        if !met {
            missed.push(r.what);
        }
        out += &format!(
            "\n| {} | {} | {} | {} | {} ({}) |",
            r.what,
            f(r.ours, 3),
            f(r.target, 3),
            if met { "yes" } else { "**no**" },
            f(r.best.0, 3),
            r.best.1
        );
    }
    out += &format!(
        "\n\nThe targets: reachable hands within 0.1 cm; elbows within 3.0 cm (arm-only) and 5.0 cm (full) and better than every baseline; chest yaw within 11 degrees; no flips beyond the clip's own; elbow jitter no higher than LookAt's. {} of {} are met{}",
        rows.len() - missed.len(),
        rows.len(),
        if missed.is_empty() {
            ".".to_string()
        } else {
            format!("; not met: {}.", missed.join("; "))
        }
    );
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
