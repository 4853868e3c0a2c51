//! Where the revolver and its moving parts are, as poses relative to what the engine knows (the
//! hand's attach point, the holster's anchor, the gun's own children): the cocking sweep, the
//! twirl about its pivot, the draw's slide, the parts' turns, the two-hand support's hysteresis
//! and the stick's clicks. The `Revolver` node composes these with its transforms.

use glam::{EulerRot, Quat, Vec2, Vec3};

use crate::maths::finite::{f32_or, vec3_or};
use crate::maths::pose::Pose;
use crate::revolver::{CHAMBERS, RevolverState, cock_pose};

/// How far the stick must be pushed (0..1) for a click at the open gate.
pub const STICK_PUSH: f32 = 0.7;

/// A rotation of `v` radians per axis in Godot's `Basis::from_euler(YXZ)` order (Y, then X,
/// then Z in the rotated frames): how every recoil layer's and the sweep's angles become a turn.
pub fn euler_yxz(v: Vec3) -> Quat {
    let v = if v.is_finite() { v } else { Vec3::ZERO };
    Quat::from_euler(EulerRot::YXZ, v.y, v.x, v.z)
}

/// Whether a gun in `state` is in the hand (held, or being cocked): placed on the hand, shown on
/// a remote player's hand, recoiling through the arm.
pub fn in_hand(state: RevolverState) -> bool {
    matches!(state, RevolverState::Held | RevolverState::Cocking)
}

/// The cocking sweep at cocking time `cock_t` (0..1 of the cocking timeline, `None` when not
/// cocking): the gun moved back by `offset` and turned by `rotation_deg` (degrees per axis,
/// YXZ) as far as the timeline's `gun_back` says.
pub fn cock_sweep(cock_t: Option<f32>, offset: Vec3, rotation_deg: Vec3) -> Pose {
    let back = cock_t.map_or(0.0, |t| cock_pose(t).gun_back);
    let turn = rotation_deg * (back * std::f32::consts::PI / 180.0);
    Pose::new(
        vec3_or(offset * back, Vec3::ZERO),
        euler_yxz(turn).normalize(),
    )
}

/// The twirl's spin by `angle` radians about `pivot` (a point in the gun's frame), about the
/// gun's side axis (+X), forward over the top (the muzzle down first).
pub fn twirl_turn(angle: f32, pivot: Vec3) -> Pose {
    if angle == 0.0 || !angle.is_finite() {
        return Pose::IDENTITY;
    }
    let turn = Quat::from_axis_angle(Vec3::X, -angle);
    // at * turn * at^-1: the pivot stays where it is.
    Pose::new(pivot - turn * pivot, turn)
}

/// The gun placed so that its holster point (`holster_point_in_gun`, the child's pose in the
/// gun's frame) sits on the holster's anchor.
pub fn in_holster(anchor: &Pose, holster_point_in_gun: &Pose) -> Pose {
    anchor.mul_pose(&holster_point_in_gun.inverse())
}

/// The draw's slide: the holstered gun moved `draw_t` (0..1) of the way from the anchor to the
/// point where it clears the holster, not turned.
pub fn latched(in_holster: &Pose, anchor: Vec3, clear: Vec3, draw_t: f32) -> Pose {
    let t = f32_or(draw_t, 0.0).clamp(0.0, 1.0);
    Pose::new(
        in_holster.position + (clear - anchor) * t,
        in_holster.rotation,
    )
}

/// How far each moving part is turned (radians): the hammer back about the gun's +X, the
/// trigger about +X, the cylinder about the barrel (-Z) by whole chambers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartTurns {
    pub hammer: f32,
    pub trigger: f32,
    pub cylinder: f32,
}

/// The parts' turns for the hammer's travel (0..1 of full cock), the trigger's pull (0..1), the
/// chamber under the hammer, and the parts' full travels (degrees).
pub fn part_turns(
    hammer_travel: f32,
    trigger_pull: f32,
    chamber: usize,
    hammer_cock_deg: f32,
    trigger_pull_deg: f32,
) -> PartTurns {
    let unit = |v: f32| f32_or(v, 0.0).clamp(0.0, 1.0);
    PartTurns {
        hammer: -f32_or(hammer_cock_deg, 0.0).to_radians() * unit(hammer_travel),
        trigger: f32_or(trigger_pull_deg, 0.0).to_radians() * unit(trigger_pull),
        cylinder: (chamber % CHAMBERS) as f32 * std::f32::consts::TAU / CHAMBERS as f32,
    }
}

/// Whether the other hand supports the gun this frame: it takes hold only when it grips near the
/// support point of a gun in the hand, and keeps hold while it grips wherever it drifts (until
/// it lets go or the gun leaves the hand).
pub fn support_wanted(held: bool, supported: bool, gripping: bool, near: bool) -> bool {
    held && gripping && (supported || near)
}

/// The stick's clicks at the open gate: pushed right past [`STICK_PUSH`] this frame (turn the
/// cylinder), pushed up past it (work the ejector rod); once per push, not while held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StickClicks {
    pub right: bool,
    pub up: bool,
}

pub fn stick_clicks(was: Vec2, now: Vec2) -> StickClicks {
    StickClicks {
        right: now.x >= STICK_PUSH && was.x < STICK_PUSH,
        up: now.y >= STICK_PUSH && was.y < STICK_PUSH,
    }
}

/// The gun hand's turn rate about its own side axis (+X, radians per second) from its rotation a
/// frame ago to now: a flick of the wrist, for the twirl. 0 without a time step.
pub fn flick_rate(before: Quat, now: Quat, dt: f32) -> f32 {
    if !(dt > 0.0 && dt.is_finite()) {
        return 0.0;
    }
    let mut turn = (before.inverse() * now).normalize();
    if turn.w < 0.0 {
        // The shorter way round.
        turn = -turn;
    }
    f32_or(turn.to_scaled_axis().x / dt, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::{FRAC_PI_2, PI};

    /// The same rotation (either cover), to float precision.
    fn same(a: Quat, b: Quat) -> bool {
        (a.dot(b).abs() - 1.0).abs() < 1e-6
    }

    #[test]
    fn euler_yxz_turns_y_then_x_then_z() {
        let q = euler_yxz(Vec3::new(FRAC_PI_2, FRAC_PI_2, 0.0));
        // Y first: the turn about X happens in the frame turned about Y.
        let expected = Quat::from_rotation_y(FRAC_PI_2) * Quat::from_rotation_x(FRAC_PI_2);
        assert!(same(q, expected));
        assert_eq!(euler_yxz(Vec3::NAN), Quat::IDENTITY);
    }

    #[test]
    fn only_held_or_cocking_is_in_the_hand() {
        use RevolverState::*;
        let inside: Vec<bool> = [Holstered, Latched, Held, Cocking, Dropped]
            .into_iter()
            .map(in_hand)
            .collect();
        assert_eq!(inside, [false, false, true, true, false]);
        // As the network carries it.
        for s in [Holstered, Latched, Held, Cocking, Dropped] {
            assert_eq!(RevolverState::from_u8(s as u8), Some(s));
        }
        assert_eq!(RevolverState::from_u8(5), None);
    }

    #[test]
    fn the_sweep_follows_the_cocking_timeline() {
        let off = Vec3::new(0.0, 0.01, 0.03);
        let rot = Vec3::new(20.0, 0.0, 10.0);
        assert_eq!(cock_sweep(None, off, rot), Pose::IDENTITY);
        let back = cock_pose(0.5).gun_back;
        assert!(back > 0.1, "the timeline moves the gun back mid-cock");
        let s = cock_sweep(Some(0.5), off, rot);
        assert!(s.position.distance(off * back) < 1e-6);
        let expected = euler_yxz(rot * (back * PI / 180.0));
        assert!(same(s.rotation, expected));
    }

    #[test]
    fn the_twirl_turns_about_its_pivot_which_stays_put() {
        let pivot = Vec3::new(0.0, -0.02, 0.05);
        let t = twirl_turn(1.3, pivot);
        assert!(t.transform_point(pivot).distance(pivot) < 1e-6);
        // Forward over the top: the muzzle (-Z) turns down first.
        let muzzle = t.transform_point(pivot + Vec3::NEG_Z * 0.1) - pivot;
        assert!(muzzle.y < 0.0, "{muzzle}");
        assert_eq!(twirl_turn(0.0, pivot), Pose::IDENTITY);
        assert_eq!(twirl_turn(f32::NAN, pivot), Pose::IDENTITY, "no NaN turn");
    }

    #[test]
    fn the_holster_point_sits_on_the_anchor_and_the_draw_slides_toward_clear() {
        let anchor = Pose::new(Vec3::new(0.2, 0.9, 0.1), Quat::from_rotation_y(0.4));
        let point = Pose::new(Vec3::new(0.0, 0.05, -0.1), Quat::from_rotation_x(0.2));
        let gun = in_holster(&anchor, &point);
        let at = gun.mul_pose(&point);
        assert!(at.position.distance(anchor.position) < 1e-6);
        assert!(same(at.rotation, anchor.rotation));
        let clear = anchor.position + Vec3::new(0.0, 0.2, 0.0);
        let half = latched(&gun, anchor.position, clear, 0.5);
        assert!(
            half.position
                .distance(gun.position + Vec3::new(0.0, 0.1, 0.0))
                < 1e-6
        );
        assert_eq!(half.rotation, gun.rotation, "the slide does not turn it");
        assert_eq!(
            latched(&gun, anchor.position, clear, 2.0).position,
            gun.position + Vec3::new(0.0, 0.2, 0.0)
        );
    }

    #[test]
    fn the_parts_turn_with_hammer_trigger_and_cylinder() {
        let p = part_turns(0.5, 0.5, 2, 40.0, 12.0);
        assert!(
            (p.hammer + 20f32.to_radians()).abs() < 1e-6,
            "back, half way"
        );
        assert!((p.trigger - 6f32.to_radians()).abs() < 1e-6);
        assert!((p.cylinder - 2.0 * std::f32::consts::TAU / 6.0).abs() < 1e-6);
        assert_eq!(
            part_turns(3.0, -1.0, 8, 40.0, 12.0),
            part_turns(1.0, 0.0, 2, 40.0, 12.0)
        );
    }

    #[test]
    fn support_takes_hold_near_the_point_and_keeps_it_while_gripping() {
        assert!(!support_wanted(true, false, true, false), "far: no hold");
        assert!(support_wanted(true, false, true, true), "near and gripping");
        assert!(
            support_wanted(true, true, true, false),
            "kept while gripping"
        );
        assert!(!support_wanted(true, true, false, true), "let go");
        assert!(
            !support_wanted(false, true, true, true),
            "the gun left the hand"
        );
    }

    #[test]
    fn the_stick_clicks_once_per_push() {
        let rest = Vec2::ZERO;
        let right = Vec2::new(0.9, 0.0);
        assert_eq!(
            stick_clicks(rest, right),
            StickClicks {
                right: true,
                up: false
            }
        );
        assert_eq!(
            stick_clicks(right, right),
            StickClicks::default(),
            "held: no repeat"
        );
        assert!(stick_clicks(rest, Vec2::new(0.0, STICK_PUSH)).up);
        assert_eq!(
            stick_clicks(rest, Vec2::new(0.69, 0.0)),
            StickClicks::default()
        );
        // Already at the threshold last frame: the push was counted then.
        let at = Vec2::splat(STICK_PUSH);
        assert_eq!(stick_clicks(at, Vec2::splat(0.9)), StickClicks::default());
    }

    #[test]
    fn the_flick_rate_is_the_turn_about_the_hands_side_axis() {
        let before = Quat::from_rotation_y(0.3);
        let now = before * Quat::from_rotation_x(0.05);
        assert!((flick_rate(before, now, 0.01) - 5.0).abs() < 1e-3);
        // The other cover of the same turn gives the same rate.
        assert!((flick_rate(before, -now, 0.01) - 5.0).abs() < 1e-3);
        assert_eq!(flick_rate(before, now, 0.0), 0.0);
        assert_eq!(flick_rate(before, now, f32::NAN), 0.0);
        assert_eq!(
            flick_rate(before, now, -0.01),
            0.0,
            "time going back: no flick"
        );
    }
}
