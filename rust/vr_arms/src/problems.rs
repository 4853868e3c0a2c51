//! Configuration problems: listed in the editor, logged at runtime once per change, never per
//! frame.

use godot::global::godot_error;
use godot::obj::Singleton;

/// Remembers what was last reported so a broken setup logs one clear error, not one per frame.
#[derive(Debug)]
pub struct ProblemReport {
    owner: &'static str,
    last: Option<Vec<String>>,
}

impl ProblemReport {
    pub fn new(owner: &'static str) -> Self {
        Self { owner, last: None }
    }

    /// Logs `problems` if they differ from what was last logged. In the editor nothing is logged:
    /// the configuration warnings show there instead.
    pub fn runtime(&mut self, problems: &[String]) {
        if self.last.as_deref() == Some(problems) {
            return;
        }
        self.last = Some(problems.to_vec());
        if problems.is_empty() || godot::classes::Engine::singleton().is_editor_hint() {
            return;
        }
        godot_error!("{}: {}", self.owner, problems.join(" "));
    }

    /// Forget what was reported (after a property changed), so a new problem is logged again.
    pub fn reset(&mut self) {
        self.last = None;
    }
}
