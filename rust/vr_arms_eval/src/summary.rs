//! The machine-readable summary: one JSON object,
//! `{"clips": N, "frames": N, "methods": {METHOD: {MODE: {METRIC: number}}},
//! "groups": {GROUP: {METHOD: {MODE: {METRIC: number}}}},
//! "per_clip": {CLIP: {METHOD: {MODE: {METRIC: number}}}}}`: `methods` pooled over every clip,
//! `groups` the same pooled over each group's clips (`everyday`, `performance`).
//!
//! A metric that does not apply to a method or mode (or has no frames) is left out; JSON has no
//! NaN.

use std::collections::BTreeMap;

use crate::eval::{ClipResult, Metrics, mean, p95};
use crate::report::merged;

/// The JSON names of a method and a mode of the evaluation's rows.
fn names(method: &str, mode: &str) -> (String, String) {
    let method = match method {
        "headset_only_torso" => "headset_only",
        m => m,
    };
    (method.to_string(), mode.replace('-', "_"))
}

/// The metrics of one (method, mode), by their JSON names.
pub fn metrics(m: &Metrics) -> BTreeMap<&'static str, f64> {
    let mut out = BTreeMap::new();
    let mut put = |name: &'static str, v: f32| {
        if v.is_finite() {
            out.insert(name, v as f64);
        }
    };
    put("hand_reachable_cm", mean(&m.hand_reachable_cm));
    put("elbow_mean_cm", mean(&m.elbow_cm));
    put("elbow_p95_cm", p95(&m.elbow_cm));
    put("shoulder_cm", mean(&m.shoulder_cm));
    put("chest_yaw_deg", mean(&m.chest_yaw_deg));
    put("upper_body_cm", mean(&m.upper_body_cm));
    if m.frames > 0 && m.minutes > 0.0 {
        put("flips_per_min_excess", m.flips_per_min_excess());
        put("jitter_excess", m.jitter_excess());
    }
    out
}

/// The whole body's figures of one method, by their JSON names.
fn whole_values(m: &crate::whole_body_metrics::WholeBodyFigures) -> BTreeMap<&'static str, f64> {
    let mut values = BTreeMap::new();
    for (name, v) in [
        ("head_cm", m.head_cm),
        ("hips_cm", m.hips_cm),
        ("chest_cm", m.chest_cm),
        ("knees_cm", m.knees_cm),
        ("feet_cm", m.feet_cm),
        ("arms_cm", m.arms_cm),
        ("elbows_cm", m.elbows_cm),
        ("full_body_mpjpe_cm", m.full_body_mpjpe_cm),
        ("foot_skate_cm_s_excess", m.foot_skate_cm_s_excess),
        (
            "floor_penetration_frames",
            m.floor_penetration_frames as f32,
        ),
        ("steps_per_min", m.steps_per_min),
        ("clip_steps_per_min", m.clip_steps_per_min),
        ("flips_per_min_excess", m.flips_per_min_excess),
        ("chest_yaw_deg", m.chest_yaw_deg),
    ] {
        if v.is_finite() {
            values.insert(name, v as f64);
        }
    }
    values
}

type Methods = BTreeMap<String, BTreeMap<String, BTreeMap<&'static str, f64>>>;

/// Each clip's figures, as `methods` has them pooled: `{CLIP: {METHOD: {MODE: {METRIC: n}}}}`
/// (the whole body's elbows, MPJPE and feet under mode `whole_body`).
fn per_clip(
    results: &[ClipResult],
    whole: &[crate::whole_body_metrics::WholeBodyResult],
) -> BTreeMap<String, Methods> {
    let mut out: BTreeMap<String, Methods> = BTreeMap::new();
    for r in results {
        let clip = out.entry(r.name.clone()).or_default();
        for (method, mode, m) in &r.rows {
            let (method, mode) = names(method, mode);
            let values = metrics(m);
            if !values.is_empty() {
                clip.entry(method).or_default().insert(mode, values);
            }
        }
    }
    for r in whole {
        let clip = out.entry(r.clip.clone()).or_default();
        for (m, method) in r.methods.iter().zip(["ours", "standing", "hanging"]) {
            let values = whole_values(m);
            clip.entry(method.to_string())
                .or_default()
                .insert("whole_body".into(), values);
        }
    }
    out
}

/// The JSON names of the scaled-avatar metrics, by scale.
pub const SCALED: [(f32, [&str; 2]); 2] = [
    (
        0.9,
        ["elbow_mean_cm_scaled_0_9", "hand_reachable_cm_scaled_0_9"],
    ),
    (
        1.1,
        ["elbow_mean_cm_scaled_1_1", "hand_reachable_cm_scaled_1_1"],
    ),
];

/// Every (method, mode)'s figures pooled over `results`, with the scaled avatar's elbow and
/// reachable-hand errors added under the scaled names, and the whole body as mode `whole_body`.
fn pooled_methods(
    results: &[ClipResult],
    scaled: &[(f32, Vec<ClipResult>)],
    whole: &[crate::whole_body_metrics::WholeBodyResult],
) -> Methods {
    let mut methods = Methods::new();
    for (method, mode, m) in merged(results) {
        let (method, mode) = names(&method, &mode);
        let values = metrics(&m);
        if !values.is_empty() {
            methods.entry(method).or_default().insert(mode, values);
        }
    }
    for (scale, r) in scaled {
        let Some((_, [elbow, hand])) = SCALED.iter().find(|(s, _)| s == scale) else {
            continue;
        };
        for (method, mode, m) in merged(r) {
            let (method, mode) = names(&method, &mode);
            let Some(values) = methods.get_mut(&method).and_then(|v| v.get_mut(&mode)) else {
                continue;
            };
            for (name, v) in [
                (*elbow, mean(&m.elbow_cm)),
                (*hand, mean(&m.hand_reachable_cm)),
            ] {
                if v.is_finite() {
                    values.insert(name, v as f64);
                }
            }
        }
    }
    // The whole body (with its lower half): mode `whole_body` of ours and the two baselines.
    if !whole.is_empty() {
        for (i, method) in ["ours", "standing", "hanging"].iter().enumerate() {
            let values = whole_values(&crate::whole_body_report::pooled(whole, i));
            methods
                .entry(method.to_string())
                .or_default()
                .insert("whole_body".into(), values);
        }
    }
    methods
}

/// The summary of `results` as JSON text; `scaled` holds the same evaluation with the avatar
/// scaled, one entry per [`SCALED`] scale (its elbow and reachable-hand errors are added under
/// the scaled names); `groups` names each group's clips.
pub fn to_json(
    results: &[ClipResult],
    frames: usize,
    scaled: &[(f32, Vec<ClipResult>)],
    whole: &[crate::whole_body_metrics::WholeBodyResult],
    groups: &[(&str, Vec<String>)],
) -> String {
    let methods = pooled_methods(results, scaled, whole);
    let mut by_group: BTreeMap<&str, Methods> = BTreeMap::new();
    for (group, names) in groups {
        let keep = |name: &String| names.contains(name);
        let results: Vec<ClipResult> = results.iter().filter(|r| keep(&r.name)).cloned().collect();
        let scaled: Vec<(f32, Vec<ClipResult>)> = scaled
            .iter()
            .map(|(s, r)| (*s, r.iter().filter(|r| keep(&r.name)).cloned().collect()))
            .collect();
        let whole: Vec<_> = whole.iter().filter(|r| keep(&r.clip)).cloned().collect();
        by_group.insert(group, pooled_methods(&results, &scaled, &whole));
    }
    let mut out = serde_json::to_string_pretty(&serde_json::json!({
        "clips": results.len(),
        "frames": frames,
        "methods": methods,
        "groups": by_group,
        "per_clip": per_clip(results, whole),
    }))
    .expect("maps of numbers serialise");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_has_the_documented_shape_and_leaves_out_what_does_not_apply() {
        let ours = Metrics {
            elbow_cm: vec![2.0, 4.0],
            hand_reachable_cm: vec![0.0, 0.5],
            frames: 2,
            minutes: 0.5,
            flips: 3,
            clip_flips: 1,
            ..Default::default()
        };
        let torso = Metrics {
            chest_yaw_deg: vec![10.0, 20.0],
            ..Default::default()
        };
        let r = ClipResult {
            name: "c".into(),
            rows: vec![
                ("ours".into(), "arm-only".into(), ours),
                ("headset_only_torso".into(), "full".into(), torso),
            ],
        };
        let scaled_ours = Metrics {
            elbow_cm: vec![5.0, 7.0],
            hand_reachable_cm: vec![1.0],
            upper_body_cm: vec![9.0],
            frames: 2,
            ..Default::default()
        };
        let scaled = ClipResult {
            name: "c".into(),
            rows: vec![("ours".into(), "arm-only".into(), scaled_ours)],
        };
        let upper = Metrics {
            upper_body_cm: vec![1.0, 2.0],
            ..Default::default()
        };
        let mut r = r;
        r.rows.push(("lookat".into(), "full".into(), upper));
        let json = to_json(&[r], 2, &[(1.1, vec![scaled])], &[], &[]);
        let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        let ours = &v["methods"]["ours"]["arm_only"];
        assert_eq!(v["clips"], 1, "{json}");
        assert_eq!(v["frames"], 2, "{json}");
        assert_eq!(ours["elbow_mean_cm_scaled_1_1"], 6.0, "{json}");
        assert_eq!(ours["hand_reachable_cm_scaled_1_1"], 1.0, "{json}");
        assert!(!json.contains("scaled_0_9"), "no 0.9 run given: {json}");
        assert_eq!(
            v["methods"]["lookat"],
            serde_json::json!({"full": {"upper_body_cm": 1.5}}),
            "{json}"
        );
        assert_eq!(
            v["methods"]["headset_only"],
            serde_json::json!({"full": {"chest_yaw_deg": 15.0}}),
            "{json}"
        );
        assert_eq!(ours["elbow_mean_cm"], 3.0, "{json}");
        assert_eq!(ours["flips_per_min_excess"], 4.0, "{json}");
        assert_eq!(ours["hand_reachable_cm"], 0.25, "{json}");
        // No shoulder or chest figures for an arm-only row without them; no NaN anywhere.
        assert!(
            !json.contains("shoulder_cm") && !json.contains("NaN"),
            "{json}"
        );
    }

    /// Each clip's own figures under `per_clip`, beside the pooled ones.
    #[test]
    fn per_clip_holds_each_clips_own_figures() {
        let clip = |name: &str, elbow: f32| ClipResult {
            name: name.into(),
            rows: vec![(
                "ours".into(),
                "arm-only".into(),
                Metrics {
                    elbow_cm: vec![elbow],
                    frames: 1,
                    ..Default::default()
                },
            )],
        };
        let json = to_json(
            &[clip("a", 1.0), clip("b", 3.0)],
            2,
            &[],
            &[],
            &[
                ("everyday", vec!["a".into()]),
                ("performance", vec!["b".into()]),
            ],
        );
        let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        assert_eq!(
            v["methods"]["ours"]["arm_only"]["elbow_mean_cm"], 2.0,
            "{json}"
        );
        let per = &v["per_clip"];
        assert_eq!(per["a"]["ours"]["arm_only"]["elbow_mean_cm"], 1.0, "{json}");
        assert_eq!(per["b"]["ours"]["arm_only"]["elbow_mean_cm"], 3.0, "{json}");
        // Each group pooled over its own clips, with the keys of `methods`.
        let groups = &v["groups"];
        assert_eq!(
            groups["everyday"]["ours"]["arm_only"]["elbow_mean_cm"], 1.0,
            "{json}"
        );
        assert_eq!(
            groups["performance"]["ours"]["arm_only"]["elbow_mean_cm"], 3.0,
            "{json}"
        );
    }

    #[test]
    fn the_whole_body_is_mode_whole_body_of_ours_and_both_baselines() {
        use crate::whole_body_metrics::{WholeBodyFigures, WholeBodyResult};
        let fig = |hips: f32| WholeBodyFigures {
            hips_cm: hips,
            floor_penetration_frames: 2,
            frames: 10,
            ..Default::default()
        };
        let whole = WholeBodyResult {
            clip: "c".into(),
            methods: [fig(8.0), fig(18.0), fig(10.0)],
        };
        let json = to_json(&[], 0, &[], &[whole], &[("everyday", vec!["c".into()])]);
        let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        for (method, hips) in [("ours", 8.0), ("standing", 18.0), ("hanging", 10.0)] {
            let m = &v["methods"][method]["whole_body"];
            assert_eq!(m["hips_cm"], hips, "{json}");
            assert_eq!(m["floor_penetration_frames"], 2.0, "{json}");
            for key in [
                "head_cm",
                "knees_cm",
                "feet_cm",
                "full_body_mpjpe_cm",
                "foot_skate_cm_s_excess",
            ] {
                assert!(m[key].is_number(), "{key}: {json}");
            }
            // Each clip's and each group's whole body has the same keys.
            assert_eq!(v["per_clip"]["c"][method]["whole_body"], *m, "{json}");
            assert_eq!(v["groups"]["everyday"][method]["whole_body"], *m, "{json}");
        }
    }
}
