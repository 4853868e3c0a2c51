//! `cargo xtask`'s command line, parsed with lexopt into one [`Task`].

use lexopt::prelude::*;

/// Every command, as typed after `cargo xtask`.
pub const COMMANDS: [&str; 23] = [
    "help",
    "build",
    "godot",
    "demo",
    "test",
    "engine-test",
    "render-test",
    "strips",
    "avatar-test",
    "xr-test",
    "soak",
    "hot-reload-test",
    "export-test",
    "package",
    "package-test",
    "mutants",
    "actionlint",
    "test-windows",
    "net-test",
    "net-bench",
    "eval",
    "bench",
    "fuzz",
];

/// What `cargo xtask` was asked to do.
#[derive(Debug, PartialEq)]
pub enum Task {
    Help,
    Build {
        release: bool,
        target: Option<String>,
    },
    Godot,
    /// `filter`: only tests whose name contains it.
    EngineTest {
        filter: Option<String>,
    },
    /// `godot_args`: what follows `--`, handed to the demo.
    Demo {
        headless: bool,
        godot_args: Vec<String>,
    },
    RenderTest,
    /// `sit`: also render this clip of sitting down and standing up.
    Strips {
        sit: Option<String>,
    },
    /// `docs`: also write the pictures into docs/images/avatars.
    AvatarTest {
        docs: bool,
    },
    XrTest,
    Soak {
        seconds: u32,
    },
    HotReloadTest,
    ExportTest,
    /// `all_platforms`: the other platforms' libraries taken from `bin/` (the release workflow).
    Package {
        all_platforms: bool,
    },
    /// `libraries_only`: only the zip's libraries checked, every platform's (no Godot run).
    PackageTest {
        libraries_only: bool,
    },
    /// `check`: only check the exclusions; `files`: only these files; `since`: only the lines
    /// changed since this revision.
    Mutants {
        check: bool,
        files: Vec<String>,
        since: Option<String>,
    },
    Actionlint,
    TestWindows,
    NetTest,
    NetBench,
    Test {
        filter: Option<String>,
    },
    /// Arguments handed to `vr_arms_eval` as they are (none: regenerate docs/evaluation.md).
    Eval {
        args: Vec<String>,
    },
    /// `part`: everything, or only the crowd scene or only the instruction counts.
    Bench {
        json: Option<String>,
        part: BenchPart,
    },
    Fuzz {
        frames: u64,
    },
}

/// What `cargo xtask bench` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchPart {
    /// The core, the engine scenes and the crowd (about an hour here).
    All,
    /// `--crowd`: only the crowd scene.
    Crowd,
    /// `--count`: only the core's instruction counts (valgrind; a few minutes).
    Count,
}

/// The task `args` (without the program name) ask for.
pub fn parse(args: &[String]) -> Result<Task, String> {
    parse_lexopt(args).map_err(|e| e.to_string())
}

fn parse_lexopt(args: &[String]) -> Result<Task, lexopt::Error> {
    let mut p = lexopt::Parser::from_args(args);
    let command = match p.next()? {
        None => return Ok(Task::Help),
        Some(Value(v)) => v.string()?,
        Some(Short('h')) | Some(Long("help")) => return Ok(Task::Help),
        Some(other) => return Err(other.unexpected()),
    };
    let task = match command.as_str() {
        "help" => Task::Help,
        "build" => {
            let (mut release, mut target) = (false, None);
            while let Some(arg) = p.next()? {
                match arg {
                    Long("release") => release = true,
                    Long("target") => target = Some(p.value()?.string()?),
                    _ => return Err(arg.unexpected()),
                }
            }
            Task::Build { release, target }
        }
        "engine-test" | "test" => {
            let filter = match p.next()? {
                Some(Value(v)) => Some(v.string()?),
                Some(other) => return Err(other.unexpected()),
                None => None,
            };
            if let Some(arg) = p.next()? {
                return Err(arg.unexpected());
            }
            if command == "test" {
                Task::Test { filter }
            } else {
                Task::EngineTest { filter }
            }
        }
        "demo" => {
            let (mut headless, mut godot_args) = (false, Vec::new());
            while let Some(arg) = p.next()? {
                match arg {
                    Long("headless") => headless = true,
                    // Everything after `--` is the demo's.
                    Value(v) => godot_args.push(v.string()?),
                    _ => return Err(arg.unexpected()),
                }
            }
            Task::Demo {
                headless,
                godot_args,
            }
        }
        "soak" => Task::Soak {
            seconds: optional_number(&mut p, 600)?,
        },
        "fuzz" => Task::Fuzz {
            frames: optional_number(&mut p, 10_000_000)?,
        },
        "mutants" => {
            let (mut check, mut files, mut since) = (false, Vec::new(), None);
            while let Some(arg) = p.next()? {
                match arg {
                    Long("check") => check = true,
                    Long("since") => since = Some(p.value()?.string()?),
                    Value(v) => files.push(v.string()?),
                    _ => return Err(arg.unexpected()),
                }
            }
            Task::Mutants {
                check,
                files,
                since,
            }
        }
        "bench" => {
            let (mut json, mut part) = (None, BenchPart::All);
            while let Some(arg) = p.next()? {
                match arg {
                    Long("json") => json = Some(p.value()?.string()?),
                    Long("crowd") => part = BenchPart::Crowd,
                    Long("count") => part = BenchPart::Count,
                    _ => return Err(arg.unexpected()),
                }
            }
            if part == BenchPart::Count && json.is_some() {
                return Err("bench --count writes no JSON (only docs/performance.md)".into());
            }
            Task::Bench { json, part }
        }
        "strips" => {
            let mut sit = None;
            while let Some(arg) = p.next()? {
                match arg {
                    Long("sit") => sit = Some(p.value()?.string()?),
                    _ => return Err(arg.unexpected()),
                }
            }
            Task::Strips { sit }
        }
        "avatar-test" => {
            let mut docs = false;
            while let Some(arg) = p.next()? {
                match arg {
                    Long("docs") => docs = true,
                    _ => return Err(arg.unexpected()),
                }
            }
            Task::AvatarTest { docs }
        }
        "eval" => Task::Eval {
            args: p
                .raw_args()?
                .map(|a| a.into_string().map_err(lexopt::Error::from))
                .collect::<Result<_, _>>()?,
        },
        "package" | "package-test" => {
            let mut flag = false;
            let wanted = if command == "package" {
                "all-platforms"
            } else {
                "libraries-only"
            };
            while let Some(arg) = p.next()? {
                match arg {
                    Long(f) if f == wanted => flag = true,
                    _ => return Err(arg.unexpected()),
                }
            }
            if command == "package" {
                Task::Package {
                    all_platforms: flag,
                }
            } else {
                Task::PackageTest {
                    libraries_only: flag,
                }
            }
        }
        simple => {
            if let Some(arg) = p.next()? {
                return Err(arg.unexpected());
            }
            match simple {
                "godot" => Task::Godot,
                "render-test" => Task::RenderTest,
                "xr-test" => Task::XrTest,
                "hot-reload-test" => Task::HotReloadTest,
                "export-test" => Task::ExportTest,
                "actionlint" => Task::Actionlint,
                "test-windows" => Task::TestWindows,
                "net-test" => Task::NetTest,
                "net-bench" => Task::NetBench,
                other => {
                    return Err(format!(
                        "unknown command `{other}` (one of: {})",
                        COMMANDS.join(", ")
                    )
                    .into());
                }
            }
        }
    };
    Ok(task)
}

/// One optional number argument (`default` without it).
fn optional_number<T: std::str::FromStr>(
    p: &mut lexopt::Parser,
    default: T,
) -> Result<T, lexopt::Error>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let n = match p.next()? {
        Some(Value(v)) => v.parse()?,
        Some(other) => return Err(other.unexpected()),
        None => default,
    };
    if let Some(arg) = p.next()? {
        return Err(arg.unexpected());
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(line: &str) -> Result<Task, String> {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&args)
    }

    #[test]
    fn commands_parse_into_their_tasks() {
        assert_eq!(task(""), Ok(Task::Help));
        assert_eq!(
            task("build --release --target aarch64-linux-android"),
            Ok(Task::Build {
                release: true,
                target: Some("aarch64-linux-android".into())
            })
        );
        assert_eq!(
            task("engine-test test_one_body"),
            Ok(Task::EngineTest {
                filter: Some("test_one_body".into())
            })
        );
        assert_eq!(
            task("demo --headless -- --character=x.glb --autopilot"),
            Ok(Task::Demo {
                headless: true,
                godot_args: vec!["--character=x.glb".into(), "--autopilot".into()]
            })
        );
        assert_eq!(task("soak 30"), Ok(Task::Soak { seconds: 30 }));
        assert_eq!(task("fuzz"), Ok(Task::Fuzz { frames: 10_000_000 }));
        assert_eq!(
            task("eval --json a.json clip.bvh"),
            Ok(Task::Eval {
                args: vec!["--json".into(), "a.json".into(), "clip.bvh".into()]
            })
        );
        assert_eq!(
            task("bench --json x.json"),
            Ok(Task::Bench {
                json: Some("x.json".into()),
                part: BenchPart::All,
            })
        );
        assert_eq!(
            task("bench --crowd"),
            Ok(Task::Bench {
                json: None,
                part: BenchPart::Crowd,
            })
        );
        assert_eq!(
            task("bench --count"),
            Ok(Task::Bench {
                json: None,
                part: BenchPart::Count,
            })
        );
        assert!(task("bench --count --json x.json").is_err());
        assert_eq!(
            task("mutants --check src/a.rs"),
            Ok(Task::Mutants {
                check: true,
                files: vec!["src/a.rs".into()],
                since: None,
            })
        );
        assert_eq!(
            task("package --all-platforms"),
            Ok(Task::Package {
                all_platforms: true
            })
        );
        assert_eq!(
            task("package-test"),
            Ok(Task::PackageTest {
                libraries_only: false
            })
        );
        assert_eq!(
            task("package-test --libraries-only"),
            Ok(Task::PackageTest {
                libraries_only: true
            })
        );
        assert!(task("package --libraries-only").is_err());
        assert_eq!(
            task("mutants --since abc123"),
            Ok(Task::Mutants {
                check: false,
                files: vec![],
                since: Some("abc123".into()),
            })
        );
    }

    #[test]
    fn every_command_parses_and_the_help_and_architecture_list_them() {
        let doc = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/architecture.md"
        ))
        .expect("docs/architecture.md");
        let row = doc
            .lines()
            .find(|l| l.starts_with("| `rust/xtask`"))
            .expect("the xtask row of the crates table");
        for c in COMMANDS {
            assert!(task(c).is_ok(), "{c} parses");
            assert!(
                crate::HELP.contains(&format!("  {c}")) || c == "help",
                "help lists {c}"
            );
            assert!(
                c == "help" || row.contains(&format!(" {c},")) || row.contains(&format!(" {c})")),
                "architecture.md lists {c}"
            );
        }
    }

    #[test]
    fn bad_command_lines_are_refused_with_a_reason() {
        assert!(task("frobnicate").unwrap_err().contains("frobnicate"));
        assert!(task("soak ten").is_err());
        assert!(task("bench --json").is_err(), "--json needs a file");
        assert!(task("godot extra").is_err());
        assert!(task("build --fast").unwrap_err().contains("--fast"));
    }
}
