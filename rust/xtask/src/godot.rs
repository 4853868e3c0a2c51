//! Finding Godot 4.6, or fetching Debian's package into `.cache/godot` without touching the system.
//!
//! Order: `GODOT` (a path), then `godot` / `godot4` on `PATH` (when they report 4.x), then the
//! cache. The cache is filled with a private apt configuration (own state, cache and sources for
//! Debian's unstable suite, built from the mirror this machine's apt already uses), `apt-get
//! install --download-only`, and `dpkg -x` of every package into `.cache/godot/root`. The binary
//! runs through that root's own dynamic loader, since the system's libc is older than the
//! package's.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{repo_root, run};

/// Packages for the engine itself.
pub const GODOT_PACKAGES: &[&str] = &["godot"];

/// How to start Godot.
#[derive(Clone, Debug)]
pub struct Godot {
    /// Program to execute (the Godot binary, or the cached root's dynamic loader).
    pub program: PathBuf,
    /// Arguments that go before Godot's own (the loader's `--library-path LIBS godot`).
    pub prefix: Vec<String>,
}

impl Godot {
    /// A command that runs Godot with `args`.
    pub fn command<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let mut c = Command::new(&self.program);
        c.args(&self.prefix).args(args);
        c
    }

    pub fn describe(&self) -> String {
        let mut parts = vec![self.program.display().to_string()];
        parts.extend(self.prefix.iter().cloned());
        parts.join(" ")
    }

    /// `godot --version`, trimmed.
    pub fn version(&self) -> Result<String, String> {
        let out = self
            .command(["--headless", "--version"])
            .output()
            .map_err(|e| format!("cannot run Godot ({}): {e}", self.describe()))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim();
        Ok(line.to_string())
    }
}

/// Finds Godot 4 or fetches it into the cache.
pub fn find_or_fetch() -> Result<Godot, String> {
    if let Some(path) = std::env::var_os("GODOT").filter(|p| !p.is_empty()) {
        let g = Godot {
            program: PathBuf::from(path),
            prefix: vec![],
        };
        let v = g
            .version()
            .map_err(|e| format!("GODOT is set but does not run: {e}"))?;
        if !v.starts_with('4') {
            return Err(format!(
                "GODOT={} reports version `{v}`, need Godot 4.6",
                g.describe()
            ));
        }
        return Ok(g);
    }
    for name in ["godot", "godot4"] {
        if let Some(path) = which(name) {
            let g = Godot {
                program: path,
                prefix: vec![],
            };
            if g.version().map(|v| v.starts_with("4.")).unwrap_or(false) {
                return Ok(g);
            }
        }
    }
    let root = provision(GODOT_PACKAGES)?;
    cached_godot(&root)
}

/// Godot from a provisioned Debian root, run through the root's own loader.
pub fn cached_godot(root: &Path) -> Result<Godot, String> {
    let loader = root.join("usr/lib64/ld-linux-x86-64.so.2");
    let bin = root.join("usr/bin/godot");
    if !loader.exists() || !bin.exists() {
        return Err(format!(
            "the Godot cache at {} is incomplete; delete it and run again",
            root.display()
        ));
    }
    Ok(Godot {
        program: loader,
        prefix: vec![
            "--library-path".into(),
            library_path(root),
            bin.display().to_string(),
        ],
    })
}

/// The library search path for programs run from the cached root.
pub fn library_path(root: &Path) -> String {
    let lib = root.join("usr/lib/x86_64-linux-gnu");
    [
        lib.clone(),
        lib.join("pulseaudio"),
        lib.join("lapack"),
        lib.join("blas"),
        root.join("usr/lib"),
    ]
    .iter()
    .map(|p| p.display().to_string())
    .collect::<Vec<_>>()
    .join(":")
}

fn cache_dir() -> PathBuf {
    repo_root().join(".cache/godot")
}

/// Makes sure `packages` (and their dependencies) are extracted into the cache root; fast when
/// they already are. Returns the root.
pub fn provision(packages: &[&str]) -> Result<PathBuf, String> {
    let cache = cache_dir();
    let root = cache.join("root");
    let mut names: Vec<&str> = packages.to_vec();
    names.sort_unstable();
    let marker = root.join(format!(".provisioned-{}", names.join("+")));
    if marker.exists() {
        return Ok(root);
    }
    if std::env::consts::OS != "linux" || std::env::consts::ARCH != "x86_64" {
        return Err("no Godot found: set GODOT to a Godot 4.6 binary".into());
    }
    if which("apt-get").is_none() || which("dpkg").is_none() {
        return Err(
            "no Godot found and no apt-get/dpkg to fetch it: set GODOT to a Godot 4.6 binary"
                .into(),
        );
    }
    eprintln!(
        "xtask: fetching Debian unstable packages {names:?} into {}",
        root.display()
    );
    let apt = cache.join("apt");
    let conf = write_apt_config(&apt)?;
    let apt_get = |args: &[&str]| {
        let mut c = Command::new("apt-get");
        c.env("APT_CONFIG", &conf).args(args);
        c
    };
    run(&mut apt_get(&["-q", "update"]))?;
    let mut install = vec!["-q", "-y", "--download-only", "install"];
    install.extend(names.iter().copied());
    run(&mut apt_get(&install))?;

    let archives = apt.join("cache/archives");
    let mut debs: Vec<PathBuf> = std::fs::read_dir(&archives)
        .map_err(|e| format!("cannot list {}: {e}", archives.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "deb"))
        .collect();
    debs.sort();
    let debs = newest_of_each(debs);
    std::fs::create_dir_all(&root).map_err(|e| format!("cannot create {}: {e}", root.display()))?;
    for deb in &debs {
        let status = Command::new("dpkg")
            .arg("-x")
            .arg(deb)
            .arg(&root)
            .status()
            .map_err(|e| format!("cannot run dpkg: {e}"))?;
        if !status.success() {
            return Err(format!("dpkg -x {} failed", deb.display()));
        }
    }
    std::fs::write(&marker, debs.len().to_string())
        .map_err(|e| format!("cannot write {}: {e}", marker.display()))?;
    eprintln!("xtask: extracted {} packages", debs.len());
    Ok(root)
}

/// The newest of each package among `debs` (`name_version_arch.deb`; the archive keeps the
/// versions of earlier fetches, and an older one unpacked after a newer would overwrite it).
fn newest_of_each(debs: Vec<PathBuf>) -> Vec<PathBuf> {
    let part = |p: &Path, i: usize| -> String {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        name.split('_').nth(i).unwrap_or("").replace("%3a", ":")
    };
    let newer = |a: &str, b: &str| {
        Command::new("dpkg")
            .args(["--compare-versions", a, "gt", b])
            .status()
            .is_ok_and(|s| s.success())
    };
    let mut kept: Vec<PathBuf> = Vec::new();
    for deb in debs {
        match kept.iter_mut().find(|k| part(k, 0) == part(&deb, 0)) {
            Some(k) => {
                if newer(&part(&deb, 1), &part(k, 1)) {
                    *k = deb;
                }
            }
            None => kept.push(deb),
        }
    }
    kept
}

/// Writes a private apt configuration under `dir` whose only source is Debian unstable on the
/// mirror this machine already uses. Returns the configuration file.
fn write_apt_config(dir: &Path) -> Result<PathBuf, String> {
    let (mirror, keyring) = system_mirror()?;
    for sub in [
        "state/lists/partial",
        "cache/archives/partial",
        "etc/sources.list.d",
        "etc/preferences.d",
        "etc/apt.conf.d",
    ] {
        std::fs::create_dir_all(dir.join(sub)).map_err(|e| format!("cannot create {sub}: {e}"))?;
    }
    // An empty status file: apt treats nothing as installed and fetches every dependency,
    // including the newer libc the package needs.
    std::fs::write(dir.join("status"), "").map_err(|e| e.to_string())?;
    let signed = keyring
        .map(|k| format!("Signed-By: {k}\n"))
        .unwrap_or_default();
    std::fs::write(
        dir.join("etc/sources.list.d/unstable.sources"),
        format!("Types: deb\nURIs: {mirror}\nSuites: sid\nComponents: main\n{signed}"),
    )
    .map_err(|e| e.to_string())?;
    let d = dir.display();
    let conf = format!(
        "Dir::State \"{d}/state\";\n\
         Dir::State::status \"{d}/status\";\n\
         Dir::Cache \"{d}/cache\";\n\
         Dir::Etc::SourceList \"/dev/null\";\n\
         Dir::Etc::SourceParts \"{d}/etc/sources.list.d\";\n\
         Dir::Etc::Preferences \"/dev/null\";\n\
         Dir::Etc::PreferencesParts \"{d}/etc/preferences.d\";\n\
         Dir::Etc::Parts \"{d}/etc/apt.conf.d\";\n\
         APT::Architecture \"amd64\";\n\
         APT::Architectures {{ \"amd64\"; }};\n\
         APT::Install-Recommends \"false\";\n\
         Debug::NoLocking \"true\";\n\
         Acquire::Check-Valid-Until \"false\";\n"
    );
    let path = dir.join("apt.conf");
    std::fs::write(&path, conf).map_err(|e| e.to_string())?;
    Ok(path)
}

/// The Debian mirror (and its keyring) this machine's apt already lists.
fn system_mirror() -> Result<(String, Option<String>), String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir("/etc/apt/sources.list.d")
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files.push(PathBuf::from("/etc/apt/sources.list"));
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        if let Some(found) = mirror_in(&text) {
            return Ok(found);
        }
    }
    Err("no Debian mirror found in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list; set GODOT to a Godot 4.6 binary".into())
}

/// First non-security Debian mirror in a deb822 `.sources` text or a one-line `sources.list`.
fn mirror_in(text: &str) -> Option<(String, Option<String>)> {
    // deb822 stanzas are separated by blank lines.
    for stanza in text.split("\n\n") {
        let field = |name: &str| {
            stanza.lines().find_map(|l| {
                l.strip_prefix(name)
                    .and_then(|r| r.strip_prefix(':'))
                    .map(|v| v.trim().to_string())
            })
        };
        if let (Some(uris), Some(suites)) = (field("URIs"), field("Suites"))
            && !suites.contains("security")
            && let Some(uri) = uris.split_whitespace().find(|u| u.contains("debian"))
        {
            return Some((uri.to_string(), field("Signed-By")));
        }
    }
    text.lines().find_map(|l| {
        let mut words = l.split_whitespace().filter(|w| !w.starts_with('['));
        if words.next() != Some("deb") {
            return None;
        }
        let uri = words.next()?;
        let suite = words.next()?;
        (uri.contains("debian") && !suite.contains("security")).then(|| (uri.to_string(), None))
    })
}

pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::{PathBuf, mirror_in, newest_of_each};

    /// Of two versions of a package the newer is kept (by dpkg's order: -10 after -9), each
    /// package once, in the order first seen.
    #[test]
    fn the_newest_version_of_each_package_is_unpacked() {
        let debs = [
            "a_1.0-9_amd64.deb",
            "a_1.0-10_amd64.deb",
            "b_1%3a2_all.deb",
            "b_1%3a1_all.deb",
        ]
        .map(PathBuf::from)
        .to_vec();
        assert_eq!(
            newest_of_each(debs),
            [
                PathBuf::from("a_1.0-10_amd64.deb"),
                PathBuf::from("b_1%3a2_all.deb")
            ]
        );
    }

    #[test]
    fn finds_the_mirror_in_deb822_and_one_line_sources() {
        let deb822 = "Types: deb\nURIs: http://mirror.invalid/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /k.gpg\n\nTypes: deb\nURIs: http://mirror.invalid/debian-security\nSuites: bookworm-security\n";
        assert_eq!(
            mirror_in(deb822),
            Some(("http://mirror.invalid/debian".into(), Some("/k.gpg".into())))
        );
        let security_only =
            "Types: deb\nURIs: http://mirror.invalid/debian-security\nSuites: bookworm-security\n";
        assert_eq!(mirror_in(security_only), None);
        let line = "deb [arch=amd64] http://mirror.invalid/debian bookworm main\n";
        assert_eq!(
            mirror_in(line),
            Some(("http://mirror.invalid/debian".into(), None))
        );
    }
}
