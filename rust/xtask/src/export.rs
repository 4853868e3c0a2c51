//! `cargo xtask export-test`: the demo exported as a pack (`--export-pack`) must contain every
//! TOML profile of the project, so `load_profile("res://...toml")` works in an exported game.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::engine::{prepare, run_captured};
use crate::repo_root;

pub fn run_export_test() -> Result<(), String> {
    let godot = prepare("demo_project")?;
    let project = repo_root().join("demo_project");
    let out_dir = repo_root().join("target/export");
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    let pack = out_dir.join("vr_arms_demo.pck");
    let _ = std::fs::remove_file(&pack);
    let mut cmd = godot.command(["--headless", "--xr-mode", "off", "--path"]);
    cmd.arg(&project)
        .arg("--export-pack")
        .arg("Linux")
        .arg(&pack);
    let run = run_captured(cmd, Duration::from_secs(300))?;
    let fatal = run.fatal_lines();
    if !run.success || !fatal.is_empty() {
        return Err(format!("--export-pack failed ({}): {fatal:?}", run.status));
    }
    let bytes = std::fs::read(&pack).map_err(|e| format!("no pack at {}: {e}", pack.display()))?;
    let mut profiles = Vec::new();
    collect_toml(&project, &project, &mut profiles);
    if profiles.is_empty() {
        return Err("the demo project has no TOML profile to check".into());
    }
    let missing = missing_from_pack(&bytes, &profiles);
    if missing.is_empty() {
        println!(
            "export: the exported pack holds all {} profiles ({})",
            profiles.len(),
            profiles
                .iter()
                .map(|(p, _)| p.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        Ok(())
    } else {
        Err(format!(
            "profiles missing from the exported pack: {missing:?}"
        ))
    }
}

/// `res://` paths (and contents) of the `*.toml` files under `dir`, hidden folders skipped.
fn collect_toml(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect_toml(root, &path, out);
        } else if name.ends_with(".toml")
            && let (Ok(rel), Ok(text)) = (path.strip_prefix(root), std::fs::read(&path))
        {
            out.push((format!("res://{}", rel.to_string_lossy()), text));
        }
    }
}

/// The profiles whose path or whole content is not in the pack (a pack stores both as they are).
fn missing_from_pack(pack: &[u8], profiles: &[(String, Vec<u8>)]) -> Vec<String> {
    let has = |needle: &[u8]| !needle.is_empty() && pack.windows(needle.len()).any(|w| w == needle);
    profiles
        .iter()
        .filter(|(path, text)| {
            let rel = path.trim_start_matches("res://").as_bytes();
            !(has(rel) && has(text))
        })
        .map(|(p, _)| p.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_counts_only_with_its_path_and_its_content() {
        let profiles = vec![("res://a/p.toml".to_string(), b"[x]\ny = 1\n".to_vec())];
        let pack = b"...a/p.toml...[x]\ny = 1\n...".to_vec();
        assert!(missing_from_pack(&pack, &profiles).is_empty());
        assert_eq!(
            missing_from_pack(b"...a/p.toml...", &profiles),
            vec!["res://a/p.toml"]
        );
        assert_eq!(
            missing_from_pack(b"[x]\ny = 1\n", &profiles),
            vec!["res://a/p.toml"]
        );
    }
}
