//! What the lower body measures from the rest pose, in the avatar root's frame (+Y up, +Z
//! forward, the floor at height 0): measured again only when the skeleton's place in the root
//! changes.

use glam::{Quat, Vec3};

use super::LowerBodyBones;
use super::leg_skin::LegVertices;
use super::legs::LegRest;
use super::pelvis::{LegsReach, PelvisRest};
use super::standing;
use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;
use crate::maths::side::{PerSide, Side};

/// The rest pose's measures (world units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measures {
    pub pelvis: PelvisRest,
    /// From the head bone to the point between the eyes (where the headset is).
    pub eyes_from_head: Vec3,
    /// The hips' and the head's rest rotations.
    pub hips_in_root: Quat,
    /// The turn (root frame) that levels and squares the rest's pelvis
    /// ([`standing::pelvis_level`]): the standing hips are turned `hips_level * hips_in_root`.
    pub hips_level: Quat,
    pub head_in_root: Quat,
    pub legs: PerSide<Option<LegRest>>,
    /// Each foot's place under the hips (horizontal): the rest's, the feet at most
    /// [`standing::MAX_STAGGER_SHARE`] of the leg apart fore and aft.
    pub foot_offsets: PerSide<Vec3>,
}

/// The rest pose and its measures for the skeleton's last place in the root.
#[derive(Clone, Debug)]
pub struct LowerBodyRest {
    tree: PoseTree,
    bones: LowerBodyBones,
    eyes: Option<Vec3>,
    /// Each leg's mesh vertices at rest, until its knee's skin is measured from them (on the
    /// first measure), and that skin from then on.
    skins: PerSide<Option<LegVertices>>,
    knee_skins: PerSide<Option<f32>>,
    /// Shared with the frame that reads them (a count, not a copy of the measures).
    measured: Option<(Pose, std::sync::Arc<Measures>)>,
}

/// Whether two places are the same within 10 um and about 2e-5 rad. The rotations are compared
/// by their components (q and -q are the same turn): the angle `Quat::angle_between` gives is an
/// approximation whose error near zero (about 7e-4 rad for a quaternion one rounding step off)
/// measured the rest again on a third of the frames.
fn same_place(a: &Pose, b: &Pose) -> bool {
    let (p, q) = (a.rotation, b.rotation);
    let turn = (p - q).length_squared().min((p + q).length_squared());
    a.position.distance_squared(b.position) < 1e-10 && turn < 1e-10
}

impl LowerBodyRest {
    pub fn new(tree: PoseTree, bones: LowerBodyBones, eyes: Option<Vec3>) -> Self {
        Self {
            tree,
            bones,
            eyes,
            skins: PerSide::new(None, None),
            knee_skins: PerSide::new(None, None),
            measured: None,
        }
    }

    /// Measures each leg's knee skin from its mesh vertices at rest (skeleton space; thinned to
    /// a few thousand per bone) on the next measure, once: the vertices are not kept.
    pub fn set_leg_skins(&mut self, vertices: PerSide<Option<LegVertices>>) {
        self.knee_skins = PerSide::new(None, None);
        self.skins = PerSide::new(
            vertices.left.map(LegVertices::thinned),
            vertices.right.map(LegVertices::thinned),
        );
        self.measured = None;
    }

    /// The measures with the skeleton at `to_root` in the avatar root.
    pub fn measures(&mut self, to_root: &Pose) -> &std::sync::Arc<Measures> {
        let stale = self
            .measured
            .as_ref()
            .is_none_or(|(at, _)| !same_place(at, to_root));
        if stale {
            self.measured = Some((*to_root, std::sync::Arc::new(self.measure(to_root))));
        }
        &self.measured.as_ref().expect("measured above").1
    }

    fn measure(&mut self, to_root: &Pose) -> Measures {
        let b = self.bones;
        let tree = &mut self.tree;
        let hips = to_root.mul_pose(&tree.global(b.hips));
        let head = to_root.mul_pose(&tree.global(b.head));
        // A rig without eyes: where the calibration fitting the avatar to the headset puts them.
        let size = (head.position.y / 1.6).max(0.0);
        let eyes = match self.eyes {
            Some(e) => to_root.transform_point(e) - head.position,
            None => super::standing::eyes_from_head_bone(head.position.y),
        };
        let legs = Side::BOTH.map(|side| {
            (*b.legs.get(side)).map(|leg| {
                let rest = LegRest::measure(tree, leg, to_root).with_toes(
                    tree,
                    leg[2],
                    *b.toes.get(side),
                    to_root,
                );
                if let Some(v) = self.skins.get_mut(side).take() {
                    *self.knee_skins.get_mut(side) = rest.knee_skin_of(tree, leg, &v);
                }
                rest.with_knee_skin(*self.knee_skins.get(side))
            })
        });
        let mut foot_offset = |side: Side| match *b.legs.get(side) {
            Some([_, _, foot]) => {
                let a = to_root.transform_point(tree.global(foot).position) - hips.position;
                Vec3::new(a.x, 0.0, a.z)
            }
            None => Vec3::new(side.sign() * 0.1 * size, 0.0, 0.0),
        };
        let feet_at_rest = (foot_offset(Side::Left), foot_offset(Side::Right));
        // Measured as the standing body: the pelvis level and square, the legs straight, the
        // feet side by side (`standing.rs`; a rest already standing so is left as it is).
        let leg = legs
            .iter()
            .flatten()
            .map(|l| l.lengths.0 + l.lengths.1)
            .fold(0.0, f32::max);
        let rest_legs = match (*b.legs.get(Side::Left), *b.legs.get(Side::Right), legs) {
            (Some(l), Some(r), [Some(lr), Some(rr)]) => {
                let mut rest_leg = |leg: super::legs::LegBones, rest: &LegRest| standing::RestLeg {
                    hip: to_root.transform_point(tree.global(leg[0]).position),
                    ankle_height: rest.ankle_height,
                    lengths: rest.lengths,
                };
                Some(PerSide::new(rest_leg(l, &lr), rest_leg(r, &rr)))
            }
            _ => None,
        };
        let lift = rest_legs.map_or(0.0, standing::standing_lift);
        let hips_level = rest_legs.map_or(Quat::IDENTITY, standing::pelvis_level);
        let reach = rest_legs.map(|l| legs_reach(l, hips.position, hips_level));
        // The levelled hip joints' middle, for feet that stood a stance at rest.
        let under = reach.map(|r| r.hips_to_joints.z);
        let (left, right) = standing::standing_feet(feet_at_rest.0, feet_at_rest.1, leg, under);
        let foot_offsets = PerSide::new(left, right);
        Measures {
            pelvis: PelvisRest {
                head_to_hips: hips.position - head.position,
                head_height: head.position.y + lift,
                hips_height: hips.position.y + lift,
                legs: reach,
            },
            eyes_from_head: eyes,
            hips_in_root: hips.rotation,
            hips_level,
            head_in_root: head.rotation,
            legs: PerSide::new(legs[0], legs[1]),
            foot_offsets,
        }
    }
}

/// The legs' reach at rest ([`LegsReach`]) from both legs (root frame), the hips bone at
/// `hips` and the pelvis levelled by `hips_level`.
fn legs_reach(legs: PerSide<standing::RestLeg>, hips: Vec3, hips_level: Quat) -> LegsReach {
    let (l, r) = (legs.left, legs.right);
    let length = |leg: &standing::RestLeg| leg.lengths.0 + leg.lengths.1;
    LegsReach {
        hips_to_joints: hips_level * ((l.hip + r.hip) * 0.5 - hips),
        length: length(&l).max(length(&r)),
        ankle_height: (l.ankle_height + r.ankle_height) * 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower_body::reference_lower_body;

    fn rest() -> LowerBodyRest {
        let (tree, bones, eyes) = reference_lower_body();
        LowerBodyRest::new(tree, bones, Some(eyes))
    }

    /// The legs' reach is measured in the root's frame, wherever the skeleton stands in it:
    /// the reference legs (hip joints 5 cm under the hips bone, thigh and shin 42 cm each,
    /// ankles 6 cm up) turned a quarter about the root's up and raised 10 cm give the same
    /// offset and length, the ankles 16 cm up.
    #[test]
    fn the_legs_reach_is_measured_in_the_roots_frame() {
        let m = **rest().measures(&Pose::IDENTITY);
        let legs = m.pelvis.legs.expect("both legs");
        assert!(legs.hips_to_joints.distance(Vec3::new(0.0, -0.05, 0.0)) < 1e-5);
        assert!((legs.length - 0.84).abs() < 1e-5 && (legs.ankle_height - 0.06).abs() < 1e-5);
        let placed = Pose::new(
            Vec3::new(0.3, 0.1, -0.2),
            Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
        );
        let moved = rest().measures(&placed).pelvis.legs.expect("both legs");
        assert!(
            moved.hips_to_joints.distance(legs.hips_to_joints) < 1e-5,
            "{moved:?}"
        );
        assert!((moved.length - 0.84).abs() < 1e-5 && (moved.ankle_height - 0.16).abs() < 1e-5);
    }

    /// A leg's knee skin is measured from its vertices on the first measure and kept: the
    /// vertices are let go, and a new place in the root (which measures the rest again) keeps
    /// the same skin.
    #[test]
    fn a_knee_skin_is_measured_once_and_kept() {
        let mut r = rest();
        let legs = [r.bones.legs.left, r.bones.legs.right].map(|l| l.expect("both legs"));
        let mut skin = |leg: super::super::legs::LegBones| {
            let [h, k, a] = leg.map(|b| r.tree.global(b).position);
            super::super::leg_skin::cylinder_leg(h, k, a, 0.08)
        };
        let (left, right) = (skin(legs[0]), skin(legs[1]));
        r.set_leg_skins(PerSide::new(Some(left), Some(right)));
        let first = r
            .measures(&Pose::IDENTITY)
            .legs
            .left
            .expect("a left leg")
            .knee_skin;
        assert!(first.is_some_and(|p| (p - 0.08).abs() < 0.002), "{first:?}");
        assert!(
            r.skins.left.is_none() && r.skins.right.is_none(),
            "the vertices are let go"
        );
        let turned = Pose::new(Vec3::new(0.3, 0.0, 0.0), Quat::from_rotation_y(0.7));
        let again = r.measures(&turned).legs.left.expect("a left leg").knee_skin;
        assert_eq!(again, first);
    }

    /// A place one rounding step off (the root and the skeleton moving together every frame
    /// leave the identity as w = 0.99999994 on some frames) keeps the measures; a real turn of
    /// the skeleton in the root measures again, and gives what a fresh measure gives.
    #[test]
    fn rounding_keeps_the_measures_and_a_real_turn_measures_again() {
        let mut r = rest();
        r.measures(&Pose::IDENTITY);
        let wobble = Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.99999994));
        r.measures(&wobble);
        assert_eq!(
            r.measured.as_ref().unwrap().0,
            Pose::IDENTITY,
            "measured again on a rounding step"
        );
        let turned = Pose::new(Vec3::new(0.0, 0.0, 1e-3), Quat::from_rotation_y(1e-3));
        let m = **r.measures(&turned);
        assert_eq!(r.measured.as_ref().unwrap().0, turned);
        assert_eq!(m, **rest().measures(&turned));
        // -q is the same turn as q.
        r.measures(&Pose::new(turned.position, -turned.rotation));
        assert_eq!(r.measured.as_ref().unwrap().0, turned);
    }
}
