//! The feet: each stays planted on the floor until the body moves or turns away from it, then
//! steps to its place under the body in an arc, one foot at a time (as VRIK's procedural
//! locomotion and Unreal's Locomotor do). A planted foot never slides.

use glam::Vec3;

use super::LowerBodySettings;
use super::gait::{Gait, WALKING_M_S};
use crate::maths::side::{PerSide, Side};
use crate::maths::smoothing::smoothstep;

/// Where a foot stands: a point on the floor (world) and the way it points (a yaw about +Y,
/// radians, 0 along +Z).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FootPlace {
    pub position: Vec3,
    pub yaw: f32,
}

/// A foot this frame: where it is (lifted off the floor while it steps) and whether it is
/// planted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FootTarget {
    pub place: FootPlace,
    pub planted: bool,
}

/// A step under way: where it started, how far it has got (0..1) and how long it takes
/// (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Step {
    from: FootPlace,
    t: f32,
    time_s: f32,
}

/// Both feet, across frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Feet {
    planted: PerSide<Option<FootPlace>>,
    step: PerSide<Option<Step>>,
    /// Between the feet's places last frame, and the body's horizontal velocity (smoothed).
    last_center: Option<Vec3>,
    velocity: Vec3,
    /// Feet whose legs could not reach them last frame (see [`Feet::strain`]).
    strained: PerSide<bool>,
    /// Feet the body has left far behind (see [`Feet::strand`]).
    stranded: PerSide<bool>,
}

/// Time constant of the body's smoothed velocity (seconds).
const VELOCITY_TIME_S: f32 = 0.1;
/// A foot lands at least this share of the feet's spacing beside the standing one, across the
/// body.
pub const CLEAR_SHARE: f32 = 0.25;
/// See [`CLEAR_SHARE`]: once the body has turned this far from the standing foot (degrees).
pub const CLEAR_TURN_DEG: f32 = 20.0;
/// See [`CLEAR_SHARE`]: while the body moves slower than this (avatar metres a second): turning on
/// the spot (the body swings round the head, ahead of the feet, at up to half of this), not
/// walking, where a stride's foot lands where it must.
pub const CLEAR_BELOW_M_S: f32 = 0.6;

/// `a - b` wrapped into (-pi, pi].
fn angle_between(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(std::f32::consts::TAU);
    if d > std::f32::consts::PI {
        d - std::f32::consts::TAU
    } else {
        d
    }
}

impl Feet {
    /// Forgets where the feet are: the next frame plants them at their places.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Between the feet where they stand (a stepping foot where its step started), on the
    /// floor; `None` before they are placed.
    pub fn center(&self) -> Option<Vec3> {
        let at = |side: Side| self.place(side).map(|p| p.position);
        Some((at(Side::Left)? + at(Side::Right)?) * 0.5)
    }

    /// The leg cannot reach this planted foot from where the body stands (feet left wide after
    /// a crouch, the body standing up): it steps to its place on the next frame, whatever the
    /// distance, if no other foot is stepping.
    pub fn strain(&mut self, side: Side) {
        *self.strained.get_mut(side) = true;
    }

    /// The body has left this planted foot far behind (the hips would sink well past what its
    /// heel lift gives to reach it: a body starting off fast, a lunge): it steps at once, even
    /// while the other foot is still in the air, rather than the head leaving the headset.
    pub fn strand(&mut self, side: Side) {
        *self.stranded.get_mut(side) = true;
        self.strain(side);
    }

    /// The leg cannot reach this planted foot from where the body is going: it steps next
    /// ([`Feet::strain`]). With a walker's gait (`stride_scale` above 0) the other foot, if
    /// stepping, hurries its landing, and a foot ahead of a body walking (faster than
    /// [`WALKING_M_S`]; `scale` world units per avatar metre) is not stepped again: it is where
    /// the body is going, the body comes over it.
    pub fn out_of_reach(&mut self, s: &LowerBodySettings, side: Side, scale: f32) {
        if s.stride_scale <= 0.0 {
            self.strain(side);
            return;
        }
        self.hurry(side, s.step_time_s);
        let walking = WALKING_M_S * scale;
        let ahead = match (*self.planted.get(side), self.last_center) {
            (Some(p), Some(c)) if self.velocity.length() > walking => {
                (p.position - c).dot(self.velocity) > 0.0
            }
            _ => false,
        };
        if !ahead {
            self.strain(side);
        }
    }

    /// A planted foot the body can no longer stand on: the other foot, if stepping, finishes its
    /// step in no more than the quickest swing (`quickest`, seconds: `step_time_s`) from now.
    fn hurry(&mut self, planted: Side, quickest: f32) {
        let other = Side::BOTH[1 - planted.index()];
        if let Some(step) = self.step.get_mut(other)
            && quickest > 0.0
        {
            let left = (1.0 - step.t) * step.time_s;
            if left > quickest {
                // The same progress, the rest of it in `quickest`.
                step.time_s = quickest / (1.0 - step.t).max(1e-3);
            }
        }
    }

    /// Plants a foot that is not stepping at `place` (a kneeling foot goes where the knee
    /// puts it).
    pub fn replant(&mut self, side: Side, place: FootPlace) {
        if self.step.get(side).is_none() && place.position.is_finite() && place.yaw.is_finite() {
            *self.planted.get_mut(side) = Some(place);
            // Where it belongs now: no step on the spot left over.
            *self.strained.get_mut(side) = false;
        }
    }

    /// Where a foot stands (a stepping foot where its step started); `None` before it is
    /// placed.
    pub fn place(&self, side: Side) -> Option<FootPlace> {
        match self.step.get(side) {
            Some(step) => Some(step.from),
            None => *self.planted.get(side),
        }
    }

    /// Whether a foot is stepping now.
    pub fn stepping(&self, side: Side) -> bool {
        self.step.get(side).is_some()
    }

    /// One frame of `dt` seconds: `homes` are the feet's places under the body now, `scale`
    /// world units per avatar metre, `leg` the legs' length (world units: the hips' standing
    /// height) for the walking gait. `on_ground` sets the feet's landings on the ground (a
    /// place on the floor to the same place on the ground under it; `|p| p`: the flat floor): a
    /// foot steps up or down onto it.
    pub fn update(
        &mut self,
        s: &LowerBodySettings,
        homes: PerSide<FootPlace>,
        (scale, leg): (f32, f32),
        dt: f32,
        on_ground: &dyn Fn(Vec3) -> Vec3,
    ) -> PerSide<FootTarget> {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        let reach = s.step_distance_m * scale;
        // Where a step lands: ahead of a moving body by the gait's lead. Whether a foot must
        // step is measured from where the body is (`homes`).
        self.track_velocity(homes, reach, dt);
        let gait = Gait::at(s, self.velocity.length() / scale, leg / scale);
        let mut landings = self.lead(homes, gait.lead_m * scale, reach);
        for side in Side::BOTH {
            // Beside the standing foot, never on it: a body turning faster than the feet step
            // brings one foot's place round onto where the other stands.
            let clear = self.clearance(side, &homes, landings.get(side).position, scale);
            let landing = landings.get_mut(side);
            landing.position = on_ground(landing.position + clear);
        }
        for side in Side::BOTH {
            let home = *homes.get(side);
            let planted = self.planted.get_mut(side);
            // The first frame, or the body carried far away at once (a teleport): stand there.
            let far = planted.is_none_or(|p| p.position.distance(home.position) > 8.0 * reach);
            if far {
                *planted = Some(FootPlace {
                    position: on_ground(home.position),
                    ..home
                });
                *self.step.get_mut(side) = None;
                // Standing where the body is now: no strain from before the jump.
                *self.strained.get_mut(side) = false;
                continue;
            }
            if let Some(step) = self.step.get_mut(side) {
                step.t += dt / step.time_s;
                if step.t >= 1.0 {
                    *planted = Some(*landings.get(side));
                    *self.step.get_mut(side) = None;
                }
            }
        }
        if Side::BOTH.iter().all(|&side| self.step.get(side).is_none()) {
            self.start_a_step(s, &homes, gait.lift_at_m * scale, gait.swing_s);
        }
        // A stranded foot goes now, whatever the other does, in the quickest swing.
        for side in Side::BOTH {
            if *self.stranded.get(side)
                && self.step.get(side).is_none()
                && let Some(from) = *self.planted.get(side)
            {
                *self.step.get_mut(side) = Some(Step {
                    from,
                    t: 0.0,
                    time_s: s.step_time_s,
                });
                *self.strained.get_mut(side) = false;
            }
            *self.stranded.get_mut(side) = false;
        }
        let target = |side: Side| {
            let home = *landings.get(side);
            let planted = self.planted.get(side).unwrap_or(home);
            match self.step.get(side) {
                None => FootTarget {
                    place: planted,
                    planted: true,
                },
                Some(step) => {
                    let t = step.t.clamp(0.0, 1.0);
                    let f = smoothstep(t);
                    let lift = s.step_height_m * scale * (std::f32::consts::PI * t).sin();
                    // Up a step (more than a centimetre) the foot rises in the first half of
                    // the step and moves forward in the last three quarters; down one, the other
                    // way round: it clears the edge either way.
                    let rise = home.position.y - step.from.position.y;
                    let (f, g) = if rise > 0.01 * scale {
                        (
                            smoothstep(((t - 0.25) / 0.75).max(0.0)),
                            smoothstep((2.0 * t).min(1.0)),
                        )
                    } else if rise < -0.01 * scale {
                        (
                            smoothstep((t / 0.75).min(1.0)),
                            smoothstep((2.0 * t - 1.0).max(0.0)),
                        )
                    } else {
                        (f, f)
                    };
                    let mut position = step.from.position.lerp(home.position, f);
                    position.y = step.from.position.y + rise * g + lift;
                    FootTarget {
                        place: FootPlace {
                            position,
                            yaw: step.from.yaw + angle_between(home.yaw, step.from.yaw) * f,
                        },
                        planted: false,
                    }
                }
            }
        };
        PerSide::new(target(Side::Left), target(Side::Right))
    }

    /// How far a foot landing at `at` must move out, across the body, to land beside the
    /// standing foot rather than on or across it: at least [`CLEAR_SHARE`] of the feet's
    /// spacing (`homes`) from it, on its own side, once the body has turned [`CLEAR_TURN_DEG`]
    /// from the standing foot, while it moves slower than [`CLEAR_BELOW_M_S`].
    fn clearance(&self, side: Side, homes: &PerSide<FootPlace>, at: Vec3, scale: f32) -> Vec3 {
        // Only turning on the spot, not walking (`scale` world units per avatar metre).
        if self.velocity.length() >= CLEAR_BELOW_M_S * scale {
            return Vec3::ZERO;
        }
        let other = Side::BOTH[1 - side.index()];
        // Only while the body turns away from the standing foot: walking sideways, the feet
        // come together.
        let Some(stand) = (*self.planted.get(other)).filter(|p| {
            angle_between(p.yaw, homes.get(other).yaw).abs() > CLEAR_TURN_DEG.to_radians()
        }) else {
            return Vec3::ZERO;
        };
        let mut across = homes.get(side).position - homes.get(other).position;
        across.y = 0.0;
        let Some(dir) = across.try_normalize() else {
            return Vec3::ZERO;
        };
        let apart = (at - stand.position).dot(dir);
        dir * (CLEAR_SHARE * across.length() - apart).max(0.0)
    }

    /// The body's smoothed horizontal velocity from between the feet's places; a jump of the
    /// body (a teleport) starts it afresh.
    fn track_velocity(&mut self, homes: PerSide<FootPlace>, reach: f32, dt: f32) {
        let center = (homes.left.position + homes.right.position) * 0.5;
        match self.last_center {
            Some(last) if dt > 0.0 && last.distance(center) <= 8.0 * reach => {
                let mut v = (center - last) / dt;
                v.y = 0.0;
                let a = 1.0 - (-dt / VELOCITY_TIME_S).exp();
                self.velocity = crate::maths::finite::vec3_or(self.velocity.lerp(v, a), Vec3::ZERO);
            }
            Some(_) if dt > 0.0 => self.velocity = Vec3::ZERO,
            _ => {}
        }
        self.last_center = Some(center).filter(|c| c.is_finite());
    }

    /// The feet's places moved `lead` ahead along the body's velocity (a moving body's feet
    /// land where it will be, not where it was), at most four step distances.
    fn lead(&self, homes: PerSide<FootPlace>, lead: f32, reach: f32) -> PerSide<FootPlace> {
        let lead = (self.velocity.normalize_or_zero() * lead).clamp_length_max(4.0 * reach);
        let ahead = |p: FootPlace| FootPlace {
            position: p.position + lead,
            yaw: p.yaw,
        };
        PerSide::new(ahead(homes.left), ahead(homes.right))
    }

    /// Starts the step of the foot furthest from its place (by distance against `reach`, or
    /// turn against `step_angle_deg`), when one is past either; it swings for `time_s`.
    fn start_a_step(
        &mut self,
        s: &LowerBodySettings,
        homes: &PerSide<FootPlace>,
        reach: f32,
        time_s: f32,
    ) {
        let need = |side: Side| {
            let (Some(p), home) = (*self.planted.get(side), homes.get(side)) else {
                return 0.0;
            };
            let d = Vec3::new(
                p.position.x - home.position.x,
                0.0,
                p.position.z - home.position.z,
            );
            let by_distance = d.length() / reach.max(1e-6);
            let by_turn = angle_between(p.yaw, home.yaw).abs() / s.step_angle_deg.to_radians();
            let strained = if *self.strained.get(side) {
                1.0 + by_distance
            } else {
                0.0
            };
            by_distance.max(by_turn).max(strained)
        };
        let (l, r) = (need(Side::Left), need(Side::Right));
        let (side, most) = if l >= r {
            (Side::Left, l)
        } else {
            (Side::Right, r)
        };
        if most > 1.0
            && let Some(from) = *self.planted.get(side)
        {
            *self.step.get_mut(side) = Some(Step {
                from,
                t: 0.0,
                time_s,
            });
            // A strained foot steps once; the other keeps its strain for its own step.
            *self.strained.get_mut(side) = false;
        }
    }
}

#[cfg(test)]
#[path = "feet_tests.rs"]
mod tests;
