//! `cargo xtask package`: the addon as a user installs it. A debug and a release build of the
//! extension for Linux x86_64 and for Windows x86_64, each stripped with its debug information
//! split off beside it in `target/package/debug/`, placed in `addons/vr_arms/bin/`, and
//! `target/package/vr_arms-VERSION.zip` laid out for the Asset Library: `addons/vr_arms/` with
//! the LICENSE, the addon README, the plugin, icons, profiles and the libraries.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::build::{build_extension, build_extension_for, install_library};
use crate::{repo_root, run};

/// The version in the zip's name (the workspace's).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `cargo xtask package`: builds, strips and zips; returns the zip's path. The Linux x86_64 and
/// Windows x86_64 libraries are built here (debug and release). With `all_platforms` (the
/// release workflow, which downloads the other platforms' libraries into `bin/` first) the
/// Windows and every other library the `.gdextension` names are taken from `bin/` instead, and
/// each must be there. Every library is checked against its entry before it is zipped.
pub fn run_package(all_platforms: bool) -> Result<PathBuf, String> {
    let out = repo_root().join("target/package");
    let debug_dir = out.join("debug");
    std::fs::create_dir_all(&debug_dir)
        .map_err(|e| format!("cannot create {}: {e}", debug_dir.display()))?;
    let mut libraries = Vec::new();
    for release in [false, true] {
        let lib = build_extension(release)?;
        split_debug_info(&lib, &debug_dir, None)?;
        libraries.push(lib);
    }
    let bin = repo_root().join("addons/vr_arms/bin");
    let named = crate::libraries::entries(
        &std::fs::read_to_string(repo_root().join("addons/vr_arms/vr_arms.gdextension"))
            .map_err(|e| e.to_string())?,
    );
    if all_platforms {
        for entry in &named {
            let path = bin.join(&entry.file);
            if libraries.contains(&path) {
                continue;
            }
            if !path.exists() {
                return Err(format!(
                    "{} is not in addons/vr_arms/bin (--all-platforms takes every library the .gdextension names)",
                    entry.file
                ));
            }
            libraries.push(path);
        }
    } else {
        let objcopy = crate::windows::Toolchain::provision()?
            .wrap
            .join("bin/x86_64-w64-mingw32-objcopy");
        for release in [false, true] {
            let lib = build_extension_for(release, Some(crate::windows::TARGET))?;
            split_debug_info(&lib, &debug_dir, Some(&objcopy))?;
            libraries.push(lib);
        }
    }
    let mut problems = Vec::new();
    for lib in &libraries {
        let name = lib.file_name().unwrap_or_default().to_string_lossy();
        let Some(entry) = named.iter().find(|e| e.file == name) else {
            return Err(format!("{name} is not named in the .gdextension"));
        };
        let bytes =
            std::fs::read(lib).map_err(|e| format!("cannot read {}: {e}", lib.display()))?;
        problems.extend(crate::libraries::format_problems(entry, &bytes));
    }
    if !problems.is_empty() {
        return Err(problems.join("; "));
    }
    let zip = zip_path();
    write_zip(&zip, &libraries)?;
    for lib in &libraries {
        let size = std::fs::metadata(lib).map(|m| m.len()).unwrap_or(0);
        println!(
            "package: {} ({:.1} MB)",
            lib.display(),
            size as f64 / 1_048_576.0
        );
    }
    println!("package: {}", zip.display());
    Ok(zip)
}

/// The release zip `cargo xtask package` writes.
pub fn zip_path() -> PathBuf {
    repo_root().join(format!("target/package/vr_arms-{VERSION}.zip"))
}

/// Strips `lib` in place (through a renamed copy, so an open editor is not crashed), its debug
/// information kept in `debug_dir` and linked from the library (`gdb` and `perf` find it there).
/// On Linux and Android builds with binutils' `objcopy` (`objcopy`: another one, the MinGW
/// one for a Windows library); elsewhere the library stays as built, and says so.
fn split_debug_info(lib: &Path, debug_dir: &Path, objcopy: Option<&Path>) -> Result<(), String> {
    if !cfg!(target_os = "linux") {
        eprintln!(
            "xtask: {} not stripped: only Linux builds are stripped here (docs/install.md)",
            lib.display()
        );
        return Ok(());
    }
    let name = lib
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("odd library path {}", lib.display()))?;
    let debug = debug_dir.join(format!("{name}.debug"));
    let stripped = debug_dir.join(format!("{name}.stripped"));
    let objcopy = || match objcopy {
        Some(p) => Command::new(p),
        None => Command::new(std::env::var("OBJCOPY").unwrap_or_else(|_| "objcopy".into())),
    };
    run(objcopy().arg("--only-keep-debug").arg(lib).arg(&debug))?;
    // The link names the debug file by its file name (found beside the library or in
    // target/package/debug by `gdb -iex "set debug-file-directory ..."`).
    run(objcopy()
        .current_dir(debug_dir)
        .arg("--strip-debug")
        .arg("--strip-unneeded")
        .arg(format!("--add-gnu-debuglink={name}.debug"))
        .arg(lib)
        .arg(&stripped))?;
    install_library(&stripped, lib)?;
    std::fs::remove_file(&stripped).map_err(|e| e.to_string())?;
    Ok(())
}

/// Files of the addon folder that go into the zip: everything but `bin/` (whose libraries are
/// `libraries`, just built) and editor leftovers.
fn addon_files(addon: &Path) -> Result<Vec<PathBuf>, String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            if name.starts_with('.') || name.ends_with(".tmp") {
                continue;
            }
            if path.is_dir() {
                walk(&path, out)?;
            } else {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(addon, &mut files)?;
    let bin = addon.join("bin");
    files.retain(|f| !f.starts_with(&bin));
    files.sort();
    Ok(files)
}

/// Writes the Asset Library zip: `addons/vr_arms/...`, the repository's LICENSE as
/// `addons/vr_arms/LICENSE`, and `libraries` under `addons/vr_arms/bin/`.
fn write_zip(zip_path: &Path, libraries: &[PathBuf]) -> Result<(), String> {
    let root = repo_root();
    let addon = root.join("addons/vr_arms");
    let mut entries: Vec<(String, PathBuf)> = addon_files(&addon)?
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(&addon).unwrap_or(&f).to_string_lossy();
            (format!("addons/vr_arms/{}", rel.replace('\\', "/")), f)
        })
        .collect();
    entries.push(("addons/vr_arms/LICENSE".into(), root.join("LICENSE")));
    for lib in libraries {
        let name = lib.file_name().unwrap_or_default().to_string_lossy();
        entries.push((format!("addons/vr_arms/bin/{name}"), lib.clone()));
    }
    let tmp = zip_path.with_extension("zip.tmp");
    let file =
        std::fs::File::create(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .unix_permissions(0o644);
    for (name, path) in &entries {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        zip.start_file(name.as_str(), options)
            .and_then(|_| zip.write_all(&bytes).map_err(Into::into))
            .map_err(|e| format!("cannot write {name} into the zip: {e}"))?;
    }
    zip.finish()
        .map_err(|e| format!("cannot finish {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, zip_path).map_err(|e| e.to_string())?;
    Ok(())
}

/// Unpacks `zip_path` into `dest` (which must be a fresh folder): what a user does with the
/// release zip. Refuses entries that would land outside `dest`.
pub fn unzip_into(zip_path: &Path, dest: &Path) -> Result<Vec<String>, String> {
    let file = std::fs::File::open(zip_path)
        .map_err(|e| format!("cannot open {}: {e}", zip_path.display()))?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| e.to_string())?;
    let mut names = Vec::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(|e| e.to_string())?;
        let Some(rel) = entry.enclosed_name() else {
            return Err(format!("{} has an unsafe path", entry.name()));
        };
        let out = dest.join(rel);
        if let Some(parent) = out.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        let mut f = std::fs::File::create(&out)
            .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
        std::io::copy(&mut entry, &mut f).map_err(|e| e.to_string())?;
        names.push(entry.name().to_string());
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_addon_files_leave_out_bin_and_hidden_files() {
        let dir = std::env::temp_dir().join(format!("vr_arms_pkg_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for f in [
            "plugin.cfg",
            "bin/libx.so",
            "icons/a.svg",
            ".hidden",
            "bin.tmp",
        ] {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, b"x").unwrap();
        }
        let files: Vec<String> = addon_files(&dir)
            .unwrap()
            .iter()
            .map(|f| f.strip_prefix(&dir).unwrap().to_string_lossy().to_string())
            .collect();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(files, vec!["icons/a.svg", "plugin.cfg"]);
    }
}
