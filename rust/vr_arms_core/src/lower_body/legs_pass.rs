//! The last pass of a lower body frame: each leg solved down to its foot, a planted foot's
//! heel lifted where the leg cannot reach it, a kneeling leg's knee on the ground and its toes
//! flat.

use glam::{Quat, Vec3};

use super::legs::KNEE_OUT_MAX_DEG;
use super::{LowerBody, feet::FootTarget, knee_clear, kneel, legs, rest::Measures};
use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;
use crate::maths::side::{PerSide, Side};

/// What the pass needs from the frame (world).
pub(super) struct LegsPass<'a> {
    pub measures: &'a Measures,
    /// The feet this frame.
    pub targets: PerSide<FootTarget>,
    /// The hips' height after they sank to the feet.
    pub hips_y: f32,
    /// Each planted foot's hips height at which its leg reaches it.
    pub leg_caps: PerSide<f32>,
    /// The most a heel lifts (world units).
    pub lift_max: f32,
    /// The ground under each foot's place (a kneeling knee goes down onto it).
    pub knee_floors: PerSide<f32>,
    pub skeleton: Pose,
    /// World units per avatar metre.
    pub scale: f32,
    pub dt: f32,
    /// How far the body has come down (0..1, [`super::pelvis::low_weight`]): a lowered body's
    /// knees go out over wide-standing feet.
    pub low: f32,
    /// The lower body's facing: the knees bend toward it (a thigh turns with the hips; the
    /// shin turns on the bent knee toward a foot turned from it).
    pub facing: Quat,
}

/// How far above a kneeling knee's height a knee not kneeling stays (avatar metres).
const KNEE_CLEAR_M: f32 = 0.02;

/// How far under a kneeling knee's height any knee may be (avatar metres): the planted kneel's
/// own knee, where rounding puts it.
const KNEE_PAD_SLACK_M: f32 = 0.005;

impl LowerBody {
    /// Solves each leg to its foot (`tree` in the skeleton's space); returns the feet as
    /// placed.
    pub(super) fn solve_legs(
        &mut self,
        tree: &mut PoseTree,
        p: &LegsPass,
    ) -> PerSide<Option<FootTarget>> {
        let b = self.bones;
        let to_skeleton = p.skeleton.inverse();
        let mut feet = PerSide::new(None, None);
        for side in Side::BOTH {
            let (Some(leg), Some(rest)) = (*b.legs.get(side), *p.measures.legs.get(side)) else {
                continue;
            };
            let mut foot = *p.targets.get(side);
            let turn = Quat::from_rotation_y(foot.place.yaw);
            let mut ankle = foot.place.position + Vec3::Y * rest.ankle_height;
            // A planted foot the leg cannot reach lifts straight up (its heel), no further than
            // its lift allows (the hips sank for the rest); a stepping foot's lift comes down.
            let need = p.hips_y - *p.leg_caps.get(side);
            ankle.y += self
                .heel
                .get_mut(side)
                .lift(foot.planted, need, p.lift_max, p.dt);
            let mut foot_turn = turn * rest.foot_in_root;
            // The knee bends in the hips' upright plane (`legs::knee_forward`).
            let hip = legs::hip_joint(tree, &p.skeleton, leg[0]);
            let outward = p.facing * Vec3::X * side.sign();
            let most = KNEE_OUT_MAX_DEG.to_radians().sin() * p.low;
            // The knee above the floor under its foot, as a kneeling knee rests (a crouched walk's
            // trailing leg).
            let knee_floor =
                foot.place.position.y + rest.knee_pad(p.scale) + KNEE_CLEAR_M * p.scale;
            let mut knee_toward =
                legs::knee_forward(p.facing, hip, ankle, &rest, outward, most, knee_floor);
            // This leg on its knee, easing in or out by its weight (the kneel is one leg's).
            let kneeling = self
                .kneel
                .pose()
                .filter(|(k, _)| *k == side)
                .map(|(_, w)| w);
            if let Some(w) = kneeling {
                // On its knee (easing in or out by `w`): the knee on its foot's ground where the
                // thigh reaches (planted once fully down), the shin behind it, the toes down;
                // the foot goes with the knee.
                // Where the foot stood when it went down (not a stepping foot's arc).
                let floor = *p.knee_floors.get(side);
                let plant = &mut self.knee_plant;
                let (knee, at) = plant.place(hip, turn * Vec3::Z, floor, &rest, p.scale);
                plant.keep(knee, at, w);
                // The knee bends toward where it kneels (forward and up is sideways to a thigh
                // turned from the foot, with the ankle below and behind the hip).
                knee_toward = knee - hip;
                ankle = ankle.lerp(at, w);
                ankle.y += kneel::ball_clearance(&rest, w, ankle.y - floor);
                if foot.planted && w >= 1.0 {
                    foot.place.position = Vec3::new(at.x, floor, at.z);
                    self.feet.replant(side, foot.place);
                }
                foot_turn = foot_turn.slerp(kneel::kneeling_foot(turn, rest.foot_in_root), w);
            }
            let ankle = legs::beyond_folded_reach(hip, ankle, &rest, turn * Vec3::Z);
            // Whatever bends it, the knee's joint no lower than a kneeling knee's (its skin
            // would go through the floor): easing into a kneel with the hips low bent it down
            // onto the floor.
            let ground = if kneeling.is_some() {
                *p.knee_floors.get(side)
            } else {
                foot.place.position.y
            };
            let knee_floor = ground + rest.knee_pad(p.scale) - KNEE_PAD_SLACK_M * p.scale;
            let knee_toward =
                knee_clear::knee_above(hip, ankle, &rest, knee_toward, outward, knee_floor);
            legs::solve_leg(
                tree,
                leg,
                &rest,
                to_skeleton.transform_point(ankle),
                to_skeleton.rotation * knee_toward,
                (to_skeleton.rotation * foot_turn).normalize(),
            );
            // The kneeling foot's toes bent back at the ball, flat on the floor, and flat all the
            // way down onto the knee and up again (as standing): turned with the foot while it
            // turns toes down, their tips went through the floor (Mannequiny's, 2.6 cm). Toes an
            // animation curls come flat at once as the kneel starts (eased in over even a
            // quarter of it, the tips still dip 2 mm).
            if let (Some(_), Some(t), Some(toes)) = (kneeling, rest.toes, *b.toes.get(side)) {
                let now = tree.global(toes);
                let flat = to_skeleton.rotation * kneel::kneeling_toes(turn, &t);
                tree.set_global(toes, Pose::new(now.position, flat));
            }
            *feet.get_mut(side) = Some(foot);
        }
        feet
    }
}
