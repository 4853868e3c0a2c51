use glam::Vec3;
use vr_arms_core::PerSide;
use vr_arms_core::body::Tracking;
use vr_arms_core::lower_body::LowerBodySettings;
use vr_arms_eval::clip::Clip;
use vr_arms_eval::eval::EvalOptions;
use vr_arms_eval::whole_body::{WholeClipBody, truth};

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
    let o = EvalOptions::default();
    for p in names {
        let c = Clip::load(&p).unwrap();
        let Some(mut body) = WholeClipBody::new(&c, 1.0, &o.profile, LowerBodySettings::default())
        else {
            continue;
        };
        // sums: [hips fwd, hips lat, ankle fwd, ankle lat(outward), ankle width ours, ankle width truth, hips y err]
        let mut s = [0.0f64; 8];
        let mut n = 0.0;
        for k in 0..c.frame_count() {
            let f = c.frame(k);
            let Some(t) = truth(&c, k) else { continue };
            let tr = Tracking {
                head: Some(f.headset),
                controllers: PerSide::new(Some(f.controllers.left), Some(f.controllers.right)),
                ..Default::default()
            };
            let j = body.frame(&tr, c.frame_time);
            // frame: lateral = truth shoulder L - R (horizontal), forward = up x lateral
            let lat = {
                let d = t[5] - t[10];
                Vec3::new(d.x, 0.0, d.z).normalize()
            };
            let fwd = Vec3::Y.cross(lat);
            let h = j[1] - t[1];
            s[0] += h.dot(fwd) as f64;
            s[1] += h.dot(lat) as f64;
            for (a, sign) in [(4usize, 1.0f32), (9, -1.0)] {
                let e = j[a] - t[a];
                s[2] += 0.5 * e.dot(fwd) as f64;
                s[3] += 0.5 * (sign * e.dot(lat)) as f64;
            }
            s[4] += (j[4] - j[9]).dot(lat) as f64;
            s[5] += (t[4] - t[9]).dot(lat) as f64;
            s[6] += h.y as f64;
            // truth ankles midpoint relative to truth hips, forward
            s[7] += ((t[4] + t[9]) * 0.5 - t[1]).dot(fwd) as f64;
            n += 1.0;
        }
        let m: Vec<f64> = s.iter().map(|x| 100.0 * x / n).collect();
        println!(
            "{:40} hips fwd {:+5.1} lat {:+5.1} y {:+5.1} | ankle fwd {:+5.1} out {:+5.1} | width ours {:5.1} truth {:5.1} | truth feet-hips fwd {:+5.1}",
            c.name, m[0], m[1], m[6], m[2], m[3], m[4], m[5], m[7]
        );
    }
}
