//! The reference humanoid's arms through the body's own arm steps, for the core's scenario
//! tests, the sweep and the fuzzing: the one composition ([`Body`]) with its follow, spine,
//! clavicle, twist and finger steps off, the root where the caller puts it, and every frame
//! starting from the rest pose (as the engine restores it).

use crate::arms::arm_steps::ArmOutput;
use crate::body::body_pipeline::Steps;
use crate::body::profile::ArmProfile;
use crate::body::{Body, Placement, Tracking};
use crate::lower_body::ground::FlatFloor;
use crate::maths::pose::Pose;
use crate::maths::pose_tree::PoseTree;
use crate::maths::side::PerSide;
use crate::testing::reference_body::{reference_body, reference_pipeline};

/// The reference humanoid's arms.
#[derive(Clone, Debug)]
pub struct ReferenceArms {
    pub body: Body,
    rest: PoseTree,
    tree: PoseTree,
}

impl ReferenceArms {
    pub fn new(profile: &ArmProfile) -> Self {
        let mut body = Body::new(reference_pipeline(profile), profile.body_follow);
        body.follow.follow_head = false;
        body.pipeline.steps = Steps::ARMS;
        let (rest, _) = reference_body();
        Self {
            body,
            tree: rest.clone(),
            rest,
        }
    }

    /// One frame of `dt` seconds with the avatar root (and skeleton) at `root`: each arm's
    /// targets and solve (skeleton space). An untracked controller's hand holds, then eases to
    /// rest beside the body (the tracking-loss rules).
    pub fn update(
        &mut self,
        tracking: &Tracking,
        root: Pose,
        dt: f32,
    ) -> PerSide<Option<ArmOutput>> {
        self.tree.clone_from(&self.rest);
        let placement = Placement {
            root,
            ..Default::default()
        };
        self.body
            .pose_bones(tracking, &placement, &mut self.tree, dt, &FlatFloor)
            .arms()
    }
}

/// Tracking with only the controllers (no headset, no finger input).
pub fn controllers(left: Option<Pose>, right: Option<Pose>) -> Tracking {
    Tracking {
        controllers: PerSide::new(left, right),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn the_arms_reach_and_nothing_else_moves() {
        let mut arms = ReferenceArms::new(&ArmProfile::default());
        let target = Vec3::new(0.35, 1.15, 0.3);
        let out = arms.update(
            &controllers(Some(Pose::from_position(target)), None),
            Pose::IDENTITY,
            1.0 / 90.0,
        );
        let left = out.left.expect("the left arm solved");
        assert!(left.solve.hand.position.distance(target) < 1e-4);
        assert!(
            out.right.is_some(),
            "the untracked right hand rests beside the body"
        );
        // Chest, neck, head and both clavicles as they rest (reference_body: 0, 1, 2, 3, 7).
        let (mut rest, _) = reference_body();
        for bone in [0, 1, 2, 3, 7] {
            assert_eq!(arms.tree.local(bone), rest.local(bone), "bone {bone} moved");
            assert_eq!(arms.tree.global(bone), rest.global(bone));
        }
    }

    #[test]
    fn the_arms_stand_where_the_root_is() {
        // The root moved and turned: a target given relative to it is reached in the world.
        let root = Pose::new(Vec3::new(3.0, 0.0, -2.0), glam::Quat::from_rotation_y(1.0));
        let target = root.transform_point(Vec3::new(0.35, 1.15, 0.3));
        let mut arms = ReferenceArms::new(&ArmProfile::default());
        let out = arms.update(
            &controllers(Some(Pose::from_position(target)), None),
            root,
            1.0 / 90.0,
        );
        let hand = root.transform_point(out.left.unwrap().solve.hand.position);
        assert!(hand.distance(target) < 1e-3, "{hand} vs {target}");
    }
}
