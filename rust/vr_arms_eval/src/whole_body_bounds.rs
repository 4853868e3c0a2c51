//! What the feet target asks of a body driven by the headset: feet placed from the performer's
//! own motion, which no method running from three tracked points has. These are bounds, not
//! methods: each shows how close feet kept on the floor come to the performer's when they know
//! something the tracking does not (the ankles a moment ago, the true hips and pelvis facing, a
//! stance fitted on the clip itself).

use glam::Vec3;
use vr_arms_core::Side;

use crate::clip::Clip;
use crate::whole_body_metrics::{AnkleFloor, ankle_floor};

/// Delays (seconds) of the "performer's own ankles, late" bounds.
pub const DELAYS_S: [f32; 3] = [0.1, 0.2, 0.5];

/// One clip's bounds: the mean ankle error (cm, both ankles) of each placement, and the frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FeetBounds {
    /// The performer's ankles straight down on the floor (only their height is wrong).
    pub on_floor_cm: f32,
    /// The performer's ankles [`DELAYS_S`] ago, on the floor.
    pub late_cm: [f32; DELAYS_S.len()],
    /// The performer's true hips and pelvis facing, each ankle at the clip's own mean offset from
    /// them (fitted on the clip itself), on the floor.
    pub hips_stance_cm: f32,
    /// The headset and its facing, each ankle at the clip's own mean offset from them (fitted on
    /// the clip itself), on the floor.
    pub head_stance_cm: f32,
    pub frames: usize,
}

/// A point and a horizontal facing (unit, world) that an ankle's offset is measured from.
#[derive(Clone, Copy)]
struct Anchor {
    at: Vec3,
    forward: Vec3,
}

impl Anchor {
    /// `forward` made horizontal and unit; `fallback` when it has no horizontal part.
    fn new(at: Vec3, forward: Vec3, fallback: Vec3) -> Self {
        let f = Vec3::new(forward.x, 0.0, forward.z).normalize_or(fallback);
        Self { at, forward: f }
    }

    fn right(&self) -> Vec3 {
        self.forward.cross(Vec3::Y)
    }

    /// `p`'s horizontal offset from the anchor as (right, forward).
    fn local(&self, p: Vec3) -> (f32, f32) {
        let d = p - self.at;
        (d.dot(self.right()), d.dot(self.forward))
    }

    /// The point at horizontal offset `o` (right, forward) from the anchor, at height `y`.
    fn place(&self, o: (f32, f32), floor: &AnkleFloor) -> Vec3 {
        let p = self.at + self.right() * o.0 + self.forward * o.1;
        Vec3::new(p.x, floor.y(p), p.z)
    }
}

/// Per frame: the performer's ankles (left, right) and the two anchors (hips, headset).
struct Track {
    ankles: Vec<[Vec3; 2]>,
    hips: Vec<Anchor>,
    head: Vec<Anchor>,
}

fn track(clip: &Clip) -> Option<Track> {
    let mut t = Track {
        ankles: Vec::new(),
        hips: Vec::new(),
        head: Vec::new(),
    };
    let (mut hips_facing, mut head_facing) = (Vec3::Z, Vec3::Z);
    for k in 0..clip.frame_count() {
        let f = clip.frame(k);
        let lower = f.lower?;
        t.ankles.push(Side::BOTH.map(|s| *lower.ankle.get(s)));
        // The performer's left is +X facing +Z: forward is up x (right hip - left hip).
        let across = *lower.upper_leg.get(Side::Right) - *lower.upper_leg.get(Side::Left);
        let hips = Anchor::new(lower.hips, Vec3::Y.cross(across), hips_facing);
        let head = Anchor::new(
            f.headset.position,
            f.headset.rotation * Vec3::NEG_Z,
            head_facing,
        );
        (hips_facing, head_facing) = (hips.forward, head.forward);
        t.hips.push(hips);
        t.head.push(head);
    }
    Some(t)
}

/// The mean error (m) of each ankle placed at its mean offset from `anchors` over the clip.
fn stance_error(ankles: &[[Vec3; 2]], anchors: &[Anchor], floor: &AnkleFloor) -> f32 {
    let n = ankles.len().max(1) as f32;
    let mut offset = [(0.0f32, 0.0f32); 2];
    for (a, anchor) in ankles.iter().zip(anchors) {
        for (o, p) in offset.iter_mut().zip(a) {
            let (r, f) = anchor.local(*p);
            *o = (o.0 + r / n, o.1 + f / n);
        }
    }
    let mut sum = 0.0;
    for (a, anchor) in ankles.iter().zip(anchors) {
        for (o, p) in offset.iter().zip(a) {
            sum += anchor.place(*o, floor).distance(*p);
        }
    }
    sum / (2.0 * n)
}

/// `clip`'s bounds; `None` for a clip without legs.
pub fn feet_bounds(clip: &Clip) -> Option<FeetBounds> {
    let floor = ankle_floor(clip)?;
    let t = track(clip)?;
    let n = t.ankles.len();
    if n == 0 {
        return None;
    }
    let on_floor = |p: Vec3| Vec3::new(p.x, floor.y(p), p.z);
    let mean = |error: &dyn Fn(usize, usize) -> f32| {
        let sum: f32 = (0..n).flat_map(|k| [0, 1].map(|s| error(k, s))).sum();
        100.0 * sum / (2 * n) as f32
    };
    let late = DELAYS_S.map(|delay| {
        let frames = (delay / clip.frame_time).round() as usize;
        mean(&|k, s| on_floor(t.ankles[k.saturating_sub(frames)][s]).distance(t.ankles[k][s]))
    });
    Some(FeetBounds {
        on_floor_cm: mean(&|k, s| on_floor(t.ankles[k][s]).distance(t.ankles[k][s])),
        late_cm: late,
        hips_stance_cm: 100.0 * stance_error(&t.ankles, &t.hips, &floor),
        head_stance_cm: 100.0 * stance_error(&t.ankles, &t.head, &floor),
        frames: n,
    })
}

/// The bounds pooled over frames of all clips.
pub fn pooled(bounds: &[FeetBounds]) -> FeetBounds {
    let frames: usize = bounds.iter().map(|b| b.frames).sum();
    let n = frames.max(1) as f32;
    let mean = |f: &dyn Fn(&FeetBounds) -> f32| {
        bounds.iter().map(|b| f(b) * b.frames as f32).sum::<f32>() / n
    };
    FeetBounds {
        on_floor_cm: mean(&|b| b.on_floor_cm),
        late_cm: std::array::from_fn(|i| mean(&|b| b.late_cm[i])),
        hips_stance_cm: mean(&|b| b.hips_stance_cm),
        head_stance_cm: mean(&|b| b.head_stance_cm),
        frames,
    }
}

/// The markdown table of the pooled bounds beside the feet of the method shown above it
/// (`held_out`: its settings were chosen leave-one-clip-out; else they are the shipped ones).
pub fn table(bounds: &[FeetBounds], ours_feet_cm: f32, held_out: bool) -> String {
    let b = pooled(bounds);
    let mut rows = vec![
        "| feet placed at | feet (cm) |".to_string(),
        "|---|---|".to_string(),
        format!(
            "| the performer's ankles, straight down on the floor | {:.1} |",
            b.on_floor_cm
        ),
    ];
    for (delay, cm) in DELAYS_S.iter().zip(b.late_cm) {
        rows.push(format!(
            "| the performer's ankles {delay} s ago, on the floor | {cm:.1} |"
        ));
    }
    rows.push(format!(
        "| the performer's true hips and pelvis facing, each ankle at the clip's own mean offset from them | {:.1} |",
        b.hips_stance_cm
    ));
    rows.push(format!(
        "| the headset and its facing, each ankle at the clip's own mean offset from them | {:.1} |",
        b.head_stance_cm
    ));
    let how = if held_out {
        "held out"
    } else {
        "shipped defaults"
    };
    rows.push(format!("| ours ({how}, above) | {ours_feet_cm:.1} |"));
    format!("{}\n\n{}", rows.join("\n"), verdict(&b, ours_feet_cm))
}

/// The feet target, cm.
pub const FEET_TARGET_CM: f32 = 15.0;

/// What the pooled bounds say about the feet target, in words that follow the figures.
fn verdict(b: &FeetBounds, ours_feet_cm: f32) -> String {
    let meets = |cm: f32| if cm <= FEET_TARGET_CM { "meet" } else { "miss" };
    let late: Vec<String> = DELAYS_S
        .iter()
        .zip(b.late_cm)
        .map(|(d, cm)| format!("{d} s late they {} it ({cm:.1})", meets(cm)))
        .collect();
    let head = if b.head_stance_cm < ours_feet_cm {
        format!("{:.1} cm better than ours", ours_feet_cm - b.head_stance_cm)
    } else {
        format!("{:.1} cm worse than ours", b.head_stance_cm - ours_feet_cm)
    };
    format!(
        "Against the feet target ({FEET_TARGET_CM:.0} cm): the performer's own ankles kept on the floor {}; {}. A stance fitted on the clip under the true hips and pelvis facing {} it ({:.1}); under the headset it is {:.1} cm, {head}.",
        if b.on_floor_cm <= FEET_TARGET_CM {
            format!("meet it ({:.1})", b.on_floor_cm)
        } else {
            format!("miss it ({:.1})", b.on_floor_cm)
        },
        late.join(", "),
        if b.hips_stance_cm <= FEET_TARGET_CM {
            "meets"
        } else {
            "misses"
        },
        b.hips_stance_cm,
        b.head_stance_cm,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floor_plane::FloorPlane;

    /// Ankles standing on a level floor at `y`.
    fn level(y: f32) -> AnkleFloor {
        AnkleFloor {
            plane: FloorPlane::level(y),
            over: 0.0,
        }
    }

    fn anchor(at: Vec3, forward: Vec3) -> Anchor {
        Anchor::new(at, forward, Vec3::Z)
    }

    #[test]
    fn an_offset_measured_from_an_anchor_is_placed_back_where_it_was() {
        let a = anchor(Vec3::new(1.0, 0.9, 2.0), Vec3::new(1.0, 0.3, 1.0));
        let p = Vec3::new(1.3, 0.1, 1.6);
        let back = a.place(a.local(p), &level(0.1));
        assert!(back.distance(p) < 1e-5, "{back} against {p}");
    }

    #[test]
    fn the_right_of_an_anchor_facing_plus_z_is_minus_x() {
        // The performer's left is +X while facing +Z.
        assert!(anchor(Vec3::ZERO, Vec3::Z).right().distance(Vec3::NEG_X) < 1e-6);
    }

    #[test]
    fn a_stance_fixed_to_a_turning_anchor_is_met_and_one_left_behind_is_missed() {
        // The anchor walks along +X turning; the ankles keep a fixed stance relative to it.
        let anchors: Vec<Anchor> = (0..50)
            .map(|k| {
                let t = k as f32 * 0.05;
                anchor(Vec3::new(t, 0.9, 0.0), Vec3::new(t.sin(), 0.0, t.cos()))
            })
            .collect();
        let stance = [(-0.1, 0.05), (0.1, -0.05)];
        let fixed: Vec<[Vec3; 2]> = anchors
            .iter()
            .map(|a| stance.map(|o| a.place(o, &level(0.08))))
            .collect();
        assert!(stance_error(&fixed, &anchors, &level(0.08)) < 1e-5);
        // Ankles that stay where they started are off by about as much as the anchor moved.
        let stayed = vec![fixed[0]; fixed.len()];
        let e = stance_error(&stayed, &anchors, &level(0.08));
        assert!(e > 0.5, "{e}");
    }

    #[test]
    fn a_performer_standing_still_is_met_by_every_bound() {
        let clip = crate::whole_body::tests::standing_clip(60);
        let b = feet_bounds(&clip).expect("a clip with legs");
        assert_eq!(b.frames, 60);
        for cm in [b.on_floor_cm, b.hips_stance_cm, b.head_stance_cm]
            .into_iter()
            .chain(b.late_cm)
        {
            assert!(cm < 0.1, "{b:?}");
        }
        assert!(feet_bounds(&crate::clip_body::tests::clip()).is_none());
    }

    #[test]
    fn the_words_follow_the_figures() {
        let b = FeetBounds {
            on_floor_cm: 7.0,
            late_cm: [10.0, 16.0, 30.0],
            hips_stance_cm: 24.0,
            head_stance_cm: 31.0,
            frames: 10,
        };
        let v = verdict(&b, 30.0);
        assert!(v.contains("meet it (7.0)"), "{v}");
        assert!(v.contains("0.1 s late they meet it (10.0)"), "{v}");
        assert!(v.contains("0.2 s late they miss it (16.0)"), "{v}");
        assert!(v.contains("misses it (24.0)"), "{v}");
        assert!(v.contains("1.0 cm worse than ours"), "{v}");
        assert!(verdict(&b, 32.0).contains("1.0 cm better than ours"));
    }
}
