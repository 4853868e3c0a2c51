//! Fixed-point forms of the values a remote avatar needs: positions to 1/4096 m, rotations as
//! "smallest three" in 32 bits, 0..1 values in 8 or 4 bits. Encoding never fails (non-finite or
//! out-of-range input is clamped or replaced first); decoding checks what can be checked.

use glam::{Quat, Vec3};

use crate::maths::finite::quat_or;

/// Position step (metres): 1/4096 m, so the error is at most 0.12 mm on each axis.
pub const POSITION_STEP_M: f32 = 1.0 / 4096.0;
/// Largest position on each axis (metres): an `i16` of steps, about +-8 m.
pub const POSITION_RANGE_M: f32 = i16::MAX as f32 * POSITION_STEP_M;

/// Bits of each of the three smaller quaternion components.
const ROTATION_BITS: u32 = 10;
const ROTATION_MAX: u32 = (1 << ROTATION_BITS) - 1;
/// Steps each side of zero (zero itself is exact, so the identity is).
const ROTATION_HALF: f32 = ((ROTATION_MAX - 1) / 2) as f32;
/// The three smaller components of a unit quaternion lie within +-1/sqrt(2).
const SMALL_RANGE: f32 = std::f32::consts::FRAC_1_SQRT_2;
/// Slack on the decoded three's squared length: a real encoding stays within it.
const SMALL_SUM_SLACK: f32 = 0.01;

/// A position as three `i16` steps of [POSITION_STEP_M], clamped to [POSITION_RANGE_M].
pub fn encode_position(p: Vec3) -> [i16; 3] {
    p.to_array().map(|c| {
        let c = if c.is_finite() { c } else { 0.0 };
        (c.clamp(-POSITION_RANGE_M, POSITION_RANGE_M) / POSITION_STEP_M).round() as i16
    })
}

pub fn decode_position(q: [i16; 3]) -> Vec3 {
    Vec3::from_array(q.map(|c| c as f32 * POSITION_STEP_M))
}

/// A rotation in 32 bits: which component is largest (2 bits) and the other three (10 bits
/// each), with the sign chosen so the largest is positive. A non-finite rotation is sent as the
/// identity. The error is below 0.25 degrees (0.2 at worst over a sweep of rotations).
pub fn encode_rotation(q: Quat) -> u32 {
    let q = quat_or(q, Quat::IDENTITY).normalize();
    let c = q.to_array();
    let largest = (0..4)
        .max_by(|&a, &b| c[a].abs().total_cmp(&c[b].abs()))
        .unwrap_or(3);
    let sign = if c[largest] < 0.0 { -1.0 } else { 1.0 };
    let mut bits = largest as u32;
    for (i, &v) in c.iter().enumerate() {
        if i == largest {
            continue;
        }
        let steps = ((v * sign / SMALL_RANGE).clamp(-1.0, 1.0) * ROTATION_HALF).round();
        bits = (bits << ROTATION_BITS) | (steps + ROTATION_HALF) as u32;
    }
    bits
}

/// The rotation of [encode_rotation]; `None` when the three components cannot come from a unit
/// quaternion (a corrupt or hostile packet).
pub fn decode_rotation(bits: u32) -> Option<Quat> {
    let largest = (bits >> (3 * ROTATION_BITS)) as usize;
    let mut small = [0.0f32; 3];
    for (k, s) in small.iter_mut().enumerate() {
        let v = (bits >> ((2 - k) as u32 * ROTATION_BITS)) & ROTATION_MAX;
        *s = (v as f32 - ROTATION_HALF) / ROTATION_HALF * SMALL_RANGE;
    }
    let sum: f32 = small.iter().map(|s| s * s).sum();
    if sum > 1.0 + SMALL_SUM_SLACK {
        return None;
    }
    let mut c = [0.0f32; 4];
    let mut next = small.iter();
    for (i, slot) in c.iter_mut().enumerate() {
        *slot = if i == largest {
            (1.0 - sum).max(0.0).sqrt()
        } else {
            *next.next().unwrap_or(&0.0)
        };
    }
    Some(Quat::from_array(c).normalize())
}

/// A 0..1 value in 8 bits (non-finite: 0).
pub fn encode_unit_u8(x: f32) -> u8 {
    let x = if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.0
    };
    (x * 255.0).round() as u8
}

pub fn decode_unit_u8(q: u8) -> f32 {
    q as f32 / 255.0
}

/// A 0..1 value in 4 bits (non-finite: 0): finger curls, where 1/15 is plenty.
pub fn encode_unit_u4(x: f32) -> u8 {
    let x = if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.0
    };
    (x * 15.0).round() as u8
}

pub fn decode_unit_u4(q: u8) -> f32 {
    (q & 0x0f) as f32 / 15.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_within_half_a_step_and_clamp() {
        for p in [
            Vec3::new(0.0, 1.62, 0.0),
            Vec3::new(-0.4123, 1.1, 0.3331),
            Vec3::new(7.9, -7.9, 0.00006),
        ] {
            let back = decode_position(encode_position(p));
            assert!(
                (back - p).abs().max_element() <= POSITION_STEP_M * 0.5 + 1e-6,
                "{p} -> {back}"
            );
        }
        let far = decode_position(encode_position(Vec3::new(100.0, -100.0, f32::NAN)));
        assert_eq!(far, Vec3::new(POSITION_RANGE_M, -POSITION_RANGE_M, 0.0));
    }

    #[test]
    fn rotations_round_trip_within_a_quarter_of_a_degree() {
        let mut worst = 0.0f32;
        for i in 0..2000 {
            let t = i as f32 * 0.37;
            let axis = Vec3::new(t.sin(), (t * 1.7).cos(), (t * 0.3).sin() + 0.1).normalize();
            let q = Quat::from_axis_angle(axis, t * 2.1 % std::f32::consts::TAU);
            for q in [q, -q] {
                let back = decode_rotation(encode_rotation(q)).unwrap();
                worst = worst.max(back.angle_between(q).to_degrees());
            }
        }
        assert!(worst < 0.25, "worst {worst} deg");
        assert_eq!(
            decode_rotation(encode_rotation(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0))),
            Some(Quat::IDENTITY)
        );
    }

    #[test]
    fn three_components_no_unit_quaternion_has_are_refused() {
        // All three at +1/sqrt(2): a squared length of 1.5.
        let bits = (3 << 30) | (ROTATION_MAX << 20) | (ROTATION_MAX << 10) | ROTATION_MAX;
        assert_eq!(decode_rotation(bits), None);
        // Exactly at the edge of what an encoding gives: accepted.
        for edge in [
            Quat::from_xyzw(SMALL_RANGE, 0.0, 0.0, SMALL_RANGE),
            Quat::from_xyzw(0.0, -SMALL_RANGE, 0.0, SMALL_RANGE),
        ] {
            let back = decode_rotation(encode_rotation(edge)).expect("an encoding decodes");
            assert!(
                back.angle_between(edge).to_degrees() < 0.25,
                "{edge} -> {back}"
            );
        }
    }

    #[test]
    fn unit_values_round_trip_and_clamp() {
        assert_eq!(decode_unit_u8(encode_unit_u8(0.5)), 128.0 / 255.0);
        assert_eq!(encode_unit_u8(2.0), 255);
        assert_eq!(encode_unit_u8(f32::NAN), 0);
        assert_eq!(encode_unit_u4(1.0), 15);
        assert_eq!(encode_unit_u4(-1.0), 0);
        assert!((decode_unit_u4(encode_unit_u4(0.4)) - 0.4).abs() <= 0.5 / 15.0);
        assert_eq!(
            decode_unit_u4(0xff),
            1.0,
            "the high nibble is not part of it"
        );
    }
}
