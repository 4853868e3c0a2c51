//! The single-action hammer: its travel from down to full cock, the notches its sear catches in,
//! the thumb that draws it back (continuously, from a stick or the thumb's travel), and the
//! trigger that lets it fall.
//!
//! ```text
//! travel  0.0        0.15           0.45              1.0
//!         Down  ->   Safety   ->    HalfCock   ->     FullCock
//! ```
//!
//! Drawing the hammer back clicks into each notch it passes. Let go, it falls forward to the
//! highest notch it passed (the sear catches there); from full cock it stays. The trigger at full
//! cock lets it fall all the way: a shot. At half-cock or the safety notch the trigger does
//! nothing (the sear sits in a notch the trigger cannot release). Lowering it from full cock:
//! hold the trigger and let the thumb ease it down; let go of the thumb on the way and it falls.

use serde::{Deserialize, Serialize};

/// Where the hammer rests. The numbers are GDScript's `VRArms.HammerPosition`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum HammerPosition {
    Down = 0,
    Safety = 1,
    HalfCock = 2,
    FullCock = 3,
}

impl HammerPosition {
    pub const ALL: [HammerPosition; 4] = [
        HammerPosition::Down,
        HammerPosition::Safety,
        HammerPosition::HalfCock,
        HammerPosition::FullCock,
    ];

    /// The travel (0 down .. 1 full cock) at which the sear catches this notch.
    pub fn travel(self) -> f32 {
        match self {
            HammerPosition::Down => 0.0,
            HammerPosition::Safety => 0.15,
            HammerPosition::HalfCock => 0.45,
            HammerPosition::FullCock => 1.0,
        }
    }

    /// The highest notch at or below `travel`.
    pub fn caught_at(travel: f32) -> HammerPosition {
        Self::ALL
            .into_iter()
            .rev()
            .find(|n| travel >= n.travel())
            .unwrap_or(HammerPosition::Down)
    }
}

/// What the hammer did in one step, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HammerEvent {
    /// It clicked into (or came to rest at) a notch.
    Moved(HammerPosition),
    /// It arrived at full cock from below: the hand (pawl) has turned the cylinder one chamber.
    Indexed,
    /// It fell from full cock (or slipped from the thumb while the trigger was held) onto the
    /// firing pin: the chamber under it fires if it holds a live round.
    Fell,
}

/// The hammer's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hammer {
    /// Where it is now, 0 down .. 1 full cock.
    travel: f32,
    /// The notch that holds it when the thumb lets go.
    notch: HammerPosition,
    /// Whether a thumb holds it (its travel then follows the thumb).
    thumbed: bool,
}

impl Default for Hammer {
    fn default() -> Self {
        Self {
            travel: 0.0,
            notch: HammerPosition::Down,
            thumbed: false,
        }
    }
}

impl Hammer {
    /// The notch it rests in (or would fall back to if the thumb let go now).
    pub fn position(&self) -> HammerPosition {
        self.notch
    }

    /// Travel now, 0 down .. 1 full cock: for the hammer's animation.
    pub fn travel(&self) -> f32 {
        self.travel
    }

    /// Whether a thumb is on it.
    pub fn thumbed(&self) -> bool {
        self.thumbed
    }

    /// Puts it at a notch at once (a gun made ready by the game, a reset).
    pub fn set_position(&mut self, notch: HammerPosition) {
        self.notch = notch;
        self.travel = notch.travel();
        self.thumbed = false;
    }

    /// The thumb holds the hammer at `travel` (0..1; not finite: where it is). Drawing it back
    /// clicks into every notch it passes; with `trigger_held` the sear does not catch, so the
    /// hammer can be eased down (and at the bottom it rests down). `can_full_cock` false (the
    /// loading gate is open) stops it short of full cock. Pushes what happened into `events`.
    pub fn thumb(
        &mut self,
        travel: f32,
        trigger_held: bool,
        can_full_cock: bool,
        events: &mut Vec<HammerEvent>,
    ) {
        let limit = if can_full_cock {
            1.0
        } else {
            // Just short of the full-cock notch: it does not catch.
            HammerPosition::FullCock.travel() - 1e-3
        };
        let travel = if travel.is_finite() {
            travel.clamp(0.0, limit)
        } else {
            self.travel.min(limit)
        };
        self.thumbed = true;
        if trigger_held {
            // The trigger holds the sear off every notch: the hammer goes where the thumb is.
            // Drawn all the way back the hand still turns the cylinder (slip-gunning).
            if travel >= HammerPosition::FullCock.travel() && self.travel < travel {
                events.push(HammerEvent::Indexed);
            }
            self.travel = travel;
            let now = HammerPosition::caught_at(travel);
            if now != self.notch && now < self.notch {
                self.notch = now;
                events.push(HammerEvent::Moved(now));
            }
            return;
        }
        if travel > self.travel {
            let reached = HammerPosition::caught_at(travel);
            if reached > self.notch {
                for n in HammerPosition::ALL {
                    if n > self.notch && n <= reached {
                        events.push(HammerEvent::Moved(n));
                        if n == HammerPosition::FullCock {
                            events.push(HammerEvent::Indexed);
                        }
                    }
                }
                self.notch = reached;
            }
        }
        // Without the trigger the sear holds it in its notch: the thumb can ease it back down no
        // further than that.
        self.travel = travel.max(self.notch.travel());
    }

    /// The thumb lets go: the hammer falls to the notch that holds it. With `trigger_held` no
    /// notch holds it: from above the safety notch it falls onto the pin.
    pub fn release(&mut self, trigger_held: bool, events: &mut Vec<HammerEvent>) {
        if !self.thumbed {
            return;
        }
        self.thumbed = false;
        if trigger_held && self.travel > HammerPosition::Safety.travel() {
            self.fall(events);
            return;
        }
        if trigger_held {
            // Eased almost all the way down: it settles down without a blow.
            self.set_down(events);
            return;
        }
        self.travel = self.notch.travel();
    }

    /// The trigger is pulled (its sear-release point reached). Only at full cock, with no thumb
    /// holding it, does the hammer fall. Returns whether it fell.
    pub fn trigger(&mut self, events: &mut Vec<HammerEvent>) -> bool {
        if self.notch == HammerPosition::FullCock && !self.thumbed {
            self.fall(events);
            true
        } else {
            false
        }
    }

    fn fall(&mut self, events: &mut Vec<HammerEvent>) {
        self.travel = 0.0;
        if self.notch != HammerPosition::Down {
            self.notch = HammerPosition::Down;
            events.push(HammerEvent::Moved(HammerPosition::Down));
        }
        events.push(HammerEvent::Fell);
    }

    fn set_down(&mut self, events: &mut Vec<HammerEvent>) {
        self.travel = 0.0;
        if self.notch != HammerPosition::Down {
            self.notch = HammerPosition::Down;
            events.push(HammerEvent::Moved(HammerPosition::Down));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use HammerEvent::*;
    use HammerPosition::*;

    fn thumb(h: &mut Hammer, travel: f32, trigger: bool) -> Vec<HammerEvent> {
        let mut e = Vec::new();
        h.thumb(travel, trigger, true, &mut e);
        e
    }

    #[test]
    fn drawing_it_back_clicks_each_notch_in_turn_and_full_cock_indexes() {
        let mut h = Hammer::default();
        assert_eq!(thumb(&mut h, 0.1, false), vec![]);
        assert_eq!(thumb(&mut h, 0.2, false), vec![Moved(Safety)]);
        assert_eq!(thumb(&mut h, 0.5, false), vec![Moved(HalfCock)]);
        assert_eq!(thumb(&mut h, 0.99, false), vec![]);
        assert_eq!(h.position(), HalfCock);
        assert_eq!(thumb(&mut h, 1.0, false), vec![Moved(FullCock), Indexed]);
        // One sweep from down past every notch says each, in order.
        let mut h = Hammer::default();
        assert_eq!(
            thumb(&mut h, 1.0, false),
            vec![Moved(Safety), Moved(HalfCock), Moved(FullCock), Indexed]
        );
    }

    #[test]
    fn let_go_short_of_a_notch_it_falls_back_to_the_one_it_passed() {
        let mut h = Hammer::default();
        thumb(&mut h, 0.9, false);
        let mut e = Vec::new();
        h.release(false, &mut e);
        assert_eq!(
            (h.position(), h.travel(), &e[..]),
            (HalfCock, 0.45, &[][..])
        );
        // Short of the first notch: back down.
        let mut h = Hammer::default();
        thumb(&mut h, 0.1, false);
        h.release(false, &mut e);
        assert_eq!((h.position(), h.travel()), (Down, 0.0));
    }

    #[test]
    fn the_trigger_drops_it_only_from_full_cock() {
        let mut e = Vec::new();
        for notch in [Down, Safety, HalfCock] {
            let mut h = Hammer::default();
            h.set_position(notch);
            assert!(!h.trigger(&mut e), "{notch:?}");
            assert_eq!(h.position(), notch);
        }
        assert!(e.is_empty());
        let mut h = Hammer::default();
        h.set_position(FullCock);
        assert!(h.trigger(&mut e));
        assert_eq!((h.position(), e), (Down, vec![Moved(Down), Fell]));
    }

    #[test]
    fn a_thumbed_hammer_does_not_fall_to_the_trigger() {
        let mut h = Hammer::default();
        thumb(&mut h, 1.0, false);
        let mut e = Vec::new();
        assert!(!h.trigger(&mut e));
        h.release(false, &mut e);
        assert!(h.trigger(&mut e));
    }

    #[test]
    fn with_the_trigger_held_the_thumb_lowers_it_and_a_slip_fires() {
        // Eased all the way down: at rest, no blow.
        let mut h = Hammer::default();
        h.set_position(FullCock);
        let e = thumb(&mut h, 0.3, true);
        assert_eq!(e, vec![Moved(Safety)]);
        let e = thumb(&mut h, 0.0, true);
        assert_eq!(e, vec![Moved(Down)]);
        let mut e = Vec::new();
        h.release(true, &mut e);
        assert_eq!((h.position(), e), (Down, vec![]));
        // Let go half way down with the trigger held: it falls onto the pin.
        let mut h = Hammer::default();
        h.set_position(FullCock);
        thumb(&mut h, 0.6, true);
        let mut e = Vec::new();
        h.release(true, &mut e);
        assert_eq!((h.position(), e), (Down, vec![Moved(Down), Fell]));
    }

    #[test]
    fn slip_gunning_with_the_trigger_held_turns_the_cylinder_and_falls() {
        let mut h = Hammer::default();
        // Drawn back with the trigger held: no notch catches, the hand turns the cylinder at
        // the top, and let go it falls on the next chamber.
        assert_eq!(thumb(&mut h, 0.5, true), vec![]);
        assert_eq!(thumb(&mut h, 1.0, true), vec![Indexed]);
        assert_eq!(h.position(), Down);
        let mut e = Vec::new();
        h.release(true, &mut e);
        assert_eq!(e, vec![Fell]);
    }

    #[test]
    fn without_the_trigger_the_notch_holds_it_against_the_thumb() {
        let mut h = Hammer::default();
        thumb(&mut h, 0.5, false);
        assert_eq!(thumb(&mut h, 0.1, false), vec![]);
        assert_eq!((h.position(), h.travel()), (HalfCock, 0.45));
    }

    #[test]
    fn an_open_gate_stops_it_short_of_full_cock() {
        let mut h = Hammer::default();
        let mut e = Vec::new();
        h.thumb(1.0, false, false, &mut e);
        assert_eq!(e, vec![Moved(Safety), Moved(HalfCock)]);
        assert_eq!(h.position(), HalfCock);
        assert!(h.travel() < 1.0);
    }

    #[test]
    fn non_finite_travel_leaves_it_where_it_is() {
        let mut h = Hammer::default();
        thumb(&mut h, 0.5, false);
        assert_eq!(thumb(&mut h, f32::NAN, false), vec![]);
        assert_eq!((h.position(), h.travel()), (HalfCock, 0.5));
        assert_eq!(HammerPosition::caught_at(f32::NAN), Down);
    }
}
