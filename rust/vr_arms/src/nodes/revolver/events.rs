//! What the revolver does with each event of its mechanism: signals, sounds, haptics, the hand's
//! poses, the arm's draw override and the gun's physics.

use godot::prelude::*;
use vr_arms_core::revolver::{RefusedAction, Revolver as Stage, RevolverEvent};

use super::Revolver;
use crate::shared::common::alive;

impl Revolver {
    pub(super) fn handle(&mut self, e: RevolverEvent) {
        let hand = self.hand;
        match e {
            RevolverEvent::Latched => {
                if let (Some(mut r), Some(t)) = (alive(&self.router), alive(&self.draw_target)) {
                    r.bind_mut().set_override(hand, Some(t.upcast()));
                }
                self.signals().latched().emit();
            }
            RevolverEvent::Drawn => {
                self.release_router();
                self.signals().drawn().emit();
            }
            RevolverEvent::Holstered => {
                self.release_router();
                self.base_mut().set_freeze_enabled(true);
                self.signals().holstered().emit();
            }
            RevolverEvent::Dropped => {
                self.release_router();
                self.base_mut().set_freeze_enabled(false);
                self.signals().dropped().emit();
            }
            RevolverEvent::PickedUp => {
                self.base_mut().set_freeze_enabled(true);
                self.signals().picked_up().emit();
            }
            RevolverEvent::CockStarted => {
                // The hand's HammerCock pose sets the timeline's length (the original design: clip length
                // over animator speed), so the thumb and the hammer arrive together.
                if let Some(mut hp) = alive(&self.hand_pose) {
                    let d = hp.bind_mut().play_hammer_cock();
                    self.stage.settings.cock_duration_s = d;
                    self.stage.settings.validate();
                }
            }
            RevolverEvent::TriggerPulled => {
                if let Some(mut c) = alive(&self.hand_controller) {
                    c.trigger_haptic_pulse("haptic", 0.0, 0.8, 0.08, 0.0);
                }
                if let Some(mut hp) = alive(&self.hand_pose) {
                    hp.bind_mut().play_shoot();
                }
                self.signals().trigger_pulled().emit();
            }
            RevolverEvent::AmmoEmpty => self.signals().ammo_empty().emit(),
            RevolverEvent::Cocked => {
                self.play_sound("CockSound");
                self.signals().cocked().emit();
            }
            RevolverEvent::Fired => self.shoot(),
            RevolverEvent::EmptyClicked => {
                self.play_sound("ClickSound");
                self.signals().empty_clicked().emit();
            }
            RevolverEvent::DryFired => {
                self.play_sound("DryFireSound");
                self.signals().dry_fired().emit();
            }
            RevolverEvent::AmmoChanged(n) => self.signals().ammo_changed().emit(n as i32),
            RevolverEvent::GateToggled(open) => {
                self.click("GateSound");
                self.signals().gate_toggled().emit(open);
                if open {
                    self.signals().cylinder_opened().emit();
                } else {
                    self.signals().cylinder_closed().emit();
                }
            }
            RevolverEvent::CartridgeLoaded(i) => {
                self.click("LoadSound");
                self.signals().cartridge_loaded().emit(i as i32);
                self.signals().round_loaded().emit(i as i32);
            }
            RevolverEvent::HammerMoved(p) => {
                // Full cock has its own sound (`cocked`).
                if p != vr_arms_core::revolver::HammerPosition::FullCock {
                    self.click("HammerSound");
                }
                self.signals().hammer_moved().emit(p as i32);
            }
            RevolverEvent::CylinderIndexed(c) => {
                self.click("IndexSound");
                self.signals().cylinder_indexed().emit(c as i32);
            }
            RevolverEvent::CaseEjected { chamber, spent } => {
                self.click("EjectSound");
                self.spawn_ejected(spent);
                self.signals().case_ejected().emit(chamber as i32, spent);
            }
            RevolverEvent::Fanned => self.signals().fanned().emit(),
            RevolverEvent::TwirlStarted => {}
            RevolverEvent::Twirled => self.signals().twirled().emit(),
            RevolverEvent::Refused(a) => {
                let name = match a {
                    RefusedAction::Cock => "cock",
                    RefusedAction::Fire => "fire",
                    RefusedAction::OpenCylinder => "open_cylinder",
                    RefusedAction::Load => "load",
                    RefusedAction::Turn => "turn",
                    RefusedAction::Eject => "eject",
                    RefusedAction::Twirl => "twirl",
                };
                self.signals().refused().emit(&GString::from(name));
            }
        }
    }

    /// Runs an action of the mechanism and handles what it did.
    pub(super) fn act<T>(
        &mut self,
        action: impl FnOnce(&mut Stage, &mut Vec<RevolverEvent>) -> T,
    ) -> T {
        let mut e = Vec::new();
        let out = action(&mut self.stage, &mut e);
        e.into_iter().for_each(|e| self.handle(e));
        out
    }

    /// A mechanical click: its sound (a child `AudioStreamPlayer3D` of that name, when there is
    /// one) and a short, light haptic pulse on the gun hand.
    pub(super) fn click(&mut self, sound: &str) {
        self.play_sound(sound);
        if let Some(mut c) = alive(&self.hand_controller) {
            c.trigger_haptic_pulse("haptic", 0.0, 0.25, 0.02, 0.0);
        }
    }

    pub(super) fn release_router(&mut self) {
        if let Some(mut r) = alive(&self.router) {
            r.bind_mut().clear_override(self.hand);
        }
    }
}
