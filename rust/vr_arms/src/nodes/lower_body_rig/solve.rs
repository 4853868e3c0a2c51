//! `LowerBodyRig`'s work: binding to the skeleton's bones, the frame's solve in `_process` (the
//! spine follow beside it, then the core's lower body), the shoulders it carries for the arm
//! stages, and its configuration warnings.

use super::*;
use crate::convert::vec3;
use vr_arms_core::PerSide;
use vr_arms_core::body::spine_and_legs::{SpineStep, StandFrame};

/// The stage bound to a skeleton's bones.
pub(super) struct Bound {
    pub(super) stage: LowerBody,
    pub(super) tree: PoseTree,
    /// Engine bone of each tree bone.
    pub(super) bones: Vec<i32>,
    /// The `UpperBodyFollow` beside it, with its chest, neck and head in the tree.
    pub(super) follow: Option<(Gd<UpperBodyFollow>, [Option<usize>; 3])>,
    /// The tree bones the follow writes (bits).
    pub(super) follow_mask: u32,
}

/// One frame's solve, worked out in `_process` and written in the modifier pass.
#[derive(Default)]
pub(super) struct Solved {
    pub(super) frame: u64,
    /// Engine bone and local rotation of each written bone, and whether it is a leg bone
    /// (blended toward the walk animation by `walk_share`).
    pub(super) rotations: Vec<(i32, glam::Quat, bool)>,
    /// Each foot that hangs from elsewhere than its lower leg (a game rig whose feet were IK
    /// targets), put where its shin ends: its engine bone and local position, its lower leg's
    /// engine bone and the ankle in the lower leg's frame (skeleton units).
    pub(super) positions: Vec<(i32, Vector3, i32, Vector3)>,
    /// Each upper leg that hangs from elsewhere than below the hips (a game rig whose thighs
    /// hang from its root), carried with the hips: its engine bone and local position.
    pub(super) thighs: Vec<(i32, Vector3)>,
    /// The walk animation's share of the legs this frame.
    pub(super) walk_share: f32,
    /// The hips bone and its local position.
    pub(super) hips: (i32, Vector3),
    /// Each tree bone's global pose (skeleton space) as read and as solved.
    pub(super) before: Vec<Pose>,
    pub(super) after: Vec<Pose>,
}

impl LowerBodyRig {
    /// Where this frame's body carries a bone: its global pose (skeleton space, `before` as read
    /// in `_process`) moved with its nearest ancestor that the lower body or the spine follow
    /// moved. `None` when the rig has not solved this frame, or has already written it (the
    /// pose read then has the body in it). The arm target stages measure the shoulders through
    /// it.
    pub fn carried(&self, skeleton: &Gd<Skeleton3D>, bone: i32, before: Pose) -> Option<Pose> {
        let frame = Engine::singleton().get_process_frames();
        // Once its modification has written the bones this frame (in the modifier pass or in
        // `skeleton_updated`), the skeleton's pose already carries them: `None`, not twice.
        if self.written_frame == Some(frame) {
            return None;
        }
        let s = self.solved.as_ref().filter(|s| s.frame == frame)?;
        let bones = &self.bound.as_ref()?.bones;
        let mut b = bone;
        let i = loop {
            if let Some(i) = bones.iter().position(|t| *t == b) {
                break i;
            }
            b = skeleton.get_bone_parent(b);
            if b < 0 {
                return None;
            }
        };
        Some(s.after[i].mul_pose(&s.before[i].inverse().mul_pose(&before)))
    }

    fn names(&self) -> LowerBodyNames {
        let list = |a: &PackedStringArray| {
            a.as_slice()
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
        };
        let spine = list(&self.spine_bones);
        let lists = [&self.left_leg_bones, &self.right_leg_bones].map(list);
        let at = |l: &Vec<String>, i: usize| l.get(i).cloned().unwrap_or_default();
        LowerBodyNames {
            hips: self.hips_bone.to_string(),
            spine: std::array::from_fn(|i| spine.get(i).cloned().unwrap_or_default()),
            head: self.head_bone.to_string(),
            legs: lists.clone().map(|l| std::array::from_fn(|i| at(&l, i))),
            toes: lists.map(|l| at(&l, 3)),
        }
    }

    /// The `UpperBodyFollow` beside it under the same skeleton: the first active one, else the
    /// first (each frame uses it only while it is active, so one switched on later counts).
    fn follow_sibling(skeleton: &Gd<Skeleton3D>) -> Option<Gd<UpperBodyFollow>> {
        let follows: Vec<Gd<UpperBodyFollow>> = skeleton
            .get_children()
            .iter_shared()
            .filter_map(|c| c.try_cast::<UpperBodyFollow>().ok())
            .collect();
        let active = follows.iter().find(|f| f.is_active()).cloned();
        active.or_else(|| follows.into_iter().next())
    }

    /// Binds to the skeleton's bones (again when they, the names or the follow change).
    fn bind(&mut self, skeleton: &Gd<Skeleton3D>) {
        // The common case, every frame: nothing changed (no names built, no children scanned).
        // A follow's bones renamed, or a follow added or removed, anywhere: bind again.
        if self.rebind {
            self.bound_version.forget();
        }
        let generation = crate::nodes::upper_body_follow::bones_generation();
        if !self.bound_version.rebind(skeleton, generation) {
            if self.settings_changed {
                self.settings_changed = false;
                let settings = self.core_settings();
                if let Some(b) = self.bound.as_mut() {
                    b.stage.settings = settings;
                }
            }
            return;
        }
        self.rebind = false;
        self.settings_changed = false;
        let names = self.names();
        let follow = Self::follow_sibling(skeleton);
        let key = (
            names.clone(),
            follow
                .as_ref()
                .map(|f| (f.instance_id(), f.bind().spine_bones())),
        );
        if !self.bound_to.rebind(skeleton, key) {
            let settings = self.core_settings();
            if let Some(b) = self.bound.as_mut() {
                b.stage.settings = settings;
            }
            return;
        }
        self.bound = None;
        let mut tb = TreeBuilder::default();
        let Some((bones, eyes)) = add_lower_body(skeleton, &names, &mut tb) else {
            return;
        };
        let follow = follow.map(|f| {
            let spine = f.bind().spine_bones().map(|n| {
                let b = skeleton.find_bone(&n);
                tb.add(skeleton, b)
            });
            (f, spine)
        });
        // Each arm's shoulder (its upper arm, in the tree) and reach, for the reach bend.
        let arms = ["Left", "Right"].map(|side| {
            let [u, l, h] =
                ["UpperArm", "LowerArm", "Hand"].map(|b| skeleton.find_bone(&format!("{side}{b}")));
            if u < 0 || l < 0 || h < 0 {
                return None;
            }
            let at = |b| vec3(skeleton.get_bone_global_rest(b).origin);
            let reach = at(u).distance(at(l)) + at(l).distance(at(h));
            Some((tb.add(skeleton, u)?, reach))
        });
        let (Ok(tree), Ok(rest)) = (tb.tree(), tb.rest_tree(skeleton)) else {
            return;
        };
        let follow_mask = follow.as_ref().map_or(0, |(_, spine)| {
            spine
                .iter()
                .flatten()
                .filter(|&&i| i < 32)
                .fold(0, |m, i| m | 1 << i)
        });
        self.bound = Some(Bound {
            stage: LowerBody::new(self.core_settings(), bones, &rest, eyes)
                .with_arms(PerSide::new(arms[0], arms[1]))
                .with_leg_skins(crate::mesh_read::lower_body_leg_vertices(
                    skeleton, &bones, &tb.bones,
                )),
            tree,
            bones: tb.bones,
            follow,
            follow_mask,
        });
    }

    /// This frame's body on the skeleton's current pose, as the core's body composes it: the
    /// spine follow (when an `UpperBodyFollow` is beside it), then the lower body.
    pub(super) fn solve(
        &mut self,
        skeleton: &Gd<Skeleton3D>,
        dt: f32,
        spare: Option<Solved>,
    ) -> Option<Solved> {
        self.bind(skeleton);
        if let Some(head) = alive(&self.head)
            .filter(|n| n.is_inside_tree())
            .and_then(|n| read_tracked(&n, &mut self.head_guard))
        {
            self.last_head = Some(head);
        }
        let head_world = self.last_head?;
        let root = alive(&self.body_root).filter(|n| n.is_inside_tree())?;
        let root_global = root.get_global_transform();
        let skeleton_global = skeleton.get_global_transform();
        // The core's frame, as the remote body's: the world without the skeleton's scale.
        let frame = crate::shared::core_frame::CoreFrame::new(&skeleton_global);
        // This process frame (its solve is written in its modifier pass).
        let now = Engine::singleton().get_process_frames();
        let head = frame.pose(head_world);
        let root_core = frame.transform(&root_global);
        let skeleton_core = frame.skeleton;
        let origin = origin_pose(&self.origin, &self.head);
        let floor = origin.map_or(0.0, |o| o.position.y);
        let floor_y = frame.floor_y(&root_global, floor);
        let scale = crate::shared::common::uniform_scale(&root_global)
            / crate::shared::common::uniform_scale(&skeleton_global).max(1e-6);

        let physics = if self.floor_ray {
            crate::shared::floor_ray::PhysicsGround::of(
                &self.to_gd().upcast(),
                self.floor_collision_mask,
                &mut self.ray_exceptions,
                &root,
                now,
            )
            .map(|g| g.in_frame(frame.to_core))
        } else {
            None
        };
        // Steps and ramps under the feet (`floor_ray`), else the flat floor.
        let surface = crate::shared::floor_ray::or_flat(physics.as_ref());
        // The hands' raw targets, this frame's (`ControllerTargets` ran before).
        let hand = |t: &Option<Gd<Node3D>>| crate::relay::read_position(t).map(|p| frame.point(p));
        let hands = PerSide::new(hand(&self.left_hand_target), hand(&self.right_hand_target));
        let b = self.bound.as_mut()?;
        let mut s = spare.unwrap_or_default();
        s.before.clear();
        s.before.extend(
            b.bones
                .iter()
                .map(|&bone| pose(&skeleton.get_bone_global_pose(bone))),
        );
        b.tree.set_globals(&s.before);
        let mut mask = 0;
        // The follow beside it (gone or switched off since the bind: no follow).
        let follow = b
            .follow
            .as_ref()
            .filter(|(f, _)| f.is_instance_valid() && f.is_active());
        // The spine as the follow beside it will pose it, then the legs under it.
        let stage = follow.map(|(f, spine)| (FollowStage::new(f.bind().core_settings()), *spine));
        if stage.is_some() {
            mask |= b.follow_mask;
        }
        let stand = StandFrame {
            headset: Some(head),
            root: root_core,
            skeleton: skeleton_core,
            floor_y,
            scale,
            origin: origin.map(|o| frame.pose(o)),
        };
        let spine = stage.as_ref().map(|(follow, bones)| SpineStep {
            follow,
            bones: *bones,
            head,
        });
        let (_, out) =
            stand.spine_then_lower_body(&mut b.tree, spine, Some(&mut b.stage), hands, dt, surface);
        let out = out?;
        out.hips?;
        // The core's frame is the world without the skeleton's scale: in metres again.
        self.last_miss =
            out.head_miss * crate::shared::common::uniform_scale(&skeleton_global).max(0.0);
        mask |= b.stage.bones_mask();
        let legs = b.stage.legs_mask();
        s.rotations.clear();
        s.rotations.extend(
            (0..b.tree.len())
                .filter(|&i| i < 32 && mask & (1 << i) != 0)
                .map(|i| (b.bones[i], b.tree.local_rotation(i), legs & 1 << i != 0)),
        );
        // A foot hanging from elsewhere than its shin moves with it: its place is written too.
        s.positions.clear();
        let loose = b.stage.loose_feet(&mut b.tree);
        for f in [loose.left, loose.right].into_iter().flatten() {
            s.positions.push((
                b.bones[f.foot],
                to_vector3(f.local_position),
                b.bones[f.lower],
                to_vector3(f.ankle_in_lower),
            ));
        }
        s.thighs.clear();
        let thighs = b.stage.loose_thigh_bones();
        for t in [thighs.left, thighs.right].into_iter().flatten() {
            s.thighs
                .push((b.bones[t], to_vector3(b.tree.local(t).position)));
        }
        s.after.clear();
        s.after.extend((0..b.tree.len()).map(|i| b.tree.global(i)));
        s.frame = now;
        s.walk_share = out.walk_animation_share;
        let hips = b.stage.bones().hips;
        s.hips = (b.bones[hips], to_vector3(b.tree.local(hips).position));
        Some(s)
    }

    pub(super) fn problems(&self) -> Vec<String> {
        let Some(skeleton) = parent_skeleton(&self.base().clone().upcast()) else {
            return vec!["LowerBodyRig must be a child of a Skeleton3D.".into()];
        };
        let mut out = Vec::new();
        out.extend(rig_order_problem(
            &self.base().clone().upcast(),
            "LowerBodyRig",
            RigOrder::Before,
            "the arms are solved from where the lower body put the shoulders",
        ));
        if self.head.is_none() {
            out.push("Set \"head\" to the XRCamera3D.".into());
        }
        if self.body_root.is_none() {
            out.push("Set \"body_root\" to the avatar root that BodyFollow moves (on the floor, facing +Z).".into());
        }
        let follow_after = skeleton
            .get_children()
            .iter_shared()
            .skip_while(|c| *c != self.base().clone().upcast::<Node>())
            .any(|c| c.try_cast::<UpperBodyFollow>().is_ok());
        if follow_after {
            out.push("Move LowerBodyRig after UpperBodyFollow in the skeleton's children: the spine bends from where the follow turned it.".into());
        }
        out.extend(lower_body_problems(&skeleton, &self.names()));
        out
    }
}
