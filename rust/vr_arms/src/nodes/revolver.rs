//! `Revolver`: the holstered, drawn, cocked and fired single-action revolver.

use godot::classes::{
    FileAccess, IRigidBody3D, Marker3D, Node3D, PhysicsRayQueryParameters3D, RigidBody3D,
    XrController3D,
};
use godot::prelude::*;
use vr_arms_core::revolver::{
    Chamber, RecoilLayer, Revolver as Stage, RevolverEvent, RevolverInput, RevolverProfile,
    RevolverState, cock_pose,
};

use crate::convert::{pose, to_transform, to_vector3, vec3};
use crate::nodes::common::alive;
use crate::nodes::controller_targets::ControllerTargets;
use crate::nodes::hand_pose_driver::HandPoseDriver;
use crate::nodes::holster::HolsterZone;
use crate::nodes::target_router::TargetRouter;

/// A single-action revolver drawn from a holster with a real pulling gesture (seed 000).
///
/// Grip in the holster zone latches it; pulling the hand along the draw direction (holster
/// anchor -> draw-clear point, with a dead zone) slides it out and the arm follows the draw path
/// through the `TargetRouter` override; at the end of the pull it is in the hand. Held, it
/// follows the visible hand bone when a [RevolverHold] modifier under the skeleton holds it
/// (after the arm solve, so gun and hand never separate), else `hand_attach`; placed by
/// `grip_offset` or so that its `GripPoint` child sits on the attach point (`grip_alignment`).
/// Stick down cocks the hammer (timeline: sweep back and roll, hammer, return; its length is the
/// hand's HammerCock pose, so thumb and hammer move together); the trigger fires: every pull
/// sends haptics and plays the hand's Shoot pose, then cocked and loaded is a live shot (ray from
/// `muzzle` along its -Z, `take_damage(damage, point, normal)` on the collider, recoil on three
/// layers), cocked and empty clicks, not cocked dry-fires. Releasing near the holster re-holsters,
/// elsewhere it drops (physics).
///
/// Recoil has three independent layers, each with its own kick, jitter, recovery and clamp
/// (`[recoil.arm]`, `[recoil.hand]`, `[recoil.mesh]` of the profile): the arm layer moves the IK
/// targets through `ControllerTargets.set_recoil_offset` (split with the support hand by
/// `support_recoil_share` when held two-handed), the hand layer turns the hand bone at the wrist
/// (applied by [RevolverHold]), the mesh layer moves the `Mesh` child.
/// Six chambers: `open_cylinder`, `eject_spent`, `load_round`, `close_cylinder`.
///
/// Child nodes by name, all optional: `Muzzle`, `HolsterPoint` (aligns with the holster anchor),
/// `Hammer`, `Trigger`, `Cylinder`, `Mesh` (recoil root), `SupportPoint` (two-handed),
/// `MuzzleFlash` (shown for 0.05 s per shot), and [AudioStreamPlayer3D]s `ShotSound`,
/// `CockSound` (on the frame the hammer arrives), `DryFireSound`, `ClickSound`.
#[derive(GodotClass)]
#[class(base = RigidBody3D)]
pub struct Revolver {
    /// The hand's controller: grip, trigger and thumbstick, and haptics.
    #[export]
    hand_controller: Option<Gd<XrController3D>>,
    /// Where the drawn gun attaches (the hand bone's attachment, or the controller).
    #[export]
    hand_attach: Option<Gd<Node3D>>,
    /// The holster it lives in.
    #[export]
    holster: Option<Gd<HolsterZone>>,
    /// The held gun relative to `hand_attach`.
    #[export]
    grip_offset: Transform3D,
    /// Arm recoil goes here (`add_recoil`).
    #[export]
    controller_targets: Option<Gd<ControllerTargets>>,
    /// The draw override goes here.
    #[export]
    router: Option<Gd<TargetRouter>>,
    /// Pose flags go here.
    #[export]
    hand_pose: Option<Gd<HandPoseDriver>>,
    /// How the held gun sits on the attach point: `Offset` uses `grip_offset`; `GripPoint` moves
    /// and turns the gun so that its `GripPoint` child is exactly on the attach point.
    #[export(enum = (Offset = 0, GripPoint = 1))]
    grip_alignment: i32,
    /// Held two-handed, the support hand takes this share of the arm recoil (0..1) and the gun
    /// hand the rest.
    #[export(range = (0.0, 1.0))]
    support_recoil_share: f32,
    /// Which hand holds it (0 left, 1 right).
    #[export(enum = (Left = 0, Right = 1))]
    hand: i32,
    /// The other hand's controller, for two-handed support: gripping near the `SupportPoint`
    /// child routes that arm to it and splits the recoil between both arms.
    #[export]
    support_controller: Option<Gd<XrController3D>>,
    /// How close (metres) the support hand must be to the support point to take hold.
    #[export(range = (0.02, 0.4, suffix = "m"))]
    support_grab_radius_m: f32,
    /// Rounds (nodes in the group `vr_arms_rounds`) brought this close (metres) to the open
    /// cylinder are loaded, and freed.
    #[export(range = (0.01, 0.3, suffix = "m"))]
    round_load_radius_m: f32,
    /// How far the gun sweeps back while cocking (metres, gun space).
    #[export]
    cock_back_offset: Vector3,
    /// How far the gun rolls back while cocking (Euler degrees, YXZ, gun space).
    #[export]
    cock_back_rotation_deg: Vector3,
    /// Hammer rotation at full cock (degrees about the hammer's X).
    #[export(range = (0.0, 90.0, suffix = "°"))]
    hammer_cock_deg: f32,
    /// Trigger rotation when pulled (degrees about the trigger's X).
    #[export(range = (0.0, 45.0, suffix = "°"))]
    trigger_pull_deg: f32,
    /// Damage per hit.
    #[export_group(name = "Bullet")]
    #[export(range = (0.0, 1000.0, or_greater))]
    damage: f32,
    /// Ray length (metres).
    #[export(range = (1.0, 1000.0, or_greater, suffix = "m"))]
    max_range_m: f32,
    /// Physics layers the shot hits.
    #[export(flags_3d_physics)]
    hit_mask: u32,
    /// Draw each shot's ray (red line, from the muzzle to the hit or the end of the range).
    #[export]
    debug_draw_shots: bool,

    stage: Stage,
    arm_recoil: RecoilLayer,
    mesh_recoil: RecoilLayer,
    hand_recoil: RecoilLayer,
    supported: bool,
    support_target: Option<Gd<Marker3D>>,
    shot_line: Option<Gd<godot::classes::MeshInstance3D>>,
    /// Seconds left to show the `MuzzleFlash` child.
    flash_left: f32,
    events: Vec<RevolverEvent>,
    draw_target: Option<Gd<Marker3D>>,
    parts_rest: Vec<(Gd<Node3D>, Transform3D)>,
    rng: u32,
    /// A [RevolverHold] placed the gun on the hand bone during the last skeleton update.
    placed_by_hold: bool,
    /// Hand-bone pose from the attach point (set by the [RevolverHold]), for the draw target.
    attach_to_hand: Transform3D,
    /// Arm recoil shares last written (gun hand, support hand), to clear them once.
    arm_recoil_written: bool,
    base: Base<RigidBody3D>,
}

#[godot_api]
impl IRigidBody3D for Revolver {
    fn init(base: Base<RigidBody3D>) -> Self {
        base.to_init_gd().set_process_priority(-750);
        let profile = RevolverProfile::default();
        Self {
            hand_controller: None,
            hand_attach: None,
            holster: None,
            grip_offset: Transform3D::IDENTITY,
            controller_targets: None,
            router: None,
            hand_pose: None,
            grip_alignment: 0,
            support_recoil_share: 0.5,
            hand: 1,
            support_controller: None,
            support_grab_radius_m: 0.12,
            round_load_radius_m: 0.08,
            cock_back_offset: Vector3::new(0.0, 0.02, 0.05),
            cock_back_rotation_deg: Vector3::new(8.0, 0.0, 0.0),
            hammer_cock_deg: 40.0,
            trigger_pull_deg: 20.0,
            damage: profile.bullet.damage,
            max_range_m: profile.bullet.max_range_m,
            hit_mask: profile.bullet.collision_mask,
            debug_draw_shots: profile.bullet.debug_draw,
            stage: Stage::new(profile.revolver),
            arm_recoil: RecoilLayer::new(profile.recoil.arm),
            mesh_recoil: RecoilLayer::new(profile.recoil.mesh),
            hand_recoil: RecoilLayer::new(profile.recoil.hand),
            supported: false,
            support_target: None,
            shot_line: None,
            flash_left: 0.0,
            events: Vec::with_capacity(8),
            draw_target: None,
            parts_rest: Vec::new(),
            rng: 0x2545_F491,
            placed_by_hold: false,
            attach_to_hand: Transform3D::IDENTITY,
            arm_recoil_written: false,
            base,
        }
    }

    fn ready(&mut self) {
        let mut marker = Marker3D::new_alloc();
        marker.set_name("DrawTarget");
        marker.set_as_top_level(true);
        self.base_mut().add_child(&marker);
        self.draw_target = Some(marker);
        let mut support = Marker3D::new_alloc();
        support.set_name("SupportTarget");
        support.set_as_top_level(true);
        self.base_mut().add_child(&support);
        self.support_target = Some(support);
        for name in ["Hammer", "Trigger", "Cylinder", "Mesh"] {
            if let Some(n) = self
                .base()
                .get_node_or_null(name)
                .and_then(|n| n.try_cast::<Node3D>().ok())
            {
                let t = n.get_transform();
                self.parts_rest.push((n, t));
            }
        }
        self.base_mut().set_freeze_enabled(true);
    }

    fn process(&mut self, delta: f64) {
        let dt = delta as f32;
        let Some(holster) = alive(&self.holster) else {
            return;
        };
        let (anchor, clear) = {
            let h = holster.bind();
            (h.anchor(), h.clear_point())
        };
        let (grip, trigger, stick_y) = match self
            .hand_controller
            .as_ref()
            .filter(|c| c.is_instance_valid())
        {
            Some(c) => (
                c.get_float("grip"),
                c.get_float("trigger"),
                c.get_vector2("primary").y,
            ),
            None => (0.0, 0.0, 0.0),
        };
        let hand_pos = alive(&self.hand_attach)
            .map(|h| h.get_global_position())
            .unwrap_or(Vector3::ZERO);
        let in_zone = holster.bind().hand_inside();
        let holster_point = self.child_global("HolsterPoint");
        let me = self.base().get_global_transform();
        let input = RevolverInput {
            grip,
            trigger,
            stick_y,
            hand_position: vec3(hand_pos),
            hand_in_holster_zone: in_zone,
            hand_on_gun: hand_pos.distance_to(me.origin) < 0.15,
            holster_anchor: vec3(anchor.origin),
            holster_rotation: pose(&anchor).rotation,
            draw_clear_point: vec3(clear),
            gun_holster_point: vec3(holster_point.origin),
            gun_rotation: pose(&me).rotation,
        };
        let mut events = std::mem::take(&mut self.events);
        events.clear();
        self.stage.update(&input, dt, &mut events);
        self.arm_recoil.update(dt);
        let mesh_active = self.mesh_recoil.update(dt);
        for e in &events {
            self.handle(*e);
        }
        self.events = events;
        self.hand_recoil.update(dt);
        self.write_arm_recoil();
        if self.flash_left > 0.0 {
            self.flash_left -= dt;
            if self.flash_left <= 0.0 {
                self.set_child_visible("MuzzleFlash", false);
            }
        }
        self.place(anchor, clear, holster_point, mesh_active);
        self.update_support();
        self.load_nearby_rounds();
        if let Some(hp) = alive(&self.hand_pose) {
            let mut hp = hp;
            // Latched, the hand already holds the grip while it pulls the gun out (and has left
            // the holster zone): the grip pose, not a flicker back to Default mid-draw.
            let held = matches!(
                self.stage.state,
                RevolverState::Latched | RevolverState::Held | RevolverState::Cocking
            );
            let mut hp = hp.bind_mut();
            hp.set_hand_in_holster_zone(in_zone);
            hp.set_pistol_held(held);
        }
    }
}

#[godot_api]
impl Revolver {
    #[signal]
    fn latched();
    #[signal]
    fn drawn();
    #[signal]
    fn holstered();
    #[signal]
    fn dropped();
    #[signal]
    fn picked_up();
    /// The hammer reached full cock (play the cock sound now).
    #[signal]
    fn cocked();
    /// A live round fired: whether it hit, where, and what.
    #[signal]
    fn fired(hit: bool, point: Vector3, normal: Vector3, collider: Option<Gd<Object>>);
    #[signal]
    fn dry_fired();
    #[signal]
    fn empty_clicked();
    #[signal]
    fn ammo_changed(loaded: i32);
    /// The shot just fired was the last loaded round.
    #[signal]
    fn ammo_empty();
    /// A trigger pull started (every pull, before its outcome: haptics and the Shoot pose).
    #[signal]
    fn trigger_pulled();
    #[signal]
    fn cylinder_opened();
    #[signal]
    fn cylinder_closed();
    #[signal]
    fn round_loaded(chamber: i32);
    /// The support hand took hold of the gun (two-handed).
    #[signal]
    fn support_grabbed();
    /// The support hand let go.
    #[signal]
    fn support_released();
    /// An action was refused (`"cock"`, `"fire"`, `"open_cylinder"`, `"load"`).
    #[signal]
    fn refused(action: GString);

    /// The grab state: `"Holstered"`, `"Latched"`, `"Held"`, `"Cocking"` or `"Dropped"`.
    #[func]
    fn get_state(&self) -> GString {
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

    /// Whether the hammer is cocked.
    #[func]
    fn is_hammer_cocked(&self) -> bool {
        self.stage.hammer_cocked
    }

    /// Chamber states, "empty", "loaded" or "spent", from chamber 0.
    #[func]
    fn get_chambers(&self) -> PackedStringArray {
        self.stage
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

    #[func]
    fn open_cylinder(&mut self) {
        let mut e = Vec::new();
        self.stage.open_cylinder(&mut e);
        e.into_iter().for_each(|e| self.handle(e));
    }

    #[func]
    fn close_cylinder(&mut self) {
        let mut e = Vec::new();
        self.stage.close_cylinder(&mut e);
        e.into_iter().for_each(|e| self.handle(e));
    }

    /// Ejects the spent cases; returns how many.
    #[func]
    fn eject_spent(&mut self) -> i32 {
        let mut e = Vec::new();
        let n = self.stage.eject_spent(&mut e);
        e.into_iter().for_each(|e| self.handle(e));
        n as i32
    }

    /// Loads one round into the next empty chamber; returns the chamber or -1 when refused.
    #[func]
    fn load_round(&mut self) -> i32 {
        let mut e = Vec::new();
        let slot = self.stage.load_round(&mut e);
        e.into_iter().for_each(|e| self.handle(e));
        slot.map(|s| s as i32).unwrap_or(-1)
    }

    /// Loads `[revolver]`, `[bullet]` and `[recoil.*]` from a TOML file; false (settings kept,
    /// one error naming the line) on a bad file.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        let text = FileAccess::get_file_as_string(&path).to_string();
        match RevolverProfile::from_toml_str(&text) {
            Ok(p) => {
                self.stage.settings = p.revolver;
                self.damage = p.bullet.damage;
                self.max_range_m = p.bullet.max_range_m;
                self.hit_mask = p.bullet.collision_mask;
                self.debug_draw_shots = p.bullet.debug_draw;
                self.arm_recoil.settings = p.recoil.arm;
                self.mesh_recoil.settings = p.recoil.mesh;
                self.hand_recoil.settings = p.recoil.hand;
                true
            }
            Err(e) => {
                godot_error!("Revolver: profile \"{path}\": {e}");
                false
            }
        }
    }

    fn handle(&mut self, e: RevolverEvent) {
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
                // The hand's HammerCock pose sets the timeline's length (seed 000: clip length
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
            RevolverEvent::CylinderOpened => self.signals().cylinder_opened().emit(),
            RevolverEvent::CylinderClosed => self.signals().cylinder_closed().emit(),
            RevolverEvent::RoundLoaded(i) => self.signals().round_loaded().emit(i as i32),
            RevolverEvent::CasesEjected(_) => {}
            RevolverEvent::Refused(a) => {
                let name = match a {
                    vr_arms_core::revolver::RefusedAction::Cock => "cock",
                    vr_arms_core::revolver::RefusedAction::Fire => "fire",
                    vr_arms_core::revolver::RefusedAction::OpenCylinder => "open_cylinder",
                    vr_arms_core::revolver::RefusedAction::Load => "load",
                };
                self.signals().refused().emit(&GString::from(name));
            }
        }
    }

    fn release_router(&mut self) {
        if let Some(mut r) = alive(&self.router) {
            r.bind_mut().clear_override(self.hand);
        }
    }

    /// A live shot: ray, damage, recoil, haptics, signal.
    fn shoot(&mut self) {
        let muzzle = self.child_global("Muzzle");
        let from = muzzle.origin;
        let dir = -muzzle.basis.col_c().normalized();
        let to = from + dir * self.max_range_m;
        let mut hit = (false, Vector3::ZERO, Vector3::ZERO, None::<Gd<Object>>);
        let rid = self.base().get_rid();
        if let Some(mut space) = self
            .base()
            .get_world_3d()
            .and_then(|w| w.get_direct_space_state())
            && let Some(mut query) = PhysicsRayQueryParameters3D::create(from, to)
        {
            query.set_collision_mask(self.hit_mask);
            query.set_collide_with_areas(false);
            let mut exclude = Array::new();
            exclude.push(rid);
            query.set_exclude(&exclude);
            let result = space.intersect_ray(&query);
            if let (Some(point), Some(normal), Some(collider)) = (
                result
                    .get("position")
                    .and_then(|v| v.try_to::<Vector3>().ok()),
                result
                    .get("normal")
                    .and_then(|v| v.try_to::<Vector3>().ok()),
                result
                    .get("collider")
                    .and_then(|v| v.try_to::<Gd<Object>>().ok()),
            ) {
                let mut c = collider.clone();
                if c.has_method("take_damage") {
                    c.call(
                        "take_damage",
                        &[
                            self.damage.to_variant(),
                            point.to_variant(),
                            normal.to_variant(),
                        ],
                    );
                }
                hit = (true, point, normal, Some(collider));
            }
        }
        if self.debug_draw_shots {
            self.draw_shot(from, if hit.0 { hit.1 } else { to });
        }
        // Muzzle flash for a few frames, and the shot sound.
        self.set_child_visible("MuzzleFlash", true);
        self.flash_left = 0.05;
        self.play_sound("ShotSound");
        // Three independent layers, each with its own jitter draw.
        let (a, h, m) = (self.jitter(), self.jitter(), self.jitter());
        self.arm_recoil.kick(a);
        self.hand_recoil.kick(h);
        self.mesh_recoil.kick(m);
        self.write_arm_recoil();
        self.signals()
            .fired()
            .emit(hit.0, hit.1, hit.2, hit.3.as_ref());
    }

    /// The arm recoil layer's offset on the IK targets: all on the gun hand, or split with the
    /// support hand by `support_recoil_share`. Written while it moves and once more as zero.
    fn write_arm_recoil(&mut self) {
        let (p, r) = (self.arm_recoil.position, self.arm_recoil.rotation);
        let moving = p != glam::Vec3::ZERO || r != glam::Vec3::ZERO;
        if !moving && !self.arm_recoil_written {
            return;
        }
        self.arm_recoil_written = moving;
        let Some(mut ct) = alive(&self.controller_targets) else {
            return;
        };
        let support = if self.supported {
            self.support_recoil_share.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let deg = r * (180.0 / std::f32::consts::PI);
        let mut ct = ct.bind_mut();
        ct.set_recoil_offset(
            self.hand,
            to_vector3(p * (1.0 - support)),
            to_vector3(deg * (1.0 - support)),
        );
        ct.set_recoil_offset(
            1 - self.hand,
            to_vector3(p * support),
            to_vector3(deg * support),
        );
    }

    /// The hand layer's recoil rotation (radians per axis, the hand bone's space), for
    /// [RevolverHold].
    pub fn hand_recoil_rotation(&self) -> glam::Vec3 {
        self.hand_recoil.rotation
    }

    /// Which hand holds it (0 left, 1 right).
    pub fn hand(&self) -> i32 {
        self.hand
    }

    /// Whether the gun is in the hand (held or cocking).
    pub fn is_in_hand(&self) -> bool {
        matches!(
            self.stage.state,
            RevolverState::Held | RevolverState::Cocking
        )
    }

    /// Puts the held gun on `attach` (the hand bone's attach point, after the arm solve), with
    /// the grip alignment and the cocking sweep. Called by [RevolverHold] during the skeleton
    /// update; `attach_to_hand` maps the attach point back to the hand bone.
    pub fn place_on_hand(&mut self, attach: Transform3D, attach_to_hand: Transform3D) {
        if !self.is_in_hand() {
            return;
        }
        self.placed_by_hold = true;
        self.attach_to_hand = attach_to_hand;
        let t = self.held_transform(attach);
        self.base_mut().set_global_transform(t);
        self.place_draw_target();
    }

    /// The gun's global transform for an attach point: the hold (offset or `GripPoint`) and the
    /// cocking sweep back and roll.
    fn held_transform(&self, attach: Transform3D) -> Transform3D {
        let hold = if self.grip_alignment == 1 {
            // The GripPoint child's pose in the gun's frame; the gun is placed so it lands on
            // the attach point (seed 000's legacy alignment).
            let me = self.base().get_global_transform();
            (me.affine_inverse() * self.child_global("GripPoint")).affine_inverse()
        } else {
            self.grip_offset
        };
        let back = self
            .stage
            .cock_time()
            .map(|t| cock_pose(t).gun_back)
            .unwrap_or(0.0);
        let rot = self.cock_back_rotation_deg * (back * std::f32::consts::PI / 180.0);
        let sweep = Transform3D::new(
            Basis::from_euler(godot::builtin::EulerOrder::YXZ, rot),
            self.cock_back_offset * back,
        );
        attach * hold * sweep
    }

    /// The arm's draw override: where the hand bone would be while holding the gun.
    fn place_draw_target(&mut self) {
        let hold_inv = if self.grip_alignment == 1 {
            let me = self.base().get_global_transform();
            me.affine_inverse() * self.child_global("GripPoint")
        } else {
            self.grip_offset.affine_inverse()
        };
        let hand = self.base().get_global_transform() * hold_inv * self.attach_to_hand;
        if let Some(mut marker) = alive(&self.draw_target) {
            marker.set_global_transform(hand);
        }
    }

    /// Two-handed support: the other hand gripping near `SupportPoint` while the gun is held
    /// routes its arm there; letting go (or the gun leaving the hand) routes it back.
    fn update_support(&mut self) {
        let held = matches!(
            self.stage.state,
            RevolverState::Held | RevolverState::Cocking
        );
        let point = self.child_global("SupportPoint");
        let other = 1 - self.hand;
        let gripping = self
            .support_controller
            .as_ref()
            .filter(|c| c.is_instance_valid())
            .map(|c| {
                let near =
                    c.get_global_position().distance_to(point.origin) <= self.support_grab_radius_m;
                (
                    c.get_float("grip") >= self.stage.settings.grip_threshold,
                    near,
                )
            });
        let want = match gripping {
            Some((grip, near)) if held => {
                if self.supported {
                    grip
                } else {
                    grip && near
                }
            }
            _ => false,
        };
        if let Some(mut m) = alive(&self.support_target) {
            m.set_global_transform(point);
        }
        if want == self.supported {
            return;
        }
        self.supported = want;
        if let Some(mut r) = alive(&self.router) {
            if want {
                r.bind_mut()
                    .set_override(other, alive(&self.support_target).map(|m| m.upcast()));
            } else {
                r.bind_mut().clear_override(other);
            }
        }
        if want {
            self.signals().support_grabbed().emit();
        } else {
            self.signals().support_released().emit();
        }
    }

    /// Loads rounds (nodes in the group `vr_arms_rounds`) brought to the open cylinder.
    fn load_nearby_rounds(&mut self) {
        if !self.stage.cylinder_open {
            return;
        }
        let cylinder = self.child_global("Cylinder").origin;
        let tree = self.base().get_tree();
        for node in tree.get_nodes_in_group("vr_arms_rounds").iter_shared() {
            let Ok(mut round) = node.try_cast::<Node3D>() else {
                continue;
            };
            if round.is_queued_for_deletion()
                || round.get_global_position().distance_to(cylinder) > self.round_load_radius_m
            {
                continue;
            }
            if self.load_round() >= 0 {
                round.queue_free();
            }
        }
    }

    /// Plays the child [AudioStreamPlayer3D] of that name, if there is one with a stream.
    fn play_sound(&mut self, name: &str) {
        if let Some(mut p) = self
            .base()
            .get_node_or_null(name)
            .and_then(|n| n.try_cast::<godot::classes::AudioStreamPlayer3D>().ok())
            && p.get_stream().is_some()
        {
            p.play();
        }
    }

    fn set_child_visible(&mut self, name: &str, visible: bool) {
        if let Some(mut n) = self
            .base()
            .get_node_or_null(name)
            .and_then(|n| n.try_cast::<Node3D>().ok())
        {
            n.set_visible(visible);
        }
    }

    /// The last shot's ray as a red line (kept until the next shot).
    fn draw_shot(&mut self, from: Vector3, to: Vector3) {
        use godot::classes::{
            ImmediateMesh, MeshInstance3D, StandardMaterial3D, base_material_3d::ShadingMode,
            mesh::PrimitiveType,
        };
        let mut line = match alive(&self.shot_line) {
            Some(l) => l,
            None => {
                let mut l = MeshInstance3D::new_alloc();
                l.set_name("ShotRay");
                l.set_as_top_level(true);
                let mut material = StandardMaterial3D::new_gd();
                material.set_shading_mode(ShadingMode::UNSHADED);
                material.set_albedo(Color::from_rgb(1.0, 0.1, 0.1));
                l.set_material_override(&material);
                self.base_mut().add_child(&l);
                self.shot_line = Some(l.clone());
                l
            }
        };
        let mut mesh = ImmediateMesh::new_gd();
        mesh.surface_begin(PrimitiveType::LINES);
        mesh.surface_add_vertex(from);
        mesh.surface_add_vertex(to);
        mesh.surface_end();
        line.set_global_transform(Transform3D::IDENTITY);
        line.set_mesh(&mesh);
        line.set_visible(true);
    }

    fn jitter(&mut self) -> glam::Vec3 {
        let mut next = || {
            let mut x = self.rng;
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            self.rng = x;
            (x as f32 / u32::MAX as f32) * 2.0 - 1.0
        };
        glam::Vec3::new(next(), next(), next())
    }

    /// Global transform of a child by name, or the gun's own.
    fn child_global(&self, name: &str) -> Transform3D {
        self.base()
            .get_node_or_null(name)
            .and_then(|n| n.try_cast::<Node3D>().ok())
            .map(|n| n.get_global_transform())
            .unwrap_or_else(|| self.base().get_global_transform())
    }

    /// Puts the gun where its state says, and animates hammer, trigger, cylinder and recoil.
    /// `holster_point` is the `HolsterPoint` child's global transform, read once per frame.
    fn place(
        &mut self,
        anchor: Transform3D,
        clear: Vector3,
        holster_point: Transform3D,
        mesh_active: bool,
    ) {
        let me = self.base().get_global_transform();
        // The gun placed so that its HolsterPoint sits on the anchor.
        let in_holster = anchor * (me.affine_inverse() * holster_point).affine_inverse();
        let target = match self.stage.state {
            RevolverState::Holstered => Some(in_holster),
            RevolverState::Latched => {
                let t = self.stage.draw_t;
                let moved = Transform3D::new(
                    in_holster.basis,
                    in_holster.origin + (clear - anchor.origin) * t,
                );
                Some(moved)
            }
            // On the hand bone, the RevolverHold places it after the arm solve.
            RevolverState::Held | RevolverState::Cocking if self.placed_by_hold => None,
            RevolverState::Held | RevolverState::Cocking => {
                alive(&self.hand_attach).map(|h| self.held_transform(h.get_global_transform()))
            }
            RevolverState::Dropped => None,
        };
        if let Some(t) = target {
            self.base_mut().set_global_transform(t);
        }
        // The RevolverHold sets this again after the solve; without one it stays unset.
        self.placed_by_hold = false;
        self.place_draw_target();
        let hammer = if self.stage.hammer_cocked {
            1.0
        } else {
            self.stage
                .cock_time()
                .map(|t| cock_pose(t).hammer)
                .unwrap_or(0.0)
        };
        let pull = self.stage.trigger_pull();
        let turned = self.stage.current as f32 * std::f32::consts::TAU / 6.0;
        let (mesh_pos, mesh_rot) = (self.mesh_recoil.position, self.mesh_recoil.rotation);
        for (node, rest) in self.parts_rest.iter_mut() {
            if !node.is_instance_valid() {
                continue;
            }
            let name = node.get_name().to_string();
            let t =
                match name.as_str() {
                    "Hammer" => rest
                        .rotated_local(Vector3::RIGHT, -self.hammer_cock_deg.to_radians() * hammer),
                    "Trigger" => rest
                        .rotated_local(Vector3::RIGHT, self.trigger_pull_deg.to_radians() * pull),
                    "Cylinder" => rest.rotated_local(Vector3::FORWARD, turned),
                    // The mesh recoil stops writing once recovered, so it never fights the hand at rest.
                    "Mesh" if !mesh_active => continue,
                    "Mesh" => {
                        let q = glam::Quat::from_euler(
                            glam::EulerRot::YXZ,
                            mesh_rot.y,
                            mesh_rot.x,
                            mesh_rot.z,
                        );
                        *rest * to_transform(&vr_arms_core::Pose::new(mesh_pos, q))
                    }
                    _ => continue,
                };
            node.set_transform(t);
        }
    }
}
