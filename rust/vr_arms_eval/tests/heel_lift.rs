//! Walking, the trailing foot lifts its heel rather than pull the hips (and the head) down:
//! measured on CMU's brisk walk of `../shared/mocap/everyday/` (motion capture kept outside the
//! repository; this test fails, not skips, without it), the whole body as the evaluation runs
//! it from the clip's headset and wrists.

use std::path::PathBuf;

use vr_arms_core::lower_body::LowerBodySettings;
use vr_arms_eval::clip::Clip;
use vr_arms_eval::whole_body_metrics::evaluate_whole_body;
use vr_arms_eval::whole_body_report::WholeSettings;

fn head_cm(clip: &Clip, max_heel_lift_m: f32) -> f32 {
    let settings = WholeSettings::default();
    let lower = LowerBodySettings {
        max_heel_lift_m,
        ..settings.lower
    };
    let options = vr_arms_eval::eval::EvalOptions {
        profile: settings.profile,
        ..Default::default()
    };
    let r = evaluate_whole_body(clip, &options, lower).expect("a clip with legs");
    r.methods[0].head_cm
}

#[test]
fn a_brisk_walk_keeps_the_head_on_the_headset_with_the_heel_lift() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/mocap/everyday/cmu07_12_brisk_walk_cc.bvh");
    let clip = Clip::load(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the motion capture beside the repository)",
            path.display()
        )
    });
    let with = head_cm(&clip, LowerBodySettings::default().max_heel_lift_m);
    let without = head_cm(&clip, 0.0);
    assert!(
        with < 1.5,
        "with the heel lift the head is {with} cm off the headset"
    );
    assert!(without > 2.5, "without it, {without} cm");
}
