//! The libraries the `.gdextension` names, and whether a file is the right kind of library for
//! its entry (an ELF for Linux or Android of the right machine, a PE32+ DLL for Windows that
//! loads with nothing but Windows, a universal Mach-O for macOS), read from the file's bytes.

/// One `[libraries]` entry: Godot's feature key (`windows.release.x86_64`) and the file name
/// under `addons/vr_arms/bin/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    pub file: String,
}

impl Entry {
    /// The entry's operating system (the key's first part).
    pub fn os(&self) -> &str {
        self.key.split('.').next().unwrap_or("")
    }
}

/// The `[libraries]` entries of a `.gdextension` text.
pub fn entries(gdextension: &str) -> Vec<Entry> {
    let Some(section) = gdextension.split("[libraries]").nth(1) else {
        return Vec::new();
    };
    let section = section.split("\n[").next().unwrap_or("");
    section
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| Entry {
            key: k.trim().to_string(),
            file: v
                .trim()
                .trim_matches('"')
                .trim_start_matches("res://addons/vr_arms/bin/")
                .to_string(),
        })
        .collect()
}

/// ELF machine numbers.
const EM_X86_64: u16 = 62;
const EM_AARCH64: u16 = 183;

/// What is wrong with `bytes` as the library of `entry` (empty: nothing).
pub fn format_problems(entry: &Entry, bytes: &[u8]) -> Vec<String> {
    let key = entry.key.as_str();
    let elf = |machine: u16, what: &str| -> Vec<String> {
        let is_elf64 = bytes.get(0..5) == Some(b"\x7fELF\x02");
        let m = bytes
            .get(18..20)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .unwrap_or(0);
        if is_elf64 && m == machine {
            Vec::new()
        } else {
            vec![format!(
                "{}: not a 64-bit ELF library for {what}",
                entry.file
            )]
        }
    };
    match entry.os() {
        "linux" | "android" if key.ends_with("x86_64") => elf(EM_X86_64, "x86_64"),
        "linux" | "android" if key.ends_with("arm64") => elf(EM_AARCH64, "arm64"),
        "windows" => crate::pe::library_problems(bytes, "gdext_rust_init")
            .into_iter()
            .map(|p| format!("{}: {p}", entry.file))
            .collect(),
        // A universal binary: the fat header's magic (big-endian); its architectures are not read.
        "macos" => {
            if bytes.get(0..4) == Some(&[0xca, 0xfe, 0xba, 0xbe]) {
                Vec::new()
            } else {
                vec![format!("{}: not a universal Mach-O library", entry.file)]
            }
        }
        other => vec![format!(
            "{}: no check for the platform `{other}`",
            entry.file
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elf(machine: u16) -> Vec<u8> {
        let mut b = vec![0u8; 64];
        b[0..5].copy_from_slice(b"\x7fELF\x02");
        b[18..20].copy_from_slice(&machine.to_le_bytes());
        b
    }

    #[test]
    fn the_gdextensions_entries_are_read() {
        let text = "[configuration]\nx = 1\n\n[libraries]\nlinux.debug.x86_64 = \"res://addons/vr_arms/bin/a.so\"\nwindows.release.x86_64 = \"res://addons/vr_arms/bin/b.dll\"\n\n[icons]\nA = \"x\"\n";
        let e = entries(text);
        assert_eq!(e.len(), 2);
        assert_eq!(
            (e[0].key.as_str(), e[0].file.as_str()),
            ("linux.debug.x86_64", "a.so")
        );
        assert_eq!((e[1].os(), e[1].file.as_str()), ("windows", "b.dll"));
    }

    #[test]
    fn each_platform_wants_its_own_kind_of_file() {
        let entry = |key: &str| Entry {
            key: key.into(),
            file: "f".into(),
        };
        assert!(format_problems(&entry("linux.debug.x86_64"), &elf(EM_X86_64)).is_empty());
        assert!(!format_problems(&entry("linux.debug.x86_64"), &elf(EM_AARCH64)).is_empty());
        assert!(format_problems(&entry("android.release.arm64"), &elf(EM_AARCH64)).is_empty());
        assert!(!format_problems(&entry("android.release.arm64"), b"MZ").is_empty());
        assert!(!format_problems(&entry("windows.debug.x86_64"), &elf(EM_X86_64)).is_empty());
        assert!(format_problems(&entry("macos.release"), &[0xca, 0xfe, 0xba, 0xbe, 0]).is_empty());
        assert!(!format_problems(&entry("macos.release"), &[0xcf, 0xfa, 0xed, 0xfe]).is_empty());
    }
}
