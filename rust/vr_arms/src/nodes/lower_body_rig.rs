//! `LowerBodyRig`: the hips, spine bend, legs and stepping feet from the headset (a
//! `SkeletonModifier3D`), the core's [`LowerBody`] as the body composes it.

use godot::classes::{
    CollisionObject3D, Engine, ISkeletonModifier3D, Node3D, Skeleton3D, SkeletonModifier3D,
};
use godot::prelude::*;
use vr_arms_core::Pose;
use vr_arms_core::lower_body::walk_blend::blend_leg;
use vr_arms_core::lower_body::{LowerBody, LowerBodySettings};
use vr_arms_core::maths::pose_tree::PoseTree;
use vr_arms_core::upper_body::upper_body_follow::UpperBodyFollow as FollowStage;

use crate::convert::{pose, to_quaternion, to_vector3};
use crate::nodes::body_follow::origin_pose;
use crate::nodes::upper_body_follow::UpperBodyFollow;
use crate::problems::ProblemReport;
use crate::settings_bridge;
use crate::shared::common::{alive, parent_skeleton, read_tracked, skip_in_editor};
use crate::shared::common::{apply_profile, store_profile};
use crate::shared::lower_body_bind::{LowerBodyNames, add_lower_body, lower_body_problems};
use crate::shared::modifier_order::{RigOrder, rig_order_problem};
use crate::skeleton_tree::TreeBuilder;

mod solve;
use solve::{Bound, Solved};

/// What a binding was made for besides the skeleton: the bone names, and the follow sibling
/// with its chest, neck and head bones.
type BoundTo = (LowerBodyNames, Option<(InstanceId, [String; 3])>);

/// The whole body below the shoulders follows the headset: the hips drop and move back in a
/// crouch, the spine bends in a bow or a sideways lean so the head bone stays on the headset,
/// the legs bend to feet planted on the floor, and the feet step (one at a time, in an arc) when
/// the body moves or turns away from them.
///
/// Place it under the [Skeleton3D] after `UpperBodyFollow` and before `ClavicleFollow` and
/// `VRArmRig` (the one-click setup does): the arms then reach from where the crouched or bent
/// chest puts the shoulders, and the arm target stages measure the shoulders there too. It
/// works out each frame's body in `_process` (before the arm target stages) and writes it in the
/// skeleton's modifier pass. The floor is `origin`'s height (the XR origin's floor).
#[derive(GodotClass)]
#[class(base = SkeletonModifier3D, tool)]
pub struct LowerBodyRig {
    /// The headset (an [XRCamera3D]).
    #[export]
    head: Option<Gd<Node3D>>,
    /// The avatar root that `BodyFollow` moves: on the floor under the head, facing +Z.
    #[export]
    body_root: Option<Gd<Node3D>>,
    /// The XR origin: the floor is at its height. Empty: the head's parent's.
    #[export]
    origin: Option<Gd<Node3D>>,
    /// The left hand's raw target (`ControllerTargets`' `left_output`; the one-click setup
    /// wires it): out of the arm's reach below the shoulder (reaching for the floor), the torso
    /// turns toward it (`reach_bend_max_deg`). Empty: the hand does not turn the body.
    #[export]
    left_hand_target: Option<Gd<Node3D>>,
    /// The right hand's raw target (as `left_hand_target`).
    #[export]
    right_hand_target: Option<Gd<Node3D>>,
    /// The hips bone (moved and turned).
    #[export_group(name = "Bones")]
    #[export]
    hips_bone: GString,
    /// The spine bones between hips and head, hips side first (spine, chest, upper chest,
    /// neck); an empty or missing one is skipped.
    #[export]
    spine_bones: PackedStringArray,
    /// The head bone (reaches the headset).
    #[export]
    head_bone: GString,
    /// Upper leg, lower leg and foot of the left leg, then (optional) its toes: a kneeling foot
    /// bends its toes flat on the floor, placed from where they are at rest.
    #[export]
    left_leg_bones: PackedStringArray,
    /// Upper leg, lower leg and foot of the right leg, then (optional) its toes.
    #[export]
    right_leg_bones: PackedStringArray,
    /// Forward lean of the torso per metre the head is below its standing height (on an avatar
    /// whose head bone stands 1.6 m high; in proportion on others): a crouch puts the hips back
    /// behind the head.
    #[export_group(name = "Hips and Spine")]
    #[export(range = (0.0, 90.0, suffix = "°/m"))]
    lean_deg_per_m: f32,
    /// Share of the head's downward pitch the torso takes as a forward lean (a bow).
    #[export(range = (0.0, 1.0))]
    lean_head_pitch_share: f32,
    /// Largest forward lean of the torso.
    #[export(range = (0.0, 90.0, suffix = "°"))]
    max_lean_deg: f32,
    /// How far the torso may turn forward about the head (which stays on the headset) to bring
    /// a hand's target below its shoulder within the arm's reach (in full once the head is
    /// 30 cm below standing, none standing): reaching for the floor brings the shoulder over
    /// the hand, the hips sitting back down to half their squat height. 0: the body follows
    /// the head alone.
    #[export(range = (0.0, 90.0, suffix = "°"))]
    reach_bend_max_deg: f32,
    /// How much further than `reach_bend_max_deg` that turn may go where it leans the torso
    /// back toward upright (it undoes a lean; the hips stop under the head). 1: as far as
    /// forward.
    #[export(range = (1.0, 4.0))]
    reach_bend_back_share: f32,
    /// How far the head must be below its standing height before that turn also leans the
    /// torso to the side of the hand (in full at 30 cm): the shoulder drops toward a hand on
    /// the floor beside the foot. 0.3 m: never, the turn only pitches.
    #[export(range = (0.0, 0.3, suffix = "m"))]
    reach_bend_side_from_m: f32,
    /// How much of the twist that points the shoulder straight at the hand that lean keeps
    /// (0: a pitch and a side lean only; 1: all of it): bent far forward the shoulder sits below
    /// the head, and only turning the torso round brings it toward a hand beside the foot.
    #[export(range = (0.0, 1.0))]
    reach_bend_twist_share: f32,
    /// Share of the torso's lean taken by the hips (the pelvis tilts); the spine bends the rest.
    #[export(range = (0.0, 1.0))]
    hips_lean_share: f32,
    /// Lowest the hips go, as a share of their standing height (a deep squat).
    #[export(range = (0.1, 1.0))]
    min_hips_height_share: f32,
    /// Sideways, how far the hips stay over the planted feet rather than under the head (0:
    /// under the head; above 0 a side lean curves the spine instead).
    #[export(range = (0.0, 1.0))]
    hips_over_feet: f32,
    /// Distance between the ankles standing.
    #[export_group(name = "Feet")]
    #[export(range = (0.0, 1.0, suffix = "m"))]
    stance_width_m: f32,
    /// A planted foot steps when its place under the body is this far away.
    #[export(range = (0.01, 2.0, suffix = "m"))]
    step_distance_m: f32,
    /// ... or when the body has turned this far from it.
    #[export(range = (1.0, 180.0, suffix = "°"))]
    step_angle_deg: f32,
    /// How long a step takes standing, and the quickest a walking foot swings.
    #[export(range = (0.05, 2.0, suffix = "s"))]
    step_time_s: f32,
    /// How far ahead a moving body's feet land, as a share of its step (0: where it is).
    #[export(range = (0.0, 2.0))]
    step_lead: f32,
    /// A walker's gait: steps that grow longer and come more often as the body walks faster
    /// (stride over leg length at a Froude number of 1; 2.3 is a typical walker's). 0: a step
    /// whenever the body has moved `step_distance_m`.
    #[export(range = (0.0, 6.0))]
    stride_scale: f32,
    /// How high a stepping foot lifts.
    #[export(range = (0.0, 0.5, suffix = "m"))]
    step_height_m: f32,
    /// How far a planted foot that is leaving its place (it steps next) may lift, its heel
    /// rising, before the hips sink for the leg to reach it: walking, the trailing foot does not
    /// pull the head off the headset. 0: the hips sink for it.
    #[export(range = (0.0, 0.5, suffix = "m"))]
    max_heel_lift_m: f32,
    /// A planted foot the hips would have to sink further than this below what its heel lift
    /// allows to reach (a body starting off fast, a lunge) steps at once, even while the other
    /// foot is in the air, rather than the head leaving the headset. 10: never.
    #[export(range = (0.0, 10.0, suffix = "m"))]
    strand_below_m: f32,
    /// Bending over the planted feet (the head low and looking down: a bow, a pick-up): the
    /// share of the way from the hips to the head that stands over the feet, so the hips go
    /// back and the torso leans rather than the feet stepping after the head and the knees
    /// bending. 0: the hips stay under the head.
    #[export(range = (0.0, 0.9, 0.05))]
    bend_balance_share: f32,
    /// Kneel on one knee (the leg further back) when the hips stay lower than a kneeling thigh
    /// holds them for `kneel_after_s`; off, the body squats however long it stays low.
    #[export_group(name = "Kneeling")]
    #[export]
    kneel: bool,
    /// How long the hips must stay that low before the body kneels: a quick duck squats.
    #[export(range = (0.0, 10.0, suffix = "s"))]
    kneel_after_s: f32,
    /// The player sits (set it from your game: a chair, a vehicle, seated play): the hips rest
    /// on a seat under the upright torso, the thighs reach forward and the feet stand ahead
    /// under the knees; no kneeling. Leaning forward bends the spine over the seat. Set it back
    /// to false when the player stands up.
    #[export_group(name = "Seated")]
    #[export]
    seated: bool,
    /// Also sit when the headset comes down to a seat's height and stays there, still, for a
    /// second and a half, and stand when it is back near standing height or walks: seated play
    /// without a chair in the scene. The headset cannot tell a chair from the floor: with this
    /// on, a low still head sits rather than kneels (a head lower than a seat still kneels), and
    /// a held low stance (a karate horse stance) sits. [signal sitting_changed] says when.
    #[export]
    sit_from_headset: bool,
    /// How long sitting down and standing up take.
    #[export(range = (0.0, 5.0, suffix = "s"))]
    seat_blend_s: f32,
    /// Stand each foot on what a physics ray finds under its place (steps, ramps, a crate)
    /// instead of the flat floor at `origin`'s height: one ray per foot a frame, from the hips'
    /// height down to half a metre under the floor. The rays pass through the avatar's own
    /// colliders (under `body_root`) and `add_floor_ray_exception`'s. Off by default.
    #[export_group(name = "Ground")]
    #[export]
    floor_ray: bool,
    /// The physics layers the feet stand on (`floor_ray`).
    #[export(flags_3d_physics)]
    floor_collision_mask: u32,
    /// The largest share of the legs your walk animation takes while the game moves the XR
    /// origin (thumbstick walking): 0 keeps the procedural feet; 1 plays the animation (an
    /// [AnimationTree] or [AnimationPlayer] posing the leg bones, e.g. a blend by speed) on
    /// the legs at `walk_animation_speed_m_s`. Steps the player takes in the room stay
    /// procedural.
    #[export_group(name = "Walk Animation")]
    #[export(range = (0.0, 1.0))]
    walk_animation_share: f32,
    /// The XR origin's speed at which the animation takes its whole share; below a fifth of
    /// it, none.
    #[export(range = (0.05, 10.0, suffix = "m/s"))]
    walk_animation_speed_m_s: f32,
    /// Solve in the editor too (off by default: the editor has no tracking).
    #[export_group(name = "Editor")]
    #[export]
    editor_preview: bool,

    bound: Option<Bound>,
    /// What `bound` was made for: skeleton, its version, the bone names, the follow sibling and its bones.
    bound_to: crate::skeleton_bind::SkeletonBind<BoundTo>,
    solved: Option<Solved>,
    last_head: Option<Pose>,
    /// The head bone's distance from the headset's head on the last solve.
    last_miss: f32,
    /// Whether the body sat on the last frame ([signal sitting_changed]).
    sitting: bool,
    head_guard: vr_arms_core::body::input_guard::InputGuard,
    settings_changed: bool,
    /// Bind again on the next frame (a bone name changed, or the node entered a tree).
    rebind: bool,
    /// The skeleton, its version and the follows' bone generation when last bound.
    bound_version: crate::skeleton_bind::SkeletonBind<u64>,
    ray_exceptions: crate::shared::floor_ray::RayExceptions,
    /// The process frame whose solve the modification last wrote.
    written_frame: Option<u64>,
    report: ProblemReport,
    base: Base<SkeletonModifier3D>,
}

#[godot_api]
impl ISkeletonModifier3D for LowerBodyRig {
    fn on_validate_property(&self, property: &mut godot::register::info::PropertyInfo) {
        crate::shared::bone_list::suggest_bones(
            property,
            &["hips_bone", "head_bone"],
            parent_skeleton(&self.base().clone().upcast()),
        );
    }

    /// Bridged settings go through the core's validation (the same as a profile's).
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        let set = self.set_validated(&property, &value);
        self.settings_changed |= set;
        // Anything else (a bone name, the head) may change what is bound.
        self.rebind |= !set;
        set
    }

    fn enter_tree(&mut self) {
        self.rebind = true;
    }

    fn init(base: Base<SkeletonModifier3D>) -> Self {
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::LOWER_BODY);
        let names = LowerBodyNames::default();
        let list = |n: &[String]| n.iter().map(GString::from).collect::<PackedStringArray>();
        let mut node = Self {
            head: None,
            body_root: None,
            origin: None,
            left_hand_target: None,
            right_hand_target: None,
            hips_bone: names.hips.as_str().into(),
            spine_bones: list(&names.spine),
            head_bone: names.head.as_str().into(),
            left_leg_bones: list(&[names.legs[0].as_slice(), &names.toes[..1]].concat()),
            right_leg_bones: list(&[names.legs[1].as_slice(), &names.toes[1..]].concat()),
            lean_deg_per_m: 0.0,
            lean_head_pitch_share: 0.0,
            max_lean_deg: 0.0,
            reach_bend_max_deg: 0.0,
            reach_bend_back_share: 0.0,
            reach_bend_side_from_m: 0.0,
            reach_bend_twist_share: 0.0,
            hips_lean_share: 0.0,
            min_hips_height_share: 0.0,
            hips_over_feet: 0.0,
            stance_width_m: 0.0,
            step_distance_m: 0.0,
            step_angle_deg: 0.0,
            step_time_s: 0.0,
            step_lead: 0.0,
            stride_scale: 0.0,
            step_height_m: 0.0,
            max_heel_lift_m: 0.0,
            strand_below_m: 0.0,
            bend_balance_share: 0.0,
            kneel: false,
            kneel_after_s: 0.0,
            seated: false,
            sit_from_headset: false,
            seat_blend_s: 0.0,
            floor_ray: false,
            floor_collision_mask: 0,
            walk_animation_share: 0.0,
            walk_animation_speed_m_s: 0.0,
            editor_preview: false,
            bound: None,
            bound_to: Default::default(),
            solved: None,
            last_head: None,
            last_miss: 0.0,
            sitting: false,
            head_guard: Default::default(),
            settings_changed: false,
            rebind: true,
            bound_version: Default::default(),
            ray_exceptions: Default::default(),
            written_frame: None,
            report: ProblemReport::new("LowerBodyRig"),
            base,
        };
        node.set_core_settings(&LowerBodySettings::default());
        node
    }

    fn process(&mut self, delta: f64) {
        // Last frame's buffers, refilled (no allocation per frame).
        let spare = self.solved.take();
        if skip_in_editor(self.editor_preview) || !self.base().is_active() {
            return;
        }
        if self.report.due() {
            let problems = self.problems();
            self.report.runtime(&problems);
        }
        let Some(skeleton) = self.base().get_skeleton() else {
            return;
        };
        self.solved = self.solve(&skeleton, delta as f32, spare);
        let sitting = self.bound.as_ref().is_some_and(|b| b.stage.sitting());
        if sitting != self.sitting {
            self.sitting = sitting;
            self.signals().sitting_changed().emit(sitting);
        }
    }

    fn process_modification_with_delta(&mut self, _delta: f64) {
        let frame = Engine::singleton().get_process_frames();
        let Some(s) = self.solved.as_ref().filter(|s| s.frame == frame) else {
            return;
        };
        let Some(mut skeleton) = self.base().get_skeleton() else {
            return;
        };
        self.written_frame = Some(frame);
        skeleton.set_bone_pose_position(s.hips.0, s.hips.1);
        for &(thigh, p) in &s.thighs {
            skeleton.set_bone_pose_position(thigh, p);
        }
        for &(bone, q, leg) in &s.rotations {
            // The legs toward the walk animation's pose (in the skeleton now: the animation
            // ran before the modifiers) while the game walks the player.
            let q = if leg && s.walk_share > 0.0 {
                let animated = crate::convert::quat(skeleton.get_bone_pose_rotation(bone));
                blend_leg(q, animated, s.walk_share)
            } else {
                q
            };
            skeleton.set_bone_pose_rotation(bone, to_quaternion(q));
        }
        for &(foot, p, lower, ankle) in &s.positions {
            // Blended, the foot where the blended shin ends (a place blended on its own would
            // leave the shin).
            let p = if s.walk_share > 0.0 {
                let at = skeleton.get_bone_global_pose(lower) * ankle;
                let parent = skeleton.get_bone_parent(foot);
                if parent >= 0 {
                    skeleton.get_bone_global_pose(parent).affine_inverse() * at
                } else {
                    at
                }
            } else {
                p
            };
            skeleton.set_bone_pose_position(foot, p);
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

#[godot_api]
impl LowerBodyRig {
    /// The body sat down (`sitting` true) or stood up: `seated` was set or cleared, or with
    /// `sit_from_headset` the headset was seen to sit or stand.
    #[signal]
    fn sitting_changed(sitting: bool);

    /// Whether the body sits (or is sitting down): `seated`, or seen from the headset with
    /// `sit_from_headset`; as of the last frame the rig solved (a change to `seated` shows the
    /// next frame). `VRAvatarSync` sends it to the other players.
    #[func]
    pub fn is_sitting(&self) -> bool {
        self.sitting
    }

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    /// The feet's rays (`floor_ray`) pass through `body` (a held object, the player's own
    /// body): as `RayCast3D.add_exception`. The avatar's own colliders under `body_root` (hit
    /// boxes on its bones) are passed through without it.
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

    /// Forgets the feet and the last headset (after a teleport: the feet start under the body
    /// again instead of stepping there).
    #[func]
    fn reset(&mut self) {
        if let Some(b) = self.bound.as_mut() {
            b.stage.reset();
        }
        self.last_head = None;
    }

    /// How far the head bone was from where the headset puts it on the last frame, in metres
    /// of the world (whatever the skeleton's scale or units): 0 when it reached it, more when the
    /// headset is out of reach, e.g. higher than the avatar stands.
    #[func]
    fn get_head_miss(&self) -> f32 {
        self.last_miss
    }

    /// Loads the `[lower_body]` section of a TOML profile; on error the settings stay.
    /// `seated` and `sit_from_headset`, the game's state, stay as they are.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        // `seated` and `sit_from_headset` are the game's state, not the profile's: kept.
        let (seated, sit_from_headset) = (self.seated, self.sit_from_headset);
        let ok = apply_profile("LowerBodyRig", &path, |p| {
            self.set_core_settings(&p.lower_body)
        });
        (self.seated, self.sit_from_headset) = (seated, sit_from_headset);
        self.settings_changed |= ok;
        ok
    }

    /// Saves these settings into the `[lower_body]` section of a TOML profile.
    #[func]
    fn save_profile(&self, path: GString) -> bool {
        let s = self.core_settings();
        store_profile("LowerBodyRig", &path, |p| p.lower_body = s)
    }

    settings_bridge!(LowerBodySettings {
        lean_deg_per_m => lean_deg_per_m,
        lean_head_pitch_share => lean_head_pitch_share,
        max_lean_deg => max_lean_deg,
        reach_bend_max_deg => reach_bend_max_deg,
        reach_bend_back_share => reach_bend_back_share,
        reach_bend_side_from_m => reach_bend_side_from_m,
        reach_bend_twist_share => reach_bend_twist_share,
        hips_lean_share => hips_lean_share,
        min_hips_height_share => min_hips_height_share,
        hips_over_feet => hips_over_feet,
        stance_width_m => stance_width_m,
        step_distance_m => step_distance_m,
        step_angle_deg => step_angle_deg,
        step_time_s => step_time_s,
        step_lead => step_lead,
        stride_scale => stride_scale,
        step_height_m => step_height_m,
        max_heel_lift_m => max_heel_lift_m,
        strand_below_m => strand_below_m,
        bend_balance_share => bend_balance_share,
        kneel => kneel,
        kneel_after_s => kneel_after_s,
        seated => seated,
        sit_from_headset => sit_from_headset,
        seat_blend_s => seat_blend_s,
        floor_ray => floor_ray,
        floor_collision_mask => floor_collision_mask,
        walk_animation_share => walk_animation_share,
        walk_animation_speed_m_s => walk_animation_speed_m_s,
    });
}
