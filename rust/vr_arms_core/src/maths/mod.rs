//! Small maths every part uses: poses, the pose tree, sides, angles, smoothing, springs, guards against non-finite values.

pub mod angles;
pub mod body_frame;
pub mod finite;
pub mod jitter;
pub mod pose;
pub mod pose_tree;
pub mod side;
pub mod skeleton_bones;
pub mod smoothing;
pub mod spring;
