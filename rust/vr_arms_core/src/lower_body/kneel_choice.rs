//! Whether the body kneels this frame: the leg further back goes down on its knee once the hips
//! have stayed lower than its kneeling thigh holds them (never seated; with
//! `sit_from_headset`, not starting at a seat's height).

use glam::Vec3;

use super::homes::HomesFrame;
use super::{LowerBody, legs, sit_detect};
use crate::maths::pose_tree::PoseTree;
use crate::maths::side::{PerSide, Side};

impl LowerBody {
    /// Whether a leg kneels this frame: the leg further back goes down on its knee once the hips
    /// have stayed lower than its kneeling thigh holds them (never seated). Also the ground
    /// under each foot's place, where a knee goes down (a step, a crate; else the floor).
    pub(super) fn kneel_or_not(
        &mut self,
        tree: &mut PoseTree,
        f: &HomesFrame,
    ) -> (Option<Side>, PerSide<f32>) {
        let (s, b, m) = (self.settings, self.bones, f.measures);
        let facing_z = f.facing * Vec3::Z;
        let kneeling_before = self.kneel.side();
        let back = {
            let behind = |side: Side| {
                self.feet
                    .place(side)
                    .map_or(0.0, |p| -(p.position - f.hips).dot(facing_z))
            };
            if behind(Side::Left) > behind(Side::Right) {
                Side::Left
            } else {
                Side::Right
            }
        };
        let kneel_leg = kneeling_before.unwrap_or(back);
        let knee_floor = |side: Side| self.feet.place(side).map_or(f.floor_y, |p| p.position.y);
        let kneel_floor = knee_floor(kneel_leg);
        let knee_floors = PerSide::new(knee_floor(Side::Left), knee_floor(Side::Right));
        let moving = self.kneel.moving(f.head, f.scale, f.dt);
        let kneel_hip =
            (*b.legs.get(kneel_leg)).map(|leg| legs::hip_joint(tree, &f.skeleton, leg[0]));
        let kneeling = match (kneel_hip, *m.legs.get(kneel_leg)) {
            (Some(hip), Some(rest)) if f.seated == 0.0 => self.kneel.update(
                // A kneel under way ends as usual (easing up), whatever the head's height.
                &if kneeling_before.is_some() {
                    s
                } else {
                    sit_detect::kneel_settings(&s, f.head_drop_share)
                },
                hip.y - kneel_floor,
                rest.lengths.0 + rest.knee_pad(f.scale),
                back,
                moving,
                f.scale,
                f.dt,
            ),
            _ => {
                self.kneel.reset();
                self.knee_plant.reset();
                None
            }
        };
        if self.kneel.pose().is_none() {
            self.knee_plant.reset();
        }
        if kneeling != kneeling_before {
            // Into a kneel or out of one: both feet go to their new places now, one at a time.
            for side in Side::BOTH {
                self.feet.strain(side);
            }
        }
        (kneeling, knee_floors)
    }
}
