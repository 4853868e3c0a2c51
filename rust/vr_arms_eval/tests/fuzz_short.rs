//! A short fuzz run is part of the normal tests (the long one is `cargo xtask fuzz`).

#[test]
fn twenty_thousand_adversarial_frames_give_no_panic_and_no_non_finite_output() {
    let r = vr_arms_eval::fuzz::run(20_000, 7);
    assert_eq!(r.frames, 20_000);
    assert_eq!(r.panics, 0, "{r:?}");
    assert_eq!(r.non_finite, 0, "{r:?}");
}
