//! TOML profile files: reading one with errors that name the line, and saving one node's
//! sections into a file without losing the others. Two kinds share it: the arm profile
//! ([ArmProfile], every stage of the body) and the revolver's ([RevolverProfile], the gun and
//! its holster).

use godot::classes::{FileAccess, file_access::ModeFlags};
use godot::prelude::*;
use vr_arms_core::body::profile::{ArmProfile, MAX_PROFILE_BYTES, ProfileError};
use vr_arms_core::revolver::RevolverProfile;

/// A kind of profile file.
pub trait ProfileFile: Default {
    fn parse(text: &str) -> Result<Self, ProfileError>;
    fn to_text(&self) -> String;
}

impl ProfileFile for ArmProfile {
    fn parse(text: &str) -> Result<Self, ProfileError> {
        ArmProfile::from_toml_str(text)
    }
    fn to_text(&self) -> String {
        self.to_toml_string()
    }
}

impl ProfileFile for RevolverProfile {
    fn parse(text: &str) -> Result<Self, ProfileError> {
        RevolverProfile::from_toml_str(text)
    }
    fn to_text(&self) -> String {
        self.to_toml_string()
    }
}

/// Reads a profile file. Errors (missing or unreadable file, bad TOML with its line) are
/// returned as text; the caller keeps its settings.
pub fn read<P: ProfileFile>(path: &GString) -> Result<P, String> {
    if !FileAccess::file_exists(path) {
        return Err(format!("profile \"{path}\" does not exist"));
    }
    // Refuse a huge file by its size, before reading it into memory.
    let size = FileAccess::open(path, ModeFlags::READ).map_or(0, |f| f.get_length());
    let limit = MAX_PROFILE_BYTES as u64;
    if size > limit {
        return Err(format!(
            "profile \"{path}\": file too large ({size} bytes, at most {limit})"
        ));
    }
    let text = FileAccess::get_file_as_string(path);
    P::parse(&text.to_string()).map_err(|e| format!("profile \"{path}\": {e}"))
}

/// Writes a profile, changing only what `edit` changes in the file on disk (the default
/// profile when there is none). A file that exists but cannot be read is left alone: an error,
/// not a file replaced by one node's settings.
pub fn write<P: ProfileFile>(path: &GString, edit: impl FnOnce(&mut P)) -> Result<(), String> {
    let mut profile = if FileAccess::file_exists(path) {
        read::<P>(path).map_err(|e| format!("{e}; not overwritten"))?
    } else {
        P::default()
    };
    edit(&mut profile);
    let Some(mut file) = FileAccess::open(path, ModeFlags::WRITE) else {
        return Err(format!("cannot write profile \"{path}\""));
    };
    file.store_string(&profile.to_text());
    file.close();
    Ok(())
}

/// `load_profile` of a node: reads the profile at `path` and hands it to `apply`; on error logs
/// one line naming `owner` and the problem (with its line) and returns false, leaving the
/// settings as they were.
pub fn apply<P: ProfileFile>(owner: &str, path: &GString, apply: impl FnOnce(&P)) -> bool {
    match read::<P>(path) {
        Ok(p) => {
            apply(&p);
            true
        }
        Err(e) => {
            godot_error!("{owner}: {e}");
            false
        }
    }
}

/// `save_profile` of a node: writes its sections (set by `edit`) into the profile at `path`.
pub fn store<P: ProfileFile>(owner: &str, path: &GString, edit: impl FnOnce(&mut P)) -> bool {
    write(path, edit)
        .map_err(|e| godot_error!("{owner}: {e}"))
        .is_ok()
}

/// Reads an arm profile ([read]).
pub fn load_profile(path: &GString) -> Result<ArmProfile, String> {
    read(path)
}

/// [apply] for an arm profile.
pub fn apply_profile(owner: &str, path: &GString, f: impl FnOnce(&ArmProfile)) -> bool {
    apply(owner, path, f)
}

/// [store] for an arm profile.
pub fn store_profile(owner: &str, path: &GString, edit: impl FnOnce(&mut ArmProfile)) -> bool {
    store(owner, path, edit)
}

/// [apply] for a revolver profile.
pub fn apply_revolver_profile(
    owner: &str,
    path: &GString,
    f: impl FnOnce(&RevolverProfile),
) -> bool {
    apply(owner, path, f)
}

/// [store] for a revolver profile.
pub fn store_revolver_profile(
    owner: &str,
    path: &GString,
    edit: impl FnOnce(&mut RevolverProfile),
) -> bool {
    store(owner, path, edit)
}
