//! The body's middle step, in its one order: the chest, neck and head turned toward the headset
//! (as low as the lower body will put the body), then the hips, the spine's bend and the legs.
//! The core's body and the node graph's `LowerBodyRig` (which poses the spine as its
//! `UpperBodyFollow` sibling will, to stand the legs under it) both take it through
//! [`StandFrame::spine_then_lower_body`].

use glam::{Quat, Vec3};

use crate::lower_body::ground::Ground;
use crate::lower_body::{LowerBody, LowerBodyInput, LowerBodyOutput};
use crate::maths::body_frame::BodyFrame;
use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;
use crate::maths::side::{PerSide, Side};
use crate::upper_body::upper_body_follow::UpperBodyFollow;

/// The spine's part of the step: the follow, its chest, neck and head bones in the tree, and the
/// headset it turns them toward (world).
pub struct SpineStep<'a> {
    pub follow: &'a UpperBodyFollow,
    pub bones: [Option<usize>; 3],
    pub head: Pose,
}

/// Where the body stands this frame (world), built once a frame by whoever poses the body (the
/// core's [`crate::body::body_pipeline::BodyPipeline`], the node graph's `LowerBodyRig`): the
/// frame the spine-then-lower-body step measures in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StandFrame {
    /// The headset (a camera: it looks along its -Z); `None` while it is not tracked.
    pub headset: Option<Pose>,
    /// The avatar root: on the floor, turned by the body's yaw, +Z forward.
    pub root: Pose,
    /// The skeleton node (rigid).
    pub skeleton: Pose,
    pub floor_y: f32,
    /// World units per avatar metre.
    pub scale: f32,
    /// The XR origin, when the game moves one (the legs blend toward its walk animation).
    pub origin: Option<Pose>,
}

impl StandFrame {
    /// The frame of `body` (its root and scale) with the skeleton at `skeleton`, the floor at
    /// `floor_y` and no XR origin.
    pub fn of_body(body: &BodyFrame, skeleton: Pose, floor_y: f32, headset: Option<Pose>) -> Self {
        Self {
            headset,
            root: body.root(),
            skeleton,
            floor_y,
            scale: body.scale(),
            origin: None,
        }
    }

    /// Whether `lower`'s step on this frame poses the legs (see [`LowerBody::poses`]).
    #[inline]
    pub fn poses_legs(&self, lower: &LowerBody) -> bool {
        lower.poses(self.headset, self.root, self.skeleton)
    }

    /// The body's middle step in `tree`: the spine toward `spine`'s headset (if given), then
    /// the lower body (if given) with the hands reaching for `hands` (world; `None`: that hand
    /// does not bend the body), the feet on `ground`. Returns the spine's bones and the local
    /// rotations written to them, and the lower body's output.
    #[inline]
    pub fn spine_then_lower_body(
        &self,
        tree: &mut PoseTree,
        spine: Option<SpineStep<'_>>,
        lower: Option<&mut LowerBody>,
        hands: PerSide<Option<Vec3>>,
        dt: f32,
        ground: &dyn Ground,
    ) -> ([Option<(usize, Quat)>; 3], Option<LowerBodyOutput>) {
        let input = LowerBodyInput {
            headset: self.headset,
            root: self.root,
            skeleton: self.skeleton,
            floor_y: self.floor_y,
            scale: self.scale,
            origin: self.origin,
            hands,
            ground,
        };
        spine_then_lower_body(tree, spine, lower, &input, dt)
    }
}

/// [`StandFrame::spine_then_lower_body`] on a lower body's whole `input`.
#[inline]
fn spine_then_lower_body(
    tree: &mut PoseTree,
    spine: Option<SpineStep<'_>>,
    mut lower: Option<&mut LowerBody>,
    input: &LowerBodyInput,
    dt: f32,
) -> ([Option<(usize, Quat)>; 3], Option<LowerBodyOutput>) {
    let mut written = [None; 3];
    if let Some(s) = spine {
        let to_skeleton = input.skeleton.rotation.inverse();
        // A low stance only where the lower body puts the body low.
        let drop = lower.as_deref_mut().map_or(0.0, |lb| {
            lb.head_drop_m(
                s.head,
                input.root,
                input.skeleton,
                input.floor_y,
                input.scale,
            )
        });
        written = s.follow.follow_bones(
            tree,
            s.bones,
            to_skeleton * input.root.rotation,
            to_skeleton * s.head.rotation,
            drop,
        );
        for (bone, local) in written.into_iter().flatten() {
            tree.set_local_rotation(bone, local);
        }
    }
    let out = lower.map(|lb| lb.update(Side::Left, tree, input, dt));
    (written, out)
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::lower_body::{LowerBodySettings, reference_lower_body};
    use crate::upper_body::upper_body_follow::UpperBodyFollowSettings;

    fn input(head: Pose) -> LowerBodyInput<'static> {
        LowerBodyInput::at_origin(head)
    }

    /// The head turned to the side: the spine turns toward it, and then the lower body stands
    /// the hips under the turned head; without the spine part nothing of the spine is written.
    #[test]
    fn the_spine_turns_first_then_the_legs_stand_under_it() {
        let (mut tree, bones, eyes) = reference_lower_body();
        let mut lower = LowerBody::new(LowerBodySettings::default(), bones, &tree, Some(eyes));
        let follow = UpperBodyFollow::new(UpperBodyFollowSettings::default());
        let spine = [Some(2), Some(3), Some(4)];
        let head = Pose::new(
            Vec3::new(0.0, 1.7, 0.1),
            Quat::from_rotation_y(0.6) * Quat::from_rotation_y(std::f32::consts::PI),
        );
        let step = SpineStep {
            follow: &follow,
            bones: spine,
            head,
        };
        let (written, out) =
            spine_then_lower_body(&mut tree, Some(step), Some(&mut lower), &input(head), 0.01);
        assert!(written.iter().flatten().count() >= 2, "{written:?}");
        for (bone, local) in written.into_iter().flatten() {
            assert!(tree.local(bone).rotation.angle_between(local) < 1e-4);
        }
        assert!(out.and_then(|o| o.hips).is_some(), "{out:?}");
        let (mut tree2, _, _) = reference_lower_body();
        let (none, out2) = spine_then_lower_body(&mut tree2, None, None, &input(head), 0.01);
        assert_eq!(none, [None; 3]);
        assert!(out2.is_none());
    }
}
