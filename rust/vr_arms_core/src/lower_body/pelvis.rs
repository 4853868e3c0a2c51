//! Where the hips go, from where the head must be: under the head by the rest pose's own
//! head-to-hips offset, that offset leaned forward as the head drops below its standing height
//! or looks down (a crouch puts the hips back, a bow bends forward), the hips never above their
//! standing height (the legs cannot stretch) nor below their lowest.

use glam::{Quat, Vec3};

use super::LowerBodySettings;

/// The rest pose as the pelvis step needs it, in the avatar root's frame (+Y up, +Z forward,
/// the floor at height 0), in world units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PelvisRest {
    /// From the head bone to the hips bone.
    pub head_to_hips: Vec3,
    /// The head bone's and the hips bone's heights over the floor.
    pub head_height: f32,
    pub hips_height: f32,
    /// The legs as a bend's reach needs them, if the rig has legs.
    pub legs: Option<LegsReach>,
}

/// How far the legs reach, measured on the rig: a bend leans as far as they still reach the
/// feet from where the hip joints go as the pelvis turns with the torso (the joints may sit
/// well above or below the hips bone).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LegsReach {
    /// From the hips bone to the point between the hip joints, at rest.
    pub hips_to_joints: Vec3,
    /// A leg from its hip joint to its ankle, straight (thigh and shin; the longer leg's).
    pub length: f32,
    /// The ankles' height over the floor, at rest.
    pub ankle_height: f32,
}

/// One frame's input (world, +Y up).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PelvisInput {
    /// Where the head bone must be.
    pub head: Vec3,
    /// How far the head looks down (radians; up is negative).
    pub head_pitch_down: f32,
    /// The body's facing (a yaw: the avatar root's rotation).
    pub facing: Quat,
    pub floor_y: f32,
    /// World units per avatar metre.
    pub scale: f32,
    /// Between the planted feet (on the floor), if there are feet.
    pub feet: Option<Vec3>,
}

/// Where the hips go, and how far the torso leans forward (radians).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PelvisPlacement {
    pub hips: Vec3,
    pub lean: f32,
    /// How much the body bends over its feet (0..1, [`hinge_weight`]; 0 without
    /// `bend_balance_share`): the feet then stand under [`over_feet`], not under the hips.
    pub hinge: f32,
}

/// The head this share of its standing height below it starts bending over the feet (5 cm
/// of a 1.6 m head height) ...
pub const HINGE_FROM_SHARE: f32 = 0.03;
/// ... and this share bends fully (15 cm of 1.6 m): a walk's bob and a step's dip are no
/// bend. Shares, not metres: a small avatar (a 1 m chibi scaled to the player) comes down as
/// far, for the same move of the player, as a tall one.
pub const HINGE_FULL_SHARE: f32 = 0.09;

/// The head looking down more than this (degrees) starts bending the body over its feet ...
pub const HINGE_LOOK_FROM_DEG: f32 = 15.0;
/// ... and from this (degrees) fully: bending over to look at or pick up something looks down at
/// it, while a player crouching to duck or kneel, or walking, looks ahead (and a walker's head,
/// a few centimetres low and ahead of the feet, is no bend).
pub const HINGE_LOOK_FULL_DEG: f32 = 40.0;

/// How much a head `drop_share` of its standing height below it, looking down `pitch_down`
/// radians, bends the body over its feet (0..1).
pub fn hinge_weight(drop_share: f32, pitch_down: f32) -> f32 {
    use crate::maths::smoothing::{inverse_lerp_clamped, smoothstep};
    let low = low_weight(drop_share);
    let looking = smoothstep(inverse_lerp_clamped(
        HINGE_LOOK_FROM_DEG,
        HINGE_LOOK_FULL_DEG,
        pitch_down.to_degrees(),
    ));
    crate::maths::finite::f32_or(low * looking, 0.0)
}

/// How far a head `drop_share` of its standing height below it has come down (0..1): a walk's
/// bob and a step's dip are not down.
pub fn low_weight(drop_share: f32) -> f32 {
    use crate::maths::smoothing::{inverse_lerp_clamped, smoothstep};
    crate::maths::finite::f32_or(
        smoothstep(inverse_lerp_clamped(
            HINGE_FROM_SHARE,
            HINGE_FULL_SHARE,
            drop_share,
        )),
        0.0,
    )
}

/// How far ahead of the ankles the feet bear the body's weight (avatar metres: the toes)...
pub const SUPPORT_AHEAD_M: f32 = 0.15;
/// ... and how far behind them (the heels).
pub const SUPPORT_BEHIND_M: f32 = 0.05;

/// In a bend a leg reaches this share of its length at most, from its hip joint to its ankle
/// (soft knees, as people bow: 16 degrees at the knee), or, on a rig without legs, the hips
/// reach this share of their standing height from the feet.
pub const SOFT_KNEES: f32 = 0.99;

/// A bend over the feet, as [`bend_lean`] needs it (world units).
struct Bend {
    /// The head ahead of the feet, along the body's facing.
    ahead: f32,
    /// The head over the floor.
    head_height: f32,
    /// The hips' standing height over the floor: straight legs reach that far from the feet.
    hips_height: f32,
    /// The legs, if measured: else the hips reach [`SOFT_KNEES`] of `hips_height`.
    legs: Option<LegsReach>,
    /// `bend_balance_share`.
    share: f32,
    /// World units per avatar metre.
    scale: f32,
}

/// The lean of a body bending over its feet: the most that the legs still reach the feet at
/// (the hip joints, turned with the pelvis, no further from the ankles than [`SOFT_KNEES`] of
/// the leg; on a rig without legs, the hips no further from the feet than that share of their
/// standing height), as long
/// as `share` of the way from the hips to the head stays over the feet (between
/// [`SUPPORT_BEHIND_M`] behind the ankles and [`SUPPORT_AHEAD_M`] ahead); else the nearest lean
/// that does.
fn bend_lean(rest: &PelvisRest, b: &Bend) -> f32 {
    // The hips below and (at rest) a little behind the head.
    let (below, behind) = (-rest.head_to_hips.y, -rest.head_to_hips.z);
    let length = below.hypot(behind);
    if !(length > 0.0
        && b.ahead.is_finite()
        && b.head_height.is_finite()
        && b.hips_height.is_finite())
    {
        return 0.0;
    }
    // At a lean the head is `length * sin(lean + own)` ahead of the hips and
    // `length * cos(lean + own)` above them.
    let own = behind.atan2(below);
    let lean_at =
        |head_ahead_of_hips: f32| (head_ahead_of_hips / length).clamp(-1.0, 1.0).asin() - own;
    let keep = 1.0 - b.share.clamp(0.0, 0.9);
    let least = lean_at((b.ahead - SUPPORT_AHEAD_M * b.scale) / keep);
    let most = lean_at((b.ahead + SUPPORT_BEHIND_M * b.scale) / keep);
    // The hips from the feet at a lean grow further as it grows (they rise and go back):
    // the largest lean they are within reach at, by bisection.
    let reach = |lean: f32| {
        let (ahead, above) = ((lean + own).sin() * length, (lean + own).cos() * length);
        // The hips ahead of the feet and over the floor.
        let (hips_ahead, hips_up) = (b.ahead - ahead, b.head_height - above);
        match b.legs {
            Some(legs) => {
                // The hip joints turn with the pelvis, leaning forward about its left axis.
                let (j, (sin, cos)) = (legs.hips_to_joints, lean.sin_cos());
                let joints_ahead = hips_ahead + j.z * cos + j.y * sin;
                let joints_up = hips_up + j.y * cos - j.z * sin;
                joints_ahead.hypot(joints_up - legs.ankle_height) <= SOFT_KNEES * legs.length
            }
            None => hips_ahead.hypot(hips_up) <= SOFT_KNEES * b.hips_height,
        }
    };
    let (lo, hi) = (0.0f32, std::f32::consts::FRAC_PI_2);
    let lean = if reach(hi) {
        hi
    } else if reach(lo) {
        crate::maths::smoothing::bisect(lo, hi, 20, reach).0
    } else {
        lo
    };
    lean.clamp(least, most.max(least)).max(0.0)
}

/// The point that stands over the feet (world, at the hips' height): the hips, or, as the body
/// bends over its feet (`hinge`), `share` (`bend_balance_share`) of the way from them to
/// `head`, horizontally.
pub fn over_feet(hips: Vec3, head: Vec3, hinge: f32, share: f32) -> Vec3 {
    let mut toward = (head - hips) * (hinge.clamp(0.0, 1.0) * share.clamp(0.0, 0.9));
    toward.y = 0.0;
    crate::maths::finite::vec3_or(hips + toward, hips)
}

/// The head bone's standing height of the grown-up the lower body's metre settings are for
/// (`lean_deg_per_m`): an avatar of another size comes down in proportion.
pub const GROWN_UP_HEAD_HEIGHT_M: f32 = 1.6;

/// A head `drop` (world units) below its standing height, as a share of that height; a rig
/// whose head stands lower than a tenth of a grown-up's (or below its root) counts as a
/// grown-up. 0 when not finite.
pub fn drop_share(drop: f32, rest: &PelvisRest, scale: f32) -> f32 {
    let least = 0.1 * GROWN_UP_HEAD_HEIGHT_M * scale;
    let standing = if rest.head_height > least {
        rest.head_height
    } else {
        GROWN_UP_HEAD_HEIGHT_M * scale
    };
    crate::maths::finite::f32_or(drop / standing, 0.0)
}

/// The torso's forward lean for a head `drop_m` metres below its standing height (metres of
/// a [`GROWN_UP_HEAD_HEIGHT_M`] head height), looking down by `pitch_down` radians.
pub fn lean(s: &LowerBodySettings, drop_m: f32, pitch_down: f32) -> f32 {
    let by_drop = s.lean_deg_per_m.to_radians() * drop_m.max(0.0);
    let by_pitch = s.lean_head_pitch_share * pitch_down.max(0.0);
    (by_drop + by_pitch).clamp(0.0, s.max_lean_deg.to_radians())
}

/// The hips' heights between their lowest and their standing height over a floor at
/// `floor_y` (world): `(lowest, highest)`, the lowest never above the highest.
pub fn hips_heights(s: &LowerBodySettings, rest: &PelvisRest, floor_y: f32) -> (f32, f32) {
    let highest = floor_y + rest.hips_height;
    (
        (floor_y + rest.hips_height * s.min_hips_height_share).min(highest),
        highest,
    )
}

/// `y` kept between `heights` (as [`hips_heights`] gives them; unusable heights keep it).
pub fn clamp_hips(y: f32, (lowest, highest): (f32, f32)) -> f32 {
    if lowest.is_finite() && highest.is_finite() {
        y.clamp(lowest, highest)
    } else {
        y
    }
}

/// Places the hips for `input`.
pub fn place_hips(
    s: &LowerBodySettings,
    rest: &PelvisRest,
    input: &PelvisInput,
) -> PelvisPlacement {
    let scale = if input.scale.is_finite() && input.scale > 0.0 {
        input.scale
    } else {
        1.0
    };
    let floor_y = crate::maths::finite::f32_or(input.floor_y, 0.0);
    let drop = rest.head_height - (input.head.y - floor_y);
    // As far down as a grown-up's head would come: a 1 m chibi scaled to the player crouches
    // as far forward as a grown-up avatar does for the same move of the player.
    let drop_share = drop_share(drop, rest, scale);
    let drop_m = drop_share * GROWN_UP_HEAD_HEIGHT_M;
    let heights = hips_heights(s, rest, floor_y);
    let lowest = heights.0;
    // A head so low that the hips under it would be below their lowest: the torso leans
    // forward further, as far as it takes to keep the hips there (a deep squat, kneeling).
    let length = rest.head_to_hips.length();
    let needed = if length > 0.0 {
        ((input.head.y - lowest) / length).clamp(-1.0, 1.0).acos()
    } else {
        0.0
    };
    // Bending with the head ahead of the planted feet: the torso leans as far as keeps the
    // body balanced over them.
    let hinge = if s.bend_balance_share > 0.0 {
        hinge_weight(drop_share, input.head_pitch_down)
    } else {
        0.0
    };
    // Not bending (standing, walking, a crouch looking ahead): nothing to work out.
    let feet = input.feet.filter(|f| f.is_finite() && hinge > 0.0);
    let balanced = feet.map_or(0.0, |feet| {
        let bend = Bend {
            ahead: (input.head - feet).dot(input.facing * Vec3::Z),
            head_height: input.head.y - floor_y,
            hips_height: heights.1 - floor_y,
            legs: rest
                .legs
                .filter(|l| l.length > 0.0 && l.hips_to_joints.is_finite()),
            share: s.bend_balance_share,
            scale,
        };
        hinge * bend_lean(rest, &bend)
    });
    let lean = lean(s, drop_m, input.head_pitch_down)
        .max(needed)
        .max(balanced)
        .min(s.max_lean_deg.to_radians());
    // Leaning forward about the body's left axis (+X) turns the head-to-hips offset back.
    let offset = input.facing * (Quat::from_rotation_x(lean) * rest.head_to_hips);
    let mut hips = input.head + offset;
    // The hips stay partly over the feet: a lean to the side curves the spine instead of
    // carrying the whole body along (the feet step when the body moves on).
    if let Some(feet) = input.feet.filter(|f| f.is_finite()) {
        // Sideways only: to and fro the hips go where the head takes them.
        let side = input.facing * Vec3::X;
        let pull = s.hips_over_feet * (feet - hips).dot(side);
        hips += side * pull;
    }
    hips.y = clamp_hips(hips.y, heights);
    PelvisPlacement { hips, lean, hinge }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rest() -> PelvisRest {
        PelvisRest {
            head_to_hips: Vec3::new(0.0, -0.65, -0.02),
            head_height: 1.6,
            hips_height: 0.95,
            legs: None,
        }
    }

    fn input(head: Vec3, pitch: f32) -> PelvisInput {
        PelvisInput {
            head,
            head_pitch_down: pitch,
            facing: Quat::IDENTITY,
            floor_y: 0.0,
            scale: 1.0,
            feet: None,
        }
    }

    #[test]
    fn standing_the_hips_are_where_the_rest_pose_has_them() {
        let s = LowerBodySettings::default();
        let p = place_hips(&s, &rest(), &input(Vec3::new(0.2, 1.6, 0.5), 0.0));
        assert_eq!(p.lean, 0.0);
        assert!(
            p.hips.distance(Vec3::new(0.2, 0.95, 0.48)) < 1e-5,
            "{}",
            p.hips
        );
    }

    #[test]
    fn a_crouch_drops_the_hips_and_puts_them_back() {
        let s = LowerBodySettings::default();
        let p = place_hips(&s, &rest(), &input(Vec3::new(0.0, 1.2, 0.0), 0.0));
        let want = (s.lean_deg_per_m * 0.4).to_radians();
        assert!((p.lean - want).abs() < 1e-5);
        assert!((p.hips.y - (1.2 - 0.65 * want.cos() + 0.02 * want.sin())).abs() < 1e-4);
        assert!(
            p.hips.z < -0.02 - 0.05,
            "further behind the head: {}",
            p.hips
        );
        // Looking down leans further; a turned body leans the way it faces.
        let bow = place_hips(&s, &rest(), &input(Vec3::new(0.0, 1.2, 0.0), 0.8));
        assert!(bow.lean > p.lean + 0.2);
        let mut turned = input(Vec3::new(0.0, 1.2, 0.0), 0.0);
        turned.facing = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        let t = place_hips(&s, &rest(), &turned);
        assert!(t.hips.x < -0.07 && t.hips.z.abs() < 0.03, "{}", t.hips);
    }

    #[test]
    fn the_hips_stay_between_their_lowest_and_their_standing_height() {
        let s = LowerBodySettings::default();
        // On tiptoe (head 10 cm over its height): the legs cannot stretch.
        let high = place_hips(&s, &rest(), &input(Vec3::new(0.0, 1.7, 0.0), 0.0));
        assert_eq!(high.hips.y, 0.95);
        // Head on the floor: the hips stop at their lowest.
        let low = place_hips(&s, &rest(), &input(Vec3::new(0.0, 0.1, 0.0), 0.0));
        assert!((low.hips.y - 0.95 * s.min_hips_height_share).abs() < 1e-5);
        assert_eq!(low.lean, s.max_lean_deg.to_radians());
        // A deep squat: the torso leans further so the hips stay at their lowest, as far
        // under the head as the torso is long.
        let deep = place_hips(&s, &rest(), &input(Vec3::new(0.0, 0.85, 0.0), 0.0));
        let lowest = 0.95 * s.min_hips_height_share;
        assert!((deep.hips.y - lowest).abs() < 0.015, "{}", deep.hips);
        assert!(deep.lean > lean(&s, 0.75, 0.0) + 0.1);
        let length = rest().head_to_hips.length();
        assert!((deep.hips.distance(Vec3::new(0.0, 0.85, 0.0)) - length).abs() < 0.01);
        // A scaled avatar drops in its own metres: half size, the same lean for half the drop.
        let mut small = input(Vec3::new(0.0, 0.6, 0.0), 0.0);
        small.scale = 0.5;
        let r = PelvisRest {
            head_to_hips: rest().head_to_hips * 0.5,
            head_height: 0.8,
            hips_height: 0.475,
            legs: None,
        };
        let full = place_hips(&s, &rest(), &input(Vec3::new(0.0, 1.2, 0.0), 0.0));
        assert!((place_hips(&s, &r, &small).lean - full.lean).abs() < 1e-6);
    }

    #[test]
    fn the_hips_stay_partly_over_the_feet_sideways() {
        let s = LowerBodySettings {
            hips_over_feet: 0.5,
            ..Default::default()
        };
        let mut i = input(Vec3::new(0.3, 1.6, 0.02), 0.0);
        // The feet behind and to the right: only the sideways part pulls.
        i.feet = Some(Vec3::new(0.0, 0.0, -0.4));
        let p = place_hips(&s, &rest(), &i);
        assert!((p.hips.x - 0.15).abs() < 1e-5, "{}", p.hips);
        assert!(
            p.hips.z.abs() < 1e-5 && (p.hips.y - 0.95).abs() < 1e-5,
            "{}",
            p.hips
        );
        i.feet = Some(Vec3::NAN);
        assert!((place_hips(&s, &rest(), &i).hips.x - 0.3).abs() < 1e-5);
        // By default the hips go with the head (as the motion capture's performers do).
        i.feet = Some(Vec3::ZERO);
        let d = place_hips(&LowerBodySettings::default(), &rest(), &i);
        assert!((d.hips.x - 0.3).abs() < 1e-5);
    }

    /// Bending over the planted feet (head 30 cm ahead of them and low, looking down): the
    /// torso leans as far as soft knees still reach the feet (the hips [`SOFT_KNEES`] of their
    /// standing height from them), with `bend_balance_share` of the way from the hips to the
    /// head over the feet (heel to toes); without feet, or with the share 0, as before.
    #[test]
    fn bending_over_the_feet_leans_as_far_as_the_legs_reach_and_balance_allow() {
        // A share at which each limit binds in turn below.
        let s = LowerBodySettings {
            bend_balance_share: 0.15,
            ..Default::default()
        };
        let mut i = input(Vec3::new(0.0, 1.3, 0.3), 0.8);
        let plain = place_hips(&s, &rest(), &i);
        assert_eq!(plain.hinge, 1.0);
        i.feet = Some(Vec3::ZERO);
        let bent = place_hips(&s, &rest(), &i);
        assert!(
            bent.lean > plain.lean + 0.2,
            "{} vs {}",
            bent.lean,
            plain.lean
        );
        assert!(bent.hips.z < -0.05, "{}", bent.hips);
        // Here the heels bind first: the body over them, the hips within the legs' reach.
        let from_feet = bent.hips.length();
        let over = over_feet(bent.hips, i.head, bent.hinge, s.bend_balance_share);
        assert!(
            over.x.abs() < 1e-5 && (over.z + 0.05).abs() < 1e-3,
            "{over}"
        );
        assert!(from_feet < SOFT_KNEES * 0.95, "{from_feet}");
        // Higher and further ahead, the legs' reach binds: the hips as far from the feet as
        // soft knees reach, the body between heel and toes.
        i.head = Vec3::new(0.0, 1.4, 0.35);
        let low = place_hips(&s, &rest(), &i);
        let over = over_feet(low.hips, i.head, low.hinge, s.bend_balance_share);
        assert!((-0.05..=0.15).contains(&over.z), "{over}");
        assert!(
            (low.hips.length() - SOFT_KNEES * 0.95).abs() < 1e-3,
            "{}",
            low.hips
        );
        assert_eq!(over.y, low.hips.y);
        // The head far ahead of the toes: the torso leans until the body is over the toes.
        i.head = Vec3::new(0.0, 1.3, 0.65);
        let far = place_hips(&s, &rest(), &i);
        let over = over_feet(far.hips, i.head, far.hinge, s.bend_balance_share);
        assert!((over.z - 0.15).abs() < 1e-3, "{over} {}", far.lean);
        let off = LowerBodySettings {
            bend_balance_share: 0.0,
            ..Default::default()
        };
        i.head = Vec3::new(0.0, 1.3, 0.3);
        let p = place_hips(&off, &rest(), &i);
        assert_eq!((p.lean, p.hinge), (plain.lean, 0.0));
        assert_eq!(over_feet(p.hips, i.head, p.hinge, 0.3), p.hips);
        // Feet ahead of the head: no lean back.
        i.feet = Some(Vec3::new(0.0, 0.0, 0.6));
        assert_eq!(place_hips(&s, &rest(), &i).lean, plain.lean);
    }

    /// The legs' reach in a bend is measured on the rig: from the hip joints, which turn with
    /// the pelvis, to the ankles. With the joints 8 cm above the hips bone (the Mixamo-style
    /// test rig) or 15 cm below it and 5 back (the chibi), the bow leans until a leg reaches
    /// just [`SOFT_KNEES`] of its length, not as far as the hips bone's standing height gives.
    #[test]
    fn a_bend_leans_until_the_legs_from_their_hip_joints_reach_the_ankles() {
        let s = LowerBodySettings::default();
        for joints in [Vec3::new(0.0, 0.08, 0.0), Vec3::new(0.0, -0.15, -0.05)] {
            let legs = LegsReach {
                hips_to_joints: joints,
                length: 0.95 + joints.y - 0.08,
                ankle_height: 0.08,
            };
            let r = PelvisRest {
                legs: Some(legs),
                ..rest()
            };
            let mut i = input(Vec3::new(0.0, 1.35, 0.25), 0.8);
            i.feet = Some(Vec3::ZERO);
            let p = place_hips(&s, &r, &i);
            assert!(p.hips.y < 0.95, "below standing: {}", p.hips);
            let turned = Quat::from_rotation_x(p.lean) * joints;
            let ankle = Vec3::new(0.0, legs.ankle_height, 0.0);
            let reach = (p.hips + turned).distance(ankle);
            assert!(
                (reach - SOFT_KNEES * legs.length).abs() < 2e-3,
                "{joints}: the legs reach {reach} of {} (lean {})",
                legs.length,
                p.lean.to_degrees()
            );
        }
    }

    /// A small avatar in its own metres (a 1 m chibi, scale 1, its head bone 1 m up) scaled to
    /// the player comes down as far, as a share of its height, as a grown-up does for the same
    /// move: it leans and bends over its feet as far as a 1.6 m grown-up coming down the same
    /// share (read in its own metres it leaned and bent 1.6 times less).
    #[test]
    fn a_small_avatar_comes_down_by_its_share_of_its_height() {
        let s = LowerBodySettings::default();
        let chibi = PelvisRest {
            head_to_hips: rest().head_to_hips / 1.6,
            head_height: 1.0,
            hips_height: 0.95 / 1.6,
            legs: None,
        };
        for (share, pitch) in [(0.25, 0.0), (0.06, 0.5), (0.1, 0.8)] {
            let grown = place_hips(
                &s,
                &rest(),
                &input(Vec3::new(0.0, 1.6 * (1.0 - share), 0.0), pitch),
            );
            let small = place_hips(&s, &chibi, &input(Vec3::new(0.0, 1.0 - share, 0.0), pitch));
            assert!(
                (grown.lean - small.lean).abs() < 1e-5,
                "{share}: {} {}",
                grown.lean,
                small.lean
            );
            assert!(
                (grown.hinge - small.hinge).abs() < 1e-5,
                "{share}: {} {}",
                grown.hinge,
                small.hinge
            );
            assert!(small.lean > 0.0);
        }
        assert!(place_hips(&s, &chibi, &input(Vec3::new(0.0, 0.94, 0.0), 0.5)).hinge > 0.1);
        // A head bone at or below the root: counted as a grown-up's, nothing non-finite.
        let odd = PelvisRest {
            head_height: -0.2,
            ..chibi
        };
        let p = place_hips(&s, &odd, &input(Vec3::new(0.0, -0.5, 0.0), 0.5));
        assert!(p.hips.is_finite() && p.lean.is_finite() && p.hinge.is_finite());
    }

    /// Only a head that is low and looks down bends over the feet: a crouch looking ahead (to
    /// duck, to kneel) and a walker's head, a little low, do not.
    #[test]
    fn only_a_low_head_looking_down_bends_over_the_feet() {
        let down = 45f32.to_radians();
        assert_eq!(hinge_weight(0.3, down), 1.0);
        assert_eq!(hinge_weight(0.4, 0.0), 0.0);
        assert_eq!(hinge_weight(0.025, down), 0.0);
        let half = hinge_weight(0.06, 27.5f32.to_radians());
        assert!((half - 0.25).abs() < 1e-5, "{half}");
        assert_eq!(hinge_weight(f32::NAN, down), 0.0);
        assert_eq!(hinge_weight(0.3, f32::NAN), 0.0);
    }
}
