//! The ground the feet stand on: the XR origin's flat floor by default, or what the caller
//! finds under a foot's place (a physics ray per foot in the node graph), for steps and ramps.

use glam::Vec3;

/// What is under the feet (world).
pub trait Ground {
    /// The ground's height under `at`'s x and z, looking from `at.y` down to `lowest`; `None`:
    /// nothing there (the flat floor is used).
    fn height_at(&self, at: Vec3, lowest: f32) -> Option<f32>;
}

/// The flat floor alone: nothing found anywhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct FlatFloor;

impl Ground for FlatFloor {
    fn height_at(&self, _at: Vec3, _lowest: f32) -> Option<f32> {
        None
    }
}

/// How far below the floor the ground is looked for (avatar metres): a foot steps down at most
/// this far.
pub const BELOW_FLOOR_M: f32 = 0.5;

/// How far above the floor the ground is looked for (avatar metres, and never above the hips):
/// a stair or a crate, not a table the player stands beside.
pub const ABOVE_FLOOR_M: f32 = 0.4;

/// Puts foot places on the ground: at the height found under them, looked for from `from_y` (the
/// hips), at most [`ABOVE_FLOOR_M`] over the floor, down to [`BELOW_FLOOR_M`] under it; the floor when nothing (or nothing finite,
/// or nothing in that span) is found.
pub struct OnGround<'a> {
    pub ground: &'a dyn Ground,
    pub floor_y: f32,
    pub from_y: f32,
    pub scale: f32,
}

impl OnGround<'_> {
    /// `p` moved onto the ground under it.
    pub fn place(&self, p: Vec3) -> Vec3 {
        let lowest = self.floor_y - BELOW_FLOOR_M * self.scale;
        let top = self
            .from_y
            .min(self.floor_y + ABOVE_FLOOR_M * self.scale)
            .max(self.floor_y);
        let y = self
            .ground
            .height_at(Vec3::new(p.x, top, p.z), lowest)
            .filter(|y| y.is_finite() && (lowest..=top).contains(y))
            .unwrap_or(self.floor_y);
        Vec3::new(p.x, y, p.z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 20 cm step for x > 0, and a ray that answers garbage for z > 5.
    struct Step;
    impl Ground for Step {
        fn height_at(&self, at: Vec3, lowest: f32) -> Option<f32> {
            assert!(at.y > lowest);
            if at.z > 5.0 {
                return Some(f32::NAN);
            }
            (at.x > 0.0).then_some(0.2)
        }
    }

    #[test]
    fn places_go_onto_what_is_found_within_the_span_else_the_floor() {
        let step = Step;
        let mut on = OnGround {
            ground: &step,
            floor_y: 0.0,
            from_y: 0.9,
            scale: 1.0,
        };
        assert_eq!(
            on.place(Vec3::new(0.3, -7.0, 1.0)),
            Vec3::new(0.3, 0.2, 1.0)
        );
        assert_eq!(
            on.place(Vec3::new(-0.3, 4.0, 1.0)),
            Vec3::new(-0.3, 0.0, 1.0)
        );
        assert_eq!(on.place(Vec3::new(0.3, 0.0, 6.0)), Vec3::new(0.3, 0.0, 6.0));
        // Higher than the hips: not a step to take.
        on.from_y = 0.1;
        assert_eq!(on.place(Vec3::new(0.3, 0.0, 1.0)), Vec3::new(0.3, 0.0, 1.0));
        // Higher than 40 cm over the floor (a table beside the player): not a step either.
        on.from_y = 0.9;
        on.floor_y = -0.25;
        assert_eq!(
            on.place(Vec3::new(0.3, 0.0, 1.0)),
            Vec3::new(0.3, -0.25, 1.0)
        );
        on.floor_y = -0.15;
        assert_eq!(on.place(Vec3::new(0.3, 0.0, 1.0)), Vec3::new(0.3, 0.2, 1.0));
        let flat = FlatFloor;
        let on = OnGround {
            ground: &flat,
            floor_y: 1.5,
            from_y: 2.4,
            scale: 1.0,
        };
        assert_eq!(on.place(Vec3::new(1.0, 0.0, 2.0)), Vec3::new(1.0, 1.5, 2.0));
        // Looked for down to half a metre under the floor, in proportion (twice the size: 1 m).
        struct Deep;
        impl Ground for Deep {
            fn height_at(&self, _at: Vec3, lowest: f32) -> Option<f32> {
                Some(lowest + 0.01)
            }
        }
        let deep = Deep;
        let on = OnGround {
            ground: &deep,
            floor_y: 1.0,
            from_y: 2.0,
            scale: 2.0,
        };
        assert!((on.place(Vec3::ZERO).y - 0.01).abs() < 1e-6);
        assert_eq!(FlatFloor.height_at(Vec3::ZERO, -1.0), None);
    }
}
