//! `VRBodySolver`: the core's one composition of the whole body, called from a script.

use godot::classes::{CollisionObject3D, IRefCounted, RefCounted, Skeleton3D};
use godot::prelude::*;
use vr_arms_core::body::body_pipeline::{HandInput, Steps};
use vr_arms_core::body::profile::ArmProfile;
use vr_arms_core::body::{Placement, Tracking};
use vr_arms_core::hands::finger_step::FingerInput;
use vr_arms_core::hands::hand_pose::HandPoseState;
use vr_arms_core::{PerSide, Pose, Side};

use crate::convert::{pose, to_quaternion, to_vector3};
use crate::nodes::vr_remote_body::bones::{
    Bound, bind_bones, chain_problems, detached_legs_problem,
};
use crate::shared::common::apply_profile;
use crate::shared::hand::Hand;

/// The whole body (the body follow, the arm target stages, chest, neck and head, the lower body,
/// clavicles, the arm solves, forearm twist and the finger curls) as one object called once a frame from your
/// own code: the very composition `VRRemoteBody` runs, and the reference the engine tests hold
/// the node graph to. It moves nothing: [method step] returns the root's pose and the bone
/// rotations to write.
///
/// Each step can be switched off, to match a node graph without that node: `spine`,
/// `lower_body`, `clavicles`, `forearm_twist`, `fingers`, `follow_head` (all on by default).
#[derive(GodotClass)]
#[class(base = RefCounted)]
pub struct VRBodySolver {
    /// Move the avatar root under the headset (the body follow). Off: the root is where you
    /// pass it.
    #[var]
    follow_head: bool,
    /// Chest, neck and head turn toward the headset.
    #[var]
    spine: bool,
    /// The clavicles follow the hands.
    #[var]
    clavicles: bool,
    /// The lower arms take their share of the hands' twist.
    #[var]
    forearm_twist: bool,
    /// The fingers curl with grip and trigger (or hand-tracked curls).
    #[var]
    fingers: bool,
    /// The hips, spine and legs follow the headset (crouch, bow, lean, steps), for a rig with
    /// humanoid `Hips`, `Head` and leg bones. Read by [method configure].
    #[var]
    lower_body: bool,
    /// The player sits (the game says so): hips on a seat under the upright torso, the feet
    /// ahead under the knees, no kneeling, as `LowerBodyRig.seated`.
    #[var]
    seated: bool,
    /// Also sit when the headset comes down to a seat's height and stays there, still, as
    /// `LowerBodyRig.sit_from_headset` (off by default).
    #[var]
    sit_from_headset: bool,
    /// The floor's height (the XR origin's), in world metres.
    #[var]
    floor_y: f32,
    /// Stand each foot on what a physics ray finds under its place (steps, ramps, a crate) in
    /// the skeleton's physics world instead of the flat floor at `floor_y`, as
    /// `LowerBodyRig.floor_ray`. The rays pass through the colliders under the skeleton's parent
    /// (the avatar's own hit boxes) and `add_floor_ray_exception`'s. Off by default; also on
    /// when the profile's `[lower_body]` `floor_ray` is (with that profile's mask).
    #[var]
    floor_ray: bool,
    /// The physics layers the feet stand on (`floor_ray`).
    #[var]
    floor_collision_mask: u32,
    ray_exceptions: crate::shared::floor_ray::RayExceptions,
    /// Seconds hand-tracked curls take to fade in (and out when they stop).
    #[var]
    hand_tracking_fade_s: f32,
    profile: ArmProfile,
    bound: Option<Bound>,
    /// Per hand: grip, trigger, and the hand-tracked curls when there are any.
    hands: [(f32, f32, Option<[f32; 5]>); 2],
    finger_inputs: [FingerInput; 2],
    /// Per hand: the interaction override target (world), when one is set.
    overrides: [Option<Pose>; 2],
    base: Base<RefCounted>,
}

#[godot_api]
impl IRefCounted for VRBodySolver {
    fn init(base: Base<RefCounted>) -> Self {
        Self {
            follow_head: true,
            spine: true,
            clavicles: true,
            forearm_twist: true,
            fingers: true,
            lower_body: true,
            seated: false,
            sit_from_headset: false,
            floor_y: 0.0,
            floor_ray: false,
            floor_collision_mask: 1,
            ray_exceptions: Default::default(),
            hand_tracking_fade_s: 0.15,
            profile: ArmProfile::default(),
            bound: None,
            hands: [(0.0, 0.0, None); 2],
            finger_inputs: Default::default(),
            overrides: [None; 2],
            base,
        }
    }
}

#[godot_api]
impl VRBodySolver {
    /// Binds to a humanoid skeleton (Godot humanoid bone names) and measures its rest pose,
    /// hands and fingers. Returns false, with an error naming what is wrong, when it cannot.
    #[func]
    fn configure(&mut self, skeleton: Gd<Skeleton3D>) -> bool {
        let problems = chain_problems(&skeleton);
        if let Some(p) = problems.first() {
            godot_error!("VRBodySolver.configure: {p}");
            return false;
        }
        if let Some(p) = detached_legs_problem(&skeleton, self.lower_body) {
            godot_warn!("VRBodySolver.configure: {p}");
        }
        match bind_bones(&skeleton, &self.profile, self.lower_body) {
            Ok(b) => {
                self.bound = Some(b);
                true
            }
            Err(e) => {
                godot_error!("VRBodySolver.configure: {e}");
                self.bound = None;
                false
            }
        }
    }

    /// The feet's rays (`floor_ray`) pass through `body` (a held object, the player's own
    /// body), as `RayCast3D.add_exception`.
    #[func]
    fn add_floor_ray_exception(&mut self, body: Gd<CollisionObject3D>) {
        self.ray_exceptions.add(&body);
    }

    /// The feet's rays stand on `body` again.
    #[func]
    fn remove_floor_ray_exception(&mut self, body: Gd<CollisionObject3D>) {
        self.ray_exceptions.remove(&body);
    }

    /// Forgets every exception added with `add_floor_ray_exception`.
    #[func]
    fn clear_floor_ray_exceptions(&mut self) {
        self.ray_exceptions.clear();
    }

    /// Loads a TOML profile for the next [method configure]. Returns false (settings kept) on
    /// error.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        apply_profile("VRBodySolver", &path, |p| self.profile = *p)
    }

    /// Whether the body sits (or is sitting down): [member seated], or seen from the headset
    /// with [member sit_from_headset], as of the last [method step]; false before [method
    /// configure] or without a lower body.
    #[func]
    pub fn is_sitting(&self) -> bool {
        self.bound
            .as_ref()
            .is_some_and(|b| b.body.pipeline.sitting())
    }

    /// One hand's grip and trigger (0..1) for the finger curls.
    #[func]
    fn set_hand_input(&mut self, hand: Hand, grip: f32, trigger: f32) {
        let h = &mut self.hands[hand.side().index()];
        (h.0, h.1) = (grip, trigger);
    }

    /// The hand is hand-tracked: its fingers take these curls (five values: thumb, index,
    /// middle, ring, little; 0 open, 1 fully curled) instead of the grip and trigger curl, faded
    /// in over [member hand_tracking_fade_s], as `VRRemoteBody.set_tracked_finger_curls`. An
    /// empty array ends it. Any other length is refused with an error.
    #[func]
    fn set_tracked_finger_curls(&mut self, hand: Hand, curls: PackedFloat32Array) {
        let Some(curls) = crate::shared::hand::tracked_curls_arg("VRBodySolver", &curls) else {
            return;
        };
        self.hands[hand.side().index()].2 = curls;
    }

    /// The finger curls (thumb, index, middle, ring, little; 0 open, 1 curled) of the hand an
    /// [XRHandTracker] tracks now, as the body measures them from its joints: what to pass to
    /// [method set_tracked_finger_curls] (and what `VRAvatarSync` sends). Empty while the
    /// tracker is absent or has no usable joints.
    #[func]
    fn finger_curls_from_tracker(tracker: StringName, hand: Hand) -> PackedFloat32Array {
        crate::shared::hand_tracking_source::tracked_joints(&tracker)
            .and_then(|j| vr_arms_core::hands::tracked_curls::tracked_finger_curls(&j, hand.side()))
            .map(|c| PackedFloat32Array::from(&c[..]))
            .unwrap_or_default()
    }

    /// Routes one hand to an interaction target (a global transform: a door handle, a second
    /// grip), blending in as `TargetRouter.set_override` does; `null` routes it back to its
    /// controller.
    #[func]
    fn set_override_target(&mut self, hand: Hand, target: Variant) {
        self.overrides[hand.side().index()] = target
            .try_to::<Transform3D>()
            .ok()
            .map(|t| crate::convert::pose_unrepaired(&t));
    }

    /// Kicks one hand, as `ControllerTargets.add_recoil`.
    #[func]
    fn add_recoil(&mut self, hand: Hand, position_kick: Vector3, rotation_kick_deg: Vector3) {
        if let Some(b) = self.bound.as_mut() {
            b.body.pipeline.arms.controller_targets.add_recoil(
                hand.side(),
                crate::convert::vec3(position_kick),
                crate::convert::vec3(rotation_kick_deg),
            );
        }
    }

    /// Runs one frame of `delta` seconds on `skeleton`'s bones as they are now (call it before
    /// the skeleton's modifiers, e.g. from `_process`), with the avatar root at `root` (its
    /// global transform) and the headset and controllers' global transforms (`null`: not
    /// tracked). Returns `root` (the root's new global transform), `bones` (bone index to the
    /// local rotation to write with `set_bone_pose_rotation`), `hips` (`[bone, position]`: the
    /// hips' local position to write with `set_bone_pose_position` when the lower body moved
    /// them, else `null`), `targets` and `hints` (each
    /// arm's final wrist target and elbow hint, world; `null` for an arm without one) and
    /// `tracking_changed` (per hand: `false` when it lost tracking this frame, `true` when it
    /// regained it, else `null`; a lost hand holds, eases to rest and blends back).
    #[func]
    fn step(
        &mut self,
        skeleton: Gd<Skeleton3D>,
        root: Transform3D,
        head: Variant,
        left: Variant,
        right: Variant,
        delta: f32,
    ) -> VarDictionary {
        let mut result = VarDictionary::new();
        let Some(b) = self.bound.as_mut() else {
            godot_error!("VRBodySolver.step: call configure first");
            return result;
        };
        b.body.follow.follow_head = self.follow_head;
        for side in Side::BOTH {
            let router = b.body.pipeline.arms.routers.get_mut(side);
            if self.overrides[side.index()].is_some() {
                router.set_override();
            } else {
                router.clear_override();
            }
        }
        b.body.pipeline.steps = Steps {
            spine: self.spine,
            clavicles: self.clavicles,
            twist: self.forearm_twist,
            fingers: self.fingers,
            lower_body: self.lower_body,
        };
        let read = |v: &Variant| {
            v.try_to::<Transform3D>()
                .ok()
                .map(|t| crate::convert::pose_unrepaired(&t))
        };
        let fade_s = self.hand_tracking_fade_s;
        let hands: [HandInput; 2] = std::array::from_fn(|i| {
            let (grip, trigger, curls) = self.hands[i];
            self.finger_inputs[i].update(
                HandPoseState::Default,
                grip,
                trigger,
                curls,
                fade_s,
                delta,
            )
        });
        let tracking = Tracking {
            head: read(&head),
            controllers: PerSide::new(read(&left), read(&right)),
            hands: PerSide::new(hands[0], hands[1]),
            overrides: PerSide::new(self.overrides[0], self.overrides[1]),
        };
        // Step 1, in world units (the settings in the avatar's metres: the root's scale).
        let scale = crate::shared::common::uniform_scale(&root);
        let placement = Placement {
            root: pose(&root),
            scale,
            floor_y: self.floor_y,
            ..Default::default()
        };
        let new_root = match b.body.place_root(&tracking, &placement, delta) {
            Some(p) => Transform3D::new(
                Basis::from_quaternion(to_quaternion(p.rotation)).scaled(root.basis.get_scale()),
                to_vector3(p.position),
            ),
            None => root,
        };
        // Step 2, the skeleton carried along with its root.
        let skeleton_global = new_root * root.affine_inverse() * skeleton.get_global_transform();
        if let Some(l) = b.body.pipeline.lower_body.as_mut() {
            l.settings.seated = self.seated;
            l.settings.sit_from_headset = self.sit_from_headset;
        }
        let profile = b.body.pipeline.lower_body.as_ref().map(|l| &l.settings);
        // The avatar's own colliders: under the skeleton's parent (its root), or itself.
        let own = skeleton
            .get_parent()
            .and_then(|p| p.try_cast::<Node3D>().ok())
            .unwrap_or_else(|| skeleton.clone().upcast());
        let ground = crate::shared::floor_ray::PhysicsGround::when_on(
            &skeleton.clone().upcast(),
            (self.floor_ray, self.floor_collision_mask),
            profile,
            &mut self.ray_exceptions,
            &own,
        );
        let Some(b) = self.bound.as_mut() else {
            return result;
        };
        let out = crate::nodes::vr_remote_body::pass::pose_pass(
            b,
            &skeleton,
            (skeleton_global, new_root),
            (self.floor_y, ground),
            &tracking,
            delta,
        );
        let bones: VarDictionary = b
            .solved
            .iter()
            .map(|&(bone, q)| (bone.to_variant(), to_quaternion(q).to_variant()))
            .collect();
        // World poses back from the skeleton's units.
        let unscaled = crate::shared::core_frame::unscaled(&skeleton_global);
        let from_core = skeleton_global * unscaled.affine_inverse();
        let world = |p: &Pose| from_core * crate::convert::to_transform(p);
        let mut targets = VarArray::new();
        let mut hints = VarArray::new();
        let mut tracking_changed = VarArray::new();
        for side in Side::BOTH {
            tracking_changed.push(&match out.tracking.get(side) {
                Some(e) => {
                    (*e == vr_arms_core::arms::tracking_loss::TrackingEvent::Regained).to_variant()
                }
                None => Variant::nil(),
            });
            match out.targets.get(side) {
                Some(t) => {
                    targets.push(&world(&t.target).to_variant());
                    hints.push(&(from_core * to_vector3(t.hint)).to_variant());
                }
                None => {
                    targets.push(&Variant::nil());
                    hints.push(&Variant::nil());
                }
            }
        }
        result.set("root", new_root);
        result.set("bones", &bones.to_variant());
        // The hips bone's local position, when the lower body moved it.
        let hips = b.hips.zip(b.hips_position);
        match hips {
            Some(((bone, _), p)) => result.set(
                "hips",
                &VarArray::from(&[bone.to_variant(), to_vector3(p).to_variant()]).to_variant(),
            ),
            None => result.set("hips", &Variant::nil()),
        }
        result.set("targets", &targets.to_variant());
        result.set("hints", &hints.to_variant());
        result.set("tracking_changed", &tracking_changed.to_variant());
        result
    }
}
