//! The main-thread guard our per-frame callbacks start with.
//!
//! Release builds use gdext's `safeguards-release-disengaged` (docs/performance.md measures
//! why): gdext then no longer checks on every engine call that it runs on the main thread. Our
//! library calls the engine only from its own callbacks, so checking once at the top of each
//! per-frame callback keeps the guarantee: a node moved into a sub-thread process group does
//! nothing (and says so once) instead of touching the scene from another thread.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    static MAIN: Cell<bool> = const { Cell::new(false) };
}

static WARNED: AtomicBool = AtomicBool::new(false);

/// Marks the calling thread as Godot's main thread (called when the extension initialises, on
/// the main thread).
pub fn mark_main_thread() {
    MAIN.set(true);
}

/// Whether a per-frame callback runs off the main thread (then it must do nothing); warns once.
pub fn off_main_thread() -> bool {
    if MAIN.get() {
        return false;
    }
    if !WARNED.swap(true, Ordering::Relaxed) {
        godot::global::godot_warn!(
            "vr_arms: a vr_arms node runs outside the main thread (its process_thread_group is a sub-thread?): it does nothing there. Put vr_arms nodes in the main thread's process group."
        );
    }
    true
}
