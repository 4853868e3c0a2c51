//! Instruction counts of the core bench under valgrind's callgrind: the total, and per function
//! the instructions spent in it and under it (inclusive) with how often it was called, read from
//! callgrind's own output file (no `callgrind_annotate` needed).

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// One function's share of a run: instructions in it and in what it called, and its calls, in
/// all and per caller.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Share {
    pub inclusive: u64,
    pub calls: u64,
    /// Per calling function: (instructions, calls).
    pub callers: HashMap<String, (u64, u64)>,
}

/// A run of `bin args` under callgrind: the instructions of the whole run and each function's
/// share (`None` when valgrind is missing or the run failed).
pub struct Profile {
    pub total: u64,
    pub functions: HashMap<String, Share>,
}

/// Runs `bin args` under callgrind into a file under `target/`, and reads it.
pub fn profile(bin: &Path, args: &[&str]) -> Option<Profile> {
    let out_file = crate::repo_root().join("target/callgrind.out");
    let status = Command::new("valgrind")
        .args(["--tool=callgrind", "--quiet"])
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg(bin)
        .args(args)
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    let text = std::fs::read_to_string(&out_file).ok()?;
    let _ = std::fs::remove_file(&out_file);
    parse(&text)
}

/// Reads callgrind's output format (compressed names, `calls=` lines followed by the call's
/// inclusive cost; the first event is the instruction count). Recursive calls would be counted
/// once per level; the core has none.
pub fn parse(text: &str) -> Option<Profile> {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut functions: HashMap<String, Share> = HashMap::new();
    let mut total = None;
    let mut caller = String::new();
    let mut callee: Option<String> = None;
    let mut pending_calls: Option<u64> = None;
    // "(12) name" names function 12; a later "(12)" refers to it.
    let mut name_of = |field: &str| -> String {
        let field = field.trim();
        match field.strip_prefix('(').and_then(|r| r.split_once(')')) {
            Some((id, rest)) if !rest.trim().is_empty() => {
                names.insert(id.to_string(), rest.trim().to_string());
                rest.trim().to_string()
            }
            Some((id, _)) => names.get(id).cloned().unwrap_or_default(),
            None => field.to_string(),
        }
    };
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("cfn=") {
            callee = Some(name_of(rest));
        } else if let Some(rest) = line.strip_prefix("fn=") {
            caller = name_of(rest);
        } else if let Some(rest) = line.strip_prefix("calls=") {
            pending_calls = rest.split_whitespace().next()?.parse().ok();
        } else if let Some(rest) = line
            .strip_prefix("summary:")
            .or(line.strip_prefix("totals:"))
        {
            total = rest.split_whitespace().next()?.parse().ok();
        } else if let Some(calls) = pending_calls.take() {
            // The line after `calls=`: a position, then the call's inclusive events.
            let cost: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            let share = functions
                .entry(callee.clone().unwrap_or_default())
                .or_default();
            share.inclusive += cost;
            share.calls += calls;
            let by = share.callers.entry(caller.clone()).or_default();
            by.0 += cost;
            by.1 += calls;
        }
    }
    Some(Profile {
        total: total?,
        functions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two callers of one function: its inclusive cost and calls add up; names given once by
    /// number are found again by it.
    #[test]
    fn a_functions_calls_and_inclusive_cost_add_up_over_its_callers() {
        let text = "events: Ir\nfn=(1) main\n0 10\ncfn=(2) solve\ncalls=3 0\n5 300\n\
                    fn=(3) other\n0 4\ncfn=(2)\ncalls=1 0\n+1 120\nsummary: 434\n";
        let p = parse(text).unwrap();
        assert_eq!(p.total, 434);
        let solve = &p.functions["solve"];
        assert_eq!((solve.inclusive, solve.calls), (420, 4));
        assert_eq!(solve.callers["main"], (300, 3));
        assert_eq!(solve.callers["other"], (120, 1));
        assert!(!p.functions.contains_key("main"));
    }
}
