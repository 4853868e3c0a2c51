//! Configuration problems: listed in the editor as configuration warnings, and at runtime
//! logged as one warning per distinct problem, never per frame.

use godot::global::godot_warn;

/// Remembers what was reported so a broken setup logs each problem once, not once per frame.
#[derive(Debug)]
pub struct ProblemReport {
    owner: &'static str,
    last: Option<Vec<String>>,
    /// The problems reported and still present, by [`problem_key`].
    reported: Vec<String>,
    countdown: u32,
}

/// What makes two problem texts the same problem: the text with its numbers left out, so a
/// problem whose measured value moves by float noise (a non-uniform scale of 1.0001 and then of
/// 1.0002) is one problem.
pub fn problem_key(text: &str) -> String {
    // A run of number characters holding at least one digit is a number.
    let number_char = |c: char| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+');
    let mut key = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |run: &mut String, key: &mut String| {
        if run.chars().any(|c| c.is_ascii_digit()) {
            key.push('#');
        } else {
            key.push_str(run);
        }
        run.clear();
    };
    for c in text.chars() {
        if number_char(c) {
            run.push(c);
        } else {
            flush(&mut run, &mut key);
            key.push(c);
        }
    }
    flush(&mut run, &mut key);
    key
}

/// Frames between two checks of a node's setup at runtime: checking builds strings and looks
/// bones up by name, too much to do every frame for every avatar.
const CHECK_EVERY: u32 = 30;

impl ProblemReport {
    pub fn new(owner: &'static str) -> Self {
        Self {
            owner,
            last: None,
            reported: Vec::new(),
            countdown: 0,
        }
    }

    /// Logs, as one warning, each of `problems` not reported yet (a problem that went away and
    /// came back is reported again). In the editor nothing is logged: the configuration
    /// warnings show there instead.
    pub fn runtime(&mut self, problems: &[String]) {
        if self.last.as_deref() == Some(problems) {
            return;
        }
        self.last = Some(problems.to_vec());
        let new = self.take_new(problems);
        if new.is_empty() || crate::engine::in_editor() {
            return;
        }
        godot_warn!("{}: {}", self.owner, new.join(" "));
    }

    /// The problems among `problems` not reported before; remembers them, and forgets those
    /// that are gone.
    fn take_new(&mut self, problems: &[String]) -> Vec<String> {
        let keys: Vec<String> = problems.iter().map(|p| problem_key(p)).collect();
        self.reported.retain(|k| keys.contains(k));
        let mut new = Vec::new();
        for (problem, key) in problems.iter().zip(keys) {
            if !self.reported.contains(&key) {
                self.reported.push(key);
                new.push(problem.clone());
            }
        }
        new
    }

    /// Check at the next opportunity (after a property changed). What was reported stays
    /// reported while it is still a problem.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_do_not_make_a_new_problem() {
        assert_eq!(
            problem_key("non-uniform scale (1.0001, 0.99, 1e-5): bad"),
            problem_key("non-uniform scale (1.0002, 0.98, 2e-5): bad")
        );
        assert_ne!(
            problem_key("no bone `LeftHand`"),
            problem_key("no bone `RightHand`")
        );
        assert_eq!(problem_key("scale -1.5 of 3"), "scale # of #");
    }

    #[test]
    fn each_problem_is_reported_once_while_it_lasts() {
        let mut r = ProblemReport::new("Test");
        let a = || "scale 1.0001 is off".to_string();
        let b = || "no target".to_string();
        assert_eq!(r.take_new(&[a()]), vec![a()]);
        // The same problem with float noise: not new.
        assert!(r.take_new(&["scale 1.0002 is off".into()]).is_empty());
        // A second problem beside it: only that one is new.
        assert_eq!(r.take_new(&[a(), b()]), vec![b()]);
        // Fixed, then back: reported again.
        assert!(r.take_new(&[b()]).is_empty());
        assert_eq!(r.take_new(&[a(), b()]), vec![a()]);
    }
}
