//! The single-action revolver: grab state machine, draw gesture, cocking and trigger timelines,
//! cylinder and ammunition (seed 000 "Pistol Grab Flow" to "Hit Detection", plus a real
//! cylinder). Pure logic: the Godot nodes move meshes, play sounds and cast rays from the events.
//!
//! States and transitions (seed 000's table):
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

/// Grab state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RevolverState {
    Holstered,
    Latched,
    Held,
    Cocking,
    Dropped,
}

/// One chamber of the cylinder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Chamber {
    Empty,
    Loaded,
    Spent,
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
    /// shoot pose, seed 000's phase 1).
    TriggerPulled,
    /// The trigger reached the end of its pull with the hammer cocked and a round under it.
    Fired,
    /// That shot fired the last loaded round (seed 000's `onAmmoEmpty`).
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

/// Where the cocking timeline is at normalised time `t` (seed 000): the gun sweeps back over
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
    let gun_back = if t < 0.55 {
        ease_in_out_cubic(t / 0.55)
    } else if t < 0.675 {
        1.0
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
mod tests {
    use super::*;

    fn input() -> RevolverInput {
        RevolverInput {
            grip: 0.0,
            trigger: 0.0,
            stick_y: 0.0,
            hand_position: Vec3::new(0.2, 1.0, 0.0),
            hand_in_holster_zone: true,
            hand_on_gun: false,
            holster_anchor: Vec3::new(0.2, 1.0, 0.0),
            holster_rotation: Quat::IDENTITY,
            draw_clear_point: Vec3::new(0.2, 1.3, 0.0),
            gun_holster_point: Vec3::new(0.2, 1.0, 0.0),
            gun_rotation: Quat::IDENTITY,
        }
    }

    fn step(r: &mut Revolver, i: &RevolverInput, dt: f32) -> Vec<RevolverEvent> {
        let mut e = Vec::new();
        r.update(i, dt, &mut e);
        e
    }

    /// Latches and draws: returns a revolver in the hand.
    fn drawn() -> Revolver {
        let mut r = Revolver::default();
        let mut i = input();
        i.grip = 1.0;
        step(&mut r, &i, 0.01);
        i.hand_position.y += 0.2;
        i.hand_in_holster_zone = false;
        assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Drawn]);
        r
    }

    fn held_input() -> RevolverInput {
        let mut i = input();
        i.grip = 1.0;
        i.hand_in_holster_zone = false;
        i.gun_holster_point = Vec3::new(0.2, 1.4, 0.4);
        i
    }

    #[test]
    fn draw_projection_has_a_dead_zone_and_ignores_backward_pulls() {
        let a = Vec3::ZERO;
        let clear = Vec3::Y;
        assert_eq!(
            draw_progress(a, Vec3::new(0.0, 0.015, 0.0), a, clear, 0.02, 0.15),
            0.0
        );
        assert!(
            (draw_progress(a, Vec3::new(0.0, 0.095, 0.0), a, clear, 0.02, 0.15) - 0.5).abs() < 1e-5
        );
        assert_eq!(
            draw_progress(a, Vec3::new(0.0, -0.3, 0.0), a, clear, 0.02, 0.15),
            0.0
        );
        // Sideways motion does not count.
        assert_eq!(
            draw_progress(a, Vec3::new(0.5, 0.0, 0.0), a, clear, 0.02, 0.15),
            0.0
        );
        assert_eq!(
            draw_progress(a, Vec3::new(0.0, 1.0, 0.0), a, clear, 0.02, 0.15),
            1.0
        );
    }

    #[test]
    fn grip_in_zone_latches_and_release_returns_it() {
        let mut r = Revolver::default();
        let mut i = input();
        i.grip = 1.0;
        assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Latched]);
        assert_eq!(r.state, RevolverState::Latched);
        i.grip = 0.0;
        assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Holstered]);
        assert_eq!(r.state, RevolverState::Holstered);
        // Grip outside the zone does nothing.
        i.grip = 1.0;
        i.hand_in_holster_zone = false;
        assert!(step(&mut r, &i, 0.01).is_empty());
        // A grip already held when the hand enters the zone does not latch: only a press does.
        i.hand_in_holster_zone = true;
        assert!(
            step(&mut r, &i, 0.01).is_empty(),
            "held grip entering the zone"
        );
        assert_eq!(r.state, RevolverState::Holstered);
        i.grip = 0.0;
        step(&mut r, &i, 0.01);
        i.grip = 1.0;
        assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Latched]);
    }

    #[test]
    fn pulling_far_enough_draws() {
        let r = drawn();
        assert_eq!(r.state, RevolverState::Held);
    }

    #[test]
    fn cocking_timeline_phases_and_sound_frame() {
        let mut r = drawn();
        let mut i = held_input();
        i.stick_y = -0.9;
        assert_eq!(step(&mut r, &i, 0.0), vec![RevolverEvent::CockStarted]);
        assert_eq!(r.state, RevolverState::Cocking);
        // Holding the stick down does not re-trigger (rising edge only).
        let mut cocked_at = None;
        let mut t: f32 = 0.0;
        for k in 0..100 {
            let e = step(&mut r, &i, 0.01);
            t += 0.01;
            if e.contains(&RevolverEvent::Cocked) {
                cocked_at = Some(k);
                assert!(
                    (t / 0.6 - 0.675).abs() < 0.02,
                    "the hammer arrives at 0.675 of the timeline"
                );
            }
            assert!(!e.contains(&RevolverEvent::CockStarted));
        }
        assert!(cocked_at.is_some());
        assert_eq!(r.state, RevolverState::Held);
        assert!(r.hammer_cocked);
        // Phases of the pose.
        assert_eq!(cock_pose(0.0).gun_back, 0.0);
        assert!((cock_pose(0.55).gun_back - 1.0).abs() < 1e-6 && cock_pose(0.55).hammer == 0.0);
        assert!((cock_pose(0.6125).hammer - 0.5).abs() < 1e-5);
        assert_eq!(cock_pose(0.675).hammer, 1.0);
        assert!(cock_pose(1.0).gun_back.abs() < 1e-6);
        // Cocking an already cocked hammer is refused.
        i.stick_y = 0.0;
        step(&mut r, &i, 0.01);
        i.stick_y = -1.0;
        assert_eq!(
            step(&mut r, &i, 0.01),
            vec![RevolverEvent::Refused(RefusedAction::Cock)]
        );
    }

    fn fire(r: &mut Revolver) -> Vec<RevolverEvent> {
        let mut i = held_input();
        let mut all = Vec::new();
        i.trigger = 1.0;
        for _ in 0..40 {
            all.extend(step(r, &i, 0.01));
        }
        i.trigger = 0.0;
        all.extend(step(r, &i, 0.01));
        all
    }

    fn cock(r: &mut Revolver) {
        let mut i = held_input();
        i.stick_y = -1.0;
        for _ in 0..80 {
            step(r, &i, 0.01);
        }
    }

    #[test]
    fn fire_outcomes_and_chamber_rotation() {
        let mut r = drawn();
        // Not cocked: dry fire. Every pull starts with TriggerPulled, before its outcome.
        let dry = fire(&mut r);
        assert!(dry.contains(&RevolverEvent::DryFired));
        assert_eq!(dry.first(), Some(&RevolverEvent::TriggerPulled), "{dry:?}");
        assert_eq!(r.current, 0, "a dry fire does not turn the cylinder");
        cock(&mut r);
        let e = fire(&mut r);
        assert!(
            e.contains(&RevolverEvent::Fired) && e.contains(&RevolverEvent::AmmoChanged(5)),
            "{e:?}"
        );
        assert_eq!(r.chambers[0], Chamber::Spent);
        assert_eq!(r.current, 1, "the cylinder turned to the next chamber");
        assert!(!r.hammer_cocked);
        // Empty the cylinder, then a cocked empty chamber clicks.
        assert!(!e.contains(&RevolverEvent::AmmoEmpty), "five rounds left");
        for k in 0..5 {
            cock(&mut r);
            let e = fire(&mut r);
            assert!(e.contains(&RevolverEvent::Fired));
            assert_eq!(
                e.contains(&RevolverEvent::AmmoEmpty),
                k == 4,
                "ammo_empty exactly on the last round: {e:?}"
            );
        }
        assert_eq!(r.loaded_count(), 0);
        cock(&mut r);
        let click = fire(&mut r);
        assert!(click.contains(&RevolverEvent::EmptyClicked));
        assert_eq!(click.first(), Some(&RevolverEvent::TriggerPulled));
        assert!(
            !click.contains(&RevolverEvent::AmmoEmpty),
            "a click is not a new empty"
        );
    }

    #[test]
    fn cylinder_open_eject_and_load() {
        let mut r = drawn();
        cock(&mut r);
        fire(&mut r);
        let mut e = Vec::new();
        r.open_cylinder(&mut e);
        assert_eq!(e, vec![RevolverEvent::CylinderOpened]);
        // Cocking while open is refused; firing too.
        e.clear();
        r.request_cock(&mut e);
        assert_eq!(e, vec![RevolverEvent::Refused(RefusedAction::Cock)]);
        e.clear();
        assert_eq!(r.eject_spent(&mut e), 1);
        assert_eq!(r.load_round(&mut e), Some(0));
        assert_eq!(r.loaded_count(), 6);
        assert_eq!(r.load_round(&mut e), None, "full");
        r.close_cylinder(&mut e);
        assert!(e.contains(&RevolverEvent::CylinderClosed));
        assert!(r.can_cock());
    }

    #[test]
    fn firing_while_latched_is_refused() {
        let mut r = Revolver::default();
        let mut i = input();
        i.grip = 1.0;
        step(&mut r, &i, 0.01);
        i.trigger = 1.0;
        assert_eq!(
            step(&mut r, &i, 0.01),
            vec![RevolverEvent::Refused(RefusedAction::Fire)]
        );
    }

    #[test]
    fn release_near_the_holster_holsters_far_drops_and_pickup() {
        let s = RevolverSettings::default();
        let a = Vec3::ZERO;
        assert!(should_auto_holster(
            Vec3::new(0.0, 0.19, 0.0),
            Quat::from_rotation_x(0.5),
            a,
            Quat::IDENTITY,
            &s
        ));
        assert!(!should_auto_holster(
            Vec3::new(0.0, 0.21, 0.0),
            Quat::IDENTITY,
            a,
            Quat::IDENTITY,
            &s
        ));
        assert!(!should_auto_holster(
            Vec3::ZERO,
            Quat::from_rotation_x(36f32.to_radians()),
            a,
            Quat::IDENTITY,
            &s
        ));
        let mut r = drawn();
        let mut i = held_input();
        i.grip = 0.0;
        assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Dropped]);
        i.grip = 1.0;
        i.hand_on_gun = true;
        assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::PickedUp]);
        i.grip = 0.0;
        i.gun_holster_point = i.holster_anchor + Vec3::new(0.05, 0.05, 0.0);
        assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Holstered]);
        assert_eq!(r.state, RevolverState::Holstered);
    }

    #[test]
    fn garbage_input_is_harmless() {
        let mut r = drawn();
        let mut i = held_input();
        i.grip = f32::NAN;
        i.trigger = f32::INFINITY;
        i.stick_y = f32::NAN;
        i.hand_position = Vec3::NAN;
        let e = step(&mut r, &i, f32::NAN);
        assert!(e.iter().all(|e| !matches!(e, RevolverEvent::Fired)));
        assert!(r.draw_t.is_finite());
    }
}

/// One recoil layer (arm IK kick, gun mesh kick, or the small hand rotation kick): a kick with
/// jitter that recovers toward zero, with a magnitude clamp.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RecoilLayerSettings {
    /// Position kick per shot (metres, in the layer's space).
    pub position_kick: [f32; 3],
    /// Rotation kick per shot (degrees per axis).
    pub rotation_kick_deg: [f32; 3],
    /// Random extra, as a fraction of the kick (0..1).
    pub jitter: f32,
    /// How fast the offset recovers (1/s).
    pub recovery_speed: f32,
    /// Largest accumulated position offset (metres).
    pub max_position_m: f32,
    /// Largest accumulated rotation offset (degrees per axis).
    pub max_rotation_deg: f32,
}

impl Default for RecoilLayerSettings {
    fn default() -> Self {
        Self {
            position_kick: [0.0, 0.01, 0.03],
            rotation_kick_deg: [8.0, 0.0, 0.0],
            jitter: 0.2,
            recovery_speed: 12.0,
            max_position_m: 0.1,
            max_rotation_deg: 30.0,
        }
    }
}

/// A recoil layer's offset: kicked by shots, recovering exponentially; reports when it has fully
/// recovered so the mesh layer can stop writing its transform (it never fights the hand at rest).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RecoilLayer {
    pub settings: RecoilLayerSettings,
    pub position: Vec3,
    /// Radians per axis.
    pub rotation: Vec3,
}

impl RecoilLayer {
    pub fn new(settings: RecoilLayerSettings) -> Self {
        Self {
            settings,
            ..Default::default()
        }
    }

    /// Adds one kick; `jitter` is three numbers in -1..1 from the caller's random source.
    pub fn kick(&mut self, jitter: Vec3) {
        let s = self.settings;
        let j = crate::finite::vec3_or(jitter, Vec3::ZERO)
            .clamp(Vec3::splat(-1.0), Vec3::splat(1.0))
            * s.jitter;
        let p = Vec3::from_array(s.position_kick);
        let r = Vec3::from_array(s.rotation_kick_deg) * (std::f32::consts::PI / 180.0);
        self.position = crate::finite::vec3_or(
            (self.position + p + p * j).clamp_length_max(s.max_position_m),
            Vec3::ZERO,
        );
        let max = s.max_rotation_deg.to_radians();
        self.rotation = crate::finite::vec3_or(
            (self.rotation + r + r * j).clamp(Vec3::splat(-max), Vec3::splat(max)),
            Vec3::ZERO,
        );
    }

    /// Recovers by `dt`; returns false once fully recovered (offset exactly zero).
    pub fn update(&mut self, dt: f32) -> bool {
        let a = crate::smoothing::exp_alpha(self.settings.recovery_speed, dt);
        self.position -= self.position * a;
        self.rotation -= self.rotation * a;
        if self.position.length_squared() < 1e-10 && self.rotation.length_squared() < 1e-10 {
            self.position = Vec3::ZERO;
            self.rotation = Vec3::ZERO;
            return false;
        }
        true
    }
}

/// The shot's ray and damage (seed 000's bullet config), loadable from TOML.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BulletConfig {
    /// Damage passed to `take_damage(damage, point, normal)`.
    pub damage: f32,
    /// Ray length (metres).
    pub max_range_m: f32,
    /// Physics layers the ray hits.
    pub collision_mask: u32,
    /// Draw the ray and hit point.
    pub debug_draw: bool,
}

impl Default for BulletConfig {
    fn default() -> Self {
        Self {
            damage: 25.0,
            max_range_m: 100.0,
            collision_mask: 1,
            debug_draw: false,
        }
    }
}

/// Everything about the revolver as data: `[revolver]`, `[bullet]`, `[recoil.arm]`,
/// `[recoil.mesh]`, `[recoil.hand]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RevolverProfile {
    pub revolver: RevolverSettings,
    pub bullet: BulletConfig,
    pub recoil: RecoilLayers,
}

/// The three recoil layers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RecoilLayers {
    pub arm: RecoilLayerSettings,
    pub mesh: RecoilLayerSettings,
    pub hand: RecoilLayerSettings,
}

impl Default for RecoilLayers {
    fn default() -> Self {
        Self {
            arm: RecoilLayerSettings {
                position_kick: [0.0, 0.03, 0.06],
                rotation_kick_deg: [18.0, 0.0, 0.0],
                recovery_speed: 10.0,
                ..Default::default()
            },
            mesh: RecoilLayerSettings {
                position_kick: [0.0, 0.0, 0.02],
                rotation_kick_deg: [6.0, 0.0, 0.0],
                recovery_speed: 18.0,
                max_position_m: 0.04,
                ..Default::default()
            },
            hand: RecoilLayerSettings {
                position_kick: [0.0, 0.0, 0.0],
                rotation_kick_deg: [4.0, 0.0, 0.0],
                recovery_speed: 14.0,
                ..Default::default()
            },
        }
    }
}

impl RevolverProfile {
    pub fn from_toml_str(text: &str) -> Result<Self, crate::profile::ProfileError> {
        crate::profile::parse_toml::<RevolverProfile>(text).map(|mut p| {
            p.revolver.validate();
            p.bullet.max_range_m = finite_clamp(p.bullet.max_range_m, 0.0, 10_000.0, 100.0);
            p.bullet.damage = finite_clamp(p.bullet.damage, 0.0, 1e6, 25.0);
            p
        })
    }

    pub fn to_toml_string(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod recoil_tests {
    use super::*;

    #[test]
    fn recoil_layer_kicks_recovers_and_stops_writing() {
        let mut l = RecoilLayer::new(RecoilLayers::default().mesh);
        assert!(!l.update(0.01), "at rest it does not write");
        l.kick(Vec3::ZERO);
        assert!(l.position.z > 0.0 && l.rotation.x > 0.0);
        let mut frames = 0;
        while l.update(1.0 / 90.0) {
            frames += 1;
            assert!(frames < 10_000);
        }
        assert_eq!(l.position, Vec3::ZERO);
        for _ in 0..100 {
            l.kick(Vec3::ONE);
        }
        assert!(
            l.position.length() <= l.settings.max_position_m + 1e-6,
            "clamped"
        );
    }

    #[test]
    fn revolver_profile_round_trip_and_bad_line() {
        let mut p = RevolverProfile::default();
        p.bullet.damage = 40.0;
        p.revolver.auto_holster_distance_m = 0.25;
        let back = RevolverProfile::from_toml_str(&p.to_toml_string()).unwrap();
        assert_eq!(back, p);
        let e = RevolverProfile::from_toml_str("[bullet]\ndamage = 10\nrange = 5\n").unwrap_err();
        assert_eq!(e.line, Some(3));
    }
}
