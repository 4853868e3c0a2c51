//! The holster's settings as data: the draw zone and the belt that carries it.

use serde::{Deserialize, Serialize};

use crate::maths::finite::finite_clamp;

/// The draw zone around a holster's anchor (`[holster]`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HolsterSettings {
    /// Radius of the zone around the anchor in which a hand can draw (metres, 0.02..0.5).
    pub zone_radius_m: f32,
}

impl Default for HolsterSettings {
    fn default() -> Self {
        Self {
            zone_radius_m: 0.14,
        }
    }
}

impl HolsterSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.zone_radius_m = finite_clamp(self.zone_radius_m, 0.02, 0.5, d.zone_radius_m);
    }
}

/// The belt that carries the holsters at the hips (`[holster_belt]`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HolsterBeltSettings {
    /// Where the belt hangs between the head (0) and the floor (1); 0.3..0.5 is a belt.
    pub belt_height_offset: f32,
    /// Physics layers the floor ray hits.
    pub floor_mask: u32,
    /// Head height above the floor used when the ray finds no floor (metres, 0.5..3).
    pub default_head_height_m: f32,
}

impl Default for HolsterBeltSettings {
    fn default() -> Self {
        Self {
            belt_height_offset: 0.45,
            floor_mask: 1,
            default_head_height_m: 1.8,
        }
    }
}

impl HolsterBeltSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.belt_height_offset =
            finite_clamp(self.belt_height_offset, 0.0, 1.0, d.belt_height_offset);
        self.default_head_height_m = finite_clamp(
            self.default_head_height_m,
            0.5,
            3.0,
            d.default_head_height_m,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_validated() {
        let mut h = HolsterSettings {
            zone_radius_m: f32::NAN,
        };
        h.validate();
        assert_eq!(h.zone_radius_m, 0.14);
        h.zone_radius_m = 2.0;
        h.validate();
        assert_eq!(h.zone_radius_m, 0.5);
        let mut b = HolsterBeltSettings {
            belt_height_offset: -1.0,
            floor_mask: 5,
            default_head_height_m: f32::INFINITY,
        };
        b.validate();
        assert_eq!((b.belt_height_offset, b.floor_mask), (0.0, 5));
        assert_eq!(b.default_head_height_m, 1.8);
    }
}
