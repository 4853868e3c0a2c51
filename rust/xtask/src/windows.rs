//! The Windows x86_64 library, built on this Linux machine: rustup cannot download the
//! `x86_64-pc-windows-gnu` standard library here, so the build takes Debian unstable's `rustc`,
//! `cargo` and `rust-src` and its MinGW-w64 cross compiler into the cache root (as the Godot
//! fetch does, `godot::provision`: nothing is installed into the system) and builds the standard
//! library for the target from source (`-Zbuild-std`, allowed on a stable compiler by
//! `RUSTC_BOOTSTRAP=1`).
//!
//! Those programs need a newer C library than this machine's, so each runs through the cache
//! root's own dynamic loader, by small wrapper scripts written into `.cache/windows/`. The
//! programs they start are wrapped too: GCC's `collect2`, `ld` and `as` (found first through
//! `-B`), and `dlltool`'s assembler (`-S`). Build scripts are linked for the host by the root's
//! GCC against the root's C library, with the root's loader as their interpreter, so cargo can
//! run them (`[host] linker`, `-Zhost-config`).
//!
//! The core's tests built this way run under Wine (`cargo xtask test-windows`): Wine from this
//! machine's own Debian release (which runs with its C library), downloaded with its apt lists
//! and unpacked into `.cache/wine/root`, headless, in its own prefix. Wine 8 lacks
//! `bcryptprimitives.dll`'s `ProcessPrng`, which Rust's standard library calls: a one-function
//! stand-in over `RtlGenRandom` is built into the prefix ([`PRNG_SHIM`]).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::repo_root;

/// The target this file builds for.
pub const TARGET: &str = "x86_64-pc-windows-gnu";

/// Debian packages of the toolchain (their dependencies come with them).
pub const PACKAGES: &[&str] = &[
    "rustc",
    "cargo",
    "rust-src",
    "gcc",
    "gcc-mingw-w64-x86-64-win32",
    "binutils-mingw-w64-x86-64",
    "mingw-w64-x86-64-dev",
];

/// The GCC version directory names the MinGW-w64 and host compilers install under (`16-win32`
/// and `16` for GCC 16): found in the root, not assumed.
fn gcc_dir(root: &Path, under: &str, suffix: &str) -> Result<PathBuf, String> {
    let parent = root.join(under);
    let mut found: Vec<PathBuf> = std::fs::read_dir(&parent)
        .map_err(|e| format!("cannot list {}: {e}", parent.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(suffix) && n.starts_with(|c: char| c.is_ascii_digit()))
        })
        .filter(|p| p.join("collect2").exists())
        .collect();
    found.sort();
    found
        .pop()
        .ok_or_else(|| format!("no GCC under {}", parent.display()))
}

/// The toolchain, ready: where its wrappers are.
pub struct Toolchain {
    /// `cargo`, `rustc`, `rustdoc`, the two GCC drivers and the `bin/` of MinGW tools.
    pub wrap: PathBuf,
}

impl Toolchain {
    /// Fetches the packages into the cache root (fast when they are there) and writes the
    /// wrappers.
    pub fn provision() -> Result<Self, String> {
        let root = crate::godot::provision(PACKAGES)?;
        // The host GCC's sysroot is the root: its C library's linker script names
        // /lib64/ld-linux-x86-64.so.2, which a merged /usr puts under usr/lib64.
        for (link, to) in [("lib64", "usr/lib64"), ("lib", "usr/lib")] {
            let at = root.join(link);
            if std::fs::symlink_metadata(&at).is_err() {
                symlink(to, &at).map_err(|e| format!("cannot link {}: {e}", at.display()))?;
            }
        }
        let wrap = repo_root().join(".cache/windows");
        write_wrappers(&root, &wrap)?;
        Ok(Self { wrap })
    }

    /// A `cargo` of the toolchain for the Windows target, building into `target/windows` (its
    /// own directory: another compiler than the host build's), tests run by `runner` (Wine).
    fn cargo(&self, runner: Option<&Path>) -> Result<Command, String> {
        let target_dir = target_dir();
        let w = &self.wrap;
        let mut config = format!(
            "[unstable]\nhost-config = true\ntarget-applies-to-host = true\n\
             [host]\nlinker = \"{}\"\n\
             [target.{TARGET}]\nlinker = \"{}\"\n",
            w.join("host-cc").display(),
            w.join("x86_64-w64-mingw32-gcc").display()
        );
        if let Some(r) = runner {
            config += &format!("runner = \"{}\"\n", r.display());
        }
        let config_path = w.join("cargo-config.toml");
        std::fs::write(&config_path, config).map_err(|e| e.to_string())?;
        let path = format!(
            "{}:{}",
            w.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = Command::new(w.join("cargo"));
        cmd.current_dir(repo_root())
            .env("PATH", path)
            .env("RUSTC", w.join("rustc"))
            .env("RUSTDOC", w.join("rustdoc"))
            .env("RUSTC_BOOTSTRAP", "1")
            .env("CARGO_TARGET_DIR", &target_dir)
            // The host toolchain's settings are not this one's.
            .env_remove("RUSTUP_TOOLCHAIN")
            .env_remove("CARGO")
            .env_remove("RUSTFLAGS");
        Ok(cmd)
    }

    /// The flags every command of this toolchain takes after its subcommand.
    fn flags(&self) -> Vec<String> {
        vec![
            "--config".into(),
            self.wrap.join("cargo-config.toml").display().to_string(),
            "-Zhost-config".into(),
            "-Ztarget-applies-to-host".into(),
            "-Zbuild-std=std,panic_unwind".into(),
            "--target".into(),
            TARGET.into(),
        ]
    }

    /// `cargo build` of `vr_arms` for Windows; returns the DLL.
    pub fn cargo_build(&self, release: bool) -> Result<PathBuf, String> {
        let mut cmd = self.cargo(None)?;
        cmd.arg("build")
            .args(self.flags())
            .args(["--package", "vr_arms"]);
        if release {
            cmd.arg("--release");
        }
        crate::run(&mut cmd)?;
        let profile = if release { "release" } else { "debug" };
        Ok(target_dir().join(TARGET).join(profile).join("vr_arms.dll"))
    }

    /// The core's unit and integration tests built for Windows and run under Wine.
    pub fn test_core(&self) -> Result<(), String> {
        let runner = wine_runner()?;
        self.prefix_with_prng_shim(&runner)?;
        let mut cmd = self.cargo(Some(&runner))?;
        cmd.arg("test").args(self.flags()).args([
            "--package",
            "vr_arms_core",
            "--features",
            "testing",
        ]);
        crate::run(&mut cmd)
    }
}

/// `ProcessPrng`, which Rust's standard library takes its random numbers from on Windows (in
/// `bcryptprimitives.dll` since Windows 10), is missing from Wine 8: a DLL of that one function,
/// over `RtlGenRandom` (advapi32's `SystemFunction036`), stands in for it in the test prefix.
const PRNG_SHIM: &str = r#"#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG n = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, n)) return FALSE;
        data += n;
        length -= n;
    }
    return TRUE;
}
"#;

impl Toolchain {
    /// Makes Wine's prefix (once) and puts the `ProcessPrng` stand-in into its `system32`.
    fn prefix_with_prng_shim(&self, runner: &Path) -> Result<(), String> {
        let cache = repo_root().join(".cache/wine");
        let system32 = cache.join("prefix/drive_c/windows/system32");
        let dll = system32.join("bcryptprimitives.dll");
        if dll.exists() {
            return Ok(());
        }
        if !system32.exists() {
            // wineboot makes the prefix; without a display it reports windows it cannot show.
            let _ = Command::new(runner).args(["wineboot", "-i"]).output();
            if !system32.exists() {
                return Err(format!(
                    "Wine made no prefix at {}",
                    cache.join("prefix").display()
                ));
            }
        }
        let source = cache.join("prng_shim.c");
        std::fs::write(&source, PRNG_SHIM).map_err(|e| e.to_string())?;
        crate::run(
            Command::new(self.wrap.join("x86_64-w64-mingw32-gcc"))
                .args(["-shared", "-O2", "-o"])
                .arg(&dll)
                .arg(&source)
                .arg("-ladvapi32"),
        )
    }
}

/// Where this toolchain builds: its own directory (another compiler than the host build's).
fn target_dir() -> PathBuf {
    repo_root().join("target/windows")
}

/// Packages of Wine from this machine's own Debian release: they run with its C library.
const WINE_PACKAGES: &[&str] = &["wine", "wine64", "libwine", "libz-mingw-w64"];

/// Unpacks Wine into `.cache/wine/root` (once) and writes the test runner: Wine without a
/// display, in its own prefix under `.cache/wine`. Returns the runner.
fn wine_runner() -> Result<PathBuf, String> {
    let cache = repo_root().join(".cache/wine");
    let root = cache.join("root");
    let marker = root.join(".unpacked");
    if !marker.exists() {
        let debs = cache.join("debs");
        std::fs::create_dir_all(&debs).map_err(|e| e.to_string())?;
        // The machine's own apt lists: the packages of its release, downloaded, not installed
        // (the lists read again first if they are missing or stale).
        let download = || {
            crate::run(
                Command::new("apt-get")
                    .current_dir(&debs)
                    .arg("download")
                    .args(WINE_PACKAGES),
            )
        };
        if download().is_err() {
            crate::run(Command::new("apt-get").args(["-q", "update"]))?;
            download()?;
        }
        for deb in std::fs::read_dir(&debs)
            .map_err(|e| e.to_string())?
            .flatten()
        {
            crate::run(Command::new("dpkg").arg("-x").arg(deb.path()).arg(&root))?;
        }
        // Debian's `wineserver` is a script naming /usr/lib/wine; zlib1.dll is a link to
        // /usr/x86_64-w64-mingw32: both pointed into the root instead.
        let wine_dir = root.join("usr/lib/wine");
        let _ = std::fs::remove_file(wine_dir.join("wineserver"));
        symlink("wineserver64", &wine_dir.join("wineserver")).map_err(|e| e.to_string())?;
        let zlib = root.join("usr/lib/x86_64-linux-gnu/wine/x86_64-windows/zlib1.dll");
        let _ = std::fs::remove_file(&zlib);
        symlink(root.join("usr/x86_64-w64-mingw32/lib/zlib1.dll"), &zlib)
            .map_err(|e| e.to_string())?;
        std::fs::write(&marker, "").map_err(|e| e.to_string())?;
    }
    let runner = cache.join("run");
    write_executable(
        &runner,
        &format!(
            "#!/bin/sh\n# Written by cargo xtask (windows.rs): a Windows program under Wine, headless.\nunset DISPLAY WAYLAND_DISPLAY\nexport WINEPREFIX='{}' WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml='\nexec '{}' \"$@\"\n",
            cache.join("prefix").display(),
            root.join("usr/lib/wine/wine64").display()
        ),
    )?;
    Ok(runner)
}

/// A GCC of the cache root: its version directory (`collect2`, `cc1`, `lto-wrapper`), the
/// linker and assembler it calls, and its driver's path under `usr/` without the version.
struct Gcc {
    version_dir: PathBuf,
    ld: PathBuf,
    assembler: PathBuf,
    driver_prefix: &'static str,
}

impl Gcc {
    /// Writes the driver's wrapper `to` (with `args` after the `-B` of `sub`) and the wrappers of
    /// its subprograms into `sub`.
    fn wrap(
        &self,
        usr: &Path,
        run_in_root: &Path,
        to: &Path,
        sub: &Path,
        args: &[String],
    ) -> Result<(), String> {
        for (name, program) in [
            ("collect2", self.version_dir.join("collect2")),
            ("lto-wrapper", self.version_dir.join("lto-wrapper")),
            ("cc1", self.version_dir.join("cc1")),
            ("ld", self.ld.clone()),
            ("as", self.assembler.clone()),
        ] {
            script(&sub.join(name), run_in_root, &program, &[])?;
        }
        let version = self
            .version_dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let mut all = vec![format!("-B{}/", sub.display())];
        all.extend_from_slice(args);
        script(
            to,
            run_in_root,
            &usr.join(format!("{}{version}", self.driver_prefix)),
            &all,
        )
    }
}

/// A shell script that runs `program` with `args` first, then its own arguments.
fn script(to: &Path, run_in_root: &Path, program: &Path, args: &[String]) -> Result<(), String> {
    let mut text = format!(
        "#!/bin/sh\n# Written by cargo xtask (windows.rs): runs {} through the cache root's loader.\nexec '{}' '{}'",
        program.display(),
        run_in_root.display(),
        program.display()
    );
    for a in args {
        text += &format!(" '{a}'");
    }
    text += " \"$@\"\n";
    write_executable(to, &text)
}

fn write_executable(to: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(to, text).map_err(|e| format!("cannot write {}: {e}", to.display()))?;
    make_executable(to).map_err(|e| format!("cannot make {} executable: {e}", to.display()))
}

// The toolchain is fetched on Linux only (`godot::provision` says so elsewhere); xtask itself
// still builds on every platform the release workflow runs it on.
#[cfg(unix)]
fn make_executable(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
}

#[cfg(unix)]
fn symlink(to: impl AsRef<Path>, at: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(to, at)
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other(
        "the Windows toolchain is fetched on Linux only",
    ))
}

#[cfg(not(unix))]
fn symlink(_to: impl AsRef<Path>, _at: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other(
        "the Windows toolchain is fetched on Linux only",
    ))
}

/// Writes every wrapper under `wrap` for the toolchain in `root`.
fn write_wrappers(root: &Path, wrap: &Path) -> Result<(), String> {
    let lib = root.join("usr/lib/x86_64-linux-gnu");
    let run_in_root = wrap.join("run-in-root");
    write_executable(
        &run_in_root,
        &format!(
            "#!/bin/sh\n# Written by cargo xtask (windows.rs): a program of the cache root, through its own loader.\nexec '{}' --library-path '{}:{}' \"$@\"\n",
            lib.join("ld-linux-x86-64.so.2").display(),
            lib.display(),
            root.join("usr/lib").display()
        ),
    )?;
    let usr = root.join("usr");
    for tool in ["cargo", "rustc", "rustdoc"] {
        script(
            &wrap.join(tool),
            &run_in_root,
            &usr.join("bin").join(tool),
            &[],
        )?;
    }
    // The MinGW-w64 driver, then the host driver for build scripts (the root's C library and
    // loader), each with its subprograms found first through -B.
    let mingw = Gcc {
        version_dir: gcc_dir(root, "usr/lib/gcc/x86_64-w64-mingw32", "-win32")?,
        ld: usr.join("x86_64-w64-mingw32/bin/ld"),
        assembler: usr.join("x86_64-w64-mingw32/bin/as"),
        driver_prefix: "bin/x86_64-w64-mingw32-gcc-",
    };
    mingw.wrap(
        &usr,
        &run_in_root,
        &wrap.join("x86_64-w64-mingw32-gcc"),
        &wrap.join("mingw"),
        &[],
    )?;
    let host = Gcc {
        version_dir: gcc_dir(root, "usr/libexec/gcc/x86_64-linux-gnu", "")?,
        ld: usr.join("bin/ld.bfd"),
        assembler: usr.join("bin/as"),
        driver_prefix: "bin/gcc-",
    };
    host.wrap(
        &usr,
        &run_in_root,
        &wrap.join("host-cc"),
        &wrap.join("native"),
        &[
            format!("--sysroot={}", root.display()),
            format!(
                "-Wl,--dynamic-linker={}",
                lib.join("ld-linux-x86-64.so.2").display()
            ),
            format!("-Wl,-rpath={}", lib.display()),
        ],
    )?;
    // MinGW tools rustc and the checks call by name; dlltool's assembler named with -S.
    let bin = wrap.join("bin");
    for tool in ["as", "ar", "objdump", "objcopy"] {
        let name = format!("x86_64-w64-mingw32-{tool}");
        script(
            &bin.join(&name),
            &run_in_root,
            &usr.join("bin").join(&name),
            &[],
        )?;
    }
    script(
        &bin.join("x86_64-w64-mingw32-dlltool"),
        &run_in_root,
        &usr.join("bin/x86_64-w64-mingw32-dlltool"),
        &[
            "-S".into(),
            bin.join("x86_64-w64-mingw32-as").display().to_string(),
        ],
    )?;
    Ok(())
}
