//! Where the feet belong this frame: each foot half the stance to its side under the body, a
//! kneeling leg's foot behind its knee and the other under its knee, a seated body's feet
//! ahead under the knees.

use glam::{Quat, Vec3};

use super::feet::FootPlace;
use super::rest::Measures;
use super::{LowerBody, legs, seat};
use crate::maths::angles::yaw_of;
use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;
use crate::maths::side::{PerSide, Side};

/// What the feet's places need from the frame (world).
pub(super) struct HomesFrame<'a> {
    pub measures: &'a Measures,
    /// The lower body's facing (the seat's while seated).
    pub facing: Quat,
    /// The hips bone.
    pub hips: Vec3,
    /// Where the head bone must be (on the headset): whether the player holds still (to kneel)
    /// is the player's motion, not the body's own settling (a foot stepping, the torso turning
    /// toward a hand).
    pub head: Vec3,
    /// What stands over the feet: the hips, or ahead of them in a bend
    /// ([`super::pelvis::over_feet`]).
    pub over_feet: Vec3,
    /// How far the head is below its standing height, over that height.
    pub head_drop_share: f32,
    /// How far the body has come down (0..1, [`super::pelvis::low_weight`]).
    pub came_down: f32,
    /// How seated the body is (0..1).
    pub seated: f32,
    pub skeleton: Pose,
    pub floor_y: f32,
    /// World units per avatar metre.
    pub scale: f32,
    pub dt: f32,
}

impl LowerBody {
    /// Each foot's place this frame (`kneeling`: the leg on its knee, if any).
    pub(super) fn foot_homes(
        &mut self,
        tree: &mut PoseTree,
        f: &HomesFrame,
        kneeling: Option<Side>,
    ) -> PerSide<FootPlace> {
        let (s, b, m) = (self.settings, self.bones, f.measures);
        let yaw = yaw_of(f.facing * Vec3::Z);
        let ground = Vec3::new(f.over_feet.x, f.floor_y, f.over_feet.z);
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
                let hip = to_body * (legs::hip_joint(tree, &f.skeleton, leg[0]) - ground);
                if f.seated > 0.0 {
                    seated_ahead = f.seated * (hip.z + seat::foot_ahead(&leg_rest, hip.y) - rest.z);
                }
                let down = hip.y - leg_rest.ankle_height;
                let forward = rest.z - hip.z;
                let reach = leg_rest.exact_reach();
                let room = (reach * reach - down * down - forward * forward)
                    .max(0.0)
                    .sqrt();
                // Standing, the feet under the hip joints (the avatar's own width); the stance
                // opens only as the body comes down (the room alone grows fast from nothing as
                // the hips sink a few millimetres: 5 cm for 3 mm on a chibi's short legs).
                half = hip.x + (half - hip.x).clamp(-room, room) * f.came_down;
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
