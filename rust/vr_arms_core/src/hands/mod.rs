//! The hands: palm frames, hand poses and their states, hand tracking, the fingers' step.

pub mod finger_step;
pub mod hand_frame;
pub mod hand_pose;
pub mod hand_tracking;
pub mod tracked_curls;
