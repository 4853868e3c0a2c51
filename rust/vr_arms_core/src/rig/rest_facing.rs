//! Which way a character stands and faces in its rest pose, whatever the axes it was made with
//! (a Z-up Mixamo `Armature`, a VRM 0.x character facing -Z), and the turn that stands it up
//! facing +Z, Godot's humanoid convention, which the body follow and every body-space stage use.

use glam::{Mat3, Quat, Vec3};

use crate::maths::finite::direction;

/// The rest positions the facing is measured from, in one space (any scale).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RestBody {
    pub left_shoulder: Vec3,
    pub right_shoulder: Vec3,
    /// The hips, or the pelvis.
    pub hips: Option<Vec3>,
    /// The head (or the neck).
    pub head: Option<Vec3>,
}

/// A character's up and forward at rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RestFacing {
    pub up: Vec3,
    pub forward: Vec3,
}

impl RestBody {
    /// Up runs from the hips to the head (the shoulders' midpoint without a head), across the
    /// shoulders; forward is `(left - right) x up`. `fallback_up` stands in without hips.
    pub fn facing(&self, fallback_up: Vec3) -> RestFacing {
        let across = direction(self.left_shoulder - self.right_shoulder).unwrap_or(Vec3::X);
        let top = self
            .head
            .unwrap_or((self.left_shoulder + self.right_shoulder) * 0.5);
        let raw_up = self
            .hips
            .and_then(|h| direction(top - h))
            .or_else(|| direction(fallback_up))
            .unwrap_or(Vec3::Y);
        let up = direction(raw_up - across * raw_up.dot(across))
            .unwrap_or_else(|| across.any_orthonormal_vector());
        let forward = direction(across.cross(up)).unwrap_or(Vec3::Z);
        RestFacing { up, forward }
    }
}

impl RestFacing {
    /// The turn that stands this character up (+Y) facing +Z: `turn * up = +Y`,
    /// `turn * forward = +Z`.
    pub fn upright_turn(&self) -> Quat {
        let left = self.up.cross(self.forward);
        // The rotation whose columns are the character's left, up and forward maps +X, +Y, +Z
        // onto them; its inverse stands the character up.
        Quat::from_mat3(&Mat3::from_cols(left, self.up, self.forward))
            .normalize()
            .inverse()
    }

    /// [`upright_turn`](Self::upright_turn) to the nearest quarter turns: the turn an import
    /// made (a Z-up skeleton, a character facing -Z) is always one of the 24 rotations of a
    /// cube, while a rest pose's own small lean (a head ahead of the hips, one shoulder lower)
    /// is the character's and stays. Identity for a character already standing facing +Z.
    pub fn quarter_turn(&self) -> Quat {
        let turn = self.upright_turn();
        let snap = |v: Vec3| {
            let a = v.abs();
            if a.x >= a.y && a.x >= a.z {
                Vec3::X * v.x.signum()
            } else if a.y >= a.z {
                Vec3::Y * v.y.signum()
            } else {
                Vec3::Z * v.z.signum()
            }
        };
        // The turned up and forward, each to its nearest axis; forward kept off up's axis.
        let up = snap(turn * Vec3::Y);
        let mut forward = turn * Vec3::Z;
        forward -= up * forward.dot(up);
        let forward = snap(forward);
        let left = up.cross(forward);
        Quat::from_mat3(&Mat3::from_cols(left, up, forward)).normalize()
    }
}

/// The yaw (about +Y, radians, 0 along +Z) of a node whose basis has the X and Z axes `x` and
/// `z`: read from whichever of them lies flatter (a node turned a quarter turn about X has its
/// Z axis upright, with no yaw to read from it). 0 when neither gives one.
pub fn basis_yaw(x: Vec3, z: Vec3) -> f32 {
    let flat = |v: Vec3| Vec3::new(v.x, 0.0, v.z).length() / v.length().max(1e-12);
    let yaw = if flat(z) >= flat(x) {
        z.x.atan2(z.z)
    } else {
        (-x.z).atan2(x.x)
    };
    if yaw.is_finite() { yaw } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t_pose() -> RestBody {
        RestBody {
            left_shoulder: Vec3::new(0.18, 1.45, 0.0),
            right_shoulder: Vec3::new(-0.18, 1.45, 0.0),
            hips: Some(Vec3::new(0.0, 0.95, 0.0)),
            head: Some(Vec3::new(0.0, 1.6, 0.0)),
        }
    }

    fn turned(b: &RestBody, q: Quat, scale: f32) -> RestBody {
        RestBody {
            left_shoulder: q * b.left_shoulder * scale,
            right_shoulder: q * b.right_shoulder * scale,
            hips: b.hips.map(|v| q * v * scale),
            head: b.head.map(|v| q * v * scale),
        }
    }

    #[test]
    fn an_upright_character_facing_z_needs_no_turn() {
        let f = t_pose().facing(Vec3::Y);
        assert!(f.forward.distance(Vec3::Z) < 1e-5);
        assert!(f.quarter_turn().angle_between(Quat::IDENTITY) < 1e-6);
    }

    #[test]
    fn a_vrm0_character_facing_minus_z_turns_half_round() {
        let b = turned(&t_pose(), Quat::from_rotation_y(std::f32::consts::PI), 1.0);
        let f = b.facing(Vec3::Y);
        assert!(f.forward.distance(Vec3::NEG_Z) < 1e-5);
        let turn = f.quarter_turn();
        assert!((turn.angle_between(Quat::IDENTITY) - std::f32::consts::PI).abs() < 1e-5);
        assert!(
            (turn * (b.left_shoulder - b.right_shoulder))
                .normalize()
                .distance(Vec3::X)
                < 1e-5
        );
        assert!((turn * b.head.unwrap()).y > 1.5);
    }

    #[test]
    fn a_z_up_centimetre_skeleton_stands_up() {
        // Mixamo in Blender's axes: Z up, facing -Y, in centimetres.
        let q = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
        let b = turned(&t_pose(), q, 100.0);
        let f = b.facing(Vec3::Y);
        assert!(f.up.distance(Vec3::Z) < 1e-3, "{:?}", f.up);
        let turn = f.quarter_turn();
        assert!(turn.angle_between(q.inverse()) < 1e-5);
        let head = turn * b.head.unwrap();
        assert!((head - Vec3::new(0.0, 160.0, 0.0)).length() < 0.1, "{head}");
    }

    #[test]
    fn a_rest_pose_s_own_lean_stays_and_an_import_turn_under_it_is_undone() {
        // Head 8 cm ahead of the hips, the right shoulder 1.2 cm low: no turn at all.
        let mut b = t_pose();
        b.head = Some(Vec3::new(0.0, 1.6, 0.08));
        b.right_shoulder.y -= 0.012;
        let f = b.facing(Vec3::Y);
        assert!(
            f.upright_turn().angle_between(Quat::IDENTITY) > 0.05,
            "it does lean"
        );
        assert!(f.quarter_turn().angle_between(Quat::IDENTITY) < 1e-6);
        // The same pose lying in a Z-up skeleton and facing away: only the import's turn.
        let import = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)
            * Quat::from_rotation_y(std::f32::consts::PI);
        let lying = turned(&b, import, 100.0).facing(Vec3::Y);
        assert!(lying.quarter_turn().angle_between(import.inverse()) < 1e-5);
    }

    #[test]
    fn without_a_head_up_runs_to_the_shoulders_midpoint_across_the_shoulders() {
        // Shoulders 10 cm ahead of the hips and off to the left, the right one 10 cm lower.
        let b = RestBody {
            left_shoulder: Vec3::new(0.38, 1.5, 0.1),
            right_shoulder: Vec3::new(0.02, 1.4, 0.1),
            hips: Some(Vec3::new(0.2, 0.95, 0.0)),
            head: None,
        };
        let f = b.facing(Vec3::Y);
        let across = (b.left_shoulder - b.right_shoulder).normalize();
        let raw = (Vec3::new(0.2, 1.45, 0.1) - Vec3::new(0.2, 0.95, 0.0)).normalize();
        let want = (raw - across * raw.dot(across)).normalize();
        assert!(f.up.distance(want) < 1e-5, "{} vs {want}", f.up);
        assert!(f.up.dot(across).abs() < 1e-5, "up is across the shoulders");
        assert!(f.forward.distance(across.cross(want)) < 1e-5);
    }

    #[test]
    fn every_quarter_turn_of_an_import_is_undone_exactly() {
        // The 24 ways an import can turn a character: up onto each axis, forward onto each
        // axis across it.
        let axes = [
            Vec3::X,
            Vec3::NEG_X,
            Vec3::Y,
            Vec3::NEG_Y,
            Vec3::Z,
            Vec3::NEG_Z,
        ];
        let mut count = 0;
        for up in axes {
            for forward in axes.into_iter().filter(|f| f.dot(up) == 0.0) {
                let q = Quat::from_mat3(&Mat3::from_cols(up.cross(forward), up, forward));
                let turn = turned(&t_pose(), q, 1.0).facing(Vec3::Y).quarter_turn();
                assert!(
                    (turn * up).distance(Vec3::Y) < 1e-5
                        && (turn * forward).distance(Vec3::Z) < 1e-5,
                    "up {up}, forward {forward}: {turn:?}"
                );
                count += 1;
            }
        }
        assert_eq!(count, 24);
    }

    #[test]
    fn a_deep_rest_lean_keeps_forward_off_the_up_axis() {
        // Leaning 40 degrees forward at rest (a crouching character): still no turn.
        let lean = Quat::from_rotation_x(40f32.to_radians());
        let f = turned(&t_pose(), lean, 1.0).facing(Vec3::Y);
        assert!(f.quarter_turn().angle_between(Quat::IDENTITY) < 1e-5);
    }

    #[test]
    fn a_nodes_yaw_is_read_from_its_flatter_axis() {
        for yaw in [0.0f32, 0.7, -2.5] {
            let turn = Quat::from_rotation_y(yaw);
            assert!((basis_yaw(turn * Vec3::X, turn * Vec3::Z) - yaw).abs() < 1e-5);
            // Also turned a quarter turn about X (Z upright): from X. Scaled: the same.
            let lying = turn * Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
            let got = basis_yaw(lying * Vec3::X * 0.01, lying * Vec3::Z * 0.01);
            assert!((got - yaw).abs() < 1e-4, "{yaw}: {got}");
        }
        assert_eq!(basis_yaw(Vec3::NAN, Vec3::NAN), 0.0);
    }

    #[test]
    fn without_hips_the_fallback_up_is_used_and_degenerate_input_stays_finite() {
        let mut b = t_pose();
        b.hips = None;
        assert!(b.facing(Vec3::Y).forward.distance(Vec3::Z) < 1e-5);
        let bad = RestBody {
            left_shoulder: Vec3::NAN,
            right_shoulder: Vec3::ZERO,
            hips: Some(Vec3::INFINITY),
            head: None,
        };
        let f = bad.facing(Vec3::ZERO);
        assert!(f.up.is_finite() && f.forward.is_finite());
        assert!(f.upright_turn().is_finite());
        assert!(f.quarter_turn().is_finite() && f.quarter_turn().is_normalized());
    }
}
