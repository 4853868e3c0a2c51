//! `VRBodySolver`: the core's one composition of the whole body, called from a script.

use godot::classes::{IRefCounted, RefCounted, Skeleton3D};
use godot::prelude::*;
use vr_arms_core::body::{Placement, Tracking};
use vr_arms_core::body_pipeline::{HandInput, Steps};
use vr_arms_core::profile::ArmProfile;
use vr_arms_core::{PerSide, Pose, Side};

use crate::convert::{pose, to_quaternion, to_vector3};
use crate::nodes::common::apply_profile;
use crate::nodes::hand::Hand;
use crate::nodes::remote_body_bones::{Bound, bind_bones, chain_problems};

/// The whole body (the body follow, the arm target stages, chest, neck and head, clavicles, the
/// arm solves, forearm twist and the finger curls) as one object called once a frame from your
/// own code: the very composition `VRRemoteBody` runs, and the reference the engine tests hold
/// the node graph to. It moves nothing: [method step] returns the root's pose and the bone
/// rotations to write.
///
/// Each step can be switched off, to match a node graph without that node: `spine`,
/// `clavicles`, `forearm_twist`, `fingers`, `follow_head` (all on by default).
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
    /// The floor's height (the XR origin's), in world metres.
    #[var]
    floor_y: f32,
    profile: ArmProfile,
    bound: Option<Bound>,
    hands: [HandInput; 2],
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
            floor_y: 0.0,
            profile: ArmProfile::default(),
            bound: None,
            hands: [HandInput::default(); 2],
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
        match bind_bones(&skeleton, &self.profile) {
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

    /// Loads a TOML profile for the next [method configure]. Returns false (settings kept) on
    /// error.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        apply_profile("VRBodySolver", &path, |p| self.profile = *p)
    }

    /// One hand's grip and trigger (0..1) for the finger curls.
    #[func]
    fn set_hand_input(&mut self, hand: Hand, grip: f32, trigger: f32) {
        let h = &mut self.hands[hand.side().index()];
        (h.grip, h.trigger) = (grip, trigger);
    }

    /// One hand's hand-tracked finger curls (thumb, index, middle, ring, little; 0 open, 1
    /// curled), shown over the grip and trigger curl at `weight` (0..1). Any other number of
    /// curls is refused with an error.
    #[func]
    fn set_tracked_finger_curls(&mut self, hand: Hand, curls: PackedFloat32Array, weight: f32) {
        let &[a, b, c, d, e] = curls.as_slice() else {
            godot_error!(
                "VRBodySolver.set_tracked_finger_curls: five curls (thumb, index, middle, ring, little), not {}",
                curls.len()
            );
            return;
        };
        let h = &mut self.hands[hand.side().index()];
        (h.tracked_curls, h.tracked_weight) = ([a, b, c, d, e], weight);
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
    /// local rotation to write with `set_bone_pose_rotation`), `targets` and `hints` (each
    /// arm's final wrist target and elbow hint, world; `null` for an arm without one).
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
        b.body.pipeline.steps = Steps {
            spine: self.spine,
            clavicles: self.clavicles,
            twist: self.forearm_twist,
            fingers: self.fingers,
        };
        let read = |v: &Variant| {
            v.try_to::<Transform3D>()
                .ok()
                .map(|t| crate::convert::pose_unrepaired(&t))
        };
        let tracking = Tracking {
            head: read(&head),
            controllers: PerSide::new(read(&left), read(&right)),
            hands: PerSide::new(self.hands[0], self.hands[1]),
        };
        // Step 1, in world units (the settings in the avatar's metres: the root's scale).
        let scale = crate::nodes::common::uniform_scale(&root);
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
        let out = crate::nodes::remote_body_pass::pose_pass(
            b,
            &skeleton,
            skeleton_global,
            new_root,
            &tracking,
            delta,
        );
        let bones: VarDictionary = b
            .solved
            .iter()
            .map(|&(bone, q)| (bone.to_variant(), to_quaternion(q).to_variant()))
            .collect();
        // World poses back from the skeleton's units.
        let unscaled = Transform3D::new(
            crate::nodes::common::rotation_of(&skeleton_global.basis),
            skeleton_global.origin,
        );
        let from_core = skeleton_global * unscaled.affine_inverse();
        let world = |p: &Pose| from_core * crate::convert::to_transform(p);
        let mut targets = VarArray::new();
        let mut hints = VarArray::new();
        for side in Side::BOTH {
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
        result.set("targets", &targets.to_variant());
        result.set("hints", &hints.to_variant());
        result
    }
}
