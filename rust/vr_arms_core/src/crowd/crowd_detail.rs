//! Levels of detail for a crowd of remote bodies: the level a body runs at, from its distance to
//! the nearest view and whether any view sees it, and the cross-fade that hides a change of level.
//!
//! The levels do less and less of the work nobody sees:
//! - [`DetailLevel::Full`]: every stage every frame (or every `update_interval_frames`);
//! - [`DetailLevel::Reduced`]: the whole body solved every `reduced_interval_frames` and blended
//!   in between, the fingers frozen at their last pose (not solved, not written);
//! - [`DetailLevel::Low`]: solved every `low_interval_frames`, the bones written outside the
//!   modifier pass on those frames only, so the frames in between write nothing at all;
//! - [`DetailLevel::Off`]: not solved, not written: the body holds its last pose (beyond
//!   `off_beyond_m`, hidden, or seen by no view).

use glam::{Mat4, Quat, Vec3, Vec4};
use serde::{Deserialize, Serialize};

/// How much of a remote body's work runs, finest first (the order is the coarseness).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DetailLevel {
    #[default]
    Full,
    Reduced,
    Low,
    Off,
}

impl DetailLevel {
    /// Every level, finest first.
    pub const ALL: [DetailLevel; 4] = [Self::Full, Self::Reduced, Self::Low, Self::Off];

    /// Whether the level writes its bones in the modifier pass (every frame); the coarser ones
    /// write outside it, only when they solve, or not at all.
    pub fn writes_in_pass(self) -> bool {
        matches!(self, Self::Full | Self::Reduced)
    }

    /// Whether the fingers follow grip, trigger and hand tracking (else they hold their pose).
    pub fn fingers_live(self) -> bool {
        self == Self::Full
    }

    /// Solve every this many frames: `full_interval` at full detail, the settings' interval
    /// for the coarser levels (never finer than `full_interval`), 0 when off.
    pub fn interval(self, settings: &DetailSettings, full_interval: u32) -> u32 {
        let full = full_interval.max(1);
        match self {
            Self::Full => full,
            Self::Reduced => settings.reduced_interval_frames.max(full),
            Self::Low => settings.low_interval_frames.max(full),
            Self::Off => 0,
        }
    }
}

/// Where the levels change and what the coarser ones do (a crowd shares one).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DetailSettings {
    /// Beyond this distance to the nearest view (metres), [`DetailLevel::Reduced`].
    pub reduced_beyond_m: f32,
    /// Beyond this distance (metres), [`DetailLevel::Low`].
    pub low_beyond_m: f32,
    /// Beyond this distance (metres), [`DetailLevel::Off`]; 0: never off by distance.
    pub off_beyond_m: f32,
    /// A level changes only this far past its distance (metres), so that a body standing at a
    /// boundary does not switch every frame.
    pub hysteresis_m: f32,
    /// Solve every this many frames at [`DetailLevel::Reduced`].
    pub reduced_interval_frames: u32,
    /// Solve every this many frames at [`DetailLevel::Low`].
    pub low_interval_frames: u32,
    /// A body no view sees (outside every view's frustum) is [`DetailLevel::Off`].
    pub cull_unseen: bool,
    /// The radius of the sphere about the body's centre that must be outside a view for the body
    /// to count as unseen (metres; the body's reach with a margin).
    pub body_radius_m: f32,
    /// Time to cross-fade from the last pose shown to the new level's (seconds), so that a change
    /// of level shows no pop.
    pub fade_s: f32,
}

impl Default for DetailSettings {
    fn default() -> Self {
        Self {
            reduced_beyond_m: 5.0,
            low_beyond_m: 12.0,
            off_beyond_m: 0.0,
            hysteresis_m: 0.5,
            reduced_interval_frames: 2,
            low_interval_frames: 4,
            cull_unseen: true,
            body_radius_m: 1.5,
            fade_s: 0.2,
        }
    }
}

impl DetailSettings {
    /// The settings made usable: non-negative, finite distances in order (a later one never
    /// before an earlier one), intervals 1..8, a radius and fade that are finite and not negative.
    pub fn validate(&mut self) {
        *self = self.usable();
    }

    fn usable(self) -> Self {
        let m = |v: f32| if v.is_finite() { v.max(0.0) } else { 0.0 };
        let reduced = m(self.reduced_beyond_m);
        let low = m(self.low_beyond_m).max(reduced);
        let off = m(self.off_beyond_m);
        Self {
            reduced_beyond_m: reduced,
            low_beyond_m: low,
            off_beyond_m: if off > 0.0 { off.max(low) } else { 0.0 },
            hysteresis_m: m(self.hysteresis_m),
            reduced_interval_frames: crate::crowd::budget::interval_frames(
                self.reduced_interval_frames.into(),
            ),
            low_interval_frames: crate::crowd::budget::interval_frames(
                self.low_interval_frames.into(),
            ),
            cull_unseen: self.cull_unseen,
            body_radius_m: m(self.body_radius_m),
            fade_s: m(self.fade_s),
        }
    }

    /// The level for a body at `distance_m` from the nearest view, `seen` by a view or not, that
    /// ran at `previous` last frame: coarser only `hysteresis_m` past a boundary, finer only as
    /// far inside it. With no previous level to hold (a new body, or one seen again after a
    /// cull: nobody saw its last level), the level the distance gives. Unseen (with
    /// `cull_unseen`) is off; a distance that is not a number keeps the previous level.
    pub fn level(&self, previous: Option<DetailLevel>, distance_m: f32, seen: bool) -> DetailLevel {
        if self.cull_unseen && !seen {
            return DetailLevel::Off;
        }
        let Some(previous) = previous else {
            return if distance_m.is_nan() {
                DetailLevel::Full
            } else {
                self.by_distance(distance_m)
            };
        };
        if distance_m.is_nan() {
            return previous;
        }
        // Negative (or NaN) hysteresis is none: the band's ends must not cross.
        let h = self.hysteresis_m.max(0.0);
        let finer = self.by_distance(distance_m - h);
        let coarser = self.by_distance(distance_m + h);
        previous.clamp(finer, coarser)
    }

    /// The level the distance alone gives, without hysteresis.
    pub fn by_distance(&self, distance_m: f32) -> DetailLevel {
        if self.off_beyond_m > 0.0 && distance_m > self.off_beyond_m {
            DetailLevel::Off
        } else if distance_m > self.low_beyond_m {
            DetailLevel::Low
        } else if distance_m > self.reduced_beyond_m {
            DetailLevel::Reduced
        } else {
            DetailLevel::Full
        }
    }
}

/// What one view sees: its frustum's six planes in the world, each `(normal, offset)` with the
/// inside where `normal . p + offset >= 0`, and its eye.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewVolume {
    planes: [Vec4; 6],
    /// The view's eye (world).
    pub eye: Vec3,
}

impl ViewVolume {
    /// The volume of a camera at `eye` whose `view_projection` takes world points to clip space
    /// (OpenGL's, z in -1..1, as Godot's `Projection` is): the planes are the clip space's
    /// bounds taken back to the world (Gribb and Hartmann). `None` if the matrix has a
    /// non-finite entry or a plane is degenerate.
    pub fn from_view_projection(view_projection: Mat4, eye: Vec3) -> Option<Self> {
        let m = view_projection.transpose();
        let (r0, r1, r2, r3) = (m.x_axis, m.y_axis, m.z_axis, m.w_axis);
        let raw = [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r3 + r2, r3 - r2];
        let mut planes = [Vec4::ZERO; 6];
        for (p, r) in planes.iter_mut().zip(raw) {
            let n = r.truncate().length();
            if !(n.is_finite() && n > 1e-12 && r.is_finite()) {
                return None;
            }
            *p = r / n;
        }
        eye.is_finite().then_some(Self { planes, eye })
    }

    /// Whether any part of the sphere at `center` of `radius` is inside the volume (a sphere
    /// near a corner may count as inside: never the other way round).
    pub fn sees_sphere(&self, center: Vec3, radius: f32) -> bool {
        self.planes
            .iter()
            .all(|p| p.truncate().dot(center) + p.w >= -radius)
    }
}

/// What every view sees: a body is seen when one of them sees it, and its distance is to the
/// nearest eye. With no view at all, everything counts as seen and near (a scene without a
/// camera culls nothing).
pub fn seen_and_distance(views: &[ViewVolume], center: Vec3, radius: f32) -> (bool, f32) {
    if views.is_empty() {
        return (true, 0.0);
    }
    let seen = views.iter().any(|v| v.sees_sphere(center, radius));
    let distance = views
        .iter()
        .map(|v| v.eye.distance(center))
        .fold(f32::INFINITY, f32::min);
    (seen, distance)
}

/// A cross-fade from the pose shown when the level changed to the new level's, over
/// [`DetailSettings::fade_s`].
#[derive(Clone, Debug, Default)]
pub struct LevelFade {
    /// The rotations shown at the change (engine bone, local rotation), in the order written.
    from: Vec<(i32, Quat)>,
    /// The hips' position shown at the change.
    from_hips: Option<Vec3>,
    elapsed_s: f32,
    duration_s: f32,
}

impl LevelFade {
    /// Starts a fade from `shown` (the last rotations written) and `hips` over `duration_s`
    /// (none when 0). Keeps the buffer: no allocation after the first fade of as many bones.
    pub fn start(&mut self, shown: &[(i32, Quat)], hips: Option<Vec3>, duration_s: f32) {
        self.from.clear();
        self.from.extend_from_slice(shown);
        self.from_hips = hips;
        self.elapsed_s = 0.0;
        self.duration_s = if duration_s.is_finite() {
            duration_s.max(0.0)
        } else {
            0.0
        };
    }

    /// Moves the fade on by a frame of `dt` seconds.
    pub fn advance(&mut self, dt: f32) {
        if dt.is_finite() && dt > 0.0 {
            self.elapsed_s += dt;
        }
    }

    /// Whether a fade is under way.
    pub fn active(&self) -> bool {
        self.elapsed_s < self.duration_s && !self.from.is_empty()
    }

    /// How much of the new pose shows (0..1, eased in and out).
    pub fn weight(&self) -> f32 {
        if !self.active() {
            return 1.0;
        }
        crate::maths::smoothing::smoothstep((self.elapsed_s / self.duration_s).clamp(0.0, 1.0))
    }

    /// `rotations` (engine bone, local rotation) faded in from the pose at the change, in place:
    /// a bone that was not shown then comes in as it is.
    pub fn apply(&self, rotations: &mut [(i32, Quat)]) {
        if !self.active() {
            return;
        }
        let w = self.weight();
        for (k, (bone, q)) in rotations.iter_mut().enumerate() {
            // The same bones in the same order, as a body writes them: found at once.
            let from = match self.from.get(k) {
                Some((b, f)) if b == bone => Some(*f),
                _ => self.from.iter().find(|(b, _)| b == bone).map(|(_, f)| *f),
            };
            if let Some(f) = from {
                let f = if f.dot(*q) < 0.0 { -f } else { f };
                *q = f.slerp(*q, w).normalize();
            }
        }
    }

    /// The hips' position faded in from the one at the change.
    pub fn apply_hips(&self, hips: Vec3) -> Vec3 {
        match (self.active(), self.from_hips) {
            (true, Some(f)) => f.lerp(hips, self.weight()),
            _ => hips,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_coarsens_with_distance_and_off_only_when_asked() {
        let s = DetailSettings::default();
        let at = |d| s.by_distance(d);
        assert_eq!(at(1.0), DetailLevel::Full);
        assert_eq!(at(6.0), DetailLevel::Reduced);
        assert_eq!(at(20.0), DetailLevel::Low);
        assert_eq!(at(1000.0), DetailLevel::Low, "off_beyond_m 0: never off");
        let far = DetailSettings {
            off_beyond_m: 40.0,
            ..s
        };
        assert_eq!(far.by_distance(41.0), DetailLevel::Off);
    }

    #[test]
    fn a_body_at_a_boundary_does_not_switch_back_and_forth() {
        let s = DetailSettings::default();
        let mut level = DetailLevel::Full;
        let mut changes = 0;
        for k in 0..200 {
            // Wandering 30 cm either side of the 5 m boundary.
            let d = 5.0 + 0.3 * (k as f32 * 0.3).sin();
            let next = s.level(Some(level), d, true);
            changes += usize::from(next != level);
            level = next;
        }
        assert_eq!(changes, 0, "held inside the hysteresis band");
        assert_eq!(
            s.level(Some(DetailLevel::Full), 5.6, true),
            DetailLevel::Reduced
        );
        assert_eq!(
            s.level(Some(DetailLevel::Reduced), 4.4, true),
            DetailLevel::Full
        );
        assert_eq!(
            s.level(Some(DetailLevel::Reduced), 4.6, true),
            DetailLevel::Reduced
        );
        // A jump across two boundaries goes straight there.
        assert_eq!(
            s.level(Some(DetailLevel::Full), 30.0, true),
            DetailLevel::Low
        );
        assert_eq!(
            s.level(Some(DetailLevel::Low), 1.0, true),
            DetailLevel::Full
        );
    }

    #[test]
    fn an_unseen_body_is_off_and_comes_back_at_its_distances_level() {
        let s = DetailSettings::default();
        assert_eq!(
            s.level(Some(DetailLevel::Full), 1.0, false),
            DetailLevel::Off
        );
        assert_eq!(
            s.level(Some(DetailLevel::Off), 1.0, true),
            DetailLevel::Full
        );
        assert_eq!(
            s.level(Some(DetailLevel::Off), 8.0, true),
            DetailLevel::Reduced
        );
        let no_cull = DetailSettings {
            cull_unseen: false,
            ..s
        };
        assert_eq!(
            no_cull.level(Some(DetailLevel::Full), 1.0, false),
            DetailLevel::Full
        );
        assert_eq!(
            s.level(Some(DetailLevel::Reduced), f32::NAN, true),
            DetailLevel::Reduced
        );
        // Seen again after a cull at 4.8 m: the distance's own level, not the band's far end
        // (held from off, it would stay reduced until 4.5 m).
        assert_eq!(s.level(None, 4.8, true), DetailLevel::Full);
        assert_eq!(
            s.level(Some(DetailLevel::Off), 4.8, true),
            DetailLevel::Reduced
        );
        assert_eq!(s.level(None, f32::NAN, true), DetailLevel::Full);
        // Negative hysteresis is none (no panic from a band whose ends cross).
        let odd = DetailSettings {
            hysteresis_m: -3.0,
            ..s
        };
        assert_eq!(
            odd.level(Some(DetailLevel::Full), 5.2, true),
            DetailLevel::Reduced
        );
    }

    /// A camera at the origin looking along -Z (Godot's), 90 degrees wide, square.
    fn camera(eye: Vec3, yaw: f32) -> ViewVolume {
        // OpenGL's perspective (as Godot's `Projection`): 90 degrees, square, 0.05..100 m.
        let (f, near, far) = (1.0 / 45f32.to_radians().tan(), 0.05, 100.0);
        let projection = Mat4::from_cols(
            Vec4::new(f, 0.0, 0.0, 0.0),
            Vec4::new(0.0, f, 0.0, 0.0),
            Vec4::new(0.0, 0.0, (far + near) / (near - far), -1.0),
            Vec4::new(0.0, 0.0, 2.0 * far * near / (near - far), 0.0),
        );
        let world_from_camera = Mat4::from_rotation_translation(Quat::from_rotation_y(yaw), eye);
        ViewVolume::from_view_projection(projection * world_from_camera.inverse(), eye).unwrap()
    }

    #[test]
    fn a_view_sees_what_is_ahead_and_not_what_is_behind_or_aside() {
        let v = camera(Vec3::new(0.0, 1.6, 0.0), 0.0);
        assert!(v.sees_sphere(Vec3::new(0.0, 1.0, -5.0), 1.0), "ahead");
        assert!(!v.sees_sphere(Vec3::new(0.0, 1.0, 5.0), 1.0), "behind");
        assert!(!v.sees_sphere(Vec3::new(10.0, 1.0, -2.0), 1.0), "far aside");
        // Just outside the 45-degree edge, but its sphere reaches in.
        assert!(v.sees_sphere(Vec3::new(5.5, 1.0, -5.0), 1.0), "reaching in");
        assert!(
            !v.sees_sphere(Vec3::new(7.0, 1.0, -5.0), 1.0),
            "beyond the edge"
        );
        // Turned round, the view sees behind.
        let turned = camera(Vec3::new(0.0, 1.6, 0.0), std::f32::consts::PI);
        assert!(turned.sees_sphere(Vec3::new(0.0, 1.0, 5.0), 1.0));
    }

    #[test]
    fn a_body_is_seen_by_any_view_and_its_distance_is_to_the_nearest_eye() {
        let player = camera(Vec3::new(0.0, 1.6, 0.0), 0.0);
        let mirror = camera(Vec3::new(0.0, 1.6, 10.0), 0.0);
        let behind_player = Vec3::new(0.0, 1.0, 6.0);
        assert!(
            !seen_and_distance(&[player], behind_player, 1.0).0,
            "the player alone does not see it"
        );
        let (seen, d) = seen_and_distance(&[player, mirror], behind_player, 1.0);
        assert!(seen, "the mirror's camera does");
        assert!((d - Vec3::new(0.0, 0.6, 4.0).length()).abs() < 1e-4, "{d}");
        assert_eq!(seen_and_distance(&[], behind_player, 1.0), (true, 0.0));
    }

    #[test]
    fn a_degenerate_projection_is_refused() {
        assert!(ViewVolume::from_view_projection(Mat4::ZERO, Vec3::ZERO).is_none());
        let nan = Mat4::from_diagonal(Vec4::splat(f32::NAN));
        assert!(ViewVolume::from_view_projection(nan, Vec3::ZERO).is_none());
    }

    #[test]
    fn a_fade_eases_from_the_pose_at_the_change_to_the_new_one() {
        let from = [(3, Quat::IDENTITY), (5, Quat::from_rotation_x(0.4))];
        let mut fade = LevelFade::default();
        fade.start(&from, Some(Vec3::ZERO), 0.2);
        let target = Quat::from_rotation_z(1.0);
        let mut steps = Vec::new();
        let mut last = Quat::IDENTITY;
        for _ in 0..30 {
            fade.advance(1.0 / 90.0);
            let mut r = [(3, target), (7, target)];
            fade.apply(&mut r);
            assert_eq!(
                r[1].1, target,
                "a bone not shown at the change comes in as it is"
            );
            steps.push(last.angle_between(r[0].1));
            last = r[0].1;
        }
        assert!(
            (last.angle_between(target)) < 1e-5,
            "the fade ends on the new pose"
        );
        let largest = steps.iter().cloned().fold(0.0, f32::max);
        // A 1-radian change over 18 frames, eased: no frame takes more than a sixth of it.
        assert!(largest < 1.0 / 6.0, "largest step {largest}");
        assert!(!fade.active());
        assert_eq!(fade.apply_hips(Vec3::X), Vec3::X);
    }

    #[test]
    fn settings_are_put_in_order_and_made_finite() {
        let s = DetailSettings {
            reduced_beyond_m: 10.0,
            low_beyond_m: 4.0,
            off_beyond_m: 2.0,
            hysteresis_m: f32::NAN,
            reduced_interval_frames: 0,
            low_interval_frames: 99,
            ..Default::default()
        }
        .usable();
        assert_eq!(
            (s.reduced_beyond_m, s.low_beyond_m, s.off_beyond_m),
            (10.0, 10.0, 10.0)
        );
        assert_eq!((s.reduced_interval_frames, s.low_interval_frames), (1, 8));
        assert_eq!(s.hysteresis_m, 0.0);
        let s = DetailSettings::default();
        assert_eq!(DetailLevel::Reduced.interval(&s, 1), 2);
        assert_eq!(
            DetailLevel::Reduced.interval(&s, 3),
            3,
            "never finer than asked"
        );
        assert_eq!(DetailLevel::Off.interval(&s, 1), 0);
    }
}
