//! The single-action revolver: grab state machine, draw gesture, cocking and trigger timelines,
//! cylinder and ammunition (the original design's grab flow to its hit detection, plus a real
//! cylinder). Pure logic: the Godot nodes move meshes, play sounds and cast rays from the events.
//!
//! States and transitions (the original design's table):
//!
//! ```text
//! Holstered --grip pressed in the holster zone--> Latched   (the press, not a grip already held)
//! Latched   --grip released-----------------------> Holstered
//! Latched   --pulled far enough (t >= 1)----------> Held
//! Held      --stick down (rising edge)------------> Cocking --timeline done--> Held (cocked)
//! Held      --released near the holster-----------> Holstered
//! Held      --released far from the holster-------> Dropped
//! Dropped   --grip pressed on the gun-------------> Held      (the press)
//! ```

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::controller_targets::finite_clamp;
use crate::finite::direction;

pub mod cylinder;
pub mod fanning;
pub mod hammer;
mod holster;
mod profile;
mod recoil;

pub use cylinder::Chamber;
pub use holster::{HolsterBeltSettings, HolsterSettings};
pub use profile::{BulletConfig, RecoilLayers, RevolverProfile};
pub use recoil::{RecoilLayer, RecoilLayerSettings};

/// Grab state. The numbers are GDScript's `VRArms.RevolverState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RevolverState {
    Holstered = 0,
    Latched = 1,
    Held = 2,
    Cocking = 3,
    Dropped = 4,
}

/// What happened this frame, in order, for signals and effects.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RevolverEvent {
    Latched,
    /// The draw completed: the gun attaches to the hand.
    Drawn,
    Holstered,
    Dropped,
    PickedUp,
    CockStarted,
    /// The hammer arrived at full cock (the frame to play the cock sound).
    Cocked,
    /// A trigger pull started (every pull, before its outcome is known: haptics and the hand's
    /// shoot pose, the original design's phase 1).
    TriggerPulled,
    /// The trigger reached the end of its pull with the hammer cocked and a round under it.
    Fired,
    /// That shot fired the last loaded round (the original design's ammo-empty event).
    AmmoEmpty,
    /// Hammer cocked, but the chamber under it was empty or spent.
    EmptyClicked,
    /// The trigger was pulled with the hammer down.
    DryFired,
    AmmoChanged(u32),
    CylinderOpened,
    CylinderClosed,
    RoundLoaded(usize),
    CasesEjected(u32),
    /// An action was refused in the current state (for example cocking with the cylinder open).
    Refused(RefusedAction),
}

/// Actions that can be refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusedAction {
    Cock,
    Fire,
    OpenCylinder,
    Load,
}

/// Settings of the revolver.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RevolverSettings {
    /// Hand movement ignored at the start of a draw (metres).
    pub draw_dead_zone_m: f32,
    /// Pull along the draw direction that completes the draw (metres).
    pub draw_distance_m: f32,
    /// Release within this distance of the holster re-holsters (metres).
    pub auto_holster_distance_m: f32,
    /// ... and within this angle (degrees).
    pub auto_holster_angle_deg: f32,
    /// Thumbstick Y below this (rising edge) cocks the hammer.
    pub cock_stick_threshold: f32,
    /// Length of the cocking timeline (seconds): the hand animation's clip length over its speed.
    pub cock_duration_s: f32,
    /// Trigger value above this (rising edge) pulls the trigger.
    pub trigger_threshold: f32,
    /// Trigger pull phase (seconds).
    pub trigger_pull_s: f32,
    /// Trigger return phase (seconds).
    pub trigger_return_s: f32,
    /// Grip value above this counts as gripping.
    pub grip_threshold: f32,
}

impl Default for RevolverSettings {
    fn default() -> Self {
        Self {
            draw_dead_zone_m: 0.02,
            draw_distance_m: 0.15,
            auto_holster_distance_m: 0.20,
            auto_holster_angle_deg: 35.0,
            cock_stick_threshold: -0.7,
            cock_duration_s: 0.6,
            trigger_threshold: 0.6,
            trigger_pull_s: 0.08,
            trigger_return_s: 0.16,
            grip_threshold: 0.5,
        }
    }
}

impl RevolverSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.draw_dead_zone_m = finite_clamp(self.draw_dead_zone_m, 0.0, 0.5, d.draw_dead_zone_m);
        self.draw_distance_m = finite_clamp(self.draw_distance_m, 0.01, 1.0, d.draw_distance_m);
        self.auto_holster_distance_m = finite_clamp(
            self.auto_holster_distance_m,
            0.0,
            2.0,
            d.auto_holster_distance_m,
        );
        self.auto_holster_angle_deg = finite_clamp(
            self.auto_holster_angle_deg,
            0.0,
            180.0,
            d.auto_holster_angle_deg,
        );
        self.cock_stick_threshold =
            finite_clamp(self.cock_stick_threshold, -1.0, 0.0, d.cock_stick_threshold);
        self.cock_duration_s = finite_clamp(self.cock_duration_s, 0.01, 5.0, d.cock_duration_s);
        self.trigger_threshold =
            finite_clamp(self.trigger_threshold, 0.05, 1.0, d.trigger_threshold);
        self.trigger_pull_s = finite_clamp(self.trigger_pull_s, 0.0, 2.0, d.trigger_pull_s);
        self.trigger_return_s = finite_clamp(self.trigger_return_s, 0.0, 2.0, d.trigger_return_s);
        self.grip_threshold = finite_clamp(self.grip_threshold, 0.05, 1.0, d.grip_threshold);
    }
}

/// The draw gesture: how far along the draw direction the hand has pulled since it latched,
/// with a dead zone; pulling backwards counts as nothing. Returns `t` in 0..=1.
pub fn draw_progress(
    latch_hand: Vec3,
    hand: Vec3,
    holster_anchor: Vec3,
    draw_clear: Vec3,
    dead_zone_m: f32,
    distance_m: f32,
) -> f32 {
    let Some(dir) = direction(draw_clear - holster_anchor) else {
        return 0.0;
    };
    let pull = (hand - latch_hand).dot(dir);
    let usable = (pull - dead_zone_m).max(0.0);
    let t = usable / distance_m.max(1e-4);
    if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Whether a released gun goes back into the holster: its holster point within the distance and
/// its orientation within the angle of the holster anchor.
pub fn should_auto_holster(
    gun_point: Vec3,
    gun_rotation: Quat,
    anchor: Vec3,
    anchor_rotation: Quat,
    settings: &RevolverSettings,
) -> bool {
    let near = gun_point.distance(anchor) <= settings.auto_holster_distance_m;
    let angle = gun_rotation
        .normalize()
        .angle_between(anchor_rotation.normalize())
        .to_degrees();
    near && angle <= settings.auto_holster_angle_deg
}

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

/// The trigger's animation phase.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TriggerPhase {
    Idle,
    Pulling(f32),
    Returning(f32),
}

/// The revolver's state, cylinder and timelines.
#[derive(Clone, Debug)]
pub struct Revolver {
    pub settings: RevolverSettings,
    pub state: RevolverState,
    pub hammer_cocked: bool,
    pub cylinder_open: bool,
    pub chambers: [Chamber; 6],
    /// The chamber under the hammer.
    pub current: usize,
    /// Draw progress while latched (0..1).
    pub draw_t: f32,
    latch_hand: Vec3,
    cock_t: Option<f32>,
    trigger: TriggerPhase,
    last_stick_y: f32,
    last_trigger: f32,
    /// Whether the grip was held last frame: latching and picking up need its press.
    last_grip: bool,
}

/// One frame of input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RevolverInput {
    /// Grip value of the hand that interacts (0..1).
    pub grip: f32,
    pub trigger: f32,
    /// Thumbstick Y (-1 down .. 1 up).
    pub stick_y: f32,
    pub hand_position: Vec3,
    /// The hand is inside the holster zone (for latching).
    pub hand_in_holster_zone: bool,
    /// The hand is touching the dropped gun (for picking it up).
    pub hand_on_gun: bool,
    pub holster_anchor: Vec3,
    pub holster_rotation: Quat,
    pub draw_clear_point: Vec3,
    /// The gun's holster point and rotation now (for auto-holster on release).
    pub gun_holster_point: Vec3,
    pub gun_rotation: Quat,
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
            state: RevolverState::Holstered,
            hammer_cocked: false,
            cylinder_open: false,
            chambers: [Chamber::Loaded; 6],
            current: 0,
            draw_t: 0.0,
            latch_hand: Vec3::ZERO,
            cock_t: None,
            trigger: TriggerPhase::Idle,
            last_stick_y: 0.0,
            last_trigger: 0.0,
            last_grip: false,
        }
    }

    /// Loaded rounds in the cylinder.
    pub fn loaded_count(&self) -> u32 {
        self.chambers
            .iter()
            .filter(|c| **c == Chamber::Loaded)
            .count() as u32
    }

    /// Normalised cocking time while cocking.
    pub fn cock_time(&self) -> Option<f32> {
        self.cock_t
    }

    /// The trigger's pull amount for its animation (0 = rest, 1 = fully pulled).
    pub fn trigger_pull(&self) -> f32 {
        match self.trigger {
            TriggerPhase::Idle => 0.0,
            TriggerPhase::Pulling(t) => {
                ease_in_out_cubic(t / self.settings.trigger_pull_s.max(1e-4))
            }
            TriggerPhase::Returning(t) => {
                1.0 - ease_in_out_cubic(t / self.settings.trigger_return_s.max(1e-4))
            }
        }
    }

    /// Whether cocking would be accepted now.
    pub fn can_cock(&self) -> bool {
        self.state == RevolverState::Held && !self.hammer_cocked && !self.cylinder_open
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
                    if self.state == RevolverState::Cocking {
                        // Let go mid-cock: the hammer falls back.
                        self.hammer_cocked = false;
                    }
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
            if t < 0.675 && next >= 0.675 {
                self.hammer_cocked = true;
                events.push(RevolverEvent::Cocked);
            }
            if next >= 1.0 {
                self.cock_t = None;
                self.state = RevolverState::Held;
            } else {
                self.cock_t = Some(next);
            }
        }

        // Trigger: rising edge, then pull, outcome, return.
        let trig = if input.trigger.is_finite() {
            input.trigger
        } else {
            0.0
        };
        if trig >= s.trigger_threshold && self.last_trigger < s.trigger_threshold {
            self.request_fire(events);
        }
        self.last_trigger = trig;
        self.trigger = match self.trigger {
            TriggerPhase::Idle => TriggerPhase::Idle,
            TriggerPhase::Pulling(t) => {
                let t = t + dt;
                if t >= s.trigger_pull_s {
                    self.resolve_shot(events);
                    TriggerPhase::Returning(0.0)
                } else {
                    TriggerPhase::Pulling(t)
                }
            }
            TriggerPhase::Returning(t) => {
                let t = t + dt;
                if t >= s.trigger_return_s {
                    TriggerPhase::Idle
                } else {
                    TriggerPhase::Returning(t)
                }
            }
        };
    }

    /// Starts cocking if allowed (Held, hammer down, cylinder closed); else reports a refusal.
    pub fn request_cock(&mut self, events: &mut Vec<RevolverEvent>) {
        if self.can_cock() && self.trigger == TriggerPhase::Idle {
            self.state = RevolverState::Cocking;
            self.cock_t = Some(0.0);
            events.push(RevolverEvent::CockStarted);
        } else {
            events.push(RevolverEvent::Refused(RefusedAction::Cock));
        }
    }

    /// Starts a trigger pull if the gun is in the hand and the trigger is at rest.
    pub fn request_fire(&mut self, events: &mut Vec<RevolverEvent>) {
        if self.state == RevolverState::Held
            && self.trigger == TriggerPhase::Idle
            && !self.cylinder_open
        {
            self.trigger = TriggerPhase::Pulling(0.0);
            events.push(RevolverEvent::TriggerPulled);
        } else {
            events.push(RevolverEvent::Refused(RefusedAction::Fire));
        }
    }

    fn resolve_shot(&mut self, events: &mut Vec<RevolverEvent>) {
        if !self.hammer_cocked {
            events.push(RevolverEvent::DryFired);
            return;
        }
        self.hammer_cocked = false;
        if self.chambers[self.current] == Chamber::Loaded {
            self.chambers[self.current] = Chamber::Spent;
            events.push(RevolverEvent::Fired);
            events.push(RevolverEvent::AmmoChanged(self.loaded_count()));
            if self.loaded_count() == 0 {
                events.push(RevolverEvent::AmmoEmpty);
            }
        } else {
            events.push(RevolverEvent::EmptyClicked);
        }
        // Single action: the cylinder turns one chamber as the hammer is cocked for the next shot;
        // here it advances after the hammer falls, ready for the next cock.
        self.current = (self.current + 1) % self.chambers.len();
    }

    /// Opens the cylinder (loading gate): only in the hand, not while cocking or with the hammer cocked.
    pub fn open_cylinder(&mut self, events: &mut Vec<RevolverEvent>) {
        if self.state == RevolverState::Held && !self.hammer_cocked && !self.cylinder_open {
            self.cylinder_open = true;
            events.push(RevolverEvent::CylinderOpened);
        } else {
            events.push(RevolverEvent::Refused(RefusedAction::OpenCylinder));
        }
    }

    pub fn close_cylinder(&mut self, events: &mut Vec<RevolverEvent>) {
        if self.cylinder_open {
            self.cylinder_open = false;
            events.push(RevolverEvent::CylinderClosed);
        }
    }

    /// Ejects every spent case (cylinder open). Returns how many.
    pub fn eject_spent(&mut self, events: &mut Vec<RevolverEvent>) -> u32 {
        if !self.cylinder_open {
            return 0;
        }
        let mut n = 0;
        for c in self.chambers.iter_mut().filter(|c| **c == Chamber::Spent) {
            *c = Chamber::Empty;
            n += 1;
        }
        if n > 0 {
            events.push(RevolverEvent::CasesEjected(n));
        }
        n
    }

    /// Loads one round into the first empty chamber from the current one on (cylinder open, no
    /// spent case in the way). Returns the chamber, or `None` (refused) when there is none.
    pub fn load_round(&mut self, events: &mut Vec<RevolverEvent>) -> Option<usize> {
        if !self.cylinder_open {
            events.push(RevolverEvent::Refused(RefusedAction::Load));
            return None;
        }
        let n = self.chambers.len();
        let slot = (0..n)
            .map(|k| (self.current + k) % n)
            .find(|i| self.chambers[*i] == Chamber::Empty);
        match slot {
            Some(i) => {
                self.chambers[i] = Chamber::Loaded;
                events.push(RevolverEvent::RoundLoaded(i));
                events.push(RevolverEvent::AmmoChanged(self.loaded_count()));
                Some(i)
            }
            None => {
                events.push(RevolverEvent::Refused(RefusedAction::Load));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests;
