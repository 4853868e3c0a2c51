//! Hand poses: which authored pose the hand shows, copying finger rotations, and procedural
//! finger curl from the controller's grip and trigger.
//!
//! The original design's bridge table chooses the pose from two flags:
//!
//! | hand in holster zone | pistol held | pose |
//! |---|---|---|
//! | false | false | `Default` |
//! | true | false | `PreGrip` |
//! | any | true | `GripReady` |
//!
//! plus the one-shots `HammerCock` and `Shoot`, which play for their duration and then fall back
//! to the table's pose. The revolver's handling has three more, over the table: `Twirl` (the gun
//! spinning on the trigger finger), `Fanning` (the off hand's flat palm over the hammer) and
//! `GateLoading` (the gun hand with the loading gate open: index along the frame, thumb on the
//! cylinder), and `Pinch` (a hand holding a cartridge).

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::maths::finite::finite_clamp;
use crate::maths::finite::{direction, f32_or, quat_or, unit_quat};
use crate::maths::side::Side;

/// The pose a hand shows. The numbers are GDScript's `VRArms.HandPoseState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HandPoseState {
    Default = 0,
    PreGrip = 1,
    GripReady = 2,
    HammerCock = 3,
    Shoot = 4,
    /// The gun hand with the loading gate open.
    GateLoading = 5,
    /// The off hand fanning the hammer.
    Fanning = 6,
    /// The gun hand while the gun twirls.
    Twirl = 7,
    /// A hand holding a cartridge between thumb and fingers.
    Pinch = 8,
}

impl HandPoseState {
    pub const ALL: [HandPoseState; 9] = [
        Self::Default,
        Self::PreGrip,
        Self::GripReady,
        Self::HammerCock,
        Self::Shoot,
        Self::GateLoading,
        Self::Fanning,
        Self::Twirl,
        Self::Pinch,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Default => "Default",
            Self::PreGrip => "PreGrip",
            Self::GripReady => "GripReady",
            Self::HammerCock => "HammerCock",
            Self::Shoot => "Shoot",
            Self::GateLoading => "GateLoading",
            Self::Fanning => "Fanning",
            Self::Twirl => "Twirl",
            Self::Pinch => "Pinch",
        }
    }

    pub fn from_index(i: i32) -> Option<Self> {
        Self::ALL.get(usize::try_from(i).ok()?).copied()
    }
}

/// The bridge table.
pub fn pose_for_flags(hand_in_holster_zone: bool, pistol_held: bool) -> HandPoseState {
    match (hand_in_holster_zone, pistol_held) {
        (_, true) => HandPoseState::GripReady,
        (true, false) => HandPoseState::PreGrip,
        (false, false) => HandPoseState::Default,
    }
}

/// Chooses the hand's pose from the flags and one-shots.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandPoseDriver {
    pub hand_in_holster_zone: bool,
    pub pistol_held: bool,
    /// The revolver in this hand has its loading gate open.
    pub gate_open: bool,
    /// The revolver in this hand is twirling.
    pub twirling: bool,
    /// This (off) hand is over the revolver's hammer, ready to fan it.
    pub fanning: bool,
    /// This hand holds a cartridge.
    pub pinching: bool,
    one_shot: Option<(HandPoseState, f32)>,
    current: HandPoseState,
}

impl Default for HandPoseDriver {
    fn default() -> Self {
        Self {
            hand_in_holster_zone: false,
            pistol_held: false,
            gate_open: false,
            twirling: false,
            fanning: false,
            pinching: false,
            one_shot: None,
            current: HandPoseState::Default,
        }
    }
}

impl HandPoseDriver {
    /// Plays `state` (`HammerCock` or `Shoot`) for `duration_s` seconds.
    pub fn play_one_shot(&mut self, state: HandPoseState, duration_s: f32) {
        let d = if duration_s.is_finite() {
            duration_s.max(0.0)
        } else {
            0.0
        };
        self.one_shot = Some((state, d));
    }

    pub fn current(&self) -> HandPoseState {
        self.current
    }

    /// The pose of the flags: the twirl, then fanning, then a cartridge held, then the open gate
    /// (with the gun in the hand), over the bridge table.
    pub fn handling_pose(&self) -> HandPoseState {
        if self.twirling {
            HandPoseState::Twirl
        } else if self.fanning {
            HandPoseState::Fanning
        } else if self.pinching {
            HandPoseState::Pinch
        } else if self.gate_open && self.pistol_held {
            HandPoseState::GateLoading
        } else {
            pose_for_flags(self.hand_in_holster_zone, self.pistol_held)
        }
    }

    /// Advances one-shots by `dt` and returns `Some(new)` when the pose changed.
    pub fn update(&mut self, dt: f32) -> Option<HandPoseState> {
        if let Some((state, left)) = self.one_shot {
            let left = left - if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
            self.one_shot = (left > 0.0).then_some((state, left));
        }
        let next = match self.one_shot {
            Some((state, _)) => state,
            None => self.handling_pose(),
        };
        (next != self.current).then(|| {
            self.current = next;
            next
        })
    }
}

/// The hand (wrist) bone of one side in Godot's humanoid profile.
pub fn hand_bone(side: Side) -> &'static str {
    match side {
        Side::Left => "LeftHand",
        Side::Right => "RightHand",
    }
}

/// The finger bones of one hand in Godot's humanoid profile, thumb first, base to tip.
pub fn finger_bones(side: Side) -> [String; 15] {
    let s = match side {
        Side::Left => "Left",
        Side::Right => "Right",
    };
    let parts = [
        "ThumbMetacarpal",
        "ThumbProximal",
        "ThumbDistal",
        "IndexProximal",
        "IndexIntermediate",
        "IndexDistal",
        "MiddleProximal",
        "MiddleIntermediate",
        "MiddleDistal",
        "RingProximal",
        "RingIntermediate",
        "RingDistal",
        "LittleProximal",
        "LittleIntermediate",
        "LittleDistal",
    ];
    parts.map(|p| format!("{s}{p}"))
}

/// Settings for copying and curling fingers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HandPoseSettings {
    /// Overall blend of the copied pose (0..1).
    pub global_blend: f32,
    /// Weight of the wrist bone's copy: the IK already sets the wrist, so a full copy would fight it.
    pub wrist_weight: f32,
    /// Full grip curls the middle, ring and little fingers by this much per joint (degrees).
    pub grip_curl_deg: f32,
    /// Full trigger curls the index finger by this much per joint (degrees).
    pub trigger_curl_deg: f32,
    /// Thumb curl at full grip (degrees per joint).
    pub thumb_curl_deg: f32,
}

impl Default for HandPoseSettings {
    fn default() -> Self {
        Self {
            global_blend: 1.0,
            wrist_weight: 0.35,
            grip_curl_deg: 75.0,
            trigger_curl_deg: 70.0,
            thumb_curl_deg: 30.0,
        }
    }
}

impl HandPoseSettings {
    pub fn validate(&mut self) {
        let d = Self::default();
        self.global_blend = finite_clamp(self.global_blend, 0.0, 1.0, d.global_blend);
        self.wrist_weight = finite_clamp(self.wrist_weight, 0.0, 1.0, d.wrist_weight);
        self.grip_curl_deg = finite_clamp(self.grip_curl_deg, 0.0, 120.0, d.grip_curl_deg);
        self.trigger_curl_deg = finite_clamp(self.trigger_curl_deg, 0.0, 120.0, d.trigger_curl_deg);
        self.thumb_curl_deg = finite_clamp(self.thumb_curl_deg, 0.0, 120.0, d.thumb_curl_deg);
    }
}

/// Copies a source bone's local rotation onto a live one: `slerp(live, source, blend x weight)`,
/// each factor taken in 0..1 (a non-finite one as 0).
pub fn blend_copy(live: Quat, source: Quat, blend: f32, weight: f32) -> Quat {
    let a = copy_amount(blend, weight);
    if a >= 1.0 {
        // A full copy is the source itself (unit), whatever the live pose.
        return unit_quat(source).unwrap_or_else(|| quat_or(live, Quat::IDENTITY));
    }
    let live = quat_or(live, Quat::IDENTITY);
    let source = quat_or(source, live);
    live.slerp(source, a).normalize()
}

/// Whether [blend_copy] at this blend and weight depends on the live rotation (it does not for a
/// full copy, so the caller need not read it: pass any finite rotation).
pub fn copy_reads_live(blend: f32, weight: f32) -> bool {
    copy_amount(blend, weight) < 1.0
}

fn copy_amount(blend: f32, weight: f32) -> f32 {
    finite_clamp(blend, 0.0, 1.0, 0.0) * finite_clamp(weight, 0.0, 1.0, 0.0)
}

/// The wrist: an authored wrist animation on the source rig, applied on top of the arm solve's
/// hand rotation as its change from the source's own rest, at `blend x weight`:
/// `live x slerp(1, source_rest^-1 x source, blend x weight)`. A source at rest changes nothing,
/// so the hand keeps the controller's rotation that the solve gave it.
pub fn blend_wrist(live: Quat, source: Quat, source_rest: Quat, blend: f32, weight: f32) -> Quat {
    let live = quat_or(live, Quat::IDENTITY);
    let rest = quat_or(source_rest, Quat::IDENTITY);
    let source = quat_or(source, rest);
    let animated = (rest.inverse() * source).normalize();
    blend_copy(live, live * animated, blend, weight)
}

/// How far each finger group curls (0 open .. 1 fully curled).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curl {
    /// Middle, ring and little fingers.
    pub grip: f32,
    /// The index (trigger) finger.
    pub trigger: f32,
    pub thumb: f32,
}

/// The procedural pose shipped with the addon for a pose state, from the controller's `grip` and
/// `trigger` (0..1), used when no authored animation plays:
///
/// | state | grip fingers | index | thumb |
/// |---|---|---|---|
/// | Default | grip | trigger | grip |
/// | PreGrip (hand at the holster) | at least 0.35 | at least 0.2 | 0.3 |
/// | GripReady (gun in the hand) | 1 | trigger (follows the trigger) | 1 |
/// | HammerCock | 1 | trigger | 0 (raised onto the hammer) |
/// | Shoot | 1 | 1 | 1 |
/// | GateLoading | 1 | 0 (along the frame) | 0.4 (on the cylinder) |
/// | Fanning (off hand) | 0 | 0 | 0 (a flat palm) |
/// | Twirl | 0.15 | 0.6 (through the trigger guard) | 0.1 |
/// | Pinch (a cartridge held) | 0.7 | 0.55 | 0.6 |
pub fn procedural_curl(state: HandPoseState, grip: f32, trigger: f32) -> Curl {
    let unit = |x: f32| {
        if x.is_finite() {
            x.clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    let (grip, trigger) = (unit(grip), unit(trigger));
    match state {
        HandPoseState::Default => Curl {
            grip,
            trigger,
            thumb: grip,
        },
        HandPoseState::PreGrip => Curl {
            grip: grip.max(0.35),
            trigger: trigger.max(0.2),
            thumb: 0.3,
        },
        HandPoseState::GripReady => Curl {
            grip: 1.0,
            trigger,
            thumb: 1.0,
        },
        HandPoseState::HammerCock => Curl {
            grip: 1.0,
            trigger,
            thumb: 0.0,
        },
        HandPoseState::Shoot => Curl {
            grip: 1.0,
            trigger: 1.0,
            thumb: 1.0,
        },
        HandPoseState::GateLoading => Curl {
            grip: 1.0,
            trigger: 0.0,
            thumb: 0.4,
        },
        HandPoseState::Fanning => Curl {
            grip: 0.0,
            trigger: 0.0,
            thumb: 0.0,
        },
        HandPoseState::Twirl => Curl {
            grip: 0.15,
            trigger: 0.6,
            thumb: 0.1,
        },
        HandPoseState::Pinch => Curl {
            grip: 0.7,
            trigger: 0.55,
            thumb: 0.6,
        },
    }
}

/// How much finger bone `index` (0..15 in [`finger_bones`] order) curls, in radians, for the
/// controller's `grip` and `trigger` (0..1): the Default pose of [`procedural_curl`].
pub fn curl_angle(settings: &HandPoseSettings, index: usize, grip: f32, trigger: f32) -> f32 {
    curl_angle_for(
        settings,
        index,
        procedural_curl(HandPoseState::Default, grip, trigger),
    )
}

/// How much finger bone `index` curls, in radians, for a [`Curl`].
pub fn curl_angle_for(settings: &HandPoseSettings, index: usize, curl: Curl) -> f32 {
    group_angle(settings, finger_group(index), curl)
}

/// The curl group of finger bone `index` (0..15 in [`finger_bones`] order): 0 the thumb, 1 the
/// index finger, 2 the grip fingers.
fn finger_group(index: usize) -> usize {
    match index {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    }
}

/// How much a curl group (see [finger_group]) curls, in radians.
fn group_angle(settings: &HandPoseSettings, group: usize, curl: Curl) -> f32 {
    let deg = match group {
        0 => settings.thumb_curl_deg * curl.thumb,
        1 => settings.trigger_curl_deg * curl.trigger,
        _ => settings.grip_curl_deg * curl.grip,
    };
    deg.to_radians()
}

impl Curl {
    /// The same curl per finger (thumb, index, middle, ring, little), as [CurlTurns::per_finger]
    /// takes it: the grip's value for the middle, ring and little fingers.
    pub fn per_finger(self) -> [f32; 5] {
        [self.thumb, self.trigger, self.grip, self.grip, self.grip]
    }
}

/// Each finger's curl of one hand, kept as the sine and cosine of half its angle: worked out once
/// per hand, so each finger bone then costs one quaternion product and no trigonometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurlTurns {
    /// `(sin, cos)` of half the curl angle: thumb, index, middle, ring, little.
    half: [(f32, f32); 5],
}

impl CurlTurns {
    /// The three groups' curls (thumb, index, grip fingers), as the controller gives them.
    pub fn new(settings: &HandPoseSettings, curl: Curl) -> Self {
        let group =
            [0, 1, 2].map(|g| (0.5 * f32_or(group_angle(settings, g, curl), 0.0)).sin_cos());
        Self {
            half: [group[0], group[1], group[2], group[2], group[2]],
        }
    }

    /// A curl per finger (thumb, index, middle, ring, little; 0 open, 1 the settings' full curl,
    /// a value outside 0..1 or non-finite taken as the nearest end or 0), as hand tracking gives
    /// them. The index curls by the trigger's angle, the middle, ring and little fingers by the
    /// grip's, the thumb by its own.
    pub fn per_finger(settings: &HandPoseSettings, curls: [f32; 5]) -> Self {
        let half = std::array::from_fn(|f| {
            let c = finite_clamp(curls[f], 0.0, 1.0, 0.0);
            let deg = match f {
                0 => settings.thumb_curl_deg,
                1 => settings.trigger_curl_deg,
                _ => settings.grip_curl_deg,
            };
            (0.5 * f32_or((deg * c).to_radians(), 0.0)).sin_cos()
        });
        Self { half }
    }

    /// `(sin, cos)` of half the curl of finger bone `index` (0..15 in [`finger_bones`] order).
    pub fn half_turn(&self, index: usize) -> (f32, f32) {
        self.half[(index / 3).min(4)]
    }
}

/// A curled finger bone's local rotation: its rest rotation turned by `angle` about the curl
/// axis, which is `finger_dir x palm_normal` (fingertips toward the palm) given in the bone's
/// global rest frame. Shorthand for [FingerCurl::new] then [FingerCurl::at].
pub fn curled_local(
    rest_local: Quat,
    bone_rest_global: Quat,
    finger_dir: Vec3,
    palm_normal: Vec3,
    angle: f32,
) -> Quat {
    FingerCurl::new(rest_local, bone_rest_global, finger_dir, palm_normal).at(angle)
}

/// One finger bone's curl, with everything that depends only on the rest pose worked out once
/// (the curl axis in the bone's own frame): each frame then costs one axis-angle rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FingerCurl {
    rest_local: Quat,
    /// The curl axis in the bone's rest frame; None when `finger_dir` and the palm normal are
    /// parallel (no axis: the bone stays at rest).
    axis_local: Option<Vec3>,
}

impl FingerCurl {
    pub fn new(
        rest_local: Quat,
        bone_rest_global: Quat,
        finger_dir: Vec3,
        palm_normal: Vec3,
    ) -> Self {
        let rest_local = quat_or(rest_local, Quat::IDENTITY);
        let axis_local = direction(finger_dir.cross(palm_normal))
            .map(|axis| quat_or(bone_rest_global, Quat::IDENTITY).inverse() * axis);
        Self {
            rest_local,
            axis_local,
        }
    }

    /// The bone's local rotation curled by `angle` (radians; a non-finite angle gives the rest).
    pub fn at(&self, angle: f32) -> Quat {
        if angle.is_finite() {
            self.turned((0.5 * angle).sin_cos())
        } else {
            self.rest_local
        }
    }

    /// The bone's local rotation curled by the angle whose half has this `(sin, cos)` (as
    /// [`CurlTurns::half_turn`] gives it). Unit without normalising: the rest rotation, the axis
    /// and the half-angle pair are each unit.
    pub fn turned(&self, (sin, cos): (f32, f32)) -> Quat {
        match self.axis_local {
            Some(axis) => {
                let a = axis * sin;
                self.rest_local * Quat::from_xyzw(a.x, a.y, a.z, cos)
            }
            None => self.rest_local,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_finger_takes_its_own_groups_curl() {
        assert_eq!(hand_bone(Side::Left), "LeftHand");
        assert_eq!(hand_bone(Side::Right), "RightHand");
        let c = Curl {
            thumb: 0.1,
            trigger: 0.2,
            grip: 0.3,
        };
        assert_eq!(c.per_finger(), [0.1, 0.2, 0.3, 0.3, 0.3]);
        // Fully curled, each finger by its group's angle: thumb 30, index 70, the rest 75.
        let s = HandPoseSettings::default();
        let t = CurlTurns::per_finger(&s, [1.0; 5]);
        for (bone, deg) in [(0, 30.0), (3, 70.0), (6, 75.0), (12, 75.0)] {
            let (sin, cos) = t.half_turn(bone);
            let got = 2.0 * sin.atan2(cos).to_degrees();
            assert!((got - deg).abs() < 1e-3, "bone {bone}: {got}");
        }
    }

    #[test]
    fn the_revolvers_handling_poses_go_over_the_bridge_table() {
        let mut d = HandPoseDriver {
            pistol_held: true,
            ..Default::default()
        };
        assert_eq!(d.handling_pose(), HandPoseState::GripReady);
        d.gate_open = true;
        assert_eq!(d.update(0.01), Some(HandPoseState::GateLoading));
        d.twirling = true;
        assert_eq!(d.update(0.01), Some(HandPoseState::Twirl));
        d.twirling = false;
        d.pistol_held = false;
        assert_eq!(
            d.update(0.01),
            Some(HandPoseState::Default),
            "an open gate alone is no loading pose: the gun is not in this hand"
        );
        let mut off = HandPoseDriver {
            hand_in_holster_zone: true,
            fanning: true,
            ..Default::default()
        };
        assert_eq!(off.update(0.01), Some(HandPoseState::Fanning));
        off.pinching = true;
        assert_eq!(off.update(0.01), None, "fanning over a cartridge held");
        off.fanning = false;
        assert_eq!(off.update(0.01), Some(HandPoseState::Pinch));
        off.pinching = false;
        assert_eq!(off.update(0.01), Some(HandPoseState::PreGrip));
        // A one-shot plays over them.
        d.pistol_held = true;
        d.play_one_shot(HandPoseState::Shoot, 0.1);
        assert_eq!(d.update(0.01), Some(HandPoseState::Shoot));
        assert_eq!(d.update(0.2), Some(HandPoseState::GateLoading));
    }

    #[test]
    fn the_handling_poses_curl_as_their_table_says() {
        let c = |s| procedural_curl(s, 0.5, 0.5);
        let gate = c(HandPoseState::GateLoading);
        assert_eq!((gate.grip, gate.trigger, gate.thumb), (1.0, 0.0, 0.4));
        let fan = c(HandPoseState::Fanning);
        assert_eq!((fan.grip, fan.trigger, fan.thumb), (0.0, 0.0, 0.0));
        let twirl = c(HandPoseState::Twirl);
        assert_eq!((twirl.grip, twirl.trigger, twirl.thumb), (0.15, 0.6, 0.1));
        let pinch = c(HandPoseState::Pinch);
        assert_eq!((pinch.grip, pinch.trigger, pinch.thumb), (0.7, 0.55, 0.6));
    }

    #[test]
    fn bridge_table() {
        assert_eq!(pose_for_flags(false, false), HandPoseState::Default);
        assert_eq!(pose_for_flags(true, false), HandPoseState::PreGrip);
        assert_eq!(pose_for_flags(true, true), HandPoseState::GripReady);
        assert_eq!(pose_for_flags(false, true), HandPoseState::GripReady);
    }

    #[test]
    fn one_shots_play_then_fall_back() {
        let mut d = HandPoseDriver {
            pistol_held: true,
            ..Default::default()
        };
        assert_eq!(d.update(0.01), Some(HandPoseState::GripReady));
        d.play_one_shot(HandPoseState::Shoot, 0.1);
        assert_eq!(d.update(0.01), Some(HandPoseState::Shoot));
        assert_eq!(d.update(0.05), None);
        assert_eq!(d.update(0.05), Some(HandPoseState::GripReady));
        d.pistol_held = false;
        assert_eq!(d.update(0.01), Some(HandPoseState::Default));
    }

    #[test]
    fn curl_bends_toward_the_palm() {
        // Left hand in T-pose: fingers +X, palm facing down (-Y): the tip goes down.
        let q = curled_local(Quat::IDENTITY, Quat::IDENTITY, Vec3::X, Vec3::NEG_Y, 0.5);
        assert!((q * Vec3::X).y < -0.4);
        let s = HandPoseSettings::default();
        assert_eq!(
            curl_angle(&s, 4, 1.0, 0.0),
            0.0,
            "grip leaves the index to the trigger"
        );
        assert!((curl_angle(&s, 7, 1.0, 0.0) - 75f32.to_radians()).abs() < 1e-6);
        assert_eq!(curl_angle(&s, 7, f32::NAN, 0.0), 0.0);
    }

    #[test]
    fn each_finger_group_turns_by_its_own_curl() {
        let s = HandPoseSettings::default();
        let curl = Curl {
            grip: 0.8,
            trigger: 0.4,
            thumb: 0.2,
        };
        let turns = CurlTurns::new(&s, curl);
        let rest = Quat::from_rotation_y(0.3);
        let finger = FingerCurl::new(rest, Quat::IDENTITY, Vec3::X, Vec3::NEG_Y);
        // The curl axis is `finger_dir x palm_normal` = X x -Y = -Z.
        for (index, deg) in [
            (0, s.thumb_curl_deg * 0.2),
            (5, s.trigger_curl_deg * 0.4),
            (6, s.grip_curl_deg * 0.8),
            (14, s.grip_curl_deg * 0.8),
        ] {
            let expected = rest * Quat::from_axis_angle(Vec3::NEG_Z, deg.to_radians());
            let got = finger.turned(turns.half_turn(index));
            assert!(
                got.abs_diff_eq(expected, 1e-6),
                "bone {index}: {got} vs {expected}"
            );
            assert!(
                (got.length() - 1.0).abs() < 1e-6,
                "unit without normalising"
            );
            assert!(finger.at(deg.to_radians()).abs_diff_eq(expected, 1e-6));
        }
        // The groups differ, so a wrong group would show.
        assert!(
            turns.half_turn(0) != turns.half_turn(3) && turns.half_turn(3) != turns.half_turn(6)
        );
        let nan = CurlTurns::new(
            &s,
            Curl {
                grip: f32::NAN,
                trigger: 0.0,
                thumb: 0.0,
            },
        );
        assert!(finger.turned(nan.half_turn(7)).is_finite());
    }

    #[test]
    fn a_full_copy_takes_the_source_and_falls_back_to_the_live_pose() {
        let live = Quat::from_rotation_x(0.4);
        let source = Quat::from_rotation_z(1.0);
        assert!(blend_copy(live, source * 2.0, 1.0, 1.0).abs_diff_eq(source, 1e-6));
        assert!((blend_copy(live, source * 2.0, 1.0, 1.0).length() - 1.0).abs() < 1e-6);
        let broken = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
        assert!(blend_copy(live, broken, 1.0, 1.0).abs_diff_eq(live, 1e-6));
        assert_eq!(blend_copy(broken, broken, 1.0, 1.0), Quat::IDENTITY);
    }

    #[test]
    fn copy_blends_by_weight() {
        let a = Quat::IDENTITY;
        let b = Quat::from_rotation_z(1.0);
        assert!(blend_copy(a, b, 1.0, 0.35).angle_between(Quat::from_rotation_z(0.35)) < 1e-5);
        assert!(blend_copy(a, b, 0.0, 1.0).angle_between(a) < 1e-6);
        assert!(blend_copy(a, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0), 1.0, 1.0).is_finite());
        assert_eq!(finger_bones(Side::Right)[14], "RightLittleDistal");
    }

    #[test]
    fn wrist_at_its_rest_leaves_the_solved_hand_alone() {
        let live = Quat::from_rotation_y(0.7) * Quat::from_rotation_x(-0.4);
        let rest = Quat::from_rotation_z(1.1);
        let kept = blend_wrist(live, rest, rest, 1.0, 0.35);
        assert!(
            kept.angle_between(live) < 1e-5,
            "{}",
            kept.angle_between(live)
        );
    }

    #[test]
    fn wrist_animation_is_applied_relative_to_its_rest_at_the_weight() {
        let live = Quat::from_rotation_y(0.7);
        let rest = Quat::from_rotation_z(1.1);
        let flexed = rest * Quat::from_rotation_x(0.6);
        let out = blend_wrist(live, flexed, rest, 1.0, 0.5);
        let want = live * Quat::from_rotation_x(0.3);
        assert!(
            out.angle_between(want) < 1e-5,
            "{}",
            out.angle_between(want)
        );
        let half = blend_wrist(live, flexed, rest, 0.5, 1.0);
        assert!(
            half.angle_between(want) < 1e-5,
            "the global blend scales it too"
        );
        assert!(
            blend_wrist(
                live,
                Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0),
                rest,
                1.0,
                1.0
            )
            .is_finite()
        );
    }

    #[test]
    fn procedural_poses_follow_the_state_and_the_trigger() {
        let s = HandPoseSettings::default();
        let held = procedural_curl(HandPoseState::GripReady, 0.0, 0.4);
        assert_eq!((held.grip, held.thumb), (1.0, 1.0), "the gun is gripped");
        assert!(
            (curl_angle_for(&s, 4, held) - (s.trigger_curl_deg * 0.4).to_radians()).abs() < 1e-6,
            "the index follows the trigger"
        );
        let cock = procedural_curl(HandPoseState::HammerCock, 1.0, 0.0);
        assert_eq!(
            curl_angle_for(&s, 1, cock),
            0.0,
            "the thumb is raised onto the hammer"
        );
        let shoot = procedural_curl(HandPoseState::Shoot, 0.0, 0.0);
        assert!((curl_angle_for(&s, 4, shoot) - s.trigger_curl_deg.to_radians()).abs() < 1e-6);
        let pre = procedural_curl(HandPoseState::PreGrip, 0.0, 0.0);
        assert!(
            pre.grip > 0.3 && pre.grip < 1.0,
            "half open, ready to take the grip"
        );
        let nan = procedural_curl(HandPoseState::Default, f32::NAN, f32::INFINITY);
        assert_eq!((nan.grip, nan.trigger), (0.0, 0.0));
    }

    #[test]
    fn states_have_the_animation_names_and_inspector_indices() {
        let names: Vec<&str> = HandPoseState::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(
            names,
            [
                "Default",
                "PreGrip",
                "GripReady",
                "HammerCock",
                "Shoot",
                "GateLoading",
                "Fanning",
                "Twirl",
                "Pinch"
            ]
        );
        assert_eq!(HandPoseState::from_index(0), Some(HandPoseState::Default));
        assert_eq!(HandPoseState::from_index(4), Some(HandPoseState::Shoot));
        assert_eq!(HandPoseState::from_index(8), Some(HandPoseState::Pinch));
        assert_eq!(HandPoseState::from_index(9), None);
        assert_eq!(HandPoseState::from_index(-1), None);
    }

    #[test]
    fn a_one_shot_lasts_its_time_and_bad_steps_do_not_count() {
        let mut d = HandPoseDriver::default();
        d.play_one_shot(HandPoseState::Shoot, 0.25);
        assert_eq!(d.update(0.125), Some(HandPoseState::Shoot));
        // Steps of negative or unknown length neither shorten nor lengthen it.
        for dt in [-1.0, f32::NAN, f32::NEG_INFINITY] {
            assert_eq!(d.update(dt), None, "{dt}");
        }
        assert_eq!(d.current(), HandPoseState::Shoot);
        // Exactly its length in all: over (0.125 + 0.125 is exact in binary).
        assert_eq!(d.update(0.125), Some(HandPoseState::Default));
    }

    #[test]
    fn a_copy_blends_by_both_factors_each_in_range() {
        let live = Quat::IDENTITY;
        let source = Quat::from_rotation_x(0.8);
        let q = blend_copy(live, source, 0.5, 0.5);
        assert!(
            q.angle_between(Quat::from_rotation_x(0.2)) < 1e-5,
            "a quarter of the way"
        );
        let q = blend_copy(live, source, 2.0, 0.5);
        assert!(
            q.angle_between(Quat::from_rotation_x(0.4)) < 1e-5,
            "blend taken as 1"
        );
        for (b, w) in [(f32::NAN, 1.0), (1.0, f32::INFINITY), (-1.0, 1.0)] {
            assert_eq!(blend_copy(live, source, b, w), live, "{b} {w}");
        }
    }

    #[test]
    fn a_prepared_curl_turns_the_rest_about_the_axis_in_the_bones_frame() {
        let rest_local = Quat::from_rotation_z(0.3);
        let rest_global = Quat::from_rotation_y(0.7);
        let c = FingerCurl::new(rest_local, rest_global, Vec3::X, Vec3::NEG_Y);
        // finger_dir x palm = X x -Y = -Z, seen from the bone's rest frame.
        let axis = rest_global.inverse() * Vec3::NEG_Z;
        let want = rest_local * Quat::from_axis_angle(axis, 0.9);
        assert!(c.at(0.9).angle_between(want) < 1e-6);
        assert_eq!(c.at(0.0), rest_local.normalize());
        assert_eq!(c.at(f32::NAN), rest_local);
        // Parallel finger and palm: no axis, the bone stays at rest.
        let flat = FingerCurl::new(rest_local, rest_global, Vec3::Y, Vec3::NEG_Y);
        assert_eq!(flat.at(0.9), rest_local);
    }

    #[test]
    fn a_full_copy_is_the_source_whatever_the_live_pose() {
        let source = Quat::from_rotation_x(0.8);
        for live in [
            Quat::IDENTITY,
            Quat::from_rotation_y(2.0),
            Quat::from_rotation_z(-1.0),
        ] {
            assert_eq!(blend_copy(live, source, 1.0, 1.0), source.normalize());
            assert_eq!(blend_copy(live, source, 1.5, 3.0), source.normalize());
        }
        // So the caller need not read the live pose exactly then.
        assert!(!copy_reads_live(1.0, 1.0));
        assert!(!copy_reads_live(2.0, 1.0));
        assert!(copy_reads_live(1.0, 0.999));
        assert!(copy_reads_live(0.5, 1.0));
        assert!(copy_reads_live(f32::NAN, 1.0));
    }

    #[test]
    fn settings_are_validated() {
        let mut s = HandPoseSettings {
            global_blend: 3.0,
            wrist_weight: f32::NAN,
            grip_curl_deg: 500.0,
            trigger_curl_deg: -4.0,
            thumb_curl_deg: f32::INFINITY,
        };
        s.validate();
        let d = HandPoseSettings::default();
        assert_eq!((s.global_blend, s.wrist_weight), (1.0, d.wrist_weight));
        assert_eq!((s.grip_curl_deg, s.trigger_curl_deg), (120.0, 0.0));
        assert_eq!(s.thumb_curl_deg, d.thumb_curl_deg);
    }
}
