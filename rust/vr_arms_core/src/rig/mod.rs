//! The rigs people bring: bone names, the rest pose's facing, measures and calibration, the first-person head.

pub mod bone_rename;
pub mod calibration;
pub mod first_person;
pub mod rest_facing;
pub mod rig_names;
pub mod start_height;
