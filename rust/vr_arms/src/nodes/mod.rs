//! The Godot classes: each in the file of its name (a few small ones beside the class they go
//! with: `holster.rs` holds `HolsterZone` and `HolsterBelt`), a class's own parts in a folder
//! of its name. What several classes share is in `crate::shared`.

pub mod avatar_calibrator;
pub mod avatar_sync;
pub mod body_avoidance;
pub mod body_detail;
pub mod body_follow;
pub mod cartridge_hand;
pub mod clavicle_follow;
pub mod controller_targets;
pub mod elbow_hint_solver;
pub mod first_person_head;
pub mod forearm_twist;
pub mod hand_pose_copy;
pub mod hand_pose_driver;
pub mod holster;
pub mod lower_body_rig;
pub mod profile_export;
pub mod reach_clamp;
pub mod revolver;
pub mod revolver_hold;
pub mod target_router;
pub mod upper_body_follow;
pub mod vr_arm_rig;
pub mod vr_arm_targets;
pub mod vr_arms_setup;
pub mod vr_body_solver;
pub mod vr_remote_body;
pub mod xr_tracking_simulator;
