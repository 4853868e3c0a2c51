//! The heel lift: a planted foot that is leaving its place (it steps next) rises on its toes,
//! up to `max_heel_lift_m`, before the hips sink below where the head puts them for its leg to
//! reach it. Walking, the trailing foot then no longer pulls the head off the headset. The lift
//! eases up and down over [`HEEL_LIFT_TIME_S`], so nothing pops as a foot starts to leave its
//! place, lands or starts its step; a foot leaving its place lifts at once as far as its leg
//! needs (the need grows smoothly as the body moves on over the foot).

/// How long a heel takes to lift fully, or to come down (seconds).
pub const HEEL_LIFT_TIME_S: f32 = 0.15;

/// One foot's heel lift across frames: how far it may rise before the hips sink for it (world
/// units), how far it rose last frame, and whether the foot was planted then.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeelLift {
    allowed: f32,
    shown: f32,
    planted: bool,
}

impl HeelLift {
    /// How far the heel may rise now (world units).
    pub fn allowed(&self) -> f32 {
        self.allowed
    }

    /// The foot is planted or stepping this frame: a foot starting its step brings its heel
    /// down from where it is, not from where it may be.
    pub fn track(&mut self, planted: bool) {
        if self.planted && !planted {
            self.allowed = self.shown;
        }
        self.planted = planted;
    }

    /// A planted foot `away` from its place may lift up to `max` (world units), one not away
    /// comes down; `dt` seconds.
    pub fn ease(&mut self, away: bool, max: f32, dt: f32) {
        let goal = if away { max } else { 0.0 };
        self.allowed = crate::maths::smoothing::move_toward(self.allowed, goal, rate(max) * dt);
    }

    /// A planted foot leaving its place lifts its heel at once as far as its leg `need`s (world
    /// units) for the hips to stay where the head puts them, up to `max`: the heel rises as the
    /// body moves on over the foot, never behind it (the head would leave the headset).
    pub fn allow(&mut self, need: f32, max: f32) {
        if need.is_finite() {
            self.allowed = self.allowed.max(need.clamp(0.0, max.max(0.0)));
        }
    }

    /// How far the ankle rises this frame: a planted foot as far as its leg needs (`need`,
    /// world units: how far the hips stand above where the leg reaches it), no further than
    /// allowed; a stepping foot's lift comes down (`max` the largest lift, `dt` seconds).
    pub fn lift(&mut self, planted: bool, need: f32, max: f32, dt: f32) -> f32 {
        if planted {
            self.shown = need.clamp(0.0, self.allowed);
        } else {
            self.allowed = crate::maths::smoothing::move_toward(self.allowed, 0.0, rate(max) * dt);
            self.shown = self.allowed;
        }
        self.shown
    }
}

/// The rate a heel of largest lift `max` lifts and comes down at (world units a second).
fn rate(max: f32) -> f32 {
    max / HEEL_LIFT_TIME_S
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heel_leaving_lifts_at_once_as_far_as_the_leg_needs_no_further_than_its_most() {
        let mut h = HeelLift::default();
        h.track(true);
        h.allow(0.03, 0.08);
        assert_eq!(h.allowed(), 0.03);
        assert_eq!(h.lift(true, 0.03, 0.08, 0.01), 0.03, "shown at once");
        h.allow(0.2, 0.08);
        assert_eq!(h.allowed(), 0.08, "never past its most");
        h.allow(0.01, 0.08);
        assert_eq!(h.allowed(), 0.08, "a smaller need does not bring it down");
        h.allow(f32::NAN, 0.08);
        assert_eq!(h.allowed(), 0.08);
    }

    #[test]
    fn a_heel_eases_up_shows_what_the_leg_needs_and_comes_down_as_the_foot_steps() {
        let mut h = HeelLift::default();
        h.track(true);
        // Leaving its place: up to 8 cm in 0.15 s, not at once.
        h.ease(true, 0.08, 0.05);
        assert!((h.allowed() - 0.08 / 3.0).abs() < 1e-6, "{}", h.allowed());
        for _ in 0..10 {
            h.ease(true, 0.08, 0.05);
        }
        assert_eq!(h.allowed(), 0.08);
        // The leg needs 3 cm: the ankle rises 3 cm; it needs 20: no more than 8.
        assert!((h.lift(true, 0.03, 0.08, 0.01) - 0.03).abs() < 1e-6);
        assert_eq!(h.lift(true, 0.2, 0.08, 0.01), 0.08);
        assert_eq!(h.lift(true, -0.1, 0.08, 0.01), 0.0, "the leg reaches: flat");
        // Starting its step 6 cm up (8 allowed): it comes down from 6, at 8 cm in 0.15 s.
        h.lift(true, 0.06, 0.08, 0.01);
        h.track(false);
        let down = h.lift(false, 0.0, 0.08, 0.075);
        assert!((down - 0.02).abs() < 1e-6, "{down}");
        // Back at its place: the allowance comes down.
        h.track(true);
        h.ease(false, 0.08, 1.0);
        assert_eq!(h.allowed(), 0.0);
    }
}
