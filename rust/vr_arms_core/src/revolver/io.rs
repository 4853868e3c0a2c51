//! What goes in and out of the revolver's state machine: its grab states, a frame's input, the
//! events it reports and the actions it refuses.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use super::HammerPosition;

/// Grab state. The numbers are GDScript's `VRArms.RevolverState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RevolverState {
    Holstered = 0,
    Latched = 1,
    Held = 2,
    Cocking = 3,
    Dropped = 4,
}

impl RevolverState {
    /// The state a network packet's byte names (`state as u8`), if any.
    pub fn from_u8(byte: u8) -> Option<Self> {
        use RevolverState::*;
        [Holstered, Latched, Held, Cocking, Dropped]
            .into_iter()
            .find(|s| *s as u8 == byte)
    }
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
    /// The hammer clicked into a notch, or came to rest down.
    HammerMoved(HammerPosition),
    /// The cylinder turned one chamber: the chamber now under the hammer.
    CylinderIndexed(usize),
    /// The hammer arrived at full cock (the frame to play the cock sound).
    Cocked,
    /// A trigger pull started (every pull, before its outcome is known: haptics and the hand's
    /// shoot pose, the original design's phase 1).
    TriggerPulled,
    /// The hammer fell on a live round: a shot.
    Fired,
    /// That shot fired the last loaded round (the original design's ammo-empty event).
    AmmoEmpty,
    /// The hammer fell on an empty chamber or a spent case.
    EmptyClicked,
    /// The trigger was pulled with the hammer down: nothing to let fall.
    DryFired,
    AmmoChanged(u32),
    /// The loading gate opened (true) or closed.
    GateToggled(bool),
    /// A cartridge went into this chamber (at the gate).
    CartridgeLoaded(usize),
    /// The ejector rod pushed what was in this chamber out: a spent case, or a live round.
    CaseEjected {
        chamber: usize,
        spent: bool,
    },
    /// The off hand's palm fanned the hammer.
    Fanned,
    /// A twirl started: the gun spins on the trigger finger.
    TwirlStarted,
    /// The twirl ended, the gun back in the grip.
    Twirled,
    /// An action was refused in the current state (for example cocking with the gate open).
    Refused(RefusedAction),
}

/// Actions that can be refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusedAction {
    Cock,
    Fire,
    /// Opening the loading gate (it opens only at half-cock, in the hand).
    OpenCylinder,
    Load,
    /// Turning the cylinder by hand (the gate must be open).
    Turn,
    /// Pushing the ejector rod (the gate must be open, the chamber at it not empty).
    Eject,
    /// A twirl (in the hand, the trigger at rest, the hammer free, the gate closed, no twirl
    /// running).
    Twirl,
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
    /// For fanning: the off hand's palm and the hammer's spur, in one frame (`None`: no off
    /// hand to fan with).
    pub fan_palm: Option<(Vec3, Vec3)>,
    /// How fast the gun hand turns about the gun's side axis (radians per second, either way):
    /// a flick starts a twirl when the settings allow it.
    pub flick_rate_rad_s: f32,
    /// The other hand's palm in the cylinder's frame (origin its centre, +Z back along its axis
    /// toward the shooter, +Y up), when it may roll the cylinder; `None` otherwise.
    pub cylinder_palm: Option<Vec3>,
}
