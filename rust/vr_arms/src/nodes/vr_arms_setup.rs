//! One-click setup: every node of the arm pipeline and upper body, wired, for a humanoid skeleton.

use godot::classes::{
    BoneMap, Marker3D, Node, Node3D, PackedScene, RefCounted, Skeleton3D, XrCamera3D,
    XrController3D, XrOrigin3D,
};
use godot::prelude::*;

use crate::nodes::avatar_calibrator::AvatarCalibrator;
use crate::nodes::body_avoidance::BodyAvoidance;
use crate::nodes::body_follow::BodyFollow;
use crate::nodes::clavicle_follow::ClavicleFollow;
use crate::nodes::controller_targets::ControllerTargets;
use crate::nodes::elbow_hint_solver::ElbowHintSolver;
use crate::nodes::first_person_head::FirstPersonHead;
use crate::nodes::forearm_twist::ForearmTwist;
use crate::nodes::hand_pose_copy::HandPoseCopy;
use crate::nodes::hand_pose_driver::HandPoseDriver;
use crate::nodes::lower_body_rig::LowerBodyRig;
use crate::nodes::reach_clamp::ReachClamp;
use crate::nodes::target_router::TargetRouter;
use crate::nodes::upper_body_follow::UpperBodyFollow;
use crate::nodes::vr_arm_rig::VRArmRig;
use crate::shared::character_root::prepare_character;
use crate::shared::common::{alive, own_by};
use crate::shared::lower_body_bind::{LowerBodyNames, lower_body_problems};

/// Sets up vr_arms on a humanoid [Skeleton3D] (Godot humanoid bone names, as after importing
/// with a [BoneMap] to [SkeletonProfileHumanoid]): creates and wires every node of the arm target
/// pipeline, the upper body and the lower body (`LowerBodyRig`, for a rig with hips, head and
/// legs), in the right order, with the right bones and XR nodes.
///
/// From code: `VRArmsSetup.setup_skeleton(skeleton, xr_origin, bone_map)`. In the editor: select
/// the skeleton (or its character) and use Project > Tools > "vr_arms: Set up selected Skeleton3D".
#[derive(GodotClass)]
#[class(base = RefCounted, init)]
pub struct VRArmsSetup {
    base: Base<RefCounted>,
}

#[godot_api]
impl VRArmsSetup {
    /// Sets up `skeleton`. `xr_origin` may be null: the nearest [XROrigin3D] is used (under the
    /// character's parent, else under each node above it), or one is created beside the
    /// character.
    ///
    /// The character root is what `BodyFollow` moves: the skeleton's parent, or the node above
    /// it while that one is tilted or scaled unevenly (an imported scene's turned `root`). Its
    /// own tilt and scale (Mixamo's `Armature`: +90 degrees about X, 0.01) move onto its
    /// children, and a character that lies down or faces away inside it (a Z-up skeleton, a VRM
    /// 0.x character facing -Z) is turned to stand up facing +Z: it looks as it did, and one
    /// line in the log says what was done. Every frame the pipeline needs (up, forward, each
    /// palm) is measured from the rest pose.
    ///
    /// `bone_map` may be null: then bones named as Godot's humanoid profile, Mixamo
    /// (`mixamorig:LeftArm`), VRoid (`J_Bip_L_UpperArm`), Unreal (`upperarm_l`) or Blender /
    /// Rigify (`upper_arm.L`) are recognised by name. Otherwise pass a [BoneMap] whose profile
    /// is a [SkeletonProfileHumanoid] (for a VRM file, [method bone_map_from_vrm] reads its
    /// humanoid table): the mapped bones are renamed to the humanoid names first, and the bone
    /// tracks of the character's animations, its skins' bone names and its
    /// [BoneAttachment3D]s follow the new names. (Godot's importer, retargeting at import,
    /// also rotates bone rests; this run-time rename does not need to: every axis is measured.)
    ///
    /// Returns the created nodes by name, `"renamed_bones"` (how many were renamed) and
    /// `"rig_naming"` (which naming was recognised); empty (with one error, and the skeleton
    /// untouched) when the skeleton already has a `VRArmRig`, the bone map cannot be applied,
    /// or the skeleton is not humanoid.
    #[func]
    pub fn setup_skeleton(
        skeleton: Option<Gd<Skeleton3D>>,
        xr_origin: Option<Gd<XrOrigin3D>>,
        bone_map: Option<Gd<BoneMap>>,
    ) -> VarDictionary {
        let mut out = VarDictionary::new();
        let Some(skeleton) = alive(&skeleton) else {
            godot_error!(
                "VRArmsSetup.setup_skeleton: `skeleton` is null; pass the character's Skeleton3D (its parent is the character root)"
            );
            return out;
        };
        let mut skeleton = skeleton;
        let bone_map = alive(&bone_map);
        if skeleton.get_children().iter_shared().any(|c| {
            c.clone().try_cast::<VRArmRig>().is_ok()
                || c.try_cast::<crate::nodes::vr_remote_body::VRRemoteBody>()
                    .is_ok()
        }) {
            godot_error!(
                "VRArmsSetup: \"{}\" already has a VRArmRig or a VRRemoteBody",
                skeleton.get_name()
            );
            return out;
        }
        // Humanoid names (a bone map, a recognised rig), and a clean root for the body follow
        // with the character upright facing +Z inside it.
        let prepared = match prepare_character(&mut skeleton, bone_map.as_ref(), "VRArmsSetup") {
            Ok(p) => p,
            Err(why) => {
                godot_error!("VRArmsSetup: {why}");
                return out;
            }
        };
        let avatar = prepared.root.clone();
        // Fingers the rig (or its map) leaves out keep their pose: said once.
        let fingers: Vec<String> = vr_arms_core::Side::BOTH
            .iter()
            .flat_map(|s| vr_arms_core::hands::hand_pose::finger_bones(*s))
            .collect();
        let missing: Vec<String> = fingers
            .iter()
            .filter(|n| skeleton.find_bone(n.as_str()) < 0)
            .cloned()
            .collect();
        if missing.len() == fingers.len() {
            // A game rig without fingers (KayKit, Quaternius): one short line, not 30 names.
            godot_print!(
                "VRArmsSetup: \"{}\" has no finger bones (by Godot's humanoid names): the hands keep their pose; if the rig has them, name them in the bone map",
                skeleton.get_name()
            );
        } else if !missing.is_empty() {
            godot_print!(
                "VRArmsSetup: \"{}\" has no bones {} (by Godot's humanoid names): those fingers keep their pose; if the rig has them, name them in the bone map",
                skeleton.get_name(),
                missing.join(", ")
            );
        }
        let mut scene = avatar
            .get_parent()
            .unwrap_or_else(|| avatar.clone().upcast());
        let owner = skeleton.get_owner();
        let own = |node: &Gd<Node>| own_by(node, owner.as_ref());

        // XR nodes: use what is there, create what is missing.
        let origin = xr_origin
            .or_else(|| nearest_origin(&avatar.clone().upcast()))
            .unwrap_or_else(|| {
                let mut o = XrOrigin3D::new_alloc();
                o.set_name("XROrigin3D");
                scene.add_child(&o);
                own(&o.clone().upcast());
                o
            });
        let mut origin_node = origin.clone().upcast::<Node>();
        let camera = find_descendant::<XrCamera3D>(&origin_node).unwrap_or_else(|| {
            let mut c = XrCamera3D::new_alloc();
            c.set_name("XRCamera3D");
            origin_node.add_child(&c);
            own(&c.clone().upcast());
            c
        });
        let mut controllers = Vec::new();
        for (tracker, name) in [
            ("left_hand", "LeftController"),
            ("right_hand", "RightController"),
        ] {
            let found = origin_node
                .get_children()
                .iter_shared()
                .filter_map(|c| c.try_cast::<XrController3D>().ok())
                .find(|c| c.get_tracker() == tracker);
            let c = found.unwrap_or_else(|| {
                let mut c = XrController3D::new_alloc();
                c.set_name(name);
                c.set_tracker(tracker);
                origin_node.add_child(&c);
                own(&c.clone().upcast());
                c
            });
            controllers.push(c.upcast::<Node3D>());
        }
        let (left, right) = (controllers[0].clone(), controllers[1].clone());

        // Bone writers, in order: spine, clavicles, arms, twist, fingers.
        let mut sk = skeleton.clone().upcast::<Node>();
        let mut upper_body = UpperBodyFollow::new_alloc();
        upper_body.set_name("UpperBodyFollow");
        upper_body.set("head", &camera.to_variant());
        upper_body.set("body_root", &avatar.to_variant());
        // A rig without a neck: the chest and head take the turn.
        if skeleton.find_bone("Neck") < 0 {
            upper_body.set("neck_bone", &GString::new().to_variant());
        }
        // The hips, spine and legs, for a rig that has them (else the legs keep their pose,
        // said once).
        let lower_problems = lower_body_problems(&skeleton, &LowerBodyNames::default());
        if !lower_problems.is_empty() {
            godot_warn!(
                "VRArmsSetup: \"{}\" gets no lower body (LowerBodyRig): {} The hips and legs keep their pose; if the rig has them, name them in a bone map (each lower leg a child of its upper leg).",
                skeleton.get_name(),
                lower_problems.join(" ")
            );
        }
        let lower_body = lower_problems.is_empty().then(|| {
            let mut l = LowerBodyRig::new_alloc();
            l.set_name("LowerBodyRig");
            l.set("head", &camera.to_variant());
            l.set("body_root", &avatar.to_variant());
            l.set("origin", &origin.to_variant());
            l
        });
        let mut rig = VRArmRig::new_alloc();
        rig.set_name("VRArmRig");
        let mut clavicles = ClavicleFollow::new_alloc();
        clavicles.set_name("ClavicleFollow");
        clavicles.set("rig", &rig.to_variant());
        // A rig without shoulder bones (KayKit's): the arms start at the upper arms.
        for (property, bone) in [
            ("left_clavicle_bone", "LeftShoulder"),
            ("right_clavicle_bone", "RightShoulder"),
        ] {
            if skeleton.find_bone(bone) < 0 {
                clavicles.set(property, &GString::new().to_variant());
            }
        }
        let mut twist = ForearmTwist::new_alloc();
        twist.set_name("ForearmTwist");
        twist.set("rig", &rig.to_variant());
        let source = hand_pose_source(&skeleton);
        let mut copy = HandPoseCopy::new_alloc();
        copy.set_name("HandPoseCopy");
        copy.set("source_skeleton", &source.to_variant());
        // Only the finger bones this rig has (one without ring fingers is fine, and quiet).
        let present: PackedStringArray = copy
            .get("copied_bones")
            .try_to::<PackedStringArray>()
            .unwrap_or_default()
            .as_slice()
            .iter()
            .filter(|n| skeleton.find_bone(*n) >= 0)
            .cloned()
            .collect();
        copy.set("copied_bones", &present.to_variant());
        // Target pipeline, body follow, hand poses and calibration beside the character.
        let mut stages = Node3D::new_alloc();
        stages.set_name("VRArmsStages");
        // A second character's stages beside the first are "VRArmsStages2", not "@Node3D@4".
        scene.add_child_ex(&stages).force_readable_name(true).done();
        own(&stages.clone().upcast());
        stages.add_child(&source);
        own(&source.clone().upcast());
        let wired = Self::wire_pipeline(
            Some(stages.clone().upcast()),
            Some(left.clone()),
            Some(right.clone()),
            Some(rig.clone()),
        );
        for node in stages.get_children().iter_shared() {
            own(&node);
        }
        // The lower body bends toward a hand out of reach: the hands' raw targets.
        if let (Some(l), Some(markers)) = (
            lower_body.as_ref(),
            wired
                .get("markers")
                .and_then(|m| m.try_to::<VarDictionary>().ok()),
        ) {
            let mut l = l.clone();
            for side in ["left", "right"] {
                if let Some(m) = markers.get(format!("{side}_raw").as_str()) {
                    l.set(&format!("{side}_hand_target"), &m);
                }
            }
        }
        // The body frame of every stage is the character root's (a lost controller's hand
        // eases to rest beside it): upright, facing +Z, scaled as the avatar is, whatever
        // units and axes the skeleton has under it.
        for stage in [
            "controller_targets",
            "body_avoidance",
            "reach_clamp",
            "elbow_hints",
        ] {
            if let Some(mut node) = wired.get(stage).and_then(|v| v.try_to::<Gd<Node>>().ok()) {
                node.set("body_root", &avatar.to_variant());
            }
        }
        // Into the skeleton only now that the rig has its targets (no warning at its ready).
        for node in [
            Some(upper_body.clone().upcast::<Node>()),
            lower_body.clone().map(|l| l.upcast()),
        ]
        .into_iter()
        .flatten()
        .chain([
            clavicles.clone().upcast(),
            rig.clone().upcast(),
            twist.clone().upcast(),
            copy.clone().upcast(),
        ]) {
            sk.add_child(&node);
            own(&node);
        }

        let mut body_follow = BodyFollow::new_alloc();
        body_follow.set_name("BodyFollow");
        body_follow.set("head", &camera.to_variant());
        body_follow.set("left_controller", &left.to_variant());
        body_follow.set("right_controller", &right.to_variant());
        body_follow.set("body_root", &avatar.to_variant());
        body_follow.set("origin", &origin.to_variant());
        let mut drivers = Vec::new();
        for (hand, controller) in [(0, &left), (1, &right)] {
            let mut d = HandPoseDriver::new_alloc();
            d.set_name(if hand == 0 {
                "LeftHandPose"
            } else {
                "RightHandPose"
            });
            d.set("hand", &hand.to_variant());
            d.set("source_skeleton", &source.to_variant());
            d.set("controller", &controller.to_variant());
            drivers.push(d);
        }
        let mut calibrator = AvatarCalibrator::new_alloc();
        calibrator.set_name("AvatarCalibrator");
        calibrator.set("head", &camera.to_variant());
        calibrator.set("left_controller", &left.to_variant());
        calibrator.set("right_controller", &right.to_variant());
        calibrator.set("origin", &origin.to_variant());
        calibrator.set("avatar_root", &avatar.to_variant());
        calibrator.set("skeleton", &skeleton.to_variant());
        // The player's own camera does not see the avatar's head and neck.
        let mut first_person = FirstPersonHead::new_alloc();
        first_person.set_name("FirstPersonHead");
        first_person.set("skeleton", &skeleton.to_variant());
        first_person.set("camera", &camera.to_variant());
        // A rig without a neck (KayKit's): the head bone and what hangs from it.
        if skeleton.find_bone("Neck") < 0 && skeleton.find_bone("Head") >= 0 {
            first_person.set("hidden_bone", &StringName::from("Head").to_variant());
        }
        for node in [
            body_follow.clone().upcast::<Node>(),
            drivers[0].clone().upcast(),
            drivers[1].clone().upcast(),
            calibrator.clone().upcast(),
            first_person.clone().upcast(),
        ] {
            stages.add_child(&node);
            own(&node);
        }

        out.extend_dictionary(&wired, true);
        for (k, v) in [
            ("origin", origin.to_variant()),
            ("camera", camera.to_variant()),
            ("left_controller", left.to_variant()),
            ("right_controller", right.to_variant()),
            ("avatar", avatar.to_variant()),
            ("rig", rig.to_variant()),
            ("upper_body_follow", upper_body.to_variant()),
            ("lower_body", lower_body.to_variant()),
            ("clavicle_follow", clavicles.to_variant()),
            ("forearm_twist", twist.to_variant()),
            ("hand_pose_copy", copy.to_variant()),
            ("hand_pose_source", source.to_variant()),
            ("body_follow", body_follow.to_variant()),
            ("left_hand_pose", drivers[0].to_variant()),
            ("right_hand_pose", drivers[1].to_variant()),
            ("calibrator", calibrator.to_variant()),
            ("first_person_head", first_person.to_variant()),
            ("pipeline", stages.to_variant()),
            (
                "renamed_bones",
                (prepared.renamed_bones as i64).to_variant(),
            ),
            ("rig_naming", prepared.rig_naming.to_variant()),
        ] {
            out.set(k, &v);
        }
        out
    }

    /// Sets up a remote player's or a crowd member's whole body (upper and lower) on a humanoid
    /// [Skeleton3D] as one [VRRemoteBody] (a fraction of the node graph's cost; no per-stage
    /// nodes), with the remote-player profile. `head`, `left_hand` and `right_hand` are the nodes
    /// whose poses drive it; a null one is created (a `Node3D` under "RemoteTracking" beside the
    /// character) for your network code to move; place "RemoteTracking" at the remote player's
    /// XR origin (its height is the floor). Like [method setup_skeleton], it renames the
    /// skeleton's bones to Godot's humanoid names ([SkeletonProfileHumanoid]: `RightHand`, ...):
    /// look bones up by those names afterwards. Returns "body" (the [VRRemoteBody]), "head",
    /// "left_hand", "right_hand"; empty (with one error) on a non-humanoid skeleton or one
    /// already set up.
    #[func]
    pub fn setup_remote(
        skeleton: Option<Gd<Skeleton3D>>,
        head: Option<Gd<Node3D>>,
        left_hand: Option<Gd<Node3D>>,
        right_hand: Option<Gd<Node3D>>,
    ) -> VarDictionary {
        crate::nodes::vr_remote_body::setup::setup_remote(skeleton, [head, left_hand, right_hand])
    }

    /// Adds multiplayer to a character [method setup_skeleton] set up: a `VRAvatarSync` beside
    /// it that sends its avatar, camera and controllers (add your revolver to it) and shows
    /// other players as `remote_avatar_scene` (null: the character's own scene, when it is an
    /// instanced scene). `setup` is `setup_skeleton`'s dictionary; the node is added to it as
    /// "avatar_sync" and returned. Null, with one error, for another dictionary or a second
    /// call.
    #[func]
    pub fn add_avatar_sync(
        mut setup: VarDictionary,
        remote_avatar_scene: Option<Gd<PackedScene>>,
    ) -> Option<Gd<crate::nodes::avatar_sync::VRAvatarSync>> {
        crate::nodes::avatar_sync::setup::add_avatar_sync(&mut setup, remote_avatar_scene)
    }

    /// A [BoneMap] (profile [SkeletonProfileHumanoid]) from the humanoid table of the VRM file
    /// at `path` (VRM 0.x or 1.0), for a VRM character loaded as glTF (`GLTFDocument`, or a
    /// `.vrm` renamed `.glb`): pass it to [method setup_skeleton]. VRM 0.x's thumb bones are
    /// renamed as Godot's humanoid names them (its `thumbProximal` is Godot's
    /// `ThumbMetacarpal`). Null, with one error saying why, for a file without a VRM table.
    #[func]
    pub fn bone_map_from_vrm(path: GString) -> Option<Gd<BoneMap>> {
        match crate::shared::vrm_bone_map::bone_map_from_vrm(&path) {
            Ok((map, _, _)) => Some(map),
            Err(why) => {
                godot_error!("VRArmsSetup.bone_map_from_vrm: \"{path}\": {why}");
                None
            }
        }
    }

    /// How `skeleton`'s hand `hand` ([enum VRArms.Hand]) lies in its rest pose, in the
    /// skeleton's space, measured from its finger bones as the pipeline measures it:
    /// `"fingers"` (wrist to knuckles), `"palm_normal"` (the way the palm faces), `"thumb_side"`
    /// (across the knuckles toward the index finger), `"hand_from_palm"` (the hand bone's rotation
    /// in the palm frame, a [Quaternion]) and `"measured_from"` (`"knuckles"`, `"thumb"` or
    /// `"forearm"`). For authoring hand poses on any rig: a finger curls about
    /// `fingers x palm_normal`. Empty, with one error, without a skeleton or that hand bone
    /// (its humanoid name, `LeftHand` / `RightHand`).
    #[func]
    pub fn measure_hand(
        skeleton: Option<Gd<Skeleton3D>>,
        hand: crate::shared::hand::Hand,
    ) -> VarDictionary {
        let mut out = VarDictionary::new();
        let Some(skeleton) = alive(&skeleton) else {
            godot_error!("VRArmsSetup.measure_hand: `skeleton` is null");
            return out;
        };
        let side = hand.side();
        let bone = skeleton.find_bone(vr_arms_core::hands::hand_pose::hand_bone(side));
        if bone < 0 {
            godot_error!(
                "VRArmsSetup.measure_hand: \"{}\" has no bone \"{}\"",
                skeleton.get_name(),
                vr_arms_core::hands::hand_pose::hand_bone(side)
            );
            return out;
        }
        let frame = crate::shared::rest_measure::measure_hand(&skeleton, bone, side);
        let v = |x: glam::Vec3| crate::convert::to_vector3(x).to_variant();
        out.set("fingers", &v(frame.fingers_at_rest()));
        out.set("palm_normal", &v(frame.palm_normal_at_rest(side)));
        out.set("thumb_side", &v(frame.palm_at_rest * glam::Vec3::Y));
        out.set(
            "hand_from_palm",
            &crate::convert::to_quaternion(frame.hand_from_palm).to_variant(),
        );
        out.set(
            "measured_from",
            &match frame.measured_from {
                vr_arms_core::hands::hand_frame::MeasuredFrom::Knuckles => "knuckles",
                vr_arms_core::hands::hand_frame::MeasuredFrom::Thumb => "thumb",
                vr_arms_core::hands::hand_frame::MeasuredFrom::Forearm => "forearm",
            }
            .to_variant(),
        );
        out
    }

    /// Adds the target pipeline under `parent` between two controllers and a rig:
    /// ControllerTargets -> BodyAvoidance -> ReachClamp -> TargetRouter -> ElbowHintSolver, each
    /// writing into a [Marker3D] the next one reads, and points the rig at the final targets and
    /// hints. Returns the stages and the markers (`"markers"`: `"left_raw"`, `"right_final"`, ...).
    #[func]
    pub fn wire_pipeline(
        parent: Option<Gd<Node>>,
        left_controller: Option<Gd<Node3D>>,
        right_controller: Option<Gd<Node3D>>,
        rig: Option<Gd<VRArmRig>>,
    ) -> VarDictionary {
        let (Some(parent), Some(left_controller), Some(right_controller), Some(rig)) = (
            alive(&parent),
            alive(&left_controller),
            alive(&right_controller),
            alive(&rig),
        ) else {
            godot_error!(
                "VRArmsSetup.wire_pipeline: `parent`, `left_controller`, `right_controller` and `rig` must all be set (one is null or freed)"
            );
            return VarDictionary::new();
        };
        let mut parent = parent;
        let mut markers = VarDictionary::new();
        let mut marker = |name: String| {
            let mut m = Marker3D::new_alloc();
            m.set_name(name.as_str());
            parent.add_child(&m);
            markers.set(name.as_str(), &m.to_variant());
            m
        };
        let mut m = std::collections::HashMap::new();
        for stage in ["raw", "avoided", "clamped", "final", "hint"] {
            for side in ["left", "right"] {
                let name = format!("{side}_{stage}");
                m.insert(name.clone(), marker(name));
            }
        }
        let get = |side: &str, stage: &str| m[&format!("{side}_{stage}")].to_variant();
        let mut ct = ControllerTargets::new_alloc();
        ct.set_name("ControllerTargets");
        ct.set("left_controller", &left_controller.to_variant());
        ct.set("right_controller", &right_controller.to_variant());
        ct.set("left_output", &get("left", "raw"));
        ct.set("right_output", &get("right", "raw"));
        let ba = BodyAvoidance::new_alloc().upcast::<Node3D>();
        let rc = ReachClamp::new_alloc().upcast::<Node3D>();
        let tr = TargetRouter::new_alloc().upcast::<Node3D>();
        let eh = ElbowHintSolver::new_alloc().upcast::<Node3D>();
        let chain = [
            (ba.clone(), "BodyAvoidance", "raw", "avoided", true),
            (rc.clone(), "ReachClamp", "avoided", "clamped", true),
            (tr.clone(), "TargetRouter", "clamped", "final", false),
            (eh.clone(), "ElbowHintSolver", "final", "hint", true),
        ];
        for (mut stage, name, from, to, needs_rig) in chain {
            stage.set_name(name);
            for side in ["left", "right"] {
                stage.set(&format!("{side}_input"), &get(side, from));
                stage.set(&format!("{side}_output"), &get(side, to));
            }
            if needs_rig {
                stage.set("rig", &rig.to_variant());
            }
        }
        for node in [
            ct.clone().upcast::<Node3D>(),
            ba.clone(),
            rc.clone(),
            tr.clone(),
            eh.clone(),
        ] {
            parent.add_child(&node);
        }
        let mut rig = rig;
        rig.set("left_target", &get("left", "final"));
        rig.set("right_target", &get("right", "final"));
        rig.set("left_hint", &get("left", "hint"));
        rig.set("right_hint", &get("right", "hint"));
        let mut out = VarDictionary::new();
        for (k, v) in [
            ("controller_targets", ct.to_variant()),
            ("body_avoidance", ba.to_variant()),
            ("reach_clamp", rc.to_variant()),
            ("router", tr.to_variant()),
            ("elbow_hints", eh.to_variant()),
            ("markers", markers.to_variant()),
        ] {
            out.set(k, &v);
        }
        out
    }
}

/// A hidden copy of the skeleton's bones (no meshes, no modifiers): the source rig whose fingers
/// the hand-pose drivers curl and `HandPoseCopy` copies. Its modifiers never run by themselves
/// (manual callback mode): it has none of its own, but Godot gives every skeleton a compatibility
/// `PhysicalBoneSimulator3D`, whose pass over the bones every frame this rig does not need
/// (docs/performance.md). An `AnimationPlayer` animating it is not a modifier and still moves its
/// bones.
fn hand_pose_source(skeleton: &Gd<Skeleton3D>) -> Gd<Skeleton3D> {
    use godot::classes::skeleton_3d::ModifierCallbackModeProcess;
    let mut s = Skeleton3D::new_alloc();
    s.set_name("HandPoseSource");
    s.set_visible(false);
    s.set_modifier_callback_mode_process(ModifierCallbackModeProcess::MANUAL);
    for i in 0..skeleton.get_bone_count() {
        s.add_bone(&skeleton.get_bone_name(i));
    }
    for i in 0..skeleton.get_bone_count() {
        s.set_bone_parent(i, skeleton.get_bone_parent(i));
        s.set_bone_rest(i, skeleton.get_bone_rest(i));
    }
    s.reset_bone_poses();
    s
}

/// The first descendant of `root` of class `T` (depth first).
/// The XR origin nearest the avatar: under its parent, else under each node above that in turn
/// (a character instanced from an imported file sits a few nodes below the scene that holds
/// the player's origin).
fn nearest_origin(avatar: &Gd<Node>) -> Option<Gd<XrOrigin3D>> {
    let mut at = avatar.get_parent();
    while let Some(node) = at {
        if let Some(found) = find_descendant::<XrOrigin3D>(&node) {
            return Some(found);
        }
        at = node.get_parent();
    }
    None
}

fn find_descendant<T: GodotClass + Inherits<Node>>(root: &Gd<Node>) -> Option<Gd<T>> {
    for child in root.get_children().iter_shared() {
        if let Ok(found) = child.clone().try_cast::<T>() {
            return Some(found);
        }
        if let Some(found) = find_descendant::<T>(&child) {
            return Some(found);
        }
    }
    None
}
