//! The revolver as data: bullet config, the three recoil layers' settings, the TOML profile.

use serde::{Deserialize, Serialize};

use super::{
    FanSettings, HolsterBeltSettings, HolsterSettings, RecoilLayerSettings, RevolverSettings,
    TwirlSettings,
};
use crate::maths::finite::finite_clamp;

/// The shot's ray and damage (the original design's bullet settings), loadable from TOML.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BulletConfig {
    /// Damage passed to `take_damage(damage, point, normal)`.
    pub damage: f32,
    /// Ray length (metres).
    pub max_range_m: f32,
    /// Physics layers the ray hits.
    pub collision_mask: u32,
    /// Draw the ray and hit point.
    pub debug_draw: bool,
}

impl Default for BulletConfig {
    fn default() -> Self {
        Self {
            damage: 25.0,
            max_range_m: 100.0,
            collision_mask: 1,
            debug_draw: false,
        }
    }
}

/// Everything about the revolver as data: `[revolver]`, `[fanning]` (with the drop safety),
/// `[twirl]`, `[bullet]`, `[recoil.arm]`, `[recoil.mesh]`, `[recoil.hand]`, and the holster it is
/// drawn from: `[holster]`, `[holster_belt]`. Each node loads and saves its own sections and keeps the others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RevolverProfile {
    pub revolver: RevolverSettings,
    pub fanning: FanSettings,
    pub twirl: TwirlSettings,
    pub bullet: BulletConfig,
    pub recoil: RecoilLayers,
    pub holster: HolsterSettings,
    pub holster_belt: HolsterBeltSettings,
}

/// The three recoil layers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RecoilLayers {
    pub arm: RecoilLayerSettings,
    pub mesh: RecoilLayerSettings,
    pub hand: RecoilLayerSettings,
}

impl Default for RecoilLayers {
    fn default() -> Self {
        Self {
            arm: RecoilLayerSettings {
                position_kick: [0.0, 0.03, 0.06],
                rotation_kick_deg: [18.0, 0.0, 0.0],
                recovery_speed: 10.0,
                ..Default::default()
            },
            mesh: RecoilLayerSettings {
                position_kick: [0.0, 0.0, 0.02],
                rotation_kick_deg: [6.0, 0.0, 0.0],
                recovery_speed: 18.0,
                max_position_m: 0.04,
                ..Default::default()
            },
            hand: RecoilLayerSettings {
                position_kick: [0.0, 0.0, 0.0],
                rotation_kick_deg: [4.0, 0.0, 0.0],
                recovery_speed: 14.0,
                ..Default::default()
            },
        }
    }
}

impl RevolverProfile {
    pub fn from_toml_str(text: &str) -> Result<Self, crate::toml_file::ProfileError> {
        crate::toml_file::parse_toml::<RevolverProfile>(text).map(|mut p| {
            p.revolver.validate();
            p.fanning.validate();
            p.twirl.validate();
            p.bullet.max_range_m = finite_clamp(p.bullet.max_range_m, 0.0, 10_000.0, 100.0);
            p.bullet.damage = finite_clamp(p.bullet.damage, 0.0, 1e6, 25.0);
            p.holster.validate();
            p.holster_belt.validate();
            p
        })
    }

    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod recoil_tests {
    use super::*;
    use crate::revolver::RecoilLayer;
    use glam::Vec3;

    #[test]
    fn recoil_layer_kicks_recovers_and_stops_writing() {
        let mut l = RecoilLayer::new(RecoilLayers::default().mesh);
        assert!(!l.update(0.01), "at rest it does not write");
        l.kick(Vec3::ZERO);
        assert!(l.position.z > 0.0 && l.rotation.x > 0.0);
        let mut frames = 0;
        while l.update(1.0 / 90.0) {
            frames += 1;
            assert!(frames < 10_000);
        }
        assert_eq!(l.position, Vec3::ZERO);
        for _ in 0..100 {
            l.kick(Vec3::ONE);
        }
        assert!(
            l.position.length() <= l.settings.max_position_m + 1e-6,
            "clamped"
        );
    }

    #[test]
    fn revolver_profile_round_trip_and_bad_line() {
        let mut p = RevolverProfile::default();
        p.bullet.damage = 40.0;
        p.revolver.auto_holster_distance_m = 0.25;
        p.holster.zone_radius_m = 0.2;
        p.holster_belt.default_head_height_m = 1.6;
        p.fanning.transfer_bar = true;
        p.twirl.flick_speed_rad_s = 12.0;
        let back = RevolverProfile::from_toml_str(&p.to_toml_string()).unwrap();
        assert_eq!(back, p);
        let e = RevolverProfile::from_toml_str("[bullet]\ndamage = 10\nrange = 5\n").unwrap_err();
        assert_eq!(e.line, Some(3));
    }

    /// The revolver profile the addon ships is the defaults, written out.
    #[test]
    fn shipped_profile_is_the_defaults() {
        let text = include_str!("../../../../addons/vr_arms/profiles/revolver.toml");
        assert_eq!(
            RevolverProfile::from_toml_str(text).unwrap(),
            RevolverProfile::default()
        );
    }
}
