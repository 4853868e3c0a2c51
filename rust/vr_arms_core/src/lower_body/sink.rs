//! The hips no higher than the planted feet let the legs reach (a stance wider than the rest
//! legs', or straight rest legs standing tall): the body sinks a few millimetres rather than
//! the feet float. A foot leaving its place (it steps next) first lifts its heel, up to
//! `max_heel_lift_m`, instead of the head leaving the headset; a foot the leg cannot reach
//! from where the body goes steps next.

use glam::Vec3;

use super::{LowerBody, feet::FootPlace, feet::FootTarget, rest::Measures};
use crate::pose::Pose;
use crate::pose_tree::PoseTree;
use crate::side::{PerSide, Side};

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
            let hip = p.skeleton.transform_point(tree.global(leg[0]).position);
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
                let heel = self.heel.get_mut(side);
                heel.ease(away, p.lift_max, p.dt);
                *leg_caps.get_mut(side) = leg_cap;
                cap = cap.min(leg_cap + heel.allowed());
            } else if away {
                self.feet.out_of_reach(&s, side, p.scale);
            }
        }
        (cap, leg_caps)
    }
}
