//! The user's walk animation while the game moves the player (thumbstick walking, a moving
//! platform carrying the XR origin): the legs blend from the procedural feet toward the
//! animation's pose (an `AnimationTree` blend by speed) by how fast the XR origin moves. A
//! player walking in the room moves the headset, not the origin: those steps stay procedural.

use glam::{Quat, Vec3};

use super::LowerBodySettings;
use crate::maths::pose::Pose;

/// Time constant of the origin's smoothed speed (seconds).
const SPEED_TIME_S: f32 = 0.15;

/// Below this share of `walk_animation_speed_m_s` the animation takes no share (a drifting
/// origin does not stiffen the legs).
const START_SHARE: f32 = 0.2;

/// An origin moved farther than this in one frame (avatar metres) was carried there at once
/// (a teleport): no speed from it.
const TELEPORT_M: f32 = 1.0;

/// The XR origin's horizontal speed across frames, and the animation's share of the legs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WalkBlend {
    last_origin: Option<Pose>,
    /// Smoothed horizontal speed (avatar metres per second).
    speed: f32,
}

impl WalkBlend {
    /// Forgets the origin's motion (after a teleport or a new avatar).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// The origin's smoothed horizontal speed, avatar metres per second.
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// One frame of `dt` seconds with the XR origin at `origin` (world, `None`: not known, no
    /// motion) and the head at `head` (world); `scale` world units per avatar metre. The
    /// origin's motion is measured where the head is: a turn of the origin about the head (a
    /// snap or smooth turn) is no walking. Returns the animation's share of the legs this frame,
    /// 0 (procedural) to `walk_animation_share`.
    pub fn update(
        &mut self,
        s: &LowerBodySettings,
        origin: Option<Pose>,
        head: Vec3,
        scale: f32,
        dt: f32,
    ) -> f32 {
        let origin = origin.filter(|o| o.position.is_finite() && o.rotation.is_finite());
        let moved = match (self.last_origin, origin) {
            (Some(a), Some(b)) if head.is_finite() => {
                // The head where the old origin carried it, against where it is now.
                let was = a.transform_point(b.inverse().transform_point(head));
                Vec3::new(head.x - was.x, 0.0, head.z - was.z).length() / scale
            }
            _ => 0.0,
        };
        self.last_origin = origin;
        if dt.is_finite() && dt > 0.0 && moved < TELEPORT_M {
            let k = 1.0 - (-dt / SPEED_TIME_S).exp();
            self.speed += (moved / dt - self.speed) * k;
        }
        if !self.speed.is_finite() {
            self.speed = 0.0;
        }
        let full = s.walk_animation_speed_m_s;
        let t = ((self.speed - START_SHARE * full) / ((1.0 - START_SHARE) * full)).clamp(0.0, 1.0);
        s.walk_animation_share * crate::maths::smoothing::smoothstep(t)
    }
}

/// A leg bone's local rotation: the procedural one turned `share` of the way toward the
/// animation's (both unit; a rotation that is not finite counts as the other one).
pub fn blend_leg(procedural: Quat, animated: Quat, share: f32) -> Quat {
    let unit = |q: Quat| crate::maths::finite::unit_quat(q);
    match (unit(procedural), unit(animated)) {
        (Some(p), Some(a)) if share > 0.0 => p.slerp(a, share.min(1.0)).normalize(),
        (Some(p), _) => p,
        (None, Some(a)) => a,
        (None, None) => Quat::IDENTITY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(share: f32) -> LowerBodySettings {
        LowerBodySettings {
            walk_animation_share: share,
            walk_animation_speed_m_s: 0.5,
            ..Default::default()
        }
    }

    /// Runs `seconds` at 90 fps with the origin moving at `speed` m/s along +Z.
    fn run(blend: &mut WalkBlend, s: &LowerBodySettings, speed: f32, seconds: f32) -> f32 {
        let dt = 1.0 / 90.0;
        let mut share = 0.0;
        let mut z = blend.last_origin.map_or(0.0, |o| o.position.z);
        for _ in 0..(seconds / dt) as usize {
            z += speed * dt;
            let origin = Pose::from_position(Vec3::new(3.0, 1.0, z));
            share = blend.update(s, Some(origin), Vec3::new(3.0, 2.6, z + 0.3), 1.0, dt);
        }
        share
    }

    #[test]
    fn walking_with_the_thumbstick_hands_the_legs_to_the_animation_and_standing_takes_them_back() {
        let s = settings(1.0);
        let mut blend = WalkBlend::default();
        assert_eq!(run(&mut blend, &s, 0.0, 1.0), 0.0, "the origin still");
        let walking = run(&mut blend, &s, 1.2, 1.0);
        assert!((walking - 1.0).abs() < 1e-4, "walking: {walking}");
        assert!(
            (blend.speed() - 1.2).abs() < 0.01,
            "speed {}",
            blend.speed()
        );
        let slow = run(&mut blend, &s, 0.25, 2.0);
        // 0.25 m/s of a 0.5 m/s walk: 0.375 of the way from a fifth of it to all of it,
        // eased (smoothstep: 0.375^2 (3 - 0.75) = 0.316).
        assert!((slow - 0.316).abs() < 0.005, "between: {slow}");
        assert_eq!(run(&mut blend, &s, 0.0, 1.0), 0.0, "stopped");
        run(&mut blend, &s, 1.2, 1.0);
        blend.reset();
        assert_eq!((blend.speed(), blend.last_origin), (0.0, None), "reset");
    }

    #[test]
    fn the_share_is_the_settings_and_off_by_default() {
        let mut blend = WalkBlend::default();
        let half = run(&mut blend, &settings(0.5), 1.2, 1.0);
        assert!((half - 0.5).abs() < 1e-4, "{half}");
        let mut blend = WalkBlend::default();
        assert_eq!(
            run(&mut blend, &LowerBodySettings::default(), 1.2, 1.0),
            0.0
        );
    }

    #[test]
    fn the_speed_does_not_depend_on_the_frame_rate_and_a_teleport_is_no_speed() {
        let s = settings(1.0);
        let at = |fps: f32| {
            let mut blend = WalkBlend::default();
            let dt = 1.0 / fps;
            let mut share = 0.0;
            for k in 0..=(0.2 * fps) as usize {
                let at = Vec3::Z * 0.5 * k as f32 * dt;
                share = blend.update(&s, Some(Pose::from_position(at)), at, 1.0, dt);
            }
            share
        };
        let (slow, fast) = (at(30.0), at(120.0));
        assert!(slow > 0.0 && (slow - fast).abs() < 0.03, "{slow} {fast}");
        let mut blend = WalkBlend::default();
        let at = |x: f32| Some(Pose::from_position(Vec3::X * x));
        blend.update(&s, at(0.0), Vec3::Y, 1.0, 1.0 / 90.0);
        let jumped = blend.update(&s, at(5.0), Vec3::Y, 1.0, 1.0 / 90.0);
        assert_eq!((jumped, blend.speed()), (0.0, 0.0));
        let scaled = blend.update(&s, at(5.02), Vec3::Y, 2.0, 0.01);
        assert!((blend.speed() - 1.0 * (1.0 - (-0.01f32 / SPEED_TIME_S).exp())).abs() < 1e-4);
        assert!(scaled.is_finite());
    }

    /// Snap and smooth turns turn the origin about the head: no walking, however far the
    /// origin itself moves (the player 0.6 m from the origin's centre).
    #[test]
    fn turning_about_the_head_is_no_walking() {
        let s = settings(1.0);
        let mut blend = WalkBlend::default();
        let head = Vec3::new(0.6, 1.7, 0.0);
        let mut origin = Pose::IDENTITY;
        let mut worst: f32 = 0.0;
        for k in 0..90 {
            // A 30-degree snap every 10 frames, about the head.
            if k % 10 == 9 {
                let turn = Pose::new(head, Quat::from_rotation_y(0.52))
                    .mul_pose(&Pose::from_position(-head));
                origin = turn.mul_pose(&origin);
            }
            worst = worst.max(blend.update(&s, Some(origin), head, 1.0, 1.0 / 90.0));
        }
        assert_eq!(worst, 0.0, "speed {}", blend.speed());
        // The same origin turned about its own centre carries the head round: that moves it.
        let mut blend = WalkBlend::default();
        let mut origin = Pose::IDENTITY;
        let mut moved: f32 = 0.0;
        for k in 0..90 {
            origin.rotation = Quat::from_rotation_y(0.05 * k as f32);
            let head_now = origin.transform_point(Vec3::new(0.6, 1.7, 0.0));
            moved = moved.max(blend.update(&s, Some(origin), head_now, 1.0, 1.0 / 90.0));
        }
        assert!(moved > 0.5, "{moved}");
    }

    #[test]
    fn blending_turns_the_procedural_rotation_toward_the_animations() {
        let p = Quat::IDENTITY;
        let a = Quat::from_rotation_x(0.8);
        assert!(blend_leg(p, a, 0.0).angle_between(p) < 1e-6);
        assert!(blend_leg(p, a, 1.0).angle_between(a) < 1e-4);
        assert!((blend_leg(p, a, 0.5).angle_between(p) - 0.4).abs() < 1e-4);
        let nan = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
        assert!(blend_leg(nan, a, 0.5).angle_between(a) < 1e-4);
        assert!(blend_leg(p, nan, 0.5).angle_between(p) < 1e-6);
        assert!(blend_leg(nan, nan, 0.5).is_finite());
    }
}
