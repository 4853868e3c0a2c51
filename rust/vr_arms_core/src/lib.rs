//! Pure maths of **vr_arms**: every stage of the VR arm pipeline as plain Rust on `glam` types.
//!
//! No Godot types live here, so everything is tested with plain `cargo test` and the same code
//! runs in the engine (through the `vr_arms` GDExtension), in benchmarks and in the motion-capture
//! evaluation.
//!
//! Conventions: metres, radians and seconds unless a name says otherwise (`_deg`, `_ms`).
//! Every function is total: non-finite input is repaired at the boundary and no NaN or infinity
//! ever comes out.

pub mod angles;
pub mod arm_frame;
pub mod arm_solve;
pub mod body;
pub mod body_avoidance;
pub mod body_follow;
pub mod body_frame;
pub mod body_pipeline;
pub mod bone_rename;
pub mod budget;
pub mod calibration;
pub mod clavicle_follow;
pub mod controller_targets;
pub mod crowd_detail;
pub mod detail_change;
pub mod elbow_hint;
pub mod elbow_swivel;
pub mod elbow_torso;
pub mod finger_step;
pub mod finite;
pub mod first_person;
pub mod forearm_twist;
pub mod hand_frame;
pub mod hand_pose;
pub mod hand_tracking;
pub mod held_position;
pub mod input_guard;
pub mod jitter;
pub mod lower_body;
pub mod net;
pub mod pipeline;
pub mod pose;
pub mod pose_tree;
pub mod profile;
pub mod reach_clamp;
#[cfg(any(test, feature = "testing"))]
pub mod reference_arms;
#[cfg(any(test, feature = "testing"))]
pub mod reference_body;
pub mod rest_facing;
pub mod revolver;
pub mod rig_names;
pub mod side;
pub mod skeleton_bones;
pub mod smoothing;
pub mod soft_ik;
pub mod spine_and_legs;
pub mod spring;
pub mod start_height;
#[cfg(any(test, feature = "testing"))]
pub mod sweep;
pub mod target_router;
pub mod tracked_curls;
pub mod tracking_loss;
pub mod tracking_trace;
pub mod two_bone_ik;
pub mod upper_body_follow;
pub mod walk_heading;

pub use arm_solve::{ArmBones, ArmCalibration, ArmGoal, ArmSolve, solve_arm};
pub use pose::Pose;
pub use side::{PerSide, Side};
pub use two_bone_ik::{ArmPose, TwoBoneGoal, TwoBoneSolution, solve_two_bone};
