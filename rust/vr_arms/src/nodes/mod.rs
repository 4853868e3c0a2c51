//! One Godot class per file.

pub mod vr_arm_rig;
pub mod xr_tracking_simulator;
