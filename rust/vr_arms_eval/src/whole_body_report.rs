//! The whole body's evaluation as the documents show it: the lower body's settings chosen
//! leave-one-clip-out (as the arm weights are), the held-out figures pooled over every clip's
//! frames against the two baselines, the worst clip, and the per-clip table.

use vr_arms_core::body::profile::ArmProfile;
use vr_arms_core::lower_body::LowerBodySettings;

use crate::clip::Clip;
use crate::eval::{EvalOptions, Pooled};
use crate::tune::choose;
use crate::whole_body_metrics::{WholeBodyFigures, WholeBodyResult, evaluate_whole_body};

/// What the whole body runs with: the lower body's settings and the arm profile (the shipped
/// ones by default, with the evaluation's grip calibrated out).
#[derive(Clone, Copy, Debug)]
pub struct WholeSettings {
    pub lower: LowerBodySettings,
    pub profile: ArmProfile,
    /// Tell the body when the performer sits (`--seated-from-clip`).
    pub seated_from_clip: bool,
}

impl Default for WholeSettings {
    fn default() -> Self {
        Self {
            lower: LowerBodySettings::default(),
            profile: EvalOptions::default().profile,
            seated_from_clip: false,
        }
    }
}

/// A whole-body setting the evaluation chooses: its values, plainest first (for most, the
/// shipped one).
pub struct TunedSetting {
    pub name: &'static str,
    pub values: &'static [f32],
    pub set: fn(&mut WholeSettings, f32),
    pub get: fn(&WholeSettings) -> f32,
    /// What it is chosen on: the full-body MPJPE, or the chest's yaw.
    pub on: Criterion,
}

/// The figure a whole-body setting is chosen on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Criterion {
    FullBodyMpjpe,
    /// The full-body MPJPE over the frames where the performer bends over.
    BentMpjpe,
    /// Steps a minute off the performer's (either way).
    Steps,
    ChestYaw,
    /// The head off the headset.
    Head,
}

impl Criterion {
    pub fn name(self) -> &'static str {
        match self {
            Criterion::FullBodyMpjpe => "full-body MPJPE (cm)",
            Criterion::BentMpjpe => "full-body MPJPE bending over (cm)",
            Criterion::Steps => "steps a minute off the performer's",
            Criterion::ChestYaw => "chest yaw (deg)",
            Criterion::Head => "head off the headset (cm)",
        }
    }

    fn of(self, m: &WholeBodyFigures) -> f32 {
        match self {
            Criterion::FullBodyMpjpe => m.full_body_mpjpe_cm,
            Criterion::BentMpjpe => m.bent_mpjpe_cm,
            Criterion::Steps => (m.steps_per_min - m.clip_steps_per_min).abs(),
            Criterion::ChestYaw => m.chest_yaw_deg,
            Criterion::Head => m.head_cm,
        }
    }
}

/// The settings chosen, each varied alone around the shipped defaults, on the full-body MPJPE.
pub const LOWER_TUNED: [TunedSetting; 20] = [
    TunedSetting {
        name: "lean_deg_per_m",
        values: &[30.0, 20.0, 40.0, 10.0],
        set: |s, v| s.lower.lean_deg_per_m = v,
        get: |s| s.lower.lean_deg_per_m,
        on: Criterion::FullBodyMpjpe,
    },
    TunedSetting {
        name: "lean_head_pitch_share",
        values: &[0.3, 0.0, 0.6],
        set: |s, v| s.lower.lean_head_pitch_share = v,
        get: |s| s.lower.lean_head_pitch_share,
        on: Criterion::FullBodyMpjpe,
    },
    TunedSetting {
        name: "stance_width_m",
        values: &[0.4, 0.3, 0.2, 0.5],
        set: |s, v| s.lower.stance_width_m = v,
        get: |s| s.lower.stance_width_m,
        on: Criterion::FullBodyMpjpe,
    },
    TunedSetting {
        name: "step_lead",
        values: &[0.5, 0.0, 1.0, 1.5],
        set: |s, v| s.lower.step_lead = v,
        get: |s| s.lower.step_lead,
        on: Criterion::FullBodyMpjpe,
    },
    // How a walking body's steps grow with its speed (0: a step whenever the body has moved
    // `step_distance_m`); 2.3 is Alexander's walkers.
    TunedSetting {
        name: "stride_scale",
        values: &[0.0, 1.5, 2.0, 2.3],
        set: |s, v| s.lower.stride_scale = v,
        get: |s| s.lower.stride_scale,
        on: Criterion::FullBodyMpjpe,
    },
    TunedSetting {
        name: "step_distance_m",
        values: &[0.25, 0.15, 0.1, 0.35],
        set: |s, v| s.lower.step_distance_m = v,
        get: |s| s.lower.step_distance_m,
        on: Criterion::FullBodyMpjpe,
    },
    TunedSetting {
        name: "step_time_s",
        values: &[0.3, 0.25, 0.2, 0.4],
        set: |s, v| s.lower.step_time_s = v,
        get: |s| s.lower.step_time_s,
        on: Criterion::FullBodyMpjpe,
    },
    TunedSetting {
        name: "step_angle_deg",
        values: &[50.0, 30.0, 70.0],
        set: |s, v| s.lower.step_angle_deg = v,
        get: |s| s.lower.step_angle_deg,
        on: Criterion::FullBodyMpjpe,
    },
    // How far a foot leaving its place may lift before it steps (the hips never sink for it:
    // past its lift it steps at once), chosen on the steps a minute it saves; listed from the
    // plainest, none, up to what a heel lifting off a planted forefoot gives (8 cm; more is a
    // step).
    TunedSetting {
        name: "max_heel_lift_m",
        values: &[0.0, 0.02, 0.04, 0.08],
        set: |s, v| s.lower.max_heel_lift_m = v,
        get: |s| s.lower.max_heel_lift_m,
        on: Criterion::Steps,
    },
    // Bending over the planted feet (the head low and looking down): how far the hips go
    // back; chosen on the frames where the performer bends over, listed from the plainest,
    // none (the hips under the head), up.
    TunedSetting {
        name: "bend_balance_share",
        values: &[0.0, 0.15, 0.3, 0.45],
        set: |s, v| s.lower.bend_balance_share = v,
        get: |s| s.lower.bend_balance_share,
        on: Criterion::BentMpjpe,
    },
    // How far below its heel lift a planted foot may leave the hips before it steps at once,
    // the other foot still in the air; chosen on the head it keeps on the headset, listed from
    // the plainest, never (10 m), down.
    TunedSetting {
        name: "strand_below_m",
        values: &[10.0, 0.2, 0.1, 0.05, 0.02, 0.0],
        set: |s, v| s.lower.strand_below_m = v,
        get: |s| s.lower.strand_below_m,
        on: Criterion::Head,
    },
    TunedSetting {
        name: "reach_bend_max_deg",
        values: &[30.0, 0.0, 15.0, 60.0],
        set: |s, v| s.lower.reach_bend_max_deg = v,
        get: |s| s.lower.reach_bend_max_deg,
        on: Criterion::BentMpjpe,
    },
    // How much further the reach bend may turn back toward upright; the plainest, as far as
    // forward, first.
    TunedSetting {
        name: "reach_bend_back_share",
        values: &[1.0, 1.5, 2.0, 3.0],
        set: |s, v| s.lower.reach_bend_back_share = v,
        get: |s| s.lower.reach_bend_back_share,
        on: Criterion::BentMpjpe,
    },
    // From how far down the reach bend also leans to the side; the plainest, never (0.3 m, the
    // full drop), first.
    TunedSetting {
        name: "reach_bend_side_from_m",
        values: &[0.3, 0.2, 0.1, 0.05, 0.0],
        set: |s, v| s.lower.reach_bend_side_from_m = v,
        get: |s| s.lower.reach_bend_side_from_m,
        on: Criterion::BentMpjpe,
    },
    // How much of the twist pointing the shoulder at a hand out of reach the side lean keeps;
    // the plainest, none, first.
    TunedSetting {
        name: "reach_bend_twist_share",
        values: &[0.0, 0.5, 1.0],
        set: |s, v| s.lower.reach_bend_twist_share = v,
        get: |s| s.lower.reach_bend_twist_share,
        on: Criterion::BentMpjpe,
    },
    // The capture has no kneeling: this measures what kneeling costs in its low stances.
    TunedSetting {
        name: "kneel_after_s",
        values: &[0.5, 1.0, 2.0, 4.0],
        set: |s, v| s.lower.kneel_after_s = v,
        get: |s| s.lower.kneel_after_s,
        on: Criterion::FullBodyMpjpe,
    },
    // The shoulder's rise with the arm (its anatomical third, then less and none).
    TunedSetting {
        name: "clavicle_follow.rise_ratio",
        values: &[0.33, 0.2, 0.1, 0.0],
        set: |s, v| s.profile.clavicle_follow.rise_ratio = v,
        get: |s| s.profile.clavicle_follow.rise_ratio,
        on: Criterion::FullBodyMpjpe,
    },
    // How far the shoulder drops toward a hand below it: none (a relaxed shoulder), some, or
    // as far as the follow turns it (the original design, 25).
    TunedSetting {
        name: "clavicle_follow.max_lower_deg",
        values: &[0.0, 10.0, 25.0],
        set: |s, v| s.profile.clavicle_follow.max_lower_deg = v,
        get: |s| s.profile.clavicle_follow.max_lower_deg,
        on: Criterion::FullBodyMpjpe,
    },
    // The walk's heading for the body's yaw (none, half, full), chosen on the whole body's
    // chest yaw: from the plainest, none.
    TunedSetting {
        name: "body_follow.walk_heading_weight",
        values: &[0.0, 0.5, 1.0],
        set: |s, v| s.profile.body_follow.walk_heading_weight = v,
        get: |s| s.profile.body_follow.walk_heading_weight,
        on: Criterion::ChestYaw,
    },
    // The chest staying with the body in a low stance (from this drop of the head; 10 m: never).
    // Listed from the plainest, never, not from the shipped value: a fold that does not need
    // the low stance goes without it.
    TunedSetting {
        name: "upper_body_follow.low_stance_start_m",
        values: &[10.0, 0.3, 0.25, 0.35, 0.4, 0.2, 0.15, 0.1],
        set: |s, v| {
            let f = &mut s.profile.upper_body_follow;
            f.low_stance_start_m = v;
            f.low_stance_full_m = v + 0.1;
        },
        get: |s| s.profile.upper_body_follow.low_stance_start_m,
        on: Criterion::ChestYaw,
    },
];

/// Every clip's whole-body result (clips without legs left out).
pub fn run_all(clips: &[Clip], settings: WholeSettings) -> Vec<WholeBodyResult> {
    let options = EvalOptions {
        profile: settings.profile,
        seated_from_clip: settings.seated_from_clip,
        ..Default::default()
    };
    clips
        .iter()
        .filter_map(|c| evaluate_whole_body(c, &options, settings.lower))
        .collect()
}

fn pooled_on(on: Criterion, r: &WholeBodyResult) -> Pooled {
    let m = &r.methods[0];
    // The bending error counts the frames it was measured on.
    let frames = match on {
        Criterion::BentMpjpe => m.bent_frames,
        _ => m.frames,
    };
    Pooled {
        sum: on.of(m) as f64 * frames as f64,
        frames,
    }
}

#[cfg(test)]
fn mpjpe(r: &WholeBodyResult) -> Pooled {
    pooled_on(Criterion::FullBodyMpjpe, r)
}

/// How much more often than the performers the feet may step, for a value to be chosen: a
/// quarter more at most (the everyday motion's target for steps a minute).
pub const MAX_STEP_RATE: f32 = 1.25;

/// [`choose`] among the values whose steps per minute, pooled over the clips but `held_out`,
/// are at most [`MAX_STEP_RATE`] times the clips' own; when none is, the value that steps least.
fn choose_stepping(
    values: &[f32],
    errors: &[Vec<Pooled>],
    runs: &[Vec<WholeBodyResult>],
    held_out: Option<usize>,
) -> f32 {
    let steps = |per_clip: &Vec<WholeBodyResult>| {
        let (mut ours, mut own) = (0.0, 0.0);
        for (c, r) in per_clip.iter().enumerate() {
            if Some(c) != held_out {
                // Weighted by frames, as the errors are pooled.
                let m = &r.methods[0];
                let weight = m.frames as f32;
                ours += m.steps_per_min * weight;
                own += m.clip_steps_per_min * weight;
            }
        }
        (ours, own)
    };
    let allowed: Vec<Vec<Pooled>> = errors
        .iter()
        .zip(runs)
        .map(|(e, r)| {
            let (ours, own) = steps(r);
            if ours <= MAX_STEP_RATE * own {
                e.clone()
            } else {
                e.iter()
                    .map(|p| Pooled {
                        sum: f64::INFINITY,
                        ..*p
                    })
                    .collect()
            }
        })
        .collect();
    // (`choose` picks the first value when every error is infinite: the fallback is ours.)
    let any_allowed = allowed.iter().any(|e| e.iter().all(|p| p.sum.is_finite()));
    if any_allowed {
        return choose(values, &allowed, held_out);
    }
    values
        .iter()
        .zip(runs)
        .min_by(|a, b| steps(a.1).0.total_cmp(&steps(b.1).0))
        .map_or(f32::NAN, |(v, _)| *v)
}

/// Leave-one-clip-out: for each clip, the settings chosen on the other clips, that clip run
/// with them. Returns the held-out results and the markdown that shows the choice.
pub fn cross_validate(clips: &[Clip]) -> (Vec<WholeBodyResult>, String) {
    let shipped = WholeSettings::default();
    let with = |values: &[f32]| {
        let mut s = shipped;
        for (t, v) in LOWER_TUNED.iter().zip(values) {
            (t.set)(&mut s, *v);
        }
        s
    };
    // runs[setting][value][clip]
    let runs: Vec<Vec<Vec<WholeBodyResult>>> = LOWER_TUNED
        .iter()
        .map(|t| {
            t.values
                .iter()
                .map(|v| {
                    let mut s = shipped;
                    (t.set)(&mut s, *v);
                    run_all(clips, s)
                })
                .collect()
        })
        .collect();
    let errors: Vec<Vec<Vec<Pooled>>> = runs
        .iter()
        .zip(&LOWER_TUNED)
        .map(|(per_value, t)| {
            per_value
                .iter()
                .map(|r| r.iter().map(|r| pooled_on(t.on, r)).collect())
                .collect()
        })
        .collect();
    let chosen = |held_out: Option<usize>| -> Vec<f32> {
        LOWER_TUNED
            .iter()
            .zip(errors.iter().zip(&runs))
            .map(|(t, (e, r))| choose_stepping(t.values, e, r, held_out))
            .collect()
    };
    let mut text = format!(
        "Each whole-body setting below (the lower body's, the shoulder's rise with the arm, and where the chest starts to stay with the body in a low stance: the head that far below its standing height, fully 0.1 m further; 10 m is never) is varied alone (the others at their shipped values) and chosen leave-one-clip-out on the full-body MPJPE (the low stance on the chest's yaw, the heel lift on the head's distance from the headset: it keeps falling as the lift grows, so the largest lift tried, a heel's 8 cm, is taken), as the arm weights are, among the values whose feet step at most {MAX_STEP_RATE}x as often as the performers' (on the same clips; the error alone keeps asking for ever shorter steps, feet shuffling after the body); the held-out results are the figures above.\n\n",
    );
    for ((t, e), r) in LOWER_TUNED.iter().zip(&errors).zip(&runs) {
        text += &format!(
            "| {} | {} | steps per minute (performers') |\n|---|---|---|",
            t.name,
            t.on.name()
        );
        for ((v, per_clip), results) in t.values.iter().zip(e).zip(r) {
            let mut p = Pooled::default();
            for c in per_clip {
                p.add(*c);
            }
            let steps = pooled(results, 0);
            text += &format!(
                "\n| {v} | {:.2} | {:.0} ({:.0}) |",
                p.mean(),
                steps.steps_per_min,
                steps.clip_steps_per_min
            );
        }
        text += "\n\n";
    }
    // The clips `run_all` keeps, in its order.
    let legged: Vec<&Clip> = clips
        .iter()
        .filter(|c| evaluate_whole_body(c, &EvalOptions::default(), shipped.lower).is_some())
        .collect();
    text += "| held-out clip |";
    for t in &LOWER_TUNED {
        text += &format!(" {} |", t.name);
    }
    text += &format!("\n|---|{}", "---|".repeat(LOWER_TUNED.len()));
    let mut held_out = Vec::new();
    for (i, clip) in legged.iter().enumerate() {
        let values = chosen(Some(i));
        text += &format!("\n| {} |", clip.name);
        for v in &values {
            text += &format!(" {v} |");
        }
        let chosen = with(&values);
        let options = EvalOptions {
            profile: chosen.profile,
            ..Default::default()
        };
        if let Some(r) = evaluate_whole_body(clip, &options, chosen.lower) {
            held_out.push(r);
        }
    }
    text += "\n\nIn-sample choice (all clips):";
    for (t, v) in LOWER_TUNED.iter().zip(chosen(None)) {
        text += &format!(" `{} = {v}` (shipped {});", t.name, (t.get)(&shipped));
    }
    text += "\n\n";
    (held_out, text)
}

/// One method's figures pooled over clips, frame-weighted (the counts summed).
pub fn pooled(results: &[WholeBodyResult], method: usize) -> WholeBodyFigures {
    let frames: usize = results.iter().map(|r| r.methods[method].frames).sum();
    let bent_frames: usize = results.iter().map(|r| r.methods[method].bent_frames).sum();
    let n = frames.max(1) as f32;
    let mean = |f: fn(&WholeBodyFigures) -> f32| {
        results
            .iter()
            .map(|r| f(&r.methods[method]) * r.methods[method].frames as f32)
            .sum::<f32>()
            / n
    };
    WholeBodyFigures {
        head_cm: mean(|m| m.head_cm),
        hips_cm: mean(|m| m.hips_cm),
        chest_cm: mean(|m| m.chest_cm),
        knees_cm: mean(|m| m.knees_cm),
        feet_cm: mean(|m| m.feet_cm),
        arms_cm: mean(|m| m.arms_cm),
        elbows_cm: mean(|m| m.elbows_cm),
        full_body_mpjpe_cm: mean(|m| m.full_body_mpjpe_cm),
        floor_penetration_frames: results
            .iter()
            .map(|r| r.methods[method].floor_penetration_frames)
            .sum(),
        foot_skate_cm_s_excess: mean(|m| m.foot_skate_cm_s_excess),
        steps_per_min: mean(|m| m.steps_per_min),
        chest_yaw_deg: mean(|m| m.chest_yaw_deg),
        clip_steps_per_min: mean(|m| m.clip_steps_per_min),
        flips_per_min_excess: mean(|m| m.flips_per_min_excess),
        frames,
        bent_mpjpe_cm: results
            .iter()
            .map(|r| r.methods[method].bent_mpjpe_cm * r.methods[method].bent_frames as f32)
            .sum::<f32>()
            / bent_frames.max(1) as f32,
        bent_frames,
    }
}

fn row(name: &str, m: &WholeBodyFigures) -> String {
    format!(
        "| {name} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {:+.1} | {:.0} ({:.0}) | {:.2} | {:.2} |",
        m.head_cm,
        m.hips_cm,
        m.chest_cm,
        m.knees_cm,
        m.feet_cm,
        m.arms_cm,
        m.elbows_cm,
        m.full_body_mpjpe_cm,
        m.floor_penetration_frames,
        m.foot_skate_cm_s_excess,
        m.steps_per_min,
        m.clip_steps_per_min,
        m.flips_per_min_excess,
        m.chest_yaw_deg,
    )
}

const HEADER: &str = "| method | head | hips | chest | knees | feet | arms | of which elbows | full-body MPJPE | frames with a foot > 1 cm under the floor | foot skating beyond the clip's own (cm/s) | steps per minute (clip's own) | elbow flips per minute beyond the clip's own | chest yaw (deg) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";

/// The whole-body table: ours (as given: held out or shipped), standing and hanging, pooled;
/// then the worst clip for ours.
pub fn table(results: &[WholeBodyResult]) -> String {
    let mut out = format!("{HEADER}\n");
    for (i, name) in ["ours", "standing", "hanging"].iter().enumerate() {
        out += &row(name, &pooled(results, i));
        out += "\n";
    }
    if let Some(worst) = results.iter().max_by(|a, b| {
        a.methods[0]
            .full_body_mpjpe_cm
            .total_cmp(&b.methods[0].full_body_mpjpe_cm)
    }) {
        out += &format!(
            "\nWorst clip for ours (full-body MPJPE): {}\n\n{HEADER}\n{}\n",
            worst.clip,
            row("ours", &worst.methods[0])
        );
    }
    out
}

/// Per clip: ours' figures (as given).
pub fn per_clip(results: &[WholeBodyResult]) -> String {
    let mut out = HEADER.replacen("| method |", "| clip |", 1) + "\n";
    for r in results {
        out += &row(&r.clip, &r.methods[0]);
        out += "\n";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(mpjpe: f32, frames: usize, penetration: usize) -> WholeBodyResult {
        let m = WholeBodyFigures {
            full_body_mpjpe_cm: mpjpe,
            floor_penetration_frames: penetration,
            frames,
            ..Default::default()
        };
        WholeBodyResult {
            clip: format!("c{mpjpe}"),
            methods: [m; 3],
        }
    }

    #[test]
    fn pooling_weighs_clips_by_frames_and_sums_the_counts() {
        let p = pooled(&[result(10.0, 100, 1), result(4.0, 300, 2)], 0);
        assert!((p.full_body_mpjpe_cm - 5.5).abs() < 1e-5);
        assert_eq!((p.floor_penetration_frames, p.frames), (3, 400));
    }

    #[test]
    fn the_worst_clip_is_the_one_with_the_largest_error() {
        let t = table(&[result(10.0, 100, 0), result(4.0, 300, 0)]);
        assert!(
            t.contains("Worst clip for ours (full-body MPJPE): c10"),
            "{t}"
        );
    }

    fn stepping(mpjpe: f32, steps: f32, own: f32) -> WholeBodyResult {
        let m = WholeBodyFigures {
            full_body_mpjpe_cm: mpjpe,
            steps_per_min: steps,
            clip_steps_per_min: own,
            frames: 100,
            ..Default::default()
        };
        WholeBodyResult {
            clip: "c".into(),
            methods: [m; 3],
        }
    }

    /// The value with the least error is passed over when its feet step more than 1.25 times
    /// as often as the performers'; when every value does, the one that steps least.
    #[test]
    fn a_value_that_steps_too_often_is_not_chosen() {
        let runs = vec![
            vec![stepping(10.5, 90.0, 75.0)],
            vec![stepping(10.1, 140.0, 75.0)],
        ];
        let errors: Vec<Vec<Pooled>> = runs.iter().map(|r| r.iter().map(mpjpe).collect()).collect();
        assert_eq!(choose_stepping(&[0.25, 0.1], &errors, &runs, None), 0.25);
        let runs = vec![
            vec![stepping(10.5, 150.0, 75.0)],
            vec![stepping(10.1, 140.0, 75.0)],
        ];
        let errors: Vec<Vec<Pooled>> = runs.iter().map(|r| r.iter().map(mpjpe).collect()).collect();
        assert_eq!(choose_stepping(&[0.25, 0.1], &errors, &runs, None), 0.1);
    }

    /// A setting chosen on the chest's yaw takes the value with the least chest yaw, whatever
    /// the full-body MPJPE says; the others by the MPJPE.
    #[test]
    fn a_setting_is_chosen_on_its_own_figure() {
        let run = |mpjpe: f32, yaw: f32| {
            let m = WholeBodyFigures {
                full_body_mpjpe_cm: mpjpe,
                chest_yaw_deg: yaw,
                steps_per_min: 75.0,
                clip_steps_per_min: 75.0,
                frames: 100,
                ..Default::default()
            };
            vec![WholeBodyResult {
                clip: "c".into(),
                methods: [m; 3],
            }]
        };
        let runs = vec![run(10.0, 12.0), run(11.0, 9.0)];
        let on = |c: Criterion| -> Vec<Vec<Pooled>> {
            runs.iter()
                .map(|r| r.iter().map(|r| pooled_on(c, r)).collect())
                .collect()
        };
        let values = [1.0, 2.0];
        let yaw = on(Criterion::ChestYaw);
        let mpjpe = on(Criterion::FullBodyMpjpe);
        assert_eq!(choose_stepping(&values, &yaw, &runs, None), 2.0);
        assert_eq!(choose_stepping(&values, &mpjpe, &runs, None), 1.0);
    }

    /// The bending error is pooled over the bending frames alone (a clip without any does not
    /// count), and the steps criterion is how far the steps a minute are from the performer's.
    #[test]
    fn bending_and_steps_are_measured_on_what_they_change() {
        let clip = |bent: f32, bent_frames: usize, steps: f32| WholeBodyResult {
            clip: "c".into(),
            methods: [WholeBodyFigures {
                full_body_mpjpe_cm: 10.0,
                bent_mpjpe_cm: bent,
                bent_frames,
                steps_per_min: steps,
                clip_steps_per_min: 60.0,
                frames: 1000,
                ..Default::default()
            }; 3],
        };
        let mut p = Pooled::default();
        p.add(pooled_on(Criterion::BentMpjpe, &clip(20.0, 10, 60.0)));
        p.add(pooled_on(Criterion::BentMpjpe, &clip(0.0, 0, 60.0)));
        p.add(pooled_on(Criterion::BentMpjpe, &clip(30.0, 30, 60.0)));
        assert!((p.mean() - 27.5).abs() < 1e-5, "{}", p.mean());
        assert_eq!(
            pooled_on(Criterion::Steps, &clip(0.0, 0, 45.0)).mean(),
            15.0
        );
        assert_eq!(
            pooled_on(Criterion::Steps, &clip(0.0, 0, 75.0)).mean(),
            15.0
        );
        let all = pooled(&[clip(20.0, 10, 60.0), clip(30.0, 30, 60.0)], 0);
        assert_eq!((all.bent_frames, all.bent_mpjpe_cm), (40, 27.5));
    }
}
