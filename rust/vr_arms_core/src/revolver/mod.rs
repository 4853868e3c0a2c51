//! The single-action revolver, modelled on the Colt Single Action Army: grab state machine, draw
//! gesture, hammer and its notches, cylinder with loading gate and ejector, trigger, cocking
//! timeline, fanning, drop safety and recoil (the original design's grab flow to its hit
//! detection, with the real gun's mechanism). Pure logic: the Godot nodes move meshes, play sounds
//! and cast rays from the events.
//!
//! One concern per file: this file is the grab state machine and what each frame's input does;
//! `io.rs` its states, input and events; `by_hand.rs` the mechanism worked by hand (thumb,
//! gate, cylinder, ejector, cartridges, a landing); the mechanism itself is `hammer.rs`,
//! `cylinder.rs`, `trigger.rs` and `fanning.rs` (with the drop safety), `landing.rs` tells a
//! landing from the gun's motion, `cartridge_grip.rs` a hand taking cartridges, `cylinder_spin.rs` the other hand
//! rolling the cylinder, `twirl.rs` the twirl; `timeline.rs` the cocking clip,
//! `draw.rs` the draw and holstering, `settings.rs`, `profile.rs` (the bullet and the TOML
//! profile) and `recoil.rs`.
//!
//! States and transitions (the original design's table):
//!
//! ```text
//! Holstered --grip pressed in the holster zone--> Latched   (the press, not a grip already held)
//! Latched   --grip released-----------------------> Holstered
//! Latched   --pulled far enough (t >= 1)----------> Held
//! Held      --stick down (rising edge)------------> Cocking --timeline done--> Held (full cock)
//! Held      --released near the holster-----------> Holstered
//! Held      --released far from the holster-------> Dropped
//! Dropped   --grip pressed on the gun-------------> Held      (the press)
//! ```

use glam::Vec3;

mod by_hand;
pub mod cartridge_grip;
pub mod cylinder;
mod cylinder_spin;
mod draw;
pub mod fanning;
pub mod hammer;
mod holster;
mod io;
mod landing;
pub mod placement;
mod profile;
mod recoil;
mod settings;
mod timeline;
mod trigger;
pub mod twirl;

pub use cartridge_grip::{GripEdge, GripEdges, nearest_within};
pub use cylinder::{CHAMBERS, Chamber, Cylinder, CylinderEvent, CylinderRefusal};
pub use cylinder_spin::{CylinderSpin, SpinReach};
pub use draw::{draw_progress, should_auto_holster};
pub use fanning::{FanDetector, FanSettings, drop_fires};
pub use hammer::{Hammer, HammerEvent, HammerPosition};
pub use holster::{HolsterBeltSettings, HolsterSettings};
pub use io::{RefusedAction, RevolverEvent, RevolverInput, RevolverState};
pub use landing::{Landing, LandingSettings};
pub use profile::{BulletConfig, RecoilLayers, RevolverProfile};
pub use recoil::{RecoilLayer, RecoilLayerSettings};
pub use settings::RevolverSettings;
pub use timeline::{CockPose, cock_pose, ease_in_out_cubic};
use trigger::TriggerPhase;
pub use twirl::{Twirl, TwirlSettings, is_flick};

/// The revolver's state, mechanism and timelines.
#[derive(Clone, Debug)]
pub struct Revolver {
    pub settings: RevolverSettings,
    /// Fanning and drop safety.
    pub fan_settings: FanSettings,
    pub twirl_settings: TwirlSettings,
    pub twirl: Twirl,
    pub state: RevolverState,
    pub hammer: Hammer,
    pub cylinder: Cylinder,
    /// Draw progress while latched (0..1).
    pub draw_t: f32,
    latch_hand: Vec3,
    cock_t: Option<f32>,
    trigger: TriggerPhase,
    fan: FanDetector,
    spin: CylinderSpin,
    last_stick_y: f32,
    last_trigger: f32,
    /// Whether the grip was held last frame: latching and picking up need its press.
    last_grip: bool,
}

impl Default for Revolver {
    fn default() -> Self {
        Self::new(RevolverSettings::default())
    }
}

impl Revolver {
    pub fn new(mut settings: RevolverSettings) -> Self {
        settings.validate();
        Self {
            settings,
            fan_settings: FanSettings::default(),
            twirl_settings: TwirlSettings::default(),
            twirl: Twirl::default(),
            state: RevolverState::Holstered,
            hammer: Hammer::default(),
            cylinder: Cylinder::default(),
            draw_t: 0.0,
            latch_hand: Vec3::ZERO,
            cock_t: None,
            trigger: TriggerPhase::Idle,
            fan: FanDetector::default(),
            spin: CylinderSpin::default(),
            last_stick_y: 0.0,
            last_trigger: 0.0,
            last_grip: false,
        }
    }

    /// Loaded rounds in the cylinder.
    pub fn loaded_count(&self) -> u32 {
        self.cylinder.loaded_count()
    }

    /// Whether the hammer is at full cock.
    pub fn hammer_cocked(&self) -> bool {
        self.hammer.position() == HammerPosition::FullCock
    }

    /// Whether the loading gate is open.
    pub fn gate_open(&self) -> bool {
        self.cylinder.gate_open
    }

    /// Normalised cocking time while cocking.
    pub fn cock_time(&self) -> Option<f32> {
        self.cock_t
    }

    /// The trigger's pull amount for its animation (0 = rest, 1 = fully pulled).
    pub fn trigger_pull(&self) -> f32 {
        self.trigger
            .pull(self.settings.trigger_pull_s, self.settings.trigger_return_s)
    }

    /// Whether cocking would be accepted now: in the hand, the hammer short of full cock and
    /// free of the thumb, the gate closed.
    pub fn can_cock(&self) -> bool {
        self.state == RevolverState::Held
            && !self.hammer_cocked()
            && !self.hammer.thumbed()
            && !self.cylinder.gate_open
            && !self.twirl.active()
    }

    /// The off hand is poised to fan (its pose): the gun in the hand, the trigger held and the
    /// palm within twice the fan radius of the hammer.
    pub fn fan_poised(&self) -> bool {
        self.state == RevolverState::Held
            && self.trigger_held()
            && !self.cylinder.gate_open
            && !self.twirl.active()
            && self.fan.palm_within(2.0 * self.fan_settings.fan_radius_m)
    }

    fn trigger_held(&self) -> bool {
        self.last_trigger >= self.settings.trigger_threshold
    }

    /// Advances by `dt` seconds; pushes what happened into `events` (no allocation when the
    /// caller reuses the vector).
    pub fn update(&mut self, input: &RevolverInput, dt: f32, events: &mut Vec<RevolverEvent>) {
        let s = self.settings;
        let dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        let grip = input.grip.is_finite() && input.grip >= s.grip_threshold;
        let pressed = grip && !self.last_grip;
        self.last_grip = grip;
        match self.state {
            RevolverState::Holstered => {
                if pressed && input.hand_in_holster_zone {
                    self.state = RevolverState::Latched;
                    self.latch_hand = input.hand_position;
                    self.draw_t = 0.0;
                    events.push(RevolverEvent::Latched);
                }
            }
            RevolverState::Latched => {
                if !grip {
                    self.state = RevolverState::Holstered;
                    self.draw_t = 0.0;
                    events.push(RevolverEvent::Holstered);
                } else {
                    self.draw_t = draw_progress(
                        self.latch_hand,
                        input.hand_position,
                        input.holster_anchor,
                        input.draw_clear_point,
                        s.draw_dead_zone_m,
                        s.draw_distance_m,
                    );
                    if self.draw_t >= 1.0 {
                        self.state = RevolverState::Held;
                        events.push(RevolverEvent::Drawn);
                    }
                }
            }
            RevolverState::Held | RevolverState::Cocking => {
                if !grip {
                    self.cock_t = None;
                    // Let go mid-cock (or mid-thumb): the hand opens, the finger leaves the
                    // trigger, and the hammer falls back to the notch it passed.
                    self.release_hammer_with(false, events);
                    if should_auto_holster(
                        input.gun_holster_point,
                        input.gun_rotation,
                        input.holster_anchor,
                        input.holster_rotation,
                        &s,
                    ) {
                        self.state = RevolverState::Holstered;
                        events.push(RevolverEvent::Holstered);
                    } else {
                        self.state = RevolverState::Dropped;
                        events.push(RevolverEvent::Dropped);
                    }
                }
            }
            RevolverState::Dropped => {
                if pressed && input.hand_on_gun {
                    self.state = RevolverState::Held;
                    events.push(RevolverEvent::PickedUp);
                }
            }
        }

        // Cocking: stick pushed down past the threshold, on its rising edge.
        let stick = if input.stick_y.is_finite() {
            input.stick_y
        } else {
            0.0
        };
        if stick <= s.cock_stick_threshold && self.last_stick_y > s.cock_stick_threshold {
            self.request_cock(events);
        }
        self.last_stick_y = stick;
        if let Some(t) = self.cock_t {
            let next = t + dt / s.cock_duration_s;
            // The thumb draws the hammer as the clip goes; it reaches full cock at 0.675.
            let travel = if next >= 0.675 {
                1.0
            } else {
                cock_pose(next).hammer
            };
            let gate_closed = !self.cylinder.gate_open;
            self.drive_hammer(|h, e| h.thumb(travel, false, gate_closed, e), events);
            if next >= 1.0 {
                self.cock_t = None;
                self.state = RevolverState::Held;
                self.drive_hammer(|h, e| h.release(false, e), events);
            } else {
                self.cock_t = Some(next);
            }
        }

        // Trigger: rising edge, then pull, the sear, return.
        let trig = if input.trigger.is_finite() {
            input.trigger
        } else {
            0.0
        };
        if trig >= s.trigger_threshold && self.last_trigger < s.trigger_threshold {
            self.request_fire(events);
        }
        self.last_trigger = trig;
        let (phase, sear) = self
            .trigger
            .advance(dt, s.trigger_pull_s, s.trigger_return_s);
        self.trigger = phase;
        if sear {
            self.resolve_shot(events);
        }

        // The twirl: a flick starts one; it runs its course.
        // (A flick that cannot twirl now is no request: no refusal every frame of it.)
        if is_flick(&self.twirl_settings, input.flick_rate_rad_s, trig) && self.can_twirl() {
            self.request_twirl(events);
        }
        let twirl_s = self.twirl_settings;
        if self.twirl.advance(dt, &twirl_s) {
            events.push(RevolverEvent::Twirled);
        }
        if self.state != RevolverState::Held {
            self.twirl = Twirl::default();
        }

        // Fanning: the off hand's palm sweeping over the hammer with the trigger held.
        if let Some((palm, spur)) = input.fan_palm {
            let fan_s = self.fan_settings;
            let fanned = self.fan.update(&fan_s, palm, spur, dt, self.trigger_held());
            if fanned
                && self.state == RevolverState::Held
                && !self.cylinder.gate_open
                && !self.twirl.active()
                && !self.hammer.thumbed()
            {
                self.fan_once(events);
            }
        } else {
            self.fan.palm_gone();
        }

        // The other hand's palm rolling the cylinder at the open gate: a click a sixth of a turn.
        let on_cylinder = input
            .cylinder_palm
            .filter(|_| self.state == RevolverState::Held && self.cylinder.gate_open);
        let clicks = self.spin.update(on_cylinder, &SpinReach::default());
        if clicks > 0 {
            self.turn_cylinder(clicks, events);
        }
    }

    /// One fan: the palm draws the hammer to full cock (turning the cylinder) and, the trigger
    /// held back, it falls at once.
    fn fan_once(&mut self, events: &mut Vec<RevolverEvent>) {
        events.push(RevolverEvent::Fanned);
        // The trigger is back already: a pull under way is spent by this fall.
        if let TriggerPhase::Pulling(_) = self.trigger {
            self.trigger = TriggerPhase::Returning(0.0);
        }
        self.drive_hammer(|h, e| h.thumb(1.0, false, true, e), events);
        self.drive_hammer(|h, e| h.release(true, e), events);
    }

    /// Runs `act` on the hammer and turns what it did into revolver events: notches, the
    /// cylinder's turn at full cock, and the blow on the chamber under it when it falls.
    fn drive_hammer(
        &mut self,
        act: impl FnOnce(&mut Hammer, &mut Vec<HammerEvent>),
        events: &mut Vec<RevolverEvent>,
    ) {
        let mut hammer_events = Vec::new();
        act(&mut self.hammer, &mut hammer_events);
        for e in hammer_events {
            match e {
                HammerEvent::Moved(p) => {
                    events.push(RevolverEvent::HammerMoved(p));
                    if p == HammerPosition::FullCock {
                        events.push(RevolverEvent::Cocked);
                    }
                }
                HammerEvent::Indexed => {
                    let mut e = Vec::new();
                    self.cylinder.index(&mut e);
                    self.cylinder_events(e, events);
                }
                HammerEvent::Fell => self.strike(events),
            }
        }
    }

    /// The hammer fell on the chamber under it.
    fn strike(&mut self, events: &mut Vec<RevolverEvent>) {
        if self.cylinder.strike() {
            events.push(RevolverEvent::Fired);
            events.push(RevolverEvent::AmmoChanged(self.loaded_count()));
            if self.loaded_count() == 0 {
                events.push(RevolverEvent::AmmoEmpty);
            }
        } else {
            events.push(RevolverEvent::EmptyClicked);
        }
    }

    /// Starts cocking if allowed (Held, the hammer short of full cock, the gate closed); else
    /// reports a refusal.
    pub fn request_cock(&mut self, events: &mut Vec<RevolverEvent>) {
        if self.can_cock() && self.trigger == TriggerPhase::Idle {
            self.state = RevolverState::Cocking;
            self.cock_t = Some(0.0);
            events.push(RevolverEvent::CockStarted);
        } else {
            events.push(RevolverEvent::Refused(RefusedAction::Cock));
        }
    }

    /// Starts a trigger pull if the gun is in the hand, the trigger at rest and the gate
    /// closed. At half-cock or the safety notch the trigger is locked: refused.
    pub fn request_fire(&mut self, events: &mut Vec<RevolverEvent>) {
        let locked = matches!(
            self.hammer.position(),
            HammerPosition::Safety | HammerPosition::HalfCock
        );
        if self.state == RevolverState::Held
            && self.trigger == TriggerPhase::Idle
            && !self.cylinder.gate_open
            && !locked
            && !self.twirl.active()
        {
            self.trigger = TriggerPhase::Pulling(0.0);
            events.push(RevolverEvent::TriggerPulled);
        } else {
            events.push(RevolverEvent::Refused(RefusedAction::Fire));
        }
    }

    /// The trigger's sear point: the hammer falls from full cock; with it down, a dry pull; a
    /// thumb holding it keeps it (it falls when the thumb lets go).
    fn resolve_shot(&mut self, events: &mut Vec<RevolverEvent>) {
        if self.hammer.thumbed() {
            return;
        }
        let mut fell = false;
        self.drive_hammer(|h, e| fell = h.trigger(e), events);
        if !fell {
            events.push(RevolverEvent::DryFired);
        }
    }

    /// Starts a twirl: in the hand, the trigger at rest, the hammer free of the thumb and not
    /// being cocked, the gate closed; else refused.
    pub fn request_twirl(&mut self, events: &mut Vec<RevolverEvent>) {
        if self.can_twirl() {
            self.twirl.start();
            events.push(RevolverEvent::TwirlStarted);
        } else {
            events.push(RevolverEvent::Refused(RefusedAction::Twirl));
        }
    }

    /// Whether a twirl would start now.
    pub fn can_twirl(&self) -> bool {
        self.state == RevolverState::Held
            && self.trigger == TriggerPhase::Idle
            && !self.hammer.thumbed()
            && !self.cylinder.gate_open
            && !self.twirl.active()
    }
}

#[cfg(test)]
mod mechanism_tests;
#[cfg(test)]
mod tests;
