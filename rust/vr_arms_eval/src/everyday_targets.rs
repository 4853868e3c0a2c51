//! Where ours stands against the everyday motion's targets (walking about, arms relaxed at the
//! sides, bending to pick up), on the everyday clips only, each clip against its own bar as in
//! [`crate::targets`]: the elbows with the performer's shoulders no worse than the clip's best
//! baseline; reachable hands exact; no flips beyond the performer's, with the performer's
//! shoulders or in the whole body; in the whole body the head within 1 cm of the headset on
//! every clip, steps a minute within a quarter of the performer's on every walk, planted feet
//! not sliding, elbows within 4.5 cm, knees ahead of both whole-body baselines and feet ahead of
//! the standing body, pooled.

use crate::eval::ClipResult;
use crate::targets::{
    ClipFigure, ELBOW, Figure, arm_figure, arm_only_flips, reachable_hands, rows, verdict,
};
use crate::whole_body_metrics::{WholeBodyFigures, WholeBodyResult};
use crate::whole_body_report::pooled;

/// A whole-body figure of ours: pooled against `target`, each clip against `per_clip` of its
/// own figures (NaN: no bar for the clip).
fn whole_figure(
    whole: &[WholeBodyResult],
    what: &'static str,
    pick: fn(&WholeBodyFigures) -> f32,
    (target, best): (f32, (f32, String)),
    bar: &'static str,
    per_clip: fn(&WholeBodyResult) -> f32,
) -> Figure {
    Figure {
        what,
        ours: pick(&pooled(whole, 0)),
        target,
        best,
        bar,
        clips: whole
            .iter()
            .map(|r| ClipFigure {
                clip: r.clip.clone(),
                ours: pick(&r.methods[0]),
                bar: per_clip(r),
                weight: r.methods[0].frames as f32,
            })
            .collect(),
    }
}

/// How far a count a minute is off the performer's, as a share of the performer's: infinite
/// when the performer takes no step and ours do, 0 when neither does.
fn steps_off(m: &WholeBodyFigures) -> f32 {
    if m.clip_steps_per_min > 0.0 {
        (m.steps_per_min / m.clip_steps_per_min - 1.0).abs()
    } else if m.steps_per_min > 0.0 {
        f32::INFINITY
    } else {
        0.0
    }
}

/// The everyday targets on `results` and `whole`, both of the everyday clips only; the walks
/// are the clips named so.
pub fn figures(results: &[ClipResult], whole: &[WholeBodyResult]) -> Vec<Figure> {
    let mut elbows = arm_figure(
        results,
        "elbow mean, arm-only (cm)",
        "arm-only",
        ELBOW,
        f32::NAN,
        None,
    );
    // No worse than the best baseline, pooled as on each clip.
    elbows.target = elbows.best.0;
    let mut out = vec![elbows, reachable_hands(results), arm_only_flips(results)];
    if whole.is_empty() {
        return out;
    }
    let base = |i: usize, pick: fn(&WholeBodyFigures) -> f32| pick(&pooled(whole, i));
    let none = |_: &WholeBodyResult| f32::NAN;
    out.push(whole_figure(
        whole,
        "flips/min excess, whole body",
        |m| m.flips_per_min_excess,
        (
            0.0,
            (base(1, |m| m.flips_per_min_excess), "standing".into()),
        ),
        "the target",
        |_| 0.0,
    ));
    out.push(whole_figure(
        whole,
        "head off the headset, whole body (cm)",
        |m| m.head_cm,
        (1.0, (base(1, |m| m.head_cm), "standing".into())),
        "the target",
        |_| 1.0,
    ));
    let walks: Vec<WholeBodyResult> = whole
        .iter()
        .filter(|r| r.clip.contains("walk"))
        .cloned()
        .collect();
    if !walks.is_empty() {
        out.push(whole_figure(
            &walks,
            "steps a minute off the performer's, walks (share)",
            steps_off,
            (0.25, (steps_off(&pooled(&walks, 1)), "standing".into())),
            "the target",
            |_| 0.25,
        ));
    }
    out.push(whole_figure(
        whole,
        "foot skating beyond the clip's own, whole body (cm/s)",
        |m| m.foot_skate_cm_s_excess,
        (
            0.0,
            (base(1, |m| m.foot_skate_cm_s_excess), "standing".into()),
        ),
        "pooled only",
        none,
    ));
    out.push(whole_figure(
        whole,
        "elbow mean, whole body (cm)",
        |m| m.elbows_cm,
        (4.5, (base(1, |m| m.elbows_cm), "standing".into())),
        "pooled only",
        none,
    ));
    let (standing, hanging) = (base(1, |m| m.knees_cm), base(2, |m| m.knees_cm));
    let best = if standing <= hanging {
        (standing, "standing".to_string())
    } else {
        (hanging, "hanging".to_string())
    };
    out.push(whole_figure(
        whole,
        "knees, whole body (cm)",
        |m| m.knees_cm,
        (best.0, best),
        "pooled only",
        none,
    ));
    let standing_feet = base(1, |m| m.feet_cm);
    out.push(whole_figure(
        whole,
        "feet (ankles), whole body (cm)",
        |m| m.feet_cm,
        (standing_feet, (standing_feet, "standing".into())),
        "pooled only",
        none,
    ));
    out
}

/// The everyday targets as a table and one sentence from the same figures.
pub fn table(figures: &[Figure]) -> String {
    rows(figures)
        + &format!(
            "\n\nThe everyday targets: arm-only elbows no worse than the best baseline, reachable hands within 0.1 cm and no flips beyond the performer's, on every everyday clip; in the whole body no flips beyond the performer's and the head within 1 cm of the headset on every everyday clip, steps a minute within 25 % of the performer's on every walk, and, pooled, feet that slide no more than the performer's, elbows within 4.5 cm, knees ahead of both whole-body baselines and feet ahead of the standing body. {}",
            verdict(figures)
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(name: &str, steps: f32, own: f32, head: f32) -> WholeBodyResult {
        let m = WholeBodyFigures {
            steps_per_min: steps,
            clip_steps_per_min: own,
            head_cm: head,
            frames: 100,
            ..Default::default()
        };
        WholeBodyResult {
            clip: name.into(),
            methods: [m; 3],
        }
    }

    /// Steps count on walks only, as a share off the performer's either way; the head on
    /// every clip; one clip over its bar misses the target however good the pool.
    #[test]
    fn walks_are_held_to_the_performers_cadence_and_every_clip_to_the_head() {
        let whole = [
            walk("a_walk", 100.0, 90.0, 0.5),
            walk("b_walk", 60.0, 100.0, 0.4),
            walk("scoop", 300.0, 10.0, 1.6),
        ];
        let figs = figures(&[], &whole);
        let steps = figs.iter().find(|f| f.what.starts_with("steps")).unwrap();
        assert_eq!(steps.clips.len(), 2, "the walks only");
        assert!((steps.clips[1].ours - 0.4).abs() < 1e-6);
        assert!(!steps.met(), "b_walk steps 40 % less than its performer");
        let head = figs.iter().find(|f| f.what.starts_with("head")).unwrap();
        assert_eq!(head.failing()[0].clip, "scoop");
        assert!(!head.met());
        let fine = figures(&[], &whole[..1]);
        let head = fine.iter().find(|f| f.what.starts_with("head")).unwrap();
        assert!(head.met());
        // A walk whose performer takes no step while ours do is over its bar.
        let still = figures(&[], &[walk("c_walk", 30.0, 0.0, 0.1)]);
        let steps = still.iter().find(|f| f.what.starts_with("steps")).unwrap();
        assert!(!steps.met() && steps.failing().len() == 1);
    }
}
