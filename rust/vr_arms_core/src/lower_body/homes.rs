//! Where the feet belong this frame: each foot half the stance to its side under the body, a
//! kneeling leg's foot behind its knee and the other under its knee, a seated body's feet
//! ahead under the knees; and whether the body kneels.

use glam::{Quat, Vec3};

use super::feet::FootPlace;
use super::rest::Measures;
use super::{LowerBody, kneel, seat, sit_detect};
use crate::pose::Pose;
use crate::pose_tree::PoseTree;
use crate::side::{PerSide, Side};

/// What the feet's places need from the frame (world).
pub(super) struct HomesFrame<'a> {
    pub measures: &'a Measures,
    /// The lower body's facing (the seat's while seated).
    pub facing: Quat,
    /// The hips bone.
    pub hips: Vec3,
    /// How far the head is below its standing height, over that height.
    pub head_drop_share: f32,
    /// How seated the body is (0..1).
    pub seated: f32,
    pub skeleton: Pose,
    pub floor_y: f32,
    /// World units per avatar metre.
    pub scale: f32,
    pub dt: f32,
}

impl HomesFrame<'_> {
    /// A leg's hip joint (world) as `tree` has it now.
    fn hip_joint(&self, tree: &mut PoseTree, upper_leg: usize) -> Vec3 {
        self.skeleton
            .transform_point(tree.global(upper_leg).position)
    }
}

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
        let moving = self.kneel.moving(f.hips, f.scale, f.dt);
        let kneel_hip = (*b.legs.get(kneel_leg)).map(|leg| f.hip_joint(tree, leg[0]));
        let kneeling = match (kneel_hip, *m.legs.get(kneel_leg)) {
            (Some(hip), Some(rest)) if f.seated == 0.0 => self.kneel.update(
                &sit_detect::kneel_settings(&s, f.head_drop_share),
                hip.y - kneel_floor,
                rest.lengths.0 + kneel::KNEE_PAD_M * f.scale,
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

    /// Each foot's place this frame (`kneeling`: the leg on its knee, if any).
    pub(super) fn foot_homes(
        &mut self,
        tree: &mut PoseTree,
        f: &HomesFrame,
        kneeling: Option<Side>,
    ) -> PerSide<FootPlace> {
        let (s, b, m) = (self.settings, self.bones, f.measures);
        let yaw = {
            let z = f.facing * Vec3::Z;
            z.x.atan2(z.z)
        };
        let ground = Vec3::new(f.hips.x, f.floor_y, f.hips.z);
        // Each foot half the stance to its side, but no further from under its hip joint than
        // the leg reaches at this height: standing tall on straight legs the feet stand under the
        // hips; the stance opens as the body lowers.
        let to_body = f.facing.inverse();
        let facing_z = f.facing * Vec3::Z;
        let mut home = |side: Side| {
            let rest = m.foot_offsets.get(side);
            let mut half = side.sign() * 0.5 * s.stance_width_m * f.scale;
            // Seated, the foot stands ahead under its knee (the hip's height over the floor is
            // its height over `ground`).
            let mut seated_ahead = 0.0;
            if let (Some(leg), Some(leg_rest)) = (*b.legs.get(side), *m.legs.get(side)) {
                let hip = to_body * (f.hip_joint(tree, leg[0]) - ground);
                if f.seated > 0.0 {
                    seated_ahead = f.seated * (hip.z + seat::foot_ahead(&leg_rest, hip.y) - rest.z);
                }
                let down = hip.y - leg_rest.ankle_height;
                let forward = rest.z - hip.z;
                let reach = leg_rest.exact_reach();
                let room = (reach * reach - down * down - forward * forward)
                    .max(0.0)
                    .sqrt();
                half = hip.x + (half - hip.x).clamp(-room, room);
                if let Some(k) = kneeling {
                    let ahead = if k == side {
                        // The kneeling foot behind its knee.
                        let (_, ankle) = self.knee_plant.place(
                            ground + f.facing * hip,
                            facing_z,
                            f.floor_y,
                            &leg_rest,
                            f.scale,
                        );
                        (to_body * (ankle - ground)).z
                    } else {
                        // The other foot under its knee: the thigh forward, the shin upright.
                        hip.z + 0.8 * leg_rest.lengths.0
                    };
                    return FootPlace {
                        position: ground + f.facing * Vec3::new(hip.x, 0.0, ahead),
                        yaw,
                    };
                }
            }
            FootPlace {
                position: ground + f.facing * Vec3::new(half, 0.0, rest.z + seated_ahead),
                yaw,
            }
        };
        PerSide::new(home(Side::Left), home(Side::Right))
    }
}
