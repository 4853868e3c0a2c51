//! Analytic two-bone IK: shoulder -> elbow -> wrist, with a pole (elbow hint) direction.
//!
//! Shape after ozz-animation's `IKTwoBoneJob`: explicit inputs ([`LimbPose`], [`TwoBoneGoal`]),
//! explicit output ([`TwoBoneSolution`]), no hidden state. All positions and directions are in one
//! space of the caller's choice (the skeleton's space in the Godot glue), in metres.
//!
//! Unlike a shortest-arc solve, the upper arm's twist is chosen so that the elbow's hinge axis is
//! the normal of the new bend plane: the forearm then only flexes about its hinge (no ball-joint
//! elbow), and no rotation is ever computed between antiparallel vectors, so there is no flip when
//! the target crosses the rest pose's antipode.

use glam::{Mat3A, Quat, Vec3, Vec3A};

use crate::maths::finite::vec3_or;

/// Bones shorter than this (metres) are treated as zero length.
const MIN_BONE: f32 = 1e-5;

/// Current pose of one two-bone limb, before the solve: an arm (shoulder, elbow, wrist) or a
/// leg (hip, knee, ankle), named as the arm's joints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimbPose {
    /// The limb's root joint: the upper arm's (shoulder) or the thigh's (hip) (metres).
    pub shoulder: Vec3,
    /// The middle joint: the elbow or the knee (metres).
    pub elbow: Vec3,
    /// The end joint: the wrist or the ankle (metres).
    pub wrist: Vec3,
    /// The elbow's hinge axis as it is now: flexing the forearm is a positive rotation about it,
    /// turning the forearm direction toward the inside of the bend. Need not be unit length.
    pub hinge: Vec3,
}

/// Where the arm should go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoBoneGoal {
    /// Desired wrist position (metres).
    pub target: Vec3,
    /// Direction the elbow should bend toward (the pole, or `hint - shoulder`). Only its part
    /// perpendicular to the shoulder->target axis matters; need not be unit length.
    pub pole: Vec3,
}

/// Result of [`solve_two_bone`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoBoneSolution {
    /// Rotation to pre-multiply onto the upper arm's rotation (same space as the input):
    /// `new_upper = upper_delta * old_upper`. Unit to within about 1e-5 (it is not normalised
    /// again): normalise what you compose from it, as [`solve_arm`](crate::arms::arm_solve::solve_arm)
    /// does.
    pub upper_delta: Quat,
    /// Rotation to pre-multiply onto the lower arm's rotation after `upper_delta`:
    /// `new_lower = lower_delta * upper_delta * old_lower`. Unit to within about 1e-5, as
    /// `upper_delta`.
    pub lower_delta: Quat,
    /// Solved elbow position (metres).
    pub elbow: Vec3,
    /// Solved wrist position (metres).
    pub wrist: Vec3,
    /// Unit hinge axis after the solve.
    pub hinge: Vec3,
    /// Unit direction from the shoulder-target axis toward the elbow (the resolved pole).
    pub bend_direction: Vec3,
    /// Whether the target was within the chain's reach (`|upper - lower| ..= upper + lower`).
    pub reached: bool,
}

/// Solves one arm. Total: degenerate input (target at the shoulder, pole along the arm,
/// zero-length bones, non-finite values) gives a finite, sensible answer.
pub fn solve_two_bone(pose: &LimbPose, goal: &TwoBoneGoal) -> TwoBoneSolution {
    solve_two_bone_with_reach(pose, goal, None)
}

/// As [`solve_two_bone`], but the wrist is placed at `reach` metres from the shoulder along the
/// shoulder->target direction instead of at the target's own distance (used by soft IK, which
/// eases the effective distance near full extension). `None` uses the target's distance.
pub fn solve_two_bone_with_reach(
    pose: &LimbPose,
    goal: &TwoBoneGoal,
    reach: Option<f32>,
) -> TwoBoneSolution {
    // The arithmetic runs on glam's SIMD vectors (`Vec3A`); inputs and outputs stay `Vec3`.
    let shoulder = vec3_or(pose.shoulder, Vec3::ZERO);
    let elbow = vec3_or(pose.elbow, shoulder);
    let wrist = vec3_or(pose.wrist, elbow);
    let target = Vec3A::from(vec3_or(goal.target, wrist));
    let (shoulder, elbow, wrist) = (
        Vec3A::from(shoulder),
        Vec3A::from(elbow),
        Vec3A::from(wrist),
    );

    let upper = elbow - shoulder;
    let lower = wrist - elbow;
    let upper_len = upper.length();
    let lower_len = lower.length();
    let upper_dir = unit(upper, upper_len);
    let lower_dir = unit(lower, lower_len);
    let hinge_old = rest_hinge(vec3_or(pose.hinge, Vec3::ZERO).into(), upper_dir, lower_dir);

    // Direction to the target; a target at the shoulder keeps the arm's current heading.
    let to_target = target - shoulder;
    let target_dist = to_target.length();
    let dir = unit(to_target, target_dist)
        .or_else(|| direction_a(wrist - shoulder))
        .or(upper_dir)
        .unwrap_or(Vec3A::NEG_Y);

    // The pole, perpendicular to the shoulder->target axis. Fallbacks keep the current bend.
    let pole = Vec3A::from(vec3_or(goal.pole, Vec3::ZERO));
    let bend = direction_a(pole - dir * pole.dot(dir))
        .or_else(|| direction_a(upper - dir * upper.dot(dir)))
        .or_else(|| direction_a(dir.cross(hinge_old)))
        .unwrap_or_else(|| dir.any_orthonormal_vector());
    // Unit already: `bend` and `dir` are perpendicular unit vectors.
    let hinge_new = bend.cross(dir);

    let min_reach = (upper_len - lower_len).abs();
    let max_reach = upper_len + lower_len;
    let reached = target_dist >= min_reach - 1e-6 && target_dist <= max_reach + 1e-6;
    let wanted = match reach {
        Some(r) if r.is_finite() => r,
        _ => target_dist,
    };
    let dist = wanted.clamp(min_reach, max_reach);

    // Law of cosines at the shoulder.
    let triangle = upper_len > MIN_BONE && dist > MIN_BONE;
    let cos_shoulder = if triangle {
        ((upper_len * upper_len + dist * dist - lower_len * lower_len) / (2.0 * upper_len * dist))
            .clamp(-1.0, 1.0)
    } else {
        1.0
    };
    let sin_shoulder = (1.0 - cos_shoulder * cos_shoulder).max(0.0).sqrt();
    // Unit: `dir` and `bend` are perpendicular unit vectors.
    let new_upper_dir = dir * cos_shoulder + bend * sin_shoulder;
    let new_elbow = shoulder + upper_len * new_upper_dir;
    let new_wrist = shoulder + dir * dist;

    // Each bone turns from its old frame (direction, old hinge) to its new one (direction, new
    // hinge). The forearm's total turn is worked out from its own old frame, so the lower delta
    // is that total after the upper delta is undone.
    let upper_delta = match upper_dir {
        // `hinge_old` is perpendicular to the upper arm already (see `rest_hinge`), and
        // `hinge_new` to the new upper arm, which lies in the bend plane.
        Some(old) => turn(old, hinge_old, new_upper_dir, hinge_new),
        None => Quat::IDENTITY,
    };
    let lower_delta = match lower_dir {
        Some(old) => {
            let new = if triangle && lower_len > MIN_BONE {
                // The law of cosines made this side exactly `lower_len` long.
                (new_wrist - new_elbow) * lower_len.recip()
            } else {
                direction_a(new_wrist - new_elbow).unwrap_or(upper_delta * old)
            };
            let across = perpendicular(hinge_old, old);
            let total = turn(old, across, new, perpendicular(hinge_new, new));
            total * upper_delta.conjugate()
        }
        None => Quat::IDENTITY,
    };

    TwoBoneSolution {
        upper_delta,
        lower_delta,
        elbow: new_elbow.into(),
        wrist: new_wrist.into(),
        hinge: hinge_new.into(),
        bend_direction: bend.into(),
        reached,
    }
}

/// `v / len` as a direction when `len` (the length of `v`) is usable, as
/// [`direction`](crate::maths::finite::direction).
#[inline]
fn unit(v: Vec3A, len: f32) -> Option<Vec3A> {
    if len.is_finite() && len > 1e-9 {
        Some(v * len.recip())
    } else {
        None
    }
}

/// `secondary` made perpendicular to the unit `primary` (unit), kept as it is when it is already
/// (the usual case, which needs no square root); any perpendicular when they are parallel.
#[inline]
fn perpendicular(secondary: Vec3A, primary: Vec3A) -> Vec3A {
    if is_unit_across(secondary, primary) {
        return secondary;
    }
    direction_a(secondary - primary * secondary.dot(primary))
        .unwrap_or_else(|| primary.any_orthonormal_vector())
}

/// The rotation that carries the orthonormal frame (`from_x`, `from_y`, `from_x x from_y`) onto
/// (`to_x`, `to_y`, `to_x x to_y`): both pairs unit and perpendicular. One matrix product and
/// one matrix-to-quaternion conversion, instead of a quaternion per frame.
#[inline]
fn turn(from_x: Vec3A, from_y: Vec3A, to_x: Vec3A, to_y: Vec3A) -> Quat {
    let from = Mat3A::from_cols(from_x, from_y, from_x.cross(from_y));
    let to = Mat3A::from_cols(to_x, to_y, to_x.cross(to_y));
    Quat::from_mat3a(&(to * from.transpose()))
}

/// Whether `v` is unit and perpendicular to the unit `axis` already (within 1e-6).
#[inline]
fn is_unit_across(v: Vec3A, axis: Vec3A) -> bool {
    v.dot(axis).abs() <= 1e-6 && (v.length_squared() - 1.0).abs() <= 1e-6
}

/// [`direction`](crate::maths::finite::direction) for glam's SIMD vector.
#[inline]
fn direction_a(v: Vec3A) -> Option<Vec3A> {
    unit(v, v.length())
}

/// The hinge axis to use for the current pose: the given one if it is usable (kept as it is when
/// it is unit and perpendicular to the upper arm already, as the rig's is), else the bend of the
/// current pose, else any axis perpendicular to the upper arm.
fn rest_hinge(hinge: Vec3A, upper_dir: Option<Vec3A>, lower_dir: Option<Vec3A>) -> Vec3A {
    let axis = upper_dir.or(lower_dir).unwrap_or(Vec3A::NEG_Y);
    if is_unit_across(hinge, axis) {
        return hinge;
    }
    direction_a(hinge - axis * hinge.dot(axis))
        .or_else(|| match (upper_dir, lower_dir) {
            (Some(u), Some(l)) => direction_a(u.cross(l)),
            _ => None,
        })
        .unwrap_or_else(|| axis.any_orthonormal_vector())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A left arm in T-pose: shoulder at the origin, arm along +X, body facing +Z, so the elbow
    /// flexes the forearm toward +Z about the hinge -Y.
    fn t_pose() -> LimbPose {
        LimbPose {
            shoulder: Vec3::ZERO,
            elbow: Vec3::new(0.28, 0.0, 0.0),
            wrist: Vec3::new(0.52, 0.0, 0.0),
            hinge: Vec3::NEG_Y,
        }
    }

    /// Applies a solution to the bone vectors, as the Godot glue does to bone rotations.
    fn applied(pose: &LimbPose, s: &TwoBoneSolution) -> (Vec3, Vec3) {
        let elbow = pose.shoulder + s.upper_delta * (pose.elbow - pose.shoulder);
        let wrist = elbow + s.lower_delta * (s.upper_delta * (pose.wrist - pose.elbow));
        (elbow, wrist)
    }

    #[test]
    fn reachable_target_is_reached_with_elbow_toward_pole() {
        let pose = t_pose();
        let goal = TwoBoneGoal {
            target: Vec3::new(0.2, -0.1, 0.3),
            pole: Vec3::new(0.0, -1.0, -0.3),
        };
        let s = solve_two_bone(&pose, &goal);
        let (elbow, wrist) = applied(&pose, &s);
        assert!(s.reached);
        assert!(
            wrist.distance(goal.target) < 1e-4,
            "wrist {wrist} target {}",
            goal.target
        );
        assert!(elbow.distance(s.elbow) < 1e-4);
        assert!((elbow.length() - 0.28).abs() < 1e-4);
        assert!(((wrist - elbow).length() - 0.24).abs() < 1e-4);
        assert!(s.bend_direction.dot(Vec3::NEG_Y) > 0.5, "elbow goes down");
    }

    #[test]
    fn unreachable_target_points_the_arm_at_it() {
        let pose = t_pose();
        let target = Vec3::new(0.0, 2.0, 2.0);
        let s = solve_two_bone(
            &pose,
            &TwoBoneGoal {
                target,
                pole: Vec3::NEG_Y,
            },
        );
        let (elbow, wrist) = applied(&pose, &s);
        assert!(!s.reached);
        let dir = target.normalize();
        assert!(elbow.normalize().dot(dir) > 0.9999);
        assert!(wrist.normalize().dot(dir) > 0.9999);
        assert!((wrist.length() - 0.52).abs() < 1e-4);
    }

    #[test]
    fn target_at_the_shoulder_is_finite() {
        let s = solve_two_bone(
            &t_pose(),
            &TwoBoneGoal {
                target: Vec3::ZERO,
                pole: Vec3::NEG_Y,
            },
        );
        assert!(s.upper_delta.is_finite() && s.lower_delta.is_finite());
        assert!(s.elbow.is_finite() && s.wrist.is_finite());
        // Folded as far as the bones allow: the wrist lands |upper - lower| from the shoulder.
        assert!((s.wrist.length() - 0.04).abs() < 1e-4);
    }

    #[test]
    fn a_target_at_the_shoulder_keeps_the_heading_of_the_current_wrist() {
        // A bent arm off the origin: shoulder (1, 1, 0), wrist up and forward of it.
        let pose = LimbPose {
            shoulder: Vec3::new(1.0, 1.0, 0.0),
            elbow: Vec3::new(1.28, 1.0, 0.0),
            wrist: Vec3::new(1.28, 1.1, 0.2),
            hinge: Vec3::NEG_Y,
        };
        let goal = TwoBoneGoal {
            target: pose.shoulder,
            pole: Vec3::NEG_Y,
        };
        let s = solve_two_bone(&pose, &goal);
        let heading = (pose.wrist - pose.shoulder).normalize();
        let got = s.wrist - pose.shoulder;
        assert!(got.normalize().distance(heading) < 1e-5, "{got}");
        // As close as the bones allow: |0.28 - 0.2236|.
        let lower = (pose.wrist - pose.elbow).length();
        assert!(
            (got.length() - (0.28 - lower)).abs() < 1e-5,
            "{}",
            got.length()
        );
    }

    #[test]
    fn a_pole_along_the_target_keeps_the_current_bend() {
        // Shoulder off the origin, elbow bent toward +Z; the given hinge (-Y) would bend the
        // other way (-Z): the current bend wins.
        let pose = LimbPose {
            shoulder: Vec3::new(1.0, 1.0, 0.0),
            elbow: Vec3::new(1.2, 1.0, 0.19),
            wrist: Vec3::new(1.44, 1.0, 0.19),
            hinge: Vec3::NEG_Y,
        };
        let goal = TwoBoneGoal {
            target: Vec3::new(1.4, 1.0, 0.0),
            pole: Vec3::X,
        };
        let s = solve_two_bone(&pose, &goal);
        assert!(
            s.bend_direction.distance(Vec3::Z) < 1e-5,
            "{}",
            s.bend_direction
        );
    }

    #[test]
    fn reach_ends_are_inclusive() {
        let pose = t_pose();
        for d in [0.52, 0.04] {
            let goal = TwoBoneGoal {
                target: Vec3::new(d, 0.0, 0.0),
                pole: Vec3::Z,
            };
            assert!(solve_two_bone(&pose, &goal).reached, "{d}");
        }
        let far = TwoBoneGoal {
            target: Vec3::new(0.53, 0.0, 0.0),
            pole: Vec3::Z,
        };
        assert!(!solve_two_bone(&pose, &far).reached);
        // An unknown reach is the target's own distance.
        let goal = TwoBoneGoal {
            target: Vec3::new(0.2, -0.1, 0.3),
            pole: Vec3::new(0.0, -1.0, -0.5),
        };
        let plain = solve_two_bone(&pose, &goal);
        assert_eq!(
            solve_two_bone_with_reach(&pose, &goal, Some(f32::NAN)),
            plain
        );
    }

    #[test]
    fn the_upper_delta_carries_the_old_hinge_onto_the_new() {
        let goal = TwoBoneGoal {
            target: Vec3::new(0.2, -0.1, 0.3),
            pole: Vec3::new(0.0, -1.0, -0.5),
        };
        // A hinge with a part along the arm: only its perpendicular part (-Y) is the hinge.
        let mut pose = t_pose();
        pose.hinge = Vec3::new(0.4, -1.0, 0.0);
        let s = solve_two_bone(&pose, &goal);
        assert!((s.upper_delta * Vec3::NEG_Y).distance(s.hinge) < 1e-5);
        // No hinge given: the bend of the current pose is the hinge.
        let mut pose = t_pose();
        pose.wrist = Vec3::new(0.28, 0.2, 0.1);
        pose.hinge = Vec3::ZERO;
        let s = solve_two_bone(&pose, &goal);
        let old = Vec3::X.cross(Vec3::new(0.0, 0.2, 0.1)).normalize(); // upper x lower
        assert!(
            (s.upper_delta * old).distance(s.hinge) < 1e-5,
            "{}",
            s.upper_delta * old
        );
    }

    #[test]
    fn pole_along_the_arm_keeps_a_bend() {
        let pose = t_pose();
        let target = Vec3::new(0.0, 0.0, 0.4);
        let s = solve_two_bone(
            &pose,
            &TwoBoneGoal {
                target,
                pole: target,
            },
        );
        let (_, wrist) = applied(&pose, &s);
        assert!(wrist.distance(target) < 1e-4);
        assert!(s.upper_delta.is_finite());
    }

    #[test]
    fn zero_length_bones_do_not_produce_nan() {
        let mut pose = t_pose();
        pose.elbow = pose.shoulder;
        let s = solve_two_bone(
            &pose,
            &TwoBoneGoal {
                target: Vec3::new(0.1, 0.2, 0.1),
                pole: Vec3::Y,
            },
        );
        assert!(s.upper_delta.is_finite() && s.lower_delta.is_finite() && s.wrist.is_finite());
        let (_, wrist) = applied(&pose, &s);
        assert!(wrist.normalize().dot(Vec3::new(0.1, 0.2, 0.1).normalize()) > 0.999);

        let collapsed = LimbPose {
            shoulder: Vec3::ONE,
            elbow: Vec3::ONE,
            wrist: Vec3::ONE,
            hinge: Vec3::ZERO,
        };
        let s = solve_two_bone(
            &collapsed,
            &TwoBoneGoal {
                target: Vec3::ZERO,
                pole: Vec3::ZERO,
            },
        );
        assert_eq!(s.upper_delta, Quat::IDENTITY);
        assert!(s.wrist.is_finite());
    }

    #[test]
    fn non_finite_input_gives_finite_output() {
        let mut pose = t_pose();
        pose.hinge = Vec3::NAN;
        let goal = TwoBoneGoal {
            target: Vec3::new(f32::INFINITY, 0.0, 0.0),
            pole: Vec3::NAN,
        };
        let s = solve_two_bone(&pose, &goal);
        assert!(s.upper_delta.is_finite() && s.lower_delta.is_finite());
        assert!(s.elbow.is_finite() && s.wrist.is_finite() && s.hinge.is_finite());
    }

    #[test]
    fn target_at_rest_antipode_does_not_twist_the_upper_arm_wildly() {
        // Sweeping the target through the direction opposite the rest arm keeps the upper arm's
        // rotation continuous (a shortest-arc solve flips here).
        let pose = t_pose();
        let mut last: Option<Quat> = None;
        for i in -20..=20 {
            let z = i as f32 * 0.005;
            let target = Vec3::new(-0.45, 0.0, z);
            let s = solve_two_bone(
                &pose,
                &TwoBoneGoal {
                    target,
                    pole: Vec3::NEG_Y,
                },
            );
            if let Some(prev) = last {
                assert!(prev.angle_between(s.upper_delta) < 0.1, "jump at z={z}");
            }
            last = Some(s.upper_delta);
        }
    }

    fn vec_in(range: f32) -> impl Strategy<Value = Vec3> {
        (-range..range, -range..range, -range..range).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    proptest! {
        #[test]
        fn reachable_targets_are_reached_and_bones_kept(
            target in vec_in(0.6), pole in vec_in(1.0),
            upper in 0.1f32..0.4, lower in 0.1f32..0.4,
            bend in -0.5f32..0.5,
        ) {
            let pose = LimbPose {
                shoulder: Vec3::new(0.1, 1.4, 0.0),
                elbow: Vec3::new(0.1 + upper, 1.4, 0.0),
                wrist: Vec3::new(0.1 + upper + lower * bend.cos(), 1.4, lower * bend.sin()),
                hinge: Vec3::NEG_Y,
            };
            let goal = TwoBoneGoal { target: pose.shoulder + target, pole };
            let s = solve_two_bone(&pose, &goal);
            let (elbow, wrist) = applied(&pose, &s);
            prop_assert!(s.upper_delta.is_finite() && s.lower_delta.is_finite());
            prop_assert!(((elbow - pose.shoulder).length() - upper).abs() < 1e-4);
            prop_assert!(((wrist - elbow).length() - lower).abs() < 1e-4);
            let dist = target.length();
            let reachable = dist > (upper - lower).abs() + 1e-3 && dist < upper + lower - 1e-3;
            if reachable {
                prop_assert!(wrist.distance(goal.target) < 1e-4, "missed by {}", wrist.distance(goal.target));
                // Elbow on the pole side of the shoulder->target axis.
                let axis = target.normalize();
                let off = (elbow - pose.shoulder) - axis * (elbow - pose.shoulder).dot(axis);
                let pole_perp = pole - axis * pole.dot(axis);
                if pole_perp.length() > 1e-2 && off.length() > 1e-3 {
                    prop_assert!(off.dot(pole_perp) > 0.0);
                }
            } else if dist > upper + lower {
                let axis = target.normalize();
                prop_assert!((wrist - pose.shoulder).normalize().dot(axis) > 0.9999);
            }
            // The forearm only flexes about the hinge: lower bone stays perpendicular to it.
            prop_assert!(s.hinge.dot((wrist - elbow).normalize()).abs() < 1e-3);
        }
    }
}
