//! `vr_arms_eval [--markdown FILE] [--json FILE] [--seated-from-clip] [--sit-from-headset]
//! [CLIP.bvh | FOLDER ...]`,
//! `vr_arms_eval --replay FILE [--frames N] CLIP.bvh`
//!
//! Evaluates the pipeline and the baselines on motion capture and prints the tables. With no
//! clips it reads `../shared/mocap` and its `everyday/` folder and chooses the tuned defaults by
//! leave-one-clip-out cross-validation over all of them (the headline figures are the held-out
//! ones). Every table is given for the everyday group (clips in a folder named `everyday`), the
//! performance group (the others) and pooled. `--read` prints how each clip was read. Clips given on the command line
//! are evaluated with the shipped defaults, not re-tuned. Nothing is written unless asked:
//! `--markdown` writes the tables, `--json` the summary (see `summary.rs`). `--replay` writes
//! one clip's first N frames (300 by default) for the engine test that holds the engine's body to
//! the evaluation's (see `replay.rs`). `--seated-from-clip`, with clips given: the whole body
//! is told when the performer sits (`seated.rs`), as a game sets `LowerBodyRig.seated`;
//! `--sit-from-headset`, with clips given: the body guesses it from the headset
//! (`LowerBodySettings::sit_from_headset`).

use std::path::PathBuf;

use glam::Vec3;
use vr_arms_core::body::profile::ArmProfile;
use vr_arms_eval::clip::{Clip, FPS_OVERRIDES, Group};
use vr_arms_eval::eval::{
    BENT_M, ClipResult, EvalOptions, FLIP_DEG, FLIP_WINDOW_S, METHODS, Metrics, eval_profile,
    evaluate_clip, mean,
};
use vr_arms_eval::tune::{REGRESSION_SHARE, choose_without_regression, pooled};
use vr_arms_eval::{report, summary};

fn main() {
    if let Err(e) = run() {
        eprintln!("vr_arms_eval: {e}");
        std::process::exit(1);
    }
}

struct Args {
    markdown: Option<PathBuf>,
    json: Option<PathBuf>,
    /// `--replay FILE`: write one clip's replay for the engine test instead of evaluating.
    replay: Option<PathBuf>,
    /// Frames of the replay.
    frames: usize,
    /// `--read`: print how each clip was read and stop.
    read_only: bool,
    /// `--seated-from-clip`: the whole body is told when the performer sits.
    seated_from_clip: bool,
    /// `--sit-from-headset`: the whole body guesses sitting from the headset
    /// (`LowerBodySettings::sit_from_headset`).
    sit_from_headset: bool,
    paths: Vec<PathBuf>,
}

fn parse_args() -> Result<Args, lexopt::Error> {
    use lexopt::prelude::*;
    let mut out = Args {
        markdown: None,
        json: None,
        replay: None,
        frames: 300,
        read_only: false,
        seated_from_clip: false,
        sit_from_headset: false,
        paths: Vec::new(),
    };
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("markdown") => out.markdown = Some(parser.value()?.into()),
            Long("json") => out.json = Some(parser.value()?.into()),
            Long("replay") => out.replay = Some(parser.value()?.into()),
            Long("frames") => out.frames = parser.value()?.parse()?,
            Long("read") => out.read_only = true,
            Long("seated-from-clip") => out.seated_from_clip = true,
            Long("sit-from-headset") => out.sit_from_headset = true,
            Value(path) => out.paths.push(path.into()),
            _ => return Err(arg.unexpected()),
        }
    }
    Ok(out)
}

fn bvh_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut in_dir: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "bvh"))
                .collect();
            in_dir.sort();
            files.extend(in_dir);
        } else if p.exists() {
            files.push(p.clone());
        } else {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    if files.is_empty() {
        return Err("no .bvh clips found".into());
    }
    Ok(files)
}

/// A tuned weight: its candidate values, how to set it, and what it is chosen on.
struct Tuned {
    name: &'static str,
    values: &'static [f32],
    set: fn(&mut ArmProfile, f32),
    get: fn(&ArmProfile) -> f32,
    method: &'static str,
    mode: &'static str,
    metric: fn(&Metrics) -> &[f32],
    metric_name: &'static str,
}

/// Values are listed from the plainest (no effect, or the original design's) outward; a tie
/// goes to the earlier one.
const TUNED: [Tuned; 10] = [
    Tuned {
        name: "forearm_cue_weight",
        values: &[0.0, 0.25, 0.5, 0.75, 1.0],
        set: |p, v| p.elbow_hint.forearm_cue_weight = v,
        get: |p| p.elbow_hint.forearm_cue_weight,
        method: "ours",
        mode: "arm-only",
        metric: |m| &m.elbow_cm,
        metric_name: "elbow mean, arm-only (cm)",
    },
    Tuned {
        name: "forearm_axis tilt (-Y per -Z, palm frame)",
        values: &[0.0, 0.05, 0.1, 0.15, 0.2, 0.25],
        // The cue's dead zone follows the tilt (its sine): a hand held along its arm says nothing.
        set: |p, v| {
            let axis = Vec3::new(0.0, -v, -1.0).normalize();
            p.elbow_hint.forearm_axis = axis.to_array();
            p.elbow_hint.forearm_cue_dead_zone = -axis.y;
        },
        get: |p| {
            let a = p.elbow_hint.forearm_axis;
            ((a[1] / a[2]) * 1000.0).round() / 1000.0
        },
        method: "ours",
        mode: "arm-only",
        metric: |m| &m.elbow_cm,
        metric_name: "elbow mean, arm-only (cm)",
    },
    Tuned {
        name: "elbow_hint.relaxed_pole_outward",
        values: &[0.0, 0.15, 0.3, 0.45],
        set: |p, v| p.elbow_hint.relaxed_pole_outward = v,
        get: |p| p.elbow_hint.relaxed_pole_outward,
        method: "ours",
        mode: "arm-only",
        metric: |m| &m.elbow_cm,
        metric_name: "elbow mean, arm-only (cm)",
    },
    Tuned {
        name: "elbow_hint.relaxed_cue_agreement",
        values: &[0.0, 0.25, 0.5, 0.75, 1.0],
        set: |p, v| p.elbow_hint.relaxed_cue_agreement = v,
        get: |p| p.elbow_hint.relaxed_cue_agreement,
        method: "ours",
        mode: "arm-only",
        metric: |m| &m.elbow_cm,
        metric_name: "elbow mean, arm-only (cm)",
    },
    Tuned {
        name: "elbow_hint.smoothing_rate",
        values: &[30.0, 60.0, 120.0],
        set: |p, v| p.elbow_hint.smoothing_rate = v,
        get: |p| p.elbow_hint.smoothing_rate,
        method: "ours",
        mode: "arm-only",
        metric: |m| &m.elbow_cm,
        metric_name: "elbow mean, arm-only (cm)",
    },
    Tuned {
        name: "elbow_hint.max_swivel_deg_s",
        values: &[0.0, 720.0, 540.0, 360.0, 180.0],
        set: |p, v| p.elbow_hint.max_swivel_deg_s = v,
        get: |p| p.elbow_hint.max_swivel_deg_s,
        method: "ours",
        mode: "arm-only",
        metric: |m| &m.elbow_cm,
        metric_name: "elbow mean, arm-only (cm)",
    },
    Tuned {
        name: "hands_weight_rest",
        values: &[0.0, 0.2, 0.4, 0.6, 0.8, 1.0],
        set: |p, v| p.body_follow.hands_weight_rest = v,
        get: |p| p.body_follow.hands_weight_rest,
        method: "ours",
        mode: "full",
        metric: |m| &m.chest_yaw_deg,
        metric_name: "chest yaw, full (deg)",
    },
    Tuned {
        name: "elbow_line_weight",
        values: &[0.0, 0.5, 1.0, 2.0, 3.0],
        set: |p, v| p.body_follow.elbow_line_weight = v,
        get: |p| p.body_follow.elbow_line_weight,
        method: "ours",
        mode: "full",
        metric: |m| &m.chest_yaw_deg,
        metric_name: "chest yaw, full (deg)",
    },
    Tuned {
        name: "max_hands_offset_deg",
        values: &[80.0, 60.0, 45.0, 35.0],
        set: |p, v| p.body_follow.max_hands_offset_deg = v,
        get: |p| p.body_follow.max_hands_offset_deg,
        method: "ours",
        mode: "full",
        metric: |m| &m.chest_yaw_deg,
        metric_name: "chest yaw, full (deg)",
    },
    Tuned {
        name: "body_follow.hands_hanging_start_m",
        values: &[0.65, 0.55, 0.75, 2.8],
        // The full weight 0.15 m lower: the line fades over that span (2.8: never hanging).
        set: |p, v| {
            p.body_follow.hands_hanging_start_m = v;
            p.body_follow.hands_hanging_full_m = v + 0.15;
        },
        get: |p| p.body_follow.hands_hanging_start_m,
        method: "ours",
        mode: "full",
        metric: |m| &m.chest_yaw_deg,
        metric_name: "chest yaw, full (deg)",
    },
];

fn run() -> Result<(), String> {
    let args = parse_args().map_err(|e| e.to_string())?;
    if let Some(out) = &args.replay {
        let [clip] = args.paths.as_slice() else {
            return Err("--replay FILE takes one clip".into());
        };
        let clip = Clip::load(clip)?;
        let replay = vr_arms_eval::replay::replay(&clip, args.frames, &EvalOptions::default());
        let text = serde_json::to_string(&replay).map_err(|e| e.to_string())?;
        std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
        eprintln!(
            "wrote {} ({} frames of {})",
            out.display(),
            replay["frames"].as_array().map_or(0, Vec::len),
            clip.name
        );
        return Ok(());
    }
    let tune = args.paths.is_empty();
    if tune && (args.seated_from_clip || args.sit_from_headset) {
        return Err(
            "--seated-from-clip and --sit-from-headset need the clips to evaluate (the tuned run has no sitting)".into(),
        );
    }
    let paths = if tune {
        let default = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/mocap");
        if !default.exists() {
            return Err("no clips given and ../shared/mocap does not exist".into());
        }
        let everyday = default.join("everyday");
        if !everyday.exists() {
            return Err("no clips given and ../shared/mocap/everyday does not exist".into());
        }
        vec![default, everyday]
    } else {
        args.paths.clone()
    };
    let clips: Vec<Clip> = bvh_files(&paths)?
        .iter()
        .map(|f| Clip::load(f))
        .collect::<Result<_, _>>()?;
    if args.read_only {
        print!("{}", report::reading(&clips));
        return Ok(());
    }
    let frames: usize = clips.iter().map(|c| c.frame_count()).sum();
    let run_all = |profile: ArmProfile, calibration_error_deg: f32| -> Vec<ClipResult> {
        let options = EvalOptions {
            profile: eval_profile(profile),
            calibration_error_deg,
            ..Default::default()
        };
        clips.iter().map(|c| evaluate_clip(c, &options)).collect()
    };
    let shipped = ArmProfile::default();

    let mut out = String::new();
    // The headline results: held out (tuning on the other clips) or the shipped defaults.
    let (results, tuning_text, profiles) = if tune {
        cross_validate(&clips, &run_all)
    } else {
        (
            run_all(shipped, 0.0),
            "Clips given on the command line: evaluated with the shipped defaults (not re-tuned).\n\n"
                .to_string(),
            vec![shipped; clips.len()],
        )
    };
    // The same profiles (held-out where tuned) with the avatar scaled against the performer.
    let scaled: Vec<(f32, Vec<ClipResult>)> = summary::SCALED
        .iter()
        .map(|(scale, _)| {
            let r = clips
                .iter()
                .zip(&profiles)
                .map(|(c, p)| {
                    let options = EvalOptions {
                        profile: eval_profile(*p),
                        avatar_scale: *scale,
                        ..Default::default()
                    };
                    evaluate_clip(c, &options)
                })
                .collect();
            (*scale, r)
        })
        .collect();
    let cv = if tune { ", cross-validated" } else { "" };
    // The whole body, lower half included (the engine's default body).
    let (whole, whole_tuning) = if tune {
        vr_arms_eval::whole_body_report::cross_validate(&clips)
    } else {
        let mut settings = vr_arms_eval::whole_body_report::WholeSettings {
            seated_from_clip: args.seated_from_clip,
            ..Default::default()
        };
        settings.lower.sit_from_headset = args.sit_from_headset;
        (
            vr_arms_eval::whole_body_report::run_all(&clips, settings),
            String::new(),
        )
    };
    out += &group_tables(&clips, &results, &whole, tune);
    out += &format!(
        "## Where the defaults stand{}\n\n{}\n\n{tuning_text}## All clips{cv}\n\n{}\n\n## Upper body{cv}\n\n{}\n\n## Proportion mismatch{cv}\n\n{}\n\n## Per clip{cv}\n\n{}\n\n",
        if tune { " (cross-validated)" } else { "" },
        vr_arms_eval::targets::table(&vr_arms_eval::targets::figures(&results, &whole)),
        report::overall(&results),
        report::upper_body(&results),
        report::proportions(&results, &scaled),
        report::per_clip(&results)
    );
    out += &side_tables(&run_all, shipped);
    out += &format!(
        "## Whole body{cv}

{WHOLE_BODY_INTRO}

{}
{whole_tuning}### What the feet target asks

{FEET_BOUNDS_INTRO}

{}

### Per clip{cv}

{}
",
        vr_arms_eval::whole_body_report::table(&whole),
        vr_arms_eval::whole_body_bounds::table(
            &clips
                .iter()
                .filter_map(vr_arms_eval::whole_body_bounds::feet_bounds)
                .collect::<Vec<_>>(),
            vr_arms_eval::whole_body_report::pooled(&whole, 0).feet_cm,
            tune,
        ),
        vr_arms_eval::whole_body_report::per_clip(&whole),
    );
    println!("{out}");
    if let Some(path) = &args.json {
        std::fs::write(
            path,
            summary::to_json(&results, frames, &scaled, &whole, &groups(&clips)),
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    if let Some(path) = &args.markdown {
        std::fs::write(path, document(&clips, &out, tune))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// Each group's clip names, by the group's JSON name.
fn groups(clips: &[Clip]) -> Vec<(&'static str, Vec<String>)> {
    Group::ALL
        .iter()
        .map(|g| {
            let names = clips
                .iter()
                .filter(|c| c.group == *g)
                .map(|c| c.name.clone());
            (g.key(), names.collect())
        })
        .collect()
}

/// The arm table and the whole-body table for the everyday group, the performance group and all
/// clips pooled: what a player does most comes first.
fn group_tables(
    clips: &[Clip],
    results: &[ClipResult],
    whole: &[vr_arms_eval::whole_body_metrics::WholeBodyResult],
    tune: bool,
) -> String {
    let cv = if tune { ", cross-validated" } else { "" };
    let mut out = format!(
        "## By group{cv}

{GROUPS_INTRO}

"
    );
    let mut sections: Vec<(String, Vec<String>)> = groups(clips)
        .into_iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(key, names)| (key.to_string(), names))
        .collect();
    sections.push((
        "all clips".into(),
        clips.iter().map(|c| c.name.clone()).collect(),
    ));
    for (label, names) in sections {
        let keep = |name: &String| names.contains(name);
        let r: Vec<ClipResult> = results.iter().filter(|r| keep(&r.name)).cloned().collect();
        let w: Vec<_> = whole.iter().filter(|r| keep(&r.clip)).cloned().collect();
        let frames: usize = clips
            .iter()
            .filter(|c| keep(&c.name))
            .map(|c| c.frame_count())
            .sum();
        let targets = if label == Group::Everyday.key() {
            let figures = vr_arms_eval::everyday_targets::figures(&r, &w);
            format!(
                "Targets:\n\n{}\n\n",
                vr_arms_eval::everyday_targets::table(&figures)
            )
        } else {
            String::new()
        };
        out += &format!(
            "### {label} ({} clips, {frames} frames)

{targets}Arms:

{}

Whole body:

{}
",
            names.len(),
            report::overall(&r),
            vr_arms_eval::whole_body_report::table(&w),
        );
    }
    out
}

/// What the groups are.
const GROUPS_INTRO: &str = "**Everyday**: what VR players do most: walking about, turning, arms relaxed at the sides, bending to pick something up (`../shared/mocap/everyday/`). **Performance**: karate and dance (the other clips). Every figure below is pooled over the frames of the group's clips; the tables after this section pool all clips together. How each clip was read (its naming, unit, up axis and rest, all found from the data) is in the last section.";

/// What the whole-body section measures, and the published anchors beside it.
const WHOLE_BODY_INTRO: &str = "The engine's default body, with its lower half (`LowerBodyRig` in the node graph, `lower_body` on `VRRemoteBody`): hips and spine placed from the headset, legs solved to feet that plant and step. From the clip's headset and wrists only, against the clip's own joints: head, hips, chest, knees (both), feet (both ankles), arms (both shoulders, elbows and wrists; the elbows alone beside them) and the full-body MPJPE over those 13 joints, in cm, pooled over frames. Baselines: **standing** (the same body without its lower half, standing at its rest height under the headset, as the engine was before) and **hanging** (the clip's rest skeleton hung rigidly from the headset, as the full mode of the tables above did before the body was composed once). The floor is the capture's own, found from the data: a plane under the performer's lower ankle (level where the feet stayed within a metre and a half of each other; its rise per clip is in the last section: three of subject 7's four walks rise 1.7 to 1.8 cm a metre, no other clip more than 1), and the body stands on it as on a game's floor, the standing body too. Feet under the floor count the frames with an ankle more than 1 cm below its standing height there; foot skating is the mean horizontal ankle speed while the ankle is on the floor (within 2 cm of its standing height) minus the clip's own; a step is an ankle rising more than 3 cm over its lowest since its last step (it must fall as far again from its highest before the next counts). Published anchors, on other data and so not comparable row by row: AvatarPoser's table (AMASS, three tracked points) reports Final IK at 18.09 cm full-body MPJPE and AvatarPoser at 4.18 cm.";

/// What the bounds on the feet are.
const FEET_BOUNDS_INTRO: &str = "Bounds, not methods: feet kept on the floor (at the ankle's standing height) but placed from what the performer really did, which three tracked points do not give: the performer's own ankles a moment late, or a fixed stance (each ankle's mean offset, fitted on the very clip it is measured on, so in-sample by construction) under the performer's true hips and pelvis facing, or under the headset and its facing (what a body driven by the headset can aim at). Every row is pooled over the frames of the same clips as the table above.";

/// Leave-one-clip-out: every tuned weight chosen on the other clips for each clip, that clip run
/// with the choices; plus the in-sample choice on all clips for comparison. Returns the held-out
/// results and the markdown that explains them.
fn cross_validate(
    clips: &[Clip],
    run_all: &dyn Fn(ArmProfile, f32) -> Vec<ClipResult>,
) -> (Vec<ClipResult>, String, Vec<ArmProfile>) {
    let shipped = ArmProfile::default();
    // runs[tuned][value][clip], each weight varied alone around the shipped defaults; the
    // errors and flips of the method and mode each is chosen on.
    let runs: Vec<Vec<Vec<ClipResult>>> = TUNED
        .iter()
        .map(|t| {
            t.values
                .iter()
                .map(|v| {
                    let mut p = shipped;
                    (t.set)(&mut p, *v);
                    run_all(p, 0.0)
                })
                .collect()
        })
        .collect();
    // Per tuned weight, value and clip: the error and the flips of its method and mode.
    let both: Vec<Vec<Vec<(vr_arms_eval::eval::Pooled, usize)>>> = TUNED
        .iter()
        .zip(&runs)
        .map(|(t, per_value)| {
            let pick = |c: &ClipResult| {
                let rows = c
                    .rows
                    .iter()
                    .filter(|(a, b, _)| a == t.method && b == t.mode);
                let flips = rows.map(|(_, _, m)| m.flips).sum();
                (pooled(c, t.method, t.mode, t.metric), flips)
            };
            per_value
                .iter()
                .map(|r| r.iter().map(pick).collect())
                .collect()
        })
        .collect();
    let errors: Vec<Vec<Vec<_>>> = both
        .iter()
        .map(|v| v.iter().map(|c| c.iter().map(|x| x.0).collect()).collect())
        .collect();
    let flips: Vec<Vec<Vec<usize>>> = both
        .iter()
        .map(|v| v.iter().map(|c| c.iter().map(|x| x.1).collect()).collect())
        .collect();
    // Each weight's shipped value: no clip may get worse than with it.
    let reference = |t: &Tuned| {
        let v = (t.get)(&shipped);
        t.values
            .iter()
            .position(|x| (x - v).abs() < 1e-4)
            .unwrap_or(0)
    };
    let chosen = |held_out: Option<usize>| -> Vec<f32> {
        TUNED
            .iter()
            .zip(errors.iter().zip(&flips))
            .map(|(t, (e, f))| {
                choose_without_regression(t.values, reference(t), e, Some(f), held_out)
            })
            .collect()
    };
    let profile_with = |values: &[f32]| {
        let mut p = shipped;
        for (t, v) in TUNED.iter().zip(values) {
            (t.set)(&mut p, *v);
        }
        p
    };
    let mut text = format!(
        "## Choosing the defaults (leave-one-clip-out)\n\nEach tuned weight is varied alone (the others at their shipped values). For each clip, the value is chosen on the other clips only and that clip is run with the choices; the held-out results of all clips, pooled over frames, are the headline figures below. The choice: among the values that make none of those other clips more than {}% worse than the shipped value does, nor flip more often on any of them, the first (values are listed from the plainest outward) whose frame-weighted error is within 1 % of the best. A default so moves only where it helps without making any clip it is chosen on worse. The in-sample choice (on all clips at once) is shown for comparison.\n\n",
        REGRESSION_SHARE * 100.0
    );
    for (t, e) in TUNED.iter().zip(&errors) {
        text += &format!("| {} | {} |\n|---|---|", t.name, t.metric_name);
        for (v, per_clip) in t.values.iter().zip(e) {
            let mut p = vr_arms_eval::eval::Pooled::default();
            for c in per_clip {
                p.add(*c);
            }
            text += &format!("\n| {v} | {:.2} |", p.mean());
        }
        text += "\n\n";
    }
    text += "| held-out clip |";
    for t in &TUNED {
        text += &format!(" {} |", t.name);
    }
    text += "\n|---|";
    text += &"---|".repeat(TUNED.len());
    let mut held_out_results = Vec::new();
    let mut held_out_profiles = Vec::new();
    for (i, clip) in clips.iter().enumerate() {
        let values = chosen(Some(i));
        text += &format!("\n| {} |", clip.name);
        for v in &values {
            text += &format!(" {v} |");
        }
        let options = EvalOptions {
            profile: eval_profile(profile_with(&values)),
            ..Default::default()
        };
        held_out_results.push(evaluate_clip(clip, &options));
        held_out_profiles.push(profile_with(&values));
    }
    let in_sample_values = chosen(None);
    text += "\n\nIn-sample choice (all clips):";
    for (t, v) in TUNED.iter().zip(&in_sample_values) {
        text += &format!(" `{} = {v}` (shipped {});", t.name, (t.get)(&shipped));
    }
    let in_sample = run_all(profile_with(&in_sample_values), 0.0);
    text += &format!(
        "\n\n### In-sample (for comparison only)\n\n{}\n\n",
        report::overall(&in_sample)
    );
    (held_out_results, text, held_out_profiles)
}

/// The calibration-error and "what moves reachable hands" tables, with the shipped defaults.
fn side_tables(
    run_all: &dyn Fn(ArmProfile, f32) -> Vec<ClipResult>,
    shipped: ArmProfile,
) -> String {
    let overall = |r: &[ClipResult], method: &str, mode: &str, pick: fn(&Metrics) -> &[f32]| {
        let all: Vec<f32> = r
            .iter()
            .flat_map(|c| {
                c.rows
                    .iter()
                    .filter(|(a, b, _)| a == method && b == mode)
                    .flat_map(|(_, _, m)| pick(m).to_vec())
            })
            .collect();
        mean(&all)
    };
    let base = run_all(shipped, 0.0);
    let with_error = run_all(shipped, 15.0);
    let mut out = String::from(
        "## With a 15-degree controller calibration error (shipped defaults)\n\n| method | mode | elbow mean (cm) | elbow mean with error (cm) | hand, reachable, with error (cm) |\n|---|---|---|---|---|",
    );
    for method in METHODS {
        for mode in ["arm-only", "full"] {
            out += &format!(
                "\n| {method} | {mode} | {:.2} | {:.2} | {:.3} |",
                overall(&base, method, mode, |m| &m.elbow_cm),
                overall(&with_error, method, mode, |m| &m.elbow_cm),
                overall(&with_error, method, mode, |m| &m.hand_reachable_cm),
            );
        }
    }
    out += "\n\n## What moves reachable hands (shipped defaults)\n\n| ours | hand, reachable, arm-only (cm) | elbow mean, arm-only (cm) | elbow mean, full (cm) | flips/min excess, full |\n|---|---|---|---|---|";
    // Exact hands have no overhead guard: the shoulder's rise with the arm bends the elbow
    // overhead instead (it moves no hand; its row shows what it does to the elbows).
    for (label, rise, avoid) in [
        ("defaults", true, true),
        ("shoulder rise off", false, true),
        ("body avoidance off", true, false),
        ("both off", false, false),
    ] {
        let mut p = shipped;
        if !rise {
            p.clavicle_follow.rise_max_deg = 0.0;
        }
        p.body_avoidance.enabled = avoid;
        let r = run_all(p, 0.0);
        let flips = report::merged(&r)
            .iter()
            .find(|(a, b, _)| a == "ours" && b == "full")
            .map_or(f32::NAN, |(_, _, m)| m.flips_per_min_excess());
        out += &format!(
            "\n| {label} | {:.3} | {:.2} | {:.2} | {:.2} |",
            overall(&r, "ours", "arm-only", |m| &m.hand_reachable_cm),
            overall(&r, "ours", "arm-only", |m| &m.elbow_cm),
            overall(&r, "ours", "full", |m| &m.elbow_cm),
            flips,
        );
    }
    out.push('\n');
    out
}

/// The markdown page: the method, its definitions, the tables and what they say.
fn document(clips: &[Clip], tables: &str, tuned: bool) -> String {
    let overrides: Vec<String> = FPS_OVERRIDES
        .iter()
        .filter(|(part, _, _)| clips.iter().any(|c| c.name.contains(part)))
        .map(|(part, fps, why)| format!("| `*{part}*` | {fps} | {why} |"))
        .collect();
    let fps_table = if overrides.is_empty() {
        "Every clip is read at its header's frame rate.".to_string()
    } else {
        format!(
            "Clips read at another frame rate than their header's:\n\n| clip | fps | why |\n|---|---|---|\n{}",
            overrides.join("\n")
        )
    };
    let source = if tuned {
        "on the clips of `../shared/mocap` and `../shared/mocap/everyday`"
    } else {
        "on the clips given on its command line"
    };
    format!(
        "# Evaluation on motion capture\n\nGenerated by `cargo xtask eval` (`cargo run --release -p vr_arms_eval --bin vr_arms_eval -- --markdown docs/evaluation.md`) {source} ({} clips, {} frames). The data used in this project was obtained from mocap.cs.cmu.edu. The database was created with funding from NSF EIA-0196217.\n\n## Definitions\n\n- **Tracking**: headset = eye midpoint where the skeleton has eyes, else 10 cm above and 8 cm in front of the head joint. Controllers = the wrist pose plus one fixed grip offset ({:?} m in the hand frame) for every clip and every method, calibrated out by the profile. The hand frame's forward (+Y) is the hand's rest long axis (in a T-pose rest the direction from the forearm joint into the hand joint, turned with the hand), for every skeleton.\n- **Modes**: arm-only gives every method the clip's true shoulders; full runs the engine's whole body (`vr_arms_core::body::Body`, the one composition `VRRemoteBody` runs) on a skeleton built with the clip's bone lengths standing on the clip's floor: its root follows the headset on the floor, the chest, neck and head turn toward it, the clavicles and arms follow, so head, neck, chest and shoulders are where the engine puts them. In these arm tables the body runs without its lower half (as with `lower_body` off): it stands at its rest height whatever the head does, so every frame in which the performer crouches, lunges or bows puts the avatar's shoulders too high (the karate clips spend most of their frames more than 10 cm below standing height), and the full-mode figures say so. The engine's default body now has its lower half; its figures, arms included, are in the Whole body section at the end. Every method gets the same calibrated wrist target and each clip's own bone lengths.\n- **Methods**: `ours` (the whole pipeline); `lookat` (the simple LookAt method: elbow one forearm length behind the hand along the hand's forward); `lookat_pole` (the LookAt elbow as the pole of an exact two-bone solve); `fixed_pole` (two-bone IK with a fixed downward pole, as Godot's `TwoBoneIK3D` with a static pole); `headset_only` torso (chest yaw = head yaw).\n- **Hand, reachable**: frames whose true wrist is within the avatar's reach (the shoulder-wrist distance at the minimum elbow bend, times 0.999).\n- **Flip**: a swivel change over {} degrees within {} ms while the elbow is at least {} cm off the shoulder-wrist line (a nearly straight frame breaks the comparison); one reversal counts once however many frames it spans. Reported per minute as the method's count and the clip's own, and as the excess over the clip's own.\n- **Jitter**: the elbow's |third difference| x fps^3 (m/s^3), pooled over frames, reported as the excess over the clip's own.\n- **Frames in torso**: frames (per arm) where the method's hand or elbow is inside the chest's torso box while the clip's own hand and elbow are outside it; the clip's own count is shown beside it.\n- **Upper body**: the mean position error over head, neck, chest, both shoulders, both elbows and both wrists (in arm-only the torso joints are the clip's own, so only elbows and wrists differ), and the jitter over those nine joints in 10^2 m/s^3, as published three-point methods report them.\n- **Proportion mismatch**: the avatar's bones scaled x0.9 and x1.1 against the performer's, as `AvatarCalibrator` scales an avatar (uniformly, its body settings in its own metres), while the tracked headset and wrists stay the performer's; in arm-only the avatar's shoulders are put on the performer's. Reachable is then the avatar's reach.\n- **Pooling**: every figure is a mean over frames of the clips pooled (a long clip weighs more than a short one): each group's in the By group section, all clips together elsewhere.\n\n{fps_table}\n\nUnits: cm, degrees.\n\n{tables}\n## How each clip was read\n\nFound from the data, never assumed: the naming by the bone-name recognition the one-click setup uses on an avatar (`vr_arms_core::rig::rig_names::auto_map`); the unit as the one that gives the performer a human arm; the up axis from the hips to the head; a first frame with the arms out level and the hands nearly an arm span apart is an added T-pose and skipped. The rest pose the avatar is built from: the skeleton's own rest when it is a T-pose, else a T-pose first frame, else the skeleton's rest when it stands upright or the first frame, with the arms laid out level and the legs straight down at their own lengths. Where the rest is no T-pose, the hand frame comes from the finger roots (the middle finger's for its long axis, index to little finger for its width) and the head and chest are taken as the body faces in that pose: on the Character Creator walks that have a T-pose, calibrating from the standing first frame instead is 20 degrees off at the hands and up to 18 at the head (`tests/everyday_reading.rs`).\n\n{}",
        clips.len(),
        clips.iter().map(|c| c.frame_count()).sum::<usize>(),
        vr_arms_eval::clip::GRIP_OFFSET.to_array(),
        FLIP_DEG,
        FLIP_WINDOW_S * 1000.0,
        BENT_M * 100.0,
        report::reading(clips),
    )
}
