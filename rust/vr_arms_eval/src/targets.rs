//! Where ours stands against the arm targets: pooled over every clip's frames, and clip by
//! clip. A target is met when the pooled figure meets it and no clip fails its own bar: for a
//! target every clip must meet (reachable hands, flips) the target itself, otherwise the clip's
//! best baseline (a clip where a simpler method does better counts against us however good the
//! pooled figure is).

use crate::eval::{ClipResult, Metrics, mean};
use crate::report::{BASELINES, fmt, merged};
use crate::whole_body_metrics::WholeBodyResult;

type Rows = [(String, String, Metrics)];

/// A per-clip figure of a row's metrics, and its weight in the pool.
pub(crate) type Pick = (fn(&Metrics) -> f32, fn(&Metrics) -> f32);

/// The reachable hands' error, weighted by their frames.
pub(crate) const HAND: Pick = (
    |m| mean(&m.hand_reachable_cm),
    |m| m.hand_reachable_cm.len() as f32,
);
/// The elbows' error, weighted by their frames.
pub(crate) const ELBOW: Pick = (|m| mean(&m.elbow_cm), |m| m.elbow_cm.len() as f32);
/// Flips a minute beyond the clip's own, weighted by minutes.
pub(crate) const FLIPS: Pick = (|m| m.flips_per_min_excess(), |m| m.minutes);

/// One figure of `method` in `mode` among `rows` (NaN when absent).
fn value(rows: &Rows, method: &str, mode: &str, pick: fn(&Metrics) -> f32) -> f32 {
    rows.iter()
        .find(|(a, b, _)| a == method && b == mode)
        .map_or(f32::NAN, |(_, _, m)| pick(m))
}

/// The lowest finite value of `candidates` (value, name); `(NaN, "")` without one.
fn lowest(candidates: impl Iterator<Item = (f32, String)>) -> (f32, String) {
    candidates
        .filter(|(v, _)| v.is_finite())
        .fold((f32::NAN, String::new()), |a, x| {
            if a.0.is_nan() || x.0 < a.0 { x } else { a }
        })
}

/// One clip's figure against its bar (what that clip must not exceed).
#[derive(Clone, Debug, PartialEq)]
pub struct ClipFigure {
    pub clip: String,
    pub ours: f32,
    pub bar: f32,
    /// The clip's weight in the pooled figure (its frames, or minutes for a rate).
    pub weight: f32,
}

impl ClipFigure {
    /// Over its bar (a clip without the figure, NaN, fails nothing; an infinite one fails).
    pub fn fails(&self) -> bool {
        !self.ours.is_nan() && self.bar.is_finite() && self.ours > self.bar + 1e-6
    }
}

/// A figure with its target, pooled and per clip.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub what: &'static str,
    pub ours: f32,
    pub target: f32,
    /// The best other method, pooled (value, name).
    pub best: (f32, String),
    /// What each clip is held to: "the target" or "its best baseline".
    pub bar: &'static str,
    pub clips: Vec<ClipFigure>,
}

impl Figure {
    /// The clips over their bar.
    pub fn failing(&self) -> Vec<&ClipFigure> {
        self.clips.iter().filter(|c| c.fails()).collect()
    }

    /// The clip with the highest figure of ours.
    pub fn worst(&self) -> Option<&ClipFigure> {
        self.clips
            .iter()
            .filter(|c| c.ours.is_finite())
            .max_by(|a, b| a.ours.total_cmp(&b.ours))
    }

    pub fn met(&self) -> bool {
        self.ours.is_finite() && self.ours <= self.target + 1e-6 && self.failing().is_empty()
    }

    /// The spread of the pooled figure across clips: its 5th and 95th percentiles over
    /// [`BOOTSTRAP_RUNS`] resamplings of the clips with replacement (each pooled by weight),
    /// from a fixed seed, so the same clips always give the same spread.
    pub fn spread(&self) -> (f32, f32) {
        let clips: Vec<&ClipFigure> = self
            .clips
            .iter()
            .filter(|c| c.ours.is_finite() && c.weight > 0.0)
            .collect();
        if clips.is_empty() {
            return (f32::NAN, f32::NAN);
        }
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            // xorshift64*
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize
        };
        let mut pools: Vec<f32> = (0..BOOTSTRAP_RUNS)
            .map(|_| {
                let (mut sum, mut weight) = (0.0f64, 0.0f64);
                for _ in 0..clips.len() {
                    let c = clips[next() % clips.len()];
                    sum += c.ours as f64 * c.weight as f64;
                    weight += c.weight as f64;
                }
                (sum / weight) as f32
            })
            .collect();
        pools.sort_by(f32::total_cmp);
        let at = |q: f32| pools[((pools.len() - 1) as f32 * q).round() as usize];
        (at(0.05), at(0.95))
    }
}

/// How many resamplings of the clips [`Figure::spread`] takes.
pub const BOOTSTRAP_RUNS: usize = 2000;

/// An arm figure of ours in `mode`, against the baselines: pooled against `target`, each clip
/// against `per_clip_target` or, when `None`, its best baseline.
pub(crate) fn arm_figure(
    results: &[ClipResult],
    what: &'static str,
    mode: &str,
    (pick, weight): Pick,
    target: f32,
    per_clip_target: Option<f32>,
) -> Figure {
    let all = merged(results);
    let best_of = |rows: &Rows| {
        lowest(
            BASELINES
                .iter()
                .map(|b| (value(rows, b, mode, pick), b.to_string())),
        )
    };
    Figure {
        what,
        ours: value(&all, "ours", mode, pick),
        target,
        best: best_of(&all),
        bar: if per_clip_target.is_some() {
            "the target"
        } else {
            "its best baseline"
        },
        clips: results
            .iter()
            .map(|r| ClipFigure {
                clip: r.name.clone(),
                ours: value(&r.rows, "ours", mode, pick),
                bar: per_clip_target.unwrap_or_else(|| best_of(&r.rows).0),
                weight: value(&r.rows, "ours", mode, weight),
            })
            .collect(),
    }
}

/// Reachable hands within 0.1 cm, pooled and on every clip, with the performer's shoulders.
pub(crate) fn reachable_hands(results: &[ClipResult]) -> Figure {
    let what = "hand, reachable, arm-only (cm)";
    arm_figure(results, what, "arm-only", HAND, 0.1, Some(0.1))
}

/// No flips beyond the clip's own, pooled and on every clip, with the performer's shoulders.
pub(crate) fn arm_only_flips(results: &[ClipResult]) -> Figure {
    let what = "flips/min excess, arm-only";
    arm_figure(results, what, "arm-only", FLIPS, 0.0, Some(0.0))
}

/// Every arm target (reachable hands 0.1 cm on every clip; elbows 2.8 cm with true shoulders
/// and 4.5 cm in the whole body; no excess flips on any clip with true shoulders or in the
/// whole body; chest yaw 10 degrees in the whole body (with the standing body's when there is
/// none); elbow jitter no higher than LookAt's).
pub fn figures(results: &[ClipResult], whole: &[WholeBodyResult]) -> Vec<Figure> {
    // Each figure with its weight in the pool.
    let yaw = |m: &Metrics| mean(&m.chest_yaw_deg);
    let jitter: Pick = (|m| m.jitter_excess(), |m| m.jitter.frames as f32);
    let all = merged(results);
    let mut out = vec![
        reachable_hands(results),
        arm_figure(
            results,
            "elbow mean, arm-only (cm)",
            "arm-only",
            ELBOW,
            2.8,
            None,
        ),
    ];
    let whole_flips = (!whole.is_empty()).then(|| Figure {
        what: "flips/min excess, whole body",
        ours: crate::whole_body_report::pooled(whole, 0).flips_per_min_excess,
        target: 0.0,
        best: (
            crate::whole_body_report::pooled(whole, 1).flips_per_min_excess,
            "standing".into(),
        ),
        bar: "the target",
        clips: whole
            .iter()
            .map(|r| ClipFigure {
                clip: r.clip.clone(),
                ours: r.methods[0].flips_per_min_excess,
                bar: 0.0,
                weight: r.methods[0].frames as f32,
            })
            .collect(),
    });
    if !whole.is_empty() {
        // The engine's default body, lower half included: against the two whole-body baselines.
        let pooled = |i: usize| crate::whole_body_report::pooled(whole, i).elbows_cm;
        let best = |figures: [f32; 2]| {
            lowest(
                figures
                    .into_iter()
                    .zip(["standing", "hanging"])
                    .map(|(v, n)| (v, n.to_string())),
            )
        };
        out.push(Figure {
            what: "elbow mean, whole body (cm)",
            ours: pooled(0),
            target: 4.5,
            best: best([pooled(1), pooled(2)]),
            bar: "its best baseline",
            clips: whole
                .iter()
                .map(|r| ClipFigure {
                    clip: r.clip.clone(),
                    ours: r.methods[0].elbows_cm,
                    bar: best([r.methods[1].elbows_cm, r.methods[2].elbows_cm]).0,
                    weight: r.methods[0].frames as f32,
                })
                .collect(),
        });
    }
    let headset_only = |name: &str| {
        results
            .iter()
            .find(|r| r.name == name)
            .map_or(f32::NAN, |r| {
                value(&r.rows, "headset_only_torso", "full", yaw)
            })
    };
    // The engine's default body, lower half included (its low stance needs it); the standing
    // body's when there is no whole body.
    let (what, ours, clips): (_, _, Vec<ClipFigure>) = if whole.is_empty() {
        (
            "chest yaw, full (deg)",
            value(&all, "ours", "full", yaw),
            results
                .iter()
                .map(|r| ClipFigure {
                    clip: r.name.clone(),
                    ours: value(&r.rows, "ours", "full", yaw),
                    bar: value(&r.rows, "headset_only_torso", "full", yaw),
                    weight: value(&r.rows, "ours", "full", |m| m.chest_yaw_deg.len() as f32),
                })
                .collect(),
        )
    } else {
        (
            "chest yaw, whole body (deg)",
            crate::whole_body_report::pooled(whole, 0).chest_yaw_deg,
            whole
                .iter()
                .map(|r| ClipFigure {
                    clip: r.clip.clone(),
                    ours: r.methods[0].chest_yaw_deg,
                    bar: headset_only(&r.clip),
                    weight: r.methods[0].frames as f32,
                })
                .collect(),
        )
    };
    out.push(Figure {
        what,
        ours,
        target: 10.0,
        best: (
            value(&all, "headset_only_torso", "full", yaw),
            "headset_only".into(),
        ),
        bar: "its best baseline",
        clips,
    });
    out.push(arm_only_flips(results));
    // The engine's body flips where it runs: with its lower half (the arm tables' full mode
    // stands the body at its rest height, its shoulders too high whenever the performer
    // crouches; its flips stay in those tables).
    out.extend(whole_flips);
    for (what, mode) in [
        ("elbow jitter excess, arm-only (m/s^3)", "arm-only"),
        ("elbow jitter excess, full (m/s^3)", "full"),
    ] {
        // No higher than LookAt's, pooled and on each clip.
        let mut fig = arm_figure(results, what, mode, jitter, 0.0, None);
        fig.target = value(&all, "lookat", mode, jitter.0);
        fig.bar = "LookAt's";
        for (c, r) in fig.clips.iter_mut().zip(results) {
            c.bar = value(&r.rows, "lookat", mode, jitter.0);
        }
        out.push(fig);
    }
    out
}

/// The targets as a table, and one sentence built from the same figures.
pub fn table(figures: &[Figure]) -> String {
    rows(figures)
        + &format!(
            "\n\nThe targets: reachable hands within 0.1 cm on every clip; elbows within 2.8 cm with the performer's shoulders and 4.5 cm in the engine's whole body (lower half included); chest yaw within 10 degrees; no flips beyond the clip's own on any clip, with the performer's shoulders or in the whole body; elbow jitter no higher than LookAt's. A target is met when the pooled figure meets it and no clip is over its bar (the target itself, or that clip's best baseline). {}",
            verdict(figures)
        )
}

/// "N of M are met; not met: ...".
pub fn verdict(figures: &[Figure]) -> String {
    let missed: Vec<&str> = figures
        .iter()
        .filter(|f| !f.met())
        .map(|f| f.what)
        .collect();
    format!(
        "{} of {} are met{}",
        figures.len() - missed.len(),
        figures.len(),
        if missed.is_empty() {
            ".".to_string()
        } else {
            format!("; not met: {}.", missed.join("; "))
        }
    )
}

/// The targets' table alone, a row a figure.
pub fn rows(figures: &[Figure]) -> String {
    let mut out = String::from(
        "| figure | ours | spread over clips (5-95 %) | target | worst clip (ours) | clips over their bar | each clip held to | met | best other method |\n|---|---|---|---|---|---|---|---|---|",
    );
    for fig in figures {
        let failing = fig.failing();
        let worst = fig.worst().map_or("-".to_string(), |w| {
            format!("{} ({})", w.clip, fmt(w.ours, 3))
        });
        let (low, high) = fig.spread();
        out += &format!(
            "\n| {} | {} | {}-{} | {} | {worst} | {} of {} | {} | {} | {} ({}) |",
            fig.what,
            fmt(fig.ours, 3),
            fmt(low, 3),
            fmt(high, 3),
            fmt(fig.target, 3),
            failing.len(),
            fig.clips.len(),
            fig.bar,
            if fig.met() { "yes" } else { "**no**" },
            fmt(fig.best.0, 3),
            fig.best.1,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clip(name: &str, ours: f32, bar: f32) -> ClipFigure {
        ClipFigure {
            clip: name.into(),
            ours,
            bar,
            weight: 1.0,
        }
    }

    fn figure(ours: f32, clips: Vec<ClipFigure>) -> Figure {
        Figure {
            what: "x",
            ours,
            target: 1.0,
            best: (2.0, "b".into()),
            bar: "its best baseline",
            clips,
        }
    }

    /// Met needs the pooled figure within the target and no clip over its bar: a good pool
    /// with one clip worse than its own baseline is not met.
    #[test]
    fn a_target_is_met_only_when_every_clip_holds_its_bar() {
        let good = figure(0.8, vec![clip("a", 0.5, 0.9), clip("b", 1.2, 1.5)]);
        assert!(good.met());
        let one_worse = figure(0.8, vec![clip("a", 0.5, 0.9), clip("b", 1.6, 1.5)]);
        assert!(!one_worse.met());
        assert_eq!(one_worse.failing()[0].clip, "b");
        assert_eq!(one_worse.worst().map(|w| w.clip.as_str()), Some("b"));
        let pooled_over = figure(1.1, vec![clip("a", 0.5, 0.9)]);
        assert!(!pooled_over.met());
        // A clip without the figure fails nothing; a NaN pool meets nothing.
        assert!(figure(0.8, vec![clip("a", f32::NAN, 0.1)]).met());
        assert!(!figure(f32::NAN, vec![]).met());
    }

    #[test]
    fn the_words_follow_the_figures() {
        let met = figure(0.8, vec![clip("a", 0.5, 0.9)]);
        let missed = Figure {
            what: "y",
            ..figure(0.8, vec![clip("a", 1.5, 0.9)])
        };
        let text = table(&[met, missed]);
        assert!(text.contains("1 of 2 are met; not met: y."), "{text}");
        assert!(
            text.contains("| y | 0.800 | 1.500-1.500 | 1.000 | a (1.500) | 1 of 1 |"),
            "{text}"
        );
    }

    /// The spread brackets the clips' figures: one clip, no spread; clips far apart, a wide
    /// one inside their range; a heavy clip pulls it toward its own figure; the same clips give
    /// the same spread every time.
    #[test]
    fn the_bootstrap_spread_brackets_the_pool_and_weighs_clips() {
        assert_eq!(figure(1.0, vec![clip("a", 1.0, 9.0)]).spread(), (1.0, 1.0));
        let clips: Vec<ClipFigure> = (0..10)
            .map(|i| clip(&i.to_string(), i as f32, 99.0))
            .collect();
        let (low, high) = figure(4.5, clips.clone()).spread();
        assert!(
            low > 0.0 && low < 4.5 && high > 4.5 && high < 9.0,
            "{low} {high}"
        );
        assert_eq!(figure(4.5, clips.clone()).spread(), (low, high));
        let mut heavy = clips;
        heavy[9].weight = 100.0;
        let (hl, hh) = figure(4.5, heavy).spread();
        assert!(hl > low && hh > high, "{hl} {hh}");
        assert!(figure(f32::NAN, vec![]).spread().0.is_nan());
    }
}
