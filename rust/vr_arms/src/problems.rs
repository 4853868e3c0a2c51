//! Configuration problems: listed in the editor, logged at runtime once per change, never per
//! frame.

use godot::global::godot_error;

/// Remembers what was last reported so a broken setup logs one clear error, not one per frame.
#[derive(Debug)]
pub struct ProblemReport {
    owner: &'static str,
    last: Option<Vec<String>>,
    countdown: u32,
}

/// Frames between two checks of a node's setup at runtime: checking builds strings and looks
/// bones up by name, too much to do every frame for every avatar.
const CHECK_EVERY: u32 = 30;

impl ProblemReport {
    pub fn new(owner: &'static str) -> Self {
        Self {
            owner,
            last: None,
            countdown: 0,
        }
    }

    /// Logs `problems` if they differ from what was last logged. In the editor nothing is logged:
    /// the configuration warnings show there instead.
    pub fn runtime(&mut self, problems: &[String]) {
        if self.last.as_deref() == Some(problems) {
            return;
        }
        self.last = Some(problems.to_vec());
        if problems.is_empty() || crate::nodes::common::in_editor() {
            return;
        }
        godot_error!("{}: {}", self.owner, problems.join(" "));
    }

    /// Forget what was reported (after a property changed), so a new problem is logged again,
    /// and check at the next opportunity.
    pub fn reset(&mut self) {
        self.last = None;
        self.countdown = 0;
    }

    /// Whether the setup should be checked this frame: the first time, after `reset`, then every
    /// `CHECK_EVERY` frames.
    pub fn due(&mut self) -> bool {
        if self.countdown == 0 {
            self.countdown = CHECK_EVERY;
            true
        } else {
            self.countdown -= 1;
            false
        }
    }
}
