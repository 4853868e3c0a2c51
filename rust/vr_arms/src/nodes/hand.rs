//! The `Hand` every class takes: left or right, as GDScript's `VRArms.Hand` (0, 1).

use godot::prelude::*;
use vr_arms_core::Side;

/// A hand. In GDScript `VRArms.Hand.LEFT` (0) and `VRArms.Hand.RIGHT` (1); in the inspector a
/// Left / Right choice. Any other number is refused by the call with Godot's conversion error.
#[derive(GodotConvert, Var, Export, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[godot(via = i64)]
pub enum Hand {
    #[default]
    Left = 0,
    Right = 1,
}

impl Hand {
    /// The core's side of this hand.
    pub fn side(self) -> Side {
        match self {
            Hand::Left => Side::Left,
            Hand::Right => Side::Right,
        }
    }

    /// The other hand.
    pub fn other(self) -> Self {
        match self {
            Hand::Left => Hand::Right,
            Hand::Right => Hand::Left,
        }
    }

    /// The hand on `side`.
    pub fn of(side: Side) -> Self {
        match side {
            Side::Left => Hand::Left,
            Side::Right => Hand::Right,
        }
    }
}
