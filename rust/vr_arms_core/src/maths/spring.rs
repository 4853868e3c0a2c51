//! A critically damped spring, integrated exactly, so any frame rate gives the same motion.
//!
//! For a constant goal the closed-form step of `x'' = -w^2 (x - goal) - 2 w x'` is used (as in
//! Game Programming Gems 4's SmoothDamp, without its approximation of the exponential): two steps
//! of `dt/2` land exactly where one step of `dt` does.

/// Position and velocity of a 1-D critically damped spring.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CriticalSpring {
    pub value: f32,
    pub velocity: f32,
}

/// `omega` (1/s) for a spring that covers 90 % of a step in `time_s` seconds.
pub fn omega_for_90_percent(time_s: f32) -> f32 {
    // 1 - (1 + u) e^-u = 0.9 at u = 3.8897.
    3.889_72 / time_s.max(1e-4)
}

impl CriticalSpring {
    pub fn new(value: f32) -> Self {
        Self {
            value,
            velocity: 0.0,
        }
    }

    /// Advances toward `goal` by `dt` seconds with stiffness `omega` (1/s); the speed is limited
    /// to `max_speed` (units per second). Non-finite or non-positive `dt` changes nothing.
    pub fn step(&mut self, goal: f32, omega: f32, max_speed: f32, dt: f32) -> f32 {
        if !(dt.is_finite() && dt > 0.0 && goal.is_finite() && omega.is_finite()) {
            return self.value;
        }
        let x = self.value - goal;
        let decay = (-omega * dt).exp();
        let temp = (self.velocity + omega * x) * dt;
        let mut velocity = (self.velocity - omega * temp) * decay;
        let mut next = goal + (x + temp) * decay;
        let limit = max_speed.abs() * dt;
        // An infinite or NaN `max_speed` gives a limit no step exceeds: no clamp.
        if (next - self.value).abs() > limit {
            next = self.value + (next - self.value).clamp(-limit, limit);
        }
        // The velocity keeps to the limit too, even when this step's average speed did.
        if max_speed.is_finite() {
            velocity = velocity.clamp(-max_speed.abs(), max_speed.abs());
        }
        if next.is_finite() && velocity.is_finite() {
            self.value = next;
            self.velocity = velocity;
        } else {
            *self = Self::new(goal);
        }
        self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_ninety_percent_at_the_set_time() {
        let mut s = CriticalSpring::new(0.0);
        let omega = omega_for_90_percent(0.2);
        let mut t = 0.0;
        while t < 0.2 - 1e-6 {
            s.step(1.0, omega, f32::INFINITY, 0.001);
            t += 0.001;
        }
        assert!((s.value - 0.9).abs() < 0.01, "{}", s.value);
    }

    #[test]
    fn frame_rate_independent_and_never_overshoots() {
        let run = |hz: f32| {
            let mut s = CriticalSpring::new(0.0);
            let omega = omega_for_90_percent(0.2);
            let mut max: f32 = 0.0;
            for _ in 0..(hz as usize) {
                max = max.max(s.step(1.0, omega, f32::INFINITY, 1.0 / hz));
            }
            (s.value, max)
        };
        let (a, max_a) = run(72.0);
        let (b, _) = run(144.0);
        assert!((a - b).abs() < 1e-4);
        assert!(max_a <= 1.0 + 1e-6);
    }

    #[test]
    fn speed_limit_and_bad_input() {
        let mut s = CriticalSpring::new(0.0);
        s.step(100.0, 50.0, 2.0, 0.5);
        assert!(s.value <= 1.0 + 1e-6);
        let before = s;
        s.step(f32::NAN, 10.0, 1.0, 0.1);
        assert_eq!(s, before);
        s.step(1.0, 10.0, 1.0, -1.0);
        assert_eq!(s, before);
    }

    #[test]
    fn the_speed_limit_holds_each_way() {
        let omega = omega_for_90_percent(0.2);
        let mut s = CriticalSpring::new(0.0);
        assert!((s.step(10.0, omega, 1.0, 0.125) - 0.125).abs() < 1e-6);
        assert!(s.velocity <= 1.0 + 1e-6);
        let mut s = CriticalSpring::new(5.0);
        assert!(
            (s.step(-10.0, omega, 2.0, 0.125) - 4.75).abs() < 1e-6,
            "{}",
            s.value
        );
        assert!(
            s.velocity >= -2.0 - 1e-6 && s.velocity < -1.0,
            "{}",
            s.velocity
        );
        // The end velocity keeps to the limit even when the step's average speed is under it:
        // from rest toward 1 with omega 1 over 1 s, the step is about 0.264 and the end velocity
        // about 0.368.
        let mut free = CriticalSpring::new(0.0);
        free.step(1.0, 1.0, f32::INFINITY, 1.0);
        let mut limited = CriticalSpring::new(0.0);
        limited.step(1.0, 1.0, 0.3, 1.0);
        assert!((free.value - 0.264_241).abs() < 1e-5 && (free.velocity - 0.367_879).abs() < 1e-5);
        assert_eq!((limited.value, limited.velocity), (free.value, 0.3));
        // A NaN limit limits nothing.
        let mut free = CriticalSpring::new(5.0);
        let mut nan = CriticalSpring::new(5.0);
        free.step(-10.0, omega, f32::INFINITY, 0.125);
        nan.step(-10.0, omega, f32::NAN, 0.125);
        assert_eq!(free, nan);
    }

    #[test]
    fn the_speed_limit_holds_from_anywhere() {
        // From 5 toward 10 at 2 units per second: 0.2 a tenth of a second, not a jump.
        let mut s = CriticalSpring::new(5.0);
        let v = s.step(10.0, 50.0, 2.0, 0.1);
        assert!((v - 5.2).abs() < 1e-5, "{v}");
        // And from -5 toward -10.
        let mut s = CriticalSpring::new(-5.0);
        let v = s.step(-10.0, 50.0, 2.0, 0.1);
        assert!((v + 5.2).abs() < 1e-5, "{v}");
        // Across zero (from -0.1 to +0.1, a stiff spring): still 0.01 in the step, not a jump.
        let mut s = CriticalSpring::new(-0.1);
        let v = s.step(0.1, 1000.0, 0.1, 0.1);
        assert!((v + 0.09).abs() < 1e-6, "{v}");
    }

    #[test]
    fn a_step_of_no_time_changes_nothing_exactly() {
        // Far from its goal: the closed form at dt = 0 would round the value (0.1 + 1000 - 1000).
        let mut s = CriticalSpring {
            value: 0.1,
            velocity: 0.7,
        };
        for max_speed in [f32::INFINITY, 1.0] {
            assert_eq!(s.step(1000.0, 20.0, max_speed, 0.0), 0.1);
            assert_eq!((s.value, s.velocity), (0.1, 0.7));
        }
    }
}
