use vr_arms_core::lower_body::LowerBodySettings;
use vr_arms_eval::clip::Clip;
use vr_arms_eval::eval::EvalOptions;
use vr_arms_eval::whole_body_metrics::{WHOLE_BODY_METHODS, evaluate_whole_body};

fn main() {
    let dir = std::path::Path::new("/work/shared/mocap");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "bvh").then_some(p)
        })
        .collect();
    names.sort();
    let args: Vec<f32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let mut s = LowerBodySettings::default();
    if args.len() >= 3 {
        s.lean_deg_per_m = args[0];
        s.lean_head_pitch_share = args[1];
        s.hips_over_feet = args[2];
    }
    if args.len() >= 5 {
        s.step_distance_m = args[3];
        s.step_time_s = args[4];
    }
    if args.len() >= 6 {
        s.stance_width_m = args[5];
    }
    let mut tot = [[0.0f32; 9]; 3];
    let mut n = 0.0;
    for p in names {
        let c = Clip::load(&p).unwrap();
        let Some(r) = evaluate_whole_body(&c, &EvalOptions::default(), s) else {
            continue;
        };
        n += 1.0;
        for (mi, m) in r.methods.iter().enumerate() {
            let v = [
                m.head_cm,
                m.hips_cm,
                m.chest_cm,
                m.knees_cm,
                m.feet_cm,
                m.arms_cm,
                m.full_body_mpjpe_cm,
                m.floor_penetration_frames as f32 / m.frames as f32 * 100.0,
                m.foot_skate_cm_s_excess,
            ];
            for k in 0..9 {
                tot[mi][k] += v[k];
            }
            if mi == 0 {
                println!(
                    "{:40} head {:5.1} hips {:5.1} chest {:5.1} knees {:5.1} feet {:5.1} arms {:5.1} mpjpe {:5.1} pen {:4.1}% skate {:+5.1}",
                    r.clip, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]
                );
            }
        }
    }
    for (mi, t) in tot.iter().enumerate() {
        let v: Vec<f32> = t.iter().map(|x| x / n).collect();
        println!(
            "MEAN {:20} head {:5.1} hips {:5.1} chest {:5.1} knees {:5.1} feet {:5.1} arms {:5.1} mpjpe {:5.1} pen {:4.1}% skate {:+5.1}",
            WHOLE_BODY_METHODS[mi], v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]
        );
    }
}
