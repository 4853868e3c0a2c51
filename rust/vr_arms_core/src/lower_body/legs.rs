//! A leg's two-bone solve: the upper leg and lower leg turned so the ankle reaches the foot's
//! target, the knee bending toward where the foot points, the foot flat on the floor.
//!
//! The same analytic solve as the arms ([`crate::arms::two_bone_ik`]); the knee's hinge is measured
//! from the rest pose (forward against the leg), so a rig with any bone axes bends its knees
//! forward.

use glam::{Quat, Vec3};

use crate::arms::two_bone_ik::{LimbPose, TwoBoneGoal, solve_two_bone_with_reach};
use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;

/// One leg's bones in the tree: upper leg, lower leg, foot.
pub type LegBones = [usize; 3];

/// What a leg keeps from its rest pose (skeleton space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LegRest {
    /// The knee's hinge in the upper leg's own frame (flexing is a positive turn about it).
    pub hinge_in_upper: Vec3,
    /// The foot's rest rotation relative to the root's facing (foot flat, pointing +Z).
    pub foot_in_root: Quat,
    /// The ankle's rest height over the floor (world units).
    pub ankle_height: f32,
    /// The upper and lower leg's lengths (skeleton units).
    pub lengths: (f32, f32),
    /// The ankle (the foot bone's joint) at rest in the lower leg's own frame (skeleton units):
    /// where the shin carries the foot on a rig whose foot bone hangs from elsewhere (an
    /// IK-footed game rig exported with its feet under the root).
    pub ankle_in_lower: Vec3,
    /// The foot's toes bone, if the rig has one (see [`LegRest::with_toes`]).
    pub toes: Option<ToesRest>,
    /// How far in front of the knee joint its skin is, measured from the avatar's mesh
    /// ([`super::leg_skin::knee_pad`]; world units, the skeleton's); `None`: the fixed pad.
    pub knee_skin: Option<f32>,
}

/// A plain leg's rest for tests: thigh and shin `lengths`, the knee's hinge +X, the foot at rest
/// facing +Z, the ankle `ankle_height` over the floor, no toes bone.
#[cfg(test)]
pub(crate) fn plain_leg_rest(lengths: (f32, f32), ankle_height: f32) -> LegRest {
    LegRest {
        hinge_in_upper: Vec3::X,
        foot_in_root: Quat::IDENTITY,
        ankle_height,
        lengths,
        ankle_in_lower: Vec3::Y * lengths.1,
        toes: None,
        knee_skin: None,
    }
}

/// A leg for tests, straight down from a hip at 0.9 m: upper leg 0.45, lower leg 0.42, the
/// ankle 3 cm over the floor, the bones' own +Y along them turned by `axes` (another rig's
/// bone axes); the tree (hip, knee, ankle) and its bones.
#[cfg(test)]
pub(crate) fn straight_leg(axes: Quat) -> (PoseTree, LegBones) {
    let mut t = PoseTree::new(&[None, Some(0), Some(1)]).expect("a three-bone chain");
    let down = Quat::from_rotation_x(std::f32::consts::PI) * axes;
    t.set_globals(&[
        Pose::new(Vec3::new(0.1, 0.9, 0.0), down),
        Pose::new(Vec3::new(0.1, 0.45, 0.0), down),
        Pose::new(Vec3::new(0.1, 0.03, 0.0), Quat::IDENTITY),
    ]);
    (t, [0, 1, 2])
}

/// A toes bone at rest (its joint is the ball of the foot), in the root's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToesRest {
    /// From the ankle to the ball of the foot (world units).
    pub ball_from_ankle: Vec3,
    /// The ball's height over the floor (world units): the sole's thickness under it.
    pub ball_height: f32,
    /// The toes' rest rotation relative to the root's facing (flat on the floor).
    pub toes_in_root: Quat,
}

/// The knee bend (degrees) where the leg's reach starts easing toward its longest, and the
/// bend it keeps at the longest: a straight knee is where two-bone IK is most sensitive (a
/// hip a millimetre higher swings a nearly straight knee by centimetres), so the knee never
/// quite straightens; standing at rest height the hips sink so it keeps the 10-degree bend and
/// the ankle reaches its target exactly (`LowerBody` caps the hips' height).
pub const KNEE_EASE_START_DEG: f32 = 10.0;
pub const KNEE_MIN_BEND_DEG: f32 = 3.0;

impl LegRest {
    /// How far the ankle is placed from the hip for a target `distance` away: the target's
    /// own distance while the knee bends more than [`KNEE_EASE_START_DEG`], then eased toward
    /// the reach at [`KNEE_MIN_BEND_DEG`].
    pub fn eased_reach(&self, distance: f32) -> f32 {
        let (a, b) = self.lengths;
        crate::arms::soft_ik::ease_reach(
            distance,
            self.exact_reach(),
            crate::arms::soft_ik::min_bend_reach(a, b, KNEE_MIN_BEND_DEG.to_radians()),
        )
    }

    /// The longest hip-to-ankle distance the leg reaches exactly (the knee bent
    /// [`KNEE_EASE_START_DEG`]).
    pub fn exact_reach(&self) -> f32 {
        let (a, b) = self.lengths;
        crate::arms::soft_ik::min_bend_reach(a, b, KNEE_EASE_START_DEG.to_radians())
    }
}

impl LegRest {
    /// Measures a leg of `tree` (at rest) whose root frame is `to_root` (skeleton to root).
    pub fn measure(tree: &mut PoseTree, leg: LegBones, to_root: &Pose) -> Self {
        let [u, l, f] = leg.map(|b| tree.global(b));
        let forward = to_root.rotation.inverse() * Vec3::Z;
        let down = f.position - u.position;
        let hinge = forward
            .cross(down)
            .try_normalize()
            .unwrap_or_else(|| to_root.rotation.inverse() * Vec3::X);
        // A rest knee already bent gives its own hinge (the bend's normal, on the same side).
        let (thigh, shin) = (l.position - u.position, f.position - l.position);
        let bent = thigh.cross(shin);
        let sin = bent.length() / (thigh.length() * shin.length()).max(1e-9);
        let hinge = match bent.try_normalize() {
            Some(b) if sin > 0.05 => b * b.dot(hinge).signum(),
            _ => hinge,
        };
        Self {
            hinge_in_upper: u.rotation.inverse() * hinge,
            foot_in_root: (to_root.rotation * f.rotation).normalize(),
            ankle_height: to_root.transform_point(f.position).y,
            lengths: (thigh.length(), shin.length()),
            ankle_in_lower: l.inverse().transform_point(f.position),
            toes: None,
            knee_skin: None,
        }
    }

    /// The height a knee on the floor holds its joint over it (world units, `scale` world units
    /// per avatar metre): its measured skin, else [`super::kneel::KNEE_PAD_M`].
    pub fn knee_pad(&self, scale: f32) -> f32 {
        super::leg_skin::pad_or_default(self.knee_skin, scale)
    }

    /// This leg's knee skin measured from `vertices` (skeleton space, at rest; `tree` at rest,
    /// `leg` its bones) about its hinge ([`super::leg_skin::knee_pad`]).
    pub fn knee_skin_of(
        &self,
        tree: &mut PoseTree,
        leg: LegBones,
        vertices: &super::leg_skin::LegVertices,
    ) -> Option<f32> {
        let [u, l, f] = leg.map(|b| tree.global(b));
        let hinge = u.rotation * self.hinge_in_upper;
        super::leg_skin::knee_pad(u.position, l.position, f.position, hinge, vertices)
    }

    /// The same leg with its knee's measured skin `pad` (`None`: the fixed pad).
    pub fn with_knee_skin(mut self, pad: Option<f32>) -> Self {
        self.knee_skin = pad;
        self
    }

    /// The same leg with its foot's toes bone `toes` (a child of the foot `foot`) measured
    /// from `tree` at rest; `None` leaves it without.
    pub fn with_toes(
        mut self,
        tree: &mut PoseTree,
        foot: usize,
        toes: Option<usize>,
        to_root: &Pose,
    ) -> Self {
        self.toes = toes.filter(|&t| tree.parent(t) == Some(foot)).map(|t| {
            let (f, t) = (tree.global(foot), tree.global(t));
            let ball = to_root.transform_point(t.position);
            ToesRest {
                ball_from_ankle: ball - to_root.transform_point(f.position),
                ball_height: ball.y,
                toes_in_root: (to_root.rotation * t.rotation).normalize(),
            }
        });
        self
    }
}

/// A leg's hip joint (its upper leg bone, `upper_leg`) in the world, as `tree` (skeleton space,
/// the skeleton at `skeleton`) has it now.
pub(super) fn hip_joint(tree: &mut PoseTree, skeleton: &Pose, upper_leg: usize) -> Vec3 {
    skeleton.transform_point(tree.global(upper_leg).position)
}

/// Where a knee bends for a leg from its hip `hip` to its ankle `ankle` (world), the body facing
/// `facing` (from +Z forward): perpendicular to the leg in the body's upright plane (a thigh
/// turns with the hips; a foot turned from them turns the shin on the bent knee, not the knee),
/// on the side a knee flexes to (up and forward with the ankle ahead, down and forward with it
/// behind). With the ankle out to the side (`outward`: unit, horizontal, toward the body's side
/// the leg is on) it turns
/// out about the leg as far as puts the knee over the ankle seen from the front, to an angle
/// whose sine is `most` at most; and further out, as far as keeps the knee above `knee_floor`
/// (world height), when the ankle is far behind a low hip. (A knee pointed forward and up swung
/// out to the side whenever the ankle was behind and below the hip: a hip lowered over its
/// feet.) A leg straight out to the side bends its knee forward and up.
pub fn knee_forward(
    facing: Quat,
    hip: Vec3,
    ankle: Vec3,
    rest: &LegRest,
    outward: Vec3,
    most: f32,
    knee_floor: f32,
) -> Vec3 {
    let hip_to_ankle = ankle - hip;
    // The knee's hinge is the foot's right (+X is the left, +Z forward, +Y up): a leg straight
    // down bends forward about it.
    let Some(upright) = (facing * Vec3::NEG_X).cross(hip_to_ankle).try_normalize() else {
        return facing * Vec3::new(0.0, 1.0, 1.0);
    };
    let d = hip_to_ankle.length();
    let dir = hip_to_ankle / d;
    let mut across = dir.cross(upright);
    if across.dot(outward) < 0.0 {
        across = -across;
    }
    // The knee's place along the leg and out from it (law of cosines), and how far the ankle
    // stands out beyond where the knee would be.
    let (a, b) = rest.lengths;
    let d = d.clamp((a - b).abs() + 1e-6, a + b);
    let along = (a * a + d * d - b * b) / (2.0 * d);
    let off = (a * a - along * along).max(0.0).sqrt();
    let beyond = (d - along) * dir.dot(outward);
    let reach = off * across.dot(outward);
    let mut turn = if beyond > 0.0 && reach > 1e-6 {
        (beyond / reach).min(most.clamp(0.0, 1.0)).asin()
    } else {
        0.0
    };
    let knee_y =
        |turn: f32| hip.y + along * dir.y + off * (turn.cos() * upright.y + turn.sin() * across.y);
    if knee_y(turn) < knee_floor {
        // Out as far as clears the floor (the knee's height grows with the turn out to a
        // quarter turn when the leg slopes down), or a quarter turn.
        let below = |turn: f32| knee_y(turn) < knee_floor;
        let quarter = std::f32::consts::FRAC_PI_2;
        turn = if below(quarter) {
            quarter
        } else {
            crate::maths::smoothing::bisect(turn, quarter, 16, below).1
        };
    }
    upright * turn.cos() + across * turn.sin()
}

/// The most a knee turns out about its leg to stand over a wide ankle (degrees).
pub const KNEE_OUT_MAX_DEG: f32 = 30.0;

/// `ankle` (world) moved out along the floor, its height kept, as far as the leg folded
/// fully still reaches it from `hip`: a hip come down nearly to its ankle (the hips on the
/// floor) with a thigh and shin of different lengths would otherwise push the ankle away
/// along the leg, down through the floor. Out the way it already stands from the hip, or
/// `forward` when it stands right under it.
pub fn beyond_folded_reach(hip: Vec3, ankle: Vec3, rest: &LegRest, forward: Vec3) -> Vec3 {
    let (a, b) = rest.lengths;
    let least = (a - b).abs() * FOLDED_MARGIN;
    let d = ankle - hip;
    // Far enough (or not a number: left to the solve's own guards).
    if d.length() >= least || !d.is_finite() {
        return ankle;
    }
    let out = (least * least - d.y * d.y).max(0.0).sqrt();
    let along = Vec3::new(d.x, 0.0, d.z)
        .try_normalize()
        .unwrap_or(Vec3::new(forward.x, 0.0, forward.z).normalize_or_zero());
    Vec3::new(hip.x, ankle.y, hip.z) + along * out
}

/// How much further than the fully folded leg's reach a pushed-out ankle goes (its knee then
/// still bends in the solve's plane).
const FOLDED_MARGIN: f32 = 1.02;

/// Solves `leg` of `tree` so its ankle reaches `ankle` (skeleton space) with the knee toward
/// `knee_forward` (a direction, skeleton space), then turns the foot to `foot` (its global
/// rotation, skeleton space). Returns how far the ankle is from its target after the solve.
pub fn solve_leg(
    tree: &mut PoseTree,
    leg: LegBones,
    rest: &LegRest,
    ankle: Vec3,
    knee_forward: Vec3,
    foot: Quat,
) -> f32 {
    let [ui, li, fi] = leg;
    let (u, l) = (tree.global(ui), tree.global(li));
    // The ankle where the shin carries it: the foot bone itself when it hangs from the shin
    // (as this frame's animation placed it), else its rest place on the shin (a foot bone
    // hanging from elsewhere stays behind when the body moves).
    let carried = tree.parent(fi) == Some(li);
    let pose = LimbPose {
        shoulder: u.position,
        elbow: l.position,
        wrist: if carried {
            tree.global(fi).position
        } else {
            l.transform_point(rest.ankle_in_lower)
        },
        hinge: u.rotation * rest.hinge_in_upper,
    };
    let reach = rest.eased_reach(ankle.distance(u.position));
    let ik = solve_two_bone_with_reach(
        &pose,
        &TwoBoneGoal {
            target: ankle,
            pole: knee_forward,
        },
        Some(reach),
    );
    let upper = (ik.upper_delta * u.rotation).normalize();
    let lower = (ik.lower_delta * ik.upper_delta * l.rotation).normalize();
    tree.set_global(ui, Pose::new(u.position, upper));
    let l_now = tree.global(li);
    let shin = Pose::new(l_now.position, lower);
    tree.set_global(li, shin);
    let at = if carried {
        tree.global(fi).position
    } else {
        shin.transform_point(rest.ankle_in_lower)
    };
    tree.set_global(fi, Pose::new(at, foot));
    tree.global(fi).position.distance(ankle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lowered_hip_bends_the_knee_forward_and_the_ankle_stays_on_its_target() {
        for axes in [
            Quat::IDENTITY,
            Quat::from_rotation_y(1.3),
            Quat::from_rotation_z(0.2),
        ] {
            let (mut t, bones) = straight_leg(axes);
            let rest = LegRest::measure(&mut t, bones, &Pose::IDENTITY);
            assert!((rest.ankle_height - 0.03).abs() < 1e-6);
            // The hip drops 30 cm: the ankle must stay on the floor where it was.
            let hip = t.global(0);
            t.set_global(0, Pose::new(hip.position - Vec3::Y * 0.3, hip.rotation));
            let ankle = Vec3::new(0.1, 0.03, 0.0);
            let off = solve_leg(&mut t, bones, &rest, ankle, Vec3::Z, Quat::IDENTITY);
            assert!(off < 1e-4, "{axes:?}: ankle {off} off");
            let knee = t.global(1).position;
            assert!(knee.z > 0.2, "{axes:?}: the knee bends forward: {knee}");
            assert!((knee.distance(t.global(0).position) - 0.45).abs() < 1e-4);
            assert!(t.global(2).rotation.angle_between(Quat::IDENTITY) < 1e-5);
        }
    }

    /// A game rig whose foot bone hangs from the root, not from the shin (its feet were IK
    /// targets): the leg is solved as if the foot were the shin's child, and the foot bone is
    /// put where the shin ends, on its target. Solved from the foot bone's own place instead,
    /// the shin ends 30 cm off it.
    #[test]
    fn a_foot_hanging_from_the_root_is_put_where_the_shin_ends() {
        let mut t = PoseTree::new(&[None, Some(0), None]).unwrap();
        let down = Quat::from_rotation_x(std::f32::consts::PI);
        t.set_globals(&[
            Pose::new(Vec3::new(0.1, 0.9, 0.0), down),
            Pose::new(Vec3::new(0.1, 0.45, 0.0), down),
            Pose::new(Vec3::new(0.1, 0.03, 0.0), Quat::IDENTITY),
        ]);
        let bones = [0, 1, 2];
        let rest = LegRest::measure(&mut t, bones, &Pose::IDENTITY);
        // The hips drop 30 cm, carrying the thigh and shin; the foot bone stays where it was.
        let hip = t.global(0);
        t.set_global(0, Pose::new(hip.position - Vec3::Y * 0.3, hip.rotation));
        let ankle = Vec3::new(0.1, 0.03, 0.1);
        let off = solve_leg(&mut t, bones, &rest, ankle, Vec3::Z, Quat::IDENTITY);
        assert!(off < 1e-4, "the foot {off} off its target");
        let shin_end = t.global(1).transform_point(rest.ankle_in_lower);
        assert!(
            shin_end.distance(t.global(2).position) < 1e-4,
            "the shin ends at {shin_end}, the foot is at {}",
            t.global(2).position
        );
        assert!((shin_end.distance(t.global(1).position) - 0.42).abs() < 1e-4);
    }

    #[test]
    fn an_ankle_out_of_reach_straightens_the_leg_toward_it() {
        let (mut t, bones) = straight_leg(Quat::IDENTITY);
        let rest = LegRest::measure(&mut t, bones, &Pose::IDENTITY);
        let off = solve_leg(
            &mut t,
            bones,
            &rest,
            Vec3::new(0.1, -0.5, 0.3),
            Vec3::Z,
            Quat::IDENTITY,
        );
        assert!(off > 0.4);
        let dir = (t.global(2).position - t.global(0).position).normalize();
        let want = (Vec3::new(0.1, -0.5, 0.3) - Vec3::new(0.1, 0.9, 0.0)).normalize();
        assert!(dir.distance(want) < 1e-3);
    }

    /// Standing, where a straight knee would swing centimetres for a hip moved a tenth of a
    /// millimetre (the two-bone solve's sensitivity at full extension), the eased reach keeps
    /// the knee within a millimetre.
    #[test]
    fn a_standing_knee_does_not_swing_when_the_hip_moves_a_tenth_of_a_millimetre() {
        let (rest_tree, bones) = straight_leg(Quat::IDENTITY);
        let rest = LegRest::measure(&mut rest_tree.clone(), bones, &Pose::IDENTITY);
        let knee_with_hip_at = |y: f32| {
            let mut t = rest_tree.clone();
            let hip = t.global(0);
            t.set_global(0, Pose::new(Vec3::new(0.1, y, 0.0), hip.rotation));
            let ankle = Vec3::new(0.1, 0.03, 0.0);
            solve_leg(&mut t, bones, &rest, ankle, Vec3::Z, Quat::IDENTITY);
            t.global(1).position
        };
        let swing = knee_with_hip_at(0.9).distance(knee_with_hip_at(0.8999));
        assert!(swing < 0.001, "the knee moved {swing} m");
    }

    /// A straight rest leg, away from the skeleton's origin, under a root turned 0.4 rad: the
    /// knee's hinge is the root's sideways axis (across its forward and the leg), the ankle's
    /// height is over the root, and the foot's turn is the root's and the foot bone's together.
    #[test]
    fn a_straight_rest_leg_hinges_across_the_roots_forward() {
        let mut t = PoseTree::new(&[None, Some(0), Some(1)]).unwrap();
        t.set_globals(&[
            Pose::new(Vec3::new(0.5, 0.9, 0.0), Quat::IDENTITY),
            Pose::new(Vec3::new(0.5, 0.45, 0.0), Quat::IDENTITY),
            Pose::new(Vec3::new(0.5, 0.03, 0.0), Quat::from_rotation_y(0.3)),
        ]);
        let to_root = Pose::new(Vec3::new(0.0, 0.1, 0.0), Quat::from_rotation_y(0.4));
        let rest = LegRest::measure(&mut t, [0, 1, 2], &to_root);
        let sideways = Quat::from_rotation_y(-0.4) * Vec3::X;
        assert!(
            rest.hinge_in_upper.distance(sideways) < 1e-4,
            "{}",
            rest.hinge_in_upper
        );
        assert!((rest.ankle_height - 0.13).abs() < 1e-5);
        assert!(rest.foot_in_root.angle_between(Quat::from_rotation_y(0.7)) < 1e-4);
        assert!((rest.lengths.0 - 0.45).abs() < 1e-5 && (rest.lengths.1 - 0.42).abs() < 1e-5);
    }

    /// A rest knee already bent, pointing 30 degrees outward: the hinge is its own bend's, not
    /// the one across the root's forward (the knee then bends the way the rig's knee points).
    #[test]
    fn a_bent_rest_knee_gives_the_hinge_of_its_own_bend() {
        let out = 30f32.to_radians();
        let knee = Vec3::new(0.0, 0.45, 0.0) + Quat::from_rotation_y(out) * Vec3::Z * 0.1;
        let mut t = PoseTree::new(&[None, Some(0), Some(1)]).unwrap();
        t.set_globals(&[
            Pose::new(Vec3::new(0.0, 0.9, 0.0), Quat::IDENTITY),
            Pose::new(knee, Quat::IDENTITY),
            Pose::new(Vec3::new(0.0, 0.03, 0.0), Quat::IDENTITY),
        ]);
        let rest = LegRest::measure(&mut t, [0, 1, 2], &Pose::IDENTITY);
        let hinge = Quat::from_rotation_y(out) * Vec3::X;
        assert!(
            rest.hinge_in_upper.distance(hinge) < 1e-3,
            "{}",
            rest.hinge_in_upper
        );
    }

    /// The leg of [`leg`] (a left leg, its outside +X) with the hip lowered to `hip_y`, solved
    /// to `ankle` with its knee toward [`knee_forward`] (`most`: how far out it may turn).
    fn knee_of(hip_y: f32, ankle: Vec3, most: f32) -> (Vec3, f32) {
        let (mut t, bones) = straight_leg(Quat::IDENTITY);
        let rest = LegRest::measure(&mut t, bones, &Pose::IDENTITY);
        let hip = t.global(0);
        t.set_global(0, Pose::new(Vec3::new(0.1, hip_y, 0.0), hip.rotation));
        let pole = knee_forward(
            Quat::IDENTITY,
            t.global(0).position,
            ankle,
            &rest,
            Vec3::X,
            most,
            f32::NEG_INFINITY,
        );
        let off = solve_leg(&mut t, bones, &rest, ankle, pole, Quat::IDENTITY);
        (t.global(1).position, off)
    }

    /// A hip lowered nearly to its ankle, the ankle behind it and 3 cm out (a body sunk over
    /// feet left behind): the knee bends forward and down over the line from the hip to the
    /// ankle, not out to the side (aimed forward and up, nearly opposite the leg, it went 18 cm
    /// out on KayKit's mannequin).
    #[test]
    fn a_knee_over_an_ankle_behind_and_below_the_hip_bends_forward_not_sideways() {
        let ankle = Vec3::new(0.13, 0.03, -0.15);
        let (knee, off) = knee_of(0.2, ankle, 0.0);
        assert!(off < 1e-4, "the ankle {off} off");
        assert!(
            (knee.x - 0.115).abs() < 0.02,
            "the knee {:.3} m to the side of the leg",
            knee.x - 0.115
        );
        assert!(knee.z > 0.1, "the knee bends forward: {knee}");
    }

    /// A lowered body's wide ankle (9 cm out from the hip, ahead and below): allowed to turn
    /// out, the knee stands over the ankle seen from the front; not allowed, it stays in the
    /// foot's upright plane, between the hip and the ankle.
    #[test]
    fn a_lowered_knee_goes_out_over_a_wide_ankle() {
        let ankle = Vec3::new(0.19, 0.03, 0.2);
        let (out, off) = knee_of(0.35, ankle, KNEE_OUT_MAX_DEG.to_radians().sin());
        assert!(off < 1e-4, "the ankle {off} off");
        assert!((out.x - ankle.x).abs() < 0.01, "the knee at x {}", out.x);
        let (upright, _) = knee_of(0.35, ankle, 0.0);
        assert!(
            upright.x > 0.1 && upright.x < ankle.x - 0.03,
            "the knee at x {}",
            upright.x
        );
        assert!(out.z > 0.25 && upright.z > 0.25, "{out} {upright}");
    }

    /// A short thigh over a long shin (KayKit's: 20 and 27 cm), the hip come down to 4 cm over
    /// its ankle's place (the hips on the floor): the leg folded fully cannot come that close,
    /// so the ankle goes out along the floor, at its height; solved to the place itself, the
    /// leg pushed the ankle 2.8 cm down through the floor.
    #[test]
    fn a_hip_down_at_its_ankle_moves_the_ankle_out_along_the_floor_not_down() {
        let mut t = PoseTree::new(&[None, Some(0), Some(1)]).unwrap();
        let down = Quat::from_rotation_x(std::f32::consts::PI);
        t.set_globals(&[
            Pose::new(Vec3::new(0.2, 0.5, 0.0), down),
            Pose::new(Vec3::new(0.2, 0.3, 0.0), down),
            Pose::new(Vec3::new(0.2, 0.03, 0.0), Quat::IDENTITY),
        ]);
        let rest = LegRest::measure(&mut t, [0, 1, 2], &Pose::IDENTITY);
        let hip = Vec3::new(0.2, 0.07, 0.0);
        let place = Vec3::new(0.2, 0.03, 0.01);
        let solved = |ankle: Vec3| {
            let mut t = t.clone();
            let h = t.global(0);
            t.set_global(0, Pose::new(hip, h.rotation));
            solve_leg(&mut t, [0, 1, 2], &rest, ankle, Vec3::Z, Quat::IDENTITY);
            t.global(2).position
        };
        let out = solved(beyond_folded_reach(hip, place, &rest, Vec3::Z));
        assert!((out.y - 0.03).abs() < 1e-3, "the ankle at {}", out.y);
        assert!(out.z > 0.05, "out along the floor, ahead: {out}");
        let pushed = solved(place);
        assert!(pushed.y < 0.02, "solved to the place itself: {}", pushed.y);
    }
}
