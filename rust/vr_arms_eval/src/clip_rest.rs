//! How a clip is read, found from its data and never assumed: the unit (the one that gives the
//! performer a human arm), the up axis (from the hips to the head), whether the first frame is an
//! added T-pose (skipped), and the rest pose the avatar is built from, with each joint's constant
//! turn into the evaluation's frame (Y up, facing +Z, the character's left +X).
//!
//! The rest comes from, in this order: the skeleton's own rest (all channels zero) when it is a
//! T-pose; else a T-pose first frame; else the skeleton's rest when it stands upright (arms at
//! the sides, say); else the first frame as the performer stands. In the last two the arms and
//! legs are laid out straight (arms out level, legs down) with their own lengths. A skeleton's
//! rest faces along an axis: its frame is taken square to the axes.

use glam::{Mat3, Quat, Vec3};
use vr_arms_core::Side;

use crate::bvh::Bvh;
use crate::skeleton::Joints;

/// Units a BVH file may be written in (metres per unit): metres, centimetres, millimetres,
/// inches and CMU's own length unit (the "MotionBuilder-friendly" conversions).
pub const UNITS: [(f32, &str); 5] = [
    (1.0, "m"),
    (0.01, "cm"),
    (0.001, "mm"),
    (0.0254, "in"),
    (0.056444, "CMU units"),
];

/// A grown human's upper arm plus forearm, metres: the unit chosen is the one nearest to it
/// (by ratio). Any arm from 0.35 to 0.77 m reads right in every unit.
const HUMAN_ARM_M: f32 = 0.52;

/// Where a clip's rest pose came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RestSource {
    /// The skeleton's rest (all channels zero) is a T-pose.
    SkeletonTPose,
    /// The first frame is an added T-pose (and is skipped).
    FirstFrameTPose,
    /// Neither, but the skeleton's rest stands upright: its arms and legs laid out straight.
    SkeletonStanding,
    /// None of these: the first frame as the performer stands, arms and legs laid out.
    FirstFrameStanding,
}

impl RestSource {
    pub fn label(self) -> &'static str {
        match self {
            RestSource::SkeletonTPose => "skeleton's rest (T-pose)",
            RestSource::FirstFrameTPose => "first frame (T-pose, skipped)",
            RestSource::SkeletonStanding => "skeleton's rest, limbs laid out",
            RestSource::FirstFrameStanding => "first frame, limbs laid out",
        }
    }

    /// The arms and legs are laid out from a pose that is no T-pose.
    pub fn lays_out_limbs(self) -> bool {
        matches!(
            self,
            RestSource::SkeletonStanding | RestSource::FirstFrameStanding
        )
    }
}

/// The name of a unit in [`UNITS`].
pub fn unit_name(unit_m: f32) -> &'static str {
    UNITS
        .iter()
        .find(|(u, _)| *u == unit_m)
        .map_or("?", |(_, n)| n)
}

/// The file's up axis for an upright turn (`+Y`, `+Z`, ...).
pub fn up_name(upright: Quat) -> &'static str {
    let up = upright.inverse() * Vec3::Y;
    let a = axis_of(up);
    match (a.x + 2.0 * a.y + 3.0 * a.z) as i32 {
        1 => "+X",
        -1 => "-X",
        2 => "+Y",
        -2 => "-Y",
        3 => "+Z",
        _ => "-Z",
    }
}

/// What [`ClipRest::find`] found.
#[derive(Clone, Debug)]
pub struct ClipRest {
    /// Metres per file unit.
    pub unit_m: f32,
    /// Turns the file's world so that its up is +Y.
    pub upright: Quat,
    /// Frames skipped at the start (1 after an added T-pose).
    pub first_frame: usize,
    pub source: RestSource,
    /// Rest positions of every joint, metres, in the evaluation's frame (Y up, facing +Z, the
    /// character's left +X), the hips at the origin.
    pub rest: Vec<Vec3>,
    /// Per joint: the constant turn from the joint's upright world rotation to its frame in the
    /// evaluation's convention (the identity in the rest pose).
    pub offset: Vec<Quat>,
    /// Per side (left, right): the hand frame (+Y along the hand) in the hand joint's frame
    /// turned by its `offset`.
    pub hand_frames: [Quat; 2],
}

/// A pose as positions and rotations per joint.
type Posed = Vec<(Vec3, Quat)>;

impl ClipRest {
    pub fn find(bvh: &Bvh, joints: &Joints) -> Result<ClipRest, String> {
        if bvh.frames.is_empty() {
            return Err("the clip has no frames".into());
        }
        let unit_m = unit_of(&bvh.pose(0, 1.0), joints);
        let raw0 = bvh.pose(0, unit_m);
        let upright =
            Quat::from_rotation_arc(axis_of(raw0[joints.head].0 - raw0[joints.hips].0), Vec3::Y);
        let first: Posed = raw0
            .iter()
            .map(|(p, r)| (upright * *p, (upright * *r).normalize()))
            .collect();
        let first_is_t = is_t_pose(&first, joints, Vec3::Y);
        let skeleton: Posed = bvh
            .rest(unit_m)
            .into_iter()
            .map(|p| (p, Quat::IDENTITY))
            .collect();
        let skeleton_up = axis_of(skeleton[joints.head].0 - skeleton[joints.hips].0);
        let (source, cal, up) = if is_t_pose(&skeleton, joints, skeleton_up) {
            (RestSource::SkeletonTPose, &skeleton, skeleton_up)
        } else if first_is_t {
            (RestSource::FirstFrameTPose, &first, Vec3::Y)
        } else if is_standing(&skeleton, joints, skeleton_up) {
            (RestSource::SkeletonStanding, &skeleton, skeleton_up)
        } else {
            (RestSource::FirstFrameStanding, &first, Vec3::Y)
        };
        let mut body = body_frame(cal, joints, up);
        if std::ptr::eq(cal, &skeleton) {
            body = square(body);
        }
        let to_body = body.inverse();
        let hips = cal[joints.hips].0;
        let mut rest: Vec<Vec3> = cal.iter().map(|(p, _)| to_body * (*p - hips)).collect();
        if source.lays_out_limbs() {
            lay_out_limbs(bvh, joints, &mut rest);
        }
        // In the calibration pose every joint's frame is the body's. For the skeleton's rest
        // (rotations all the identity, in the file's own axes) that is `body` itself: a frame
        // turned upright turns joint and body alike.
        let offset: Vec<Quat> = cal
            .iter()
            .map(|(_, r)| (r.inverse() * body).normalize())
            .collect();
        let hand_frames = [Side::Left, Side::Right].map(|side| {
            let i = side.index();
            let (hand, lower) = (joints.hand[i], joints.lower[i]);
            if source.lays_out_limbs() {
                // The joint's frame turned by its offset is the body's in this pose.
                (to_body * hand_frame_in_pose(cal, joints, side, body)).normalize()
            } else {
                hand_frame_in_joint(side, rest[hand] - rest[lower])
            }
        });
        Ok(ClipRest {
            unit_m,
            upright,
            first_frame: usize::from(first_is_t),
            source,
            rest,
            offset,
            hand_frames,
        })
    }
}

/// The unit nearest (by ratio) to giving the skeleton a human arm, from a pose in file units.
fn unit_of(pose: &Posed, joints: &Joints) -> f32 {
    let p = |j: usize| pose[j].0;
    let arm: f32 = (0..2)
        .map(|i| {
            p(joints.upper[i]).distance(p(joints.lower[i]))
                + p(joints.lower[i]).distance(p(joints.hand[i]))
        })
        .sum::<f32>()
        * 0.5;
    UNITS
        .iter()
        .map(|(u, _)| *u)
        .min_by(|a, b| {
            let off = |u: f32| (arm * u / HUMAN_ARM_M).ln().abs();
            off(*a).total_cmp(&off(*b))
        })
        .unwrap_or(1.0)
}

/// The world axis (+-X, +-Y, +-Z) nearest to `d`.
fn axis_of(d: Vec3) -> Vec3 {
    let a = d.abs();
    if a.x >= a.y && a.x >= a.z {
        Vec3::X * d.x.signum()
    } else if a.y >= a.z {
        Vec3::Y * d.y.signum()
    } else {
        Vec3::Z * d.z.signum()
    }
}

/// Arms out level and straight, hands nearly as far apart as the arms reach.
fn is_t_pose(pose: &Posed, joints: &Joints, up: Vec3) -> bool {
    let p = |j: usize| pose[j].0;
    let mut reach = p(joints.upper[0]).distance(p(joints.upper[1]));
    for i in 0..2 {
        let (u, l, h) = (p(joints.upper[i]), p(joints.lower[i]), p(joints.hand[i]));
        reach += u.distance(l) + l.distance(h);
        if (h - u).normalize_or_zero().dot(up).abs() > 0.25 {
            return false;
        }
    }
    p(joints.hand[0]).distance(p(joints.hand[1])) > 0.95 * reach
}

/// The hand's frame in a pose (+Y along the hand, +Z its thumb side, as a T-pose's level hand,
/// palm down, has it): from the finger roots when the skeleton has them, else along the forearm
/// with the thumb forward (a hand hanging at the side, palm in).
fn hand_frame_in_pose(pose: &Posed, joints: &Joints, side: Side, body: Quat) -> Quat {
    let i = side.index();
    let p = |j: usize| pose[j].0;
    let wrist = p(joints.hand[i]);
    let (long, thumb_side) = match joints.fingers[i] {
        Some(f) => (p(f.long) - wrist, p(f.index) - p(f.little)),
        None => (wrist - p(joints.lower[i]), body * Vec3::Z),
    };
    let long = long.normalize_or(-Vec3::Y);
    let z = (thumb_side - long * thumb_side.dot(long)).normalize_or(body * Vec3::Z);
    Quat::from_mat3(&Mat3::from_cols(long.cross(z), long, z))
}

/// Upright: the spine within 25 degrees of the up axis, and each leg, when there are legs,
/// nearly straight below its hip.
fn is_standing(pose: &Posed, joints: &Joints, up: Vec3) -> bool {
    let p = |j: usize| pose[j].0;
    let spine = p(joints.head) - p(joints.hips);
    if spine.dot(up) < 0.9 * spine.length() {
        return false;
    }
    joints.lower_body.is_none_or(|lb| {
        lb.legs.iter().all(|&[u, k, a]| {
            (p(u) - p(a)).dot(up) > 0.9 * (p(u).distance(p(k)) + p(k).distance(p(a)))
        })
    })
}

/// `q` with each of its axes on the world axis nearest to it.
fn square(q: Quat) -> Quat {
    let (x, y) = (axis_of(q * Vec3::X), axis_of(q * Vec3::Y));
    if x.dot(y) != 0.0 {
        return q;
    }
    Quat::from_mat3(&Mat3::from_cols(x, y, x.cross(y)))
}

/// The body's frame in a pose (columns: the character's left, up, forward), from the shoulders
/// and the up axis.
fn body_frame(pose: &Posed, joints: &Joints, up: Vec3) -> Quat {
    let across = pose[joints.upper[0]].0 - pose[joints.upper[1]].0;
    let left = (across - up * across.dot(up)).normalize_or(Vec3::X);
    Quat::from_mat3(&Mat3::from_cols(left, up, left.cross(up))).normalize()
}

/// Lays the arms out level (left along +X) and the legs straight down, each bone its own
/// length, moving everything below each moved joint with it.
fn lay_out_limbs(bvh: &Bvh, joints: &Joints, rest: &mut [Vec3]) {
    let mut chains: Vec<([usize; 3], Vec3)> = vec![
        ([joints.upper[0], joints.lower[0], joints.hand[0]], Vec3::X),
        ([joints.upper[1], joints.lower[1], joints.hand[1]], -Vec3::X),
    ];
    if let Some(lb) = joints.lower_body {
        chains.extend(lb.legs.map(|leg| (leg, -Vec3::Y)));
    }
    for (chain, dir) in chains {
        for k in 1..3 {
            let (from, to) = (chain[k - 1], chain[k]);
            let length = rest[from].distance(rest[to]);
            let shift = rest[from] + dir * length - rest[to];
            for j in subtree(bvh, to) {
                rest[j] += shift;
            }
        }
    }
}

/// `root` and every joint below it.
fn subtree(bvh: &Bvh, root: usize) -> Vec<usize> {
    let mut out = vec![root];
    for j in root + 1..bvh.joints.len() {
        if bvh.joints[j].parent.is_some_and(|p| out.contains(&p)) {
            out.push(j);
        }
    }
    out
}
/// Rotation taking a bone-aligned frame (+Y along the bone) onto the BVH rest direction of an
/// arm (+X for the left arm, -X for the right).
pub fn align(side: Side) -> Quat {
    Quat::from_rotation_z(-side.sign() * std::f32::consts::FRAC_PI_2)
}

/// The hand frame (+Y along the hand) in a hand joint's frame turned into the evaluation's
/// convention (the identity in a T-pose rest, see [`crate::clip_rest`]), for a hand whose rest
/// long axis is `rest_long_axis` (the T-pose rest's direction from the forearm joint into the
/// hand joint, the same in that frame). It is [`align`] tilted the least way that puts +Y on the
/// long axis: the hand's forward is its real long axis for every skeleton, not the joint's raw
/// X axis (on the Daz family that axis is about 17.5 degrees off the hand).
pub fn hand_frame_in_joint(side: Side, rest_long_axis: Vec3) -> Quat {
    let a = align(side);
    let Some(d) = rest_long_axis.try_normalize() else {
        return a;
    };
    (Quat::from_rotation_arc(a * Vec3::Y, d) * a).normalize()
}
