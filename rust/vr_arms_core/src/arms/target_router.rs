//! Stage 4: per arm, blend the default target with an interaction override.
//!
//! During a holster draw (or a two-handed grip) an interaction routes the arm to its own target
//! so it can pose the arm without fighting the controller. The weight moves toward 1 (override
//! set) or 0 at `blend_speed` per second; events report when an override has fully engaged and
//! fully released.

use serde::{Deserialize, Serialize};

use crate::maths::finite::finite_clamp;
use crate::maths::pose::Pose;
use crate::maths::side::Side;

/// Settings of [`TargetRouter`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TargetRouterSettings {
    /// How fast the override weight moves (weight per second; 8 = an eighth of a second).
    pub blend_speed: f32,
}

impl Default for TargetRouterSettings {
    fn default() -> Self {
        Self { blend_speed: 8.0 }
    }
}

impl TargetRouterSettings {
    pub fn validate(&mut self) {
        self.blend_speed = finite_clamp(self.blend_speed, 0.0, 10_000.0, 8.0);
    }
}

/// A transition the router reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouterEvent {
    /// The override weight reached 1.
    Engaged,
    /// The override weight reached 0 after an override.
    Released,
}

/// One arm's router.
#[derive(Clone, Debug, Default)]
pub struct TargetRouter {
    pub settings: TargetRouterSettings,
    /// Current override weight, 0..1.
    pub weight: f32,
    /// Whether an override is requested.
    pub use_override: bool,
    engaged: bool,
}

impl TargetRouter {
    pub fn new(mut settings: TargetRouterSettings) -> Self {
        settings.validate();
        Self {
            settings,
            ..Default::default()
        }
    }

    /// Start blending toward the override.
    pub fn set_override(&mut self) {
        self.use_override = true;
    }

    /// Start blending back to the default target.
    pub fn clear_override(&mut self) {
        self.use_override = false;
    }

    /// Back to the default target at once (the original design's force-clear).
    pub fn force_clear(&mut self) -> Option<RouterEvent> {
        self.use_override = false;
        self.weight = 0.0;
        self.engaged_transition()
    }

    /// The routed target. The input's `override_target` is `None` when the interaction has no
    /// target (then the weight falls back as if cleared). Each arm has its own router: `side`
    /// names it.
    pub fn update(
        &mut self,
        _side: Side,
        input: &TargetRouterInput,
        dt: f32,
    ) -> TargetRouterOutput {
        let (target, event) = self.routed(&input.target, input.override_target.as_ref(), dt);
        TargetRouterOutput { target, event }
    }

    /// The routing step as the body and the `TargetRouter` node take it: `target` from the
    /// stages before, `override_target` the interaction's, if any (world).
    pub fn route(
        &mut self,
        side: Side,
        target: Pose,
        override_target: Option<Pose>,
        dt: f32,
    ) -> TargetRouterOutput {
        let input = TargetRouterInput {
            target,
            override_target,
        };
        self.update(side, &input, dt)
    }

    fn routed(
        &mut self,
        default_target: &Pose,
        override_target: Option<&Pose>,
        dt: f32,
    ) -> (Pose, Option<RouterEvent>) {
        let goal = if self.use_override && override_target.is_some() {
            1.0
        } else {
            0.0
        };
        // A negative, NaN or infinite step moves nothing (NaN.max(0) is 0).
        let step = if dt.is_finite() {
            (self.settings.blend_speed * dt).max(0.0)
        } else {
            0.0
        };
        self.weight = crate::maths::smoothing::move_toward(self.weight, goal, step);
        if !self.weight.is_finite() {
            self.weight = goal;
        }
        let a = default_target.sanitized(&Pose::IDENTITY);
        let out = match override_target {
            Some(b) if self.weight > 0.0 => {
                let b = b.sanitized(&a);
                Pose::new(
                    a.position.lerp(b.position, self.weight),
                    a.rotation.slerp(b.rotation, self.weight).normalize(),
                )
            }
            _ => a,
        };
        (out.sanitized(&a), self.engaged_transition())
    }

    fn engaged_transition(&mut self) -> Option<RouterEvent> {
        if !self.engaged && self.weight >= 1.0 {
            self.engaged = true;
            return Some(RouterEvent::Engaged);
        }
        if self.engaged && self.weight <= 0.0 {
            self.engaged = false;
            return Some(RouterEvent::Released);
        }
        None
    }
}

/// One hand's targets this frame (world).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetRouterInput {
    /// The target the stages before gave.
    pub target: Pose,
    /// The interaction's target, if it has one.
    pub override_target: Option<Pose>,
}

/// The routed target (world), and an engage or release on this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetRouterOutput {
    pub target: Pose,
    pub event: Option<RouterEvent>,
}

impl crate::stage::StageSettings for TargetRouterSettings {
    fn validate(&mut self) {
        Self::validate(self);
    }
}

impl crate::stage::Stage for TargetRouter {
    type Settings = TargetRouterSettings;
    type Input = TargetRouterInput;
    type Output = TargetRouterOutput;

    fn update(&mut self, side: Side, input: &Self::Input, dt: f32) -> Self::Output {
        Self::update(self, side, input, dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn blends_engages_and_releases() {
        let mut r = TargetRouter::default();
        let a = Pose::from_position(Vec3::ZERO);
        let b = Pose::from_position(Vec3::new(1.0, 0.0, 0.0));
        let (out, ev) = r.routed(&a, Some(&b), 0.1);
        assert_eq!(out.position, a.position);
        assert_eq!(ev, None);
        r.set_override();
        let (out, _) = r.routed(&a, Some(&b), 0.0625);
        assert!((out.position.x - 0.5).abs() < 1e-6);
        let (out, ev) = r.routed(&a, Some(&b), 0.0625);
        assert_eq!(out.position, b.position);
        assert_eq!(ev, Some(RouterEvent::Engaged));
        let (_, ev) = r.routed(&a, Some(&b), 0.0625);
        assert_eq!(ev, None, "engaged is reported once");
        r.clear_override();
        let (_, ev) = r.routed(&a, Some(&b), 0.0625);
        assert_eq!(ev, None);
        let (out, ev) = r.routed(&a, Some(&b), 0.0625);
        assert_eq!(out.position, a.position);
        assert_eq!(ev, Some(RouterEvent::Released));
    }

    #[test]
    fn force_clear_is_immediate() {
        let mut r = TargetRouter::default();
        let a = Pose::IDENTITY;
        let b = Pose::from_position(Vec3::ONE);
        r.set_override();
        for _ in 0..20 {
            r.routed(&a, Some(&b), 0.02);
        }
        assert_eq!(r.force_clear(), Some(RouterEvent::Released));
        let (out, _) = r.routed(&a, Some(&b), 0.0);
        assert_eq!(out.position, Vec3::ZERO);
    }

    #[test]
    fn missing_override_target_falls_back() {
        let mut r = TargetRouter::default();
        r.set_override();
        let (out, _) = r.routed(&Pose::IDENTITY, None, 1.0);
        assert_eq!(out.position, Vec3::ZERO);
        assert_eq!(r.weight, 0.0);
    }

    #[test]
    fn bad_steps_do_not_move_the_weight_and_settings_are_validated() {
        let mut r = TargetRouter::default();
        r.set_override();
        let a = Pose::from_position(Vec3::ZERO);
        let b = Pose::from_position(Vec3::X);
        r.routed(&a, Some(&b), 0.05);
        let w = r.weight;
        assert!((w - 0.4).abs() < 1e-6, "8/s for 0.05 s: {w}");
        for dt in [-1.0, f32::NAN, f32::INFINITY, 0.0] {
            r.routed(&a, Some(&b), dt);
            assert_eq!(r.weight, w, "{dt}");
        }
        // An infinite speed (an unvalidated setting) with a step of no time moves nothing either.
        r.settings.blend_speed = f32::INFINITY;
        r.routed(&a, Some(&b), 0.0);
        assert_eq!(r.weight, w);
        for (speed, want) in [(-3.0, 0.0), (f32::NAN, 8.0), (1e9, 10_000.0)] {
            let r = TargetRouter::new(TargetRouterSettings { blend_speed: speed });
            assert_eq!(r.settings.blend_speed, want);
        }
    }

    #[test]
    fn with_no_weight_the_default_target_passes_bit_for_bit() {
        let mut r = TargetRouter::default();
        let a = Pose::new(
            Vec3::new(0.31, 1.17, -0.43),
            glam::Quat::from_euler(glam::EulerRot::YXZ, 0.7, -0.3, 0.2),
        );
        let b = Pose::new(
            Vec3::new(-0.2, 0.9, 0.1),
            glam::Quat::from_euler(glam::EulerRot::YXZ, -1.1, 0.4, 0.9),
        );
        let (out, _) = r.routed(&a, Some(&b), 1.0 / 90.0);
        assert_eq!(out, a);
    }
}
