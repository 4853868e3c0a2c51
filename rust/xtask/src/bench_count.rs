//! `cargo xtask bench --count` and the instruction part of `cargo xtask bench`: the core's
//! instructions per full-avatar frame under callgrind, against the target, and where they go.

use crate::build::build_core_bench;
use crate::callgrind;
use crate::repo_root;

/// Frames run under callgrind for the per-frame instruction count.
const COUNTED_FRAMES: usize = 1000;

/// The core's instruction counts: per full-avatar frame and per lower-body frame, and the text
/// of docs/performance.md about them (the count, then where the instructions go).
pub fn instruction_counts(bin: &std::path::Path) -> (Option<f64>, Option<f64>, String) {
    let frames = COUNTED_FRAMES.to_string();
    let run = |lower: bool| {
        let extra: &[&str] = if lower { &["--lower"] } else { &[] };
        let base = callgrind::profile(bin, &[&["--frames", "0"], extra].concat())?;
        let counted = callgrind::profile(bin, &[&["--frames", frames.as_str()], extra].concat())?;
        Some((base, counted))
    };
    let (Some((base, full)), Some((lower_base, lower))) = (run(false), run(true)) else {
        return (
            None,
            None,
            "valgrind is not installed here: no instruction count.\n".into(),
        );
    };
    let (per, per_lower) = (
        per_frame(base.total, full.total),
        per_frame(lower_base.total, lower.total),
    );
    println!("instructions per full-avatar frame: {per:.0}; lower body alone: {per_lower:.0}");
    let met = if per <= INSTRUCTIONS_TARGET {
        "met".to_string()
    } else {
        format!("**not met**: {:.1}x the target", per / INSTRUCTIONS_TARGET)
    };
    let text = format!(
        "{INSTRUCTIONS_START} (valgrind callgrind, `vr_arms_bench --frames {COUNTED_FRAMES}` minus `--frames 0`, divided by {COUNTED_FRAMES}): **{per:.0}** (target {INSTRUCTIONS_TARGET:.0}: {met}); of the lower body alone (`--lower`, the same way): **{per_lower:.0}**. Unlike times, these counts repeat exactly on a busy machine. `cargo xtask bench --count` makes this part of the page alone, in a few minutes.\n\n{}",
        where_instructions_go(&base, &full, per)
    );
    (Some(per), Some(per_lower), text)
}

/// A count's share of one counted frame: `after` (the counted run) minus `before` (the run of
/// no frames, the program's own start), divided by the frames.
fn per_frame(before: u64, after: u64) -> f64 {
    after.saturating_sub(before) as f64 / COUNTED_FRAMES as f64
}

/// The instruction count the core's full avatar frame must come within.
const INSTRUCTIONS_TARGET: f64 = 12_000.0;

/// How the instruction paragraph starts (`cargo xtask bench --count` replaces it and the table
/// after it, up to the next section).
const INSTRUCTIONS_START: &str = "Instructions per full-avatar frame";

/// The maths library's entry points for the transcendental functions the core calls.
const LIBM_ENTRIES: [&str; 12] = [
    "atan2f",
    "atanf",
    "__sincosf_fma",
    "sincosf",
    "__sinf_fma",
    "__cosf_fma",
    "expf",
    "__expf_fma",
    "acosf",
    "asinf",
    "__acosf_finite",
    "__asinf_finite",
];

/// A function's share of the frame below which the table leaves it out.
const SHOWN_SHARE: f64 = 0.015;

/// The table of where a full-avatar frame's instructions go: each function of the core (and of
/// the maths library) with at least `SHOWN_SHARE` of the frame, per frame, with its calls.
fn where_instructions_go(base: &callgrind::Profile, run: &callgrind::Profile, per: f64) -> String {
    let mut rows: Vec<(String, f64, f64)> = run
        .functions
        .iter()
        .filter(|(name, _)| {
            // The bench's own frame and the program's entry are the whole frame: not shown.
            !name.contains("vr_arms_bench")
                && !name.starts_with("std::")
                && !name.starts_with("__libc_start")
                && !name.contains('(')
                && name.as_str() != "main"
        })
        .map(|(name, share)| {
            let before = base.functions.get(name).cloned().unwrap_or_default();
            (
                name.clone(),
                per_frame(before.inclusive, share.inclusive),
                per_frame(before.calls, share.calls),
            )
        })
        .filter(|(_, instructions, _)| *instructions >= SHOWN_SHARE * per)
        .collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    // The maths library's transcendental functions as the core calls them (so that a wrapper
    // and what it calls count once), and the tree's global poses worked out from the local ones.
    let share_of = |pick: &dyn Fn(&str) -> bool| {
        let (mut instructions, mut calls) = (0.0, 0.0);
        for (name, share) in run.functions.iter().filter(|(name, _)| pick(name)) {
            let before = base.functions.get(name).cloned().unwrap_or_default();
            for (caller, (i, c)) in &share.callers {
                if caller.contains("vr_arms") {
                    let (bi, bc) = before.callers.get(caller).copied().unwrap_or_default();
                    instructions += per_frame(bi, *i);
                    calls += per_frame(bc, *c);
                }
            }
        }
        (instructions / per * 100.0, calls)
    };
    let (libm, libm_calls) = share_of(&|name| LIBM_ENTRIES.contains(&name));
    let (tree, tree_calls) =
        share_of(&|name| name == "vr_arms_core::maths::pose_tree::PoseTree::refresh");
    let mut table = format!(
        "### Where the core's instructions go\n\nFrom the same callgrind run: each function with at least {:.1} % of the frame, the instructions spent in it and in what it calls (so the rows overlap: a stage includes the tree updates and maths it calls), per frame, and its calls per frame. Functions the compiler inlined count in their caller. The maths library's transcendental functions (atan2, sin and cos, exp, acos, asin, atan) take {libm:.0} % of the frame ({libm_calls:.0} calls); working out the tree's global poses from its local ones (`PoseTree::refresh`, {tree_calls:.1} calls: for the frame's starting pose, then below each bone written when one under it is read) {tree:.0} %; the rest is the stages' own arithmetic and the copies of their inputs and outputs.\n\n| function | instructions a frame | share | calls a frame |\n|---|---|---|---|\n",
        SHOWN_SHARE * 100.0
    );
    for (name, instructions, calls) in rows {
        let short = name.trim_start_matches("vr_arms_core::");
        table += &format!(
            "| `{short}` | {instructions:.0} | {:.0} % | {calls:.1} |\n",
            instructions / per * 100.0
        );
    }
    table
}

/// docs/performance.md's `text` with its instruction paragraph and table (up to the next `## `
/// section) replaced by `section`.
fn with_instructions(text: &str, section: &str) -> Result<String, String> {
    let start = text
        .find(INSTRUCTIONS_START)
        .ok_or("docs/performance.md has no instruction paragraph: run `cargo xtask bench`")?;
    let end = text[start..]
        .find("\n## ")
        .map_or(text.len(), |at| start + at + 1);
    Ok(format!("{}{}\n{}", &text[..start], section, &text[end..]))
}

/// `cargo xtask bench --count`: only the core's instruction counts (release build, valgrind),
/// printed and written in docs/performance.md (the rest of the page is left as it is).
pub fn run_counts() -> Result<(), String> {
    let bin = build_core_bench()?;
    let (Some(_), _, section) = instruction_counts(&bin) else {
        return Err("valgrind is needed to count instructions".into());
    };
    let doc = repo_root().join("docs/performance.md");
    let text = std::fs::read_to_string(&doc).map_err(|e| format!("{}: {e}", doc.display()))?;
    std::fs::write(&doc, with_instructions(&text, &section)?)
        .map_err(|e| format!("{}: {e}", doc.display()))?;
    eprintln!("xtask: wrote the instruction counts in {}", doc.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paragraph and its table are replaced up to the next section; what is before and
    /// after stays as it was; a page without the paragraph is an error.
    #[test]
    fn the_count_replaces_only_its_part_of_the_page() {
        let page = format!(
            "# Performance\n\n| core |\n\n{INSTRUCTIONS_START}: **9**.\n\n### Where\n\n| old |\n\n## Floor\n\nkept\n"
        );
        let new = format!("{INSTRUCTIONS_START}: **7**.\n\n### Where\n\n| new |\n");
        let out = with_instructions(&page, &new).unwrap();
        assert_eq!(
            out,
            format!(
                "# Performance\n\n| core |\n\n{INSTRUCTIONS_START}: **7**.\n\n### Where\n\n| new |\n\n## Floor\n\nkept\n"
            )
        );
        assert!(with_instructions("# Performance\n", &new).is_err());
    }
}
