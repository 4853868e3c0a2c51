//! Kneeling on one knee: when the hips stay lower than a kneeling thigh holds them for
//! `kneel_after_s`, the leg further back goes down on its knee (the knee on the floor ahead of
//! its hip joint, the shin lying back along the floor, the toes down) and the other foot steps
//! forward under its knee; a quick duck still squats. The body rises out of it as soon as the
//! hips are a little higher than a kneel holds them.

use glam::{Quat, Vec3};

use super::LowerBodySettings;
use super::legs::{LegRest, ToesRest};
use crate::maths::side::Side;

pub use super::leg_skin::KNEE_PAD_M;

/// How much higher than a kneel holds them the hips must rise to stand out of it (avatar
/// metres): a body hovering at the kneel's height does not flicker in and out.
pub const RISE_M: f32 = 0.08;

/// How far the kneeling foot turns its toes down (radians).
const TOES_DOWN: f32 = 1.0;

/// For a rig without toes bones: the ball of the foot ahead of its ankle, in ankle heights (a
/// grown-up's: the ankle 7 cm up, the ball and toes 14 cm ahead), on the floor.
const TOES_AHEAD: f32 = 2.0;

/// How long the legs take to go into a kneel or out of it (seconds): the foot turns its toes
/// down and the kneeling leg moves onto its knee over this time, not at once.
pub const BLEND_S: f32 = 0.25;

/// Faster than this (avatar metres per second) the body is moving, not kneeling: a crouched
/// walk stays a crouch, and moving off stands out of a kneel.
pub const MOVING_M_S: f32 = 0.3;

/// Whether the body kneels, across frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Kneel {
    side: Option<Side>,
    /// How long the hips have been low enough (seconds).
    low_for: f32,
    /// How far into the kneel the legs are (0..1), and the leg it is (kept while it eases out).
    weight: f32,
    shown: Option<Side>,
    /// The head's place last frame and its smoothed horizontal speed (world units per second).
    last_at: Option<Vec3>,
    speed: f32,
}

impl Kneel {
    /// Stands up at once (after a teleport or a new avatar).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// The leg kneeling now, if any.
    pub fn side(&self) -> Option<Side> {
        self.side
    }

    /// Whether the player moves faster than [`MOVING_M_S`]: the horizontal speed of `at` (world;
    /// the head's place, the player's own motion), smoothed over a fifth of a second; a jump of
    /// more than a metre (a teleport) is no speed.
    pub fn moving(&mut self, at: Vec3, scale: f32, dt: f32) -> bool {
        if let (Some(last), true) = (self.last_at, dt > 0.0 && at.is_finite()) {
            let moved = Vec3::new(at.x - last.x, 0.0, at.z - last.z).length();
            if moved < scale {
                let k = 1.0 - (-dt / 0.2).exp();
                self.speed += (moved / dt - self.speed) * k;
            }
        }
        if !self.speed.is_finite() {
            self.speed = 0.0;
        }
        self.last_at = Some(at).filter(|a| a.is_finite());
        self.speed > MOVING_M_S * scale
    }

    /// The leg shown kneeling and how far (0..1, easing in and out over [`BLEND_S`]).
    pub fn pose(&self) -> Option<(Side, f32)> {
        self.shown
            .filter(|_| self.weight > 0.0)
            .map(|s| (s, self.weight))
    }

    /// One frame of `dt` seconds: `hips_over_floor` the hips' height over the floor this frame
    /// would have them at, `kneel_height` the highest a kneeling thigh holds them (both world
    /// units), `back` the leg further back (the one that goes down), `moving` whether the
    /// player's head moves faster than [`MOVING_M_S`], `scale` world units per avatar metre.
    /// Returns the leg kneeling now.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        s: &LowerBodySettings,
        hips_over_floor: f32,
        kneel_height: f32,
        back: Side,
        moving: bool,
        scale: f32,
        dt: f32,
    ) -> Option<Side> {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        if !s.kneel || !hips_over_floor.is_finite() || !kneel_height.is_finite() {
            self.reset();
            return None;
        }
        if hips_over_floor < kneel_height && !moving {
            self.low_for += dt;
        } else {
            self.low_for = 0.0;
        }
        let rise = hips_over_floor > kneel_height + RISE_M * scale;
        if self.side.is_some() && (rise || moving) {
            self.side = None;
        } else if self.side.is_none() && self.low_for >= s.kneel_after_s {
            // A leg still easing out of a kneel goes down again: switching to the other leg
            // would move the partly kneeling pose from one leg to the other at once.
            let leg = self.shown.filter(|_| self.weight > 0.0).unwrap_or(back);
            self.side = Some(leg);
            self.shown = Some(leg);
        }
        let step = dt / BLEND_S;
        let goal = if self.side.is_some() { 1.0 } else { 0.0 };
        self.weight = crate::maths::smoothing::move_toward(self.weight, goal, step);
        self.side
    }
}

/// A kneeling leg for its hip joint at `hip` (world): the knee on the floor (its joint
/// [`LegRest::knee_pad`] over it) ahead of the hip along `forward` (horizontal, unit) where the
/// thigh reaches it, or straight under the hip when the hip is too high for that; the ankle a
/// shin's length behind the knee, raised so the toes turned down rest on the floor
/// ([`kneeling_ankle_height`]). Returns `(knee, ankle)`.
pub fn kneeling_leg(
    hip: Vec3,
    forward: Vec3,
    floor_y: f32,
    rest: &LegRest,
    scale: f32,
) -> (Vec3, Vec3) {
    let (_, shin) = rest.lengths;
    let pad = rest.knee_pad(scale);
    let knee = kneeling_knee(hip, forward, floor_y, rest.lengths.0, pad);
    let raised = kneeling_ankle_height(rest);
    let rise = (raised - pad).clamp(0.0, shin);
    let back = (shin * shin - rise * rise).max(0.0).sqrt();
    let ankle = Vec3::new(knee.x, floor_y + pad + rise, knee.z) - forward * back;
    (knee, ankle)
}

/// A kneeling knee for its hip joint at `hip` (world) and the thigh's length `thigh`: on the
/// floor (its joint `pad` over it: [`LegRest::knee_pad`]) along `toward` (horizontal, unit)
/// from under the hip where the thigh reaches it, or straight under the hip when the hip is too
/// high for that.
pub fn kneeling_knee(hip: Vec3, toward: Vec3, floor_y: f32, thigh: f32, pad: f32) -> Vec3 {
    let drop = hip.y - (floor_y + pad);
    let ahead = (thigh * thigh - drop * drop).max(0.0).sqrt();
    Vec3::new(hip.x, (hip.y - thigh).max(floor_y + pad), hip.z) + toward * ahead
}

/// The kneeling ankle's height over the floor: with the foot turned toes down
/// ([`kneeling_foot`]), the ball of the foot (its toes bone) at its standing height, so the
/// toes bent back flat ([`kneeling_toes`]) lie on the floor as they do standing; a rig without
/// toes bones puts a point [`TOES_AHEAD`] ankle heights ahead of the ankle on the floor.
pub fn kneeling_ankle_height(rest: &LegRest) -> f32 {
    let (ball, standing) = ball_of_foot(rest);
    standing - (Quat::from_rotation_x(TOES_DOWN) * ball).y
}

/// The ball of the foot from the ankle (world units, the root's facing frame) and its height
/// over the floor standing: the toes bone's, or for a rig without toes bones a point
/// [`TOES_AHEAD`] ankle heights ahead of the ankle, on the floor.
fn ball_of_foot(rest: &LegRest) -> (Vec3, f32) {
    match rest.toes {
        Some(t) => (t.ball_from_ankle, t.ball_height),
        None => (Vec3::new(0.0, -1.0, TOES_AHEAD) * rest.ankle_height, 0.0),
    }
}

/// How far the ankle, `ankle_over_floor` up, must rise for the ball of the foot to stand no
/// lower than it does standing while the foot is turned `w` (0..1) of the way to toes down
/// ([`kneeling_foot`]'s turn, easing into or out of a kneel): the toes turn down faster than
/// the ankle rises, and would go through the floor ([`ball_of_foot`]).
pub fn ball_clearance(rest: &LegRest, w: f32, ankle_over_floor: f32) -> f32 {
    let turned = Quat::from_rotation_x(TOES_DOWN * w.clamp(0.0, 1.0));
    let (ball, standing) = ball_of_foot(rest);
    let clearance = standing - (ankle_over_floor + (turned * ball).y);
    if clearance.is_finite() {
        clearance.max(0.0)
    } else {
        0.0
    }
}

/// The kneeling foot's rotation: its turn about +Y (`turn`), the toes down on the floor, from
/// its rest rotation relative to the root (`foot_in_root`).
pub fn kneeling_foot(turn: Quat, foot_in_root: Quat) -> Quat {
    (turn * Quat::from_rotation_x(TOES_DOWN) * foot_in_root).normalize()
}

/// The kneeling foot's toes (their rotation relative to the root, as the foot's): bent back at
/// the ball to lie flat on the floor as at rest, turned by `turn` about +Y.
pub fn kneeling_toes(turn: Quat, toes: &ToesRest) -> Quat {
    (turn * toes.toes_in_root).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> LowerBodySettings {
        LowerBodySettings {
            kneel: true,
            kneel_after_s: 0.5,
            ..Default::default()
        }
    }

    #[test]
    fn staying_low_kneels_on_the_back_leg_a_quick_duck_does_not_and_rising_stands() {
        let s = settings();
        let mut k = Kneel::default();
        let dt = 1.0 / 90.0;
        let frames = |k: &mut Kneel, h: f32, n: usize, back: Side| {
            (0..n)
                .map(|_| k.update(&s, h, 0.5, back, false, 1.0, dt))
                .last()
                .flatten()
        };
        // A quick duck (0.3 s low) squats.
        assert_eq!(frames(&mut k, 0.4, 27, Side::Right), None);
        assert_eq!(frames(&mut k, 0.9, 10, Side::Right), None);
        // Staying low kneels on the leg further back.
        assert_eq!(frames(&mut k, 0.4, 40, Side::Left), None);
        assert_eq!(frames(&mut k, 0.4, 10, Side::Left), Some(Side::Left));
        // Hovering just over the kneel's height: still kneeling (which leg does not change).
        assert_eq!(frames(&mut k, 0.55, 30, Side::Right), Some(Side::Left));
        // Rising 8 cm over it stands.
        assert_eq!(frames(&mut k, 0.59, 1, Side::Right), None);
        let off = LowerBodySettings { kneel: false, ..s };
        let mut k = Kneel::default();
        for _ in 0..200 {
            assert_eq!(k.update(&off, 0.3, 0.5, Side::Left, false, 1.0, dt), None);
        }
        assert_eq!(
            k.update(&s, f32::NAN, 0.5, Side::Left, false, 1.0, dt),
            None
        );
    }

    /// At twice the size the rise out of a kneel is twice as high; a reset stands up at once.
    #[test]
    fn a_larger_avatar_rises_out_of_it_in_proportion_and_a_reset_stands() {
        let s = settings();
        let mut k = Kneel::default();
        for _ in 0..60 {
            k.update(&s, 0.8, 1.0, Side::Right, false, 2.0, 1.0 / 90.0);
        }
        assert_eq!(k.side(), Some(Side::Right));
        assert_eq!(
            k.update(&s, 1.15, 1.0, Side::Left, false, 2.0, 0.0),
            Some(Side::Right)
        );
        assert_eq!(k.update(&s, 1.17, 1.0, Side::Left, false, 2.0, 0.0), None);
        for _ in 0..60 {
            k.update(&s, 0.8, 1.0, Side::Right, false, 2.0, 1.0 / 90.0);
        }
        k.reset();
        assert_eq!(k.side(), None);
        assert_eq!(
            k.update(&s, 0.8, 1.0, Side::Right, false, 2.0, 0.0),
            None,
            "low again: waits"
        );
    }

    /// Kneeling again while the last kneel still eases out goes down on the same leg, whichever
    /// is further back now: the pose never jumps from one leg to the other.
    #[test]
    fn kneeling_again_while_easing_out_keeps_the_leg() {
        // Kneeling again sooner than the leg eases out.
        let s = LowerBodySettings {
            kneel_after_s: 0.1,
            ..settings()
        };
        let dt = 1.0 / 90.0;
        let mut k = Kneel::default();
        for _ in 0..90 {
            k.update(&s, 0.4, 0.5, Side::Left, false, 1.0, dt);
        }
        assert_eq!(k.pose(), Some((Side::Left, 1.0)));
        // Moving off for a moment: easing out, the left leg still partly down.
        for _ in 0..5 {
            k.update(&s, 0.4, 0.5, Side::Right, true, 1.0, dt);
        }
        let (side, w) = k.pose().expect("easing out");
        assert!(side == Side::Left && w > 0.0 && w < 1.0, "{side:?} {w}");
        // Still again, low, the right leg now further back.
        let mut last = w;
        for _ in 0..90 {
            k.update(&s, 0.4, 0.5, Side::Right, false, 1.0, dt);
            let (side, w) = k.pose().expect("partly down throughout");
            assert_eq!(side, Side::Left, "the same leg goes down again");
            assert!(
                (w - last).abs() <= dt / BLEND_S + 1e-6,
                "no jump: {last} -> {w}"
            );
            last = w;
        }
        assert_eq!(k.side(), Some(Side::Left));
        // Fully up first, the leg further back kneels.
        for _ in 0..90 {
            k.update(&s, 0.9, 0.5, Side::Right, false, 1.0, dt);
        }
        assert_eq!(k.pose(), None);
        for _ in 0..90 {
            k.update(&s, 0.4, 0.5, Side::Right, false, 1.0, dt);
        }
        assert_eq!(k.side(), Some(Side::Right));
    }

    /// The kneeling foot's toes point down and forward, turned with the body.
    /// Moving keeps a crouch a crouch, and moving off stands out of a kneel; the legs ease in
    /// and out over BLEND_S.
    #[test]
    fn moving_does_not_kneel_and_the_kneel_eases_in_and_out() {
        let s = settings();
        let dt = 1.0 / 90.0;
        let mut k = Kneel::default();
        for _ in 0..200 {
            assert_eq!(k.update(&s, 0.4, 0.5, Side::Left, true, 1.0, dt), None);
        }
        for _ in 0..46 {
            k.update(&s, 0.4, 0.5, Side::Left, false, 1.0, dt);
        }
        let (side, w) = k.pose().expect("kneeling");
        assert!(side == Side::Left && w < 0.2, "easing in: {w}");
        for _ in 0..30 {
            k.update(&s, 0.4, 0.5, Side::Left, false, 1.0, dt);
        }
        assert_eq!(k.pose(), Some((Side::Left, 1.0)));
        assert_eq!(
            k.update(&s, 0.4, 0.5, Side::Left, true, 1.0, dt),
            None,
            "moving off"
        );
        let (_, w) = k.pose().expect("easing out");
        assert!(w < 1.0 && w > 0.9, "{w}");
        for _ in 0..30 {
            k.update(&s, 0.4, 0.5, Side::Left, true, 1.0, dt);
        }
        assert_eq!(k.pose(), None);
    }

    #[test]
    fn the_hips_moving_is_measured_frame_rate_free_and_a_teleport_is_not() {
        let at = |fps: f32, speed: f32| {
            let mut k = Kneel::default();
            let dt = 1.0 / fps;
            (0..(fps as usize))
                .map(|i| k.moving(Vec3::X * speed * i as f32 * dt, 1.0, dt))
                .last()
                .unwrap()
        };
        assert!(at(30.0, 0.5) && at(120.0, 0.5));
        assert!(!at(30.0, 0.1) && !at(120.0, 0.1));
        let mut k = Kneel::default();
        k.moving(Vec3::ZERO, 1.0, 0.01);
        assert!(!k.moving(Vec3::X * 5.0, 1.0, 0.01), "a teleport");
        assert!(!k.moving(Vec3::X * 5.0, 1.0, 0.01));
    }

    #[test]
    fn the_kneeling_toes_point_down() {
        let turn = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        let toes = kneeling_foot(turn, Quat::IDENTITY) * Vec3::Z;
        assert!(toes.y < -0.8 && toes.x > 0.5, "{toes}");
        let rest = Quat::from_rotation_x(0.3);
        let turned = kneeling_foot(Quat::IDENTITY, rest);
        assert!(turned.angle_between(Quat::from_rotation_x(TOES_DOWN) * rest) < 1e-5);
    }

    /// A leg's rest: thigh and shin, the ankle `ankle_height` up, no toes bones.
    fn leg_rest(lengths: (f32, f32), ankle_height: f32) -> LegRest {
        super::super::legs::plain_leg_rest(lengths, ankle_height)
    }

    #[test]
    fn the_knee_rests_on_the_floor_where_the_thigh_reaches_and_the_shin_lies_behind() {
        let (thigh, shin) = (0.42, 0.42);
        let rest = leg_rest((thigh, shin), 0.08);
        let hip = Vec3::new(0.1, 0.4, 0.2);
        let (knee, ankle) = kneeling_leg(hip, Vec3::Z, 0.0, &rest, 1.0);
        assert!((knee.y - KNEE_PAD_M).abs() < 1e-6, "{knee}");
        // Twice the size: the knee's pad twice as thick.
        let (big, _) = kneeling_leg(hip * 2.0, Vec3::Z, 0.0, &leg_rest((0.84, 0.84), 0.16), 2.0);
        assert!((big.y - 2.0 * KNEE_PAD_M).abs() < 1e-5, "{big}");
        assert!((knee.distance(hip) - thigh).abs() < 1e-5, "{knee}");
        assert!(knee.z > hip.z && (knee.x - hip.x).abs() < 1e-6);
        assert!((ankle.distance(knee) - shin).abs() < 1e-5, "{ankle}");
        // Without toes bones: raised so a point two ankle heights ahead, turned down, touches
        // the floor.
        let toes =
            ankle + kneeling_foot(Quat::IDENTITY, Quat::IDENTITY) * Vec3::new(0.0, -0.08, 0.16);
        assert!(
            toes.y.abs() < 1e-5 && ankle.z < knee.z,
            "the toes on the floor: {toes}"
        );
        // A hip higher than the thigh reaches down: the knee hangs under it.
        let (knee, _) = kneeling_leg(Vec3::new(0.0, 0.9, 0.0), Vec3::Z, 0.0, &rest, 1.0);
        assert!(knee.distance(Vec3::new(0.0, 0.48, 0.0)) < 1e-5, "{knee}");
    }

    /// With a toes bone measured (here the ball 13 cm ahead of the ankle and 2 cm up, a foot
    /// splayed out 20 degrees with its own bone axes), the turned-down foot puts the ball of the
    /// foot at its standing height, and the toes bent back lie as they do standing: flat.
    #[test]
    fn the_kneeling_ball_of_the_foot_stands_at_its_rest_height_and_the_toes_lie_flat() {
        let splay = Quat::from_rotation_y(0.35);
        let axes = Quat::from_rotation_z(1.2);
        let toes_rest = ToesRest {
            ball_from_ankle: splay * Vec3::new(0.0, -0.06, 0.13),
            ball_height: 0.02,
            toes_in_root: splay * axes,
        };
        let rest = LegRest {
            foot_in_root: splay * axes,
            toes: Some(toes_rest),
            ..leg_rest((0.42, 0.42), 0.08)
        };
        let turn = Quat::from_rotation_y(-0.7);
        let (_, ankle) = kneeling_leg(Vec3::new(0.0, 0.4, 0.0), turn * Vec3::Z, 0.1, &rest, 1.0);
        // The foot's rest-to-kneeling turn carries the rest ball offset with it.
        let foot = kneeling_foot(turn, rest.foot_in_root);
        let ball = ankle + foot * rest.foot_in_root.inverse() * toes_rest.ball_from_ankle;
        assert!(
            (ball.y - 0.12).abs() < 1e-5,
            "the ball 2 cm over the floor: {ball}"
        );
        let toes = kneeling_toes(turn, &toes_rest);
        assert!(toes.angle_between(turn * toes_rest.toes_in_root) < 1e-5);
        // The guessed foot would have put the ball elsewhere.
        let guessed = kneeling_ankle_height(&leg_rest((0.42, 0.42), 0.08));
        assert!((kneeling_ankle_height(&rest) - guessed).abs() > 0.01);
    }
}
