//! Reading a TOML settings file (a profile, a saved calibration) with a clear error: its size
//! bounded and the line of a problem named.

/// Largest profile accepted (bytes); a larger file is refused before parsing.
pub const MAX_PROFILE_BYTES: usize = 1 << 20;

/// Why a profile could not be read.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileError {
    /// 1-based line of the problem, when known.
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for ProfileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for ProfileError {}

/// Parses any settings type from TOML with errors that name the line.
pub fn parse_toml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ProfileError> {
    if text.len() > MAX_PROFILE_BYTES {
        return Err(ProfileError {
            line: None,
            message: format!(
                "file too large ({} bytes, at most {MAX_PROFILE_BYTES})",
                text.len()
            ),
        });
    }
    toml::from_str::<T>(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        ProfileError {
            line,
            message: e.message().to_string(),
        }
    })
}
