//! A knee kept off the floor: a leg going down onto its knee (or any leg with its hip low
//! over its ankle) has its knee swung out about the leg, toward where it sits highest, as far as
//! keeps the knee's joint at a kneeling knee's pad over the floor (less half a centimetre), at
//! most a quarter turn. Without it, easing into a kneel with the hips already low put the
//! knee's joint near the floor and the kneecap's skin under it (the avatar test's legs' mesh: the
//! demo character's 3.0 cm, KayKit's 5.2; Sintel's 5.2 outside the repository).

use glam::Vec3;

use super::legs::LegRest;

/// `toward` (the way the knee bends for the leg from `hip` to `ankle`, world; any length, the
/// part along the leg ignored) turned about the leg as far as puts the knee's joint at
/// `knee_floor` (world height) or above: through the leg's outer side (`outward`, toward the
/// body's side the leg is on: a knee swung in would cross the other leg), toward where the knee
/// sits highest, and at most a quarter turn (further, it would bend the knee backward); the
/// quarter turn if the leg cannot lift it that high. Unchanged where the knee is already there,
/// or the leg is straight up and down (every way round is as high).
pub fn knee_above(
    hip: Vec3,
    ankle: Vec3,
    rest: &LegRest,
    toward: Vec3,
    outward: Vec3,
    knee_floor: f32,
) -> Vec3 {
    let Some(dir) = (ankle - hip).try_normalize() else {
        return toward;
    };
    let (Some(from), Some(top)) = (
        toward.reject_from_normalized(dir).try_normalize(),
        Vec3::Y.reject_from_normalized(dir).try_normalize(),
    ) else {
        return toward;
    };
    // The knee's place along the leg and out from it (law of cosines), as the solve puts it.
    let (a, b) = rest.lengths;
    let d = hip.distance(ankle).clamp((a - b).abs() + 1e-6, a + b);
    let along = (a * a + d * d - b * b) / (2.0 * d);
    let off = (a * a - along * along).max(0.0).sqrt();
    let knee_y = |way: Vec3| hip.y + along * dir.y + off * way.y;
    if !knee_floor.is_finite() || knee_y(from) >= knee_floor {
        return toward;
    }
    // Turning by `t` about the leg, out first: `from` cos t + `side` sin t. The knee rises until
    // it points at `top`, `to_top` round that way; past half a turn it first comes down (the
    // top lies the inner way round), and then the shorter way goes.
    let mut side = dir.cross(from);
    if side.dot(outward) < 0.0 {
        side = -side;
    }
    let round = |side: Vec3| {
        let t = top.dot(side).atan2(top.dot(from));
        if t < 0.0 {
            t + std::f32::consts::TAU
        } else {
            t
        }
    };
    if round(side) > std::f32::consts::PI {
        side = -side;
    }
    let most = round(side).min(std::f32::consts::FRAC_PI_2);
    let way = |t: f32| from * t.cos() + side * t.sin();
    if knee_y(way(most)) < knee_floor {
        return way(most);
    }
    let (_, t) = crate::maths::smoothing::bisect(0.0, most, 16, |t| knee_y(way(t)) < knee_floor);
    way(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maths::pose::Pose;
    use glam::Quat;

    /// A leg of 0.45 and 0.42 m measured standing straight from a hip 0.9 m up, the hip then
    /// moved to `hip` and the leg solved to `ankle` bending `way(rest)`: the knee's joint.
    fn solved_knee(hip: Vec3, ankle: Vec3, way: impl FnOnce(&LegRest) -> Vec3) -> Vec3 {
        let (mut t, leg) = super::super::legs::straight_leg(Quat::IDENTITY);
        let rest = LegRest::measure(&mut t, leg, &Pose::IDENTITY);
        let down = t.global(leg[0]).rotation;
        t.set_global(leg[0], Pose::new(hip, down));
        let pole = way(&rest);
        super::super::legs::solve_leg(&mut t, leg, &rest, ankle, pole, Quat::IDENTITY);
        t.global(leg[1]).position
    }

    /// The hip 30 cm over the floor, the ankle 40 cm ahead and 5 cm up, the knee bent toward a
    /// kneel ahead and down: its joint 15 cm under the floor. Turned about the leg, out the way
    /// the leg's side is (a left leg's knee to the left, a right leg's to the right), it comes to
    /// the pad's height (5 cm), and no higher.
    #[test]
    fn a_knee_bent_down_toward_the_floor_swings_out_to_the_pads_height() {
        let (hip, ankle) = (Vec3::new(0.1, 0.3, 0.0), Vec3::new(0.1, 0.05, 0.4));
        let toward = Vec3::new(0.0, -1.0, 0.3);
        let bent = solved_knee(hip, ankle, |_| toward);
        assert!(bent.y < -0.1, "bent down: {bent}");
        for out in [Vec3::X, Vec3::NEG_X] {
            let k = solved_knee(hip, ankle, |r| knee_above(hip, ankle, r, toward, out, 0.05));
            assert!((k.y - 0.05).abs() < 2e-3, "{out}: at the pad's height: {k}");
            assert!(
                (k.x - hip.x) * out.x > 0.1,
                "{out}: out the leg's side: {k}"
            );
        }
    }

    /// A knee already above the floor keeps its way; one the leg cannot lift there turns a
    /// quarter turn out (not on round to up the leg, which bends a knee backward).
    #[test]
    fn a_knee_above_the_floor_is_left_and_one_out_of_reach_turns_a_quarter_out() {
        let rest = super::super::legs::plain_leg_rest((0.45, 0.45), 0.08);
        let (hip, ankle) = (Vec3::new(0.0, 0.9, 0.0), Vec3::new(0.0, 0.1, 0.2));
        let toward = Vec3::new(0.0, 0.2, 1.0);
        assert_eq!(knee_above(hip, ankle, &rest, toward, Vec3::X, 0.05), toward);
        let (hip, ankle) = (Vec3::new(0.0, 0.1, 0.0), Vec3::new(0.0, 0.1, 0.5));
        let way = knee_above(hip, ankle, &rest, Vec3::NEG_Y, Vec3::X, 0.5);
        assert!(way.abs_diff_eq(Vec3::X, 1e-4), "a quarter turn out: {way}");
    }
    /// A knee bent down and inward, past under the leg: out first it would come down before it
    /// rises, so it turns the shorter way, in and up, as far as the floor needs.
    #[test]
    fn a_knee_bent_past_under_the_leg_turns_the_shorter_way() {
        let rest = super::super::legs::plain_leg_rest((0.45, 0.45), 0.08);
        let (hip, ankle) = (Vec3::new(0.0, 0.1, 0.0), Vec3::new(0.0, 0.1, 0.5));
        let toward = Vec3::new(-0.5, -0.866, 0.0);
        let way = knee_above(hip, ankle, &rest, toward, Vec3::X, 0.1);
        assert!(
            way.y.abs() < 1e-3 && way.x < -0.99,
            "in, level with the hip: {way}"
        );
    }

    /// Going down to the floor as the avatar test's floor reach does (the eyes from standing to
    /// 80 cm over 1.4 s, 25 cm ahead, pitched 50 degrees down, then held 4.1 s), on the reference
    /// body scaled by `size` (world units per avatar metre), its legs' mesh (if `skin`) a
    /// cylinder that radius round the bones: on every frame, easing into the kneel and
    /// kneeling, each knee's joint is at a kneeling knee's pad (`size` times it, or the skin)
    /// or above, and the kneeling knee ends on it. Without the turn about the leg, the knee
    /// going down came to 3.3 cm over the floor. Returns the kneeling knee's height.
    fn going_down_onto_a_knee(size: f32, skin: Option<f32>) -> f32 {
        use super::super::tests::{headset, input};
        use super::super::*;
        let (mut rest, bones, eyes) = reference_lower_body();
        let globals: Vec<Pose> = (0..rest.len())
            .map(|i| {
                let g = rest.global(i);
                Pose::new(g.position * size, g.rotation)
            })
            .collect();
        rest.set_globals(&globals);
        let legs = [bones.legs.left, bones.legs.right].map(|l| l.expect("both legs"));
        let mut skins = [None, None];
        if let Some(r) = skin {
            for (s, leg) in skins.iter_mut().zip(legs) {
                let [h, k, a] = leg.map(|b| rest.global(b).position);
                *s = Some(super::super::leg_skin::cylinder_leg(h, k, a, r));
            }
        }
        let [left, right] = skins;
        let mut b = LowerBody::new(
            LowerBodySettings::default(),
            bones,
            &rest,
            Some(eyes * size),
        )
        .with_leg_skins(PerSide::new(left, right));
        let (mut lowest, mut knelt) = (f32::INFINITY, false);
        for k in 0..540 {
            let down =
                crate::maths::smoothing::smoothstep(((k as f32 - 45.0) / 126.0).clamp(0.0, 1.0));
            let at = Vec3::new(0.0, 1.65 - 0.85 * down, 0.09 + 0.25 * down) * size;
            let mut t = rest.clone();
            let i = LowerBodyInput {
                scale: size,
                ..input(headset(at, 0.87 * down))
            };
            b.update(Side::Left, &mut t, &i, 1.0 / 90.0);
            knelt |= b.kneel.pose().is_some_and(|(_, w)| w >= 1.0);
            for leg in legs {
                lowest = lowest.min(t.global(leg[1]).position.y);
            }
        }
        assert!(knelt, "{size}: the body knelt");
        let pad = skin.unwrap_or(super::super::kneel::KNEE_PAD_M * size);
        assert!(
            lowest >= pad - 0.005 * size - 1e-4 * size,
            "{size}: the lowest knee {lowest} (the pad {pad})"
        );
        assert!(
            (lowest - pad).abs() < 0.01 * size,
            "{size}: the kneeling knee {lowest}, not on its pad {pad}"
        );
        lowest
    }

    #[test]
    fn going_down_onto_a_knee_keeps_each_knee_on_its_pad() {
        going_down_onto_a_knee(1.0, None);
    }

    /// The same on a body twice the size: the pad is twice as thick.
    #[test]
    fn going_down_onto_a_knee_twice_the_size_keeps_each_knee_on_its_pad_twice_as_high() {
        going_down_onto_a_knee(2.0, None);
    }

    /// Legs whose mesh is 11 cm thick round the knee (a stylised game rig's) kneel with the
    /// knee joint 11 cm over the floor, the mesh on it; with the fixed 5 cm pad the skin went
    /// 6 cm into the floor.
    #[test]
    fn a_thick_legged_body_kneels_on_its_own_skin() {
        let knee = going_down_onto_a_knee(1.0, Some(0.11));
        assert!(knee > 0.1, "{knee}");
    }
}
