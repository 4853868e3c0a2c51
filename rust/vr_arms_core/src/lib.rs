//! Pure maths of **vr_arms**: every stage of the VR arm pipeline as plain Rust on `glam` types.
//!
//! No Godot types live here, so everything is tested with plain `cargo test` and the same code
//! runs in the engine (through the `vr_arms` GDExtension), in benchmarks and in the motion-capture
//! evaluation.
//!
//! Conventions: metres, radians and seconds unless a name says otherwise (`_deg`, `_ms`).
//! Every function is total: non-finite input is repaired at the boundary and no NaN or infinity
//! ever comes out.

pub mod arms;
pub mod body;
pub mod crowd;
pub mod hands;
pub mod lower_body;
pub mod maths;
pub mod net;
pub mod revolver;
pub mod rig;
pub mod stage;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod toml_file;
pub mod upper_body;

pub use arms::arm_solve::{ArmBones, ArmCalibration, ArmGoal, ArmSolve, solve_arm};
pub use arms::two_bone_ik::{LimbPose, TwoBoneGoal, TwoBoneSolution, solve_two_bone};
pub use maths::pose::Pose;
pub use maths::side::{PerSide, Side};
