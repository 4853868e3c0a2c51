//! The lower body from the headset: the hips placed under where the head must be and the spine
//! bent so the head bone reaches it (crouch, bow, lean), the legs solved to feet planted on the
//! floor, and the feet stepping when the body moves or turns away from them.
//!
//! Per frame, after the upper body's follow turned the chest, neck and head toward the
//! headset: [`pelvis`] places the hips (world), [`spine_bend`] bends the spine toward the head's
//! place and the hips take up what is left (the head bone on the headset's head), the head
//! turns as the headset does, [`feet`] keeps or steps the feet, [`legs`] solves each leg to its
//! foot. Coordinates: world poses with +Y up and the floor at `floor_y`, in world units; the
//! bones in the tree in skeleton space.

pub mod feet;
pub mod gait;
pub mod ground;
pub mod heel;
mod homes;
mod knee_clear;
pub mod knee_plant;
pub mod kneel;
mod kneel_choice;
pub mod leg_skin;
pub mod legs;
mod legs_pass;
pub mod pelvis;
pub mod reach_bend;
mod rest;
pub mod seat;
mod settings;
mod sink;
pub mod sit_detect;
pub mod spine_bend;
pub mod standing;
pub mod walk_blend;

use glam::{Quat, Vec3};

pub use rest::LowerBodyRest;
pub use settings::LowerBodySettings;

use crate::maths::pose::Pose;
use crate::maths::pose_tree::{PoseTree, hangs_below};
use crate::maths::side::{PerSide, Side};
use feet::FootTarget;
use legs::LegBones;
use pelvis::{PelvisInput, place_hips};

/// The lower body's bones in the tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LowerBodyBones {
    pub hips: usize,
    /// The bones between the hips and the head, hips side first (spine, chest, upper chest,
    /// neck); a missing one `None`.
    pub spine: [Option<usize>; 4],
    pub head: usize,
    /// Each leg's upper leg, lower leg and foot (`None`: that leg is not solved).
    pub legs: PerSide<Option<LegBones>>,
    /// Each foot's toes bone (a child of the foot; its joint is the ball of the foot), if the
    /// rig has one: measured for the kneeling foot, and bent flat on the floor in a kneel.
    pub toes: PerSide<Option<usize>>,
}

/// One frame's input (world).
#[derive(Clone, Copy)]
pub struct LowerBodyInput<'g> {
    /// The headset (a camera: it looks along its -Z); `None` while it is not tracked (the last
    /// tracked one is kept).
    pub headset: Option<Pose>,
    /// The avatar root: on the floor, turned by the body's yaw, +Z forward.
    pub root: Pose,
    /// The skeleton node (rigid).
    pub skeleton: Pose,
    pub floor_y: f32,
    /// World units per avatar metre.
    pub scale: f32,
    /// The XR origin (world): when the game moves it (thumbstick walking; a turn about the
    /// head is not walking) the legs blend toward the user's walk animation
    /// (`walk_animation_share`); `None` without one.
    pub origin: Option<Pose>,
    /// Where each hand must go (the wrist's target, world), for the arms given with
    /// [`LowerBody::with_arms`]: a target out of reach bends the body toward it
    /// (`reach_bend_max_deg`). `None`: that hand does not bend the body.
    pub hands: PerSide<Option<Vec3>>,
    /// The ground under the feet: steps and ramps found under each foot's place
    /// ([`ground::FlatFloor`]: the floor at `floor_y` everywhere).
    pub ground: &'g dyn ground::Ground,
}

impl LowerBodyInput<'static> {
    /// The headset over a body whose root and skeleton are at the world's origin, unscaled, on
    /// the flat floor at height 0, with no XR origin and no hand reaching.
    pub fn at_origin(headset: Pose) -> Self {
        Self {
            headset: Some(headset),
            root: Pose::IDENTITY,
            skeleton: Pose::IDENTITY,
            floor_y: 0.0,
            scale: 1.0,
            origin: None,
            hands: PerSide::new(None, None),
            ground: &ground::FlatFloor,
        }
    }
}

impl std::fmt::Debug for LowerBodyInput<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LowerBodyInput")
            .field("headset", &self.headset)
            .field("root", &self.root)
            .field("skeleton", &self.skeleton)
            .field("floor_y", &self.floor_y)
            .field("scale", &self.scale)
            .field("origin", &self.origin)
            .field("hands", &self.hands)
            .finish_non_exhaustive()
    }
}

/// Bit `i` set for each tree bone `i` of `bones` (a bone listed twice once; 32 and above have
/// no bit).
pub fn mask_of(bones: impl Iterator<Item = usize>) -> u32 {
    bones.filter(|&i| i < 32).fold(0, |m, i| m | (1 << i))
}

/// A foot that hangs from another bone than its lower leg, where the solve put it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LooseFoot {
    pub foot: usize,
    /// Its place relative to its own parent.
    pub local_position: Vec3,
    pub lower: usize,
    /// The ankle in the lower leg's space.
    pub ankle_in_lower: Vec3,
}

/// What a frame did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LowerBodyOutput {
    /// The hips bone (world), `None` before the first tracked headset.
    pub hips: Option<Pose>,
    /// How far the head bone is from where the headset puts it (world units; 0 when reached).
    pub head_miss: f32,
    /// Each foot this frame (world).
    pub feet: PerSide<Option<FootTarget>>,
    /// The walk animation's share of the legs this frame ([`walk_blend`]): the caller turns
    /// each leg bone's local rotation that far toward the animation's
    /// ([`walk_blend::blend_leg`]). 0 with `walk_animation_share` 0 (the default).
    pub walk_animation_share: f32,
}

/// The lower body of one avatar.
#[derive(Clone, Debug)]
pub struct LowerBody {
    pub settings: LowerBodySettings,
    bones: LowerBodyBones,
    /// The spine bones that are there, hips side first (from `bones`, once).
    spine: Vec<usize>,
    rest: LowerBodyRest,
    feet: feet::Feet,
    walk: walk_blend::WalkBlend,
    kneel: kneel::Kneel,
    knee_plant: knee_plant::KneePlant,
    seat: seat::Seat,
    /// Sitting guessed from the headset (`sit_from_headset`).
    sit_detect: sit_detect::SitDetect,
    /// Each foot's heel lift ([`heel`]).
    heel: PerSide<heel::HeelLift>,
    /// Each arm's upper arm (its joint is the shoulder) and reach (upper plus lower arm, tree
    /// units), for the reach bend; `None`: not given.
    arms: PerSide<Option<(usize, f32)>>,
    last_headset: Option<Pose>,
    /// Each upper leg that does not hang below the hips (found once, from the tree's shape).
    loose_thighs: PerSide<Option<usize>>,
}

/// Where the head bone must be for the headset at `headset` (world).
fn head_bone_at(headset: Pose, m: &rest::Measures) -> Vec3 {
    let head_turn = (headset.rotation * Quat::from_rotation_y(std::f32::consts::PI)).normalize();
    headset.position - head_turn * m.eyes_from_head
}

/// How far a head bone at `head_at` is below its standing height over a floor at `floor_y`
/// (world units).
fn head_drop(m: &rest::Measures, head_at: Vec3, floor_y: f32) -> f32 {
    m.pelvis.head_height - (head_at.y - floor_y)
}

impl LowerBody {
    /// The lower body of the avatar whose rest pose is `rest_tree` (skeleton space, the bones
    /// at `bones`); `eyes` is the rest pose's point between the eyes (skeleton space), if the
    /// rig has eyes.
    pub fn new(
        settings: LowerBodySettings,
        bones: LowerBodyBones,
        rest_tree: &PoseTree,
        eyes: Option<Vec3>,
    ) -> Self {
        let mut settings = settings;
        settings.validate();
        let below_hips =
            |bone: usize| hangs_below(bone, bones.hips, rest_tree.len(), |b| rest_tree.parent(b));
        let thigh = |leg: Option<LegBones>| {
            leg.map(|[upper, _, _]| upper)
                .filter(|&upper| !below_hips(upper))
        };
        Self {
            loose_thighs: PerSide::new(thigh(bones.legs.left), thigh(bones.legs.right)),
            settings,
            bones,
            spine: bones.spine.iter().flatten().copied().collect(),
            rest: LowerBodyRest::new(rest_tree.clone(), bones, eyes),
            feet: feet::Feet::default(),
            walk: walk_blend::WalkBlend::default(),
            kneel: kneel::Kneel::default(),
            knee_plant: knee_plant::KneePlant::default(),
            seat: seat::Seat::default(),
            sit_detect: sit_detect::SitDetect::default(),
            heel: PerSide::default(),
            arms: PerSide::new(None, None),
            last_headset: None,
        }
    }

    /// The same lower body with each leg's mesh vertices at rest (skeleton space: those its
    /// upper and lower leg bones move most): a knee on the floor rests on its own skin
    /// ([`leg_skin::knee_pad`]) rather than [`kneel::KNEE_PAD_M`].
    pub fn with_leg_skins(mut self, vertices: PerSide<Option<leg_skin::LegVertices>>) -> Self {
        self.rest.set_leg_skins(vertices);
        self
    }

    /// The same lower body with each arm's upper arm bone (its joint is the shoulder) and
    /// reach (upper plus lower arm, tree units): a hand whose target
    /// (`LowerBodyInput::hands`) is out of its arm's reach bends the body toward it.
    pub fn with_arms(mut self, arms: PerSide<Option<(usize, f32)>>) -> Self {
        let ok = |a: Option<(usize, f32)>| a.filter(|(_, r)| r.is_finite() && *r > 0.0);
        self.arms = PerSide::new(ok(arms.left), ok(arms.right));
        self
    }

    /// Where its bones are in the tree.
    pub fn bones(&self) -> LowerBodyBones {
        self.bones
    }

    /// The tree bones it writes (bit `i` for tree bone `i`): hips, spine, head, legs and toes.
    pub fn bones_mask(&self) -> u32 {
        let b = self.bones;
        let trunk = [b.hips, b.head]
            .into_iter()
            .chain(b.spine.into_iter().flatten());
        self.legs_mask() | mask_of(trunk)
    }

    /// The legs' tree bones (bit `i` for tree bone `i`): upper legs, lower legs, feet and toes,
    /// the bones the walk animation's share blends toward the animation.
    pub fn legs_mask(&self) -> u32 {
        let b = self.bones;
        let legs = b.legs.left.into_iter().chain(b.legs.right).flatten();
        let toes = [b.toes.left, b.toes.right].into_iter().flatten();
        mask_of(legs.chain(toes))
    }

    /// Each foot that hangs from another bone than its lower leg (a rig whose feet are not the
    /// shins' children), as `tree` poses it now: it must be moved with the shin, so its place is
    /// written too.
    pub fn loose_feet(&self, tree: &mut PoseTree) -> PerSide<Option<LooseFoot>> {
        let mut foot = |leg: Option<LegBones>| {
            let [_, lower, foot] = leg?;
            if tree.parent(foot) == Some(lower) {
                return None;
            }
            let ankle = tree.global(foot).position;
            Some(LooseFoot {
                foot,
                local_position: tree.local(foot).position,
                lower,
                ankle_in_lower: tree.global(lower).inverse().transform_point(ankle),
            })
        };
        let left = foot(self.bones.legs.left);
        PerSide::new(left, foot(self.bones.legs.right))
    }

    /// Each upper leg that does not hang below the hips (a game rig whose thighs hang from its
    /// floor-level root, beside the hips): its bone and its place in the hips' frame as `tree`
    /// poses them now. Such a thigh is carried with the hips, so its place is written too
    /// ([`Self::loose_thigh_bones`]).
    #[cold]
    fn thigh_places(&self, tree: &mut PoseTree) -> PerSide<Option<(usize, Vec3)>> {
        let loose = self.loose_thighs;
        let hips = tree.global(self.bones.hips).inverse();
        let mut place = |thigh: Option<usize>| {
            let thigh = thigh?;
            Some((thigh, hips.transform_point(tree.global(thigh).position)))
        };
        let left = place(loose.left);
        PerSide::new(left, place(loose.right))
    }

    /// The upper legs the lower body carries with the hips, which do not hang below them: their
    /// places (local positions) are written with their rotations.
    pub fn loose_thigh_bones(&self) -> PerSide<Option<usize>> {
        self.loose_thighs
    }

    /// How many of the spine's bones, hips side first, carry the shoulders: up to the one the
    /// arms hang from (the chest, not the neck); the whole spine without arms.
    fn shoulders_spine(&self, tree: &PoseTree) -> usize {
        let mut carried = 0;
        for (upper, _) in [self.arms.left, self.arms.right].into_iter().flatten() {
            let mut bone = tree.parent(upper);
            while let Some(i) = bone {
                if let Some(k) = self.spine.iter().position(|&s| s == i) {
                    carried = carried.max(k + 1);
                    break;
                }
                bone = tree.parent(i);
            }
        }
        if carried == 0 {
            self.spine.len()
        } else {
            carried
        }
    }

    /// Whether the body sits (or is sitting down): the game says so (`seated`), or, with
    /// `sit_from_headset`, the headset has been low and still ([`sit_detect`]).
    pub fn sitting(&self) -> bool {
        self.settings.seated || (self.settings.sit_from_headset && self.sit_detect.sitting())
    }

    /// Forgets the feet and the last headset (after a teleport or a new avatar).
    pub fn reset(&mut self) {
        self.feet.reset();
        self.walk.reset();
        self.kneel.reset();
        self.knee_plant.reset();
        self.seat.forget_place();
        self.sit_detect.forget_motion();
        self.heel = PerSide::default();
        self.last_headset = None;
    }

    /// How far the head bone is below its standing height (avatar metres; negative above it)
    /// with the headset at `headset`, the avatar root at `root` and the skeleton at `skeleton`
    /// (world), the floor at `floor_y`, `scale` world units per avatar metre: what
    /// [`crate::upper_body::upper_body_follow::UpperBodyFollow`] calls a low stance. 0 for unusable input.
    pub fn head_drop_m(
        &mut self,
        headset: Pose,
        root: Pose,
        skeleton: Pose,
        floor_y: f32,
        scale: f32,
    ) -> f32 {
        if !(headset.is_finite() && root.is_finite() && skeleton.is_finite() && floor_y.is_finite())
        {
            return 0.0;
        }
        let scale = if scale.is_finite() && scale > 0.0 {
            scale.clamp(0.01, 100.0)
        } else {
            1.0
        };
        let to_root = root.inverse().mul_pose(&skeleton);
        let m = std::sync::Arc::clone(self.rest.measures(&to_root));
        let drop = head_drop(&m, head_bone_at(headset, &m), floor_y) / scale;
        crate::maths::finite::f32_or(drop, 0.0)
    }

    /// Whether a frame with this input's `headset`, `root` and `skeleton` poses the legs (its
    /// output has hips): only after a tracked headset, and with a rigid root and skeleton.
    pub fn poses(&self, headset: Option<Pose>, root: Pose, skeleton: Pose) -> bool {
        self.stand_on(headset.and_then(Pose::rigid), root, skeleton)
            .is_some()
    }

    /// The headset (`tracked`, this frame's made rigid, else the last tracked one), root and
    /// skeleton a frame stands on, the last two made rigid (a finite position, a rotation
    /// that can be made unit).
    #[inline]
    fn stand_on(
        &self,
        tracked: Option<Pose>,
        root: Pose,
        skeleton: Pose,
    ) -> Option<(Pose, Pose, Pose)> {
        let headset = tracked.or(self.last_headset)?;
        Some((headset, root.rigid()?, skeleton.rigid()?))
    }

    /// One frame of `dt` seconds on `tree` (this frame's bones after the upper body's follow),
    /// written in place. Both legs: `side` changes nothing.
    pub fn update(
        &mut self,
        _side: Side,
        tree: &mut PoseTree,
        input: &LowerBodyInput,
        dt: f32,
    ) -> LowerBodyOutput {
        let tracked = input.headset.and_then(Pose::rigid);
        let stand = self.stand_on(tracked, input.root, input.skeleton);
        // The headset is kept once tracked, whether or not this frame stands.
        if tracked.is_some() {
            self.last_headset = tracked;
        }
        let Some((headset, root, skeleton)) = stand else {
            return LowerBodyOutput::default();
        };
        let s = self.settings;
        let b = self.bones;
        // A floor or scale that cannot be used: the root's height, the avatar's own size.
        let input = &LowerBodyInput {
            headset: Some(headset),
            root,
            skeleton,
            floor_y: crate::maths::finite::f32_or(input.floor_y, root.position.y),
            scale: if input.scale.is_finite() && input.scale > 0.0 {
                input.scale.clamp(0.01, 100.0)
            } else {
                1.0
            },
            origin: input.origin,
            hands: input.hands,
            ground: input.ground,
        };
        let to_root = input.root.inverse().mul_pose(&input.skeleton);
        let m = std::sync::Arc::clone(self.rest.measures(&to_root));
        let to_skeleton = input.skeleton.inverse();
        let facing = input.root.rotation;

        // Where the head bone must be, and how it turns: the headset's turn, facing +Z.
        let head_turn =
            (headset.rotation * Quat::from_rotation_y(std::f32::consts::PI)).normalize();
        let head_at = head_bone_at(headset, &m);
        let look = headset.rotation * Vec3::NEG_Z;
        let mut placed = place_hips(
            &s,
            &m.pelvis,
            &PelvisInput {
                head: head_at,
                head_pitch_down: (-look.y).clamp(-1.0, 1.0).asin(),
                facing,
                floor_y: input.floor_y,
                scale: input.scale,
                feet: self.feet.center(),
            },
        );
        // Seated: the hips on the seat under the upright torso, the pelvis upright.
        let was_fully_seated = self.seat.weight();
        let was_seated = was_fully_seated > 0.0;
        let upright = head_at + facing * m.pelvis.head_to_hips;
        // How far the head is below its standing height (world units), for the sitting guess,
        // the reach bend and the kneel.
        let drop = head_drop(&m, head_at, input.floor_y);
        if s.sit_from_headset {
            self.sit_detect.update(&sit_detect::SitDetectInput {
                head: head_at,
                drop,
                standing: m.pelvis.head_height,
                origin: input.origin,
                scale: input.scale,
                dt,
            });
        } else {
            self.sit_detect = sit_detect::SitDetect::default();
        }
        let on_seat = self.seat.update(&seat::SeatInput {
            seated: self.sitting(),
            blend_s: s.seat_blend_s,
            upright,
            forward: facing * Vec3::Z,
            origin: input.origin,
            scale: input.scale,
            dt,
        });
        let seated = self.seat.weight();
        // Seated, the hips and feet face the seat's way (a twist to reach turns the torso).
        let facing = self.seat.facing(facing);
        if let Some(on_seat) = on_seat.filter(|_| seated > 0.0) {
            placed.hips = placed.hips.lerp(on_seat, seated);
            placed.hips.y = pelvis::clamp_hips(
                placed.hips.y,
                pelvis::hips_heights(&s, &m.pelvis, input.floor_y),
            );
            placed.lean *= 1.0 - seated;
            placed.hinge *= 1.0 - seated;
        }
        if (seated > 0.0) != was_seated || (seated >= 1.0 && was_fully_seated < 1.0) {
            // Sitting down or standing up, and again once seated: the feet go to their new
            // places, one at a time.
            for side in Side::BOTH {
                self.feet.strain(side);
            }
        }
        // Bending over the feet is a hinge at the hips: the pelvis takes the whole lean, the
        // spine stays long.
        let hips_share = s.hips_lean_share + placed.hinge * (1.0 - s.hips_lean_share);
        let tilt = Quat::from_rotation_x(placed.lean * hips_share);
        // A levelled pelvis needs a spine to turn back above it (else the chest would turn too).
        let level = if self.spine.is_empty() {
            Quat::IDENTITY
        } else {
            m.hips_level
        };
        let hips_turn = (facing * tilt * level * m.hips_in_root).normalize();
        // Thighs that hang from a bone above the hips (a game rig's `Root`) are carried with
        // the hips, where this frame's pose has them in the hips' frame.
        let thighs =
            (self.loose_thighs != PerSide::new(None, None)).then(|| self.thigh_places(tree));
        tree.set_global(
            b.hips,
            to_skeleton.mul_pose(&Pose::new(placed.hips, hips_turn)),
        );
        if let Some(thighs) = thighs {
            carry_thighs(tree, b.hips, thighs);
        }
        // The pelvis levelled from a rest that was not (a combat stance): the spine above it
        // turns back, so the torso stands as at rest.
        if let Some(&first) = self.spine.first().filter(|_| level != Quat::IDENTITY) {
            let body = facing * tilt;
            let back = body * level.inverse() * body.inverse();
            let back = (to_skeleton.rotation * back * input.skeleton.rotation).normalize();
            let g = tree.global(first);
            tree.set_global(
                first,
                Pose::new(g.position, (back * g.rotation).normalize()),
            );
        }
        // Seated and twisted from the seat: the spine below the neck takes the twist back, an
        // even share a bone, so the chest (and the shoulders on it) still faces as the upper
        // body turned it.
        if facing != input.root.rotation {
            let below_neck = &self.spine[..self.shoulders_spine(tree)];
            let twist = input.root.rotation * facing.inverse();
            let twist = (to_skeleton.rotation * twist * skeleton.rotation).normalize();
            let share = Quat::IDENTITY.slerp(twist, 1.0 / below_neck.len().max(1) as f32);
            for &bone in below_neck {
                let g = tree.global(bone);
                tree.set_global(
                    bone,
                    Pose::new(g.position, (share * g.rotation).normalize()),
                );
            }
        }

        // The spine toward the head's place; the hips take up the rest, within their heights.

        let target = to_skeleton.transform_point(head_at);
        spine_bend::bend_toward(
            tree,
            &self.spine,
            b.head,
            target,
            s.max_lean_deg.to_radians(),
        );
        let head_now = input.skeleton.transform_point(tree.global(b.head).position);
        let mut hips = placed.hips + (head_at - head_now);
        hips.y = pelvis::clamp_hips(hips.y, pelvis::hips_heights(&s, &m.pelvis, input.floor_y));
        // Only moved, not turned: what the tree has worked out under the hips moves along.
        tree.move_by(b.hips, to_skeleton.rotation * (hips - placed.hips));
        if let Some(thighs) = thighs {
            carry_thighs(tree, b.hips, thighs);
        }
        // A hand out of reach below its shoulder: the torso turns about the head toward it.
        let head_pos = input.skeleton.transform_point(tree.global(b.head).position);
        let mut arm = |side: Side| {
            let (upper, reach) = (*self.arms.get(side))?;
            Some(reach_bend::ArmReach {
                shoulder: input.skeleton.transform_point(tree.global(upper).position),
                target: (*input.hands.get(side))?,
                reach,
            })
        };
        let arms = PerSide::new(arm(Side::Left), arm(Side::Right));
        // Only a body that has come down (reaching for the floor) turns: standing, a hand
        // hanging a little out of reach (an arm shorter than the player's) turns nothing.
        let low = (drop / (reach_bend::FULL_AT_DROP_M * input.scale)).clamp(0.0, 1.0);
        let (squat, _) = pelvis::hips_heights(&s, &m.pelvis, input.floor_y);
        let mut hips_turn = hips_turn;
        if let Some(q) = reach_bend::turn(
            head_pos,
            // The avatar's right (+Z forward, +Y up).
            facing * Vec3::NEG_X,
            Vec3::Y,
            &arms,
            reach_bend::BendLimits {
                max_turn: s.reach_bend_max_deg.to_radians() * low * (1.0 - seated),
                back_share: s.reach_bend_back_share,
                side: reach_bend::side_share(drop / input.scale, s.reach_bend_side_from_m),
                twist: s.reach_bend_twist_share,
            },
        ) {
            let q = reach_bend::keep_hips_over(q, head_pos, hips, input.floor_y, squat);
            let q = reach_bend::keep_leaning_forward(q, head_pos, hips, facing * Vec3::Z);
            // The spine above the pelvis turns the whole way; the pelvis only pitches (a lean
            // to the side bends the spine: the hip joints stay level over the feet). The hips go
            // where the first spine joint, carried by the pitched pelvis, lands where the whole
            // turn puts it: the spine turned there leaves the head where it is.
            let first_spine = self.spine.first().map(|&bone| (bone, tree.global(bone)));
            let (pitch, spine_at) = match first_spine {
                Some((_, g)) => (
                    reach_bend::pitch_of(q, facing * Vec3::NEG_X),
                    input.skeleton.transform_point(g.position),
                ),
                None => (q, hips),
            };
            hips = head_pos + q * (spine_at - head_pos) - pitch * (spine_at - hips);
            hips_turn = (pitch * hips_turn).normalize();
            tree.set_global(b.hips, to_skeleton.mul_pose(&Pose::new(hips, hips_turn)));
            if let Some(thighs) = thighs {
                carry_thighs(tree, b.hips, thighs);
            }
            if let Some((bone, before)) = first_spine {
                let turn = to_skeleton.rotation * q * input.skeleton.rotation;
                let now = tree.global(bone);
                tree.set_global(
                    bone,
                    Pose::new(now.position, (turn * before.rotation).normalize()),
                );
            }
        }
        let head_bone = tree.global(b.head);
        tree.set_global(
            b.head,
            Pose::new(
                head_bone.position,
                (to_skeleton.rotation * head_turn * m.head_in_root).normalize(),
            ),
        );

        // How far the body has come down (a walk's bob is not down): the stance opens, the feet
        // stand under the body's balance and the knees go out over wide feet.
        let came_down = pelvis::low_weight(pelvis::drop_share(drop, &m.pelvis, input.scale));
        // Where the feet belong: under the body, on a knee or ahead of a seat (`homes.rs`).
        let frame = homes::HomesFrame {
            measures: &m,
            facing,
            hips,
            head: head_at,
            over_feet: pelvis::over_feet(
                hips,
                head_pos,
                placed.hinge.max(came_down * (1.0 - seated)),
                s.bend_balance_share,
            ),
            head_drop_share: drop / m.pelvis.head_height,
            came_down,
            seated,
            skeleton: input.skeleton,
            floor_y: input.floor_y,
            scale: input.scale,
            dt,
        };
        let (kneeling, knee_floors) = self.kneel_or_not(tree, &frame);
        let homes = self.foot_homes(tree, &frame, kneeling);
        // While the game walks the player, the walk animation moves the legs: the procedural
        // feet go with the body, planted under it when the walk stops.
        let walk_animation_share =
            self.walk
                .update(&s, input.origin, headset.position, input.scale, dt);
        if walk_animation_share > 0.0 {
            self.feet.reset();
        }
        let on = ground::OnGround {
            ground: input.ground,
            floor_y: input.floor_y,
            from_y: hips.y,
            scale: input.scale,
        };
        let targets = self
            .feet
            .update(&s, homes, (input.scale, m.pelvis.hips_height), dt, &|p| {
                on.place(p)
            });
        // The hips no higher than the planted feet let the legs reach (`sink.rs`).
        let lift_max = s.max_heel_lift_m * input.scale;
        let (cap, leg_caps) = self.reach_feet(
            tree,
            &sink::Sink {
                measures: &m,
                targets,
                homes,
                hips_y: hips.y,
                lift_max,
                skeleton: input.skeleton,
                scale: input.scale,
                dt,
            },
        );
        let (lowest, _) = pelvis::hips_heights(&s, &m.pelvis, input.floor_y);
        if cap < hips.y && cap.is_finite() {
            hips.y = cap.max(lowest);
            tree.set_global(b.hips, to_skeleton.mul_pose(&Pose::new(hips, hips_turn)));
            if let Some(thighs) = thighs {
                carry_thighs(tree, b.hips, thighs);
            }
        }
        let head_miss = input
            .skeleton
            .transform_point(tree.global(b.head).position)
            .distance(head_at);

        let feet = self.solve_legs(
            tree,
            &legs_pass::LegsPass {
                measures: &m,
                targets,
                hips_y: hips.y,
                leg_caps,
                lift_max,
                knee_floors,
                skeleton: input.skeleton,
                scale: input.scale,
                dt,
                facing,
                low: came_down * (1.0 - seated),
            },
        );
        LowerBodyOutput {
            hips: Some(Pose::new(hips, hips_turn)),
            head_miss,
            feet,
            walk_animation_share,
        }
    }
}

impl crate::stage::StageSettings for LowerBodySettings {
    fn validate(&mut self) {
        Self::validate(self);
    }
}

impl crate::stage::BoneStage for LowerBody {
    type Settings = LowerBodySettings;
    type Input<'a> = LowerBodyInput<'a>;
    type Output = LowerBodyOutput;

    fn update(
        &mut self,
        side: Side,
        bones: &mut PoseTree,
        input: &Self::Input<'_>,
        dt: f32,
    ) -> Self::Output {
        Self::update(self, side, bones, input, dt)
    }
}

/// A plain humanoid's whole body for tests and benchmarks, facing +Z with the floor at 0: the
/// tree (0 hips at 0.95 m, 1 spine, 2 chest, 3 neck, 4 head at 1.6 m, then per side, left
/// first, upper leg, lower leg and foot 15 cm to the side, the ankle 6 cm over the floor), where the lower body's
/// bones are in it and the point between the eyes.
#[cfg(any(test, feature = "testing"))]
pub fn reference_lower_body() -> (PoseTree, LowerBodyBones, Vec3) {
    let mut parents = vec![None, Some(0), Some(1), Some(2), Some(3)];
    let at = |x: f32, y: f32| Pose::new(Vec3::new(x, y, 0.0), Quat::IDENTITY);
    let mut globals = vec![
        at(0.0, 0.95),
        at(0.0, 1.1),
        at(0.0, 1.3),
        at(0.0, 1.5),
        at(0.0, 1.6),
    ];
    let mut legs = [[0; 3]; 2];
    for side in Side::BOTH {
        let x = side.sign() * 0.15;
        let first = parents.len();
        parents.extend([Some(0), Some(first), Some(first + 1)]);
        globals.extend([at(x, 0.9), at(x, 0.48), at(x, 0.06)]);
        legs[side.index()] = [first, first + 1, first + 2];
    }
    let mut tree = PoseTree::new(&parents).expect("a valid tree");
    tree.set_globals(&globals);
    let bones = LowerBodyBones {
        hips: 0,
        spine: [Some(1), Some(2), Some(3), None],
        head: 4,
        legs: PerSide::new(Some(legs[0]), Some(legs[1])),
        toes: PerSide::new(None, None),
    };
    (tree, bones, Vec3::new(0.0, 1.65, 0.09))
}

#[cfg(test)]
mod seat_tests;
#[cfg(test)]
mod stance_tests;
#[cfg(test)]
mod tests;

/// Puts each of `thighs` (an upper leg that does not hang below the hips, and its place in the
/// hips' frame) where `hips` carries it, its rotation kept.
#[cold]
fn carry_thighs(tree: &mut PoseTree, hips: usize, thighs: PerSide<Option<(usize, Vec3)>>) {
    for (thigh, at) in [thighs.left, thighs.right].into_iter().flatten() {
        let carried = tree.global(hips).transform_point(at);
        let rotation = tree.global(thigh).rotation;
        tree.set_global(thigh, Pose::new(carried, rotation));
    }
}
