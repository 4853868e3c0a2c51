//! The user's walk animation while the game moves the player (thumbstick walking, a moving
//! platform carrying the XR origin): the legs blend from the procedural feet toward the
//! animation's pose (an `AnimationTree` blend by speed) by how fast the XR origin moves. A
//! player walking in the room moves the headset, not the origin: those steps stay procedural.

use glam::{Quat, Vec3};

use super::LowerBodySettings;

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
    last_origin: Option<Vec3>,
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
    /// motion); `scale` world units per avatar metre. Returns the animation's share of the
    /// legs this frame, 0 (procedural) to `walk_animation_share`.
    pub fn update(
        &mut self,
        s: &LowerBodySettings,
        origin: Option<Vec3>,
        scale: f32,
        dt: f32,
    ) -> f32 {
        let origin = origin.filter(|o| o.is_finite());
        let moved = match (self.last_origin, origin) {
            (Some(a), Some(b)) => Vec3::new(b.x - a.x, 0.0, b.z - a.z).length() / scale,
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
        s.walk_animation_share * t * t * (3.0 - 2.0 * t)
    }
}

/// A leg bone's local rotation: the procedural one turned `share` of the way toward the
/// animation's (both unit; a rotation that is not finite counts as the other one).
pub fn blend_leg(procedural: Quat, animated: Quat, share: f32) -> Quat {
    let unit = |q: Quat| crate::finite::unit_quat(q);
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
        let mut z = blend.last_origin.map_or(0.0, |o| o.z);
        for _ in 0..(seconds / dt) as usize {
            z += speed * dt;
            share = blend.update(s, Some(Vec3::new(3.0, 1.0, z)), 1.0, dt);
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
        assert!(slow > 0.1 && slow < 0.9, "between: {slow}");
        assert_eq!(run(&mut blend, &s, 0.0, 1.0), 0.0, "stopped");
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
                share = blend.update(&s, Some(Vec3::Z * 0.5 * k as f32 * dt), 1.0, dt);
            }
            share
        };
        let (slow, fast) = (at(30.0), at(120.0));
        assert!(slow > 0.0 && (slow - fast).abs() < 0.03, "{slow} {fast}");
        let mut blend = WalkBlend::default();
        blend.update(&s, Some(Vec3::ZERO), 1.0, 1.0 / 90.0);
        let jumped = blend.update(&s, Some(Vec3::X * 5.0), 1.0, 1.0 / 90.0);
        assert_eq!((jumped, blend.speed()), (0.0, 0.0));
        let scaled = blend.update(&s, Some(Vec3::X * 5.02), 2.0, 0.01);
        assert!((blend.speed() - 1.0 * (1.0 - (-0.01f32 / SPEED_TIME_S).exp())).abs() < 1e-4);
        assert!(scaled.is_finite());
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
