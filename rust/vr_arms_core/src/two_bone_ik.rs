//! Analytic two-bone IK: shoulder -> elbow -> wrist, with a pole (elbow hint) direction.
//!
//! Shape after ozz-animation's `IKTwoBoneJob`: explicit inputs ([`ArmPose`], [`TwoBoneGoal`]),
//! explicit output ([`TwoBoneSolution`]), no hidden state. All positions and directions are in one
//! space of the caller's choice (the skeleton's space in the Godot glue), in metres.
//!
//! Unlike a shortest-arc solve, the upper arm's twist is chosen so that the elbow's hinge axis is
//! the normal of the new bend plane: the forearm then only flexes about its hinge (no ball-joint
//! elbow), and no rotation is ever computed between antiparallel vectors, so there is no flip when
//! the target crosses the rest pose's antipode.

use glam::{Mat3, Quat, Vec3};

use crate::finite::{direction, vec3_or};

/// Bones shorter than this (metres) are treated as zero length.
const MIN_BONE: f32 = 1e-5;

/// Current pose of one arm, before the solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmPose {
    /// Upper-arm joint position (metres).
    pub shoulder: Vec3,
    /// Lower-arm (elbow) joint position (metres).
    pub elbow: Vec3,
    /// Hand (wrist) joint position (metres).
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
    /// `new_upper = upper_delta * old_upper`.
    pub upper_delta: Quat,
    /// Rotation to pre-multiply onto the lower arm's rotation after `upper_delta`:
    /// `new_lower = lower_delta * upper_delta * old_lower`.
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
pub fn solve_two_bone(pose: &ArmPose, goal: &TwoBoneGoal) -> TwoBoneSolution {
    solve_two_bone_with_reach(pose, goal, None)
}

/// As [`solve_two_bone`], but the wrist is placed at `reach` metres from the shoulder along the
/// shoulder->target direction instead of at the target's own distance (used by soft IK, which
/// eases the effective distance near full extension). `None` uses the target's distance.
pub fn solve_two_bone_with_reach(
    pose: &ArmPose,
    goal: &TwoBoneGoal,
    reach: Option<f32>,
) -> TwoBoneSolution {
    let shoulder = vec3_or(pose.shoulder, Vec3::ZERO);
    let elbow = vec3_or(pose.elbow, shoulder);
    let wrist = vec3_or(pose.wrist, elbow);
    let target = vec3_or(goal.target, wrist);

    let upper_len = (elbow - shoulder).length();
    let lower_len = (wrist - elbow).length();
    let upper_dir = direction(elbow - shoulder);
    let lower_dir = direction(wrist - elbow);
    let hinge_old = rest_hinge(vec3_or(pose.hinge, Vec3::ZERO), upper_dir, lower_dir);

    // Direction to the target; a target at the shoulder keeps the arm's current heading.
    let to_target = target - shoulder;
    let dir = direction(to_target)
        .or(direction(wrist - shoulder))
        .or(upper_dir)
        .unwrap_or(Vec3::NEG_Y);

    // The pole, perpendicular to the shoulder->target axis. Fallbacks keep the current bend.
    let pole = vec3_or(goal.pole, Vec3::ZERO);
    let bend = direction(pole - dir * pole.dot(dir))
        .or_else(|| {
            let current = elbow - shoulder;
            direction(current - dir * current.dot(dir))
        })
        .or_else(|| direction(dir.cross(hinge_old)))
        .unwrap_or_else(|| dir.any_orthonormal_vector());
    let hinge_new = bend.cross(dir).normalize();

    let min_reach = (upper_len - lower_len).abs();
    let max_reach = upper_len + lower_len;
    let target_dist = to_target.length();
    let reached = target_dist >= min_reach - 1e-6 && target_dist <= max_reach + 1e-6;
    let wanted = match reach {
        Some(r) if r.is_finite() => r,
        _ => target_dist,
    };
    let dist = wanted.clamp(min_reach, max_reach);

    // Law of cosines at the shoulder.
    let cos_shoulder = if upper_len > MIN_BONE && dist > MIN_BONE {
        ((upper_len * upper_len + dist * dist - lower_len * lower_len) / (2.0 * upper_len * dist))
            .clamp(-1.0, 1.0)
    } else {
        1.0
    };
    let sin_shoulder = (1.0 - cos_shoulder * cos_shoulder).max(0.0).sqrt();
    let new_elbow = shoulder + upper_len * (dir * cos_shoulder + bend * sin_shoulder);
    let new_wrist = shoulder + dir * dist;

    let upper_delta = match (upper_dir, direction(new_elbow - shoulder)) {
        (Some(old), Some(new)) => frame(new, hinge_new) * frame(old, hinge_old).inverse(),
        _ => Quat::IDENTITY,
    };
    let lower_delta = match lower_dir {
        Some(old) => {
            let moved = upper_delta * old;
            let new = direction(new_wrist - new_elbow).unwrap_or(moved);
            frame(new, hinge_new) * frame(moved, hinge_new).inverse()
        }
        None => Quat::IDENTITY,
    };

    TwoBoneSolution {
        upper_delta: upper_delta.normalize(),
        lower_delta: lower_delta.normalize(),
        elbow: new_elbow,
        wrist: new_wrist,
        hinge: hinge_new,
        bend_direction: bend,
        reached,
    }
}

/// The hinge axis to use for the current pose: the given one if it is usable, else the bend of
/// the current pose, else any axis perpendicular to the upper arm.
fn rest_hinge(hinge: Vec3, upper_dir: Option<Vec3>, lower_dir: Option<Vec3>) -> Vec3 {
    let axis = upper_dir.or(lower_dir).unwrap_or(Vec3::NEG_Y);
    direction(hinge - axis * hinge.dot(axis))
        .or_else(|| match (upper_dir, lower_dir) {
            (Some(u), Some(l)) => direction(u.cross(l)),
            _ => None,
        })
        .unwrap_or_else(|| axis.any_orthonormal_vector())
}

/// Rotation whose X axis is `primary` and whose Y axis is `secondary` made perpendicular to it.
/// `primary` must be unit length; a `secondary` parallel to it falls back to any perpendicular.
fn frame(primary: Vec3, secondary: Vec3) -> Quat {
    let y = direction(secondary - primary * secondary.dot(primary))
        .unwrap_or_else(|| primary.any_orthonormal_vector());
    let z = primary.cross(y);
    Quat::from_mat3(&Mat3::from_cols(primary, y, z))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A left arm in T-pose: shoulder at the origin, arm along +X, body facing +Z, so the elbow
    /// flexes the forearm toward +Z about the hinge -Y.
    fn t_pose() -> ArmPose {
        ArmPose {
            shoulder: Vec3::ZERO,
            elbow: Vec3::new(0.28, 0.0, 0.0),
            wrist: Vec3::new(0.52, 0.0, 0.0),
            hinge: Vec3::NEG_Y,
        }
    }

    /// Applies a solution to the bone vectors, as the Godot glue does to bone rotations.
    fn applied(pose: &ArmPose, s: &TwoBoneSolution) -> (Vec3, Vec3) {
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
        let pose = ArmPose {
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
        let pose = ArmPose {
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

        let collapsed = ArmPose {
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
            let pose = ArmPose {
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
