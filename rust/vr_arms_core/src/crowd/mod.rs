//! Many bodies at once: the update budget, levels of detail and their changes.

pub mod budget;
pub mod crowd_detail;
pub mod detail_change;
pub mod held_position;
