//! Builds the GDExtension and places it into `addons/vr_arms/bin/` atomically.

use std::path::PathBuf;

use crate::{cargo, repo_root, run};

/// Builds `vr_arms` and installs the library; returns the installed path.
pub fn build_extension(release: bool) -> Result<PathBuf, String> {
    let mut cmd = cargo();
    cmd.args(["build", "--package", "vr_arms"]);
    if release {
        cmd.arg("--release");
    }
    run(&mut cmd)?;

    let profile = if release { "release" } else { "debug" };
    let (prefix, ext) = library_naming();
    let built = target_dir()
        .join(profile)
        .join(format!("{prefix}vr_arms.{ext}"));
    let bin = repo_root().join("addons/vr_arms/bin");
    std::fs::create_dir_all(&bin).map_err(|e| format!("cannot create {}: {e}", bin.display()))?;
    let dest = bin.join(format!(
        "{prefix}vr_arms.{}.{profile}.{}.{ext}",
        std::env::consts::OS,
        std::env::consts::ARCH
    ));
    install_library(&built, &dest)?;
    Ok(dest)
}

/// Copies `from` to `dest` under a temporary name, then renames it: replacing a library that an
/// open editor has mapped, in place, crashes it; a rename gives the editor a new file.
pub fn install_library(from: &std::path::Path, dest: &std::path::Path) -> Result<(), String> {
    let tmp = dest.with_extension("tmp");
    std::fs::copy(from, &tmp)
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), tmp.display()))?;
    std::fs::rename(&tmp, dest)
        .map_err(|e| format!("cannot rename {} to {}: {e}", tmp.display(), dest.display()))?;
    eprintln!("xtask: installed {}", dest.display());
    Ok(())
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target"))
}

fn library_naming() -> (&'static str, &'static str) {
    match std::env::consts::OS {
        "windows" => ("", "dll"),
        "macos" => ("lib", "dylib"),
        _ => ("lib", "so"),
    }
}
