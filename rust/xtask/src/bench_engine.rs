//! The in-engine half of `cargo xtask bench`: CPU time per avatar of the bench scene's modes,
//! and the engine calls our library makes per avatar and frame.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::build::{build_extension, install_library};
use crate::engine::{prepare, run_captured};
use crate::godot::Godot;
use crate::repo_root;

/// Frames each timed run lasts.
pub const FRAMES: usize = 1000;
/// Timed runs of each mode (alternating with the baseline); the median is reported.
pub const REPEATS: usize = 5;
/// Crowd sizes.
pub const SIZES: [usize; 2] = [100, 300];
/// Modes of `bench_avatars.tscn`; `none` (skeletons only) is the baseline.
const MODES: [&str; 11] = [
    "none",
    "twobone",
    "arms",
    "full",
    "budget",
    "remote",
    "remote_budget",
    "twobone_legs",
    "lower",
    "twobone_legs_hips",
    "builtins",
];
/// A single run that lasts longer than this is killed and the bench fails.
const RUN_TIMEOUT: Duration = Duration::from_secs(600);

/// One crowd size's figures: microseconds of CPU per avatar and frame over the baseline, and
/// engine calls per avatar and frame (None where they could not be counted).
pub struct Row {
    pub avatars: usize,
    pub twobone_us: f64,
    pub arms_us: f64,
    pub full_us: f64,
    /// The whole body with the crowd budget (solving every third frame).
    pub budget_us: f64,
    /// The whole body as one `VRRemoteBody` per avatar (`VRArmsSetup.setup_remote`).
    pub remote_us: f64,
    /// The same with `VRRemoteBody.update_interval_frames = 3`.
    pub remote_budget_us: f64,
    /// Godot's `TwoBoneIK3D` solving both legs.
    pub twobone_legs_us: f64,
    /// Our lower body alone (`LowerBodyRig`: hips, spine bend, both legs, feet).
    pub lower_us: f64,
    /// Godot's own modifiers moving the hips (`CopyTransformModifier3D`) and solving both legs
    /// (`TwoBoneIK3D`): the bone writes of a lower body without its solve.
    pub twobone_legs_hips_us: f64,
    /// Godot's built-ins doing the bones a remote body writes, from the same tracked points:
    /// hips (`CopyTransformModifier3D`), chest, neck and head (a `LookAtModifier3D` each), both
    /// arms and legs (`TwoBoneIK3D`), the fingers (an `AnimationTree` per hand on grip and
    /// trigger).
    pub builtins_us: f64,
    pub arms_calls: Option<f64>,
    pub full_calls: Option<f64>,
    pub budget_calls: Option<f64>,
    pub remote_calls: Option<f64>,
    pub remote_budget_calls: Option<f64>,
}

/// The whole body's stages in groups, for what each costs: the bench scene's `--off` switches
/// the group's classes off (modifiers inactive, other nodes not processing).
/// (The breakdown adds a last row with every group off at once, built from these.)
pub const STAGE_GROUPS: [(&str, &str); 8] = [
    (
        "target stages (ControllerTargets, BodyAvoidance, ReachClamp, TargetRouter, ElbowHintSolver)",
        "ControllerTargets,BodyAvoidance,ReachClamp,TargetRouter,ElbowHintSolver",
    ),
    ("VRArmRig", "VRArmRig"),
    ("UpperBodyFollow", "UpperBodyFollow"),
    ("LowerBodyRig", "LowerBodyRig"),
    ("ClavicleFollow", "ClavicleFollow"),
    ("ForearmTwist", "ForearmTwist"),
    (
        "fingers (HandPoseDriver, HandPoseCopy)",
        "HandPoseDriver,HandPoseCopy",
    ),
    (
        "BodyFollow, AvatarCalibrator",
        "BodyFollow,AvatarCalibrator",
    ),
];
/// The label of the breakdown's last row: every group off at once.
const ALL_OFF: &str = "all of the above (what is left is the nodes' being there)";
/// Crowd size and repeats of the stage breakdown.
pub const STAGE_AVATARS: usize = 100;
pub const STAGE_REPEATS: usize = 3;

/// Everything the in-engine half measures.
pub struct Measured {
    pub rows: Vec<Row>,
    pub calls_note: String,
    /// Per stage group: microseconds per avatar and frame the whole body saves with it off.
    pub stages: Vec<(&'static str, f64)>,
}

/// Times every mode at every size, counts the calls and breaks the whole body down by stage,
/// then runs `also` (the crowd scene) with the same release library; restores the debug library
/// afterwards.
pub fn measure<T>(also: impl FnOnce(&Godot) -> Result<T, String>) -> Result<(Measured, T), String> {
    with_release_library(|godot, library| Ok((rows(godot, library)?, also(godot)?)))
}

/// Runs `measure` with the release build of the extension where headless Godot loads it, and
/// puts the debug build back afterwards.
pub fn with_release_library<T>(
    measure: impl FnOnce(&Godot, &Path) -> Result<T, String>,
) -> Result<T, String> {
    if !Path::new("/usr/bin/time").exists() {
        return Err("/usr/bin/time is missing: cannot measure CPU time".into());
    }
    // Imported once with the debug library, as the engine tests do (a never-imported project
    // makes the first run hang on the import).
    let godot = prepare("demo_project")?;
    // Headless Godot is a debug build and loads the debug library: put the release build there
    // for the runs, and the debug build back afterwards.
    let release = build_extension(true)?;
    let debug_name = release.with_file_name(
        release
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .replace(".release.", ".debug."),
    );
    install_library(&release, &debug_name)?;
    let result = measure(&godot, &debug_name);
    build_extension(false)?;
    result
}

/// What each stage group costs in the whole body: the median, over alternating runs, of the
/// whole body's time minus its time with the group off.
fn stages(godot: &Godot) -> Result<Vec<(&'static str, f64)>, String> {
    let every = STAGE_GROUPS.map(|(_, off)| off).join(",");
    let groups: Vec<(&'static str, &str)> = STAGE_GROUPS
        .iter()
        .copied()
        .chain([(ALL_OFF, every.as_str())])
        .collect();
    let mut saved = vec![Vec::new(); groups.len()];
    for repeat in 0..STAGE_REPEATS {
        let full = cpu_seconds(godot, "full", STAGE_AVATARS, "")?;
        for (k, (_, off)) in groups.iter().enumerate() {
            let t = cpu_seconds(godot, "full", STAGE_AVATARS, off)?;
            saved[k].push((full - t) / (STAGE_AVATARS * FRAMES) as f64 * 1e6);
        }
        eprintln!("xtask: stage breakdown, run {} done", repeat + 1);
    }
    Ok(groups
        .iter()
        .zip(saved.iter_mut())
        .map(|((name, _), v)| (*name, median(v)))
        .collect())
}

fn rows(godot: &Godot, library: &Path) -> Result<Measured, String> {
    let counter = CallCounter::install(library);
    // Calls per avatar do not depend on the crowd size: counted once (10 avatars).
    let count = |mode: &str| {
        counter
            .as_ref()
            .ok()
            .and_then(|c| c.per_avatar(godot, mode))
    };
    let (arms_calls, full_calls, budget_calls) = (count("arms"), count("full"), count("budget"));
    let (remote_calls, remote_budget_calls) = (count("remote"), count("remote_budget"));
    let mut rows = Vec::new();
    for avatars in SIZES {
        // Alternating: every repeat runs each mode once, so a slow spell of the machine hits
        // all modes alike.
        let mut over: [Vec<f64>; 10] = Default::default();
        for repeat in 0..REPEATS {
            let times: Vec<f64> = MODES
                .iter()
                .map(|mode| cpu_seconds(godot, mode, avatars, ""))
                .collect::<Result<_, _>>()?;
            eprintln!("xtask: {avatars} avatars, run {}: {times:?} s", repeat + 1);
            for (k, t) in times[1..].iter().enumerate() {
                over[k].push((t - times[0]) / (avatars * FRAMES) as f64 * 1e6);
            }
        }
        rows.push(Row {
            avatars,
            twobone_us: median(&mut over[0]),
            arms_us: median(&mut over[1]),
            full_us: median(&mut over[2]),
            budget_us: median(&mut over[3]),
            remote_us: median(&mut over[4]),
            remote_budget_us: median(&mut over[5]),
            twobone_legs_us: median(&mut over[6]),
            lower_us: median(&mut over[7]),
            twobone_legs_hips_us: median(&mut over[8]),
            builtins_us: median(&mut over[9]),
            arms_calls,
            full_calls,
            budget_calls,
            remote_calls,
            remote_budget_calls,
        });
    }
    let note = match counter {
        Ok(c) => {
            c.remove();
            "Engine calls are counted with a Linux uprobe (`perf probe`) on gdext's \
             `dispatch_class_ptrcall`, which every call of an engine method from our library goes \
             through: calls over the skeletons-only baseline, per avatar and frame (10 avatars, \
             200 frames minus 100)."
                .to_string()
        }
        Err(e) => format!("Engine calls not counted: {e}."),
    };
    Ok(Measured {
        rows,
        calls_note: note,
        stages: stages(godot)?,
    })
}

/// The bench's comparators (Godot's own modifiers) must solve, or its ratios compare our work
/// with none: a short run of each comparator mode (the debug library, two avatars, 30 frames),
/// which the bench scene fails when an end bone misses its target. Part of `cargo xtask test`.
pub fn check_comparators() -> Result<(), String> {
    let godot = prepare("demo_project")?;
    for mode in ["twobone", "twobone_legs", "twobone_legs_hips", "builtins"] {
        let mut cmd = Command::new(&godot.program);
        cmd.args(bench_args(&godot, mode, 2, 30, ""));
        let run = run_captured(cmd, RUN_TIMEOUT)?;
        let solved = run
            .lines
            .iter()
            .any(|l| l.contains("bench: comparator end bones"));
        if !run.success || !solved {
            return Err(format!(
                "bench comparator {mode} did not solve ({}):\n{}",
                run.status,
                run.lines.join("\n")
            ));
        }
    }
    println!(
        "xtask: the bench's comparators (TwoBoneIK3D on the arms and legs, the hips moved by CopyTransformModifier3D, the built-ins composite with its fingers moving) reach their targets"
    );
    Ok(())
}

pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn bench_args(godot: &Godot, mode: &str, avatars: usize, frames: usize, off: &str) -> Vec<String> {
    let mut args = godot.prefix.clone();
    args.extend(
        [
            "--headless",
            "--xr-mode",
            "off",
            "--path",
            &repo_root().join("demo_project").display().to_string(),
            "res://bench/bench_avatars.tscn",
            "--",
            &format!("--mode={mode}"),
            &format!("--avatars={avatars}"),
            &format!("--frames={frames}"),
            &format!("--off={off}"),
        ]
        .map(String::from),
    );
    args
}

/// CPU user seconds of one run (`/usr/bin/time -f %U`).
pub fn cpu_seconds(godot: &Godot, mode: &str, avatars: usize, off: &str) -> Result<f64, String> {
    timed_run(godot, mode, avatars, off).map(|(seconds, _)| seconds)
}

/// CPU user seconds of one run (`/usr/bin/time -f %U`), and what it printed.
pub fn timed_run(
    godot: &Godot,
    mode: &str,
    avatars: usize,
    off: &str,
) -> Result<(f64, Vec<String>), String> {
    timed_run_frames(godot, mode, avatars, off, FRAMES)
}

/// [`timed_run`] for `frames` frames.
pub fn timed_run_frames(
    godot: &Godot,
    mode: &str,
    avatars: usize,
    off: &str,
    frames: usize,
) -> Result<(f64, Vec<String>), String> {
    let mut cmd = Command::new("/usr/bin/time");
    cmd.args(["-f", "%U"])
        .arg(&godot.program)
        .args(bench_args(godot, mode, avatars, frames, off));
    let run = run_captured(cmd, RUN_TIMEOUT)?;
    if !run.success {
        return Err(format!(
            "bench run (mode {mode}, {avatars} avatars) failed: {}",
            run.status
        ));
    }
    let seconds = run
        .lines
        .iter()
        .rev()
        .find_map(|l| l.trim().parse().ok())
        .ok_or_else(|| format!("no CPU time printed for mode {mode}, {avatars} avatars"))?;
    Ok((seconds, run.lines))
}

/// A uprobe on the library's engine-call dispatcher.
struct CallCounter;

const EVENT: &str = "vrarms:calls";

impl CallCounter {
    fn install(library: &Path) -> Result<Self, String> {
        let _ = Command::new("perf").args(["probe", "-d", EVENT]).output();
        let offset = dispatcher_offset(library)?;
        let out = Command::new("perf")
            .args(["probe", "-x"])
            .arg(library)
            .args(["-a", &format!("vrarms:calls=0x{offset:x}")])
            .output()
            .map_err(|e| format!("perf is not installed ({e})"))?;
        if !out.status.success() {
            return Err(format!(
                "`perf probe` failed (needs root and uprobes): {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(Self)
    }

    fn remove(self) {
        let _ = Command::new("perf").args(["probe", "-d", EVENT]).output();
    }

    /// Calls of `mode` per avatar and frame, over the skeletons-only baseline.
    fn per_avatar(&self, godot: &Godot, mode: &str) -> Option<f64> {
        const AVATARS: usize = 10;
        let per_frame = |mode: &str| -> Option<f64> {
            let (a, b) = (
                self.count(godot, mode, AVATARS, 100)?,
                self.count(godot, mode, AVATARS, 200)?,
            );
            Some((b as f64 - a as f64) / 100.0)
        };
        Some((per_frame(mode)? - per_frame("none")?) / AVATARS as f64)
    }

    fn count(&self, godot: &Godot, mode: &str, avatars: usize, frames: usize) -> Option<u64> {
        // `timeout`: a run that hangs fails the count instead of the bench.
        let out = Command::new("timeout")
            .arg(RUN_TIMEOUT.as_secs().to_string())
            .args(["perf", "stat", "-x,", "-e", EVENT, "--"])
            .arg(&godot.program)
            .args(bench_args(godot, mode, avatars, frames, ""))
            .output()
            .ok()?;
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .find(|l| l.contains(EVENT))
            .and_then(|l| l.split(',').next()?.trim().parse().ok())
    }
}

/// The file offset of gdext's `dispatch_class_ptrcall` in `library` (a uprobe takes a file
/// offset; `perf probe` cannot always resolve the Rust name itself): its symbol's address from
/// `nm`, moved from the executable segment's address to its offset (`readelf -l`).
fn dispatcher_offset(library: &Path) -> Result<u64, String> {
    let text = |cmd: &mut Command| -> Result<String, String> {
        let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let hex = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok();
    let symbols = text(Command::new("nm").arg(library))?;
    let address = symbols
        .lines()
        .find(|l| l.contains("dispatch_class_ptrcall"))
        .and_then(|l| hex(l.split_whitespace().next()?))
        .ok_or("no dispatch_class_ptrcall symbol in the library")?;
    let segments = text(Command::new("readelf").args(["-lW"]).arg(library))?;
    segments
        .lines()
        .filter(|l| l.trim_start().starts_with("LOAD") && l.contains("R E"))
        .find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let (offset, vaddr) = (hex(f.get(1)?)?, hex(f.get(2)?)?);
            Some(address - vaddr + offset)
        })
        .ok_or_else(|| "no executable segment in the library".to_string())
}
