//! Running Godot: the engine tests (headless), the hot-reload test and the soak.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::build::build_extension;
use crate::godot::{Godot, find_or_fetch};
use crate::repo_root;

/// Lines that fail a run whatever the tests said.
const FATAL_PATTERNS: &[&str] = &[
    "SCRIPT ERROR",
    "Can't open dynamic library",
    "Error loading extension",
    "panicked at",
    "ObjectDB instances leaked at exit",
    "Parse Error",
    "Failed to load script",
];

/// What a finished Godot run printed.
pub struct GodotRun {
    pub lines: Vec<String>,
    pub success: bool,
    pub status: String,
}

impl GodotRun {
    /// Lines matching one of the fatal patterns.
    pub fn fatal_lines(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter(|l| FATAL_PATTERNS.iter().any(|p| l.contains(p)))
            .map(String::as_str)
            .collect()
    }
}

/// Runs `cmd`, echoing its output with a prefix and collecting it; kills it after `timeout`.
pub fn run_captured(mut cmd: Command, timeout: Duration) -> Result<GodotRun, String> {
    eprintln!("xtask: running {cmd:?}");
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start Godot: {e}"))?;
    let (tx, rx) = mpsc::channel::<String>();
    let readers: Vec<_> = [
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
    ]
    .into_iter()
    .flatten()
    .map(|stream| {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        })
    })
    .collect();
    drop(tx);
    let start = Instant::now();
    let mut lines = Vec::new();
    let mut timed_out = false;
    loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) => {
                println!("  | {line}");
                lines.push(line);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if !timed_out && start.elapsed() > timeout {
            timed_out = true;
            let _ = child.kill();
        }
    }
    for r in readers {
        let _ = r.join();
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    Ok(GodotRun {
        lines,
        success: status.success() && !timed_out,
        status: if timed_out {
            format!("killed after {} s", timeout.as_secs())
        } else {
            status.to_string()
        },
    })
}

/// Builds the extension, finds Godot and imports `project` once (headless).
pub fn prepare(project: &str) -> Result<Godot, String> {
    build_extension(false)?;
    let godot = find_or_fetch()?;
    eprintln!("xtask: Godot {} ({})", godot.version()?, godot.describe());
    let path = repo_root().join(project);
    let mut import = godot.command(["--headless", "--xr-mode", "off", "--import", "--path"]);
    import.arg(&path);
    let run = run_captured(import, Duration::from_secs(300))?;
    let fatal = run.fatal_lines();
    if !run.success || !fatal.is_empty() {
        return Err(format!(
            "importing {project} failed ({}): {fatal:?}",
            run.status
        ));
    }
    Ok(godot)
}

/// Godot headless on the demo project, OpenXR off, `fps` frames per simulated second whatever
/// the machine's speed.
fn headless_fixed(godot: &Godot, fps: u32) -> Command {
    let mut cmd = godot.command(["--headless", "--xr-mode", "off", "--fixed-fps"]);
    cmd.arg(fps.to_string())
        .arg("--path")
        .arg(repo_root().join("demo_project"));
    cmd
}

/// `cargo xtask engine-test [filter]`.
pub fn run_engine_tests(filter: Option<&str>) -> Result<(), String> {
    write_mocap_replay()?;
    let godot = prepare("demo_project")?;
    check_runner_rules(&godot)?;
    // A fixed frame time: simulated time no longer depends on how busy the machine is, so
    // time-based expectations (blends, one-shots, recoil) are deterministic.
    let mut cmd = headless_fixed(&godot, 120);
    cmd.arg("res://tests/run_tests.tscn").arg("--");
    if let Some(filter) = filter {
        cmd.arg(format!("--filter={filter}"));
    }
    let run = run_captured(cmd, Duration::from_secs(900))?;
    judge_test_run(&run)
}

/// The clips the engine test `test_mocap_replay.gd` replays, from `../shared/mocap`, into
/// `demo_project/tests/replay/`, and how many frames: karate low blocks (deep stances, the head
/// well below standing height much of the time), and a walk from the everyday group (a start,
/// a few poses, two metres of walking with the arms at the sides and a stop: all of it, 120
/// frames a second as the test runs).
const REPLAY_CLIPS: [(&str, &str, &str); 2] = [
    (
        "cmu135_05_gedanbarai_low_blocks.bvh",
        "mocap_replay.json",
        "300",
    ),
    (
        "everyday/cmu131_01_start_walk_stop.bvh",
        "mocap_replay_walk.json",
        "994",
    ),
];

/// Writes the evaluation's replays of [`REPLAY_CLIPS`] for the engine test that holds the
/// engine's body to the evaluation's (not kept in git). Without the shared motion capture it
/// says so and that test fails, naming the file.
fn write_mocap_replay() -> Result<(), String> {
    for (clip, file, frames) in REPLAY_CLIPS {
        let clip = repo_root().join("../shared/mocap").join(clip);
        let out = repo_root().join("demo_project/tests/replay").join(file);
        if !clip.exists() {
            eprintln!(
                "xtask: warning: {} not found: test_mocap_replay will fail (the shared motion capture lives beside the repository)",
                clip.display()
            );
            let _ = std::fs::remove_file(&out);
            continue;
        }
        write_replay(&clip, &out, frames)
            .map_err(|e| format!("writing the mocap replay {file} failed ({e})"))?;
    }
    Ok(())
}

/// `vr_arms_eval --replay OUT --frames FRAMES CLIP`: the evaluation's replay of a clip (its
/// skeleton, each frame's tracking, the evaluated joints and the performer's), for the engine
/// test and `cargo xtask strips`.
pub fn write_replay(clip: &Path, out: &Path, frames: &str) -> Result<(), String> {
    let status = crate::cargo()
        .args(["run", "--quiet", "--package", "vr_arms_eval"])
        .args(["--bin", "vr_arms_eval", "--", "--replay"])
        .arg(out)
        .args(["--frames", frames])
        .arg(clip)
        .status()
        .map_err(|e| format!("cannot run vr_arms_eval: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(status.to_string())
    }
}

/// The runner's own rules, on fixtures whose verdicts are known: a test that made no check and a
/// test whose expected error never came must fail, the two well-behaved ones must pass.
fn check_runner_rules(godot: &Godot) -> Result<(), String> {
    let mut cmd = headless_fixed(godot, 120);
    cmd.args([
        "res://tests/run_tests.tscn",
        "--",
        "--dir=res://tests/runner_selftest",
    ]);
    let run = run_captured(cmd, Duration::from_secs(300))?;
    judge_runner_rules(&run)
}

fn judge_runner_rules(run: &GodotRun) -> Result<(), String> {
    let summary = run.lines.iter().rev().find_map(|l| parse_summary(l));
    let failed_as_expected = [
        "test_bad_makes_no_check",
        "test_bad_expects_an_error_that_never_comes",
        "test_bad_expects_a_warning_that_never_comes",
    ]
    .iter()
    .all(|name| {
        run.lines
            .iter()
            .any(|l| l.starts_with("FAIL") && l.contains(name))
    });
    if summary == Some((3, 3)) && failed_as_expected && !run.success {
        println!(
            "engine: the runner fails a test with no check, a missing expected error and a missing expected warning"
        );
        Ok(())
    } else {
        Err(format!(
            "the test runner's self-test gave {summary:?} (expected 3 passed, 3 failed, the three `test_bad_*` failing, exit 1; Godot {})",
            run.status
        ))
    }
}

/// A test run passes only when Godot exited 0, the runner printed its closing line with no
/// failures and at least one test, and no fatal line appeared anywhere.
fn judge_test_run(run: &GodotRun) -> Result<(), String> {
    let summary = run.lines.iter().rev().find_map(|l| parse_summary(l));
    let fatal = run.fatal_lines();
    let mut problems = Vec::new();
    if !fatal.is_empty() {
        problems.push(format!("fatal lines in the log: {fatal:#?}"));
    }
    match summary {
        None => problems.push("the runner printed no `N passed, N failed` line".into()),
        Some((0, 0)) => problems.push("no engine test ran".into()),
        Some((_, failed)) if failed > 0 => problems.push(format!("{failed} engine test(s) failed")),
        Some(_) => {}
    }
    if !run.success {
        problems.push(format!("Godot exited with {}", run.status));
    }
    if problems.is_empty() {
        let (passed, failed) = summary.unwrap_or_default();
        println!("engine: {passed} passed, {failed} failed");
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// Parses `N passed, N failed` (optionally `, N skipped`) at the start of a line.
fn parse_summary(line: &str) -> Option<(u32, u32)> {
    let line = line.trim();
    let (passed, rest) = line.split_once(" passed, ")?;
    let failed = rest.split(" failed").next()?;
    Some((passed.trim().parse().ok()?, failed.trim().parse().ok()?))
}

/// `cargo xtask hot-reload-test`: a headless editor opens `tests/hot_reload/hot_reload.tscn`,
/// whose tool script reloads the extension through `GDExtensionManager` and checks that classes,
/// old nodes and new nodes work afterwards (hot reload exists only in the editor).
pub fn run_hot_reload_test() -> Result<(), String> {
    let godot = prepare("demo_project")?;
    let mut cmd = godot.command(["--headless", "--xr-mode", "off", "--editor", "--path"]);
    cmd.arg(repo_root().join("demo_project")).args([
        "res://tests/hot_reload/hot_reload.tscn",
        "--",
        "--hot-reload-check",
    ]);
    let run = run_captured(cmd, Duration::from_secs(300))?;
    let passed = run
        .lines
        .iter()
        .any(|l| l.contains("hot reload check passed"));
    let fatal = run.fatal_lines();
    if passed && run.success && fatal.is_empty() {
        println!("hot reload: the extension reloads in the editor and its nodes keep working");
        Ok(())
    } else {
        Err(format!(
            "hot reload test failed ({}); fatal lines: {fatal:#?}",
            run.status
        ))
    }
}

/// `cargo xtask soak [seconds]`: the demo's autopilot looped for `seconds` of simulated time
/// (frames of 1/30 s) with random tracking dropouts and hitches, headless. Passes when Godot
/// exits 0, the demo reports no non-finite bone, and the log has no error, no warning and no
/// leaked object. Returns the demo's soak line.
pub fn run_soak(seconds: u32) -> Result<String, String> {
    let godot = prepare("demo_project")?;
    let mut cmd = headless_fixed(&godot, 30);
    cmd.args([
        "--",
        "--autopilot",
        "--soak",
        &format!("--loop-seconds={seconds}"),
    ]);
    let run = run_captured(cmd, Duration::from_secs(600 + u64::from(seconds) * 2))?;
    let soak_line = run
        .lines
        .iter()
        .find(|l| l.contains("vr_arms demo soak"))
        .cloned();
    let bad: Vec<&String> = run
        .lines
        .iter()
        .filter(|l| l.contains("ERROR") || l.starts_with("WARNING") || l.contains("leaked"))
        .collect();
    let mut problems = Vec::new();
    match &soak_line {
        Some(l) if l.contains("soak passed") => {}
        Some(l) => problems.push(l.clone()),
        None => problems.push("the demo printed no soak line".into()),
    }
    if !bad.is_empty() {
        problems.push(format!("errors, warnings or leaks in the log: {bad:#?}"));
    }
    if !run.success {
        problems.push(format!("Godot exited with {}", run.status));
    }
    if problems.is_empty() {
        Ok(soak_line.unwrap_or_default())
    } else {
        Err(format!("soak failed: {}", problems.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_of(lines: &[&str], success: bool) -> GodotRun {
        GodotRun {
            lines: lines.iter().map(|s| s.to_string()).collect(),
            success,
            status: "exit status: 0".into(),
        }
    }

    #[test]
    fn runner_rules_need_every_bad_fixture_to_fail() {
        let bad = [
            "FAIL runner:test_bad_makes_no_check: the test made no check",
            "FAIL runner:test_bad_expects_an_error_that_never_comes: 0 engine error(s)",
            "FAIL runner:test_bad_expects_a_warning_that_never_comes: 0 warning(s)",
        ];
        let mut lines = bad.to_vec();
        lines.push("3 passed, 3 failed");
        assert!(judge_runner_rules(&run_of(&lines, false)).is_ok());
        assert!(judge_runner_rules(&run_of(&lines, true)).is_err());
        assert!(judge_runner_rules(&run_of(&[bad[0], "5 passed, 1 failed"], false)).is_err());
        assert!(
            judge_runner_rules(&run_of(
                &[bad[0], bad[1], bad[1], "3 passed, 3 failed"],
                false
            ))
            .is_err()
        );
    }

    #[test]
    fn summary_line_is_parsed() {
        assert_eq!(parse_summary("3 passed, 0 failed"), Some((3, 0)));
        assert_eq!(parse_summary("engine: 3 passed, 1 failed, 2 skipped"), None);
        assert_eq!(
            parse_summary("12 passed, 1 failed, 2 skipped"),
            Some((12, 1))
        );
        assert_eq!(parse_summary("nothing here"), None);
    }

    #[test]
    fn a_run_fails_on_failures_fatal_lines_missing_summary_or_status() {
        assert!(judge_test_run(&run_of(&["2 passed, 0 failed"], true)).is_ok());
        assert!(judge_test_run(&run_of(&["1 passed, 1 failed"], true)).is_err());
        assert!(judge_test_run(&run_of(&["0 passed, 0 failed"], true)).is_err());
        assert!(judge_test_run(&run_of(&["all good"], true)).is_err());
        assert!(judge_test_run(&run_of(&["2 passed, 0 failed"], false)).is_err());
        for fatal in FATAL_PATTERNS {
            let run = run_of(&[fatal, "2 passed, 0 failed"], true);
            assert!(judge_test_run(&run).is_err(), "{fatal} must fail the run");
        }
    }
}
