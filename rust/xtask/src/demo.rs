//! `cargo xtask demo`: the demo in a window, or its autopilot off-screen or headless.

use std::time::Duration;

use crate::engine::{prepare, run_captured};
use crate::repo_root;
use crate::xr::OffScreen;

/// `cargo xtask demo [--headless] [-- demo args]`.
///
/// With a display: the demo in a window (OpenXR when a runtime answers, else desktop mode).
/// Without one: the autopilot session plays off-screen, rendered under Xvfb with Vulkan on
/// lavapipe (mirror screenshots in `target/demo-screenshots`) when those can be had, else
/// headless; either way it prints a summary.
pub fn run_demo(force_headless: bool, user_args: &[String]) -> Result<(), String> {
    let godot = prepare("demo_project")?;
    let project = repo_root().join("demo_project");
    let has_display = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty())
        || std::env::var_os("WAYLAND_DISPLAY").is_some_and(|d| !d.is_empty());
    // Kept alive while the demo runs.
    let mut _screen = None;
    let mut cmd;
    let timeout;
    if has_display && !force_headless {
        cmd = godot.command(["--path"]);
        cmd.arg(&project).arg("--");
        timeout = 86_400;
    } else {
        let off_screen = if force_headless {
            Err("--headless asked for".to_string())
        } else {
            OffScreen::start()
        };
        let screenshots = repo_root().join("target/demo-screenshots");
        match off_screen {
            Ok(screen) => {
                eprintln!(
                    "xtask: no display: the autopilot plays off-screen (Xvfb {}, Vulkan on lavapipe)",
                    screen.display()
                );
                cmd = screen.demo_command(false);
                cmd.arg("--autopilot")
                    .arg(format!("--screenshots={}", screenshots.display()));
                _screen = Some(screen);
            }
            Err(why) => {
                eprintln!(
                    "xtask: no display and no off-screen rendering ({why}): the autopilot plays headless"
                );
                cmd = godot.command(["--headless", "--xr-mode", "off", "--path"]);
                cmd.arg(&project).arg("--").arg("--autopilot");
            }
        }
        timeout = 900;
    }
    cmd.args(user_args);
    let run = run_captured(cmd, Duration::from_secs(timeout))?;
    let fatal = run.fatal_lines();
    if !fatal.is_empty() {
        return Err(format!("the demo logged errors: {fatal:#?}"));
    }
    if !run.success {
        return Err(format!("the demo exited with {}", run.status));
    }
    Ok(())
}
