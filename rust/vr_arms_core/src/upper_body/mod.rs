//! The upper body between the arms and the head: chest, neck and head, the clavicles, the forearms' twist.

pub mod clavicle_follow;
pub mod forearm_twist;
pub mod upper_body_follow;
