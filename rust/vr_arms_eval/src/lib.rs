//! Evaluation of vr_arms on real motion capture: a BVH reader, the clip model (truth and
//! simulated tracking), the evaluation of our pipeline and the baselines, and the report.

pub mod bvh;
pub mod clip;
pub mod eval;
pub mod fuzz;
pub mod report;
