//! Evaluation of vr_arms on real motion capture: a BVH reader, the clip model (truth and
//! simulated tracking), the evaluation of our pipeline and the baselines, the cross-validated
//! choice of the tuned defaults, and the report (markdown and a JSON summary).

pub mod bvh;
pub mod clip;
pub mod clip_body;
pub mod clip_rest;
pub mod eval;
pub mod everyday_targets;
pub mod floor_plane;
pub mod fuzz;
pub mod replay;
pub mod report;
pub mod seated;
pub mod skeleton;
pub mod summary;
pub mod targets;
pub mod tune;
pub mod whole_body;
pub mod whole_body_bounds;
pub mod whole_body_metrics;
pub mod whole_body_report;
