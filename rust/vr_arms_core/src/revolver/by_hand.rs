//! The mechanism worked by hand: the thumb on the hammer, the loading gate, turning the
//! cylinder, the ejector rod and cartridges at the gate, a landing, and the whole-cylinder calls
//! kept for a quick reload.

use super::{
    CHAMBERS, Chamber, CylinderEvent, CylinderRefusal, HammerPosition, RefusedAction, Revolver,
    RevolverEvent, RevolverState, drop_fires,
};

impl Revolver {
    /// The thumb holds the hammer at `travel` (0 down .. 1 full cock; an analog cock from a
    /// stick or the thumb's own travel): in the hand, not while the cocking clip runs. With
    /// the trigger held it can be eased down.
    pub fn thumb_hammer(&mut self, travel: f32, events: &mut Vec<RevolverEvent>) {
        if self.state != RevolverState::Held || self.twirl.active() {
            events.push(RevolverEvent::Refused(RefusedAction::Cock));
            return;
        }
        let (held, gate_closed) = (self.trigger_held(), !self.cylinder.gate_open);
        self.drive_hammer(|h, e| h.thumb(travel, held, gate_closed, e), events);
    }

    /// The thumb lets the hammer go: it falls back to the notch it passed (with the trigger
    /// held, all the way: a shot).
    pub fn release_hammer(&mut self, events: &mut Vec<RevolverEvent>) {
        let held = self.trigger_held();
        self.release_hammer_with(held, events);
    }

    pub(super) fn release_hammer_with(
        &mut self,
        trigger_held: bool,
        events: &mut Vec<RevolverEvent>,
    ) {
        self.drive_hammer(|h, e| h.release(trigger_held, e), events);
    }

    /// Opens the loading gate: in the hand, at half-cock; refused otherwise, and when open.
    pub fn open_gate(&mut self, events: &mut Vec<RevolverEvent>) {
        if self.cylinder.gate_open {
            events.push(RevolverEvent::Refused(RefusedAction::OpenCylinder));
            return;
        }
        // The cylinder's own rule (only at half-cock), with the hand's: held, the thumb off,
        // no twirl.
        let half = self.hammer.position() == HammerPosition::HalfCock
            && !self.hammer.thumbed()
            && self.state == RevolverState::Held
            && !self.twirl.active();
        let mut e = Vec::new();
        self.cylinder.open_gate(half, &mut e);
        self.cylinder_events(e, events);
    }

    pub fn close_gate(&mut self, events: &mut Vec<RevolverEvent>) {
        let mut e = Vec::new();
        self.cylinder.close_gate(&mut e);
        self.cylinder_events(e, events);
    }

    /// Turns the cylinder by hand `clicks` chambers on: with the gate open.
    pub fn turn_cylinder(&mut self, clicks: u32, events: &mut Vec<RevolverEvent>) {
        let mut e = Vec::new();
        self.cylinder.turn_by_hand(clicks, &mut e);
        self.cylinder_events(e, events);
    }

    /// The ejector rod: pushes out what is in the chamber at the gate. Returns the chamber and
    /// whether it was a spent case.
    pub fn push_ejector(&mut self, events: &mut Vec<RevolverEvent>) -> Option<(usize, bool)> {
        let mut e = Vec::new();
        let out = self.cylinder.eject(&mut e);
        self.cylinder_events(e, events);
        if out.is_some_and(|(_, spent)| !spent) {
            events.push(RevolverEvent::AmmoChanged(self.loaded_count()));
        }
        out
    }

    /// A cartridge pushed into the chamber at the open gate. Returns the chamber.
    pub fn insert_cartridge(&mut self, events: &mut Vec<RevolverEvent>) -> Option<usize> {
        let mut e = Vec::new();
        let out = self.cylinder.load(&mut e);
        self.cylinder_events(e, events);
        if out.is_some() {
            events.push(RevolverEvent::AmmoChanged(self.loaded_count()));
        }
        out
    }

    pub(super) fn cylinder_events(
        &self,
        from: Vec<CylinderEvent>,
        events: &mut Vec<RevolverEvent>,
    ) {
        events.extend(from.into_iter().map(|e| match e {
            CylinderEvent::GateToggled(open) => RevolverEvent::GateToggled(open),
            CylinderEvent::Indexed(c) => RevolverEvent::CylinderIndexed(c),
            CylinderEvent::CartridgeLoaded(c) => RevolverEvent::CartridgeLoaded(c),
            CylinderEvent::CaseEjected { chamber, spent } => {
                RevolverEvent::CaseEjected { chamber, spent }
            }
            CylinderEvent::Refused(r) => RevolverEvent::Refused(match r {
                CylinderRefusal::OpenGate => RefusedAction::OpenCylinder,
                CylinderRefusal::Turn => RefusedAction::Turn,
                CylinderRefusal::Load => RefusedAction::Load,
                CylinderRefusal::Eject => RefusedAction::Eject,
            }),
        }));
    }

    /// The gun landed: `impact_speed_mps` and whether on the hammer. Without a transfer bar, a
    /// hard blow on a lowered hammer over a live round fires it. Returns whether it fired.
    pub fn landed(
        &mut self,
        impact_speed_mps: f32,
        on_hammer: bool,
        events: &mut Vec<RevolverEvent>,
    ) -> bool {
        let under = self.cylinder.chambers[self.cylinder.current];
        if drop_fires(
            &self.fan_settings,
            self.hammer.position(),
            under,
            on_hammer,
            impact_speed_mps,
        ) {
            self.strike(events);
            true
        } else {
            false
        }
    }

    /// Opens the loading gate the way a shooter does: the hammer drawn to half-cock first (from
    /// down or the safety notch). Refused with the hammer at full cock or outside the hand.
    pub fn open_cylinder(&mut self, events: &mut Vec<RevolverEvent>) {
        if self.state == RevolverState::Held
            && self.hammer.position() < HammerPosition::HalfCock
            && !self.hammer.thumbed()
        {
            self.drive_hammer(
                |h, e| h.thumb(HammerPosition::HalfCock.travel(), false, true, e),
                events,
            );
            self.drive_hammer(|h, e| h.release(false, e), events);
        }
        self.open_gate(events);
    }

    /// Closes the loading gate.
    pub fn close_cylinder(&mut self, events: &mut Vec<RevolverEvent>) {
        self.close_gate(events);
    }

    /// Turns the cylinder once round under the open gate, pushing out every spent case (the
    /// rod once per case, a click per chamber). Returns how many; 0 with the gate closed.
    pub fn eject_spent(&mut self, events: &mut Vec<RevolverEvent>) -> u32 {
        if !self.cylinder.gate_open {
            return 0;
        }
        let mut n = 0;
        for _ in 0..CHAMBERS {
            if self.cylinder.chambers[self.cylinder.gate_chamber()] == Chamber::Spent {
                self.push_ejector(events);
                n += 1;
            }
            self.turn_cylinder(1, events);
        }
        n
    }

    /// Turns the cylinder under the open gate to the next empty chamber and loads it. Returns
    /// the chamber, or `None` (refused) with the gate closed or no empty chamber.
    pub fn load_round(&mut self, events: &mut Vec<RevolverEvent>) -> Option<usize> {
        if self.cylinder.gate_open {
            for _ in 0..CHAMBERS {
                if self.cylinder.chambers[self.cylinder.gate_chamber()] == Chamber::Empty {
                    return self.insert_cartridge(events);
                }
                self.turn_cylinder(1, events);
            }
        }
        events.push(RevolverEvent::Refused(RefusedAction::Load));
        None
    }
}
