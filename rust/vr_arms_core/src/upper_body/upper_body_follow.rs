//! Upper body follow: the head's yaw and pitch relative to the body, spread over chest, neck and
//! head bones (an S-curve, not only the head bone turning).
//!
//! Each bone gets its share of the yaw (about the body's up) and pitch (about the body's left
//! axis after the yaw); the shares accumulate down the chain, so with shares summing to 1 the head
//! ends up facing exactly where the headset looks (within the limits).
//!
//! In a low stance (the head well below its standing height: a lunge, a deep karate stance, a
//! crouch) the chest stays with the body and the head turns on the neck: as the head drops from
//! `low_stance_start_m` to `low_stance_full_m` below standing, the chest's share of the yaw
//! moves to the neck (down to `low_stance_chest_yaw_weight`), so the head still meets the
//! headset. The drop comes from the lower body, which knows the standing height; without one the
//! stance is taken as upright.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::maths::angles::head_yaw;
use crate::maths::finite::finite_clamp;
use crate::maths::side::Side;
use crate::maths::skeleton_bones::SkeletonBones;

/// Settings of [`UpperBodyFollow`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UpperBodyFollowSettings {
    /// Share of the head's yaw taken by the chest, neck and head bones (in that order).
    pub yaw_weights: [f32; 3],
    /// Share of the head's pitch taken by the chest, neck and head bones.
    pub pitch_weights: [f32; 3],
    /// Largest head yaw relative to the body that is followed (degrees).
    pub max_yaw_deg: f32,
    /// Largest head pitch that is followed (degrees).
    pub max_pitch_deg: f32,
    /// The head this far below its standing height (avatar metres) starts a low stance ...
    pub low_stance_start_m: f32,
    /// ... fully low from here.
    pub low_stance_full_m: f32,
    /// The chest's share of the head's yaw in a full low stance (the rest of its share goes to
    /// the neck).
    pub low_stance_chest_yaw_weight: f32,
}

impl Default for UpperBodyFollowSettings {
    fn default() -> Self {
        Self {
            yaw_weights: [0.25, 0.3, 0.45],
            pitch_weights: [0.15, 0.3, 0.55],
            max_yaw_deg: 90.0,
            max_pitch_deg: 70.0,
            low_stance_start_m: 0.3,
            low_stance_full_m: 0.4,
            low_stance_chest_yaw_weight: 0.0,
        }
    }
}

impl UpperBodyFollowSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        for (w, dw) in self.yaw_weights.iter_mut().zip(d.yaw_weights) {
            *w = finite_clamp(*w, 0.0, 1.0, dw);
        }
        for (w, dw) in self.pitch_weights.iter_mut().zip(d.pitch_weights) {
            *w = finite_clamp(*w, 0.0, 1.0, dw);
        }
        self.max_yaw_deg = finite_clamp(self.max_yaw_deg, 0.0, 180.0, d.max_yaw_deg);
        self.max_pitch_deg = finite_clamp(self.max_pitch_deg, 0.0, 90.0, d.max_pitch_deg);
        self.low_stance_start_m =
            finite_clamp(self.low_stance_start_m, 0.0, 10.0, d.low_stance_start_m);
        self.low_stance_full_m = finite_clamp(
            self.low_stance_full_m,
            self.low_stance_start_m + 0.01,
            10.01,
            self.low_stance_start_m + 0.1,
        );
        self.low_stance_chest_yaw_weight = finite_clamp(
            self.low_stance_chest_yaw_weight,
            0.0,
            1.0,
            d.low_stance_chest_yaw_weight,
        );
    }

    /// The chest's and neck's shares of the head's yaw with the head `drop_m` avatar metres
    /// below its standing height: the chest's share falls toward the low stance's, and the neck
    /// takes what the chest gives up (the head's share, and so the sum, unchanged).
    pub fn yaw_weights_at(&self, drop_m: f32) -> [f32; 3] {
        let [chest, neck, head] = self.yaw_weights;
        let low = crate::maths::smoothing::inverse_lerp_clamped(
            self.low_stance_start_m,
            self.low_stance_full_m,
            if drop_m.is_finite() { drop_m } else { 0.0 },
        );
        let target = self.low_stance_chest_yaw_weight.min(chest);
        let chest_now = chest + (target - chest) * low;
        [chest_now, neck + (chest - chest_now), head]
    }
}

/// The headset's yaw and pitch relative to a body rotation (radians; yaw toward the body's left
/// and pitch up are positive).
pub fn head_yaw_pitch(body: Quat, head: Quat) -> (f32, f32) {
    let rel = body.inverse() * head;
    let forward = rel * Vec3::NEG_Z;
    (head_yaw(&rel), forward.y.clamp(-1.0, 1.0).asin())
}

/// One frame of the chain (skeleton space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UpperBodyFollowInput {
    /// The avatar root's rotation.
    pub body: Quat,
    /// The headset's rotation.
    pub head: Quat,
    /// Each chain bone's own parent's global rotation before the follow: `parents[0]` the
    /// chest's parent; `None` for a later bone: the chain bone before it is its parent (and for
    /// the chest: the identity).
    pub parents: [Option<Quat>; 3],
    /// The chest's, neck's and head's global rotations before the follow (`None`: no bone).
    pub bones: [Option<Quat>; 3],
    /// How far the head is below its standing height (avatar metres; 0 upright; see
    /// [`UpperBodyFollowSettings::yaw_weights_at`]).
    pub drop_m: f32,
}

impl UpperBodyFollowInput {
    /// Upright, each bone's parent the chain bone before it, the chest's `chest_parent`.
    pub fn chain(body: Quat, head: Quat, chest_parent: Quat, bones: [Option<Quat>; 3]) -> Self {
        Self {
            body,
            head,
            parents: [Some(chest_parent), None, None],
            bones,
            drop_m: 0.0,
        }
    }
}

/// The chain's new local rotations (relative to each bone's own parent; `None`: no bone).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UpperBodyFollowOutput {
    pub local_rotations: [Option<Quat>; 3],
}

/// The stage (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub struct UpperBodyFollow {
    pub settings: UpperBodyFollowSettings,
}

impl UpperBodyFollow {
    pub fn new(mut settings: UpperBodyFollowSettings) -> Self {
        settings.validate();
        Self { settings }
    }

    /// Cumulative (yaw, pitch) of each bone of the chain for a head at (yaw, pitch), the head
    /// `drop_m` avatar metres below its standing height (0: upright).
    pub fn cumulative_angles(&self, yaw: f32, pitch: f32, drop_m: f32) -> [(f32, f32); 3] {
        let s = &self.settings;
        let yaw = if yaw.is_finite() {
            yaw.clamp(-s.max_yaw_deg.to_radians(), s.max_yaw_deg.to_radians())
        } else {
            0.0
        };
        let pitch = if pitch.is_finite() {
            pitch.clamp(-s.max_pitch_deg.to_radians(), s.max_pitch_deg.to_radians())
        } else {
            0.0
        };
        let yaw_weights = s.yaw_weights_at(drop_m);
        let mut out = [(0.0, 0.0); 3];
        let (mut y, mut p) = (0.0, 0.0);
        for (i, slot) in out.iter_mut().enumerate() {
            y += yaw_weights[i] * yaw;
            p += s.pitch_weights[i] * pitch;
            *slot = (y, p);
        }
        out
    }

    /// New bone-local rotations for the chain (see [`UpperBodyFollowInput`]). A missing bone
    /// is skipped; its share is not moved to another bone. A bone in between chain members (a
    /// humanoid's UpperChest between Chest and Neck) keeps its local rotation: it turns with
    /// the chain bone above it, and the locals returned put each chain bone where the follow
    /// wants it under it. The follow is stateless: `side` and `dt` change nothing.
    pub fn update(
        &mut self,
        _side: Side,
        input: &UpperBodyFollowInput,
        _dt: f32,
    ) -> UpperBodyFollowOutput {
        UpperBodyFollowOutput {
            local_rotations: self.solve_in_chain(input),
        }
    }

    fn solve_in_chain(&self, input: &UpperBodyFollowInput) -> [Option<Quat>; 3] {
        let UpperBodyFollowInput {
            body,
            head,
            parents,
            bones,
            drop_m,
        } = *input;
        let body = crate::maths::finite::quat_or(body, Quat::IDENTITY);
        let head = crate::maths::finite::quat_or(head, body);
        let (yaw, pitch) = head_yaw_pitch(body, head);
        let angles = self.cumulative_angles(yaw, pitch, drop_m);
        let chest_parent = parents[0].unwrap_or(Quat::IDENTITY);
        let mut parent_new = crate::maths::finite::quat_or(chest_parent, Quat::IDENTITY);
        let mut parent_old = parent_new;
        let mut out = [None; 3];
        for i in 0..3 {
            let Some(old) = bones[i].map(|q| crate::maths::finite::quat_or(q, parent_old)) else {
                continue;
            };
            let (y, p) = angles[i];
            // In body axes: yaw about up, then pitch about the yawed left axis (pitch up = -X).
            let delta_body = Quat::from_rotation_y(y) * Quat::from_rotation_x(-p);
            let delta = body * delta_body * body.inverse();
            let new = (delta * old).normalize();
            // The bone's own parent as the chain bone above it has moved it.
            let own_parent = match parents[i] {
                Some(q) if i > 0 => {
                    let q = crate::maths::finite::quat_or(q, parent_old);
                    (parent_new * parent_old.inverse() * q).normalize()
                }
                _ => parent_new,
            };
            out[i] = Some((own_parent.inverse() * new).normalize());
            parent_new = new;
            parent_old = old;
        }
        out
    }

    /// The spine step on a skeleton's bones: `spine` is the chest, neck and head (a missing one
    /// `None`; no chest, no follow), `body` and `head` the avatar root's and the headset's
    /// rotations in skeleton space, `drop_m` how far the head is below its standing height
    /// (avatar metres; 0 upright). Returns each spine bone with its new local rotation.
    ///
    /// Measures the chain as [`UpperBodyFollowInput`] wants it: the chest's parent,
    /// and each later bone's own parent where it is not the chain bone before it (a humanoid's
    /// UpperChest between Chest and Neck).
    #[inline]
    pub fn follow_bones(
        &self,
        bones: &mut impl SkeletonBones,
        spine: [Option<usize>; 3],
        body: Quat,
        head: Quat,
        drop_m: f32,
    ) -> [Option<(usize, Quat)>; 3] {
        let Some(chest) = spine[0] else {
            return [None; 3];
        };
        let mut parents = [
            bones.parent(chest).map(|p| bones.global(p).rotation),
            None,
            None,
        ];
        let mut before = chest;
        for (slot, bone) in parents.iter_mut().zip(spine).skip(1) {
            let Some(bone) = bone else { continue };
            let own = bones.parent(bone);
            if own != Some(before) {
                *slot = own.map(|p| bones.global(p).rotation);
            }
            before = bone;
        }
        let input = UpperBodyFollowInput {
            body,
            head,
            parents,
            bones: spine.map(|b| b.map(|b| bones.global(b).rotation)),
            drop_m,
        };
        let locals = self.solve_in_chain(&input);
        let mut out = [None; 3];
        for ((slot, bone), local) in out.iter_mut().zip(spine).zip(locals) {
            if let (Some(bone), Some(local)) = (bone, local) {
                *slot = Some((bone, local));
            }
        }
        out
    }
}

impl crate::stage::StageSettings for UpperBodyFollowSettings {
    fn validate(&mut self) {
        Self::validate(self);
    }
}

impl crate::stage::Stage for UpperBodyFollow {
    type Settings = UpperBodyFollowSettings;
    type Input = UpperBodyFollowInput;
    type Output = UpperBodyFollowOutput;

    fn update(&mut self, side: Side, input: &Self::Input, dt: f32) -> Self::Output {
        Self::update(self, side, input, dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The follow on a chain whose bones are each other's parents (upright).
    fn solve(
        stage: &mut UpperBodyFollow,
        body: Quat,
        head: Quat,
        chest_parent: Quat,
        bones: [Option<Quat>; 3],
    ) -> [Option<Quat>; 3] {
        let input = UpperBodyFollowInput::chain(body, head, chest_parent, bones);
        stage.update(Side::Left, &input, 0.0).local_rotations
    }

    #[test]
    fn a_bone_between_chest_and_neck_does_not_turn_the_neck_away() {
        let mut stage = UpperBodyFollow::default();
        let (body, head) = (Quat::IDENTITY, camera(0.5, 0.3));
        let chest = Quat::from_rotation_x(0.1);
        let neck = Quat::from_rotation_x(-0.2) * Quat::from_rotation_y(0.1);
        let head_bone = neck * Quat::from_rotation_x(0.05);
        let bones = [Some(chest), Some(neck), Some(head_bone)];
        // The neck directly under the chest.
        let direct = solve(&mut stage, body, head, Quat::IDENTITY, bones);
        let chest_new = direct[0].unwrap();
        let neck_direct = chest_new * direct[1].unwrap();
        // The same chain with an upper chest between, turned 0.4 rad from the chest.
        let between = Quat::from_rotation_x(0.4);
        let upper_chest = chest * between;
        let out = stage.solve_in_chain(&UpperBodyFollowInput {
            parents: [None, Some(upper_chest), None],
            ..UpperBodyFollowInput::chain(body, head, Quat::IDENTITY, bones)
        });
        assert!(out[0].unwrap().angle_between(direct[0].unwrap()) < 1e-5);
        // The upper chest keeps its local rotation under the turned chest.
        let neck_new = out[0].unwrap() * between * out[1].unwrap();
        let d = neck_new * neck_direct.inverse();
        let angle = 2.0 * Vec3::new(d.x, d.y, d.z).length().atan2(d.w.abs());
        assert!(
            angle < 1e-5,
            "the neck lands where it does without the bone between: {angle}"
        );
        assert!(direct[1].unwrap().angle_between(out[1].unwrap()) > 0.3);
        // The head's parent is the neck, as before.
        assert!(out[2].unwrap().angle_between(direct[2].unwrap()) < 1e-5);
    }

    fn camera(yaw: f32, pitch: f32) -> Quat {
        // Camera looks along -Z; the avatar faces +Z: turn it around, then yaw and pitch.
        Quat::from_rotation_y(yaw + std::f32::consts::PI) * Quat::from_rotation_x(pitch)
    }

    #[test]
    fn reads_yaw_and_pitch() {
        let (y, p) = head_yaw_pitch(Quat::IDENTITY, camera(0.5, 0.3));
        assert!((y - 0.5).abs() < 1e-5 && (p - 0.3).abs() < 1e-5, "{y} {p}");
        let body = Quat::from_rotation_y(1.0);
        let (y, _) = head_yaw_pitch(body, camera(1.3, 0.0));
        assert!((y - 0.3).abs() < 1e-5);
    }

    #[test]
    fn shares_accumulate_to_the_head() {
        let mut stage = UpperBodyFollow::default();
        let yaw = 60f32.to_radians();
        let locals = solve(
            &mut stage,
            Quat::IDENTITY,
            camera(yaw, 0.0),
            Quat::IDENTITY,
            [Some(Quat::IDENTITY); 3],
        );
        // Rebuild globals from locals.
        let mut g = Quat::IDENTITY;
        let mut yaws = Vec::new();
        for l in locals {
            g *= l.unwrap();
            let f = g * Vec3::Z;
            yaws.push(f.x.atan2(f.z).to_degrees());
        }
        assert!((yaws[0] - 15.0).abs() < 1e-3, "{yaws:?}");
        assert!((yaws[1] - 33.0).abs() < 1e-3, "{yaws:?}");
        assert!((yaws[2] - 60.0).abs() < 1e-3, "{yaws:?}");
    }

    #[test]
    fn pitch_up_tilts_the_head_up() {
        let mut stage = UpperBodyFollow::default();
        let locals = solve(
            &mut stage,
            Quat::IDENTITY,
            camera(0.0, 0.4),
            Quat::IDENTITY,
            [Some(Quat::IDENTITY); 3],
        );
        let g = locals.iter().fold(Quat::IDENTITY, |g, l| g * l.unwrap());
        assert!(((g * Vec3::Z).y.asin() - 0.4).abs() < 1e-4);
    }

    #[test]
    fn limits_and_garbage() {
        let mut stage = UpperBodyFollow::default();
        let a = stage.cumulative_angles(3.0, f32::NAN, f32::NAN);
        assert!((a[2].0 - 90f32.to_radians()).abs() < 1e-5 && a[2].1 == 0.0);
        let out = solve(
            &mut stage,
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0),
            Quat::IDENTITY,
            [Some(Quat::IDENTITY), None, Some(Quat::IDENTITY)],
        );
        assert!(out[0].unwrap().is_finite() && out[1].is_none() && out[2].unwrap().is_finite());
    }

    #[test]
    fn settings_are_validated() {
        let s = UpperBodyFollow::new(UpperBodyFollowSettings {
            yaw_weights: [2.0, f32::NAN, -1.0],
            pitch_weights: [0.5, 0.5, f32::INFINITY],
            max_yaw_deg: 400.0,
            max_pitch_deg: -5.0,
            low_stance_start_m: f32::NAN,
            low_stance_full_m: 0.1,
            low_stance_chest_yaw_weight: 3.0,
        })
        .settings;
        assert_eq!(s.yaw_weights, [1.0, 0.3, 0.0]);
        assert_eq!(s.pitch_weights, [0.5, 0.5, 0.55]);
        assert_eq!((s.max_yaw_deg, s.max_pitch_deg), (180.0, 0.0));
        // A low stance that ends before it starts ends just after it.
        assert_eq!(s.low_stance_start_m, 0.3);
        assert!((s.low_stance_full_m - 0.31).abs() < 1e-6);
        assert_eq!(s.low_stance_chest_yaw_weight, 1.0);
    }

    /// The chest's share of the yaw falls through the low stance's ramp; the neck takes what
    /// it gives up, so the shares' sum (where the head ends up) never changes.
    #[test]
    fn a_low_stance_moves_the_chests_share_of_the_yaw_to_the_neck() {
        let s = UpperBodyFollowSettings::default();
        let sum = |w: [f32; 3]| w.iter().sum::<f32>();
        assert_eq!(s.yaw_weights_at(0.0), s.yaw_weights);
        assert_eq!(s.yaw_weights_at(f32::NAN), s.yaw_weights);
        let [c, n, h] = s.yaw_weights;
        let half = s.yaw_weights_at(0.5 * (s.low_stance_start_m + s.low_stance_full_m));
        assert!((half[0] - 0.5 * c).abs() < 1e-5 && (half[1] - (n + 0.5 * c)).abs() < 1e-5);
        let low = s.yaw_weights_at(s.low_stance_full_m + 1.0);
        assert_eq!(low[0], s.low_stance_chest_yaw_weight);
        assert_eq!(low[2], h);
        assert!((sum(low) - sum(s.yaw_weights)).abs() < 1e-6);
    }
}
