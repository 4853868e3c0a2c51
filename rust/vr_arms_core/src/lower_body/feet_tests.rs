//! Tests of [`super::feet`].

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
        .map(|_| feet.update(s, h, (1.0, 0.9), 1.0 / 90.0, &|p| p))
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
    let t = f.update(&s, homes(30.0, 0.5, 0.0), (1.0, 0.9), f32::NAN, &|p| p);
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
            let t = f.update(&s, homes(0.0, z, 0.0), (1.0, 0.9), 1.0 / 90.0, &|p| p);
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
    let ground = |p: Vec3| {
        if p.z > 0.2 {
            Vec3::new(p.x, rise.max(0.0), p.z)
        } else {
            Vec3::new(p.x, (-rise).max(0.0), p.z)
        }
    };
    let mut f = Feet::default();
    f.update(&s, homes(0.0, 0.0, 0.0), (1.0, 0.9), 1.0 / 90.0, &ground);
    let from = f.place(Side::Left).unwrap().position;
    let mut path = Vec::new();
    for _ in 0..60 {
        let t = f.update(&s, homes(0.0, 0.4, 0.0), (1.0, 0.9), 1.0 / 90.0, &ground);
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
    f.update(&s, at(0.0, 0.0), (2.0, 1.8), 1.0 / 90.0, &|p| p);
    for _ in 0..60 {
        let t = f.update(&s, at(0.0, 0.4), (2.0, 1.8), 1.0 / 90.0, &|p| p);
        assert!(
            t.left.planted && t.right.planted,
            "40 cm is short of 2 x 25 cm"
        );
    }
    let mut highest = 0.0f32;
    for _ in 0..90 {
        let t = f.update(&s, at(0.0, 0.8), (2.0, 1.8), 1.0 / 90.0, &|p| p);
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
    f.update(
        &LowerBodySettings::default(),
        h,
        (1.0, 0.9),
        1.0 / 90.0,
        &|p| p,
    );
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
    let t = f.update(
        &LowerBodySettings::default(),
        h,
        (1.0, 0.9),
        1.0 / 90.0,
        &|p| p,
    );
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
    let t = f.update(
        &LowerBodySettings::default(),
        far,
        (1.0, 0.9),
        1.0 / 90.0,
        &|p| p,
    );
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
            &|p| p,
        );
    }
    assert!(f.velocity.z > 1.0, "walking: {}", f.velocity);
    let v = f.velocity;
    f.update(&s, homes(0.0, 1.2, 0.0), (1.0, 0.9), 0.0, &|p| p);
    assert_eq!(f.velocity, v, "no time, no change");
    f.update(&s, homes(30.0, 1.2, 0.0), (1.0, 0.9), 1.0 / 90.0, &|p| p);
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
        f.update(s, homes(0.0, z, 0.0), (1.0, 0.9), 1.0 / 90.0, &|p| p);
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
    let s = LowerBodySettings {
        stride_scale: 2.3,
        ..Default::default()
    };
    let walk = |f: &mut Feet, from: usize, to: usize| {
        for k in from..to {
            let z = 1.2 * k as f32 / 90.0;
            f.update(&s, homes(0.0, z, 0.0), (1.0, 0.9), 1.0 / 90.0, &|p| p);
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
    f.out_of_reach(&s, Side::Left, 1.0);
    assert!(!f.strained.left, "ahead of a walking body");
    f.planted.left = Some(FootPlace {
        position: c - Vec3::Z * 0.4,
        yaw: 0.0,
    });
    f.out_of_reach(&s, Side::Left, 1.0);
    assert!(f.strained.left, "behind it");
    // The right foot half-way through a slow step: it lands within `step_time_s`.
    f.step.right = Some(Step {
        from: f.planted.right.unwrap(),
        t: 0.5,
        time_s: 2.0,
    });
    f.out_of_reach(&s, Side::Left, 1.0);
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
    f.out_of_reach(&LowerBodySettings::default(), Side::Left, 1.0);
    assert!(f.strained.left && f.step.right == before);
}

/// The smallest distance between the feet across the body (along its left, from the right
/// foot to the left; negative: crossed) while the body turns `degrees` on the spot in
/// `seconds` about a point `pivot` ahead of between its feet (the head is ahead of the
/// ankles), then stands a second.
fn least_apart_turning(degrees: f32, seconds: f32, pivot: f32) -> f32 {
    let s = LowerBodySettings::default();
    let mut f = Feet::default();
    let dt = 1.0 / 90.0;
    let frames = (seconds / dt).round() as usize;
    let mut least = f32::INFINITY;
    for k in 0..frames + 90 {
        let yaw = degrees.to_radians() * (k.min(frames) as f32 / frames as f32);
        // Between the feet: `pivot` behind the turning point, along the body's forward.
        let h = homes(-pivot * yaw.sin(), pivot - pivot * yaw.cos(), yaw);
        let t = f.update(&s, h, (1.0, 0.9), dt, &|p| p);
        let across = (h.left.position - h.right.position).normalize();
        least = least.min((t.left.place.position - t.right.place.position).dot(across));
    }
    least
}

/// Turning on the spot as a player does (half a turn in a second and a half, a quarter turn in
/// half a second, either way, about a point between the feet or up to 15 cm ahead of them, as
/// the head is), the feet never cross: they stay 3 cm apart across the body (they stand 20 cm
/// apart; without the landing beside the standing foot they cross by 2.7 cm). A turn about a
/// point further ahead moves the body at a walk's speed, where the landing rule is off
/// (`CLEAR_BELOW_M_S`), and the feet may cross.
#[test]
fn turning_on_the_spot_never_crosses_the_feet() {
    for pivot in [0.0, 0.1, 0.15] {
        for (degrees, seconds) in [(180.0, 1.5), (-180.0, 1.5), (90.0, 0.5), (-90.0, 0.5)] {
            let least = least_apart_turning(degrees, seconds, pivot);
            assert!(
                least > 0.03,
                "{degrees} degrees in {seconds} s about {pivot} m ahead: the feet {least} m apart across the body"
            );
        }
    }
}

/// A foot lands at least a quarter of the feet's spacing beside the standing foot, on its own
/// side, once the body has turned from the standing foot (a turn on the spot); a standing foot
/// pointing as the body does (walking sideways, the feet come together) is landed next to, and
/// so is one the body walks on from (at 0.6 m/s or more).
#[test]
fn a_landing_is_put_beside_the_standing_foot_only_once_the_body_has_turned_from_it() {
    let h = homes(0.0, 0.0, 0.0);
    let mut f = Feet::default();
    let stand = |yaw: f32| {
        Some(FootPlace {
            position: Vec3::new(0.03, 0.0, 0.0),
            yaw,
        })
    };
    f.planted.left = stand(0.0);
    assert_eq!(f.clearance(Side::Right, &h, Vec3::ZERO, 1.0), Vec3::ZERO);
    // Turned 30 degrees from it: the right foot, landing 3 cm right of the left, goes 2 cm
    // further right (5 cm: a quarter of the 20 cm spacing).
    f.planted.left = stand(30f32.to_radians());
    let c = f.clearance(Side::Right, &h, Vec3::ZERO, 1.0);
    assert!(c.distance(Vec3::new(-0.02, 0.0, 0.0)) < 1e-6, "{c}");
    // The same, the body walking at 0.8 m/s: a stride's landing is not moved.
    let walking = Feet {
        velocity: Vec3::new(0.0, 0.0, 0.8),
        ..f
    };
    assert_eq!(
        walking.clearance(Side::Right, &h, Vec3::ZERO, 1.0),
        Vec3::ZERO
    );
    // As fast for an avatar twice as big (world units) is a slow turn for it.
    assert_ne!(
        walking.clearance(Side::Right, &h, Vec3::ZERO, 2.0),
        Vec3::ZERO
    );
    // Already far enough beside it: nothing.
    let c = f.clearance(Side::Right, &h, Vec3::new(-0.1, 0.0, 0.0), 1.0);
    assert_eq!(c, Vec3::ZERO);
}

/// A stranded foot (the body has left it far behind) steps at once, while the other foot is
/// still in the air; without being stranded it waits for the other to land.
#[test]
fn a_stranded_foot_steps_while_the_other_is_in_the_air() {
    let s = LowerBodySettings::default();
    let step = |strand: bool| {
        let mut f = Feet::default();
        run_with(&s, &mut f, homes(0.0, 0.0, 0.0), 1);
        // The body moves on: one foot steps.
        let t = f.update(&s, homes(0.0, 0.4, 0.0), (1.0, 0.9), 1.0 / 90.0, &|p| p);
        let stepping = if t.left.planted {
            Side::Left
        } else {
            Side::Right
        };
        let other = Side::BOTH[1 - stepping.index()];
        assert!(!t.get(stepping).planted || !t.get(other).planted);
        let still = if t.left.planted {
            Side::Left
        } else {
            Side::Right
        };
        if strand {
            f.strand(still);
        } else {
            f.strain(still);
        }
        let t = f.update(&s, homes(0.0, 0.4, 0.0), (1.0, 0.9), 1.0 / 90.0, &|p| p);
        (t.left.planted, t.right.planted)
    };
    assert_eq!(step(true), (false, false), "both feet in the air");
    let (l, r) = step(false);
    assert!(l != r, "one foot at a time");
}

/// The body's velocity follows its walk with the time constant: after each frame it has gone
/// `1 - exp(-t / VELOCITY_TIME_S)` of the way from rest to the walk's speed.
#[test]
fn the_bodys_velocity_eases_to_the_walk_with_its_time_constant() {
    let mut f = Feet::default();
    let s = LowerBodySettings::default();
    let dt = 1.0 / 90.0;
    for k in 0..10 {
        f.update(&s, homes(0.0, 0.01 * k as f32, 0.0), (1.0, 0.9), dt, &|p| p);
    }
    // The first frame only finds where the body is: nine frames of walking at 0.9 m/s.
    let expected = 0.9 * (1.0 - (-9.0 * dt / VELOCITY_TIME_S).exp());
    assert!(
        (f.velocity.z - expected).abs() < 1e-3,
        "{} vs {expected}",
        f.velocity.z
    );
    assert!(f.velocity.x.abs() < 1e-6 && f.velocity.y == 0.0);
}
