//! Fixtures for tests, the evaluation, the benchmarks and the fuzzer (the `testing` feature): the reference humanoid and the arms' sweep.

#[cfg(any(test, feature = "testing"))]
pub mod reference_arms;
#[cfg(any(test, feature = "testing"))]
pub mod reference_body;
#[cfg(any(test, feature = "testing"))]
pub mod sweep;
