//! `HandPoseDriver`: chooses a hand's pose and curls its fingers.

use glam::Quat;
use godot::classes::{AnimationPlayer, INode, Node, Skeleton3D, XrController3D};
use godot::prelude::*;
use vr_arms_core::Side;
use vr_arms_core::body::body_pipeline::{FINGERS, HandInput};
use vr_arms_core::hands::finger_step::{FingerInput, FingerMode, finger_rotations};
use vr_arms_core::hands::hand_pose::{
    FingerCurl, HandPoseDriver as Stage, HandPoseSettings, HandPoseState,
};
use vr_arms_core::hands::tracked_curls::tracked_finger_curls;

use crate::convert::{quat, to_quaternion};
use crate::problems::ProblemReport;
use crate::shared::common::{
    alive, apply_profile, refresh_warnings_on_set, store_profile, unset_problem,
};
use crate::shared::hand::Hand;
use crate::shared::hand_tracking_source::tracked_joints;

/// Chooses one hand's pose state from two flags, as the original design's bridge table: `Default`,
/// `PreGrip` (hand in a holster zone), `GripReady` (holding the gun), plus the one-shots
/// `HammerCock` and `Shoot`, and the revolver's handling poses over them: `GateLoading` (the
/// gun hand with the loading gate open), `Twirl` (the gun spinning on the trigger finger) and
/// `Fanning` (the off hand poised over the hammer), and `Pinch` (a cartridge held, set by a
/// [CartridgeHand]). It plays the state's animation on the source
/// rig's [AnimationPlayer] (the animation named like the state: `Default`, `PreGrip`,
/// `GripReady`, `HammerCock`, `Shoot`, `GateLoading`, `Fanning`, `Twirl`, `Pinch`) and reports
/// [signal pose_state_changed].
///
/// When no animation plays for the state (no player, or no animation of that name), it poses
/// the source skeleton's fingers procedurally from the controller's grip (middle, ring, little,
/// thumb) and trigger (index): `Default` follows both (with `curl_from_controller`), `PreGrip`
/// is half open, `GripReady` closes the grip on the gun with the index following the trigger,
/// `HammerCock` raises the thumb, `Shoot` pulls the index, `GateLoading` lays the index along
/// the frame with the thumb on the cylinder, `Fanning` opens the hand flat, `Twirl` curls the
/// index through the trigger guard with the other fingers open, `Pinch` holds a cartridge
/// between thumb and index. `HandPoseCopy` then copies them onto
/// the visible hand. The `HammerCock` length (the animation's, or `hammer_cock_duration_s`) is
/// the revolver's cocking time.
#[derive(GodotClass)]
#[class(base = Node, tool)]
pub struct HandPoseDriver {
    /// Which hand.
    #[export]
    hand: Hand,
    /// The source rig's player of hand-pose animations (optional).
    #[export]
    animation_player: Option<Gd<AnimationPlayer>>,
    /// The source skeleton whose fingers are curled procedurally (optional).
    #[export]
    source_skeleton: Option<Gd<Skeleton3D>>,
    /// The hand's controller, for grip and trigger values.
    #[export]
    controller: Option<Gd<XrController3D>>,
    /// The hand is inside a holster zone.
    #[export]
    #[var(set = set_hand_in_holster_zone)]
    hand_in_holster_zone: bool,
    /// The hand holds the pistol.
    #[export]
    #[var(set = set_pistol_held)]
    pistol_held: bool,
    /// Curl the fingers from grip and trigger in the `Default` state.
    #[export_group(name = "Procedural Curl")]
    #[export]
    curl_from_controller: bool,
    /// Curl per joint at full grip (degrees).
    #[export(range = (0.0, 120.0, suffix = "°"))]
    grip_curl_deg: f32,
    /// Curl per index-finger joint at full trigger (degrees).
    #[export(range = (0.0, 120.0, suffix = "°"))]
    trigger_curl_deg: f32,
    /// Thumb curl per joint at full grip (degrees).
    #[export(range = (0.0, 120.0, suffix = "°"))]
    thumb_curl_deg: f32,
    /// The OpenXR action (float 0..1) that curls the three lower fingers (your action map's
    /// name).
    #[export]
    grip_action: StringName,
    /// The OpenXR action (float 0..1) that curls the index finger.
    #[export]
    trigger_action: StringName,
    #[export_group(name = "Hand Tracking")]
    /// Follow the player's real fingers when the runtime tracks the hand (an [XRHandTracker]),
    /// over every pose here; back to the controller-driven poses when tracking stops.
    #[export]
    hand_tracking: bool,
    /// The hand tracker's name in the [XRServer]; empty: `/user/hand_tracker/left` or `right`
    /// for [member hand].
    #[export]
    hand_tracker: StringName,
    /// How long the fingers take to blend onto tracking when it starts, and back when it stops
    /// (seconds).
    #[export(range = (0.0, 1.0, suffix = "s"))]
    hand_tracking_fade_s: f32,
    #[export_group(name = "One-Shots")]
    /// How long the hammer-cock pose plays (seconds).
    #[export(range = (0.0, 3.0, suffix = "s"))]
    hammer_cock_duration_s: f32,
    /// How long the shoot pose plays (seconds).
    #[export(range = (0.0, 3.0, suffix = "s"))]
    shoot_duration_s: f32,

    stage: Stage,
    /// Per finger bone (index in `finger_bones` order): bone and its prepared curl, for the
    /// skeleton and version in `curl_for`.
    curl_bones: Vec<(usize, i32, FingerCurl)>,
    curl_for: crate::skeleton_bind::SkeletonBind<Hand>,
    /// What the fingers were last curled for (state, grip, trigger, the three curl angles, the
    /// tracked curls and their weight): the same inputs write nothing (the hand rig keeps its
    /// pose, and only this driver moves it while it curls).
    curled_with: Option<(HandPoseState, [u32; 11])>,
    /// The hand-tracked curls' fade.
    finger_input: FingerInput,
    /// Per finger bone (`finger_bones` order), while tracked curls are blended over a pose this
    /// driver does not write: what the blend wrote last frame, and the pose under it (what the
    /// animation wrote this frame, or, when nothing writes the bone again, what it held before).
    blended: [Option<Quat>; FINGERS],
    blend_base: [Quat; FINGERS],
    report: ProblemReport,
    base: Base<Node>,
}

#[godot_api]
impl INode for HandPoseDriver {
    fn init(base: Base<Node>) -> Self {
        let d = HandPoseSettings::default();
        Self {
            hand: Hand::Left,
            animation_player: None,
            source_skeleton: None,
            controller: None,
            hand_in_holster_zone: false,
            pistol_held: false,
            curl_from_controller: true,
            grip_curl_deg: d.grip_curl_deg,
            trigger_curl_deg: d.trigger_curl_deg,
            thumb_curl_deg: d.thumb_curl_deg,
            grip_action: StringName::from("grip"),
            trigger_action: StringName::from("trigger"),
            // The revolver's default cocking length (the original design: 0.6 s).
            hammer_cock_duration_s: 0.6,
            shoot_duration_s: 0.24,
            stage: Stage::default(),
            curl_bones: Vec::new(),
            curl_for: Default::default(),
            curled_with: None,
            hand_tracking: true,
            hand_tracker: StringName::default(),
            hand_tracking_fade_s: 0.15,
            finger_input: FingerInput::default(),
            blended: [None; FINGERS],
            blend_base: [Quat::IDENTITY; FINGERS],
            report: ProblemReport::new("HandPoseDriver"),
            base,
        }
    }

    fn ready(&mut self) {
        let problems = self.problems();
        self.report.runtime(&problems);
    }

    fn process(&mut self, delta: f64) {
        // A tool class (the one-click setup creates it in the editor): it acts in games only.
        if crate::shared::common::skip_in_editor(false) {
            return;
        }
        if let Some(state) = self.stage.update(delta as f32) {
            self.play(state);
            self.signals()
                .pose_state_changed()
                .emit(state as i32, &GString::from(state.name()));
        }
        // Without an authored animation for the state, the shipped procedural pose: the
        // fingers still follow grip and trigger, and the revolver's poses still show. Hand
        // tracking's curls fade in over either (the core's finger step, as every body runs it).
        let state = self.stage.current();
        let input = self.finger_input(state, delta as f32);
        let mode = FingerMode::choose(
            self.animating(),
            state,
            self.curl_from_controller,
            input.tracked_weight,
            self.blended.iter().any(Option::is_some),
        );
        match mode {
            FingerMode::Curl => {
                self.blended = [None; FINGERS];
                self.curl(input);
            }
            // The tracked curls over what poses the fingers, left as it was when they fade out.
            FingerMode::TrackedOverSource => self.blend_tracked_over_source(input),
            FingerMode::Leave => self.stop_curling(),
        }
    }

    fn exit_tree(&mut self) {
        self.stop_curling();
        self.finger_input = FingerInput::default();
        self.blended = [None; FINGERS];
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        refresh_warnings_on_set(&self.to_gd().upcast())
    }
}

#[godot_api]
impl HandPoseDriver {
    /// The pose changed: `state` is a `VRArms.HandPoseState` (DEFAULT, PRE_GRIP, GRIP_READY,
    /// HAMMER_COCK, SHOOT, GATE_LOADING, FANNING, TWIRL, PINCH), `state_name` its name.
    #[signal]
    fn pose_state_changed(state: i32, state_name: GString);

    #[func]
    pub fn set_hand_in_holster_zone(&mut self, inside: bool) {
        self.hand_in_holster_zone = inside;
        self.stage.hand_in_holster_zone = inside;
    }

    #[func]
    pub fn set_pistol_held(&mut self, held: bool) {
        self.pistol_held = held;
        self.stage.pistol_held = held;
    }

    /// The revolver in this hand has its loading gate open: the `GateLoading` pose while it is
    /// held (set by the [Revolver] each frame).
    #[func]
    pub fn set_gate_open(&mut self, open: bool) {
        self.stage.gate_open = open;
    }

    /// The revolver in this hand is twirling: the `Twirl` pose (set by the [Revolver]).
    #[func]
    pub fn set_twirling(&mut self, twirling: bool) {
        self.stage.twirling = twirling;
    }

    /// This (off) hand is poised over the revolver's hammer to fan it: the `Fanning` pose (set
    /// by the [Revolver] whose `support_hand_pose` it is).
    #[func]
    pub fn set_fanning(&mut self, fanning: bool) {
        self.stage.fanning = fanning;
    }

    /// This hand holds a cartridge: the `Pinch` pose (set by its [CartridgeHand]).
    #[func]
    pub fn set_pinching(&mut self, pinching: bool) {
        self.stage.pinching = pinching;
    }

    /// Plays the hammer-cock pose once and returns how long it lasts (seconds): the
    /// `HammerCock` animation's length over the player's speed when there is one, else
    /// `hammer_cock_duration_s`. The revolver's cocking timeline takes this length.
    #[func]
    pub fn play_hammer_cock(&mut self) -> f32 {
        let duration = self.hammer_cock_length_s();
        self.stage
            .play_one_shot(HandPoseState::HammerCock, duration);
        duration
    }

    /// Plays the shoot pose once.
    #[func]
    pub fn play_shoot(&mut self) {
        self.stage
            .play_one_shot(HandPoseState::Shoot, self.shoot_duration_s);
    }

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    /// The current pose state, a `VRArms.HandPoseState` (see [signal pose_state_changed]).
    #[func]
    fn get_pose_state(&self) -> i32 {
        self.stage.current() as i32
    }

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if alive(&self.source_skeleton).is_none() && alive(&self.animation_player).is_none() {
            out.extend(unset_problem(
                &self.source_skeleton,
                "source_skeleton",
                "the skeleton whose fingers it poses (HandPoseCopy copies them onto the visible hand), or set \"animation_player\"",
            ));
        }
        // A source without finger bones is HandPoseCopy's warning (the copy has nothing to
        // copy); the driver then has nothing to curl and stays quiet.
        if self.curl_from_controller && self.controller.is_none() {
            out.push(
                "Set \"controller\" to this hand's XRController3D: grip and trigger curl the fingers (or turn \"curl_from_controller\" off)."
                    .into(),
            );
        }
        out
    }

    fn hammer_cock_length_s(&self) -> f32 {
        let name = HandPoseState::HammerCock.name();
        alive(&self.animation_player)
            .filter(|p| p.has_animation(name))
            .and_then(|p| {
                let length = p.get_animation(name)?.get_length();
                let speed = p.get_speed_scale().abs();
                (speed > 1e-3).then(|| length / speed)
            })
            .filter(|d| d.is_finite() && *d > 0.0)
            .unwrap_or(self.hammer_cock_duration_s)
    }

    fn side(&self) -> Side {
        self.hand.side()
    }

    fn animating(&self) -> bool {
        self.animation_player
            .as_ref()
            .filter(|p| p.is_instance_valid())
            .is_some_and(|p| p.is_playing() && p.has_animation(self.stage.current().name()))
    }

    fn play(&mut self, state: HandPoseState) {
        let Some(mut player) = alive(&self.animation_player) else {
            return;
        };
        if player.has_animation(state.name()) {
            player.play_ex().name(state.name()).done();
        } else {
            player.stop();
            self.report.runtime(&[format!(
                "no animation \"{}\" on {}; the procedural pose is used",
                state.name(),
                player.get_name()
            )]);
        }
    }

    /// This frame's finger input: the state, the controller's grip and trigger, and the hand
    /// tracker's curls (measured from its joints) when it tracks the hand.
    fn finger_input(&mut self, state: HandPoseState, dt: f32) -> HandInput {
        let (grip, trigger) = match self.controller.as_ref().filter(|c| c.is_instance_valid()) {
            Some(c) => (
                c.get_float(&self.grip_action),
                c.get_float(&self.trigger_action),
            ),
            None => (0.0, 0.0),
        };
        // Turned off: the tracked curls go at once.
        if !self.hand_tracking {
            self.finger_input = FingerInput::default();
        }
        let side = self.side();
        let tracked = self
            .hand_tracking
            .then(|| {
                let tracker = if self.hand_tracker.is_empty() {
                    StringName::from(match side {
                        Side::Left => "/user/hand_tracker/left",
                        Side::Right => "/user/hand_tracker/right",
                    })
                } else {
                    self.hand_tracker.clone()
                };
                tracked_joints(&tracker)
            })
            .flatten()
            .and_then(|joints| tracked_finger_curls(&joints, side));
        let fade = self.hand_tracking_fade_s;
        self.finger_input
            .update(state, grip, trigger, tracked, fade, dt)
    }

    /// The curl settings of this driver.
    fn curl_settings(&self) -> HandPoseSettings {
        HandPoseSettings {
            grip_curl_deg: self.grip_curl_deg,
            trigger_curl_deg: self.trigger_curl_deg,
            thumb_curl_deg: self.thumb_curl_deg,
            ..Default::default()
        }
    }

    /// The source skeleton's finger bones and their prepared curls, measured again when the
    /// skeleton changes.
    fn prepare_curls(&mut self, skeleton: &Gd<Skeleton3D>) {
        let before = self.curl_for.skeleton();
        if !self.curl_for.rebind(skeleton, self.hand) {
            return;
        }
        if let Some(rig) = before {
            crate::relay::forget_bones(rig, self.curl_bones.iter().map(|b| b.1));
        }
        self.curled_with = None;
        self.curl_bones.clear();
        for (i, found) in crate::shared::rest_measure::finger_curls(skeleton, self.side())
            .into_iter()
            .enumerate()
        {
            if let Some((bone, curl)) = found {
                self.curl_bones.push((i, bone, curl));
            }
        }
    }

    /// The prepared curls in `finger_bones` order.
    fn prepared(&self) -> [Option<FingerCurl>; FINGERS] {
        let mut out = [None; FINGERS];
        for &(i, _, curl) in &self.curl_bones {
            out[i] = Some(curl);
        }
        out
    }

    /// Curls the source skeleton's fingers: the core's finger step (the procedural pose of the
    /// state from grip and trigger, the tracked curls faded in over it).
    fn curl(&mut self, input: HandInput) {
        let Some(mut skeleton) = alive(&self.source_skeleton) else {
            return;
        };
        self.prepare_curls(&skeleton);
        let settings = self.curl_settings();
        let c = input.tracked_curls;
        let inputs = (
            input.state,
            [
                input.grip.to_bits(),
                input.trigger.to_bits(),
                self.grip_curl_deg.to_bits(),
                self.trigger_curl_deg.to_bits(),
                self.thumb_curl_deg.to_bits(),
                input.tracked_weight.to_bits(),
                c[0].to_bits(),
                c[1].to_bits(),
                c[2].to_bits(),
                c[3].to_bits(),
                c[4].to_bits(),
            ],
        );
        if self.curled_with == Some(inputs) {
            return;
        }
        self.curled_with = Some(inputs);
        let rig = skeleton.instance_id();
        let rotations = finger_rotations(&settings, &self.prepared(), &input);
        for &(i, bone, _) in &self.curl_bones {
            if let Some(local) = rotations[i] {
                skeleton.set_bone_pose_rotation(bone, to_quaternion(local));
                crate::relay::publish_bone(rig, bone, local);
            }
        }
    }

    /// Blends the tracked curls (the finger step at full tracked weight) over the pose the
    /// source holds by their weight; at weight 0 it puts that pose back and stops.
    fn blend_tracked_over_source(&mut self, input: HandInput) {
        let Some(mut skeleton) = alive(&self.source_skeleton) else {
            return;
        };
        self.prepare_curls(&skeleton);
        self.stop_curling();
        let full = HandInput {
            tracked_weight: 1.0,
            ..input
        };
        let tracked = finger_rotations(&self.curl_settings(), &self.prepared(), &full);
        let w = input.tracked_weight;
        for &(i, bone, _) in &self.curl_bones {
            let Some(tracked) = tracked[i] else {
                continue;
            };
            let now = quat(skeleton.get_bone_pose_rotation(bone));
            // Not what this wrote last frame: something else posed it, and that is the base.
            if self.blended[i] != Some(now) {
                self.blend_base[i] = now;
            }
            let base = self.blend_base[i];
            let local = vr_arms_core::hands::finger_step::blend_tracked(base, tracked, w);
            skeleton.set_bone_pose_rotation(bone, to_quaternion(local));
            // Read back as Godot stores it, so the comparison above sees this write.
            self.blended[i] = (w > 0.0).then(|| quat(skeleton.get_bone_pose_rotation(bone)));
        }
    }

    /// Loads the curl angles from the `[hand_pose]` section of a TOML profile; on error (one line
    /// naming it) the settings stay.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        apply_profile("HandPoseDriver", &path, |p| {
            let mut s = p.hand_pose;
            s.validate();
            self.grip_curl_deg = s.grip_curl_deg;
            self.trigger_curl_deg = s.trigger_curl_deg;
            self.thumb_curl_deg = s.thumb_curl_deg;
        })
    }

    /// Saves the curl angles into the `[hand_pose]` section of a TOML profile (the rest of the
    /// file is kept).
    #[func]
    fn save_profile(&self, path: GString) -> bool {
        let (grip, trigger, thumb) = (
            self.grip_curl_deg,
            self.trigger_curl_deg,
            self.thumb_curl_deg,
        );
        store_profile("HandPoseDriver", &path, |p| {
            p.hand_pose.grip_curl_deg = grip;
            p.hand_pose.trigger_curl_deg = trigger;
            p.hand_pose.thumb_curl_deg = thumb;
        })
    }

    /// How much of the fingers' pose comes from hand tracking now (0 to 1).
    #[func]
    fn get_hand_tracking_weight(&self) -> f32 {
        self.finger_input.weight()
    }

    /// The fingers are no longer curled here (an animation plays, or the state has no curl):
    /// forget what was written, so the next curl writes every bone and `HandPoseCopy` reads the
    /// rig again.
    fn stop_curling(&mut self) {
        self.curled_with = None;
        if let Some(rig) = self.curl_for.skeleton() {
            crate::relay::forget_bones(rig, self.curl_bones.iter().map(|b| b.1));
        }
    }
}
