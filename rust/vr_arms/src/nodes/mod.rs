//! One Godot class per file.

pub mod avatar_calibrator;
pub mod body_avoidance;
pub mod body_follow;
pub mod budget;
pub mod clavicle_follow;
pub mod common;
pub mod controller_targets;
pub mod elbow_hint_solver;
pub mod forearm_twist;
pub mod hand_pose_copy;
pub mod hand_pose_driver;
pub mod holster;
pub mod profile_export;
pub mod reach_clamp;
pub mod revolver;
pub mod revolver_hold;
pub mod rig_frame;
pub mod target_router;
pub mod upper_body_follow;
pub mod vr_arm_pipeline;
pub mod vr_arm_rig;
pub mod vr_arm_targets;
pub mod vr_arms_setup;
pub mod vr_remote_body;
pub mod xr_tracking_simulator;
