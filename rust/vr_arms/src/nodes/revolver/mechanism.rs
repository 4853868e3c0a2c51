//! The Single Action Army's mechanism by hand: the hammer under the thumb, the loading gate, the
//! cylinder turned click by click, the ejector rod, cartridges at the gate, and a hard landing.
//! Each action plays its click and haptic pulse and emits its signal (see the `Revolver`
//! signals); a refused one emits `refused`.

use godot::prelude::*;

use vr_arms_core::revolver::placement;

use super::Revolver;
use crate::shared::common::alive;

fn vec2(v: Vector2) -> glam::Vec2 {
    glam::Vec2::new(v.x, v.y)
}

impl Revolver {
    /// With the gate open: the stick pushed right turns the cylinder one click, pushed up works
    /// the ejector rod (each on its push, not while held).
    pub(super) fn read_gate_stick(&mut self, stick: Vector2) {
        let was = std::mem::replace(&mut self.last_stick, stick);
        if !self.stage.gate_open() || !self.is_in_hand() {
            return;
        }
        let clicks = placement::stick_clicks(vec2(was), vec2(stick));
        if clicks.right {
            self.act(|s, e| s.turn_cylinder(1, e));
        }
        if clicks.up {
            self.act(|s, e| s.push_ejector(e));
        }
    }

    /// The twirl button's press twirls; returns the gun hand's turn rate about its side axis
    /// (radians per second) for a flick.
    pub(super) fn read_twirl_input(&mut self, dt: f32) -> f32 {
        let pressed = alive(&self.hand_controller).is_some_and(|c| {
            !self.twirl_action.is_empty() && c.is_button_pressed(&self.twirl_action)
        });
        if pressed && !self.last_twirl_button {
            self.twirl();
        }
        self.last_twirl_button = pressed;
        let Some(hand) = alive(&self.hand_attach) else {
            self.last_hand_basis = None;
            return 0.0;
        };
        let now = hand.get_global_basis().orthonormalized();
        let rate = self.last_hand_basis.map_or(0.0, |before| {
            let q = |b: Basis| crate::convert::quat(b.get_quaternion());
            placement::flick_rate(q(before), q(now), dt)
        });
        self.last_hand_basis = Some(now);
        rate
    }
}

#[godot_api(secondary)]
impl Revolver {
    /// Twirls the gun: it spins once round the trigger guard on the trigger finger and comes
    /// back into the grip ([signal twirled]). Only in the hand, with the trigger at rest, the
    /// hammer free of the thumb and the gate closed; else `refused` "twirl".
    #[func]
    fn twirl(&mut self) {
        self.act(|s, e| s.request_twirl(e));
    }

    /// Whether a twirl is under way.
    #[func]
    fn is_twirling(&self) -> bool {
        self.stage.twirl.active()
    }

    /// The thumb holds the hammer at `travel` (0 down .. 1 full cock): an analog cock, from a
    /// stick or the thumb's own travel. Drawing it back clicks into each notch it passes
    /// (`hammer_moved`); full cock turns the cylinder one chamber (`cocked`,
    /// `cylinder_indexed`). With the trigger held the thumb can ease it down. Only in the hand,
    /// and not while the cocking clip runs. Call [method release_hammer] when the thumb lets go.
    #[func]
    fn thumb_hammer(&mut self, travel: f32) {
        self.act(|s, e| s.thumb_hammer(travel, e));
    }

    /// The thumb lets the hammer go: it falls back to the notch it passed; with the trigger
    /// held, all the way (a shot on a live round).
    #[func]
    fn release_hammer(&mut self) {
        self.act(|s, e| s.release_hammer(e));
    }

    /// Where the hammer rests: a `VRArms.HammerPosition` (DOWN, SAFETY, HALF_COCK, FULL_COCK).
    #[func]
    fn get_hammer_position(&self) -> i32 {
        self.stage.hammer.position() as i32
    }

    /// The hammer's travel now, 0 down .. 1 full cock.
    #[func]
    fn get_hammer_travel(&self) -> f32 {
        self.stage.hammer.travel()
    }

    /// Opens the loading gate: only in the hand with the hammer at half-cock (else `refused`
    /// with "open_cylinder"). [method open_cylinder] brings the hammer to half-cock first.
    #[func]
    fn open_gate(&mut self) {
        self.act(|s, e| s.open_gate(e));
    }

    /// Closes the loading gate.
    #[func]
    fn close_gate(&mut self) {
        self.act(|s, e| s.close_gate(e));
    }

    /// Whether the loading gate is open.
    #[func]
    fn is_gate_open(&self) -> bool {
        self.stage.gate_open()
    }

    /// The chamber at the loading gate (the one before the chamber under the hammer).
    #[func]
    fn get_gate_chamber(&self) -> i32 {
        self.stage.cylinder.gate_chamber() as i32
    }

    /// The chamber under the hammer.
    #[func]
    fn get_current_chamber(&self) -> i32 {
        self.stage.cylinder.current as i32
    }

    /// Turns the cylinder by hand `clicks` chambers on (it turns one way only; negative is
    /// refused): with the gate open, one `cylinder_indexed` a click.
    #[func]
    fn turn_cylinder(&mut self, clicks: i32) {
        let Ok(clicks) = u32::try_from(clicks) else {
            godot_error!("Revolver.turn_cylinder: the cylinder turns one way; {clicks} clicks");
            return;
        };
        self.act(|s, e| s.turn_cylinder(clicks, e));
    }

    /// The ejector rod: pushes out what is in the chamber at the open gate (`case_ejected`).
    /// Returns that chamber, or -1 when refused (gate closed, or nothing in it).
    #[func]
    fn push_ejector(&mut self) -> i32 {
        self.act(|s, e| s.push_ejector(e))
            .map(|(c, _)| c as i32)
            .unwrap_or(-1)
    }

    /// A cartridge pushed into the chamber at the open gate (`cartridge_loaded`). Returns the
    /// chamber, or -1 when refused (gate closed, or that chamber not empty).
    #[func]
    pub(super) fn insert_cartridge(&mut self) -> i32 {
        self.act(|s, e| s.insert_cartridge(e))
            .map(|c| c as i32)
            .unwrap_or(-1)
    }

    /// The gun landed at `impact_speed` m/s, on its hammer or not. Without a transfer bar (the
    /// original gun), a hard landing on a lowered hammer over a live round fires it (`fired`).
    /// Returns whether it fired. A dropped gun notices its own landings (an abrupt stop from
    /// below; on the hammer when the `Hammer` child faces down): call this for one your game
    /// tells otherwise.
    #[func]
    fn landed(&mut self, impact_speed: f32, on_hammer: bool) -> bool {
        self.act(|s, e| s.landed(impact_speed, on_hammer, e))
    }
}
