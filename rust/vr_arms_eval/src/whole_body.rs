//! The whole body on a clip: the core's one composition ([`Body`]) with its lower body, on a
//! tree built with the clip's bone lengths (hips, abdomen, chest, neck, head, both arms, both
//! legs), standing on the clip's floor; measured joint by joint against the performer, with two
//! baselines: "standing" (the same body without its lower body: the skeleton at its rest height
//! under the head, what the engine's node graph runs today) and "hanging" (the rest pose held
//! rigidly from the headset, turned with its yaw).

use glam::{Quat, Vec3};
use vr_arms_core::body::body_pipeline::{BodyBones, BodyPipeline, FINGERS};
use vr_arms_core::body::profile::ArmProfile;
use vr_arms_core::body::{Body, Placement, Tracking};
use vr_arms_core::lower_body::ground::Ground;
use vr_arms_core::lower_body::{LowerBody, LowerBodyBones, LowerBodySettings};
use vr_arms_core::maths::pose_tree::PoseTree;
use vr_arms_core::{PerSide, Pose, Side};

use crate::clip::Clip;
use crate::clip_body::{arm_rest, push_arms, standing};
use crate::floor_plane::FloorPlane;

const HIPS: usize = 0;
const ABDOMEN: usize = 1;
const CHEST: usize = 2;
const NECK: usize = 3;
const HEAD: usize = 4;

fn arm(side: Side) -> [usize; 4] {
    let first = 5 + 4 * side.index();
    [first, first + 1, first + 2, first + 3]
}

fn leg(side: Side) -> [usize; 3] {
    let first = 13 + 3 * side.index();
    [first, first + 1, first + 2]
}

/// The joints compared, in this order: head, hips, chest, then per side (left first) knee,
/// ankle, shoulder, elbow, wrist.
pub const JOINTS: usize = 13;

/// One frame's compared joints (world).
pub type Joints = [Vec3; JOINTS];

/// The whole body on one clip's skeleton.
pub struct WholeClipBody {
    pub body: Body,
    tree: PoseTree,
    placement: Placement,
    rest: Vec<Pose>,
    /// The clip's floor ([`Clip::floor_plane`]): the body's ground.
    floor: FloorPlane,
}

/// The clip's floor as the body's ground.
struct PlaneGround(FloorPlane);

impl Ground for PlaneGround {
    fn height_at(&self, at: Vec3, _lowest: f32) -> Option<f32> {
        Some(self.0.at(at.x, at.z))
    }
}

impl WholeClipBody {
    /// `None` for a clip without legs.
    pub fn new(
        clip: &Clip,
        scale: f32,
        profile: &ArmProfile,
        settings: LowerBodySettings,
    ) -> Option<Self> {
        let (hips, abdomen, legs) = clip.rest_lower()?;
        let at = standing(clip, scale);
        let (chest, eyes) = clip.rest_torso();
        let (neck, head) = clip.rest_neck_head();
        let mut rest: Vec<Pose> = [hips, abdomen, chest, neck, head]
            .map(|p| Pose::from_position(at(p)))
            .to_vec();
        let mut parents = vec![None, Some(HIPS), Some(ABDOMEN), Some(CHEST), Some(NECK)];
        let (rest_arms, hand_rest) = arm_rest(clip, scale);
        push_arms(&mut rest, &mut parents, CHEST, &rest_arms);
        for side in Side::BOTH {
            rest.extend(legs[side.index()].map(|p| Pose::from_position(at(p))));
            let [u, l, _] = leg(side);
            parents.extend([Some(HIPS), Some(u), Some(l)]);
        }
        let mut tree = PoseTree::new(&parents).expect("a valid tree");
        tree.set_globals(&rest);
        let bones = BodyBones {
            chest_parent: Some(ABDOMEN),
            spine: [Some(CHEST), Some(NECK), Some(HEAD)],
            clavicles: PerSide::new(Some(arm(Side::Left)[0]), Some(arm(Side::Right)[0])),
            arms: PerSide::new(arm(Side::Left), arm(Side::Right)),
        };
        let lower = LowerBody::new(
            settings,
            LowerBodyBones {
                hips: HIPS,
                spine: [Some(ABDOMEN), Some(CHEST), Some(NECK), None],
                head: HEAD,
                legs: PerSide::new(Some(leg(Side::Left)), Some(leg(Side::Right))),
                // The clips' skeletons end at the ankles' children without toes bones.
                toes: PerSide::new(None, None),
            },
            &tree,
            Some(at(eyes)),
        );
        let pipeline = BodyPipeline::new(
            profile,
            &rest_arms,
            bones,
            hand_rest,
            PerSide::new([None; FINGERS], [None; FINGERS]),
        )
        .with_lower_body(lower);
        Some(Self {
            body: Body::new(pipeline, profile.body_follow),
            tree,
            placement: Placement {
                scale,
                floor_y: clip.floor_y(),
                ..Default::default()
            },
            rest,
            floor: clip.floor_plane(),
        })
    }

    /// The same body without its lower body (the "standing" baseline).
    pub fn standing(mut self) -> Self {
        self.body.pipeline.steps.lower_body = false;
        self
    }

    /// The chest bone's world rotation after the last [`WholeClipBody::frame`] (its rest is
    /// the identity: +Z forward).
    pub fn chest_rotation(&mut self) -> Quat {
        (self.placement.skeleton().rotation * self.tree.global(CHEST).rotation).normalize()
    }

    /// One frame from the rest pose (as the engine restores it every frame); the compared
    /// joints after it.
    pub fn frame(&mut self, tracking: &Tracking, dt: f32) -> Joints {
        self.tree.set_globals(&self.rest);
        // The floor under the headset: where the body stands.
        if let Some(h) = tracking.head.filter(|h| h.position.is_finite()) {
            self.placement.floor_y = self.floor.at(h.position.x, h.position.z);
        }
        if let Some(root) = self.body.place_root(tracking, &self.placement, dt) {
            self.placement.root = root;
        }
        self.body.pose_bones(
            tracking,
            &self.placement,
            &mut self.tree,
            dt,
            &PlaneGround(self.floor),
        );
        let s = self.placement.skeleton();
        let mut at = |i: usize| s.transform_point(self.tree.global(i).position);
        let mut j = [Vec3::ZERO; JOINTS];
        j[0] = at(HEAD);
        j[1] = at(HIPS);
        j[2] = at(CHEST);
        for side in Side::BOTH {
            let k = 3 + 5 * side.index();
            let [_, knee, ankle] = leg(side);
            let [_, shoulder, elbow, wrist] = arm(side);
            for (n, bone) in [knee, ankle, shoulder, elbow, wrist]
                .into_iter()
                .enumerate()
            {
                j[k + n] = at(bone);
            }
        }
        j
    }
}

/// The performer's compared joints in frame `k`, `None` for a clip without legs.
pub fn truth(clip: &Clip, k: usize) -> Option<Joints> {
    let f = clip.frame(k);
    let lower = f.lower?;
    let mut j = [Vec3::ZERO; JOINTS];
    j[0] = f.head;
    j[1] = lower.hips;
    j[2] = f.chest.position;
    for side in Side::BOTH {
        let k = 3 + 5 * side.index();
        let joints = [
            *lower.knee.get(side),
            *lower.ankle.get(side),
            *f.shoulder.get(side),
            *f.elbow.get(side),
            *f.wrist.get(side),
        ];
        j[k..k + 5].copy_from_slice(&joints);
    }
    Some(j)
}

/// The rest pose held rigidly from the headset, turned by its yaw (the "hanging" baseline):
/// the rest joints (as [`truth`] orders them) and the rest point between the eyes.
pub struct Hanging {
    rest: Joints,
    eyes: Vec3,
}

impl Hanging {
    pub fn new(clip: &Clip) -> Option<Self> {
        let (hips, _, legs) = clip.rest_lower()?;
        let (chest, eyes) = clip.rest_torso();
        let (_, head) = clip.rest_neck_head();
        let arms = clip.rest_arms();
        let mut rest = [Vec3::ZERO; JOINTS];
        rest[0] = head;
        rest[1] = hips;
        rest[2] = chest;
        for side in Side::BOTH {
            let k = 3 + 5 * side.index();
            let a = arms.get(side);
            let l = legs[side.index()];
            rest[k..k + 5].copy_from_slice(&[
                l[1],
                l[2],
                a.upper.position,
                a.lower.position,
                a.hand.position,
            ]);
        }
        Some(Self { rest, eyes })
    }

    pub fn frame(&self, headset: &Pose) -> Joints {
        let look = headset.rotation * Vec3::NEG_Z;
        let yaw = Quat::from_rotation_y(look.x.atan2(look.z));
        self.rest.map(|p| headset.position + yaw * (p - self.eyes))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bvh::Bvh;
    use crate::eval::EvalOptions;
    use crate::whole_body_metrics::evaluate_whole_body;

    /// A BVH joint block: `name` at `offset` (cm) with `children` (an end site when none).
    fn joint(name: &str, offset: [f32; 3], children: &[String]) -> String {
        let inner = if children.is_empty() {
            "End Site\n{\nOFFSET 0 -5 5\n}\n".to_string()
        } else {
            children.concat()
        };
        format!(
            "JOINT {name}\n{{\nOFFSET {} {} {}\nCHANNELS 3 Zrotation Xrotation Yrotation\n{inner}}}\n",
            offset[0], offset[1], offset[2]
        )
    }

    /// A Daz-named performer standing still for `frames` frames, the ankles (its lowest joints)
    /// on the floor at height 0.
    pub(crate) fn standing_clip(frames: usize) -> Clip {
        let leg = |s: &str, x: f32| {
            joint(
                &format!("{s}Thigh"),
                [x, -5.0, 0.0],
                &[joint(
                    &format!("{s}Shin"),
                    [0.0, -42.0, 0.0],
                    &[joint(&format!("{s}Foot"), [0.0, -42.0, 0.0], &[])],
                )],
            )
        };
        let arm = |s: &str, x: f32| {
            joint(
                &format!("{s}Collar"),
                [x * 3.0, 15.0, 0.0],
                &[joint(
                    &format!("{s}Shldr"),
                    [x * 15.0, 0.0, 0.0],
                    &[joint(
                        &format!("{s}ForeArm"),
                        [x * 28.0, 0.0, 0.0],
                        &[joint(&format!("{s}Hand"), [x * 25.0, 0.0, 0.0], &[])],
                    )],
                )],
            )
        };
        let head = joint(
            "head",
            [0.0, 10.0, 0.0],
            &[
                joint("leftEye", [3.0, 8.0, 8.0], &[]),
                joint("rightEye", [-3.0, 8.0, 8.0], &[]),
            ],
        );
        let chest = joint(
            "chest",
            [0.0, 25.0, 0.0],
            &[
                joint("neck", [0.0, 20.0, 0.0], &[head]),
                arm("l", 1.0),
                arm("r", -1.0),
            ],
        );
        let abdomen = joint("abdomen", [0.0, 10.0, 0.0], &[chest]);
        let body = [leg("l", 10.0), leg("r", -10.0), abdomen].concat();
        let text = format!(
            "HIERARCHY\nROOT hip\n{{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n{body}}}\nMOTION\nFrames: {}\nFrame Time: 0.0111111\n",
            frames + 1
        );
        let bvh = Bvh::parse(&text).expect("parses");
        let channels = 6 + 3 * (bvh.joints.len() - 1);
        // The T-pose frame, then the performer standing, the hips 89 cm up.
        let mut row = vec!["0".to_string(); channels];
        let mut rows = vec![row.join(" ")];
        row[1] = "89".into();
        rows.extend(std::iter::repeat_n(row.join(" "), frames));
        let text = format!("{text}{}\n", rows.join("\n"));
        Clip::from_bvh("standing".into(), Bvh::parse(&text).expect("parses")).expect("a clip")
    }

    #[test]
    fn a_performer_standing_still_is_met_by_the_whole_body_and_missed_by_the_baselines() {
        let clip = standing_clip(60);
        assert!(
            clip.floor_y().abs() < 1e-4,
            "the feet are on the floor: {}",
            clip.floor_y()
        );
        let r = evaluate_whole_body(&clip, &EvalOptions::default(), LowerBodySettings::default())
            .expect("a clip with legs");
        let [ours, standing, hanging] = r.methods;
        assert_eq!(ours.frames, 60);
        assert!(ours.head_cm < 0.5 && ours.hips_cm < 1.0, "{ours:?}");
        // Standing tall on straight legs the feet stand under the hip joints, where the
        // performer's are (the stance opens only as the body lowers).
        assert!(ours.feet_cm < 1.0, "{ours:?}");
        assert_eq!(ours.floor_penetration_frames, 0);
        // Hanging from the headset, this performer's rest pose (arms out) is its standing
        // pose: only the arms differ. The standing body stands under the head, a little off.
        assert!(
            hanging.hips_cm < 0.5 && hanging.feet_cm < 0.5,
            "{hanging:?}"
        );
        assert!(standing.head_cm > 0.0);
    }

    #[test]
    fn a_clip_without_legs_has_no_whole_body() {
        let clip = crate::clip_body::tests::clip();
        assert!(
            WholeClipBody::new(
                &clip,
                1.0,
                &ArmProfile::default(),
                LowerBodySettings::default()
            )
            .is_none()
        );
        assert!(Hanging::new(&clip).is_none());
    }
}
