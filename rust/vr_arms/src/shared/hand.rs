//! The `Hand` every class takes: left or right, as GDScript's `VRArms.Hand` (0, 1).

use godot::prelude::*;
use vr_arms_core::Side;

/// A hand. In GDScript `VRArms.Hand.LEFT` (0) and `VRArms.Hand.RIGHT` (1); in the inspector a
/// Left / Right choice. Any other number passed to a method is refused by the call with Godot's
/// conversion error; set as a `hand` property it is one error and the property keeps its value
/// ([Hand::checked]).
#[derive(GodotConvert, Export, Clone, Copy, Debug, Default, PartialEq, Eq)]
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

    /// The hand numbered `value` (0 left, 1 right); another number is one error, and `keep`
    /// stays. For `hand` properties, which Godot sets with a plain int.
    pub fn checked(value: i64, keep: Hand) -> Hand {
        match value {
            0 => Hand::Left,
            1 => Hand::Right,
            _ => {
                godot_error!(
                    "hand must be VRArms.Hand.LEFT (0) or VRArms.Hand.RIGHT (1), not {value}; \
                     it stays {keep:?}"
                );
                keep
            }
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

// A `hand` property set to a number that is no hand is one error and keeps its value.
crate::shared::int_enum::checked_int_var!(Hand);

/// Five finger curls (thumb, index, middle, ring, little) from a script: `Some(None)` for an
/// empty array (hand tracking ends), `None` (with one error naming `who`) for any other length.
pub fn tracked_curls_arg(who: &str, curls: &PackedFloat32Array) -> Option<Option<[f32; 5]>> {
    match curls.as_slice() {
        [] => Some(None),
        &[a, b, c, d, e] => Some(Some([a, b, c, d, e])),
        other => {
            godot_error!(
                "{who}.set_tracked_finger_curls: five curls (thumb, index, middle, ring, little) or none, not {}",
                other.len()
            );
            None
        }
    }
}
