//! `Revolver`: the holstered, drawn, cocked and fired single-action revolver.

use godot::classes::{
    IRigidBody3D, Marker3D, Node3D, PhysicsRayQueryParameters3D, RigidBody3D, XrController3D,
};
use godot::prelude::*;
use vr_arms_core::revolver::{
    RecoilLayer, Revolver as Stage, RevolverEvent, RevolverInput, RevolverProfile, RevolverState,
};

use crate::convert::{pose, to_transform, vec3};
use crate::nodes::controller_targets::ControllerTargets;
use crate::nodes::hand_pose_driver::HandPoseDriver;
use crate::nodes::holster::HolsterZone;
use crate::nodes::target_router::TargetRouter;
use crate::problems::ProblemReport;
use crate::shared::common::{alive, refresh_warnings_on_set, skip_in_editor};
use crate::shared::hand::Hand;

mod effects;
mod ejected;
mod events;
mod landing;
mod mechanism;
mod placement;
mod problems;
mod queries;
mod support;

/// A single-action revolver drawn from a holster with a real pulling gesture (the original design).
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
#[class(base = RigidBody3D, tool)]
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
    /// The gun hand's pose driver: the gun sets its flags (held, at the holster, gate open,
    /// twirling) and plays its HammerCock and Shoot poses.
    #[export]
    hand_pose: Option<Gd<HandPoseDriver>>,
    /// The other hand's pose driver: its `Fanning` pose while that hand is poised over the
    /// hammer to fan it (optional).
    #[export]
    support_hand_pose: Option<Gd<HandPoseDriver>>,
    /// How the held gun sits on the attach point: `Offset` uses `grip_offset`; `GripPoint` moves
    /// and turns the gun so that its `GripPoint` child is exactly on the attach point.
    #[export(enum = (Offset = 0, GripPoint = 1))]
    grip_alignment: i32,
    /// Held two-handed, the support hand takes this share of the arm recoil (0..1) and the gun
    /// hand the rest.
    #[export(range = (0.0, 1.0))]
    support_recoil_share: f32,
    /// Which hand holds it (0 left, 1 right).
    #[export]
    hand: Hand,
    /// The other hand's controller, for two-handed support: gripping near the `SupportPoint`
    /// child routes that arm to it and splits the recoil between both arms.
    #[export]
    support_controller: Option<Gd<XrController3D>>,
    /// How close (metres) the support hand must be to the support point to take hold.
    #[export(range = (0.02, 0.4, suffix = "m"))]
    support_grab_radius_m: f32,
    /// Rounds (nodes in the group `vr_arms_rounds`) brought this close (metres) to the open
    /// loading gate (the `Gate` child, else `Cylinder`) load the gate's chamber when it is
    /// empty, and are freed.
    #[export(range = (0.01, 0.3, suffix = "m"))]
    round_load_radius_m: f32,
    /// What a spent case pushed out by the ejector rod becomes (a scene with a Node3D root; a
    /// [RigidBody3D] is given the push). Empty: a small brass cylinder that falls.
    #[export_group(name = "Ejected")]
    #[export]
    case_scene: Option<Gd<PackedScene>>,
    /// What an ejected live round becomes (it joins the group `vr_arms_rounds`, so it can be
    /// loaded again). Empty: a brass cylinder a little longer than a case.
    #[export]
    round_scene: Option<Gd<PackedScene>>,
    /// Seconds a spent case stays in the world before it is freed (0: it stays).
    #[export(range = (0.0, 600.0, suffix = "s"))]
    case_lifetime_s: f32,
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
    /// The OpenXR action (float 0..1) that grips, on the gun hand's and the support hand's
    /// controllers (your action map's name).
    #[export_group(name = "Actions")]
    #[export]
    grip_action: StringName,
    /// The OpenXR action (float 0..1) that pulls the trigger.
    #[export]
    trigger_action: StringName,
    /// The OpenXR action (Vector2) whose Y cocks the hammer (pulled down). With the loading gate
    /// open, pushed right it turns the cylinder one click, pushed up it works the ejector rod.
    #[export]
    stick_action: StringName,
    /// The OpenXR action (a button) that twirls the gun on the trigger finger (empty: none; a
    /// wrist flick can too, see the profile's `[twirl]`).
    #[export]
    twirl_action: StringName,

    stage: Stage,
    /// The twirl button last frame, and the gun hand's rotation (for the flick's rate).
    last_twirl_button: bool,
    last_hand_basis: Option<Basis>,
    /// The stick last frame (its pushes at the open gate).
    last_stick: Vector2,
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
    /// Watches the dropped gun for its landing.
    landing: vr_arms_core::revolver::Landing,
    report: ProblemReport,
    base: Base<RigidBody3D>,
}

#[godot_api]
impl IRigidBody3D for Revolver {
    fn init(base: Base<RigidBody3D>) -> Self {
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::REVOLVER);
        let profile = RevolverProfile::default();
        Self {
            hand_controller: None,
            hand_attach: None,
            holster: None,
            grip_offset: Transform3D::IDENTITY,
            controller_targets: None,
            router: None,
            hand_pose: None,
            support_hand_pose: None,
            grip_alignment: 0,
            support_recoil_share: 0.5,
            hand: Hand::Right,
            support_controller: None,
            support_grab_radius_m: 0.12,
            round_load_radius_m: 0.08,
            case_scene: None,
            round_scene: None,
            case_lifetime_s: 30.0,
            cock_back_offset: Vector3::new(0.0, 0.02, 0.05),
            cock_back_rotation_deg: Vector3::new(8.0, 0.0, 0.0),
            hammer_cock_deg: 40.0,
            trigger_pull_deg: 20.0,
            damage: profile.bullet.damage,
            max_range_m: profile.bullet.max_range_m,
            hit_mask: profile.bullet.collision_mask,
            debug_draw_shots: profile.bullet.debug_draw,
            grip_action: StringName::from("grip"),
            trigger_action: StringName::from("trigger"),
            stick_action: StringName::from("primary"),
            twirl_action: StringName::from("primary_click"),
            stage: Stage::new(profile.revolver),
            last_twirl_button: false,
            last_hand_basis: None,
            last_stick: Vector2::ZERO,
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
            landing: Default::default(),
            report: ProblemReport::new("Revolver"),
            base,
        }
    }

    fn ready(&mut self) {
        // A tool class for its configuration warnings: in the editor it is only edited.
        if skip_in_editor(false) {
            return;
        }
        let problems = self.problems();
        self.report.runtime(&problems);
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

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        refresh_warnings_on_set(&self.to_gd().upcast())
    }

    fn process(&mut self, delta: f64) {
        if skip_in_editor(false) {
            return;
        }
        let dt = delta as f32;
        let Some(holster) = alive(&self.holster) else {
            return;
        };
        let (anchor, clear) = {
            let h = holster.bind();
            (h.anchor(), h.clear_point())
        };
        let (grip, trigger, stick) = match self
            .hand_controller
            .as_ref()
            .filter(|c| c.is_instance_valid())
        {
            Some(c) => (
                c.get_float(&self.grip_action),
                c.get_float(&self.trigger_action),
                c.get_vector2(&self.stick_action),
            ),
            None => (0.0, 0.0, Vector2::ZERO),
        };
        self.read_gate_stick(stick);
        let stick_y = stick.y;
        let hand_pos = alive(&self.hand_attach)
            .map(|h| h.get_global_position())
            .unwrap_or(Vector3::ZERO);
        let flick_rate_rad_s = self.read_twirl_input(dt);
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
            flick_rate_rad_s,
            cylinder_palm: self.cylinder_palm(),
            // Fanning: the other hand (its controller) and the hammer's spur; not while that
            // hand holds the gun two-handed.
            fan_palm: alive(&self.support_controller)
                .filter(|_| !self.supported)
                .map(|c| {
                    (
                        vec3(c.get_global_position()),
                        vec3(self.child_global("Hammer").origin),
                    )
                }),
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
        self.load_rounds_at_gate();
        if let Some(mut hp) = alive(&self.hand_pose) {
            // Latched, the hand already holds the grip while it pulls the gun out (and has left
            // the holster zone): the grip pose, not a flicker back to Default mid-draw.
            let held = self.is_in_hand() || self.stage.state == RevolverState::Latched;
            let mut hp = hp.bind_mut();
            hp.set_hand_in_holster_zone(in_zone);
            hp.set_pistol_held(held);
            hp.set_gate_open(self.stage.gate_open());
            hp.set_twirling(self.stage.twirl.active());
        }
        if let Some(mut hp) = alive(&self.support_hand_pose) {
            hp.bind_mut().set_fanning(self.stage.fan_poised());
        }
    }

    fn physics_process(&mut self, _delta: f64) {
        if !skip_in_editor(false) {
            self.watch_landing();
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
    /// The loading gate opened (also `gate_toggled(true)`).
    #[signal]
    fn cylinder_opened();
    /// The loading gate closed (also `gate_toggled(false)`).
    #[signal]
    fn cylinder_closed();
    /// A cartridge went into `chamber` (also `cartridge_loaded`).
    #[signal]
    fn round_loaded(chamber: i32);
    /// The hammer clicked into a notch or came to rest down: `position` is a
    /// `VRArms.HammerPosition` (DOWN, SAFETY, HALF_COCK, FULL_COCK).
    #[signal]
    fn hammer_moved(position: i32);
    /// The loading gate opened or closed.
    #[signal]
    fn gate_toggled(open: bool);
    /// The cylinder turned one chamber (cocked to full cock, or by hand at the open gate):
    /// `chamber` is now under the hammer.
    #[signal]
    fn cylinder_indexed(chamber: i32);
    /// A cartridge went into `chamber`, the one at the gate.
    #[signal]
    fn cartridge_loaded(chamber: i32);
    /// The ejector rod pushed out what was in `chamber`: a spent case, or a live round.
    #[signal]
    fn case_ejected(chamber: i32, spent: bool);
    /// The off hand's palm fanned the hammer (a full cycle follows: cock, turn, fall).
    #[signal]
    fn fanned();
    /// A twirl ended: the gun spun on the trigger finger and is back in the grip.
    #[signal]
    fn twirled();
    /// The support hand took hold of the gun (two-handed).
    #[signal]
    fn support_grabbed();
    /// The support hand let go.
    #[signal]
    fn support_released();
    /// An action was refused (`"cock"`, `"fire"`, `"open_cylinder"` (the loading gate), `"load"`,
    /// `"turn"`, `"eject"`, `"twirl"`).
    #[signal]
    fn refused(action: GString);
}
