//! The recoil layers: a kick with jitter that recovers toward zero, with a magnitude clamp.

use glam::Vec3;
use serde::{Deserialize, Serialize};

/// One recoil layer (arm IK kick, gun mesh kick, or the small hand rotation kick): a kick with
/// jitter that recovers toward zero, with a magnitude clamp.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RecoilLayerSettings {
    /// Position kick per shot (metres, in the layer's space).
    pub position_kick: [f32; 3],
    /// Rotation kick per shot (degrees per axis).
    pub rotation_kick_deg: [f32; 3],
    /// Random extra, as a fraction of the kick (0..1).
    pub jitter: f32,
    /// How fast the offset recovers (1/s).
    pub recovery_speed: f32,
    /// Largest accumulated position offset (metres).
    pub max_position_m: f32,
    /// Largest accumulated rotation offset (degrees per axis).
    pub max_rotation_deg: f32,
}

impl Default for RecoilLayerSettings {
    fn default() -> Self {
        Self {
            position_kick: [0.0, 0.01, 0.03],
            rotation_kick_deg: [8.0, 0.0, 0.0],
            jitter: 0.2,
            recovery_speed: 12.0,
            max_position_m: 0.1,
            max_rotation_deg: 30.0,
        }
    }
}

/// A recoil layer's offset: kicked by shots, recovering exponentially; reports when it has fully
/// recovered so the mesh layer can stop writing its transform (it never fights the hand at rest).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RecoilLayer {
    pub settings: RecoilLayerSettings,
    pub position: Vec3,
    /// Radians per axis.
    pub rotation: Vec3,
}

impl RecoilLayer {
    pub fn new(settings: RecoilLayerSettings) -> Self {
        Self {
            settings,
            ..Default::default()
        }
    }

    /// Adds one kick; `jitter` is three numbers in -1..1 from the caller's random source.
    pub fn kick(&mut self, jitter: Vec3) {
        let s = self.settings;
        let j = crate::maths::finite::vec3_or(jitter, Vec3::ZERO)
            .clamp(Vec3::splat(-1.0), Vec3::splat(1.0))
            * s.jitter;
        let p = Vec3::from_array(s.position_kick);
        let r = Vec3::from_array(s.rotation_kick_deg) * (std::f32::consts::PI / 180.0);
        self.position = crate::maths::finite::vec3_or(
            (self.position + p + p * j).clamp_length_max(s.max_position_m),
            Vec3::ZERO,
        );
        let max = s.max_rotation_deg.to_radians();
        self.rotation = crate::maths::finite::vec3_or(
            (self.rotation + r + r * j).clamp(Vec3::splat(-max), Vec3::splat(max)),
            Vec3::ZERO,
        );
    }

    /// Recovers by `dt`; returns false once fully recovered (offset exactly zero).
    pub fn update(&mut self, dt: f32) -> bool {
        let a = crate::maths::smoothing::exp_alpha(self.settings.recovery_speed, dt);
        self.position -= self.position * a;
        self.rotation -= self.rotation * a;
        if self.position.length_squared() < 1e-10 && self.rotation.length_squared() < 1e-10 {
            self.position = Vec3::ZERO;
            self.rotation = Vec3::ZERO;
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kick_adds_the_layer_kick_scaled_by_its_jitter() {
        let mut layer = RecoilLayer::default();
        // Jitter 0.2 of (0.5, -1, 0): the kick x (1.1, 0.8, 1) per axis.
        layer.kick(Vec3::new(0.5, -1.0, 0.0));
        assert!(
            layer.position.distance(Vec3::new(0.0, 0.008, 0.03)) < 1e-7,
            "{}",
            layer.position
        );
        let want = Vec3::new(8.0 * 1.1, 0.0, 0.0)
            .to_array()
            .map(f32::to_radians);
        assert!(
            layer.rotation.distance(Vec3::from_array(want)) < 1e-6,
            "{}",
            layer.rotation
        );
        // Jitter outside -1..1 is clamped: at most 20 % either way; a NaN in it means none.
        let mut layer = RecoilLayer::default();
        layer.kick(Vec3::new(0.0, 5.0, -3.0));
        assert!(
            layer.position.distance(Vec3::new(0.0, 0.012, 0.024)) < 1e-7,
            "{}",
            layer.position
        );
        let mut layer = RecoilLayer::default();
        layer.kick(Vec3::new(f32::NAN, 5.0, -3.0));
        assert!(
            layer.position.distance(Vec3::new(0.0, 0.01, 0.03)) < 1e-7,
            "{}",
            layer.position
        );
    }

    #[test]
    fn kicks_accumulate_up_to_their_limits() {
        let mut layer = RecoilLayer::default();
        layer.kick(Vec3::ZERO);
        layer.kick(Vec3::ZERO);
        assert!(layer.position.distance(Vec3::new(0.0, 0.02, 0.06)) < 1e-7);
        assert!((layer.rotation.x - 16f32.to_radians()).abs() < 1e-6);
        for _ in 0..10 {
            layer.kick(Vec3::ZERO);
        }
        assert!(
            (layer.position.length() - 0.1).abs() < 1e-6,
            "{}",
            layer.position
        );
        assert!((layer.rotation.x - 30f32.to_radians()).abs() < 1e-6);
        // Kicks the other way stop at the negative limit.
        let mut back = RecoilLayer::new(RecoilLayerSettings {
            rotation_kick_deg: [-12.0, 0.0, 0.0],
            ..Default::default()
        });
        for _ in 0..5 {
            back.kick(Vec3::ZERO);
        }
        assert!((back.rotation.x + 30f32.to_radians()).abs() < 1e-6);
    }

    #[test]
    fn recovery_is_exponential_and_ends_exactly_when_both_parts_are_back() {
        let mut layer = RecoilLayer::default();
        layer.kick(Vec3::ZERO);
        let before = layer.position;
        assert!(layer.update(0.05));
        // exp(-12 x 0.05) of the offset is left.
        let left = (-0.6f32).exp();
        assert!(
            layer.position.distance(before * left) < 1e-7,
            "{}",
            layer.position
        );
        // Position back but rotation still out: still recovering.
        layer.position = Vec3::ZERO;
        assert!(layer.update(0.001));
        let mut frames = 0;
        while layer.update(1.0 / 90.0) {
            frames += 1;
            assert!(frames < 1000);
        }
        assert_eq!((layer.position, layer.rotation), (Vec3::ZERO, Vec3::ZERO));
        // Rotation back but position still out: still recovering.
        layer.position = Vec3::new(0.0, 0.0, 0.01);
        assert!(layer.update(0.001));
    }
}
