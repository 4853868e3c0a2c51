//! A knee kept off the floor: a leg going down onto its knee (or any leg with its hip low
//! over its ankle) has its knee swung about the leg, toward where it sits highest, as far as
//! keeps the knee's joint a kneeling knee's pad above the floor. Without it, easing into a kneel
//! with the hips already low put the knee's joint on the floor and the kneecap's skin 3 to 5
//! cm under it (the avatar test's legs' mesh, on four of its characters).

use glam::{Quat, Vec3};

use super::legs::LegRest;

/// `toward` (the way the knee bends for the leg from `hip` to `ankle`, world; any length, the
/// part along the leg ignored) turned about the leg toward where the knee sits highest, as far
/// as puts the knee's joint at `knee_floor` (world height) or above, or the whole way if the leg
/// cannot lift it that high. Unchanged where the knee is already there, or the leg is straight
/// up and down (every way round is as high).
pub fn knee_above(hip: Vec3, ankle: Vec3, rest: &LegRest, toward: Vec3, knee_floor: f32) -> Vec3 {
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
    // Both ways are across the leg, so the arc between them turns about the leg.
    let arc = if from.dot(top) < -0.9999 {
        Quat::from_axis_angle(dir, std::f32::consts::PI)
    } else {
        Quat::from_rotation_arc(from, top)
    };
    let way = |share: f32| Quat::IDENTITY.slerp(arc, share) * from;
    let (_, share) = crate::smoothing::bisect(0.0, 1.0, 16, |s| knee_y(way(s)) < knee_floor);
    way(share)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Thigh and shin 0.45 m.
    fn rest() -> LegRest {
        super::super::legs::plain_leg_rest((0.45, 0.45), 0.08)
    }

    /// The knee's joint for `toward` (as the two-bone solve puts it).
    fn knee(hip: Vec3, ankle: Vec3, toward: Vec3) -> Vec3 {
        let dir = (ankle - hip).normalize();
        let d = hip.distance(ankle);
        let along = d / 2.0;
        let off = (0.45f32 * 0.45 - along * along).sqrt();
        hip + dir * along + toward.reject_from_normalized(dir).normalize() * off
    }

    /// Hips 30 cm over the floor, the ankle 40 cm ahead on the floor, the knee bent toward a
    /// kneel ahead and down: its joint 8 cm under the floor. Turned about the leg it stays at the
    /// pad's height (5 cm), and no higher than that needs.
    #[test]
    fn a_knee_bent_down_toward_the_floor_turns_about_the_leg_to_the_pads_height() {
        let (hip, ankle) = (Vec3::new(0.1, 0.3, 0.0), Vec3::new(0.1, 0.05, 0.4));
        let toward = Vec3::new(0.0, -1.0, 0.3);
        assert!(
            knee(hip, ankle, toward).y < -0.05,
            "{}",
            knee(hip, ankle, toward)
        );
        let way = knee_above(hip, ankle, &rest(), toward, 0.05);
        let k = knee(hip, ankle, way);
        assert!((k.y - 0.05).abs() < 1e-3, "knee at the pad's height: {k}");
    }

    /// A knee already above the floor keeps its way; one the leg cannot lift there turns to
    /// where it sits highest.
    #[test]
    fn a_knee_above_the_floor_is_left_and_one_below_reach_goes_highest() {
        let (hip, ankle) = (Vec3::new(0.0, 0.9, 0.0), Vec3::new(0.0, 0.1, 0.2));
        let toward = Vec3::new(0.0, 0.2, 1.0);
        assert_eq!(knee_above(hip, ankle, &rest(), toward, 0.05), toward);
        let (hip, ankle) = (Vec3::new(0.0, 0.1, 0.0), Vec3::new(0.0, 0.1, 0.5));
        let way = knee_above(hip, ankle, &rest(), Vec3::NEG_Y, 0.5);
        assert!(way.abs_diff_eq(Vec3::Y, 1e-4), "straight up: {way}");
    }

    /// Going down to the floor as the avatar test's floor reach does (the eyes from standing to
    /// 80 cm over 1.4 s, 25 cm ahead, pitched 50 degrees down, then held 4.1 s): on every frame, easing
    /// into the kneel and kneeling, each knee's joint is at a kneeling knee's pad or above.
    /// Without the turn about the leg, the knee going down came to 3.3 cm over the floor.
    #[test]
    fn going_down_onto_a_knee_keeps_each_knee_on_its_pad() {
        use super::super::tests::{headset, input};
        use super::super::*;
        let (rest, bones, eyes) = reference_lower_body();
        let mut b = LowerBody::new(LowerBodySettings::default(), bones, &rest, Some(eyes));
        let legs = [bones.legs.left, bones.legs.right].map(|l| l.expect("both legs"));
        let (mut lowest, mut knelt) = (f32::INFINITY, false);
        for k in 0..540 {
            let down = crate::smoothing::smoothstep(((k as f32 - 45.0) / 126.0).clamp(0.0, 1.0));
            let at = Vec3::new(0.0, 1.65 - 0.85 * down, 0.09 + 0.25 * down);
            let mut t = rest.clone();
            b.update(&mut t, &input(headset(at, 0.87 * down)), 1.0 / 90.0);
            knelt |= b.kneel.pose().is_some_and(|(_, w)| w >= 1.0);
            for leg in legs {
                lowest = lowest.min(t.global(leg[1]).position.y);
            }
        }
        assert!(knelt, "the body knelt");
        assert!(
            lowest >= super::super::kneel::KNEE_PAD_M - 0.005 - 1e-4,
            "the lowest knee {lowest} (the pad {})",
            super::super::kneel::KNEE_PAD_M
        );
    }
}
