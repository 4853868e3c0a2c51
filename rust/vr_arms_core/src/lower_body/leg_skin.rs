//! How thick the avatar's knees are, measured from its skinned mesh at rest: a knee on the floor
//! rests on its own skin. A fixed pad ([`KNEE_PAD_M`]) put the knee joint of a stylised rig's
//! thick legs (a KayKit mannequin's, 11 cm of skin round the knee) or a grown-up's knee (6-7 cm
//! in front of the joint) so low that the mesh went through the floor.

use glam::Vec3;

/// How far over the floor a knee on it is (its half thickness; avatar metres) on a rig whose
/// knee's skin is not measured from its mesh ([`super::legs::LegRest::knee_pad`]).
pub const KNEE_PAD_M: f32 = 0.05;

/// The stretch of leg about the knee that is measured, as a share of the shin's length, along
/// the thigh and along the shin from the knee joint.
const KNEE_REACH_SHARE: f32 = 0.3;

/// The share of the knee's skin (its vertices in front of the leg) closer to the bone than the
/// pad: the outermost few (a loose flap of cloth, a stray vertex) are left out.
const PAD_QUANTILE: f32 = 0.95;

/// Fewer vertices in front of the knee than this: not a mesh to measure.
const LEAST_VERTICES: usize = 16;

/// The most a pad may be, as a share of the leg's length (thigh and shin): a mesh measuring
/// more (a long skirt or coat moved by the thigh, a mesh in other units) is not the knee's skin,
/// and the fixed pad stands. KayKit's mannequin, the thickest-legged test character, measures
/// 0.29.
const MOST_PAD_SHARE: f32 = 0.35;

/// Most vertices measured per bone (every n-th beyond it): a dense mesh measures as quickly.
const MOST_VERTICES: usize = 4096;

/// The rest-pose vertices of the avatar's mesh that a leg's bones move most (skeleton space):
/// those of the upper leg and those of the lower leg.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LegVertices {
    pub thigh: Vec<Vec3>,
    pub shin: Vec<Vec3>,
}

impl LegVertices {
    /// The same vertices, at most [`MOST_VERTICES`] per bone (every n-th), non-finite ones left
    /// out.
    pub fn thinned(self) -> Self {
        let thin = |v: Vec<Vec3>| {
            let every = v.len().div_ceil(MOST_VERTICES).max(1);
            v.into_iter()
                .filter(|p| p.is_finite())
                .step_by(every)
                .collect()
        };
        Self {
            thigh: thin(self.thigh),
            shin: thin(self.shin),
        }
    }
}

/// How far in front of the knee joint its skin is (tree units): the height a knee on the floor
/// holds its joint over it. From the leg's vertices at rest (`hip`, `knee`, `ankle` its joints and
/// `hinge` the knee's hinge, flexing a positive turn about it; skeleton space): of those within
/// [`KNEE_REACH_SHARE`] of a shin's length of the knee along either bone and in front of the
/// leg (where it meets the floor kneeling: not the calf, not the back of the thigh), the distance
/// from the bone that [`PAD_QUANTILE`] of them are within. `None` for too few vertices, a leg
/// that cannot be measured or a pad over [`MOST_PAD_SHARE`] of the leg (the fixed pad stands).
pub fn knee_pad(hip: Vec3, knee: Vec3, ankle: Vec3, hinge: Vec3, v: &LegVertices) -> Option<f32> {
    let (thigh, shin) = (knee - hip, ankle - knee);
    let (thigh_len, shin_len) = (thigh.length(), shin.length());
    if !(thigh_len > 1e-6 && shin_len > 1e-6 && hinge.is_finite()) {
        return None;
    }
    let reach = KNEE_REACH_SHARE * shin_len;
    let mut near = Vec::new();
    // Each bone's vertices: from the bone's start `a` along `dir` for `len`, the knee `at_knee`
    // (0: the start, 1: the end) of it.
    let mut gather = |points: &[Vec3], a: Vec3, bone: Vec3, len: f32, at_knee: f32| {
        let dir = bone / len;
        let front = dir.cross(hinge).normalize_or_zero();
        for &p in points {
            let t = ((p - a).dot(dir) / len).clamp(0.0, 1.0);
            let off = p - (a + bone * t);
            if (t - at_knee).abs() * len <= reach && off.dot(front) >= 0.0 {
                near.push(off.length());
            }
        }
    };
    gather(&v.thigh, hip, thigh, thigh_len, 1.0);
    gather(&v.shin, knee, shin, shin_len, 0.0);
    if near.len() < LEAST_VERTICES {
        return None;
    }
    near.sort_by(f32::total_cmp);
    let pad = near[((near.len() - 1) as f32 * PAD_QUANTILE).round() as usize];
    (pad.is_finite() && pad > 0.0 && pad <= MOST_PAD_SHARE * (thigh_len + shin_len)).then_some(pad)
}

/// A leg's skin for tests: a cylinder of radius `r` round the thigh (`hip` to `knee`) and round
/// the shin (`knee` to `ankle`), 16 points round every twentieth of each bone.
#[cfg(test)]
pub(crate) fn cylinder_leg(hip: Vec3, knee: Vec3, ankle: Vec3, r: f32) -> LegVertices {
    let cylinder = |a: Vec3, b: Vec3| {
        let dir = (b - a).normalize();
        let u = dir.any_orthonormal_vector();
        let w = dir.cross(u);
        let mut out = Vec::new();
        for k in 0..=20 {
            for n in 0..16 {
                let (s, c) = (n as f32 / 16.0 * std::f32::consts::TAU).sin_cos();
                out.push(a.lerp(b, k as f32 / 20.0) + (u * c + w * s) * r);
            }
        }
        out
    };
    LegVertices {
        thigh: cylinder(hip, knee),
        shin: cylinder(knee, ankle),
    }
}

/// A kneeling knee's joint height over the floor (world units): the measured `pad` (tree units:
/// the core's world without the skeleton's scale), else [`KNEE_PAD_M`] avatar metres at `scale`
/// world units per avatar metre.
pub fn pad_or_default(pad: Option<f32>, scale: f32) -> f32 {
    pad.unwrap_or(KNEE_PAD_M * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A leg's vertices at rest: a straight leg down from a hip at 0.9 m (knee 0.45, ankle
    /// 0.03), a ring of skin every 2 cm along each bone, `front` m from the bone in front of it
    /// (+Z) and at its sides, swelling to `back` m behind it.
    fn ringed_leg(front: f32, back: f32) -> LegVertices {
        let mut v = LegVertices::default();
        for k in 0..=42 {
            let y = 0.03 + 0.02 * k as f32;
            for a in 0..16 {
                let turn = a as f32 / 16.0 * std::f32::consts::TAU;
                let (s, c) = turn.sin_cos();
                let r = front + (back - front) * (-c).max(0.0);
                let p = Vec3::new(0.1 + r * s, y, r * c);
                if y > 0.45 {
                    v.thigh.push(p);
                } else {
                    v.shin.push(p);
                }
            }
        }
        v
    }

    fn pad_of(v: &LegVertices) -> Option<f32> {
        let (hip, knee, ankle) = (
            Vec3::new(0.1, 0.9, 0.0),
            Vec3::new(0.1, 0.45, 0.0),
            Vec3::new(0.1, 0.03, 0.0),
        );
        knee_pad(hip, knee, ankle, Vec3::X, v)
    }

    /// The pad is the skin in front of the knee: 6 cm in front with a 9 cm calf behind gives
    /// 6 cm (the calf faces up in a kneel), and a thick 11 cm all round gives 11 cm.
    #[test]
    fn the_pad_is_the_skin_in_front_of_the_knee() {
        let pad = pad_of(&ringed_leg(0.06, 0.09)).expect("a measured leg");
        assert!((pad - 0.06).abs() < 0.003, "{pad}");
        let thick = pad_of(&ringed_leg(0.11, 0.11)).expect("a measured leg");
        assert!((thick - 0.11).abs() < 0.003, "{thick}");
    }

    /// Only the skin about the knee counts: a thigh 12 cm thick toward the hip and an ankle
    /// 12 cm thick leave a 5 cm knee's pad at 5 cm.
    #[test]
    fn only_the_skin_about_the_knee_counts() {
        let mut v = ringed_leg(0.05, 0.05);
        for p in v.thigh.iter_mut().chain(v.shin.iter_mut()) {
            if (p.y - 0.45).abs() > 0.2 {
                let off = Vec3::new(p.x - 0.1, 0.0, p.z);
                *p += off * 1.4;
            }
        }
        let pad = pad_of(&v).expect("a measured leg");
        assert!((pad - 0.05).abs() < 0.003, "{pad}");
    }

    /// A few stray vertices far out (a loose strap) do not lift the knee.
    #[test]
    fn a_stray_vertex_does_not_lift_the_knee() {
        let mut v = ringed_leg(0.06, 0.06);
        for k in 0..3 {
            v.shin.push(Vec3::new(0.1, 0.44 - 0.01 * k as f32, 0.3));
        }
        let pad = pad_of(&v).expect("a measured leg");
        assert!((pad - 0.06).abs() < 0.003, "{pad}");
    }

    /// The kneecap counts where the thigh bone moves it: a thigh 8 cm thick in front just above
    /// the knee, over a 5 cm shin, gives 8 cm.
    #[test]
    fn the_kneecap_on_the_thigh_counts() {
        let mut v = ringed_leg(0.05, 0.05);
        for p in v.thigh.iter_mut().filter(|p| p.y < 0.6) {
            *p = Vec3::new(0.1 + (p.x - 0.1) * 1.6, p.y, p.z * 1.6);
        }
        let pad = pad_of(&v).expect("a measured leg");
        assert!((pad - 0.08).abs() < 0.003, "{pad}");
    }

    /// The pad is the 95th percentile of the skin in front of the knee: a hundred vertices in
    /// front of the shin just below it, 1 to 100 mm from the bone, give 95 mm.
    #[test]
    fn the_pad_is_the_95th_percentile() {
        let v = LegVertices {
            thigh: vec![],
            shin: (1..=100)
                .map(|mm| Vec3::new(0.1, 0.44, mm as f32 * 0.001))
                .collect(),
        };
        let pad = pad_of(&v).expect("a measured leg");
        assert!((pad - 0.095).abs() < 1e-4, "{pad}");
    }

    /// Sixteen vertices in front of the knee are enough to measure, fifteen are not; skin on
    /// the bone itself (no thickness) is not a pad, and nor is one further than 0.35 of the
    /// leg (0.87 m) from it (a skirt, a mesh in other units): 30 cm is, 31 cm is not.
    #[test]
    fn too_few_vertices_no_thickness_or_a_mesh_far_off_are_refused() {
        let front = |n: usize, z: f32| LegVertices {
            thigh: vec![],
            shin: vec![Vec3::new(0.1, 0.44, z); n],
        };
        assert_eq!(pad_of(&front(16, 0.06)), Some(0.06));
        assert_eq!(pad_of(&front(15, 0.06)), None);
        assert_eq!(pad_of(&front(40, 0.0)), None);
        assert_eq!(pad_of(&front(40, 0.30)), Some(0.30));
        assert_eq!(pad_of(&front(40, 0.31)), None);
    }

    /// No mesh, a handful of vertices or a leg of no length: nothing measured, the fixed pad
    /// stands (5 cm at scale 1, 10 cm at scale 2).
    #[test]
    fn without_a_mesh_the_fixed_pad_stands() {
        assert_eq!(pad_of(&LegVertices::default()), None);
        let few = LegVertices {
            thigh: vec![Vec3::new(0.1, 0.5, 0.06); 5],
            shin: vec![],
        };
        assert_eq!(pad_of(&few), None);
        let v = ringed_leg(0.06, 0.06);
        assert_eq!(knee_pad(Vec3::ZERO, Vec3::ZERO, Vec3::Y, Vec3::X, &v), None);
        assert_eq!(pad_or_default(None, 1.0), KNEE_PAD_M);
        assert_eq!(pad_or_default(None, 2.0), 2.0 * KNEE_PAD_M);
        assert_eq!(pad_or_default(Some(0.08), 2.0), 0.08);
    }

    /// A dense mesh is thinned to at most [`MOST_VERTICES`] per bone, and still measures the
    /// same; non-finite vertices are dropped.
    #[test]
    fn a_dense_mesh_is_thinned_and_measures_the_same() {
        let v = ringed_leg(0.07, 0.07);
        let mut dense = LegVertices::default();
        for _ in 0..20 {
            dense.thigh.extend(v.thigh.iter().copied());
            dense.shin.extend(v.shin.iter().copied());
        }
        dense.shin.push(Vec3::NAN);
        let thin = dense.thinned();
        assert!(thin.thigh.len() <= MOST_VERTICES && thin.shin.len() <= MOST_VERTICES);
        assert!(thin.shin.iter().all(|p| p.is_finite()));
        let pad = pad_of(&thin).expect("a measured leg");
        assert!((pad - 0.07).abs() < 0.003, "{pad}");
    }
}
