//! One motion-capture clip turned into what a headset would report and what really happened.

use glam::{Quat, Vec3};
use vr_arms_core::{ArmBones, PerSide, Pose, Side};

use crate::bvh::Bvh;
use crate::clip_rest::{ClipRest, RestSource};
pub use crate::clip_rest::{align, hand_frame_in_joint};
use crate::floor_plane::FloorPlane;
use crate::skeleton::Joints;

/// Which group of clips a clip belongs to: what VR players do most, or karate and dance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Walking about, arms relaxed, bending to pick up: clips in a folder named `everyday`.
    Everyday,
    /// Karate and dance: every other clip.
    Performance,
}

impl Group {
    /// Everyday first: the docs lead with it.
    pub const ALL: [Group; 2] = [Group::Everyday, Group::Performance];

    /// The group of the clip at `path`, by its folder's name.
    pub fn of_path(path: &std::path::Path) -> Group {
        let folder = path.parent().and_then(|p| p.file_name());
        if folder.is_some_and(|f| f == "everyday") {
            Group::Everyday
        } else {
            Group::Performance
        }
    }

    /// The group's name in the JSON summary and the docs.
    pub fn key(self) -> &'static str {
        match self {
            Group::Everyday => "everyday",
            Group::Performance => "performance",
        }
    }
}

/// A clip ready for evaluation.
pub struct Clip {
    pub name: String,
    pub group: Group,
    /// The naming the skeleton's joints were recognised by.
    pub naming: vr_arms_core::rig::rig_names::RigFamily,
    pub bvh: Bvh,
    /// Seconds per frame actually used.
    pub frame_time: f32,
    joints: Joints,
    /// The unit, up axis, skipped frames and rest found from the data.
    pub read: ClipRest,
    /// The floor's plane, found once ([`Clip::floor_plane`]).
    floor: std::sync::OnceLock<FloorPlane>,
}

/// Clips whose real frame rate is not the one in their header: (name part, frames per second,
/// why).
pub const FPS_OVERRIDES: [(&str, f32, &str); 2] = [
    (
        "salsa",
        60.0,
        "the mocap README: really 60 fps although the header says 120",
    ),
    (
        "wave_hello",
        60.0,
        "the mocap README: probably really 60 fps (header says 120)",
    ),
];

/// The frame rate (and the reason) a clip is read at when its header is wrong.
pub fn fps_override(name: &str) -> Option<(f32, &'static str)> {
    FPS_OVERRIDES
        .iter()
        .find(|(part, _, _)| name.contains(part))
        .map(|(_, fps, why)| (*fps, *why))
}

/// The fixed grip offset: the controller's grip centre relative to the wrist, in the hand frame
/// (+Y along the hand's rest long axis, see [`hand_frame_in_joint`]), metres. The same for every
/// clip.
pub const GRIP_OFFSET: Vec3 = Vec3::new(0.0, 0.08, -0.02);

/// The headset's place on a skeleton without eyes: above and in front of the head joint, in
/// the head's frame (Y up, facing +Z), metres.
pub const HEADSET_FROM_HEAD: Vec3 = Vec3::new(0.0, 0.10, 0.08);

/// What one frame gives: truth and tracked input (world space, metres).
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub headset: Pose,
    /// Controller poses (OpenXR grip convention: -Z along the fist, +Y up).
    pub controllers: PerSide<Pose>,
    pub chest: Pose,
    /// The neck and head joints (for the upper-body error).
    pub neck: Vec3,
    pub head: Vec3,
    pub clavicle: PerSide<Pose>,
    pub shoulder: PerSide<Vec3>,
    pub elbow: PerSide<Vec3>,
    pub wrist: PerSide<Vec3>,
    /// Hand frame (+Y along the hand's long axis) of the true wrist.
    pub hand: PerSide<Quat>,
    /// The lower body's joints, when the clip has them.
    pub lower: Option<LowerFrame>,
}

/// The lower body's joints in one frame (world, metres).
#[derive(Clone, Copy, Debug)]
pub struct LowerFrame {
    pub hips: Vec3,
    /// The joint between the hips and the chest.
    pub abdomen: Vec3,
    /// The hip joints (the upper legs' roots).
    pub upper_leg: PerSide<Vec3>,
    pub knee: PerSide<Vec3>,
    pub ankle: PerSide<Vec3>,
}

/// The controller's rotation for a hand frame: the inverse of the default `ControllerTargets`
/// calibration (-90 degrees about X), so the default calibration maps it back onto the hand.
pub fn grip_from_hand(hand: Quat) -> Quat {
    hand * Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)
}

impl Clip {
    pub fn load(path: &std::path::Path) -> Result<Clip, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let bvh = Bvh::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let mut clip = Self::from_bvh(name, bvh)?;
        clip.group = Group::of_path(path);
        Ok(clip)
    }

    pub fn from_bvh(name: String, bvh: Bvh) -> Result<Clip, String> {
        let (joints, naming) = Joints::find(&bvh).map_err(|e| format!("{name}: {e}"))?;
        let read = ClipRest::find(&bvh, &joints).map_err(|e| format!("{name}: {e}"))?;
        let frame_time = fps_override(&name).map_or(bvh.frame_time, |(fps, _)| 1.0 / fps);
        Ok(Clip {
            name,
            group: Group::Performance,
            naming,
            bvh,
            frame_time,
            joints,
            read,
            floor: std::sync::OnceLock::new(),
        })
    }

    /// Metres per file unit.
    pub fn unit_m(&self) -> f32 {
        self.read.unit_m
    }

    /// Where the rest pose came from.
    pub fn rest_source(&self) -> RestSource {
        self.read.source
    }

    /// Every joint's position and rotation in frame `f` of the file, upright (Y up), metres.
    fn posed(&self, f: usize) -> Vec<(Vec3, Quat)> {
        let up = self.read.upright;
        self.bvh
            .pose(f, self.read.unit_m)
            .into_iter()
            .map(|(p, r)| (up * p, up * r))
            .collect()
    }

    pub fn frame_count(&self) -> usize {
        self.bvh.frames.len().saturating_sub(self.read.first_frame)
    }

    /// Rest-pose arm bones in bone-aligned frames (the avatar built with the clip's own bone
    /// lengths), world = skeleton space.
    pub fn rest_arms(&self) -> PerSide<ArmBones> {
        let arm = |side: Side| {
            let i = side.index();
            let a = align(side);
            ArmBones {
                parent: Pose::new(self.read.rest[self.joints.clavicle[i]], a),
                upper: Pose::new(self.read.rest[self.joints.upper[i]], a),
                lower: Pose::new(self.read.rest[self.joints.lower[i]], a),
                hand: Pose::new(self.read.rest[self.joints.hand[i]], a),
            }
        };
        PerSide::new(arm(Side::Left), arm(Side::Right))
    }

    /// Rest positions of the chest and the headset point (for the body model).
    pub fn rest_torso(&self) -> (Vec3, Vec3) {
        (self.read.rest[self.joints.chest], self.headset_rest())
    }

    /// Rest positions of the neck and head joints.
    pub fn rest_neck_head(&self) -> (Vec3, Vec3) {
        (
            self.read.rest[self.joints.neck],
            self.read.rest[self.joints.head],
        )
    }

    /// The rest pose's lowest joint's height: where it stands on the floor (the clips' floor is
    /// at height 0, their rest pose at its hips).
    pub fn rest_floor(&self) -> f32 {
        self.read
            .rest
            .iter()
            .map(|p| p.y)
            .fold(f32::INFINITY, f32::min)
    }

    fn headset_rest(&self) -> Vec3 {
        match self.joints.eyes {
            Some((l, r)) => (self.read.rest[l] + self.read.rest[r]) * 0.5,
            None => self.read.rest[self.joints.head] + HEADSET_FROM_HEAD,
        }
    }

    /// Frame `k` (0-based after the skipped T-pose).
    pub fn frame(&self, k: usize) -> Frame {
        let mut pose = self.posed(k + self.read.first_frame);
        for (p, o) in pose.iter_mut().zip(&self.read.offset) {
            p.1 *= *o;
        }
        let j = &self.joints;
        let (head_pos, head_rot) = pose[j.head];
        let headset_pos = match j.eyes {
            Some((l, r)) => (pose[l].0 + pose[r].0) * 0.5,
            None => head_pos + head_rot * HEADSET_FROM_HEAD,
        };
        let per = |f: &dyn Fn(Side) -> Vec3| PerSide::new(f(Side::Left), f(Side::Right));
        let hand = |side: Side| {
            let i = side.index();
            (pose[j.hand[i]].1 * self.read.hand_frames[i]).normalize()
        };
        let controller = |side: Side| {
            let h = hand(side);
            Pose::new(
                pose[j.hand[side.index()]].0 + h * GRIP_OFFSET,
                grip_from_hand(h),
            )
        };
        Frame {
            // The head faces +Z at rest; a camera looks along -Z.
            headset: Pose::new(
                headset_pos,
                (head_rot * Quat::from_rotation_y(std::f32::consts::PI)).normalize(),
            ),
            controllers: PerSide::new(controller(Side::Left), controller(Side::Right)),
            chest: Pose::new(pose[j.chest].0, pose[j.chest].1),
            neck: pose[j.neck].0,
            head: head_pos,
            clavicle: PerSide::new(
                Pose::new(pose[j.clavicle[0]].0, pose[j.clavicle[0]].1),
                Pose::new(pose[j.clavicle[1]].0, pose[j.clavicle[1]].1),
            ),
            shoulder: per(&|s| pose[j.upper[s.index()]].0),
            elbow: per(&|s| pose[j.lower[s.index()]].0),
            wrist: per(&|s| pose[j.hand[s.index()]].0),
            hand: PerSide::new(hand(Side::Left), hand(Side::Right)),
            lower: j.lower_body.map(|lb| LowerFrame {
                hips: pose[j.hips].0,
                abdomen: pose[lb.abdomen].0,
                upper_leg: PerSide::new(pose[lb.legs[0][0]].0, pose[lb.legs[1][0]].0),
                knee: PerSide::new(pose[lb.legs[0][1]].0, pose[lb.legs[1][1]].0),
                ankle: PerSide::new(pose[lb.legs[0][2]].0, pose[lb.legs[1][2]].0),
            }),
        }
    }

    /// The rest positions of the hips, the abdomen and each leg's upper leg, lower leg and
    /// ankle (left first), when the clip has them.
    pub fn rest_lower(&self) -> Option<(Vec3, Vec3, [[Vec3; 3]; 2])> {
        let lb = self.joints.lower_body?;
        let r = |i: usize| self.read.rest[i];
        Some((
            r(self.joints.hips),
            r(lb.abdomen),
            lb.legs.map(|leg| leg.map(r)),
        ))
    }

    /// The floor's height in the clip: where the lower ankle is at its lowest (the 5th
    /// percentile over the clip, against marker noise), less the ankle's rest height over the
    /// rest pose's lowest joint; 0 for a clip without legs.
    pub fn floor_y(&self) -> f32 {
        let mut lows: Vec<f32> = self.lower_ankles().iter().map(|p| p.y).collect();
        if lows.is_empty() {
            return 0.0;
        }
        lows.sort_by(f32::total_cmp);
        lows[lows.len() / 20] - self.ankle_over_floor()
    }

    /// Each frame's lower ankle (world); none for a clip without legs.
    fn lower_ankles(&self) -> Vec<Vec3> {
        let Some(lb) = self.joints.lower_body else {
            return Vec::new();
        };
        (0..self.frame_count())
            .map(|k| {
                let pose = self.posed(k + self.read.first_frame);
                let (l, r) = (pose[lb.legs[0][2]].0, pose[lb.legs[1][2]].0);
                if l.y <= r.y { l } else { r }
            })
            .collect()
    }

    /// How far the rest pose's lower ankle is above its lowest joint (0 without legs).
    fn ankle_over_floor(&self) -> f32 {
        let Some(lb) = self.joints.lower_body else {
            return 0.0;
        };
        let ankle_rest = self.read.rest[lb.legs[0][2]]
            .y
            .min(self.read.rest[lb.legs[1][2]].y);
        ankle_rest - self.rest_floor()
    }

    /// The floor as the performer stood on it: a plane under the lower ankle's path, found as
    /// [`Clip::floor_y`] finds a level one ([`FloorPlane::under`]), once per clip; level at
    /// [`Clip::floor_y`] for a clip without legs.
    pub fn floor_plane(&self) -> FloorPlane {
        *self
            .floor
            .get_or_init(|| match FloorPlane::under(&self.lower_ankles()) {
                Some(mut plane) => {
                    plane.height -= self.ankle_over_floor();
                    plane
                }
                None => FloorPlane::level(self.floor_y()),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clip_in_a_folder_named_everyday_is_in_the_everyday_group() {
        use std::path::Path;
        let of = |p: &str| Group::of_path(Path::new(p));
        assert_eq!(of("../shared/mocap/everyday/walk.bvh"), Group::Everyday);
        assert_eq!(
            of("../shared/mocap/cmu135_03_martial.bvh"),
            Group::Performance
        );
        assert_eq!(of("everyday.bvh"), Group::Performance);
    }

    #[test]
    fn the_hand_frame_points_along_the_rest_long_axis() {
        for (side, d) in [
            (Side::Left, Vec3::new(1.0, -0.3, 0.1)),
            (Side::Right, Vec3::new(-1.0, -0.3, 0.1)),
        ] {
            let q = hand_frame_in_joint(side, d * 23.7);
            assert!((q * Vec3::Y).distance(d.normalize()) < 1e-6, "{side:?}");
        }
        // A hand straight along the joint's X axis keeps the plain alignment.
        let q = hand_frame_in_joint(Side::Left, Vec3::X);
        assert!(q.angle_between(align(Side::Left)) < 1e-6);
        assert_eq!(
            hand_frame_in_joint(Side::Right, Vec3::ZERO),
            align(Side::Right)
        );
    }
}
