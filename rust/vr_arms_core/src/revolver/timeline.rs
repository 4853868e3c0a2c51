//! The cocking timeline (the original design's clip: the gun sweeps back, the hammer turns, the
//! gun returns) and its easing.

/// Ease in-out cubic on 0..1.
pub fn ease_in_out_cubic(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    if t < 0.5 {
        4.0 * t * t * t
    } else {
        1.0 - (-2.0 * t + 2.0).powi(3) / 2.0
    }
}

/// Where the cocking timeline is at normalised time `t` (the original design): the gun sweeps back over
/// 0..0.55 (eased), the hammer rotates over 0.55..0.675, the gun returns over 0.675..1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CockPose {
    /// How far the gun is swept back (0 = at rest, 1 = fully back).
    pub gun_back: f32,
    /// How far the hammer is rotated toward cocked (0..1).
    pub hammer: f32,
}

pub fn cock_pose(t: f32) -> CockPose {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    // Between 0.55 and 0.675 the return's eased input is clamped to 0: the gun stays back.
    let gun_back = if t < 0.55 {
        ease_in_out_cubic(t / 0.55)
    } else {
        1.0 - ease_in_out_cubic((t - 0.675) / 0.325)
    };
    let hammer = ((t - 0.55) / 0.125).clamp(0.0, 1.0);
    CockPose { gun_back, hammer }
}
