//! Frame-rate independent smoothing, written once.
//!
//! Exponential smoothing toward a goal with a `rate` (1/s) uses `alpha = 1 - exp(-rate * dt)`:
//! two frames of `dt/2` give exactly the same result as one frame of `dt` when the goal is
//! constant, so 72, 90, 120 and 144 Hz converge alike.

/// Blend factor for exponential smoothing at `rate` (1/s) over `dt` (s). Always in `0..=1`;
/// `dt <= 0` or non-finite gives 0 (no change), as does a rate `<= 0` or NaN; an infinite or huge
/// rate gives 1 (snap).
#[inline]
pub fn exp_alpha(rate: f32, dt: f32) -> f32 {
    if !dt.is_finite() || dt <= 0.0 || rate.is_nan() || rate <= 0.0 {
        return 0.0;
    }
    let a = 1.0 - (-rate * dt).exp();
    if a.is_finite() {
        a.clamp(0.0, 1.0)
    } else {
        1.0
    }
}

/// Linear map of `x` from `a..b` onto `0..=1`, clamped; a degenerate range acts as a step at `a`.
#[inline]
pub fn inverse_lerp_clamped(a: f32, b: f32, x: f32) -> f32 {
    let span = b - a;
    if span.abs() < 1e-9 {
        return if x >= a { 1.0 } else { 0.0 };
    }
    ((x - a) / span).clamp(0.0, 1.0)
}

/// The smoothstep of `t` in `0..=1` (the caller clamps): eases in and out, 0 at 0, 1 at 1.
#[inline]
pub fn smoothstep(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// `x` moved toward `goal` by at most `step` (a blend weight easing in or out). A negative step
/// moves nothing, a non-finite one all the way; a non-finite `x` or `goal` gives 0.
#[inline]
pub fn move_toward(x: f32, goal: f32, step: f32) -> f32 {
    if !(x.is_finite() && goal.is_finite()) {
        return 0.0;
    }
    let step = if step.is_finite() {
        step.max(0.0)
    } else {
        f32::INFINITY
    };
    x + (goal - x).clamp(-step, step)
}

/// A point's velocity across frames, smoothed exponentially (frame-rate independent): the
/// headset's walk, a seated head's stillness.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SmoothedVelocity {
    last: Option<glam::Vec3>,
    velocity: glam::Vec3,
}

impl SmoothedVelocity {
    /// The smoothed velocity so far (units of `at` a second).
    pub fn get(&self) -> glam::Vec3 {
        self.velocity
    }

    /// One frame of `dt` seconds with the point at `at`, smoothed over `time_s` seconds (to
    /// 63 %); returns the velocity. A non-finite point changes nothing; a frame without time
    /// moves no velocity, and a velocity that overflows is forgotten (zero).
    pub fn update(&mut self, at: glam::Vec3, dt: f32, time_s: f32) -> glam::Vec3 {
        if !at.is_finite() {
            return self.velocity;
        }
        if let Some(last) = self.last
            && dt.is_finite()
            && dt > 0.0
        {
            let k = exp_alpha(1.0 / time_s, dt);
            self.velocity += ((at - last) / dt - self.velocity) * k;
            if !self.velocity.is_finite() {
                self.velocity = glam::Vec3::ZERO;
            }
        }
        self.last = Some(at);
        self.velocity
    }
}

/// The bracket `lo..hi` halved `steps` times toward where `holds` stops holding, for a `holds`
/// that holds from `lo` up to some point and not beyond (the caller has checked the ends):
/// returns the last bracket, `lo` still holding, `hi` not.
pub fn bisect(mut lo: f32, mut hi: f32, steps: u32, holds: impl Fn(f32) -> bool) -> (f32, f32) {
    for _ in 0..steps {
        let mid = 0.5 * (lo + hi);
        if holds(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A point moving at 1 m/s: the velocity comes up to it frame-rate independently, a
    /// non-finite point is ignored and the first frame has no velocity.
    #[test]
    fn a_smoothed_velocity_follows_a_moving_point() {
        let run = |hz: usize| {
            let mut v = SmoothedVelocity::default();
            let dt = 1.0 / hz as f32;
            assert_eq!(v.update(glam::Vec3::ZERO, dt, 0.3), glam::Vec3::ZERO);
            for k in 1..=hz / 2 {
                v.update(glam::Vec3::X * (k as f32 * dt), dt, 0.3);
            }
            v.get().x
        };
        let (slow, fast) = (run(72), run(144));
        // Half a second of a 0.3 s smoothing: 1 - e^(-5/3) = 0.81 of the speed.
        assert!(
            (slow - 0.811).abs() < 0.01 && (fast - slow).abs() < 1e-3,
            "{slow} {fast}"
        );
        let mut v = SmoothedVelocity::default();
        v.update(glam::Vec3::ZERO, 0.1, 0.3);
        v.update(glam::Vec3::X, 0.1, 0.3);
        let before = v;
        v.update(glam::Vec3::NAN, 0.1, 0.3);
        assert_eq!(v, before);
    }

    #[test]
    fn alpha_is_frame_rate_independent() {
        let rate = 18.0;
        let one = exp_alpha(rate, 1.0 / 60.0);
        let half = exp_alpha(rate, 1.0 / 120.0);
        // Remaining distance after two half steps equals the remaining after one full step.
        let remaining_two = (1.0 - half) * (1.0 - half);
        assert!((remaining_two - (1.0 - one)).abs() < 1e-6);
    }

    #[test]
    fn alpha_handles_bad_time() {
        assert_eq!(exp_alpha(10.0, 0.0), 0.0);
        assert_eq!(exp_alpha(10.0, -1.0), 0.0);
        assert_eq!(exp_alpha(10.0, f32::NAN), 0.0);
        assert_eq!(exp_alpha(f32::INFINITY, 0.01), 1.0);
        assert!(exp_alpha(10.0, 1000.0) <= 1.0);
    }

    #[test]
    fn inverse_lerp_clamps() {
        assert_eq!(inverse_lerp_clamped(0.25, 0.65, 0.0), 0.0);
        assert_eq!(inverse_lerp_clamped(0.25, 0.65, 1.0), 1.0);
        assert!((inverse_lerp_clamped(0.0, 2.0, 1.0) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn alpha_refuses_bad_steps_and_rates_and_snaps_for_infinite_rates() {
        for dt in [0.0, -0.1, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(exp_alpha(10.0, dt), 0.0, "dt {dt}");
        }
        for rate in [0.0, -5.0, f32::NAN, f32::NEG_INFINITY] {
            assert_eq!(exp_alpha(rate, 0.01), 0.0, "rate {rate}");
        }
        assert_eq!(exp_alpha(f32::INFINITY, 0.01), 1.0);
        assert!((exp_alpha(10.0, 0.1) - (1.0 - (-1.0f32).exp())).abs() < 1e-6);
    }

    #[test]
    fn a_degenerate_range_is_a_step_at_its_start() {
        // A span below 1e-9 is degenerate, even when not exactly zero.
        assert_eq!(inverse_lerp_clamped(0.0, 1e-10, 5e-11), 1.0);
        assert_eq!(inverse_lerp_clamped(2.0, 2.0, 2.0), 1.0);
        assert_eq!(inverse_lerp_clamped(2.0, 2.0, 1.9), 0.0);
        assert_eq!(inverse_lerp_clamped(2.0, 2.0, 2.1), 1.0);
    }
}
