//! The body's middle step, in its one order: the chest, neck and head turned toward the headset
//! (as low as the lower body will put the body), then the hips, the spine's bend and the legs.
//! The core's body and the node graph's `LowerBodyRig` (which poses the spine as its
//! `UpperBodyFollow` sibling will, to stand the legs under it) both take it through
//! [`spine_then_lower_body`].

use glam::Quat;

use crate::lower_body::ground::Ground;
use crate::lower_body::{LowerBody, LowerBodyInput, LowerBodyOutput};
use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;
use crate::upper_body::upper_body_follow::UpperBodyFollow;

/// The spine's part of the step: the follow, its chest, neck and head bones in the tree, and the
/// headset it turns them toward (world).
pub struct SpineStep<'a> {
    pub follow: &'a UpperBodyFollow,
    pub bones: [Option<usize>; 3],
    pub head: Pose,
}

/// The spine toward `spine`'s headset (if given), then the lower body (if given) on `input`,
/// in `tree`. Returns the spine's bones and the local rotations written to them, and the lower
/// body's output.
pub fn spine_then_lower_body(
    tree: &mut PoseTree,
    spine: Option<SpineStep<'_>>,
    mut lower: Option<&mut LowerBody>,
    input: &LowerBodyInput,
    dt: f32,
    ground: &mut dyn Ground,
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
        written = s.follow.solve_on(
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
    let out = lower.map(|lb| lb.update_on(tree, input, dt, ground));
    (written, out)
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::lower_body::ground::FlatFloor;
    use crate::lower_body::{LowerBodySettings, reference_lower_body};
    use crate::upper_body::upper_body_follow::UpperBodyFollowSettings;

    fn input(head: Pose) -> LowerBodyInput {
        LowerBodyInput {
            headset: Some(head),
            root: Pose::IDENTITY,
            skeleton: Pose::IDENTITY,
            floor_y: 0.0,
            scale: 1.0,
            origin: None,
            hands: Default::default(),
        }
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
        let (written, out) = spine_then_lower_body(
            &mut tree,
            Some(step),
            Some(&mut lower),
            &input(head),
            0.01,
            &mut FlatFloor,
        );
        assert!(written.iter().flatten().count() >= 2, "{written:?}");
        for (bone, local) in written.into_iter().flatten() {
            assert!(tree.local(bone).rotation.angle_between(local) < 1e-4);
        }
        assert!(out.and_then(|o| o.hips).is_some(), "{out:?}");
        let (mut tree2, _, _) = reference_lower_body();
        let (none, out2) =
            spine_then_lower_body(&mut tree2, None, None, &input(head), 0.01, &mut FlatFloor);
        assert_eq!(none, [None; 3]);
        assert!(out2.is_none());
    }
}
