//! The hips no higher than the planted feet let the legs reach (a stance wider than the rest
//! legs', or straight rest legs standing tall): the body sinks a few millimetres rather than
//! the feet float. A foot leaving its place (it steps next) first lifts its heel, up to
//! `max_heel_lift_m`, instead of the head leaving the headset; a foot the leg cannot reach
//! from where the body goes steps next.

use glam::Vec3;

use super::{LowerBody, feet::FootPlace, feet::FootTarget, legs, rest::Measures};
use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;
use crate::maths::side::{PerSide, Side};

/// What the feet's reach needs from the frame (world).
pub(super) struct Sink<'a> {
    pub measures: &'a Measures,
    /// The feet this frame, and their places under the body.
    pub targets: PerSide<FootTarget>,
    pub homes: PerSide<FootPlace>,
    /// The hips' height before they sink.
    pub hips_y: f32,
    /// The most a heel lifts (world units).
    pub lift_max: f32,
    pub skeleton: Pose,
    /// World units per avatar metre.
    pub scale: f32,
    pub dt: f32,
}

impl LowerBody {
    /// The highest the hips may stand for the legs to reach the planted feet, their heels
    /// lifting as far as they may (infinite: no limit), and each planted foot's own limit
    /// without its heel. Marks the feet that must step next.
    pub(super) fn reach_feet(&mut self, tree: &mut PoseTree, p: &Sink) -> (f32, PerSide<f32>) {
        let s = self.settings;
        let b = self.bones;
        let mut cap = f32::INFINITY;
        // Each planted foot's hips height at which its leg reaches it.
        let mut leg_caps = PerSide::new(f32::INFINITY, f32::INFINITY);
        for side in Side::BOTH {
            self.heel.get_mut(side).track(p.targets.get(side).planted);
        }
        for side in Side::BOTH {
            let (Some(leg), Some(rest)) = (*b.legs.get(side), *p.measures.legs.get(side)) else {
                continue;
            };
            let foot = *p.targets.get(side);
            let on_knee = self.kneel.pose().is_some_and(|(k, _)| k == side);
            if !foot.planted || on_knee {
                continue;
            }
            let ankle = foot.place.position + Vec3::Y * rest.ankle_height;
            let hip = legs::hip_joint(tree, &p.skeleton, leg[0]);
            let reach = rest.exact_reach();
            let across = Vec3::new(hip.x - ankle.x, 0.0, hip.z - ankle.z).length_squared();
            // A foot already at its place (on ground lower than the floor: a step down) has
            // nowhere better to step: the body sinks to it instead of stepping on the spot.
            let home = p.homes.get(side).position;
            let away = Vec3::new(home.x - ankle.x, 0.0, home.z - ankle.z).length() > 0.02 * p.scale;
            if across < reach * reach {
                let leg_cap = p.hips_y - (hip.y - ankle.y - (reach * reach - across).sqrt());
                // More than the few millimetres a straight rest leg needs (its knee eased) down
                // for this foot: it steps home next.
                if leg_cap < p.hips_y - 0.006 * p.scale && away {
                    self.feet.out_of_reach(&s, side, p.scale);
                }
                *leg_caps.get_mut(side) = leg_cap;
                // Far out of reach, past its heel lift: it goes now, and the hips do not sink
                // for it (the head stays on the headset; the foot leaves its place).
                if leg_cap + p.lift_max < p.hips_y - s.strand_below_m * p.scale && away {
                    self.feet.strand(side);
                    continue;
                }
                let heel = self.heel.get_mut(side);
                heel.ease(away, p.lift_max, p.dt);
                if away {
                    heel.allow(p.hips_y - leg_cap, p.lift_max);
                }
                cap = cap.min(leg_cap + heel.allowed());
            } else if away {
                self.feet.out_of_reach(&s, side, p.scale);
                self.feet.strand(side);
            }
        }
        (cap, leg_caps)
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::super::tests::{headset, input};
    use super::super::*;

    /// The most the head bone falls below the headset (world units) while the headset, standing
    /// still, sets off at a brisk walk (1.4 m/s, as a clip that starts mid-stride does) for a
    /// second.
    fn worst_miss(strand_below_m: f32) -> f32 {
        worst_miss_at(strand_below_m, 1.4)
    }

    /// The same, setting off at `speed` (m/s).
    fn worst_miss_at(strand_below_m: f32, speed: f32) -> f32 {
        let (rest, bones, eyes) = reference_lower_body();
        let settings = LowerBodySettings {
            strand_below_m,
            ..Default::default()
        };
        let mut b = LowerBody::new(settings, bones, &rest, Some(eyes));
        let start = Vec3::new(0.0, 1.65, 0.09);
        let mut worst = 0.0f32;
        for k in 0..180 {
            let ahead = (k.max(90) - 90) as f32 / 90.0 * speed;
            let mut t = rest.clone();
            let out = b.update(
                Side::Left,
                &mut t,
                &input(headset(start + Vec3::Z * ahead, 0.0)),
                1.0 / 90.0,
            );
            worst = worst.max(out.head_miss);
        }
        worst
    }

    /// A foot left behind lifts its heel as far as its leg needs at once and, past its heel
    /// lift, steps at once, the other still in the air, the hips never sinking for it: the head
    /// stays within a centimetre of the headset (0.33 cm at the worst frame as measured).
    /// Waiting for the other foot to land (`strand_below_m` large), the hips sink for the foot
    /// left behind and the head falls 9.9 cm; stepping at once only 5 cm below the heel lift,
    /// 4.5 cm.
    #[test]
    fn setting_off_fast_the_head_stays_on_the_headset() {
        let stranding = worst_miss(LowerBodySettings::default().strand_below_m);
        assert!(stranding < 0.01, "the head fell {stranding} m");
        let waiting = worst_miss(10.0);
        assert!(waiting > 0.05, "waiting, it fell {waiting} m");
        let later = worst_miss(0.05);
        assert!(
            later > 0.03,
            "stepping 5 cm below the heel lift, it fell {later} m"
        );
        // Setting off at a run (2.6 m/s, as a thumbstick moves the player): the hips do not sink
        // for the foot that steps at once (0.32 cm; 1.96 if they sink for it until it lifts).
        let running = worst_miss_at(LowerBodySettings::default().strand_below_m, 2.6);
        assert!(running < 0.01, "running, the head fell {running} m");
    }
}
