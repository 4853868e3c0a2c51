//! Which arm.

use serde::{Deserialize, Serialize};

/// Which arm. Body space (see [`crate::maths::body_frame`]) has the character's left at +X.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Left, Side::Right];

    /// +1 for the left arm, -1 for the right: multiply a body-space X by it to get "outward".
    #[inline]
    pub fn sign(self) -> f32 {
        match self {
            Side::Left => 1.0,
            Side::Right => -1.0,
        }
    }

    /// 0 for left, 1 for right.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Side::Left => 0,
            Side::Right => 1,
        }
    }

    /// `"left"` or `"right"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// A value per arm, indexed by [`Side`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PerSide<T> {
    pub left: T,
    pub right: T,
}

impl<T> PerSide<T> {
    pub fn new(left: T, right: T) -> Self {
        Self { left, right }
    }

    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Left => &self.left,
            Side::Right => &self.right,
        }
    }

    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Left => &mut self.left,
            Side::Right => &mut self.right,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_have_their_index_name_and_sign() {
        assert_eq!((Side::Left.index(), Side::Right.index()), (0, 1));
        assert_eq!((Side::Left.name(), Side::Right.name()), ("left", "right"));
        assert_eq!((Side::Left.sign(), Side::Right.sign()), (1.0, -1.0));
    }
}
