//! `cargo xtask mutants [files...]`: mutation testing of the core with cargo-mutants (installed
//! from crates.io when missing), scored per file into docs/testing.md. Too slow for the test
//! command (about 1,600 mutants over the whole core), so it is run on its own.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::{repo_root, run};

/// What cargo-mutants concluded about the mutants of one file.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FileScore {
    pub caught: u32,
    pub missed: u32,
    pub timeout: u32,
    pub unviable: u32,
}

impl FileScore {
    /// Viable mutants: those that built (caught, missed or timed out).
    pub fn viable(&self) -> u32 {
        self.caught + self.missed + self.timeout
    }

    /// Caught share of the viable mutants (a timeout counts as caught: the mutant broke the
    /// code badly enough to hang a test).
    pub fn score(&self) -> f64 {
        if self.viable() == 0 {
            1.0
        } else {
            f64::from(self.caught + self.timeout) / f64::from(self.viable())
        }
    }
}

pub fn run_mutants(check_only: bool, files: &[String], since: Option<&str>) -> Result<(), String> {
    let root = repo_root();
    let have = Command::new("cargo")
        .args(["mutants", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        run(Command::new("cargo").args(["install", "--locked", "cargo-mutants"]))?;
    }
    let config = std::fs::read_to_string(root.join(".cargo/mutants.toml")).unwrap_or_default();
    let excluded = exclusions(&config);
    let stale = stale_exclusions(&root, &excluded)?;
    if !stale.is_empty() {
        return Err(format!(
            "these exclusions in .cargo/mutants.toml do not match exactly one mutant (the code moved?): {}",
            stale.join("; ")
        ));
    }
    if check_only {
        println!(
            "mutants: all {} exclusions match exactly one mutant",
            excluded.len()
        );
        return Ok(());
    }
    let out_dir = root.join("target/mutants");
    let mut cmd = Command::new("cargo");
    cmd.current_dir(&root).args([
        "mutants",
        "--package",
        "vr_arms_core",
        "--jobs",
        "2",
        "--no-shuffle",
        "--output",
    ]);
    cmd.arg(&out_dir);
    for f in files {
        cmd.arg("--file").arg(f);
    }
    // Only the lines changed since `since` (renamed files count by their changed lines).
    if let Some(rev) = since {
        let diff = Command::new("git")
            .current_dir(&root)
            .args(["diff", "-M", rev, "HEAD", "--", "rust/vr_arms_core/src"])
            .output()
            .map_err(|e| format!("cannot start git: {e}"))?;
        if !diff.status.success() {
            return Err(format!(
                "git diff {rev} failed: {}",
                String::from_utf8_lossy(&diff.stderr)
            ));
        }
        let path = root.join("target/mutants.diff");
        std::fs::create_dir_all(root.join("target")).map_err(|e| e.to_string())?;
        std::fs::write(&path, &diff.stdout).map_err(|e| e.to_string())?;
        cmd.arg("--in-diff").arg(&path);
    }
    // cargo-mutants exits non-zero when mutants are missed: that is a result, not a failure.
    eprintln!("xtask: running {cmd:?}");
    let status = cmd
        .status()
        .map_err(|e| format!("cannot start cargo mutants: {e}"))?;
    // 0: all caught, 2: some missed, 3: some timed out; anything else (a usage error, a failed
    // baseline, a run stopped by a signal) leaves results that are not the whole run.
    if !matches!(status.code(), Some(0 | 2 | 3)) {
        return Err(format!(
            "cargo mutants did not finish ({status}): docs/testing.md left as it was"
        ));
    }
    let results = out_dir.join("mutants.out");
    if !results.join("caught.txt").exists() {
        return Err(format!("cargo mutants wrote no results ({status})"));
    }
    let scores = read_scores(&results)?;
    let mut what = if files.is_empty() {
        "the whole core".to_string()
    } else {
        files.join(", ")
    };
    if let Some(rev) = since {
        what = format!("the lines of {what} changed since {rev}");
    }
    let missed = std::fs::read_to_string(results.join("missed.txt")).unwrap_or_default();
    let page = render(&scores, &excluded, &what, files, since, &missed);
    std::fs::write(root.join("docs/testing.md"), &page).map_err(|e| e.to_string())?;
    let total = total(&scores);
    println!(
        "mutants: {} of {} viable caught ({:.1} %) over {what}; docs/testing.md written",
        total.caught + total.timeout,
        total.viable(),
        total.score() * 100.0
    );
    Ok(())
}

/// The exclusion patterns that do not match exactly one mutant of the core: each one must name
/// the one mutant its reason is about (they name lines, which move when the code does).
fn stale_exclusions(root: &Path, excluded: &[(String, String)]) -> Result<Vec<String>, String> {
    let count = |exclude: Option<&str>| -> Result<usize, String> {
        let mut cmd = Command::new("cargo");
        cmd.current_dir(root).args([
            "mutants",
            "--package",
            "vr_arms_core",
            "--list",
            "--no-config",
        ]);
        if let Some(p) = exclude {
            cmd.args(["--exclude-re", p]);
        }
        let out = cmd
            .output()
            .map_err(|e| format!("cannot start cargo mutants: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "cargo mutants --list failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).lines().count())
    };
    let all = count(None)?;
    let mut stale = Vec::new();
    for (pattern, _) in excluded {
        let matched = all - count(Some(pattern))?;
        if matched != 1 {
            stale.push(format!("{pattern} (matches {matched})"));
        }
    }
    Ok(stale)
}

/// Scores per file from cargo-mutants' `caught.txt`, `missed.txt`, `timeout.txt` and
/// `unviable.txt` (one mutant a line, `path:line:column: description`).
pub fn read_scores(dir: &Path) -> Result<BTreeMap<String, FileScore>, String> {
    let mut scores: BTreeMap<String, FileScore> = BTreeMap::new();
    for (name, field) in [
        ("caught.txt", 0),
        ("missed.txt", 1),
        ("timeout.txt", 2),
        ("unviable.txt", 3),
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        tally(&text, field, &mut scores);
    }
    Ok(scores)
}

fn tally(text: &str, field: u8, scores: &mut BTreeMap<String, FileScore>) {
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let file = line.split(':').next().unwrap_or("").to_string();
        let s = scores.entry(file).or_default();
        match field {
            0 => s.caught += 1,
            1 => s.missed += 1,
            2 => s.timeout += 1,
            _ => s.unviable += 1,
        }
    }
}

fn total(scores: &BTreeMap<String, FileScore>) -> FileScore {
    scores
        .values()
        .fold(FileScore::default(), |a, s| FileScore {
            caught: a.caught + s.caught,
            missed: a.missed + s.missed,
            timeout: a.timeout + s.timeout,
            unviable: a.unviable + s.unviable,
        })
}

/// The excluded patterns of `.cargo/mutants.toml`, each with the comment line above it (its
/// reason).
pub fn exclusions(config: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut reason = String::new();
    let mut in_list = false;
    for line in config.lines() {
        let t = line.trim();
        if t.starts_with("exclude_re") {
            in_list = true;
            continue;
        }
        if !in_list {
            continue;
        }
        if t.starts_with(']') {
            in_list = false;
        } else if let Some(r) = t.strip_prefix('#') {
            // A reason holds for every pattern below it, up to the next comment.
            reason = r.trim().to_string();
        } else if let Some(pattern) = t.strip_prefix('"') {
            let pattern = pattern.trim_end_matches(',').trim_end_matches('"');
            out.push((pattern.replace("\\\\", "\\"), reason.clone()));
        }
    }
    out
}

fn render(
    scores: &BTreeMap<String, FileScore>,
    excluded: &[(String, String)],
    what: &str,
    files: &[String],
    since: Option<&str>,
    missed: &str,
) -> String {
    let total = total(scores);
    let mut command = "cargo xtask mutants".to_string();
    if let Some(rev) = since {
        command += &format!(" --since {rev}");
    }
    for f in files {
        command += &format!(" {f}");
    }
    let mut s = format!(
        "# Testing\n\nGenerated by `{command}`: cargo-mutants changes the core's code one operator or function body at a time and reruns the core's unit and integration tests (`cargo test -p vr_arms_core --lib --tests`); a mutant the tests still pass is *missed*. Score = caught (and timed-out) mutants over viable ones (those that build), over {what}.\n\n**{} of {} viable mutants caught ({:.1} %)**; {} missed, {} unviable.\n\n| file | viable | caught | missed | timeout | score |\n|---|---|---|---|---|---|\n",
        total.caught + total.timeout,
        total.viable(),
        total.score() * 100.0,
        total.missed,
        total.unviable
    );
    for (file, f) in scores {
        s += &format!(
            "| `{file}` | {} | {} | {} | {} | {:.1} % |\n",
            f.viable(),
            f.caught,
            f.missed,
            f.timeout,
            f.score() * 100.0
        );
    }
    let missed: Vec<&str> = missed.lines().filter(|l| !l.trim().is_empty()).collect();
    s += &format!(
        "\n## Missed mutants\n\nThe {} mutants the tests did not catch (file:line:column: change):\n\n",
        missed.len()
    );
    for m in &missed {
        s += &format!("- `{}`\n", m.trim());
    }
    s += "\n## Excluded mutants\n\n";
    if excluded.is_empty() {
        s += "None: `.cargo/mutants.toml` excludes nothing.\n";
    } else {
        s += "Only mutants that cannot change behaviour are excluded, in `.cargo/mutants.toml`, each with its reason. A pattern names a line, so the command first checks that every pattern still matches a mutant and stops if one does not:\n\n| pattern | reason |\n|---|---|\n";
        for (p, r) in excluded {
            s += &format!("| `{}` | {r} |\n", p.replace('|', "\\|"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_count_timeouts_as_caught_and_skip_unviable() {
        let mut scores = BTreeMap::new();
        tally("a.rs:1:1: x\na.rs:2:1: y\nb.rs:1:1: z\n", 0, &mut scores);
        tally("a.rs:3:1: w\n", 1, &mut scores);
        tally("b.rs:9:1: t\n", 2, &mut scores);
        tally("a.rs:4:1: u\n\n", 3, &mut scores);
        let a = scores["a.rs"];
        assert_eq!((a.caught, a.missed, a.unviable, a.viable()), (2, 1, 1, 3));
        assert!((a.score() - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(scores["b.rs"].score(), 1.0);
        let t = total(&scores);
        assert_eq!((t.caught, t.missed, t.timeout, t.unviable), (3, 1, 1, 1));
    }

    #[test]
    fn exclusions_carry_their_reasons() {
        let config = "exclude_re = [\n  # equality cannot occur: both sides are finite and apart\n  \"reach_clamp.rs.*< with <=\",\n]\nother = 1\n";
        assert_eq!(
            exclusions(config),
            vec![(
                "reach_clamp.rs.*< with <=".to_string(),
                "equality cannot occur: both sides are finite and apart".to_string()
            )]
        );
        assert!(exclusions("").is_empty());
        // A reason holds for every pattern below it, up to the next comment.
        let two = "exclude_re = [\n  # same point\n  \"a\\\\.rs:1\",\n  \"b\\\\.rs:2\",\n  # other\n  \"c\",\n]\n";
        let got = exclusions(two);
        let want: Vec<(String, String)> = [
            ("a\\.rs:1", "same point"),
            ("b\\.rs:2", "same point"),
            ("c", "other"),
        ]
        .iter()
        .map(|(p, r)| (p.to_string(), r.to_string()))
        .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn the_page_lists_scores_missed_mutants_and_exclusions() {
        let mut scores = BTreeMap::new();
        tally("a.rs:1:1: x\n", 0, &mut scores);
        tally("a.rs:2:1: y\n", 1, &mut scores);
        let excluded = vec![("^a\\.rs:3:1: z$".to_string(), "never differs".to_string())];
        let page = render(
            &scores,
            &excluded,
            "the whole core",
            &[],
            None,
            "a.rs:2:1: y\n",
        );
        assert!(
            page.contains("**1 of 2 viable mutants caught (50.0 %)**"),
            "{page}"
        );
        assert!(
            page.contains("| `a.rs` | 2 | 1 | 1 | 0 | 50.0 % |"),
            "{page}"
        );
        assert!(
            page.contains("The 1 mutants the tests did not catch"),
            "{page}"
        );
        assert!(page.contains("- `a.rs:2:1: y`"), "{page}");
        assert!(
            page.contains("| `^a\\.rs:3:1: z$` | never differs |"),
            "{page}"
        );
        assert!(
            page.starts_with("# Testing\n\nGenerated by `cargo xtask mutants`"),
            "{page}"
        );
    }
}
