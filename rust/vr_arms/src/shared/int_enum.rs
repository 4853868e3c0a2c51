//! Enum properties Godot sets with a plain int (`hand`, `detail`): a number that is no variant
//! is one error and the property keeps its value. The derived conversion would panic in the
//! setter (a backtrace, and a script error that stops the caller).

/// Implements `Var` for `$ty` (a `Copy` enum, `via = i64`) through its
/// `checked(value: i64, keep: $ty) -> $ty`, which says what is wrong and returns `keep`.
macro_rules! checked_int_var {
    ($ty:ty) => {
        impl godot::register::property::Var for $ty {
            type PubType = $ty;

            fn var_get(field: &Self) -> i64 {
                *field as i64
            }

            fn var_set(field: &mut Self, value: i64) {
                *field = <$ty>::checked(value, *field);
            }

            fn var_pub_get(field: &Self) -> $ty {
                *field
            }

            fn var_pub_set(field: &mut Self, value: $ty) {
                *field = value;
            }
        }
    };
}

pub(crate) use checked_int_var;
