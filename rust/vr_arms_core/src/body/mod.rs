//! The whole body, composed once: every step from the tracked points to the written bones.
//!
//! [`Body`] is what every entry point runs: `VRRemoteBody` (the engine), the motion-capture
//! evaluation (both of its modes), the benchmark and the fuzzer. Its steps, in order:
//!
//! 1. [`Body::place_root`] (the engine runs it in `_process`): the head and controllers checked
//!    ([`InputGuard`]: non-finite or absurdly far counts as not tracked), then [`BodyFollow`]:
//!    the avatar root on the floor under the head, turned by the body's yaw.
//! 2. [`Body::pose_bones`] (the engine runs it as the skeleton's modification): the inputs
//!    checked again (a script may move them in between), then [`BodyPipeline`], every
//!    bone-writing stage in the order [`crate::body::body_pipeline`] gives (the one place it is
//!    written).
//!
//! [`Body::update`] runs both, the second from where the first put the root.
//!
//! Coordinates: every pose is in one world frame whose lengths are the skeleton's units
//! ([`Placement::scale`] converts the avatar's metres, in which the settings are written, into
//! them).

pub mod body_follow;
pub mod body_pipeline;
pub mod input_guard;
pub mod profile;
pub mod spine_and_legs;
pub mod tracking_trace;
pub mod walk_heading;

use glam::Vec3;

use crate::body::body_follow::{BodyFollow, BodyFollowInput, BodyFollowSettings};
use crate::body::body_pipeline::{BodyInput, BodyOutput, BodyPipeline, HandInput};
use crate::body::input_guard::{InputCounts, InputGuard};
use crate::lower_body::ground::Ground;
use crate::maths::body_frame::BodyFrame;
use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;
use crate::maths::side::PerSide;

/// One frame of the tracked points and the hands' inputs, as the tracking reports them (not
/// checked yet). `None`: not tracked.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tracking {
    /// The headset (a camera: it looks along its -Z).
    pub head: Option<Pose>,
    pub controllers: PerSide<Option<Pose>>,
    /// Interaction override targets (where an interaction wants each hand), used while that
    /// arm's router has its override set.
    pub overrides: PerSide<Option<Pose>>,
    pub hands: PerSide<HandInput>,
}

/// Where the avatar stands this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// The avatar root (rigid; its +Z is the character's forward).
    pub root: Pose,
    /// World units per avatar metre (the root's scale against the skeleton's units; 1 for an
    /// unscaled avatar in metres).
    pub scale: f32,
    /// The skeleton node relative to the root (rigid, world units).
    pub skeleton_in_root: Pose,
    /// The floor's height (the XR origin's).
    pub floor_y: f32,
    /// World up.
    pub up: Vec3,
    /// Where the world's origin is in these coordinates, and how many of their units make a
    /// world metre: the input checks' limit (1 km from the origin) is the world's whatever frame
    /// the poses are given in (the engine gives them in the skeleton's, without its scale).
    pub world_origin: Vec3,
    pub units_per_world_metre: f32,
}

impl Default for Placement {
    fn default() -> Self {
        Self {
            root: Pose::IDENTITY,
            scale: 1.0,
            skeleton_in_root: Pose::IDENTITY,
            floor_y: 0.0,
            up: Vec3::Y,
            world_origin: Vec3::ZERO,
            units_per_world_metre: 1.0,
        }
    }
}

impl Placement {
    /// The skeleton node's world pose.
    pub fn skeleton(&self) -> Pose {
        self.root.mul_pose(&self.skeleton_in_root)
    }
}

/// The three tracked points checked by one set of guards: head, left, right.
#[derive(Clone, Copy, Debug, Default)]
struct Guards([InputGuard; 3]);

impl Guards {
    fn check(&mut self, t: &Tracking, at: &Placement) -> Tracking {
        let [h, l, r] = &mut self.0;
        let (origin, units) = (at.world_origin, at.units_per_world_metre);
        Tracking {
            head: t.head.and_then(|p| h.check_in(&p, origin, units)),
            controllers: PerSide::new(
                t.controllers
                    .left
                    .and_then(|p| l.check_in(&p, origin, units)),
                t.controllers
                    .right
                    .and_then(|p| r.check_in(&p, origin, units)),
            ),
            overrides: t.overrides,
            hands: t.hands,
        }
    }

    fn counts(&self) -> InputCounts {
        self.0
            .iter()
            .fold(InputCounts::default(), |a, g| a + g.counts)
    }
}

/// Step 1, the root under the head: what `BodyFollow` (the node graph) and [`Body`] run.
#[derive(Clone, Debug)]
pub struct FollowStep {
    /// The stage; its settings are in the avatar's metres.
    pub stage: BodyFollow,
    /// Whether [`FollowStep::place_root`] moves the root (off: it stays where the caller has it).
    pub follow_head: bool,
    guards: Guards,
    head_tracked: bool,
}

impl FollowStep {
    pub fn new(settings: BodyFollowSettings) -> Self {
        Self {
            stage: BodyFollow::new(settings),
            follow_head: true,
            guards: Guards::default(),
            head_tracked: true,
        }
    }

    /// The root's new pose under the head, or `None` (the follow is off, or the headset is not
    /// tracked or its pose is unusable: the root stays).
    pub fn place_root(
        &mut self,
        tracking: &Tracking,
        placement: &Placement,
        dt: f32,
    ) -> Option<Pose> {
        let t = self.guards.check(tracking, placement);
        self.head_tracked = t.head.is_some();
        if !self.follow_head {
            return None;
        }
        let head = t.head?;
        let settings = self.stage.settings;
        self.stage.settings = settings.in_avatar_units(placement.scale);
        let out = self.stage.update(
            crate::maths::side::Side::Left,
            &BodyFollowInput {
                head,
                left_hand: t.controllers.left.map(|p| p.position),
                right_hand: t.controllers.right.map(|p| p.position),
                left_grip: t.controllers.left.map(|p| p.rotation),
                right_grip: t.controllers.right.map(|p| p.rotation),
                floor_y: placement.floor_y,
            },
            dt,
        );
        self.stage.settings = settings;
        Some(out.root)
    }

    /// Whether the last [`FollowStep::place_root`] had a usable headset pose.
    pub fn head_tracked(&self) -> bool {
        self.head_tracked
    }

    /// Forgets the spring (a teleport, a respawn): the next frame starts settled.
    pub fn reset(&mut self) {
        self.stage = BodyFollow::new(self.stage.settings);
    }

    /// Inputs this step rejected or repaired so far.
    pub fn input_counts(&self) -> InputCounts {
        self.guards.counts()
    }

    /// The headset's poses this step rejected or repaired so far.
    pub fn head_input_counts(&self) -> InputCounts {
        self.guards.0[0].counts
    }
}

/// The whole body of one avatar.
#[derive(Clone, Debug)]
pub struct Body {
    /// Step 1: the root under the head.
    pub follow: FollowStep,
    /// Step 2: every bone-writing stage.
    pub pipeline: BodyPipeline,
    pose_guards: Guards,
}

impl Body {
    pub fn new(pipeline: BodyPipeline, follow: BodyFollowSettings) -> Self {
        Self {
            follow: FollowStep::new(follow),
            pipeline,
            pose_guards: Guards::default(),
        }
    }

    /// Step 1: the root's new pose under the head (see [`FollowStep::place_root`]).
    pub fn place_root(
        &mut self,
        tracking: &Tracking,
        placement: &Placement,
        dt: f32,
    ) -> Option<Pose> {
        self.follow.place_root(tracking, placement, dt)
    }

    /// Step 2: every bone, on `tree` (this frame's bones as they came in, skeleton space); the
    /// feet on `ground`, steps and ramps under each foot's place
    /// ([`crate::lower_body::ground::FlatFloor`]: the flat floor at `placement.floor_y`).
    pub fn pose_bones(
        &mut self,
        tracking: &Tracking,
        placement: &Placement,
        tree: &mut PoseTree,
        dt: f32,
        ground: &dyn Ground,
    ) -> BodyOutput {
        let t = self.pose_guards.check(tracking, placement);
        let input = BodyInput {
            body: BodyFrame::scaled(placement.root, placement.scale),
            skeleton: placement.skeleton(),
            up: placement.up,
            head: t.head,
            controllers: t.controllers,
            overrides: t.overrides,
            hands: t.hands,
            floor_y: placement.floor_y,
        };
        self.pipeline.update(&input, tree, dt, ground)
    }

    /// Both steps: the root placed (written into `placement`), then every bone, the feet on
    /// `ground`.
    pub fn update(
        &mut self,
        tracking: &Tracking,
        placement: &mut Placement,
        tree: &mut PoseTree,
        dt: f32,
        ground: &dyn Ground,
    ) -> BodyOutput {
        if let Some(root) = self.place_root(tracking, placement, dt) {
            placement.root = root;
        }
        self.pose_bones(tracking, placement, tree, dt, ground)
    }

    /// Inputs rejected or repaired so far by either step's checks.
    pub fn input_counts(&self) -> InputCounts {
        self.follow.input_counts() + self.pose_guards.counts()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::profile::ArmProfile;
    use crate::lower_body::ground::FlatFloor;
    use crate::testing::reference_body::{reference_body, reference_pipeline};
    use glam::Quat;

    fn body() -> Body {
        let profile = ArmProfile::default();
        Body::new(reference_pipeline(&profile), profile.body_follow)
    }

    /// A headset at `at` looking along +Z (a camera looks along its -Z), a left controller ahead.
    fn tracking(at: Vec3) -> Tracking {
        Tracking {
            head: Some(Pose::new(at, Quat::from_rotation_y(std::f32::consts::PI))),
            controllers: PerSide::new(
                Some(Pose::new(
                    at + Vec3::new(0.25, -0.45, 0.35),
                    Quat::from_rotation_x(-1.2),
                )),
                None,
            ),
            ..Default::default()
        }
    }

    #[test]
    fn the_root_stands_on_the_floor_under_the_head_and_the_hand_reaches_the_controller() {
        let mut b = body();
        let mut placement = Placement {
            floor_y: 0.25,
            ..Default::default()
        };
        let t = tracking(Vec3::new(2.0, 1.85, -1.0));
        let mut out = None;
        for _ in 0..60 {
            let (mut tree, _) = reference_body();
            out = Some((
                b.update(&t, &mut placement, &mut tree, 1.0 / 90.0, &FlatFloor),
                tree,
            ));
        }
        let (out, mut tree) = out.unwrap();
        let root = placement.root.position;
        assert!((root.y - 0.25).abs() < 1e-6, "on the floor: {root}");
        let flat = Vec3::new(root.x - 2.0, 0.0, root.z + 1.0).length();
        let back = b.follow.stage.settings.head_back_offset_m;
        assert!((flat - back.abs()).abs() < 1e-3, "under the head: {flat}");
        let target = out.targets.left.unwrap().target.position;
        let hand = placement
            .skeleton()
            .transform_point(tree.global(6).position);
        assert!(hand.distance(target) < 1e-3, "{hand} vs {target}");
    }

    /// Ground 20 cm over the floor where x > 0 (the avatar's left, facing +Z), none elsewhere.
    struct Crate;

    impl Ground for Crate {
        fn height_at(&self, at: Vec3, _lowest: f32) -> Option<f32> {
            (at.x > 0.0).then_some(0.2)
        }
    }

    #[test]
    fn the_whole_body_stands_a_foot_on_the_ground_it_is_given() {
        let profile = ArmProfile::default();
        let (_, _, lower, _) = crate::testing::reference_body::reference_whole_body();
        let [Some(left), Some(right)] = [lower.legs.left, lower.legs.right] else {
            panic!("both legs");
        };
        let mut ankles = Vec::new();
        for on_crate in [false, true] {
            let mut b = Body::new(
                crate::testing::reference_body::reference_whole_pipeline(&profile),
                profile.body_follow,
            );
            let mut placement = Placement::default();
            let (rest, ..) = crate::testing::reference_body::reference_whole_body();
            let eyes = crate::testing::reference_body::reference_whole_body().3;
            let t = tracking(eyes);
            let mut tree = rest.clone();
            for _ in 0..90 {
                tree = rest.clone();
                if let Some(root) = b.place_root(&t, &placement, 1.0 / 90.0) {
                    placement.root = root;
                }
                if on_crate {
                    b.pose_bones(&t, &placement, &mut tree, 1.0 / 90.0, &Crate);
                } else {
                    b.pose_bones(&t, &placement, &mut tree, 1.0 / 90.0, &FlatFloor);
                }
            }
            let s = placement.skeleton();
            let mut at = |bone: usize| s.transform_point(tree.global(bone).position).y;
            ankles.push([at(left[2]), at(right[2])]);
        }
        let rest_ankle = ankles[0][1];
        assert!(
            (ankles[0][0] - rest_ankle).abs() < 1e-3,
            "the flat floor: {ankles:?}"
        );
        assert!(
            (ankles[1][0] - rest_ankle - 0.2).abs() < 0.01,
            "the left ankle on the crate: {ankles:?}"
        );
        assert!(
            (ankles[1][1] - rest_ankle).abs() < 0.01,
            "the right on the floor: {ankles:?}"
        );
    }

    /// The reference whole body (default profile) with the reach bend at most `max_deg`.
    fn whole_body_reaching(max_deg: f32) -> Body {
        let profile = ArmProfile::default();
        let mut b = Body::new(
            crate::testing::reference_body::reference_whole_pipeline(&profile),
            profile.body_follow,
        );
        let lb = b.pipeline.lower_body.as_mut().expect("a lower body");
        lb.settings.reach_bend_max_deg = max_deg;
        b
    }

    /// `b` after two seconds of the eyes at `eyes` looking `down_deg` down (facing +Z) and the
    /// left controller at `hand` (the right one lost): the last output, tree and placement.
    fn held_reaching_left(
        b: &mut Body,
        eyes: Vec3,
        down_deg: f32,
        hand: Vec3,
    ) -> (BodyOutput, PoseTree, Placement) {
        let look_down = Quat::from_rotation_y(std::f32::consts::PI)
            * Quat::from_rotation_x(-down_deg.to_radians());
        let t = Tracking {
            head: Some(Pose::new(eyes, look_down)),
            controllers: PerSide::new(Some(Pose::new(hand, Quat::from_rotation_x(-1.2))), None),
            ..Default::default()
        };
        let (rest, ..) = crate::testing::reference_body::reference_whole_body();
        let mut placement = Placement::default();
        let mut last = None;
        for _ in 0..180 {
            let mut tree = rest.clone();
            let out = b.update(&t, &mut placement, &mut tree, 1.0 / 90.0, &FlatFloor);
            last = Some((out, tree));
        }
        let (out, tree) = last.expect("frames");
        (out, tree, placement)
    }

    /// Picking something off the floor: crouched, the eyes 0.8 m up looking down, the left
    /// controller 30 cm over the floor ahead. The torso turns about the head (which stays on
    /// the headset) until the hand is on its target, the hips no lower than they go; with the
    /// reach bend off, the shoulders stay where the head puts them and the hand stops short.
    #[test]
    fn a_hand_reaching_for_the_floor_bends_the_body_down_to_it() {
        use crate::lower_body::LowerBodySettings;
        let (_, bones, ..) = crate::testing::reference_body::reference_whole_body();
        let [_, _, _, hand] = bones.arms.left;
        let mut seen = Vec::new();
        for max_deg in [30.0, 0.0] {
            let mut b = whole_body_reaching(max_deg);
            let (out, mut tree, placement) = held_reaching_left(
                &mut b,
                Vec3::new(0.0, 0.8, 0.35),
                60.0,
                Vec3::new(0.2, 0.3, 0.5),
            );
            let s = placement.skeleton();
            let target = out.targets.left.expect("a target").target.position;
            let miss = s
                .transform_point(tree.global(hand).position)
                .distance(target);
            let head_miss = out.lower.head_miss;
            let hips = out.lower.hips.expect("hips").position.y;
            let lowest = 0.95
                * LowerBodySettings::default().min_hips_height_share
                * crate::lower_body::reach_bend::HIPS_SHARE_OF_SQUAT;
            assert!(
                hips >= lowest - 1e-4,
                "the hips no lower than they go: {hips}"
            );
            seen.push((miss, head_miss));
        }
        let [(bent, bent_head), (plain, _)] = [seen[0], seen[1]];
        assert!(
            plain > 0.02,
            "without the bend the hand stops short: {plain}"
        );
        assert!(bent < 0.002, "bent, the hand on its target: {bent}");
        assert!(bent_head < 0.01, "the head on the headset: {bent_head}");
    }

    /// Well down, reaching for the floor out to the left of the left foot: the torso leans to
    /// that side (the left shoulder comes down below the right), the spine taking the lean, so
    /// the pelvis stays level over the feet (the hip joints at one height), and the head stays
    /// on the headset.
    #[test]
    fn reaching_for_the_floor_to_the_side_leans_the_spine_not_the_pelvis() {
        let (_, bones, lower, _) = crate::testing::reference_body::reference_whole_body();
        let mut b = whole_body_reaching(30.0);
        // Squatting (a kneel's thigh holds the hips and leans nothing to the side).
        b.pipeline
            .lower_body
            .as_mut()
            .expect("a lower body")
            .settings
            .kneel = false;
        let (out, mut tree, placement) = held_reaching_left(
            &mut b,
            Vec3::new(0.0, 0.85, 0.3),
            50.0,
            Vec3::new(0.45, 0.12, 0.4),
        );
        let s = placement.skeleton();
        let at = |tree: &mut PoseTree, i: usize| s.transform_point(tree.global(i).position);
        let hip = |side: crate::maths::side::Side| lower.legs.get(side).expect("a leg")[0];
        let level = at(&mut tree, hip(crate::maths::side::Side::Left)).y
            - at(&mut tree, hip(crate::maths::side::Side::Right)).y;
        let shoulders = at(&mut tree, bones.arms.left[1]).y - at(&mut tree, bones.arms.right[1]).y;
        // Without the lean 6.9 cm (the body follow's roll toward the hand).
        assert!(shoulders < -0.1, "the left shoulder lower: {shoulders}");
        assert!(level.abs() < 0.01, "the pelvis level: {level}");
        let head = out.lower.head_miss;
        assert!(head < 0.002, "the head on the headset: {head}");
    }

    /// Crouched 40 cm with both controllers held straight ahead at chest height, out of the
    /// arms' reach (a player's arms longer than the avatar's): the torso does not lean back to
    /// bring the shoulders forward, the hips stay behind the head (on a Ready Player Me avatar
    /// they went 17.6 cm ahead of it, the torso 24 degrees back).
    #[test]
    fn crouched_reaching_ahead_out_of_reach_keeps_the_hips_behind_the_head() {
        let (rest, _, _, eyes) = crate::testing::reference_body::reference_whole_body();
        let mut b = whole_body_reaching(30.0);
        let at = eyes - Vec3::Y * 0.4;
        let ahead = |x: f32| {
            Some(Pose::new(
                Vec3::new(x, at.y - 0.3, at.z + 0.8),
                Quat::IDENTITY,
            ))
        };
        let t = Tracking {
            head: Some(Pose::new(at, Quat::from_rotation_y(std::f32::consts::PI))),
            controllers: PerSide::new(ahead(0.2), ahead(-0.2)),
            ..Default::default()
        };
        let mut placement = Placement::default();
        let mut out = None;
        for _ in 0..180 {
            let mut tree = rest.clone();
            out = Some(b.update(&t, &mut placement, &mut tree, 1.0 / 90.0, &FlatFloor));
        }
        let hips = out.unwrap().lower.hips.expect("hips").position;
        assert!(hips.z < at.z - 0.02, "the hips {hips} behind the head {at}");
    }

    /// Standing, a hand hanging a little out of reach (an avatar's arm shorter than the
    /// player's) does not tilt the body: the bones are those of the body without the reach bend.
    #[test]
    fn standing_a_hand_just_out_of_reach_bends_nothing() {
        let (_, _, _, eyes) = crate::testing::reference_body::reference_whole_body();
        let mut trees = Vec::new();
        for max_deg in [30.0, 0.0] {
            let mut b = whole_body_reaching(max_deg);
            let t = Tracking {
                head: Some(Pose::new(eyes, Quat::from_rotation_y(std::f32::consts::PI))),
                // Down and a little ahead of the left shoulder, past the arm's reach.
                controllers: PerSide::new(
                    Some(Pose::new(Vec3::new(0.2, 0.45, 0.15), Quat::IDENTITY)),
                    None,
                ),
                ..Default::default()
            };
            let (rest, ..) = crate::testing::reference_body::reference_whole_body();
            let mut placement = Placement::default();
            let mut tree = rest.clone();
            for _ in 0..90 {
                tree = rest.clone();
                b.update(&t, &mut placement, &mut tree, 1.0 / 90.0, &FlatFloor);
            }
            trees.push(tree);
        }
        let [mut bent, mut plain] = [trees[0].clone(), trees[1].clone()];
        for i in 0..bent.len() {
            let d = bent.global(i).position.distance(plain.global(i).position);
            assert!(d < 1e-5, "bone {i} moved {d}");
        }
    }

    #[test]
    fn a_non_finite_or_far_controller_counts_as_lost_in_both_steps() {
        let mut b = body();
        let mut placement = Placement::default();
        let mut t = tracking(Vec3::new(0.0, 1.7, 0.0));
        let (mut tree, _) = reference_body();
        b.update(&t, &mut placement, &mut tree, 1.0 / 90.0, &FlatFloor);
        assert_eq!(b.input_counts().total(), 0);
        t.controllers.left = Some(Pose::from_position(Vec3::new(f32::NAN, 0.0, 0.0)));
        t.head = Some(Pose::from_position(Vec3::splat(5000.0)));
        let before = placement.root;
        let (mut tree, _) = reference_body();
        let out = b.update(&t, &mut placement, &mut tree, 1.0 / 90.0, &FlatFloor);
        let c = b.input_counts();
        assert_eq!((c.non_finite, c.too_far), (2, 2), "{c:?}");
        assert_eq!(placement.root, before, "a far head does not move the root");
        assert!(out.targets.left.unwrap().target.position.is_finite());
    }

    #[test]
    fn without_follow_the_root_stays_where_the_caller_put_it() {
        let mut b = body();
        b.follow.follow_head = false;
        let start = Pose::from_position(Vec3::new(1.0, 0.0, 1.0));
        let mut placement = Placement {
            root: start,
            ..Default::default()
        };
        let (mut tree, _) = reference_body();
        b.update(
            &tracking(Vec3::new(0.0, 1.7, 0.0)),
            &mut placement,
            &mut tree,
            0.1,
            &FlatFloor,
        );
        assert_eq!(placement.root, start);
    }

    #[test]
    fn a_scaled_avatar_stands_its_scaled_offset_behind_the_head() {
        let (mut a, mut b) = (body(), body());
        let (mut pa, mut pb) = (
            Placement::default(),
            Placement {
                scale: 2.0,
                ..Default::default()
            },
        );
        let t = tracking(Vec3::new(0.0, 1.7, 0.0));
        let (mut ta, _) = reference_body();
        let (mut tb, _) = reference_body();
        a.update(&t, &mut pa, &mut ta, 0.1, &FlatFloor);
        b.update(&t, &mut pb, &mut tb, 0.1, &FlatFloor);
        let head = Vec3::new(0.0, 0.0, 0.0);
        let da = Vec3::new(pa.root.position.x, 0.0, pa.root.position.z).distance(head);
        let db = Vec3::new(pb.root.position.x, 0.0, pb.root.position.z).distance(head);
        assert!(da > 1e-3, "{da}");
        assert!((db - 2.0 * da).abs() < 1e-5, "{da} {db}");
    }

    #[test]
    fn the_follow_step_reports_the_headset_and_starts_afresh_on_reset() {
        let mut step = FollowStep::new(BodyFollowSettings::default());
        let placement = Placement::default();
        let ahead = tracking(Vec3::new(0.0, 1.7, 0.0));
        assert!(step.place_root(&ahead, &placement, 0.1).is_some());
        assert!(step.head_tracked());
        let mut lost = ahead;
        lost.head = Some(Pose::from_position(Vec3::splat(f32::NAN)));
        lost.controllers.left = Some(Pose::from_position(Vec3::splat(f32::NAN)));
        assert!(step.place_root(&lost, &placement, 0.1).is_none());
        assert!(!step.head_tracked());
        // Only the headset's rejection counts as the head's.
        assert_eq!(step.head_input_counts().non_finite, 1);
        assert_eq!(step.input_counts().non_finite, 2);
        // Turned far: the spring lags; after a reset it starts settled on the new yaw.
        let mut turned = ahead;
        turned.head = ahead
            .head
            .map(|h| Pose::new(h.position, Quat::from_rotation_y(2.0) * h.rotation));
        let lagging = step.place_root(&turned, &placement, 0.01).unwrap();
        step.reset();
        let settled = step.place_root(&turned, &placement, 0.01).unwrap();
        assert!(
            lagging.rotation.angle_between(settled.rotation) > 0.5,
            "{lagging:?} vs {settled:?}"
        );
    }
}
