//! The revolver's getters, its whole-cylinder calls (a quick reload) and its profile.

use godot::prelude::*;
use vr_arms_core::revolver::Chamber;

use super::Revolver;
use crate::shared::profile_file::{apply_revolver_profile, store_revolver_profile};

#[godot_api(secondary)]
impl Revolver {
    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    /// The grab state, a `VRArms.RevolverState`: HOLSTERED, LATCHED, HELD, COCKING or DROPPED.
    #[func]
    pub fn get_state(&self) -> i32 {
        self.stage.state as i32
    }

    /// The grab state's name: `"Holstered"`, `"Latched"`, `"Held"`, `"Cocking"` or `"Dropped"`.
    #[func]
    fn get_state_name(&self) -> GString {
        GString::from(format!("{:?}", self.stage.state).as_str())
    }

    /// Loaded rounds.
    #[func]
    fn get_loaded_count(&self) -> i32 {
        self.stage.loaded_count() as i32
    }

    /// Whether the other hand supports the gun.
    #[func]
    fn is_supported(&self) -> bool {
        self.supported
    }

    /// Whether the hammer is at full cock.
    #[func]
    fn is_hammer_cocked(&self) -> bool {
        self.stage.hammer_cocked()
    }

    /// Chamber states, "empty", "loaded" or "spent", from chamber 0.
    #[func]
    fn get_chambers(&self) -> PackedStringArray {
        self.stage
            .cylinder
            .chambers
            .iter()
            .map(|c| {
                GString::from(match c {
                    Chamber::Empty => "empty",
                    Chamber::Loaded => "loaded",
                    Chamber::Spent => "spent",
                })
            })
            .collect()
    }

    /// Opens the loading gate as a shooter does: the hammer drawn to half-cock first (from down
    /// or the safety notch). Refused at full cock and outside the hand.
    #[func]
    fn open_cylinder(&mut self) {
        self.act(|s, e| s.open_cylinder(e));
    }

    /// Closes the loading gate.
    #[func]
    fn close_cylinder(&mut self) {
        self.act(|s, e| s.close_cylinder(e));
    }

    /// Turns the cylinder once round under the open gate, pushing out every spent case; returns
    /// how many (0 with the gate closed).
    #[func]
    fn eject_spent(&mut self) -> i32 {
        self.act(|s, e| s.eject_spent(e)) as i32
    }

    /// Turns the cylinder under the open gate to the next empty chamber and loads it; returns the
    /// chamber, or -1 when refused.
    #[func]
    fn load_round(&mut self) -> i32 {
        self.act(|s, e| s.load_round(e))
            .map(|c| c as i32)
            .unwrap_or(-1)
    }

    /// Loads `[revolver]`, `[bullet]` and `[recoil.*]` from a TOML file; false (settings kept,
    /// one error naming the line) on a bad file.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        let mut loaded = None;
        let ok = apply_revolver_profile("Revolver", &path, |p| loaded = Some(*p));
        if let Some(p) = loaded {
            self.stage.settings = p.revolver;
            self.stage.fan_settings = p.fanning;
            self.stage.twirl_settings = p.twirl;
            self.damage = p.bullet.damage;
            self.max_range_m = p.bullet.max_range_m;
            self.hit_mask = p.bullet.collision_mask;
            self.debug_draw_shots = p.bullet.debug_draw;
            self.arm_recoil.settings = p.recoil.arm;
            self.mesh_recoil.settings = p.recoil.mesh;
            self.hand_recoil.settings = p.recoil.hand;
        }
        ok
    }

    /// Saves `[revolver]`, `[bullet]` and `[recoil.*]` into a TOML file, keeping its other
    /// sections (the holster's); false, with one error, when it cannot be written or the file
    /// there cannot be read (it is then left as it is).
    #[func]
    fn save_profile(&self, path: GString) -> bool {
        store_revolver_profile("Revolver", &path, |p| {
            p.revolver = self.stage.settings;
            p.fanning = self.stage.fan_settings;
            p.twirl = self.stage.twirl_settings;
            p.bullet.damage = self.damage;
            p.bullet.max_range_m = self.max_range_m;
            p.bullet.collision_mask = self.hit_mask;
            p.bullet.debug_draw = self.debug_draw_shots;
            p.recoil.arm = self.arm_recoil.settings;
            p.recoil.mesh = self.mesh_recoil.settings;
            p.recoil.hand = self.hand_recoil.settings;
        })
    }
}
