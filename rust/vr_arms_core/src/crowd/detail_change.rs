//! A remote body's level of detail from frame to frame ([`crate::crowd::crowd_detail`] gives the
//! levels): the sphere it is culled by, the level it runs at this frame, what a change of level
//! does to the skeleton outside the modifier pass, and the time a body off or unseen catches up
//! when it runs again. `VRRemoteBody` reads the engine (views, the head, visibility) and carries
//! these out.

use glam::Vec3;

use crate::crowd::crowd_detail::{DetailLevel, DetailSettings};

/// Where a body's chest is below its head (avatar metres): the culling sphere's centre.
pub const CHEST_BELOW_HEAD_M: f32 = 0.6;
/// Where a body's head is over its root when the head node cannot be read (avatar metres).
pub const HEAD_OVER_ROOT_M: f32 = 1.6;
/// The most time a body catches up when it runs again after being off or unseen (seconds):
/// its smoothing then settles at once rather than over the whole gap.
pub const LONGEST_CATCH_UP_S: f32 = 1.0;

/// An avatar's scale as the culling sphere takes it: 1 when it is not finite or not above 0.
pub fn usable_scale(scale: f32) -> f32 {
    if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    }
}

/// The centre of the sphere a body at `scale` is culled by: its chest, under the head at `head`
/// (world), else under where a standing head is over its root at `root`; `None` with neither.
pub fn body_sphere_center(head: Option<Vec3>, root: Option<Vec3>, scale: f32) -> Option<Vec3> {
    let scale = usable_scale(scale);
    let head = head.filter(|h| h.is_finite()).or_else(|| {
        root.filter(|r| r.is_finite())
            .map(|r| r + Vec3::Y * HEAD_OVER_ROOT_M * scale)
    })?;
    Some(head - Vec3::Y * (CHEST_BELOW_HEAD_M * scale))
}

/// A body's level this frame, and whether it is off because no view sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelChoice {
    pub level: DetailLevel,
    pub unseen: bool,
}

/// Where a body stands for the views this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sight {
    /// Hidden in the scene: off, and nobody saw its pose.
    Hidden,
    /// The level the game forces.
    Forced(DetailLevel),
    /// Whether a view sees it and its distance to the nearest (metres).
    Views { seen: bool, distance_m: f32 },
}

/// The level for a body that ran at `previous` last frame, `was_unseen` or not: the forced
/// one, off when hidden, else the one its views give, holding `previous` within the hysteresis
/// unless nobody saw it (seen again after a cull, it takes the level the distance gives).
pub fn choose_level(
    settings: &DetailSettings,
    sight: Sight,
    previous: DetailLevel,
    was_unseen: bool,
) -> LevelChoice {
    match sight {
        Sight::Hidden => LevelChoice {
            level: DetailLevel::Off,
            unseen: true,
        },
        Sight::Forced(level) => LevelChoice {
            level,
            unseen: false,
        },
        Sight::Views { seen, distance_m } => {
            let held = (!was_unseen).then_some(previous);
            let level = settings.level(held, distance_m, seen);
            LevelChoice {
                level,
                unseen: level == DetailLevel::Off && !seen,
            }
        }
    }
}

/// What a change of level does, in order, outside the modifier pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelChange {
    /// The fingers stop following the hands: keep the skeleton's own finger pose first, and
    /// after the body's pose write the fingers' last shown pose outside the pass (it persists
    /// while they hold it).
    pub stop_fingers: bool,
    /// Keep the skeleton's own pose of every body bone, then write the pose last shown over it
    /// (it persists: the body holds it until it solves again).
    pub keep_outside_pose: bool,
    /// Put the skeleton's own pose back: the body writes in the modifier pass again.
    pub put_back_outside_pose: bool,
    /// Put the skeleton's own finger pose back: the fingers follow the hands again.
    pub put_back_fingers: bool,
    /// Fade from the pose shown into the new level's.
    pub fade: bool,
}

impl LevelChange {
    /// The change from `from` to `to` for a body that was off unseen (`was_unseen`): nobody saw
    /// its old pose, so it comes back without a fade, as it does into off.
    pub fn between(from: DetailLevel, to: DetailLevel, was_unseen: bool) -> Self {
        Self {
            stop_fingers: from.fingers_live() && !to.fingers_live(),
            keep_outside_pose: from.writes_in_pass() && !to.writes_in_pass(),
            put_back_outside_pose: !from.writes_in_pass() && to.writes_in_pass(),
            put_back_fingers: !from.fingers_live() && to.fingers_live(),
            fade: from != to && to != DetailLevel::Off && !(from == DetailLevel::Off && was_unseen),
        }
    }
}

/// The time a body has not run, to catch up when it runs again.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CatchUp {
    /// Seconds spent off: the first solve after steps by them too.
    off_s: f32,
    /// Seconds the root has not followed the head (while unseen).
    unfollowed_s: f64,
}

impl CatchUp {
    /// A frame of `delta` seconds spent off.
    pub fn off_for(&mut self, delta: f64) {
        if delta.is_finite() {
            self.off_s += delta.max(0.0) as f32;
        }
    }

    /// The body follow's step this frame of `delta` seconds: none while `unseen` (the root
    /// stays), then the time since it last moved (at most [`LONGEST_CATCH_UP_S`] more).
    pub fn follow_step(&mut self, unseen: bool, delta: f64) -> Option<f64> {
        let delta = if delta.is_finite() {
            delta.max(0.0)
        } else {
            0.0
        };
        if unseen {
            self.unfollowed_s += delta;
            return None;
        }
        Some(delta + std::mem::take(&mut self.unfollowed_s).min(LONGEST_CATCH_UP_S as f64))
    }

    /// The time step of a solve whose own step is `dt`, with the time spent off since the last
    /// (at most [`LONGEST_CATCH_UP_S`]).
    pub fn solve_step(&mut self, dt: f32) -> f32 {
        dt + std::mem::take(&mut self.off_s).min(LONGEST_CATCH_UP_S)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DetailLevel::*;

    /// The sphere sits at the chest under the head, scaled with the avatar; without a head it
    /// stands over the root at a standing head's height; with neither there is none.
    #[test]
    fn the_sphere_is_at_the_chest() {
        let head = Vec3::new(1.0, 1.7, 2.0);
        assert_eq!(
            body_sphere_center(Some(head), None, 1.0),
            Some(Vec3::new(1.0, 1.1, 2.0))
        );
        let half = body_sphere_center(Some(head), Some(Vec3::ZERO), 0.5).unwrap();
        assert!((half.y - 1.4).abs() < 1e-6, "{half}");
        let root = body_sphere_center(None, Some(Vec3::new(0.0, 0.2, 0.0)), 2.0).unwrap();
        assert!((root.y - (0.2 + 3.2 - 1.2)).abs() < 1e-5, "{root}");
        assert_eq!(body_sphere_center(Some(Vec3::NAN), None, 1.0), None);
        assert_eq!(body_sphere_center(None, None, 1.0), None);
        for bad in [f32::NAN, f32::INFINITY, 0.0, -1.0] {
            let c = body_sphere_center(Some(head), None, bad).unwrap();
            assert!((c.y - 1.1).abs() < 1e-6, "{bad}: {c}");
        }
    }

    #[test]
    fn hidden_is_off_and_unseen_forced_is_the_forced_level() {
        let s = DetailSettings::default();
        assert_eq!(
            choose_level(&s, Sight::Hidden, Full, false),
            LevelChoice {
                level: Off,
                unseen: true
            }
        );
        assert_eq!(
            choose_level(&s, Sight::Forced(Low), Full, true),
            LevelChoice {
                level: Low,
                unseen: false
            }
        );
    }

    /// Near the reduced boundary a body holds its level within the hysteresis; seen again after
    /// a cull it takes the level the distance gives; not seen, it is off and unseen.
    #[test]
    fn views_give_the_level_held_within_the_hysteresis_unless_culled() {
        let s = DetailSettings::default();
        let just_past = Sight::Views {
            seen: true,
            distance_m: s.reduced_beyond_m + 0.5 * s.hysteresis_m,
        };
        assert_eq!(choose_level(&s, just_past, Full, false).level, Full);
        assert_eq!(choose_level(&s, just_past, Full, true).level, Reduced);
        let behind = Sight::Views {
            seen: false,
            distance_m: 1.0,
        };
        assert_eq!(
            choose_level(&s, behind, Full, false),
            LevelChoice {
                level: Off,
                unseen: true
            }
        );
        // Off because it is far, but seen: not unseen (it comes back with a fade). Near and
        // unseen without the cull: not off, so not unseen either.
        let far = DetailSettings {
            off_beyond_m: 30.0,
            ..s
        };
        let seen_far = Sight::Views {
            seen: true,
            distance_m: 40.0,
        };
        assert_eq!(
            choose_level(&far, seen_far, Low, false),
            LevelChoice {
                level: Off,
                unseen: false
            }
        );
        let no_cull = DetailSettings {
            cull_unseen: false,
            ..s
        };
        assert!(!choose_level(&no_cull, behind, Full, false).unseen);
    }

    /// The settings made usable through `validate`: a distance that is not a number is 0.
    #[test]
    fn validate_makes_the_settings_usable() {
        let mut s = DetailSettings {
            low_beyond_m: f32::NAN,
            fade_s: f32::INFINITY,
            ..DetailSettings::default()
        };
        s.validate();
        assert!(s.low_beyond_m.is_finite() && s.fade_s.is_finite(), "{s:?}");
    }

    /// Each change keeps or puts back what the levels write outside the pass, and fades unless
    /// it goes off or comes back from unseen.
    #[test]
    fn a_change_of_level_keeps_and_puts_back_what_it_must() {
        let down = LevelChange::between(Full, Low, false);
        assert!(down.stop_fingers && down.keep_outside_pose && down.fade);
        assert!(!down.put_back_outside_pose && !down.put_back_fingers);
        let up = LevelChange::between(Low, Full, false);
        assert!(up.put_back_outside_pose && up.put_back_fingers && up.fade);
        assert!(!up.stop_fingers && !up.keep_outside_pose);
        let reduced = LevelChange::between(Full, Reduced, false);
        assert!(reduced.stop_fingers && !reduced.keep_outside_pose);
        assert!(!LevelChange::between(Full, Off, false).fade);
        assert!(!LevelChange::between(Off, Full, true).fade);
        assert!(LevelChange::between(Off, Full, false).fade);
        assert_eq!(
            LevelChange::between(Low, Low, false),
            LevelChange::default()
        );
    }

    /// Time off is caught up at the next solve, time unfollowed at the next follow, each at
    /// most a second, and each once.
    #[test]
    fn time_off_is_caught_up_once_and_at_most_a_second() {
        let mut c = CatchUp::default();
        c.off_for(0.25);
        c.off_for(0.25);
        assert!((c.solve_step(0.01) - 0.51).abs() < 1e-6);
        assert!((c.solve_step(0.01) - 0.01).abs() < 1e-6);
        c.off_for(5.0);
        assert!((c.solve_step(0.0) - 1.0).abs() < 1e-6);
        assert_eq!(c.follow_step(true, 0.5), None);
        assert_eq!(c.follow_step(true, 2.0), None);
        assert_eq!(c.follow_step(false, 0.01), Some(1.01));
        assert_eq!(c.follow_step(false, 0.01), Some(0.01));
        c.off_for(f64::NAN);
        assert_eq!(c.solve_step(0.0), 0.0);
    }
}
