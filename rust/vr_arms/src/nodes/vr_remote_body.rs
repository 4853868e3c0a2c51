//! `VRRemoteBody`: the whole upper body in one `SkeletonModifier3D` (remote players, crowds).

use godot::classes::{ISkeletonModifier3D, Node3D, Skeleton3D, SkeletonModifier3D, XrController3D};
use godot::prelude::*;
use vr_arms_core::arm_solve::ArmBones;
use vr_arms_core::body_follow::BodyFollow as FollowStage;
use vr_arms_core::body_frame::BodyFrame;
use vr_arms_core::body_pipeline::{BodyBones, BodyInput, BodyPipeline, FINGERS, HandInput};
use vr_arms_core::hand_pose::{FingerCurl, finger_bones};
use vr_arms_core::input_guard::InputGuard;
use vr_arms_core::pose_tree::PoseTree;
use vr_arms_core::profile::ArmProfile;
use vr_arms_core::tracking_loss::{DEFAULT_REST_POSITIONS, TrackingEvent, TrackingLossSettings};
use vr_arms_core::{PerSide, Pose, Side};

use crate::convert::{pose, to_quaternion, vec3};
use crate::nodes::body_follow::place_root;
use crate::nodes::common::{alive, load_profile, parent_skeleton, read_tracked, skip_in_editor};
use crate::problems::ProblemReport;

/// Bone names (Godot's humanoid profile): chest, neck, head; per side clavicle, upper arm,
/// lower arm, hand.
const SPINE: [&str; 3] = ["Chest", "Neck", "Head"];
const ARMS: [[&str; 4]; 2] = [
    ["LeftShoulder", "LeftUpperArm", "LeftLowerArm", "LeftHand"],
    [
        "RightShoulder",
        "RightUpperArm",
        "RightLowerArm",
        "RightHand",
    ],
];

/// The whole upper body of one avatar in a single modifier: body follow, the five arm target
/// stages, chest/neck/head, clavicles, the two-bone solves, forearm twist and finger curls, the
/// same core stages as the node graph that [VRArmsSetup] builds, composed in Rust.
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
    /// A TOML rig profile for every stage (for example
    /// `res://addons/vr_arms/profiles/remote_player.toml`); empty: the defaults. Read when the
    /// modifier binds to its skeleton, and again when this changes.
    #[export_group(name = "Profile")]
    #[export(file = "*.toml")]
    profile: GString,
    /// Solve in the editor too (off by default: the editor has no tracking).
    #[export_group(name = "Editor")]
    #[export]
    editor_preview: bool,

    bound: Option<Bound>,
    /// What `bound` was made for: skeleton, its version, the profile path.
    bound_to: Option<(InstanceId, u64, GString)>,
    follow: FollowStage,
    follow_settings: vr_arms_core::body_follow::BodyFollowSettings,
    /// Input checks of the head and hands: for the body follow, and for the pass.
    guards: [[InputGuard; 3]; 2],
    controllers: [Option<(InstanceId, Option<Gd<XrController3D>>)>; 2],
    report: ProblemReport,
    base: Base<SkeletonModifier3D>,
}

/// The pipeline bound to one skeleton and its bones.
struct Bound {
    pipeline: BodyPipeline,
    tree: PoseTree,
    /// Engine bone index of each tree bone.
    tree_bones: Vec<i32>,
    /// Engine bone index of each finger bone (`finger_bones` order), -1 when absent.
    fingers: [[i32; FINGERS]; 2],
    /// This frame's poses as read: local ones when `by_locals`, else global ones.
    read: Vec<Pose>,
    /// Every tree bone is unscaled at bind time: its local poses are read (cheaper, exact for an
    /// unscaled chain) instead of its global ones.
    by_locals: bool,
}

#[godot_api]
impl ISkeletonModifier3D for VRRemoteBody {
    fn init(base: Base<SkeletonModifier3D>) -> Self {
        Self {
            head: None,
            left_hand: None,
            right_hand: None,
            body_root: None,
            follow_head: true,
            left_grip: 0.0,
            left_trigger: 0.0,
            right_grip: 0.0,
            right_trigger: 0.0,
            read_controller_input: true,
            grip_action: StringName::from("grip"),
            trigger_action: StringName::from("trigger"),
            left_rest_position: crate::convert::to_vector3(DEFAULT_REST_POSITIONS[0]),
            right_rest_position: crate::convert::to_vector3(DEFAULT_REST_POSITIONS[1]),
            tracking_loss_ease_s: TrackingLossSettings::default().ease_to_rest_s,
            tracking_regain_blend_s: TrackingLossSettings::default().regain_blend_s,
            profile: GString::new(),
            editor_preview: false,
            bound: None,
            bound_to: None,
            follow: FollowStage::default(),
            follow_settings: Default::default(),
            guards: Default::default(),
            controllers: [None, None],
            report: ProblemReport::new("VRRemoteBody"),
            base,
        }
    }

    /// Body follow, before the modifiers (as `BodyFollow`, at the same priority).
    fn ready(&mut self) {
        self.base_mut().set_process_priority(-1100);
    }

    fn process(&mut self, delta: f64) {
        if skip_in_editor(false) || !self.follow_head {
            return;
        }
        let [head, left, right] = self.tracked_inputs(0);
        let (Some(head), Some(mut root)) = (head, self.root()) else {
            return;
        };
        let floor = alive(&self.head)
            .and_then(|h| h.get_parent())
            .and_then(|p| p.try_cast::<Node3D>().ok())
            .map_or(0.0, |p| p.get_global_position().y);
        let settings = self.follow_settings;
        place_root(
            &mut self.follow,
            settings,
            head,
            [left, right],
            floor,
            &mut root,
            delta,
        );
    }

    fn process_modification_with_delta(&mut self, delta: f64) {
        if skip_in_editor(self.editor_preview) {
            return;
        }
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
        let Some(mut skeleton) = self.base().get_skeleton() else {
            return;
        };
        self.bind(&skeleton);
        let Some(root) = self.root() else {
            return;
        };
        // The core works in the skeleton's own units: world poses are taken into its frame
        // without its scale, so lengths stay in proportion on a scaled avatar.
        let global = skeleton.get_global_transform();
        let unscaled = Transform3D::new(global.basis.orthonormalized(), global.origin);
        let to_core = unscaled * global.affine_inverse();
        let core = |p: Option<Pose>| p.map(|p| pose(&(to_core * crate::convert::to_transform(&p))));
        let [head, left, right] = self.tracked_inputs(1);
        let hands = [Side::Left, Side::Right].map(|side| self.hand_input(side));
        let input = BodyInput {
            body: BodyFrame::new(pose(&(to_core * root.get_global_transform()))),
            skeleton: pose(&unscaled),
            up: glam::Vec3::Y,
            head: core(head),
            controllers: PerSide::new(core(left), core(right)),
            hands: PerSide::new(hands[0], hands[1]),
        };
        let rest = [self.left_rest_position, self.right_rest_position].map(vec3);
        let loss = TrackingLossSettings {
            ease_to_rest_s: self.tracking_loss_ease_s,
            regain_blend_s: self.tracking_regain_blend_s,
        };
        let Some(b) = self.bound.as_mut() else {
            return;
        };
        b.pipeline.rest_positions = PerSide::new(rest[0], rest[1]);
        b.pipeline.tracking_loss = loss;
        if b.by_locals {
            for (i, (r, &bone)) in b.read.iter_mut().zip(&b.tree_bones).enumerate() {
                *r = if b.tree.parent(i).is_none() {
                    pose(&skeleton.get_bone_global_pose(bone))
                } else {
                    Pose::new(
                        vec3(skeleton.get_bone_pose_position(bone)),
                        crate::convert::quat(skeleton.get_bone_pose_rotation(bone)),
                    )
                };
            }
            b.tree.set_locals(&b.read);
        } else {
            for (r, &bone) in b.read.iter_mut().zip(&b.tree_bones) {
                *r = pose(&skeleton.get_bone_global_pose(bone));
            }
            b.tree.set_globals(&b.read);
        }
        let out = b.pipeline.update(&input, &mut b.tree, delta as f32);
        for (i, &bone) in b.tree_bones.iter().enumerate() {
            if out.written & (1 << i) != 0 {
                skeleton.set_bone_pose_rotation(bone, to_quaternion(b.tree.local_rotation(i)));
            }
        }
        for side in Side::BOTH {
            let rotations = out.fingers.get(side);
            for (&bone, rotation) in b.fingers[side.index()].iter().zip(rotations) {
                if let (true, Some(r)) = (bone >= 0, rotation) {
                    skeleton.set_bone_pose_rotation(bone, to_quaternion(*r));
                }
            }
        }
        for side in Side::BOTH {
            if let Some(e) = out.tracking.get(side) {
                self.signals()
                    .tracking_changed()
                    .emit(side.index() as i32, *e == TrackingEvent::Regained);
            }
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl VRRemoteBody {
    /// A hand's controller lost (`tracked` false) or regained tracking: `hand` 0 is the left,
    /// 1 the right. A lost hand holds, then eases to its rest position, then blends back.
    #[signal]
    fn tracking_changed(hand: i32, tracked: bool);

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    /// Forgets the smoothing and springs (after a teleport, or when a remote player respawns).
    #[func]
    fn reset(&mut self) {
        self.bound_to = None;
        self.bound = None;
        self.follow = FollowStage::default();
    }
}

impl VRRemoteBody {
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

    /// The head and hands (world), when tracked, read now: the body follow reads them in
    /// `_process` (`pass` 0), the modification again (`pass` 1), as the node graph's stages do,
    /// so a script that moves them in between is seen.
    fn tracked_inputs(&mut self, pass: usize) -> [Option<Pose>; 3] {
        let nodes = [&self.head, &self.left_hand, &self.right_hand].map(alive);
        let mut poses = [None; 3];
        for ((p, node), guard) in poses.iter_mut().zip(nodes).zip(&mut self.guards[pass]) {
            *p = node
                .filter(|n| n.is_inside_tree())
                .and_then(|n| read_tracked(&n, guard));
        }
        poses
    }

    /// One hand's grip and trigger: from its controller's actions, or the set values.
    fn hand_input(&mut self, side: Side) -> HandInput {
        let (node, grip, trigger) = match side {
            Side::Left => (&self.left_hand, self.left_grip, self.left_trigger),
            Side::Right => (&self.right_hand, self.right_grip, self.right_trigger),
        };
        let mut input = HandInput {
            grip,
            trigger,
            ..Default::default()
        };
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
        let key = (
            skeleton.instance_id(),
            skeleton.get_version(),
            self.profile.clone(),
        );
        if self.bound_to.as_ref() == Some(&key) {
            return;
        }
        self.bound_to = Some(key);
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
        self.follow_settings = profile.body_follow;
        self.bound = bind_bones(skeleton, &profile);
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
        for [_, _, lower, hand] in ARMS {
            let (l, h) = (skeleton.find_bone(lower), skeleton.find_bone(hand));
            if l >= 0 && h >= 0 && skeleton.get_bone_parent(h) != l {
                out.push(format!("\"{hand}\" is not a child of \"{lower}\": twist bones in between are not supported here (use the node graph and ForearmTwist)."));
            }
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

/// The tree of bones the stages read and write, the rest measurements and the finger curls.
fn bind_bones(skeleton: &Gd<Skeleton3D>, profile: &ArmProfile) -> Option<Bound> {
    let find = |name: &str| Some(skeleton.find_bone(name)).filter(|i| *i >= 0);
    let arms = ARMS.map(|names| {
        let [_, upper, lower, hand] = names.map(find);
        let (upper, lower, hand) = (upper?, lower?, hand?);
        let parent = Some(skeleton.get_bone_parent(upper)).filter(|p| *p >= 0)?;
        Some([parent, upper, lower, hand])
    });
    let [Some(left), Some(right)] = arms else {
        return None;
    };
    let spine = SPINE.map(find);
    let chest_parent = spine[0]
        .map(|c| skeleton.get_bone_parent(c))
        .filter(|p| *p >= 0);

    // Whole chains, parents first, from the chest's parent (or the skeleton's root) down.
    let mut tree_bones: Vec<i32> = Vec::new();
    let mut parents: Vec<Option<usize>> = Vec::new();
    let mut add = |bone: i32| -> Option<usize> {
        let mut chain = vec![bone];
        loop {
            let b = *chain.last()?;
            if tree_bones.contains(&b) || Some(b) == chest_parent {
                break;
            }
            let p = skeleton.get_bone_parent(b);
            if p < 0 {
                break;
            }
            chain.push(p);
        }
        for &b in chain.iter().rev() {
            if !tree_bones.contains(&b) {
                let p = skeleton.get_bone_parent(b);
                let parent = tree_bones.iter().position(|t| *t == p);
                tree_bones.push(b);
                parents.push(parent);
            }
        }
        tree_bones.iter().position(|t| *t == bone)
    };
    let chest_parent_index = chest_parent.and_then(&mut add);
    let spine_index = spine.map(|b| b.and_then(&mut add));
    let arm_index = [left, right].map(|a| a.map(|b| add(b).unwrap_or(0)));
    let clavicles = ARMS.map(|names| find(names[0]).and_then(&mut add));
    let tree = PoseTree::new(&parents).ok()?;

    let rest = [left, right].map(|a| {
        let r = |i: usize| pose(&skeleton.get_bone_global_rest(a[i]));
        ArmBones {
            parent: r(0),
            upper: r(1),
            lower: r(2),
            hand: r(3),
        }
    });
    let hand_rest = [left, right].map(|a| pose(&skeleton.get_bone_rest(a[3])));
    let fingers = Side::BOTH.map(|side| finger_bones(side).map(|n| skeleton.find_bone(n.as_str())));
    let curls = Side::BOTH.map(|side| {
        let hand = [left, right][side.index()][3];
        let middle = fingers[side.index()][6];
        let mut out = [None; FINGERS];
        if middle < 0 {
            return out;
        }
        // As HandPoseDriver: the fingers point from the hand to the middle finger's root; the
        // palm faces down in a humanoid's T-pose rest.
        let finger_dir = vec3(skeleton.get_bone_global_rest(middle).origin)
            - pose(&skeleton.get_bone_global_rest(hand)).position;
        for (o, &bone) in out.iter_mut().zip(&fingers[side.index()]) {
            if bone >= 0 {
                let rest_local = pose(&skeleton.get_bone_rest(bone)).rotation;
                let rest_global = pose(&skeleton.get_bone_global_rest(bone)).rotation;
                *o = Some(FingerCurl::new(
                    rest_local,
                    rest_global,
                    finger_dir,
                    glam::Vec3::NEG_Y,
                ));
            }
        }
        out
    });
    let bones = BodyBones {
        chest_parent: chest_parent_index,
        spine: spine_index,
        clavicles: PerSide::new(clavicles[0], clavicles[1]),
        arms: PerSide::new(arm_index[0], arm_index[1]),
    };
    let read = vec![Pose::IDENTITY; tree.len()];
    let unit = |s: Vector3| (s - Vector3::ONE).length() < 1e-4;
    let by_locals = tree_bones.iter().all(|&b| {
        unit(skeleton.get_bone_rest(b).basis.get_scale()) && unit(skeleton.get_bone_pose_scale(b))
    });
    Some(Bound {
        pipeline: BodyPipeline::new(
            profile,
            &PerSide::new(rest[0], rest[1]),
            bones,
            PerSide::new(hand_rest[0], hand_rest[1]),
            PerSide::new(curls[0], curls[1]),
        ),
        tree,
        tree_bones,
        fingers,
        read,
        by_locals,
    })
}

/// `VRArmsSetup.setup_remote`: a [VRRemoteBody] under `skeleton`, driven by `head`, `left` and
/// `right` (a null one is created: a plain `Node3D` under a "RemoteTracking" node beside the
/// character, for a network script to move). With the remote-player profile.
pub fn setup_remote(
    skeleton: Option<Gd<Skeleton3D>>,
    points: [Option<Gd<Node3D>>; 3],
) -> VarDictionary {
    let mut out = VarDictionary::new();
    let Some(skeleton) = alive(&skeleton) else {
        godot_error!(
            "VRArmsSetup.setup_remote: `skeleton` is null; pass the avatar's Skeleton3D (its parent is the avatar root)"
        );
        return out;
    };
    let taken = skeleton.get_children().iter_shared().any(|c| {
        c.clone().try_cast::<VRRemoteBody>().is_ok()
            || c.try_cast::<crate::nodes::vr_arm_rig::VRArmRig>().is_ok()
    });
    if taken {
        godot_error!(
            "VRArmsSetup.setup_remote: \"{}\" already has a VRRemoteBody or a VRArmRig",
            skeleton.get_name()
        );
        return out;
    }
    let problems: Vec<String> = ARMS
        .iter()
        .flat_map(|a| &a[1..])
        .filter(|n| skeleton.find_bone(**n) < 0)
        .map(|n| n.to_string())
        .collect();
    if !problems.is_empty() {
        godot_error!(
            "VRArmsSetup.setup_remote: \"{}\" lacks the humanoid bones {}; retarget it with a BoneMap to SkeletonProfileHumanoid first",
            skeleton.get_name(),
            problems.join(", ")
        );
        return out;
    }
    let mut body = VRRemoteBody::new_alloc();
    body.set_name("VRRemoteBody");
    let owner = skeleton.get_owner();
    let character = skeleton.get_parent();
    let mut holder: Option<Gd<Node3D>> = None;
    let names = ["Head", "LeftHand", "RightHand"];
    let points = points.into_iter().zip(names).map(|(p, name)| {
        alive(&p).unwrap_or_else(|| {
            let h = holder.get_or_insert_with(|| {
                let mut h = Node3D::new_alloc();
                h.set_name("RemoteTracking");
                let mut parent = character
                    .as_ref()
                    .and_then(|c| c.get_parent())
                    .unwrap_or_else(|| skeleton.clone().upcast());
                parent.add_child(&h);
                if let Some(o) = owner.as_ref() {
                    h.set_owner(o);
                }
                h
            });
            let mut n = Node3D::new_alloc();
            n.set_name(name);
            h.add_child(&n);
            if let Some(o) = owner.as_ref() {
                n.set_owner(o);
            }
            n
        })
    });
    let points: Vec<Gd<Node3D>> = points.collect();
    {
        let mut b = body.bind_mut();
        b.head = Some(points[0].clone());
        b.left_hand = Some(points[1].clone());
        b.right_hand = Some(points[2].clone());
        b.profile = REMOTE_PROFILE.into();
    }
    let mut sk = skeleton.clone().upcast::<Node>();
    sk.add_child(&body);
    if let Some(o) = owner.as_ref() {
        body.set_owner(o);
    }
    for (k, v) in [
        ("body", body.to_variant()),
        ("head", points[0].to_variant()),
        ("left_hand", points[1].to_variant()),
        ("right_hand", points[2].to_variant()),
    ] {
        out.set(k, &v);
    }
    out
}

/// The profile `setup_remote` gives a remote body.
pub const REMOTE_PROFILE: &str = "res://addons/vr_arms/profiles/remote_player.toml";
