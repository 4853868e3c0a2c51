//! Builds the GDExtension and places it into `addons/vr_arms/bin/` atomically.

use std::path::PathBuf;
use std::process::Command;

use crate::{cargo, repo_root, run};

/// Builds `vr_arms` for the host and installs the library; returns the installed path.
pub fn build_extension(release: bool) -> Result<PathBuf, String> {
    build_extension_for(release, None)
}

/// Builds `vr_arms` for `target` (a Rust target triple; the host when `None`) and installs the
/// library under the name the `.gdextension` gives it ([`godot_library_name`]). A cross build
/// needs that target's standard library and linker (docs/install.md).
pub fn build_extension_for(release: bool, target: Option<&str>) -> Result<PathBuf, String> {
    let profile = if release { "release" } else { "debug" };
    let platform = match target {
        Some(t) => Platform::from_triple(t)?,
        None => Platform::host()?,
    };
    let built = if target == Some(crate::windows::TARGET) && !has_target(crate::windows::TARGET) {
        // No Windows standard library for this compiler here: Debian's, from source.
        crate::windows::Toolchain::provision()?.cargo_build(release)?
    } else {
        let mut cmd = cargo();
        cmd.args(["build", "--package", "vr_arms"]);
        if release {
            cmd.arg("--release");
        }
        if let Some(t) = target {
            cmd.args(["--target", t]);
        }
        run(&mut cmd)?;
        let mut built = target_dir();
        if let Some(t) = target {
            built.push(t);
        }
        built.join(profile).join(platform.cargo_library_name())
    };
    if platform.os == "windows" {
        let bytes =
            std::fs::read(&built).map_err(|e| format!("cannot read {}: {e}", built.display()))?;
        let problems = crate::pe::library_problems(&bytes, "gdext_rust_init");
        if !problems.is_empty() {
            return Err(format!("{}: {}", built.display(), problems.join("; ")));
        }
        eprintln!(
            "xtask: {} exports gdext_rust_init and imports only Windows DLLs",
            built.display()
        );
    }
    let bin = repo_root().join("addons/vr_arms/bin");
    std::fs::create_dir_all(&bin).map_err(|e| format!("cannot create {}: {e}", bin.display()))?;
    let dest = bin.join(godot_library_name(platform, profile));
    install_library(&built, &dest)?;
    Ok(dest)
}

/// An operating system and architecture as the `.gdextension` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Platform {
    /// `linux`, `windows`, `macos` or `android`.
    pub os: &'static str,
    /// `x86_64` or `aarch64` (Godot's feature tag for the latter is `arm64`).
    pub arch: &'static str,
}

impl Platform {
    fn host() -> Result<Self, String> {
        Self::new(std::env::consts::OS, std::env::consts::ARCH)
    }

    fn new(os: &str, arch: &str) -> Result<Self, String> {
        let os = match os {
            "linux" => "linux",
            "windows" => "windows",
            "macos" => "macos",
            "android" => "android",
            other => return Err(format!("vr_arms is not built for the OS `{other}`")),
        };
        let arch = match arch {
            "x86_64" => "x86_64",
            "aarch64" => "aarch64",
            other => {
                return Err(format!(
                    "vr_arms is not built for the architecture `{other}`"
                ));
            }
        };
        Ok(Self { os, arch })
    }

    /// The platform of a Rust target triple (`aarch64-linux-android`, `x86_64-pc-windows-msvc`,
    /// `aarch64-apple-darwin`, `x86_64-unknown-linux-gnu`, ...).
    pub fn from_triple(triple: &str) -> Result<Self, String> {
        let arch = triple.split('-').next().unwrap_or("");
        let os = if triple.contains("android") {
            "android"
        } else if triple.contains("windows") {
            "windows"
        } else if triple.contains("apple-darwin") {
            "macos"
        } else if triple.contains("linux") {
            "linux"
        } else {
            return Err(format!("no Godot platform for the target `{triple}`"));
        };
        Self::new(os, arch)
    }

    /// What cargo calls the library it builds.
    fn cargo_library_name(self) -> &'static str {
        match self.os {
            "windows" => "vr_arms.dll",
            "macos" => "libvr_arms.dylib",
            _ => "libvr_arms.so",
        }
    }
}

/// The file name the `.gdextension` gives the library of `platform` and `profile` (`debug` or
/// `release`): `libvr_arms.linux.release.x86_64.so`, `vr_arms.windows.debug.x86_64.dll`,
/// `libvr_arms.android.release.aarch64.so`; on macOS the two architectures are joined into one
/// `libvr_arms.macos.release.universal.dylib` (`lipo`, docs/install.md), so this names the
/// per-architecture input of that step.
pub fn godot_library_name(platform: Platform, profile: &str) -> String {
    let (prefix, ext) = match platform.os {
        "windows" => ("", "dll"),
        "macos" => ("lib", "dylib"),
        _ => ("lib", "so"),
    };
    format!(
        "{prefix}vr_arms.{}.{profile}.{}.{ext}",
        platform.os, platform.arch
    )
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

/// Whether the default compiler has the standard library for `target` (rustup's target list).
fn has_target(target: &str) -> bool {
    Command::new("rustc")
        .args(["--print", "target-libdir", "--target", target])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .is_some_and(|dir| {
            // The standard library's rlib, `libstd-HASH.rlib`.
            std::fs::read_dir(dir).is_ok_and(|rd| {
                rd.filter_map(|e| e.ok())
                    .any(|e| e.file_name().to_string_lossy().starts_with("libstd-"))
            })
        })
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target"))
}

/// Builds the core bench (release) and gives its path.
pub fn build_core_bench() -> Result<std::path::PathBuf, String> {
    build_eval_bin("vr_arms_bench")
}

/// Builds one of `vr_arms_eval`'s programs (release) and gives its path.
pub fn build_eval_bin(name: &str) -> Result<std::path::PathBuf, String> {
    run(cargo().args([
        "build",
        "--release",
        "--quiet",
        "--package",
        "vr_arms_eval",
        "--bin",
        name,
    ]))?;
    Ok(repo_root().join("target/release").join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented builds (docs/install.md) and the universal macOS library made from two.
    const DOCUMENTED: &[&str] = &[
        "x86_64-unknown-linux-gnu",
        "aarch64-unknown-linux-gnu",
        "x86_64-pc-windows-msvc",
        "aarch64-linux-android",
    ];

    #[test]
    fn the_gdextension_names_exactly_the_files_the_builds_produce() {
        let text = std::fs::read_to_string(repo_root().join("addons/vr_arms/vr_arms.gdextension"))
            .unwrap();
        let mut listed: Vec<String> = crate::libraries::entries(&text)
            .into_iter()
            .map(|e| e.file)
            .collect();
        listed.sort();
        let mut produced: Vec<String> = DOCUMENTED
            .iter()
            .flat_map(|t| {
                let p = Platform::from_triple(t).unwrap();
                ["debug", "release"].map(|profile| godot_library_name(p, profile))
            })
            .chain(["debug", "release"].map(|p| format!("libvr_arms.macos.{p}.universal.dylib")))
            .collect();
        produced.sort();
        assert_eq!(listed, produced);
    }

    #[test]
    fn target_triples_map_to_godot_platforms() {
        let p = |t| Platform::from_triple(t).unwrap();
        assert_eq!(
            p("aarch64-linux-android"),
            Platform {
                os: "android",
                arch: "aarch64"
            }
        );
        assert_eq!(
            p("x86_64-pc-windows-msvc"),
            Platform {
                os: "windows",
                arch: "x86_64"
            }
        );
        assert_eq!(
            p("aarch64-apple-darwin"),
            Platform {
                os: "macos",
                arch: "aarch64"
            }
        );
        assert_eq!(
            p("x86_64-unknown-linux-gnu"),
            Platform {
                os: "linux",
                arch: "x86_64"
            }
        );
        assert!(Platform::from_triple("wasm32-unknown-unknown").is_err());
        assert_eq!(
            godot_library_name(p("x86_64-pc-windows-msvc"), "release"),
            "vr_arms.windows.release.x86_64.dll"
        );
        assert_eq!(
            godot_library_name(p("aarch64-apple-darwin"), "debug"),
            "libvr_arms.macos.debug.aarch64.dylib"
        );
    }
}
