//! A bad network, made on purpose in the receiving path for tests: a share of the state packets
//! dropped and the rest delayed by a random extra time. (The test machine's own network cannot
//! be shaped.) Deterministic: the same seed drops and delays the same packets.

use crate::maths::jitter::next_unit;

/// How bad the network is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impairment {
    /// Share of packets dropped, 0..1.
    pub drop_ratio: f32,
    /// Largest extra delay (seconds); each packet gets a uniform share of it.
    pub max_extra_delay_s: f32,
    rng: u32,
}

impl Impairment {
    pub fn new(drop_ratio: f32, max_extra_delay_s: f32, seed: u32) -> Self {
        let clean = |x: f32, hi: f32| if x.is_finite() { x.clamp(0.0, hi) } else { 0.0 };
        Self {
            drop_ratio: clean(drop_ratio, 1.0),
            max_extra_delay_s: clean(max_extra_delay_s, 10.0),
            rng: seed.max(1),
        }
    }

    /// Whether the network makes no change at all.
    pub fn is_clean(&self) -> bool {
        self.drop_ratio <= 0.0 && self.max_extra_delay_s <= 0.0
    }

    /// For a packet received at `now_s`: when to deliver it, or `None` to drop it.
    pub fn admit(&mut self, now_s: f64) -> Option<f64> {
        // `next_unit` is -1..1; these are 0..1.
        let mut draw = || (next_unit(&mut self.rng) + 1.0) * 0.5;
        let dropped = draw() < self.drop_ratio;
        let extra = draw() * self.max_extra_delay_s;
        (!dropped).then_some(now_s + extra as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_about_the_share_and_delays_within_the_bound() {
        let mut n = Impairment::new(0.1, 0.05, 7);
        let admitted: Vec<f64> = (0..10_000).filter_map(|i| n.admit(i as f64)).collect();
        let dropped = 10_000 - admitted.len();
        assert!((800..1200).contains(&dropped), "{dropped}");
        let delays: Vec<f64> = (0..10_000)
            .filter_map(|_| Impairment::new(0.0, 0.05, 3).admit(1.0).map(|t| t - 1.0))
            .collect();
        assert!(delays.iter().all(|d| (0.0..=0.05).contains(d)));
        let mut spread = Impairment::new(0.0, 0.05, 11);
        let d: Vec<f64> = (0..1000).map(|_| spread.admit(0.0).unwrap()).collect();
        assert!(
            d.iter().cloned().fold(0.0, f64::max) > 0.045,
            "uses the range"
        );
        assert!(d.iter().cloned().fold(1.0, f64::min) < 0.005);
    }

    #[test]
    fn clean_and_bad_settings() {
        let mut clean = Impairment::new(0.0, 0.0, 0);
        assert!(clean.is_clean());
        assert_eq!(clean.admit(2.5), Some(2.5));
        let n = Impairment::new(f32::NAN, -1.0, 1);
        assert_eq!((n.drop_ratio, n.max_extra_delay_s), (0.0, 0.0));
        assert!(!Impairment::new(0.1, 0.0, 1).is_clean());
    }
}
