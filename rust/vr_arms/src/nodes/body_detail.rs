//! `VRBodyDetail`, a crowd's levels of detail (shared by its remote bodies), and `BodyDetail`,
//! the level a body asks for or runs at. The logic is `vr_arms_core::crowd::crowd_detail`.

use godot::classes::{IResource, Resource};
use godot::prelude::*;
use vr_arms_core::crowd::crowd_detail::{DetailLevel, DetailSettings};

/// A remote body's level of detail. In GDScript `VRArms.BodyDetail` (`AUTO` 0, `FULL` 1,
/// `REDUCED` 2, `LOW` 3, `OFF` 4): what `VRRemoteBody.detail` asks for (`AUTO`: by distance to
/// the nearest view and whether one sees the body), and what `get_detail_level()` and
/// `detail_changed` report (never `AUTO`). Set as a property to a number that is no level, it
/// is one error and the property keeps its level ([BodyDetail::checked]).
#[derive(GodotConvert, Export, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[godot(via = i64)]
pub enum BodyDetail {
    /// By distance and visibility, with the `VRBodyDetail` settings.
    #[default]
    Auto = 0,
    /// Every stage every frame.
    Full = 1,
    /// Solved every `reduced_interval_frames` and blended between, the fingers frozen.
    Reduced = 2,
    /// Solved every `low_interval_frames`, written only then (outside the modifier pass).
    Low = 3,
    /// Not solved, not written: the body holds its last pose.
    Off = 4,
}

impl BodyDetail {
    /// The core's level this forces, `None` for `Auto`.
    pub fn forced(self) -> Option<DetailLevel> {
        match self {
            Self::Auto => None,
            Self::Full => Some(DetailLevel::Full),
            Self::Reduced => Some(DetailLevel::Reduced),
            Self::Low => Some(DetailLevel::Low),
            Self::Off => Some(DetailLevel::Off),
        }
    }

    /// The level numbered `value` (0 to 4); another number is one error, and `keep` stays.
    /// For the `detail` property, which Godot sets with a plain int.
    pub fn checked(value: i64, keep: BodyDetail) -> BodyDetail {
        match value {
            0 => Self::Auto,
            1 => Self::Full,
            2 => Self::Reduced,
            3 => Self::Low,
            4 => Self::Off,
            _ => {
                godot_error!(
                    "detail must be VRArms.BodyDetail.AUTO (0), FULL (1), REDUCED (2), LOW (3) \
                     or OFF (4), not {value}; it stays {keep:?}"
                );
                keep
            }
        }
    }

    /// The enum value that reports the core's `level`.
    pub fn of(level: DetailLevel) -> Self {
        match level {
            DetailLevel::Full => Self::Full,
            DetailLevel::Reduced => Self::Reduced,
            DetailLevel::Low => Self::Low,
            DetailLevel::Off => Self::Off,
        }
    }
}

// A `detail` property set to a number that is no level is one error and keeps its value.
crate::shared::int_enum::checked_int_var!(BodyDetail);

/// The levels of detail of a crowd of [VRRemoteBody] nodes: give every remote body of a crowd
/// the same resource (`VRAvatarSync.remote_detail` does) and tune it in one place. A body's
/// level comes from its distance to the nearest view (the active camera, both eyes of an
/// [XRCamera3D] in XR, and every [Camera3D] in `view_group`, such as a mirror's) and whether
/// any of them sees it. Without it a body uses the defaults below.
#[derive(GodotClass)]
#[class(base = Resource, tool)]
pub struct VRBodyDetail {
    /// Beyond this distance to the nearest view, `REDUCED`: solved every
    /// `reduced_interval_frames`, the fingers frozen.
    #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "m"))]
    reduced_beyond_m: f32,
    /// Beyond this distance, `LOW`: solved every `low_interval_frames`, nothing written between.
    #[export(range = (0.0, 200.0, 0.1, or_greater, suffix = "m"))]
    low_beyond_m: f32,
    /// Beyond this distance, `OFF`: the body holds its last pose (0: never off by distance).
    #[export(range = (0.0, 500.0, 0.5, or_greater, suffix = "m"))]
    off_beyond_m: f32,
    /// A level changes only this far past its distance, so that a body standing at a boundary
    /// does not switch back and forth.
    #[export(range = (0.0, 5.0, 0.05, suffix = "m"))]
    hysteresis_m: f32,
    /// Solve every this many frames at `REDUCED` (blended in between).
    #[export(range = (1.0, 8.0, suffix = "frames"))]
    reduced_interval_frames: i32,
    /// Solve every this many frames at `LOW` (held in between).
    #[export(range = (1.0, 8.0, suffix = "frames"))]
    low_interval_frames: i32,
    /// A body that no view sees (outside every view's frustum) or that is hidden is `OFF`, and
    /// catches up on the frame a view sees it again.
    #[export]
    cull_unseen: bool,
    /// The radius about the body's centre (a metre over its root) that must be out of a view
    /// for the body to count as unseen: its reach, with a margin.
    #[export(range = (0.0, 5.0, 0.05, suffix = "m"))]
    body_radius_m: f32,
    /// Time to cross-fade from the pose shown to the new level's when the level changes (not
    /// after a cull: nobody saw the old pose), so that no change pops.
    #[export(range = (0.0, 1.0, 0.01, suffix = "s"))]
    fade_s: f32,
    /// Cameras in this group count as views too (a mirror's, a spectator's), besides the
    /// viewport's active camera.
    #[export]
    view_group: StringName,
    base: Base<Resource>,
}

#[godot_api]
impl IResource for VRBodyDetail {
    fn init(base: Base<Resource>) -> Self {
        let d = DetailSettings::default();
        Self {
            reduced_beyond_m: d.reduced_beyond_m,
            low_beyond_m: d.low_beyond_m,
            off_beyond_m: d.off_beyond_m,
            hysteresis_m: d.hysteresis_m,
            reduced_interval_frames: d.reduced_interval_frames as i32,
            low_interval_frames: d.low_interval_frames as i32,
            cull_unseen: d.cull_unseen,
            body_radius_m: d.body_radius_m,
            fade_s: d.fade_s,
            view_group: StringName::from(DEFAULT_VIEW_GROUP),
            base,
        }
    }
}

impl VRBodyDetail {
    /// Settings that the levels cannot use as given (they are adjusted, and said here as
    /// configuration warnings of the bodies that use them).
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.low_beyond_m < self.reduced_beyond_m {
            out.push(format!(
                "VRBodyDetail: low_beyond_m ({} m) is nearer than reduced_beyond_m ({} m): low detail starts at {} m.",
                self.low_beyond_m, self.reduced_beyond_m, self.reduced_beyond_m
            ));
        }
        let low = self.low_beyond_m.max(self.reduced_beyond_m);
        if self.off_beyond_m > 0.0 && self.off_beyond_m < low {
            out.push(format!(
                "VRBodyDetail: off_beyond_m ({} m) is nearer than low detail's distance ({low} m): bodies go off from {low} m (0 is never off).",
                self.off_beyond_m
            ));
        }
        if self.reduced_interval_frames > self.low_interval_frames {
            out.push(format!(
                "VRBodyDetail: reduced_interval_frames ({}) is more than low_interval_frames ({}): reduced detail would solve less often than low.",
                self.reduced_interval_frames, self.low_interval_frames
            ));
        }
        if self.view_group.is_empty() {
            out.push("VRBodyDetail: view_group is empty: only the active camera (both eyes in XR) counts as a view, not a mirror's.".into());
        }
        out
    }
}

/// The group whose cameras count as views when no `VRBodyDetail` says otherwise.
pub const DEFAULT_VIEW_GROUP: &str = "vr_arms_views";

impl VRBodyDetail {
    /// The core's settings (validated) and the views' group.
    pub fn settings(&self) -> (DetailSettings, StringName) {
        let frames = |f: i32| vr_arms_core::crowd::budget::interval_frames(f.into());
        let s = DetailSettings {
            reduced_beyond_m: self.reduced_beyond_m,
            low_beyond_m: self.low_beyond_m,
            off_beyond_m: self.off_beyond_m,
            hysteresis_m: self.hysteresis_m,
            reduced_interval_frames: frames(self.reduced_interval_frames),
            low_interval_frames: frames(self.low_interval_frames),
            cull_unseen: self.cull_unseen,
            body_radius_m: self.body_radius_m,
            fade_s: self.fade_s,
        };
        let mut s = s;
        s.validate();
        (s, self.view_group.clone())
    }
}
