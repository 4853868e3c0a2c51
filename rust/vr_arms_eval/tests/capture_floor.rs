//! The whole body stands on the capture's own floor: on CMU subject 7's walk
//! (`../shared/mocap/everyday/`, kept outside the repository; this test fails, not skips,
//! without it) the feet stand 1.7 cm higher for every metre walked, and the body walked on a
//! level floor under that capture keeps its head off the headset at the far end.

mod common;

use vr_arms_eval::clip::Clip;
use vr_arms_eval::eval::EvalOptions;
use vr_arms_eval::whole_body_metrics::evaluate_whole_body;
use vr_arms_eval::whole_body_report::WholeSettings;

fn walk() -> Clip {
    common::everyday_clip("cmu07_06_walk_cc.bvh")
}

/// The floor found rises along the walk as the performer's planted feet do (1.7 cm a metre),
/// and on it the head stays on the headset (0.00 cm; 0.58 on the level floor) with no foot
/// under it.
#[test]
fn a_walk_on_a_rising_capture_floor_keeps_the_head_on_the_headset() {
    let clip = walk();
    let plane = clip.floor_plane();
    assert!(
        (0.015..0.02).contains(&plane.slope.y) && plane.slope.x.abs() < 0.002,
        "{plane:?}"
    );
    let settings = WholeSettings::default();
    let options = EvalOptions {
        profile: settings.profile,
        ..Default::default()
    };
    let r = evaluate_whole_body(&clip, &options, settings.lower).expect("a clip with legs");
    let ours = r.methods[0];
    assert!(ours.head_cm < 0.1, "the head is {} cm off", ours.head_cm);
    assert_eq!(ours.floor_penetration_frames, 0);
}
