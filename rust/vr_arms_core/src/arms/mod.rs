//! The arms: the target stages after the controller, in the design's order, and the two-bone solve.

pub mod arm_frame;
pub mod arm_solve;
pub mod arm_steps;
pub mod body_avoidance;
pub mod controller_targets;
pub mod elbow_hint;
pub mod elbow_swivel;
pub mod elbow_torso;
pub mod reach_clamp;
pub mod soft_ik;
pub mod target_router;
pub mod tracking_loss;
pub mod two_bone_ik;
