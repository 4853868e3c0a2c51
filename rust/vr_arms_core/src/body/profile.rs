//! Settings as data: every stage's settings in one TOML profile.
//!
//! A profile (for example `addons/vr_arms/profiles/local_player.toml`) loads into the nodes and
//! saves back. Unknown keys and wrong types are errors naming the line; a failed load changes
//! nothing (the caller keeps its previous settings). Values out of range are clamped by each
//! stage's `validate`.

use serde::{Deserialize, Serialize};

pub use crate::toml_file::{MAX_PROFILE_BYTES, ProfileError, parse_toml};

use crate::arms::body_avoidance::BodyAvoidanceSettings;
use crate::arms::controller_targets::ControllerTargetsSettings;
use crate::arms::elbow_hint::ElbowHintSettings;
use crate::arms::reach_clamp::ReachClampSettings;
use crate::arms::soft_ik::SoftIkSettings;
use crate::arms::target_router::TargetRouterSettings;
use crate::body::body_follow::BodyFollowSettings;
use crate::hands::hand_pose::HandPoseSettings;
use crate::lower_body::LowerBodySettings;
use crate::rig::first_person::FirstPersonSettings;
use crate::upper_body::clavicle_follow::ClavicleFollowSettings;
use crate::upper_body::forearm_twist::ForearmTwistSettings;
use crate::upper_body::upper_body_follow::UpperBodyFollowSettings;

/// All settings of the arm target pipeline and solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ArmProfile {
    pub controller_targets: ControllerTargetsSettings,
    pub body_avoidance: BodyAvoidanceSettings,
    pub reach_clamp: ReachClampSettings,
    pub target_router: TargetRouterSettings,
    pub elbow_hint: ElbowHintSettings,
    pub soft_ik: SoftIkSettings,
    pub body_follow: BodyFollowSettings,
    pub upper_body_follow: UpperBodyFollowSettings,
    pub clavicle_follow: ClavicleFollowSettings,
    pub forearm_twist: ForearmTwistSettings,
    pub hand_pose: HandPoseSettings,
    pub first_person: FirstPersonSettings,
    pub lower_body: LowerBodySettings,
}

impl ArmProfile {
    /// The arm stages' settings (each stage validates its own when it is made).
    pub fn arms(&self) -> crate::arms::arm_steps::ArmSettings {
        crate::arms::arm_steps::ArmSettings {
            controller_targets: self.controller_targets,
            body_avoidance: self.body_avoidance,
            reach_clamp: self.reach_clamp,
            target_router: self.target_router,
            elbow_hint: self.elbow_hint,
            soft_ik: self.soft_ik,
        }
    }

    /// Parses TOML; every stage's settings are validated (clamped into range) after parsing.
    pub fn from_toml_str(text: &str) -> Result<Self, ProfileError> {
        parse_toml(text).map(|mut p: ArmProfile| {
            p.validate();
            p
        })
    }

    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    pub fn validate(&mut self) {
        self.controller_targets.validate();
        self.body_avoidance.validate();
        self.reach_clamp.validate();
        self.target_router.validate();
        self.elbow_hint.validate();
        self.soft_ik.validate();
        self.body_follow.validate();
        self.upper_body_follow.validate();
        self.clavicle_follow.validate();
        self.forearm_twist.validate();
        self.hand_pose.validate();
        self.first_person.validate();
        self.lower_body.validate();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_round_trip() {
        let mut p = ArmProfile::default();
        p.reach_clamp.exact_hands_mode = false;
        p.elbow_hint.forearm_cue_weight = 0.7;
        p.controller_targets.left.position_offset = [0.01, -0.02, 0.05];
        p.body_follow.hands_weight_max = 0.4;
        p.upper_body_follow.yaw_weights = [0.2, 0.3, 0.5];
        p.clavicle_follow.max_follow_deg = 15.0;
        p.forearm_twist.lower_arm_weight = 0.6;
        p.hand_pose.wrist_weight = 0.5;
        p.first_person.third_person_layer = 12;
        let text = p.to_toml_string();
        let back = ArmProfile::from_toml_str(&text).unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn partial_profiles_use_defaults() {
        let p = ArmProfile::from_toml_str("[reach_clamp]\nexact_hands_mode = false\n").unwrap();
        assert!(!p.reach_clamp.exact_hands_mode);
        assert_eq!(p.elbow_hint, ElbowHintSettings::default());
    }

    #[test]
    fn bad_toml_names_the_line() {
        let text = "[reach_clamp]\nexact_hands_mode = false\nhard_clamp_ratio = \"lots\"\n";
        let e = ArmProfile::from_toml_str(text).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        let e = ArmProfile::from_toml_str("[elbow_hint]\n\nforarm_cue_weight = 0.3\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.message.contains("forarm_cue_weight"), "{e}");
        let e = ArmProfile::from_toml_str("[soft_ik\n").unwrap_err();
        assert_eq!(e.line, Some(1));
    }

    #[test]
    fn out_of_range_values_are_clamped() {
        let p = ArmProfile::from_toml_str(
            "[reach_clamp]\nhard_clamp_ratio = 7.0\n[elbow_hint]\nforearm_cue_weight = -3\n",
        )
        .unwrap();
        assert_eq!(p.reach_clamp.hard_clamp_ratio, 1.0);
        assert_eq!(p.elbow_hint.forearm_cue_weight, 0.0);
    }

    #[test]
    fn huge_input_is_refused() {
        let text = "#".repeat(MAX_PROFILE_BYTES + 1);
        assert!(ArmProfile::from_toml_str(&text).is_err());
        // Exactly the limit is still read.
        let text = "#".repeat(MAX_PROFILE_BYTES);
        assert_eq!(ArmProfile::from_toml_str(&text), Ok(ArmProfile::default()));
    }
}

#[cfg(test)]
mod shipped_profiles {
    use super::ArmProfile;

    fn shipped(name: &str) -> ArmProfile {
        let path = format!(
            "{}/../../addons/vr_arms/profiles/{name}.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        ArmProfile::from_toml_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn local_player_profile_is_the_defaults() {
        assert_eq!(shipped("local_player"), ArmProfile::default());
    }

    #[test]
    fn remote_player_profile_clamps_and_smooths() {
        let p = shipped("remote_player");
        assert!(!p.reach_clamp.exact_hands_mode);
        assert!(p.reach_clamp.use_soft_far_clamp && p.reach_clamp.smooth_always);
        assert!(!p.soft_ik.exact_hands);
    }
}

#[cfg(test)]
mod hostile_tests {
    use super::*;

    fn refused(text: &str) -> ProfileError {
        ArmProfile::from_toml_str(text).expect_err("hostile input must be refused")
    }

    #[test]
    fn wrong_types_unknown_keys_and_huge_numbers_name_the_line() {
        let e = refused("[controller_targets.recoil]\n\nout_speed = \"fast\"\n");
        assert_eq!(e.line, Some(3), "{e:?}");
        let e = refused("[controller_targets]\nnot_a_setting = 1\n");
        assert_eq!(e.line, Some(2), "{e:?}");
        assert!(e.message.contains("not_a_setting"), "{e:?}");
        // 1e400 is infinity in f32: refused or clamped, never a non-finite setting.
        match ArmProfile::from_toml_str("[controller_targets.recoil]\nout_speed = 1e400\n") {
            Ok(p) => assert!(p.controller_targets.recoil.out_speed.is_finite()),
            Err(e) => assert_eq!(e.line, Some(2), "{e:?}"),
        }
        let e = refused("[controller_targets.recoil]\nout_speed = 99999999999999999999999\n");
        assert_eq!(e.line, Some(2), "{e:?}");
    }

    #[test]
    fn deep_nesting_is_refused_without_overflowing_the_stack() {
        for depth in [100usize, 5_000, 200_000] {
            let text = format!("x = {}{}\n", "[".repeat(depth), "]".repeat(depth));
            let result = std::thread::Builder::new()
                // A small stack, as a game thread might have: the parser must not recurse deeply.
                .stack_size(256 * 1024)
                .spawn(move || ArmProfile::from_toml_str(&text).is_err())
                .unwrap()
                .join();
            assert_eq!(result.ok(), Some(true), "depth {depth}");
        }
        let tables = "a.".repeat(50_000) + "b = 1\n";
        assert!(ArmProfile::from_toml_str(&tables).is_err());
    }

    #[test]
    fn errors_say_their_line_when_known() {
        let e = ProfileError {
            line: Some(3),
            message: "unknown field `x`".into(),
        };
        assert_eq!(e.to_string(), "line 3: unknown field `x`");
        let e = ProfileError {
            line: None,
            message: "empty".into(),
        };
        assert_eq!(e.to_string(), "empty");
    }
}
