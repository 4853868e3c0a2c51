//! Walking, the trailing foot lifts its heel rather than pull the hips (and the head) down, and
//! a foot left far behind steps at once: measured on CMU's brisk walk of
//! `../shared/mocap/everyday/` (motion capture kept outside the repository; this test fails,
//! not skips, without it), the whole body as the evaluation runs it from the clip's headset and
//! wrists.

mod common;

use vr_arms_core::lower_body::LowerBodySettings;
use vr_arms_eval::clip::Clip;
use vr_arms_eval::whole_body_metrics::evaluate_whole_body;
use vr_arms_eval::whole_body_report::WholeSettings;

fn head_cm(clip: &Clip, max_heel_lift_m: f32, strand_below_m: f32) -> f32 {
    let settings = WholeSettings::default();
    let lower = LowerBodySettings {
        max_heel_lift_m,
        strand_below_m,
        ..settings.lower
    };
    let options = vr_arms_eval::eval::EvalOptions {
        profile: settings.profile,
        ..Default::default()
    };
    let r = evaluate_whole_body(clip, &options, lower).expect("a clip with legs");
    r.methods[0].head_cm
}

fn brisk_walk() -> Clip {
    common::everyday_clip("cmu07_12_brisk_walk_cc.bvh")
}

/// The heel lift alone (no foot stepping early): 3.6 cm off the headset with it, 5.6 without
/// (on the capture's own floor, which is 1.6 cm lower where the clip starts fast than the level
/// floor of earlier measurements, 1.3 and 2.8 there).
#[test]
fn a_brisk_walk_keeps_the_head_on_the_headset_with_the_heel_lift() {
    let clip = brisk_walk();
    let never = 10.0;
    let with = head_cm(&clip, LowerBodySettings::default().max_heel_lift_m, never);
    let without = head_cm(&clip, 0.0, never);
    assert!(
        with < 4.0,
        "with the heel lift the head is {with} cm off the headset"
    );
    assert!(without > with + 1.5, "without it, {without} cm");
}

/// With the shipped defaults the head is within the 1 cm (0.00): the clip starts
/// mid-stride at 1.4 m/s and the foot left behind in the rest stance steps at once; waiting for
/// the other foot to land it pulls the hips down (3.57 cm pooled over the clip).
#[test]
fn a_brisk_walk_from_a_standing_stance_keeps_the_head_within_a_centimetre() {
    let clip = brisk_walk();
    let d = LowerBodySettings::default();
    let shipped = head_cm(&clip, d.max_heel_lift_m, d.strand_below_m);
    let waiting = head_cm(&clip, d.max_heel_lift_m, 10.0);
    assert!(shipped < 1.0, "the head is {shipped} cm off the headset");
    assert!(waiting > 1.0, "waiting for the other foot, {waiting} cm");
}
