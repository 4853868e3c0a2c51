//! The feet: each stays planted on the floor until the body moves or turns away from it, then
//! steps to its place under the body in an arc, one foot at a time (as VRIK's procedural
//! locomotion and Unreal's Locomotor do). A planted foot never slides.

use glam::Vec3;

use super::LowerBodySettings;
use super::gait::Gait;
use crate::side::{PerSide, Side};
use crate::smoothing::smoothstep;

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
    /// The quickest a foot swings (`step_time_s`, seconds).
    quickest_s: f32,
}

/// Time constant of the body's smoothed velocity (seconds).
const VELOCITY_TIME_S: f32 = 0.1;

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

    /// The leg cannot reach this planted foot from where the body is going: it steps next
    /// ([`Feet::strain`]). With a walker's gait (`walking`: the speed, world units a second,
    /// above which the body walks) the other foot, if stepping, hurries its landing, and a foot
    /// ahead of a walking body is not stepped again: it is where the body is going, the body
    /// comes over it.
    pub fn out_of_reach(&mut self, side: Side, walking: Option<f32>) {
        let Some(walking) = walking else {
            self.strain(side);
            return;
        };
        self.hurry(side);
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
    /// step in no more than the quickest swing (`step_time_s`) from now.
    fn hurry(&mut self, planted: Side) {
        let other = Side::BOTH[1 - planted.index()];
        if let (Some(step), quickest) = (self.step.get_mut(other), self.quickest_s)
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

    /// The body's smoothed horizontal speed (world units per second).
    pub fn speed(&self) -> f32 {
        self.velocity.length()
    }

    /// Whether a foot is stepping now.
    pub fn stepping(&self, side: Side) -> bool {
        self.step.get(side).is_some()
    }

    /// One frame of `dt` seconds: `homes` are the feet's places under the body now, `scale`
    /// world units per avatar metre, `leg` the legs' length (world units: the hips' standing
    /// height) for the walking gait.
    pub fn update(
        &mut self,
        s: &LowerBodySettings,
        homes: PerSide<FootPlace>,
        (scale, leg): (f32, f32),
        dt: f32,
    ) -> PerSide<FootTarget> {
        self.update_on(s, homes, (scale, leg), dt, &mut |p| p)
    }

    /// [`Feet::update`] with the feet's landings set on the ground by `on_ground` (a place on
    /// the floor to the same place on the ground under it): a foot steps up or down onto it.
    pub fn update_on(
        &mut self,
        s: &LowerBodySettings,
        homes: PerSide<FootPlace>,
        (scale, leg): (f32, f32),
        dt: f32,
        on_ground: &mut dyn FnMut(Vec3) -> Vec3,
    ) -> PerSide<FootTarget> {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        self.quickest_s = s.step_time_s;
        let reach = s.step_distance_m * scale;
        // Where a step lands: ahead of a moving body by the gait's lead. Whether a foot must
        // step is measured from where the body is (`homes`).
        self.track_velocity(homes, reach, dt);
        let gait = Gait::at(s, self.velocity.length() / scale, leg / scale);
        let mut landings = self.lead(homes, gait.lead_m * scale, reach);
        for side in Side::BOTH {
            let landing = landings.get_mut(side);
            landing.position = on_ground(landing.position);
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

    /// The body's smoothed horizontal velocity from between the feet's places; a jump of the
    /// body (a teleport) starts it afresh.
    fn track_velocity(&mut self, homes: PerSide<FootPlace>, reach: f32, dt: f32) {
        let center = (homes.left.position + homes.right.position) * 0.5;
        match self.last_center {
            Some(last) if dt > 0.0 && last.distance(center) <= 8.0 * reach => {
                let mut v = (center - last) / dt;
                v.y = 0.0;
                let a = 1.0 - (-dt / VELOCITY_TIME_S).exp();
                self.velocity = crate::finite::vec3_or(self.velocity.lerp(v, a), Vec3::ZERO);
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
mod tests {
    use super::*;

    fn homes(x: f32, z: f32, yaw: f32) -> PerSide<FootPlace> {
        let at = |dx: f32| FootPlace {
            position: Vec3::new(x + dx * yaw.cos(), 0.0, z - dx * yaw.sin()),
            yaw,
        };
        PerSide::new(at(0.1), at(-0.1))
    }

    fn run(feet: &mut Feet, h: PerSide<FootPlace>, frames: usize) -> Vec<PerSide<FootTarget>> {
        run_with(&LowerBodySettings::default(), feet, h, frames)
    }

    fn run_with(
        s: &LowerBodySettings,
        feet: &mut Feet,
        h: PerSide<FootPlace>,
        frames: usize,
    ) -> Vec<PerSide<FootTarget>> {
        (0..frames)
            .map(|_| feet.update(s, h, (1.0, 0.9), 1.0 / 90.0))
            .collect()
    }

    #[test]
    fn feet_plant_where_they_stand_and_stay_while_the_body_sways() {
        let mut f = Feet::default();
        let first = run(&mut f, homes(0.0, 0.0, 0.0), 1)[0];
        assert!(first.left.planted && first.left.place.position.x == 0.1);
        // The body sways (and turns) short of the step distance and angle: nothing moves.
        let s = LowerBodySettings::default();
        let sway = 0.8 * s.step_distance_m;
        let turn = 0.8 * s.step_angle_deg.to_radians();
        for t in run(&mut f, homes(sway, 0.0, turn.min(0.2)), 60) {
            assert_eq!(t.left.place.position, Vec3::new(0.1, 0.0, 0.0));
            assert_eq!(t.right.place.position, Vec3::new(-0.1, 0.0, 0.0));
        }
    }

    #[test]
    fn a_body_moved_away_steps_one_foot_at_a_time_in_an_arc() {
        // Without the step lead: a body that jumps 40 cm in one frame has, for a moment, a
        // velocity the lead would land the feet ahead of (the walking test has the lead).
        let s = LowerBodySettings {
            step_lead: 0.0,
            ..Default::default()
        };
        let mut f = Feet::default();
        run_with(&s, &mut f, homes(0.0, 0.0, 0.0), 1);
        let walked = run_with(&s, &mut f, homes(0.0, 0.4, 0.0), 90);
        let mut highest = 0.0f32;
        for t in &walked {
            assert!(t.left.planted || t.right.planted, "one foot at a time");
            for foot in [t.left, t.right] {
                assert!(foot.place.position.y >= 0.0, "never under the floor");
                highest = highest.max(foot.place.position.y);
                if foot.planted {
                    assert_eq!(foot.place.position.y, 0.0);
                }
            }
        }
        assert!(
            (highest - 0.07).abs() < 0.005,
            "lifted by the step height: {highest}"
        );
        let last = walked.last().unwrap();
        assert!(last.left.planted && last.right.planted);
        assert!(last.left.place.position.distance(Vec3::new(0.1, 0.0, 0.4)) < 1e-5);
        assert!(
            last.right
                .place
                .position
                .distance(Vec3::new(-0.1, 0.0, 0.4))
                < 1e-5
        );
        // A step takes the step time: 0.3 s is 27 frames at 90 Hz, for each foot.
        let moving = walked
            .iter()
            .filter(|t| !t.left.planted || !t.right.planted)
            .count();
        assert!((50..=58).contains(&moving), "{moving} frames stepping");
    }

    #[test]
    fn turning_in_place_past_the_angle_steps_the_feet_round() {
        let mut f = Feet::default();
        run(&mut f, homes(0.0, 0.0, 0.0), 1);
        let turned = homes(0.0, 0.0, std::f32::consts::FRAC_PI_2);
        let t = run(&mut f, turned, 120);
        let last = t.last().unwrap();
        assert!((last.left.place.yaw - std::f32::consts::FRAC_PI_2).abs() < 1e-5);
        assert!(last.left.place.position.distance(turned.left.position) < 1e-5);
        // Only 30 degrees: under the angle, no step.
        let mut g = Feet::default();
        run(&mut g, homes(0.0, 0.0, 0.0), 1);
        let t = run(&mut g, homes(0.0, 0.0, 0.5), 60);
        assert!(t.iter().all(|t| t.left.planted && t.right.planted));
    }

    #[test]
    fn a_teleport_plants_the_feet_at_once_and_bad_time_steps_are_no_time() {
        let mut f = Feet::default();
        run(&mut f, homes(0.0, 0.0, 0.0), 1);
        let t = run(&mut f, homes(30.0, 0.0, 0.0), 1)[0];
        assert!(t.left.planted && (t.left.place.position.x - 30.1).abs() < 1e-4);
        let s = LowerBodySettings::default();
        let before = f;
        let t = f.update(&s, homes(30.0, 0.5, 0.0), (1.0, 0.9), f32::NAN);
        assert!(t.left.place.position.is_finite());
        assert_ne!(f, before, "a step starts");
        assert!((angle_between(0.1, std::f32::consts::TAU) - 0.1).abs() < 1e-5);
        assert!((angle_between(-3.0, 3.0) - (std::f32::consts::TAU - 6.0)).abs() < 1e-5);
    }

    /// Walking briskly (1.2 m/s for three seconds): with the step lead the feet land ahead of
    /// the moving body and it stays over them; without it they land where it was and trail.
    #[test]
    fn a_body_walking_briskly_keeps_its_feet_under_it() {
        let trail = |lead: f32| {
            let s = LowerBodySettings {
                step_lead: lead,
                ..Default::default()
            };
            let mut f = Feet::default();
            let mut worst = 0.0f32;
            for k in 0..270 {
                let z = 1.2 * k as f32 / 90.0;
                let t = f.update(&s, homes(0.0, z, 0.0), (1.0, 0.9), 1.0 / 90.0);
                let between = (t.left.place.position + t.right.place.position) * 0.5;
                if k > 45 {
                    worst = worst.max((between.z - z).abs());
                }
            }
            worst
        };
        let (with, without) = (trail(1.0), trail(0.0));
        assert!(with < 0.3, "with the lead the feet stay within {with} m");
        assert!(without > with + 0.1, "without: {without} m, with: {with} m");
    }

    /// A strain flagged just before a teleport asks for no step after it: the feet stand at
    /// their new places.
    #[test]
    fn a_teleport_forgets_the_strain() {
        let mut f = Feet::default();
        run(&mut f, homes(0.0, 0.0, 0.0), 1);
        f.strain(Side::Left);
        let t = run(&mut f, homes(30.0, 0.0, 0.0), 5);
        assert!(
            t.iter().all(|t| t.left.planted && t.right.planted),
            "no step"
        );
    }

    /// One foot's step onto ground `rise` metres up (or down) beyond z = 0.2, the body moved
    /// 0.4 m ahead: the stepping foot's positions, frame by frame, and where it started.
    fn step_onto(rise: f32) -> (Vec<Vec3>, Vec3) {
        let s = LowerBodySettings {
            step_lead: 0.0,
            ..Default::default()
        };
        let mut ground = |p: Vec3| {
            if p.z > 0.2 {
                Vec3::new(p.x, rise.max(0.0), p.z)
            } else {
                Vec3::new(p.x, (-rise).max(0.0), p.z)
            }
        };
        let mut f = Feet::default();
        f.update_on(
            &s,
            homes(0.0, 0.0, 0.0),
            (1.0, 0.9),
            1.0 / 90.0,
            &mut ground,
        );
        let from = f.place(Side::Left).unwrap().position;
        let mut path = Vec::new();
        for _ in 0..60 {
            let t = f.update_on(
                &s,
                homes(0.0, 0.4, 0.0),
                (1.0, 0.9),
                1.0 / 90.0,
                &mut ground,
            );
            if !t.left.planted {
                path.push(t.left.place.position);
            }
        }
        (path, from)
    }

    /// Up a step the foot rises before it moves over the edge; down one it moves over before
    /// it drops; either way smoothly (no more than 3.5 cm a frame at 90 Hz: the step's rise and
    /// lift at their fastest move about 2.5 cm).
    #[test]
    fn a_step_up_rises_first_and_a_step_down_moves_over_first() {
        for rise in [0.15f32, -0.15] {
            let (path, from) = step_onto(rise);
            assert!(
                path.len() > 20,
                "{rise}: a whole step ({} frames)",
                path.len()
            );
            for w in path.windows(2) {
                assert!(
                    w[0].distance(w[1]) < 0.035,
                    "{rise}: a jump {} -> {}",
                    w[0],
                    w[1]
                );
            }
            for p in &path {
                let over = (p.z - from.z) / 0.4;
                let up = p.y - from.y;
                if rise > 0.0 && over > 0.01 {
                    assert!(up > 0.5 * rise, "moving over before rising: {p}");
                }
                if rise < 0.0 && up < -0.01 {
                    assert!(over > 0.7, "dropping before moving over: {p}");
                }
            }
        }
    }

    /// A bigger avatar (scale 2) steps twice as far and lifts its foot twice as high: a 40 cm
    /// move is under its step distance, an 80 cm one is not.
    #[test]
    fn a_bigger_avatar_steps_further_and_lifts_higher() {
        let s = LowerBodySettings {
            step_lead: 0.0,
            ..Default::default()
        };
        let at = |x: f32, z: f32| {
            let mut h = homes(x, z, 0.0);
            h.left.position.x = x + 0.2;
            h.right.position.x = x - 0.2;
            h
        };
        let mut f = Feet::default();
        f.update(&s, at(0.0, 0.0), (2.0, 1.8), 1.0 / 90.0);
        for _ in 0..60 {
            let t = f.update(&s, at(0.0, 0.4), (2.0, 1.8), 1.0 / 90.0);
            assert!(
                t.left.planted && t.right.planted,
                "40 cm is short of 2 x 25 cm"
            );
        }
        let mut highest = 0.0f32;
        for _ in 0..90 {
            let t = f.update(&s, at(0.0, 0.8), (2.0, 1.8), 1.0 / 90.0);
            highest = highest
                .max(t.left.place.position.y)
                .max(t.right.place.position.y);
        }
        assert!((highest - 2.0 * s.step_height_m).abs() < 0.01, "{highest}");
    }

    /// Between the feet, a foot put where a kneeling knee puts it (its strain forgotten: no step
    /// on the spot after it), and a stepping foot neither replanted nor reported planted.
    #[test]
    fn the_center_replanting_and_stepping_are_what_they_say() {
        let mut f = Feet::default();
        assert_eq!(f.center(), None);
        let mut h = homes(0.0, 0.0, 0.0);
        h.right.position = Vec3::new(-0.3, 0.0, 0.2);
        f.update(&LowerBodySettings::default(), h, (1.0, 0.9), 1.0 / 90.0);
        let c = f.center().unwrap();
        assert!(c.distance(Vec3::new(-0.1, 0.0, 0.1)) < 1e-6, "{c}");
        // Replanted (within a step distance of its place): there; a strain asked before is
        // gone.
        f.strain(Side::Left);
        let kneel = FootPlace {
            position: Vec3::new(0.1, 0.0, -0.15),
            yaw: 0.2,
        };
        f.replant(Side::Left, kneel);
        assert_eq!(f.place(Side::Left), Some(kneel));
        let t = f.update(&LowerBodySettings::default(), h, (1.0, 0.9), 1.0 / 90.0);
        assert!(
            t.left.planted && !f.stepping(Side::Left),
            "no step on the spot"
        );
        // Non-finite places are refused.
        f.replant(
            Side::Left,
            FootPlace {
                position: Vec3::NAN,
                yaw: 0.0,
            },
        );
        f.replant(
            Side::Left,
            FootPlace {
                position: Vec3::ZERO,
                yaw: f32::NAN,
            },
        );
        assert_eq!(f.place(Side::Left), Some(kneel));
        // The body walks off: the left foot (further) steps; while it does it is not replanted.
        let far = homes(0.0, 0.5, 0.0);
        let t = f.update(&LowerBodySettings::default(), far, (1.0, 0.9), 1.0 / 90.0);
        assert!(f.stepping(Side::Left) && !f.stepping(Side::Right));
        assert!(!t.left.planted);
        f.replant(
            Side::Left,
            FootPlace {
                position: Vec3::new(5.0, 0.0, 5.0),
                yaw: 0.0,
            },
        );
        assert_eq!(
            f.place(Side::Left),
            Some(kneel),
            "a stepping foot's start stays"
        );
    }

    /// The body's velocity (for the step lead) starts afresh after a teleport and does not move
    /// on a frame without time: a step after a teleport does not land ahead by the speed the
    /// body had before it.
    #[test]
    fn a_teleport_or_a_frame_without_time_leaves_no_velocity_behind() {
        let s = LowerBodySettings::default();
        let mut f = Feet::default();
        for k in 0..90 {
            f.update(
                &s,
                homes(0.0, 1.2 * k as f32 / 90.0, 0.0),
                (1.0, 0.9),
                1.0 / 90.0,
            );
        }
        assert!(f.velocity.z > 1.0, "walking: {}", f.velocity);
        let v = f.velocity;
        f.update(&s, homes(0.0, 1.2, 0.0), (1.0, 0.9), 0.0);
        assert_eq!(f.velocity, v, "no time, no change");
        f.update(&s, homes(30.0, 1.2, 0.0), (1.0, 0.9), 1.0 / 90.0);
        assert_eq!(f.velocity, Vec3::ZERO, "a teleport");
    }

    /// Steps started while the body walks at `speed` m/s for four seconds (after one to get
    /// going).
    fn steps_walking(s: &LowerBodySettings, speed: f32) -> (usize, f32) {
        let mut f = Feet::default();
        let (mut count, mut swinging) = (0, 0);
        let mut was = (false, false);
        for k in 0..450 {
            let z = speed * k as f32 / 90.0;
            f.update(s, homes(0.0, z, 0.0), (1.0, 0.9), 1.0 / 90.0);
            let now = (f.stepping(Side::Left), f.stepping(Side::Right));
            if k >= 90 {
                count += usize::from(now.0 && !was.0) + usize::from(now.1 && !was.1);
                swinging += usize::from(now.0) + usize::from(now.1);
            }
            was = now;
        }
        (count, swinging as f32 / 90.0 / count.max(1) as f32)
    }

    /// With a walker's gait the feet step as often as a walker's at the body's speed (Alexander's
    /// relation: about 120 a minute at 1.3 m/s on 0.9 m legs, fewer slower); without it, a step
    /// whenever the body has moved the step distance, as often at every speed.
    #[test]
    fn a_walkers_gait_steps_as_often_as_a_walker_at_each_speed() {
        let gait = LowerBodySettings {
            stride_scale: 2.3,
            ..Default::default()
        };
        let per_min = |s: &LowerBodySettings, v: f32| steps_walking(s, v).0 as f32 * 60.0 / 4.0;
        // Each foot swings for most of the walker's step.
        let swing = steps_walking(&gait, 1.3).1;
        let walker = Gait::at(&gait, 1.3, 0.9).swing_s;
        assert!(
            (swing - walker).abs() < 0.05 && walker > gait.step_time_s + 0.05,
            "{swing} s a swing, a walker {walker}"
        );
        let (slow, brisk) = (per_min(&gait, 0.7), per_min(&gait, 1.3));
        let expected = |v: f32| 60.0 * v / Gait::at(&gait, v, 0.9).step_m;
        assert!(
            (brisk / expected(1.3) - 1.0).abs() < 0.2,
            "{brisk} a minute at 1.3 m/s, a walker {}",
            expected(1.3)
        );
        assert!(
            (slow / expected(0.7) - 1.0).abs() < 0.2,
            "{slow} a minute at 0.7 m/s, a walker {}",
            expected(0.7)
        );
        let fixed = per_min(&LowerBodySettings::default(), 1.3);
        assert!(
            fixed > 1.3 * brisk,
            "without the gait {fixed}, with {brisk}"
        );
    }

    /// A foot the leg cannot reach ahead of a walking body is where the body is going: no
    /// second step for it. Behind the body, or standing, it steps next; and the other foot, if
    /// stepping, lands within the quickest swing.
    #[test]
    fn a_foot_out_of_reach_ahead_of_a_walking_body_is_not_stepped_again() {
        let s = LowerBodySettings::default();
        let walk = |f: &mut Feet, from: usize, to: usize| {
            for k in from..to {
                let z = 1.2 * k as f32 / 90.0;
                f.update(&s, homes(0.0, z, 0.0), (1.0, 0.9), 1.0 / 90.0);
            }
        };
        let mut f = Feet::default();
        walk(&mut f, 0, 40);
        // Move the left foot's place well ahead of the body, then find it out of reach.
        let c = f.last_center.unwrap();
        f.step = PerSide::new(None, None);
        f.planted.left = Some(FootPlace {
            position: c + Vec3::Z * 0.4,
            yaw: 0.0,
        });
        f.out_of_reach(Side::Left, Some(0.3));
        assert!(!f.strained.left, "ahead of a walking body");
        f.planted.left = Some(FootPlace {
            position: c - Vec3::Z * 0.4,
            yaw: 0.0,
        });
        f.out_of_reach(Side::Left, Some(0.3));
        assert!(f.strained.left, "behind it");
        // The right foot half-way through a slow step: it lands within `step_time_s`.
        f.step.right = Some(Step {
            from: f.planted.right.unwrap(),
            t: 0.5,
            time_s: 2.0,
        });
        f.out_of_reach(Side::Left, Some(0.3));
        let st = f.step.right.unwrap();
        assert!(
            ((1.0 - st.t) * st.time_s - s.step_time_s).abs() < 1e-5,
            "{st:?}"
        );
        // Without the walker's gait: a plain strain, the other step as it was.
        f.strained.left = false;
        f.planted.left = Some(FootPlace {
            position: c + Vec3::Z * 0.4,
            yaw: 0.0,
        });
        let before = f.step.right;
        f.out_of_reach(Side::Left, None);
        assert!(f.strained.left && f.step.right == before);
    }
}
