//! A small reader of Windows DLLs (PE32+): the DLLs one imports and the names it exports, read
//! from the file itself, so the package check can say a Windows library loads on a machine
//! with nothing but Windows on it.

/// What a DLL needs and gives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PeLinks {
    /// The DLLs it imports, as the import table names them.
    pub imports: Vec<String>,
    /// The names it exports.
    pub exports: Vec<String>,
}

/// The COFF machine of x86_64 (AMD64).
const MACHINE_X86_64: u16 = 0x8664;

/// DLLs every Windows x86_64 has (compared without case); `api-ms-win-*` API sets too.
const SYSTEM_DLLS: &[&str] = &[
    "kernel32.dll",
    "ntdll.dll",
    "msvcrt.dll",
    "ucrtbase.dll",
    "advapi32.dll",
    "bcrypt.dll",
    "bcryptprimitives.dll",
    "userenv.dll",
    "ws2_32.dll",
    "user32.dll",
    "shell32.dll",
    "ole32.dll",
    "oleaut32.dll",
    "secur32.dll",
    "crypt32.dll",
    "dbghelp.dll",
    "synchronization.dll",
];

/// Whether `dll` is one every Windows has (not a compiler's runtime such as `libgcc_s_seh-1.dll`,
/// `libwinpthread-1.dll` or `libstdc++-6.dll`, which would have to ship beside the library).
pub fn is_system_dll(dll: &str) -> bool {
    let d = dll.to_ascii_lowercase();
    d.starts_with("api-ms-win-") || SYSTEM_DLLS.contains(&d.as_str())
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// A NUL-terminated string at file offset `at`.
fn c_str(b: &[u8], at: usize) -> Option<String> {
    let rest = b.get(at..)?;
    let end = rest.iter().position(|&c| c == 0)?;
    String::from_utf8(rest[..end].to_vec()).ok()
}

/// The imports and exports of the PE32+ image `bytes`; an error names what is not a PE32+
/// image or is cut short.
pub fn read_links(bytes: &[u8]) -> Result<PeLinks, String> {
    let bad = |what: &str| format!("not a readable PE32+ image: {what}");
    if bytes.get(0..2) != Some(b"MZ") {
        return Err(bad("no MZ header"));
    }
    let pe = u32_at(bytes, 0x3c).ok_or_else(|| bad("no PE offset"))? as usize;
    if bytes.get(pe..pe + 4) != Some(b"PE\0\0") {
        return Err(bad("no PE signature"));
    }
    let coff = pe + 4;
    if u16_at(bytes, coff) != Some(MACHINE_X86_64) {
        return Err(bad("not for x86_64"));
    }
    let sections = u16_at(bytes, coff + 2).ok_or_else(|| bad("cut short"))? as usize;
    let optional_size = u16_at(bytes, coff + 16).ok_or_else(|| bad("cut short"))? as usize;
    let optional = coff + 20;
    if u16_at(bytes, optional) != Some(0x20b) {
        return Err(bad("not PE32+ (64-bit)"));
    }
    // Data directories follow the PE32+ optional header's 112 fixed bytes, as many as it says.
    let directories = u32_at(bytes, optional + 108).unwrap_or(0) as usize;
    let directory = |index: usize| -> Option<(u32, u32)> {
        let at = optional + 112 + index * 8;
        if index >= directories || at + 8 > optional + optional_size {
            return None;
        }
        Some((u32_at(bytes, at)?, u32_at(bytes, at + 4)?))
    };
    // Section table: maps an address in the loaded image (RVA) to a file offset.
    let table = optional + optional_size;
    let mut spans = Vec::with_capacity(sections);
    for i in 0..sections {
        let s = table + i * 40;
        let virtual_size = u32_at(bytes, s + 8).ok_or_else(|| bad("section table"))?;
        let address = u32_at(bytes, s + 12).ok_or_else(|| bad("section table"))?;
        let raw_size = u32_at(bytes, s + 16).ok_or_else(|| bad("section table"))?;
        let raw = u32_at(bytes, s + 20).ok_or_else(|| bad("section table"))?;
        spans.push((address, virtual_size.max(raw_size), raw));
    }
    let offset = |rva: u32| -> Option<usize> {
        spans
            .iter()
            .find(|&&(a, size, _)| rva >= a && u64::from(rva) < u64::from(a) + u64::from(size))
            .and_then(|&(a, _, raw)| usize::try_from(u64::from(rva - a) + u64::from(raw)).ok())
    };
    let mut links = PeLinks::default();
    if let Some((rva, size)) = directory(1).filter(|&(rva, _)| rva != 0) {
        let start = offset(rva).ok_or_else(|| bad("import table outside the sections"))?;
        for d in (start..start + size as usize).step_by(20) {
            let name = u32_at(bytes, d + 12).ok_or_else(|| bad("import table"))?;
            if name == 0 {
                break;
            }
            let at = offset(name).ok_or_else(|| bad("import name"))?;
            links
                .imports
                .push(c_str(bytes, at).ok_or_else(|| bad("import name"))?);
        }
    }
    if let Some((rva, _)) = directory(0).filter(|&(rva, _)| rva != 0) {
        let dir = offset(rva).ok_or_else(|| bad("export table outside the sections"))?;
        let count = u32_at(bytes, dir + 24).ok_or_else(|| bad("export table"))?;
        let names = u32_at(bytes, dir + 32).ok_or_else(|| bad("export table"))?;
        let names = offset(names).ok_or_else(|| bad("export names"))?;
        for i in 0..count as usize {
            let name = u32_at(bytes, names + i * 4).ok_or_else(|| bad("export names"))?;
            let at = offset(name).ok_or_else(|| bad("export name"))?;
            links
                .exports
                .push(c_str(bytes, at).ok_or_else(|| bad("export name"))?);
        }
    }
    Ok(links)
}

/// What is wrong with the Windows library `bytes` for Godot: it must export the entry symbol
/// and import only DLLs every Windows has. Empty: nothing.
pub fn library_problems(bytes: &[u8], entry_symbol: &str) -> Vec<String> {
    let links = match read_links(bytes) {
        Ok(l) => l,
        Err(e) => return vec![e],
    };
    let mut out = Vec::new();
    if !links.exports.iter().any(|e| e == entry_symbol) {
        out.push(format!("does not export {entry_symbol}"));
    }
    for dll in links.imports.iter().filter(|d| !is_system_dll(d)) {
        out.push(format!(
            "imports {dll}, which is not part of Windows (link its runtime statically)"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal PE32+ image: one section at RVA 0x1000 (file offset 0x200) holding an import
    /// table for `imports` and an export table for `exports`.
    pub fn image(imports: &[&str], exports: &[&str]) -> Vec<u8> {
        let mut b = vec![0u8; 0x200];
        b[0..2].copy_from_slice(b"MZ");
        b[0x3c..0x40].copy_from_slice(&0x40u32.to_le_bytes());
        b[0x40..0x44].copy_from_slice(b"PE\0\0");
        let coff = 0x44;
        b[coff..coff + 2].copy_from_slice(&MACHINE_X86_64.to_le_bytes());
        b[coff + 2..coff + 4].copy_from_slice(&1u16.to_le_bytes());
        let optional_size = 240u16;
        b[coff + 16..coff + 18].copy_from_slice(&optional_size.to_le_bytes());
        let optional = coff + 20;
        b[optional..optional + 2].copy_from_slice(&0x20bu16.to_le_bytes());
        b[optional + 108..optional + 112].copy_from_slice(&16u32.to_le_bytes());
        // The section's contents, addressed from RVA 0x1000.
        let mut s = vec![0u8; 0x100];
        let put = |s: &mut Vec<u8>, text: &str| {
            let at = s.len();
            s.extend_from_slice(text.as_bytes());
            s.push(0);
            0x1000 + at as u32
        };
        // Import descriptors at 0, 20 bytes each, then a zero one.
        for (i, dll) in imports.iter().enumerate() {
            let name = put(&mut s, dll);
            s[i * 20 + 12..i * 20 + 16].copy_from_slice(&name.to_le_bytes());
        }
        // Export directory at 0x80, its name pointers at 0xc0.
        let names: Vec<u32> = exports.iter().map(|e| put(&mut s, e)).collect();
        s[0x80 + 24..0x80 + 28].copy_from_slice(&(names.len() as u32).to_le_bytes());
        s[0x80 + 32..0x80 + 36].copy_from_slice(&0x10c0u32.to_le_bytes());
        for (i, n) in names.iter().enumerate() {
            s[0xc0 + i * 4..0xc4 + i * 4].copy_from_slice(&n.to_le_bytes());
        }
        let dirs = optional + 112;
        b[dirs..dirs + 4].copy_from_slice(&0x1080u32.to_le_bytes());
        b[dirs + 4..dirs + 8].copy_from_slice(&40u32.to_le_bytes());
        b[dirs + 8..dirs + 12].copy_from_slice(&0x1000u32.to_le_bytes());
        b[dirs + 12..dirs + 16].copy_from_slice(&((imports.len() as u32 + 1) * 20).to_le_bytes());
        let table = optional + optional_size as usize;
        let size = s.len() as u32;
        b[table + 8..table + 12].copy_from_slice(&size.to_le_bytes());
        b[table + 12..table + 16].copy_from_slice(&0x1000u32.to_le_bytes());
        b[table + 16..table + 20].copy_from_slice(&size.to_le_bytes());
        b[table + 20..table + 24].copy_from_slice(&0x200u32.to_le_bytes());
        b.extend_from_slice(&s);
        b
    }

    #[test]
    fn imports_and_exports_are_read_from_the_image() {
        let b = image(
            &["KERNEL32.dll", "libgcc_s_seh-1.dll"],
            &["gdext_rust_init", "x"],
        );
        let links = read_links(&b).unwrap();
        assert_eq!(links.imports, ["KERNEL32.dll", "libgcc_s_seh-1.dll"]);
        assert_eq!(links.exports, ["gdext_rust_init", "x"]);
    }

    #[test]
    fn a_runtime_dll_or_a_missing_entry_is_a_problem_and_windows_dlls_are_not() {
        let good = image(
            &[
                "KERNEL32.dll",
                "api-ms-win-core-synch-l1-2-0.dll",
                "WS2_32.dll",
            ],
            &["gdext_rust_init"],
        );
        assert_eq!(
            library_problems(&good, "gdext_rust_init"),
            Vec::<String>::new()
        );
        let runtime = image(
            &["KERNEL32.dll", "libwinpthread-1.dll"],
            &["gdext_rust_init"],
        );
        let p = library_problems(&runtime, "gdext_rust_init");
        assert!(
            p.len() == 1 && p[0].contains("libwinpthread-1.dll"),
            "{p:?}"
        );
        let no_entry = image(&["KERNEL32.dll"], &["other"]);
        assert_eq!(
            library_problems(&no_entry, "gdext_rust_init"),
            ["does not export gdext_rust_init"]
        );
        assert!(!library_problems(b"\x7fELF....", "gdext_rust_init").is_empty());
        // An arm64 DLL is not an x86_64 one; a cut image is an error, not a panic.
        let mut arm = good.clone();
        arm[0x44..0x46].copy_from_slice(&0xaa64u16.to_le_bytes());
        assert!(read_links(&arm).unwrap_err().contains("x86_64"));
        for cut in [0x30, 0x60, 0x150, 0x210] {
            assert!(read_links(&good[..cut]).is_err(), "cut at {cut}");
        }
    }
}
