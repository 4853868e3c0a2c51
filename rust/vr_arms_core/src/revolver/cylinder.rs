//! The Single Action Army's cylinder: six chambers that turn one click at a time, a loading gate
//! on the right that opens only at half-cock, and an ejector rod that pushes out what is in the
//! chamber at the gate. Nothing swings out: loading and unloading go one chamber at a time,
//! through the gate.
//!
//! Chambers are numbered in the order they come under the hammer. The gate sits at the chamber
//! just before the one under the hammer ([GATE_OFFSET]), so the old carry, "load one, skip one,
//! load four, cock and lower the hammer", leaves the empty chamber under the hammer.

use serde::{Deserialize, Serialize};

/// Chambers in the cylinder.
pub const CHAMBERS: usize = 6;
/// How many chambers on from the one under the hammer the loading gate is.
pub const GATE_OFFSET: usize = CHAMBERS - 1;

/// One chamber of the cylinder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Chamber {
    Empty,
    Loaded,
    Spent,
}

/// What the cylinder did, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CylinderEvent {
    GateToggled(bool),
    /// It turned one chamber: the chamber now under the hammer.
    Indexed(usize),
    CartridgeLoaded(usize),
    /// The ejector pushed out what was in the chamber: a spent case, or a live round.
    CaseEjected {
        chamber: usize,
        spent: bool,
    },
    Refused(CylinderRefusal),
}

/// Cylinder actions that can be refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CylinderRefusal {
    /// The gate opens only at half-cock.
    OpenGate,
    /// Turning by hand needs the gate open.
    Turn,
    /// Loading needs the gate open and the chamber at it empty.
    Load,
    /// Ejecting needs the gate open and something in the chamber at it.
    Eject,
}

/// The cylinder and its loading gate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    pub chambers: [Chamber; CHAMBERS],
    /// The chamber under the hammer, in line with the barrel.
    pub current: usize,
    pub gate_open: bool,
}

impl Default for Cylinder {
    /// Six live rounds, the gate closed.
    fn default() -> Self {
        Self {
            chambers: [Chamber::Loaded; CHAMBERS],
            current: 0,
            gate_open: false,
        }
    }
}

impl Cylinder {
    /// The chamber at the loading gate.
    pub fn gate_chamber(&self) -> usize {
        (self.current + GATE_OFFSET) % CHAMBERS
    }

    pub fn loaded_count(&self) -> u32 {
        self.chambers
            .iter()
            .filter(|c| **c == Chamber::Loaded)
            .count() as u32
    }

    /// One chamber on (the hammer's hand at full cock, or a click by hand).
    pub fn index(&mut self, events: &mut Vec<CylinderEvent>) {
        self.current = (self.current + 1) % CHAMBERS;
        events.push(CylinderEvent::Indexed(self.current));
    }

    /// Opens the gate: only with the hammer at half-cock (`half_cocked`).
    pub fn open_gate(&mut self, half_cocked: bool, events: &mut Vec<CylinderEvent>) -> bool {
        if self.gate_open {
            return true;
        }
        if !half_cocked {
            events.push(CylinderEvent::Refused(CylinderRefusal::OpenGate));
            return false;
        }
        self.gate_open = true;
        events.push(CylinderEvent::GateToggled(true));
        true
    }

    pub fn close_gate(&mut self, events: &mut Vec<CylinderEvent>) {
        if self.gate_open {
            self.gate_open = false;
            events.push(CylinderEvent::GateToggled(false));
        }
    }

    /// Turns the cylinder by hand `clicks` chambers on (the way it turns; it does not turn
    /// back): only with the gate open.
    pub fn turn_by_hand(&mut self, clicks: u32, events: &mut Vec<CylinderEvent>) {
        if !self.gate_open {
            events.push(CylinderEvent::Refused(CylinderRefusal::Turn));
            return;
        }
        for _ in 0..clicks.min(CHAMBERS as u32) {
            self.index(events);
        }
    }

    /// The ejector rod: pushes out what is in the chamber at the gate. Returns the chamber and
    /// whether it was a spent case.
    pub fn eject(&mut self, events: &mut Vec<CylinderEvent>) -> Option<(usize, bool)> {
        let chamber = self.gate_chamber();
        let held = self.chambers[chamber];
        if !self.gate_open || held == Chamber::Empty {
            events.push(CylinderEvent::Refused(CylinderRefusal::Eject));
            return None;
        }
        let spent = held == Chamber::Spent;
        self.chambers[chamber] = Chamber::Empty;
        events.push(CylinderEvent::CaseEjected { chamber, spent });
        Some((chamber, spent))
    }

    /// A cartridge pushed into the chamber at the gate. Returns the chamber.
    pub fn load(&mut self, events: &mut Vec<CylinderEvent>) -> Option<usize> {
        let chamber = self.gate_chamber();
        if !self.gate_open || self.chambers[chamber] != Chamber::Empty {
            events.push(CylinderEvent::Refused(CylinderRefusal::Load));
            return None;
        }
        self.chambers[chamber] = Chamber::Loaded;
        events.push(CylinderEvent::CartridgeLoaded(chamber));
        Some(chamber)
    }

    /// The hammer fell on the chamber under it: a live round fires and leaves a spent case.
    pub fn strike(&mut self) -> bool {
        let c = &mut self.chambers[self.current];
        if *c == Chamber::Loaded {
            *c = Chamber::Spent;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use CylinderEvent::*;

    fn open() -> Cylinder {
        let mut c = Cylinder::default();
        c.open_gate(true, &mut Vec::new());
        c
    }

    #[test]
    fn the_gate_opens_only_at_half_cock_and_closes_any_time() {
        let mut c = Cylinder::default();
        let mut e = Vec::new();
        assert!(!c.open_gate(false, &mut e));
        assert!(!c.gate_open);
        assert!(c.open_gate(true, &mut e));
        c.close_gate(&mut e);
        c.close_gate(&mut e);
        assert_eq!(
            e,
            vec![
                Refused(CylinderRefusal::OpenGate),
                GateToggled(true),
                GateToggled(false)
            ]
        );
    }

    #[test]
    fn by_hand_it_turns_one_click_a_chamber_only_with_the_gate_open() {
        let mut c = Cylinder::default();
        let mut e = Vec::new();
        c.turn_by_hand(1, &mut e);
        assert_eq!(
            (c.current, &e[..]),
            (0, &[Refused(CylinderRefusal::Turn)][..])
        );
        let mut c = open();
        let mut e = Vec::new();
        c.turn_by_hand(3, &mut e);
        assert_eq!(e, vec![Indexed(1), Indexed(2), Indexed(3)]);
        c.turn_by_hand(3, &mut e);
        assert_eq!(c.current, 0);
    }

    #[test]
    fn only_the_chamber_at_the_gate_is_ejected_or_loaded() {
        let mut c = open();
        c.chambers = [
            Chamber::Spent,
            Chamber::Loaded,
            Chamber::Empty,
            Chamber::Spent,
            Chamber::Loaded,
            Chamber::Spent,
        ];
        let mut e = Vec::new();
        // The gate is at chamber 5 (one before the hammer's 0).
        assert_eq!(c.gate_chamber(), 5);
        assert_eq!(c.load(&mut e), None);
        assert_eq!(c.eject(&mut e), Some((5, true)));
        assert_eq!(c.eject(&mut e), None);
        assert_eq!(c.load(&mut e), Some(5));
        c.turn_by_hand(2, &mut e);
        // Now chamber 1, a live round: ejected whole.
        assert_eq!(c.eject(&mut e), Some((1, false)));
        assert_eq!(
            e,
            vec![
                Refused(CylinderRefusal::Load),
                CaseEjected {
                    chamber: 5,
                    spent: true
                },
                Refused(CylinderRefusal::Eject),
                CartridgeLoaded(5),
                Indexed(1),
                Indexed(2),
                CaseEjected {
                    chamber: 1,
                    spent: false
                },
            ]
        );
        assert_eq!(c.chambers[0], Chamber::Spent, "the others are untouched");
        let mut shut = c;
        shut.close_gate(&mut e);
        e.clear();
        assert_eq!((shut.load(&mut e), shut.eject(&mut e)), (None, None));
        assert_eq!(
            e,
            vec![
                Refused(CylinderRefusal::Load),
                Refused(CylinderRefusal::Eject)
            ]
        );
    }

    #[test]
    fn load_one_skip_one_load_four_then_a_cock_puts_the_empty_under_the_hammer() {
        let mut c = open();
        c.chambers = [Chamber::Empty; CHAMBERS];
        let mut e = Vec::new();
        c.load(&mut e);
        c.turn_by_hand(1, &mut e);
        for _ in 0..4 {
            c.turn_by_hand(1, &mut e);
            c.load(&mut e);
        }
        c.close_gate(&mut e);
        assert_eq!(c.loaded_count(), 5);
        // Full cock turns it one chamber.
        c.index(&mut e);
        assert_eq!(c.chambers[c.current], Chamber::Empty);
        assert!(!c.strike());
        c.index(&mut e);
        assert!(c.strike());
        assert_eq!(c.chambers[c.current], Chamber::Spent);
    }
}
