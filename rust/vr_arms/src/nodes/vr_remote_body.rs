//! `VRRemoteBody`: the whole body, upper and lower, in one `SkeletonModifier3D` (remote players, crowds).

use godot::classes::{ISkeletonModifier3D, Node3D, Skeleton3D, SkeletonModifier3D, XrController3D};
use godot::prelude::*;
use vr_arms_core::arms::tracking_loss::{
    DEFAULT_REST_POSITIONS, TrackingEvent, TrackingLossSettings,
};
use vr_arms_core::body::Tracking;
use vr_arms_core::body::body_pipeline::HandInput;
use vr_arms_core::body::profile::ArmProfile;
use vr_arms_core::crowd::budget::Budget;
use vr_arms_core::crowd::crowd_detail::DetailLevel;
use vr_arms_core::hands::finger_step::FingerInput;
use vr_arms_core::hands::hand_pose::HandPoseState;
use vr_arms_core::{PerSide, Pose, Side};

use crate::convert::vec3;
use crate::nodes::body_detail::{BodyDetail, VRBodyDetail};
use crate::nodes::body_follow::{floor_height, place_root};
use crate::nodes::vr_remote_body::bones::{Bound, bind_bones};
use crate::problems::ProblemReport;
use crate::shared::budget::effective_interval;
use crate::shared::common::HUMANOID_ARMS as ARMS;
use crate::shared::common::{alive, load_profile, parent_skeleton, read_raw, skip_in_editor};
use crate::shared::hand::Hand;

pub mod bones;
mod detail;
mod ground;
pub mod pass;
pub mod setup;

/// The whole body of one avatar in a single modifier: body follow, the five arm target stages,
/// chest/neck/head, the lower body (hips, spine bend, legs and stepping feet; `lower_body`),
/// clavicles, the two-bone solves, forearm twist and finger curls, the same core stages as the
/// node graph that [VRArmsSetup] builds, composed in Rust.
///
/// Use it for avatars whose body is driven by three tracked points and nothing else: remote
/// players (a network script moves the `head` and hand nodes) and crowds. A hand whose node is an
/// untracked [XRController3D] holds, eases to rest and blends back as with `ControllerTargets`
/// (`tracking_changed` says so); an untracked headset freezes the body. It costs a fraction of
/// the node graph (see docs/performance.md), but has none of its per-stage nodes: no target
/// markers, no interaction overrides, no stage of your own in between, no revolver poses. For
/// the local player use the node graph. Place it under the avatar's [Skeleton3D] (Godot's
/// humanoid bone names); the avatar root is the skeleton's parent unless `body_root` is set.
#[derive(GodotClass)]
#[class(base = SkeletonModifier3D, tool)]
pub struct VRRemoteBody {
    /// The head: an [XRCamera3D], or a node a network script moves to the remote player's
    /// headset pose.
    #[export]
    head: Option<Gd<Node3D>>,
    /// The left hand's controller (or a node placed at the remote player's left controller).
    #[export]
    left_hand: Option<Gd<Node3D>>,
    /// The right hand's controller (or a node placed at the remote player's right controller).
    #[export]
    right_hand: Option<Gd<Node3D>>,
    /// The avatar root, the body frame of every stage (empty: the skeleton's parent).
    #[export]
    body_root: Option<Gd<Node3D>>,
    /// Move the avatar root under the head every frame (as `BodyFollow`, from the head and
    /// hands, on the head's parent's floor). Off when the root's pose comes from elsewhere.
    #[export]
    follow_head: bool,
    /// The hips, spine and legs follow the headset too: the remote player crouches, bows,
    /// leans and steps (needs Godot's humanoid `Hips`, `Head` and leg bones; a rig without them
    /// keeps its lower body's pose). Off: only the upper body is solved, as before.
    #[export]
    lower_body: bool,
    /// The remote player sits (your game says so, e.g. from its own network state): hips on a
    /// seat under the upright torso, the feet ahead under the knees, no kneeling, as
    /// `LowerBodyRig.seated`. The body also sits while `VRAvatarSync`'s stream says the
    /// sender sits (its `LowerBodyRig.is_sitting()`); [method is_sitting] says whether it does.
    #[export]
    seated: bool,
    /// Stand each foot on what a physics ray finds under its place (steps, ramps, a crate)
    /// instead of the flat floor at the head's parent's height: one ray per foot a frame, from
    /// the hips' height down to half a metre under the floor, as `LowerBodyRig.floor_ray`. The
    /// rays pass through the avatar's own colliders (under `body_root`) and
    /// `add_floor_ray_exception`'s. Off by default; also on when the profile's `[lower_body]`
    /// `floor_ray` is (with that profile's `floor_collision_mask`).
    #[export_group(name = "Ground")]
    #[export]
    floor_ray: bool,
    /// The physics layers the feet stand on (`floor_ray`).
    #[export(flags_3d_physics)]
    floor_collision_mask: u32,
    /// Left grip, 0..1 (curls the middle, ring and little fingers and the thumb).
    #[export_group(name = "Fingers")]
    #[export(range = (0.0, 1.0))]
    left_grip: f32,
    /// Left trigger, 0..1 (curls the index finger).
    #[export(range = (0.0, 1.0))]
    left_trigger: f32,
    /// Right grip, 0..1.
    #[export(range = (0.0, 1.0))]
    right_grip: f32,
    /// Right trigger, 0..1.
    #[export(range = (0.0, 1.0))]
    right_trigger: f32,
    /// Read grip and trigger from a hand node that is an [XRController3D] (its actions
    /// `grip_action` and `trigger_action`) instead of the four values above.
    #[export]
    read_controller_input: bool,
    /// The OpenXR float action that curls the three lower fingers and the thumb.
    #[export]
    grip_action: StringName,
    /// The OpenXR float action that curls the index finger.
    #[export]
    trigger_action: StringName,
    /// Time to fade between the grip-and-trigger curl and the hand-tracked finger curls of
    /// [method set_tracked_finger_curls] when they start or stop (seconds).
    #[export(range = (0.0, 1.0, suffix = "s"))]
    hand_tracking_fade_s: f32,
    /// Where the left hand rests when its controller is lost, in the avatar root's frame (metres).
    #[export_group(name = "Tracking Loss")]
    #[export]
    left_rest_position: Vector3,
    /// Where the right hand rests when its controller is lost, in the avatar root's frame (metres).
    #[export]
    right_rest_position: Vector3,
    /// Time from the last good pose to the rest pose (seconds).
    #[export(range = (0.0, 5.0, suffix = "s"))]
    tracking_loss_ease_s: f32,
    /// Time to blend back onto the controller when tracking returns (seconds).
    #[export(range = (0.0, 5.0, suffix = "s"))]
    tracking_regain_blend_s: f32,
    /// Whether the remote player's headset is tracked: set it false when its poses stop
    /// arriving (the body freezes). An [XRCamera3D] `head` also follows the XR server.
    #[export]
    head_tracked: bool,
    /// Whether the left controller is tracked: set it false when its poses stop arriving (the
    /// hand holds, then eases to rest). An [XRController3D] also reports its own tracking.
    #[export]
    left_hand_tracked: bool,
    /// Whether the right controller is tracked (as `left_hand_tracked`).
    #[export]
    right_hand_tracked: bool,
    /// A TOML rig profile for every stage (for example
    /// `res://addons/vr_arms/profiles/remote_player.toml`); empty: the defaults. Read when the
    /// modifier binds to its skeleton, and again when this changes.
    #[export_group(name = "Profile")]
    #[export(file = "*.toml")]
    profile: GString,
    /// Solve every this many frames (1: every frame). In between, the bones blend from the
    /// previous solve to the last one and no stage runs (the body follow still moves the root
    /// every frame): much less CPU for remote or distant avatars, at one interval of extra
    /// latency. Avatars are spread over the interval, so a crowd's cost is even per frame.
    /// `tracking_changed` then comes on the next solving frame, and a loss shorter than an
    /// interval may not be seen at all. Needs the skeleton's `modifier_callback_mode_process` at
    /// Idle.
    #[export_group(name = "Budget")]
    #[export(range = (1.0, 8.0, suffix = "frames"))]
    update_interval_frames: i32,
    /// How much of the body's work runs: `AUTO` picks the level by distance to the nearest view
    /// and whether any view sees the body (`detail_settings`); the others force one. `FULL`
    /// every stage every frame; `REDUCED` solved every few frames and blended, the fingers
    /// frozen; `LOW` solved every few more, written only then (outside the modifier pass, so
    /// nothing is written in between); `OFF` holds the last pose. A hidden body is off. Changes
    /// cross-fade (`VRBodyDetail.fade_s`); a body that comes into view catches up on that frame.
    #[export_group(name = "Detail")]
    #[export]
    detail: BodyDetail,
    /// The crowd's levels of detail (distances, intervals, culling, the views' group), shared by
    /// its bodies; empty: the defaults (see [VRBodyDetail]).
    #[export]
    detail_settings: Option<Gd<VRBodyDetail>>,
    /// Solve in the editor too (off by default: the editor has no tracking).
    #[export_group(name = "Editor")]
    #[export]
    editor_preview: bool,

    bound: Option<Bound>,
    /// The stream says the player sits (`VRAvatarSync`).
    stream_seated: bool,
    /// Why the last bind failed, for the configuration warnings.
    bind_error: Option<String>,
    /// Whether a rejected head or hand pose was reported (once).
    input_reported: bool,
    /// The follow step while the skeleton cannot bind (the bound body has its own).
    unbound_follow: vr_arms_core::body::FollowStep,
    /// Tells the modifier pass Godot runs at setup, before any `_process`, apart.
    setup_pass: crate::engine::SetupPass,
    /// What `bound` was made for: skeleton, its version, the profile path, `lower_body`.
    bound_to: crate::skeleton_bind::SkeletonBind<(GString, bool)>,
    /// Where this avatar is in its update interval.
    budget: Budget,
    /// Frames solved since the last bind (see `get_solved_frames`).
    solved_frames: i64,
    controllers: [Option<(InstanceId, Option<Gd<XrController3D>>)>; 2],
    /// Per hand: the hand-tracked finger curls, when there are any, and how much they show.
    tracked_curls: [Option<[f32; 5]>; 2],
    /// Per hand: the hand-tracked curls' fade (the last ones shown while it fades out).
    finger_inputs: [FingerInput; 2],
    /// What the feet's rays (`floor_ray`) pass through.
    ray_exceptions: crate::shared::floor_ray::RayExceptions,
    /// Where the body is in its levels of detail.
    lod: detail::DetailState,
    report: ProblemReport,
    base: Base<SkeletonModifier3D>,
}

#[godot_api]
impl ISkeletonModifier3D for VRRemoteBody {
    fn init(base: Base<SkeletonModifier3D>) -> Self {
        // Body follow in `_process`, before the arm pipeline (as `BodyFollow`).
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::BODY_FOLLOW);
        Self {
            head: None,
            left_hand: None,
            right_hand: None,
            body_root: None,
            follow_head: true,
            lower_body: true,
            seated: false,
            floor_ray: false,
            floor_collision_mask: 1,
            left_grip: 0.0,
            left_trigger: 0.0,
            right_grip: 0.0,
            right_trigger: 0.0,
            read_controller_input: true,
            grip_action: StringName::from("grip"),
            trigger_action: StringName::from("trigger"),
            hand_tracking_fade_s: 0.15,
            left_rest_position: crate::convert::to_vector3(DEFAULT_REST_POSITIONS[0]),
            right_rest_position: crate::convert::to_vector3(DEFAULT_REST_POSITIONS[1]),
            tracking_loss_ease_s: TrackingLossSettings::default().ease_to_rest_s,
            tracking_regain_blend_s: TrackingLossSettings::default().regain_blend_s,
            profile: GString::new(),
            editor_preview: false,
            bound: None,
            stream_seated: false,
            bound_to: Default::default(),
            bind_error: None,
            input_reported: false,
            unbound_follow: vr_arms_core::body::FollowStep::new(Default::default()),
            setup_pass: Default::default(),
            head_tracked: true,
            left_hand_tracked: true,
            right_hand_tracked: true,
            update_interval_frames: 1,
            budget: Budget::new(1),
            solved_frames: 0,
            controllers: [None, None],
            tracked_curls: [None, None],
            finger_inputs: Default::default(),
            ray_exceptions: Default::default(),
            detail: BodyDetail::Auto,
            detail_settings: None,
            lod: Default::default(),
            report: ProblemReport::new("VRRemoteBody"),
            base,
        }
    }

    fn enter_tree(&mut self) {
        self.setup_pass.entered_tree();
    }

    fn exit_tree(&mut self) {
        // Taken off the skeleton (or freed with it): what it wrote outside the modifier pass
        // goes back.
        if self.holds_outside_pose() {
            self.release_outside_pose(false, false);
        }
    }

    fn process(&mut self, delta: f64) {
        self.setup_pass.processed();
        let active = !skip_in_editor(self.editor_preview) && self.base().is_active();
        if !active && self.holds_outside_pose() {
            // Switched off: nothing written outside the pass may stay on the skeleton.
            self.release_outside_pose(false, true);
        }
        let skeleton = active.then(|| self.base().get_skeleton()).flatten();
        if let Some(mut skeleton) = skeleton.clone() {
            // Bound first: a new skeleton (or version) starts its level afresh before it is set.
            self.bind(&skeleton);
            self.update_level(&mut skeleton, delta);
        }
        // A body nobody sees does not move its root either; seen again, it catches up.
        match self.lod.follow_step(delta) {
            Some(step) => self.follow(step),
            None => return,
        }
        let Some(mut skeleton) = skeleton else {
            return;
        };
        if self.lod.level == DetailLevel::Low {
            // Solved and written here, outside the modifier pass: the pose persists, and the
            // frames in between write nothing.
            self.solve_and_write(&mut skeleton, delta);
        }
    }

    fn process_modification_with_delta(&mut self, delta: f64) {
        if skip_in_editor(self.editor_preview) {
            return;
        }
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
        // Godot runs the modifiers once at setup, before any `_process`: the body's first step
        // has not run, the tracked points may not be placed yet, and a pass now would start the
        // smoothing from them (the node graph's rig has no target then either).
        if self.setup_pass.is_setup_pass() {
            return;
        }
        // Low detail solves in `_process`; off does nothing.
        if !self.lod.level.writes_in_pass() {
            return;
        }
        let Some(mut skeleton) = self.base().get_skeleton() else {
            return;
        };
        self.bind(&skeleton);
        self.solve_and_write(&mut skeleton, delta);
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl VRRemoteBody {
    /// This frame's inputs from a network stream (`VRAvatarSync`): whether the head is tracked,
    /// and per hand (left, right) whether it is tracked, its grip and trigger. The same fields
    /// as the inspector's, set directly rather than by name on every frame.
    /// Finger curls from hand tracking, when the stream has them, as
    /// [method set_tracked_finger_curls] takes them. Whether the sender sits (with [member
    /// seated], the body sits if either says so).
    pub(crate) fn set_stream_inputs(
        &mut self,
        head_tracked: bool,
        hands: [(bool, f32, f32); 2],
        curls: [Option<[f32; 5]>; 2],
        seated: bool,
    ) {
        self.stream_seated = seated;
        let [(lt, lg, ltr), (rt, rg, rtr)] = hands;
        self.head_tracked = head_tracked;
        (self.left_hand_tracked, self.left_grip, self.left_trigger) = (lt, lg, ltr);
        (self.right_hand_tracked, self.right_grip, self.right_trigger) = (rt, rg, rtr);
        self.tracked_curls = curls;
    }

    /// Sets [member update_interval_frames] (the crowd budget) from `VRAvatarSync`.
    pub(crate) fn set_interval_from_stream(&mut self, frames: i32) {
        self.update_interval_frames = frames;
    }

    /// Sets [member detail_settings] (the crowd's levels of detail) from `VRAvatarSync`.
    pub(crate) fn set_detail_from_stream(&mut self, detail: Option<Gd<VRBodyDetail>>) {
        self.detail_settings = detail;
    }

    /// The remote player's hand is hand-tracked: its fingers take these curls (five values:
    /// thumb, index, middle, ring, little; 0 open, 1 fully curled) instead of the grip and
    /// trigger curl, faded in over [member hand_tracking_fade_s]. An empty array ends it (the
    /// fingers fade back to grip and trigger). Any other length is refused with an error.
    #[func]
    fn set_tracked_finger_curls(&mut self, hand: Hand, curls: PackedFloat32Array) {
        let Some(curls) = crate::shared::hand::tracked_curls_arg("VRRemoteBody", &curls) else {
            return;
        };
        self.tracked_curls[hand.side().index()] = curls;
    }

    /// Kicks one hand, as `ControllerTargets.add_recoil` does in the node graph: `position_kick`
    /// in metres and `rotation_kick_deg` in degrees per axis, in the controller's space, easing
    /// back by the profile's recoil settings (a remote player's shot, from its event).
    #[func]
    fn add_recoil(&mut self, hand: Hand, position_kick: Vector3, rotation_kick_deg: Vector3) {
        let Some(b) = self.bound.as_mut() else {
            return;
        };
        b.body.pipeline.arms.controller_targets.add_recoil(
            hand.side(),
            vec3(position_kick),
            vec3(rotation_kick_deg),
        );
    }

    /// A hand's controller lost (`tracked` false) or regained tracking: `hand` 0 is the left,
    /// 1 the right. A lost hand holds, then eases to its rest position, then blends back. With
    /// `update_interval_frames` above 1 it is seen on solving frames only.
    #[signal]
    fn tracking_changed(hand: Hand, tracked: bool);

    /// The body's level of detail changed (to `FULL`, `REDUCED`, `LOW` or `OFF`).
    #[signal]
    fn detail_changed(level: BodyDetail);

    /// Whether the body sits (or is sitting down): [member seated] or the stream says so; as of
    /// the last solved frame, false without a lower body.
    #[func]
    fn is_sitting(&self) -> bool {
        self.bound
            .as_ref()
            .is_some_and(|b| b.body.pipeline.sitting())
    }

    /// The level of detail the body runs at this frame (`FULL`, `REDUCED`, `LOW` or `OFF`).
    #[func]
    fn get_detail_level(&self) -> BodyDetail {
        BodyDetail::of(self.lod.level)
    }

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    /// How many frames ran the stages since the body bound to its skeleton: every frame at
    /// `update_interval_frames` 1, about one in N at N (the others replay blended bones).
    #[func]
    fn get_solved_frames(&self) -> i64 {
        self.solved_frames
    }

    /// Forgets the smoothing and springs (after a teleport, or when a remote player respawns),
    /// and binds to the skeleton again: call it too after changing the skeleton's rests or bone
    /// parents (Godot does not report such a change).
    #[func]
    fn reset(&mut self) {
        self.release_outside_pose(false, true);
        self.finger_inputs = Default::default();
        self.bound_to.forget();
        self.bound = None;
        self.unbound_follow.reset();
    }
}

impl VRRemoteBody {
    /// One frame of the body at its level (full, reduced or low; in the modifier pass for the
    /// first two, outside it for the last): the budget advanced, the stages run on a solving
    /// frame, the bones written (the blend between solves on the others, except at low detail,
    /// which writes nothing then).
    fn solve_and_write(&mut self, skeleton: &mut Gd<Skeleton3D>, delta: f64) {
        let (settings, _) = self.detail_settings();
        let level = self.lod.level;
        let wanted = level.interval(
            &settings,
            vr_arms_core::crowd::budget::interval_frames(self.update_interval_frames.into()),
        );
        let interval = effective_interval(wanted as i32, Some(skeleton));
        let id = self.base().instance_id();
        crate::shared::budget::advance_frame(&mut self.budget, interval, id, delta);
        let budget = self.budget;
        self.lod.fade.advance(delta as f32);
        if budget.solving() {
            let dt = self.lod.take_step(budget.step(delta as f32));
            if !self.solve(skeleton, dt) {
                return;
            }
        } else if level == DetailLevel::Low {
            return;
        }
        let Some(b) = self.bound.as_mut() else {
            return;
        };
        // The fingers are written only while they are live (else they hold their pose).
        let count = if level.fingers_live() {
            b.solved.len()
        } else {
            b.tree_solved
        };
        b.frame.clear();
        if budget.interval > 1 && budget.solving() {
            b.held.solved(&b.solved[..count], &budget);
            b.held_hips.solved(b.hips_position, &budget);
        }
        // Low detail writes only on its solving frames, so it writes the solve itself (a blend
        // held for the whole interval would show a pose most of an interval old).
        let hips = if budget.interval <= 1 || level == DetailLevel::Low {
            b.frame.extend_from_slice(&b.solved[..count]);
            b.hips_position
        } else {
            b.frame.extend(b.held.shown(&budget));
            b.held_hips.shown(&budget)
        };
        detail::write_frame(skeleton, b, &self.lod.fade, hips);
    }

    /// Runs the stages with a step of `dt` (into the bound body's `solved`); whether they ran.
    fn solve(&mut self, skeleton: &Gd<Skeleton3D>, dt: f32) -> bool {
        let Some(root) = self.root() else {
            return false;
        };
        self.solved_frames += 1;
        let root_global = root.get_global_transform();
        self.lod.scale = crate::shared::common::uniform_scale(&root_global);
        let [head, left, right] = self.tracked_inputs();
        let hands = [Side::Left, Side::Right].map(|side| self.hand_input(side, dt));
        let tracking = Tracking {
            head,
            controllers: PerSide::new(left, right),
            hands: PerSide::new(hands[0], hands[1]),
            overrides: PerSide::default(),
        };
        let rest = [self.left_rest_position, self.right_rest_position].map(vec3);
        let loss = TrackingLossSettings {
            ease_to_rest_s: self.tracking_loss_ease_s,
            regain_blend_s: self.tracking_regain_blend_s,
        };
        let Some(b) = self.bound.as_mut() else {
            return false;
        };
        b.body.pipeline.rest_positions = PerSide::new(rest[0], rest[1]);
        b.body.pipeline.tracking_loss.settings = loss;
        let global = skeleton.get_global_transform();
        let floor = floor_height(&None, &self.head);
        if let Some(l) = b.body.pipeline.lower_body.as_mut() {
            l.settings.seated = self.seated || self.stream_seated;
        }
        let profile = b.body.pipeline.lower_body.as_ref().map(|l| &l.settings);
        let ground = crate::shared::floor_ray::PhysicsGround::when_on(
            &skeleton.clone().upcast(),
            (self.floor_ray, self.floor_collision_mask),
            profile,
            &mut self.ray_exceptions,
            &root,
        );
        let Some(b) = self.bound.as_mut() else {
            return false;
        };
        let out = crate::nodes::vr_remote_body::pass::pose_pass(
            b,
            skeleton,
            (global, root_global),
            (floor, ground),
            &tracking,
            dt,
        );
        self.report_unusable_input();
        for side in Side::BOTH {
            if let Some(e) = out.tracking.get(side) {
                self.signals()
                    .tracking_changed()
                    .emit(Hand::of(side), *e == TrackingEvent::Regained);
            }
        }
        true
    }

    /// A stream's first state is in the tracking nodes: the body starts afresh from it, its
    /// root placed now rather than at the next `_process` (which ran this frame before the
    /// nodes moved), so an avatar that appears does not swing into place.
    pub(crate) fn start_from_stream(&mut self) {
        self.reset();
        self.setup_pass.processed();
        self.follow(0.0);
    }

    /// Places the avatar root under the head (the body's first step), when `follow_head`.
    fn follow(&mut self, delta: f64) {
        if skip_in_editor(false) || !self.base().is_active() {
            return;
        }
        let Some(skeleton) = self.base().get_skeleton() else {
            return;
        };
        self.bind(&skeleton);
        let [head, left, right] = self.tracked_inputs();
        let Some(mut root) = self.root() else {
            return;
        };
        let floor = floor_height(&None, &self.head);
        // The body's own step; a skeleton that cannot bind still has its root follow the head.
        let step = match self.bound.as_mut() {
            Some(b) => &mut b.body.follow,
            None => &mut self.unbound_follow,
        };
        step.follow_head = self.follow_head;
        let settings = step.stage.settings;
        let tracking = Tracking {
            head,
            controllers: PerSide::new(left, right),
            ..Default::default()
        };
        place_root(step, settings, &tracking, floor, &mut root, delta);
        self.report_unusable_input();
    }

    /// Warns once when the body's checks rejected or repaired a head or hand pose.
    fn report_unusable_input(&mut self) {
        let rejected = self
            .bound
            .as_ref()
            .map_or(0, |b| b.body.input_counts().total());
        if rejected > 0 && !self.input_reported {
            self.input_reported = true;
            godot_warn!(
                "VRRemoteBody: a head or hand pose was unusable (non-finite or absurdly far); such frames count as lost tracking. Reported once."
            );
        }
    }

    /// The avatar root: `body_root`, else the skeleton's parent.
    fn root(&self) -> Option<Gd<Node3D>> {
        alive(&self.body_root).or_else(|| {
            self.base()
                .get_skeleton()?
                .get_parent()?
                .try_cast::<Node3D>()
                .ok()
        })
    }

    /// The head and hands (world, unchecked: the body checks them), when tracked, read now:
    /// the body follow reads them in `_process`, the modification again, as the node graph's
    /// stages do, so a script that moves them in between is seen.
    fn tracked_inputs(&self) -> [Option<Pose>; 3] {
        let flags = [
            self.head_tracked,
            self.left_hand_tracked,
            self.right_hand_tracked,
        ];
        let nodes = [&self.head, &self.left_hand, &self.right_hand];
        let mut poses = [None; 3];
        for ((p, node), tracked) in poses.iter_mut().zip(nodes).zip(flags) {
            let inside = alive(node).is_some_and(|n| n.is_inside_tree());
            *p = if tracked && inside {
                read_raw(node)
            } else {
                None
            };
        }
        poses
    }

    /// One hand's grip and trigger (from its controller's actions, or the set values) and its
    /// hand-tracked curls, their fade moved on by `dt`.
    fn hand_input(&mut self, side: Side, dt: f32) -> HandInput {
        let (node, grip, trigger) = match side {
            Side::Left => (&self.left_hand, self.left_grip, self.left_trigger),
            Side::Right => (&self.right_hand, self.right_grip, self.right_trigger),
        };
        let tracked = self.tracked_curls[side.index()];
        let fade_s = self.hand_tracking_fade_s;
        let mut input = self.finger_inputs[side.index()].update(
            HandPoseState::Default,
            grip,
            trigger,
            tracked,
            fade_s,
            dt,
        );
        if !self.read_controller_input {
            return input;
        }
        let Some(node) = alive(node) else {
            return input;
        };
        // A node's class never changes: cast once per node.
        let slot = &mut self.controllers[side.index()];
        if slot
            .as_ref()
            .is_none_or(|(id, _)| *id != node.instance_id())
        {
            *slot = Some((node.instance_id(), node.try_cast::<XrController3D>().ok()));
        }
        if let Some((_, Some(c))) = slot.as_ref() {
            input.grip = c.get_float(&self.grip_action);
            input.trigger = c.get_float(&self.trigger_action);
        }
        input
    }

    /// Binds the pipeline to the skeleton's bones (again when they or the profile change).
    fn bind(&mut self, skeleton: &Gd<Skeleton3D>) {
        if !self
            .bound_to
            .rebind(skeleton, (self.profile.clone(), self.lower_body))
        {
            return;
        }
        // The old binding's writes outside the pass go back on its own skeleton; the new one
        // enters its level afresh (from full detail), still catching up if it was unseen.
        self.release_outside_pose(true, true);
        let profile = if self.profile.is_empty() {
            ArmProfile::default()
        } else {
            match load_profile(&self.profile) {
                Ok(p) => p,
                Err(e) => {
                    godot_error!("VRRemoteBody: {e}; the defaults are used");
                    ArmProfile::default()
                }
            }
        };
        // A new binding starts a new interval: its first frame solves.
        self.budget = Budget::new(self.budget.interval);
        self.solved_frames = 0;
        // The follow step goes on from where it was (a rebind must not snap the root).
        let follow = match self.bound.take() {
            Some(b) => b.body.follow,
            None => self.unbound_follow.clone(),
        };
        match bind_bones(skeleton, &profile, self.lower_body) {
            Ok(mut b) => {
                b.body.follow.stage.state_from(&follow.stage);
                self.bound = Some(b);
                self.bind_error = None;
            }
            Err(e) => {
                self.unbound_follow = follow;
                self.unbound_follow.stage.settings = profile.body_follow;
                self.bind_error = Some(e);
            }
        }
    }

    fn problems(&self) -> Vec<String> {
        let Some(skeleton) = parent_skeleton(&self.base().clone().upcast()) else {
            return vec!["VRRemoteBody must be a child of a Skeleton3D.".into()];
        };
        let mut out: Vec<String> = ARMS
            .iter()
            .flat_map(|a| &a[1..])
            .filter(|n| skeleton.find_bone(**n) < 0)
            .map(|n| format!("Bone \"{n}\" is not in the skeleton (humanoid names needed: retarget with a BoneMap to SkeletonProfileHumanoid)."))
            .collect();
        out.extend(crate::nodes::vr_remote_body::bones::chain_problems(
            &skeleton,
        ));
        out.extend(crate::nodes::vr_remote_body::bones::detached_legs_problem(
            &skeleton,
            self.lower_body,
        ));
        out.extend(crate::shared::budget::interval_problem(
            self.update_interval_frames,
            Some(&skeleton),
            "VRRemoteBody",
        ));
        out.extend(self.detail_problems(&skeleton));
        if out.is_empty()
            && let Some(e) = &self.bind_error
        {
            out.push(format!("Cannot bind to the skeleton: {e}."));
        }
        for (name, node) in [
            ("head", &self.head),
            ("left_hand", &self.left_hand),
            ("right_hand", &self.right_hand),
        ] {
            if alive(node).is_none() {
                out.push(format!("Set `{name}`: the node whose pose drives it."));
            }
        }
        out
    }
}
