//! `VRRemoteBody`'s levels of detail (`vr_arms_core::crowd::crowd_detail`): the level chosen in
//! `_process`, the changes between levels, and the bone writes every level shares (faded after a
//! change, remembered as shown).

use godot::classes::Skeleton3D;
use godot::prelude::*;
use vr_arms_core::crowd::crowd_detail::{
    DetailLevel, DetailSettings, LevelFade, seen_and_distance,
};
use vr_arms_core::crowd::detail_change::{
    CatchUp, LevelChange, LevelChoice, Sight, body_sphere_center, choose_level, usable_scale,
};

use super::VRRemoteBody;
use crate::convert::{to_quaternion, to_vector3, vec3};
use crate::nodes::body_detail::{BodyDetail, DEFAULT_VIEW_GROUP};
use crate::nodes::vr_remote_body::bones::{Bound, KeptRotations, OutsidePose};

/// Where a body is in its levels of detail.
#[derive(Default)]
pub(super) struct DetailState {
    pub(super) level: DetailLevel,
    /// Whether the body is off because nobody sees it (hidden or outside every view): it then
    /// comes back without a fade, since nobody saw its old pose.
    pub(super) unseen: bool,
    pub(super) fade: LevelFade,
    /// The time spent off or without a root follow, caught up when it runs again.
    pub(super) catch_up: CatchUp,
    /// The avatar's scale at its last solve (the culling sphere grows with it).
    pub(super) scale: f32,
    /// The default views' group, made once (a `StringName` from text takes a global lock).
    default_group: Option<StringName>,
}

impl DetailState {
    /// The body follow's step this frame of `delta` seconds: none while unseen (the root stays),
    /// then the time since it last moved.
    pub(super) fn follow_step(&mut self, delta: f64) -> Option<f64> {
        self.catch_up.follow_step(self.unseen, delta)
    }

    /// The time step of a solve whose own step is `dt`, with the time spent off since the last.
    pub(super) fn take_step(&mut self, dt: f32) -> f32 {
        self.catch_up.solve_step(dt)
    }
}

impl VRRemoteBody {
    /// The crowd's settings and its views' group (`detail_settings`, else the defaults).
    pub(super) fn detail_settings(&mut self) -> (DetailSettings, StringName) {
        match &self.detail_settings {
            Some(d) => d.bind().settings(),
            None => (
                DetailSettings::default(),
                self.lod
                    .default_group
                    .get_or_insert_with(|| StringName::from(DEFAULT_VIEW_GROUP))
                    .clone(),
            ),
        }
    }

    /// This frame's level: the one `detail` forces, else the one its distance to the nearest
    /// view and whether one sees it give; off when hidden. A change of level is made at once
    /// (`change_level`), outside the modifier pass, then told by `detail_changed`.
    pub(super) fn update_level(&mut self, skeleton: &mut Gd<Skeleton3D>, delta: f64) {
        let (settings, group) = self.detail_settings();
        let previous = self.lod.level;
        let sight = if !skeleton.is_visible_in_tree() {
            Sight::Hidden
        } else if let Some(level) = self.detail.forced() {
            Sight::Forced(level)
        } else {
            // About the chest, under the head (the root does not move while unseen).
            let head = crate::shared::common::alive(&self.head)
                .filter(|h| h.is_inside_tree())
                .map(|h| vec3(h.get_global_position()));
            let root = self.root().map(|r| vec3(r.get_global_position()));
            let Some(center) = body_sphere_center(head, root, self.lod.scale) else {
                return;
            };
            let radius = settings.body_radius_m * usable_scale(self.lod.scale);
            let node = self.base().clone().upcast::<Node>();
            let (seen, distance_m) = crate::shared::views::with_views(&node, &group, |views| {
                seen_and_distance(views, center, radius)
            });
            Sight::Views { seen, distance_m }
        };
        let LevelChoice { level, unseen } =
            choose_level(&settings, sight, previous, self.lod.unseen);
        if level == DetailLevel::Off {
            self.lod.catch_up.off_for(delta);
        }
        let changed = level != previous;
        if changed {
            self.change_level(skeleton, previous, level, &settings);
        }
        self.lod.level = level;
        self.lod.unseen = level == DetailLevel::Off && unseen;
        if changed {
            self.signals().detail_changed().emit(BodyDetail::of(level));
        }
    }

    /// Puts the skeleton's own pose back where the body wrote over it outside the modifier pass
    /// (on the skeleton it was read from), and starts the levels afresh at full detail, told by
    /// `detail_changed` when the level was another and `tell` (not while leaving the tree: a
    /// freed crowd would report every body going to full detail). `keep_catch_up`: the time
    /// spent off and without a root follow is kept (a rebind while unseen still catches up).
    pub(super) fn release_outside_pose(&mut self, keep_catch_up: bool, tell: bool) {
        if let Some(b) = self.bound.as_mut() {
            put_back_outside_pose(b);
            put_back_fingers(b);
        }
        let was = self.lod.level;
        let old = std::mem::take(&mut self.lod);
        self.lod.default_group = old.default_group;
        if keep_catch_up {
            self.lod.catch_up = old.catch_up;
        }
        if tell && was != DetailLevel::Full {
            self.signals()
                .detail_changed()
                .emit(BodyDetail::of(DetailLevel::Full));
        }
    }

    /// The levels' configuration warnings: the shared settings', and intervals the skeleton's
    /// callback mode turns off.
    pub(super) fn detail_problems(&self, skeleton: &Gd<Skeleton3D>) -> Vec<String> {
        let (mut out, settings) = match &self.detail_settings {
            Some(d) => {
                let d = d.bind();
                (d.problems(), d.settings().0)
            }
            None => (Vec::new(), DetailSettings::default()),
        };
        let intervals = settings
            .reduced_interval_frames
            .max(settings.low_interval_frames) as i32;
        // The interval the solves would run at: the same check that turns it off at run time.
        let turned_off =
            crate::shared::budget::effective_interval(intervals, Some(skeleton)) < intervals as u32;
        if !matches!(self.detail, BodyDetail::Full | BodyDetail::Off) && turned_off {
            out.push(format!(
                "Levels of detail: reduced and low detail solve one frame in {intervals} only when the skeleton's modifier_callback_mode_process is Idle; until then they solve every frame."
            ));
        }
        out
    }

    /// Whether the body has anything written outside the modifier pass standing on a skeleton
    /// (or a level other than full to leave).
    pub(super) fn holds_outside_pose(&self) -> bool {
        self.lod.level != DetailLevel::Full
            || self
                .bound
                .as_ref()
                .is_some_and(|b| b.outside.is_some() || b.kept_fingers.is_some())
    }

    /// Moves from level `from` to `to` (outside the modifier pass): the skeleton's own pose kept
    /// or put back as the body starts or stops writing outside the pass, frozen fingers made to
    /// persist, a new interval started, and a fade from the pose shown begun (not after a
    /// cull, and not into off).
    fn change_level(
        &mut self,
        skeleton: &mut Gd<Skeleton3D>,
        from: DetailLevel,
        to: DetailLevel,
        settings: &DetailSettings,
    ) {
        let interval = to.interval(
            settings,
            vr_arms_core::crowd::budget::interval_frames(self.update_interval_frames.into()),
        );
        self.budget.restart(interval.max(1));
        let change = LevelChange::between(from, to, self.lod.unseen);
        let Some(b) = self.bound.as_mut() else {
            return;
        };
        if change.stop_fingers {
            keep_fingers(skeleton, b);
        }
        if change.keep_outside_pose {
            keep_outside_pose(skeleton, b);
            // The last pose shown, made to persist: the body holds it until it solves again.
            write_rotations(skeleton, &b.shown);
            if let (Some((bone, _)), Some(p)) = (b.hips, b.shown_hips) {
                skeleton.set_bone_pose_position(bone, to_vector3(p));
            }
        } else if change.put_back_outside_pose {
            put_back_outside_pose(b);
        }
        if change.put_back_fingers {
            put_back_fingers(b);
        }
        if change.stop_fingers {
            // The fingers hold their last pose, outside the pass (it persists).
            write_rotations(skeleton, &b.shown[b.tree_solved.min(b.shown.len())..]);
        }
        if change.fade {
            self.lod.fade.start(&b.shown, b.shown_hips, settings.fade_s);
        }
    }
}

/// Keeps the skeleton's own pose of the body's bones (read now, outside the modifier pass)
/// before the body writes over it there: every tree bone (a body that starts at low detail has
/// solved none yet) and the hips' position.
fn keep_outside_pose(skeleton: &Gd<Skeleton3D>, b: &mut Bound) {
    if b.outside.is_some() {
        return;
    }
    let by_locals = crate::nodes::vr_remote_body::pass::read_chain(skeleton, b);
    let hips = b
        .hips
        .map(|(bone, _)| skeleton.get_bone_pose_position(bone));
    b.outside = Some(OutsidePose {
        read: b.read.clone(),
        by_locals,
        rotations: kept(skeleton, &b.tree_bones),
        hips,
    });
}

/// Keeps the finger bones' own rotations before the frozen fingers are written over them.
fn keep_fingers(skeleton: &Gd<Skeleton3D>, b: &mut Bound) {
    if b.kept_fingers.is_none() {
        let bones: Vec<i32> = b.fingers.iter().flatten().copied().collect();
        b.kept_fingers = Some(kept(skeleton, &bones));
    }
}

/// The own rotations of `bones` (those the skeleton has) on `skeleton`.
fn kept(skeleton: &Gd<Skeleton3D>, bones: &[i32]) -> KeptRotations {
    let count = skeleton.get_bone_count();
    KeptRotations {
        skeleton: skeleton.instance_id(),
        rotations: bones
            .iter()
            .filter(|&&bone| (0..count).contains(&bone))
            .map(|&bone| (bone, skeleton.get_bone_pose_rotation(bone)))
            .collect(),
    }
}

/// Puts `kept` back on the skeleton it was read from, if it is still there and has the bones.
fn put_back(kept: &KeptRotations) -> Option<Gd<Skeleton3D>> {
    let mut skeleton = Gd::<Skeleton3D>::try_from_instance_id(kept.skeleton).ok()?;
    let count = skeleton.get_bone_count();
    for &(bone, q) in &kept.rotations {
        if bone < count {
            skeleton.set_bone_pose_rotation(bone, q);
        }
    }
    Some(skeleton)
}

/// Puts the skeleton's own pose back on the body's tree bones and hips (the modifier pass
/// writes over it again from now on, and reads it), on the skeleton it was read from.
fn put_back_outside_pose(b: &mut Bound) {
    let Some(o) = b.outside.take() else {
        return;
    };
    let own = put_back(&o.rotations);
    if let (Some(mut s), Some((bone, _)), Some(p)) = (own, b.hips, o.hips)
        && bone < s.get_bone_count()
    {
        s.set_bone_pose_position(bone, p);
    }
}

/// Puts the fingers' own rotations back (they are live again, or the body lets go).
fn put_back_fingers(b: &mut Bound) {
    if let Some(k) = b.kept_fingers.take() {
        put_back(&k);
    }
}

fn write_rotations(skeleton: &mut Gd<Skeleton3D>, rotations: &[(i32, glam::Quat)]) {
    for &(bone, q) in rotations {
        skeleton.set_bone_pose_rotation(bone, to_quaternion(q));
    }
}

/// Writes `b.frame` (this frame's rotations, a prefix of `solved`'s order) and the hips at
/// `hips`, faded in from the pose at the last change of level, and remembers them as shown.
pub(super) fn write_frame(
    skeleton: &mut Gd<Skeleton3D>,
    b: &mut Bound,
    fade: &LevelFade,
    hips: Option<glam::Vec3>,
) {
    fade.apply(&mut b.frame);
    write_rotations(skeleton, &b.frame);
    if b.shown.len() < b.frame.len() || b.shown.iter().zip(&b.frame).any(|(s, f)| s.0 != f.0) {
        b.shown.clear();
        b.shown.extend_from_slice(&b.frame);
        if let Some(rest) = b.solved.get(b.frame.len()..) {
            b.shown.extend_from_slice(rest);
        }
    }
    b.shown[..b.frame.len()].copy_from_slice(&b.frame);
    if let (Some((bone, _)), Some(p)) = (b.hips, hips) {
        let p = fade.apply_hips(p);
        skeleton.set_bone_pose_position(bone, to_vector3(p));
        b.shown_hips = Some(p);
    }
}
