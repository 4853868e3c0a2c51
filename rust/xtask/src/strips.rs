//! `cargo xtask strips [--sit CLIP]`: the demo's character playing real motion capture (a walk
//! and a bend to pick something up from `../shared/mocap/everyday`, and with `--sit` a clip of
//! sitting down and standing up, the game saying when the player sits), rendered from the side
//! as strips of frames into `docs/images` (Xvfb, Vulkan on lavapipe), for docs/lower_body.md.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::engine::{prepare, run_captured, write_replay};
use crate::repo_root;
use crate::xr::OffScreen;

/// One strip: the clip, the picture, and which part of the clip (`demo_project/tools/
/// motion_strip.gd`'s options).
struct Strip {
    clip: PathBuf,
    out: &'static str,
    part: &'static [&'static str],
}

/// The strips: the two everyday clips, and `sit` if given (CMU 14_32 in the docs: sitting down
/// on a low step stool and standing up; not in `../shared/mocap`).
fn strips(sit: Option<&Path>) -> Vec<Strip> {
    let everyday = repo_root().join("../shared/mocap/everyday");
    let mut out = vec![
        Strip {
            clip: everyday.join("cmu07_01_walk_cc.bvh"),
            out: "docs/images/walk_strip.png",
            part: &["--panels=8"],
        },
        Strip {
            clip: everyday.join("cmu02_06_bend_scoop_up_lift_arm_cc.bvh"),
            out: "docs/images/pickup_strip.png",
            part: &["--panels=8", "--around-lowest=1.6"],
        },
    ];
    if let Some(sit) = sit {
        out.push(Strip {
            clip: sit.to_path_buf(),
            out: "docs/images/sit_strip.png",
            part: &["--panels=8", "--seated", "--profile"],
        });
    }
    out
}

/// The panel size in pixels.
const PANEL: &str = "300x480";

pub fn run_strips(sit: Option<&Path>) -> Result<(), String> {
    prepare("demo_project")?;
    let dir = repo_root().join("target/strips");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let screen = OffScreen::start()?;
    for strip in strips(sit) {
        let clip = strip.clip;
        if !clip.exists() {
            return Err(format!(
                "{} not found (the everyday capture lives in ../shared/mocap beside the repository)",
                clip.display()
            ));
        }
        let replay = dir.join(format!(
            "{}.json",
            clip.file_stem().unwrap_or_default().to_string_lossy()
        ));
        write_replay(&clip, &replay, "1000000")
            .map_err(|e| format!("writing the replay of {} failed ({e})", clip.display()))?;
        let fps = frames_per_second(&replay)?;
        let mut cmd = screen.tool_command(
            "res://tools/motion_strip.gd",
            &["--fixed-fps", &fps, "--resolution", PANEL],
        );
        cmd.arg(format!("--replay={}", replay.display()))
            .arg(format!("--out={}", repo_root().join(strip.out).display()))
            .args(strip.part);
        let run = run_captured(cmd, Duration::from_secs(900))?;
        let done = run.lines.iter().find(|l| l.starts_with("motion strip: "));
        match done {
            Some(line) if run.success => println!("{line}"),
            _ => {
                return Err(format!(
                    "rendering {} failed ({}): {}",
                    strip.out,
                    run.status,
                    run.lines.join("\n")
                ));
            }
        }
    }
    Ok(())
}

/// The replay's frames a second (its `frame_time`), as Godot's `--fixed-fps` takes it.
fn frames_per_second(replay: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(replay).map_err(|e| format!("{}: {e}", replay.display()))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let frame_time = value["frame_time"]
        .as_f64()
        .filter(|t| *t > 0.0)
        .ok_or_else(|| format!("{}: no frame_time", replay.display()))?;
    Ok(format!("{}", (1.0 / frame_time).round()))
}
