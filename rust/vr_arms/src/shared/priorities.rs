//! Every node's `process_priority`, in one table: the order the design runs its stages in each
//! frame (lowest first), before the skeleton's modifiers. docs/architecture.md lists the same
//! table; a test checks that it does.

/// `BodyFollow` and `VRRemoteBody`'s first step: the avatar root under the head.
pub const BODY_FOLLOW: i32 = -1100;
/// `ControllerTargets`: controller to raw target (input checks, tracking loss, recoil), before
/// the lower body bends toward a hand out of reach.
pub const CONTROLLER_TARGETS: i32 = -1098;
/// `LowerBodyRig`: this frame's hips, spine and legs, before the arm stages measure the shoulders.
pub const LOWER_BODY: i32 = -1095;
/// `VRArmRig`'s `_process`: the per-frame measurements start afresh, after the body moved.
pub const ARM_RIG: i32 = -1090;
/// `HolsterBelt`: the belt at its height under the moved body.
pub const HOLSTER_BELT: i32 = -1050;
/// `BodyAvoidance`: raw targets kept out of the torso.
pub const BODY_AVOIDANCE: i32 = -900;
/// `ReachClamp`: reach limit, overhead guard.
pub const REACH_CLAMP: i32 = -800;
/// `HolsterZone`: whether a hand is at the holster, before the revolver reads it.
pub const HOLSTER_ZONE: i32 = -760;
/// `Revolver`: grab, draw, cock, fire; its router overrides before the router.
pub const REVOLVER: i32 = -750;
/// `CartridgeHand`: a cartridge in the other hand, after the revolver's gate state.
pub const CARTRIDGE_HAND: i32 = -740;
/// `TargetRouter`: default target or interaction override.
pub const TARGET_ROUTER: i32 = -700;
/// `ElbowHintSolver`: hints in a stable torso frame, last of the targets.
pub const ELBOW_HINTS: i32 = -600;
/// `VRAvatarSync`: sends and plays the avatars' states after the local body moved.
pub const AVATAR_SYNC: i32 = 1000;

#[cfg(test)]
mod tests {
    use super::*;

    /// The table, in the order the nodes run: (class, priority).
    const TABLE: [(&str, i32); 14] = [
        ("BodyFollow", BODY_FOLLOW),
        ("VRRemoteBody", BODY_FOLLOW),
        ("ControllerTargets", CONTROLLER_TARGETS),
        ("LowerBodyRig", LOWER_BODY),
        ("VRArmRig", ARM_RIG),
        ("HolsterBelt", HOLSTER_BELT),
        ("BodyAvoidance", BODY_AVOIDANCE),
        ("ReachClamp", REACH_CLAMP),
        ("HolsterZone", HOLSTER_ZONE),
        ("Revolver", REVOLVER),
        ("CartridgeHand", CARTRIDGE_HAND),
        ("TargetRouter", TARGET_ROUTER),
        ("ElbowHintSolver", ELBOW_HINTS),
        ("VRAvatarSync", AVATAR_SYNC),
    ];

    #[test]
    fn the_table_runs_in_the_designs_order() {
        assert!(TABLE.windows(2).all(|w| w[0].1 <= w[1].1), "{TABLE:?}");
    }

    /// docs/architecture.md's frame diagram names each node with its priority.
    #[test]
    fn the_architecture_document_lists_the_same_priorities() {
        let doc = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/architecture.md"
        ))
        .expect("docs/architecture.md");
        for (class, priority) in TABLE {
            let line = doc
                .lines()
                .find(|l| l.split_whitespace().next() == Some(class))
                .unwrap_or_else(|| panic!("architecture.md has no line for {class}"));
            assert!(
                line.split_whitespace().any(|w| w == priority.to_string()),
                "architecture.md says `{line}` for {class}, the code {priority}"
            );
        }
    }
}
