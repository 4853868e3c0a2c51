//! The revolver state machine's tests: transitions, draw, cocking, firing, cylinder.
use glam::{Quat, Vec3};

use super::*;

fn input() -> RevolverInput {
    RevolverInput {
        grip: 0.0,
        trigger: 0.0,
        stick_y: 0.0,
        hand_position: Vec3::new(0.2, 1.0, 0.0),
        hand_in_holster_zone: true,
        hand_on_gun: false,
        holster_anchor: Vec3::new(0.2, 1.0, 0.0),
        holster_rotation: Quat::IDENTITY,
        draw_clear_point: Vec3::new(0.2, 1.3, 0.0),
        gun_holster_point: Vec3::new(0.2, 1.0, 0.0),
        gun_rotation: Quat::IDENTITY,
        fan_palm: None,
        flick_rate_rad_s: 0.0,
        cylinder_palm: None,
    }
}

fn step(r: &mut Revolver, i: &RevolverInput, dt: f32) -> Vec<RevolverEvent> {
    let mut e = Vec::new();
    r.update(i, dt, &mut e);
    e
}

/// Latches and draws: returns a revolver in the hand.
fn drawn() -> Revolver {
    let mut r = Revolver::default();
    let mut i = input();
    i.grip = 1.0;
    step(&mut r, &i, 0.01);
    i.hand_position.y += 0.2;
    i.hand_in_holster_zone = false;
    assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Drawn]);
    r
}

fn held_input() -> RevolverInput {
    let mut i = input();
    i.grip = 1.0;
    i.hand_in_holster_zone = false;
    i.gun_holster_point = Vec3::new(0.2, 1.4, 0.4);
    i
}

#[test]
fn draw_projection_has_a_dead_zone_and_ignores_backward_pulls() {
    let a = Vec3::ZERO;
    let clear = Vec3::Y;
    assert_eq!(
        draw_progress(a, Vec3::new(0.0, 0.015, 0.0), a, clear, 0.02, 0.15),
        0.0
    );
    assert!(
        (draw_progress(a, Vec3::new(0.0, 0.095, 0.0), a, clear, 0.02, 0.15) - 0.5).abs() < 1e-5
    );
    assert_eq!(
        draw_progress(a, Vec3::new(0.0, -0.3, 0.0), a, clear, 0.02, 0.15),
        0.0
    );
    // Sideways motion does not count.
    assert_eq!(
        draw_progress(a, Vec3::new(0.5, 0.0, 0.0), a, clear, 0.02, 0.15),
        0.0
    );
    assert_eq!(
        draw_progress(a, Vec3::new(0.0, 1.0, 0.0), a, clear, 0.02, 0.15),
        1.0
    );
}

#[test]
fn grip_in_zone_latches_and_release_returns_it() {
    let mut r = Revolver::default();
    let mut i = input();
    i.grip = 1.0;
    assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Latched]);
    assert_eq!(r.state, RevolverState::Latched);
    i.grip = 0.0;
    assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Holstered]);
    assert_eq!(r.state, RevolverState::Holstered);
    // Grip outside the zone does nothing.
    i.grip = 1.0;
    i.hand_in_holster_zone = false;
    assert!(step(&mut r, &i, 0.01).is_empty());
    // A grip already held when the hand enters the zone does not latch: only a press does.
    i.hand_in_holster_zone = true;
    assert!(
        step(&mut r, &i, 0.01).is_empty(),
        "held grip entering the zone"
    );
    assert_eq!(r.state, RevolverState::Holstered);
    i.grip = 0.0;
    step(&mut r, &i, 0.01);
    i.grip = 1.0;
    assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Latched]);
}

#[test]
fn pulling_far_enough_draws() {
    let r = drawn();
    assert_eq!(r.state, RevolverState::Held);
}

#[test]
fn cocking_timeline_phases_and_sound_frame() {
    let mut r = drawn();
    let mut i = held_input();
    i.stick_y = -0.9;
    assert_eq!(step(&mut r, &i, 0.0), vec![RevolverEvent::CockStarted]);
    assert_eq!(r.state, RevolverState::Cocking);
    // Holding the stick down does not re-trigger (rising edge only).
    let mut cocked_at = None;
    let mut t: f32 = 0.0;
    for k in 0..100 {
        let e = step(&mut r, &i, 0.01);
        t += 0.01;
        if e.contains(&RevolverEvent::Cocked) {
            cocked_at = Some(k);
            assert!(
                (t / 0.6 - 0.675).abs() < 0.02,
                "the hammer arrives at 0.675 of the timeline"
            );
        }
        assert!(!e.contains(&RevolverEvent::CockStarted));
    }
    assert!(cocked_at.is_some());
    assert_eq!(r.state, RevolverState::Held);
    assert!(r.hammer_cocked());
    // Phases of the pose.
    assert_eq!(cock_pose(0.0).gun_back, 0.0);
    assert!((cock_pose(0.55).gun_back - 1.0).abs() < 1e-6 && cock_pose(0.55).hammer == 0.0);
    assert!((cock_pose(0.6125).hammer - 0.5).abs() < 1e-5);
    assert_eq!(cock_pose(0.675).hammer, 1.0);
    assert!(cock_pose(1.0).gun_back.abs() < 1e-6);
    // Cocking an already cocked hammer is refused.
    i.stick_y = 0.0;
    step(&mut r, &i, 0.01);
    i.stick_y = -1.0;
    assert_eq!(
        step(&mut r, &i, 0.01),
        vec![RevolverEvent::Refused(RefusedAction::Cock)]
    );
}

fn fire(r: &mut Revolver) -> Vec<RevolverEvent> {
    let mut i = held_input();
    let mut all = Vec::new();
    i.trigger = 1.0;
    for _ in 0..40 {
        all.extend(step(r, &i, 0.01));
    }
    i.trigger = 0.0;
    all.extend(step(r, &i, 0.01));
    all
}

fn cock(r: &mut Revolver) {
    let mut i = held_input();
    i.stick_y = -1.0;
    for _ in 0..80 {
        step(r, &i, 0.01);
    }
}

#[test]
fn fire_outcomes_and_chamber_rotation() {
    let mut r = drawn();
    // Not cocked: dry fire. Every pull starts with TriggerPulled, before its outcome.
    let dry = fire(&mut r);
    assert!(dry.contains(&RevolverEvent::DryFired));
    assert_eq!(dry.first(), Some(&RevolverEvent::TriggerPulled), "{dry:?}");
    assert_eq!(
        r.cylinder.current, 0,
        "a dry fire does not turn the cylinder"
    );
    cock(&mut r);
    let e = fire(&mut r);
    assert!(
        e.contains(&RevolverEvent::Fired) && e.contains(&RevolverEvent::AmmoChanged(5)),
        "{e:?}"
    );
    // Cocking turned the cylinder one chamber (the hand), and that chamber fired.
    assert_eq!(r.cylinder.current, 1, "the cock turned the cylinder");
    assert_eq!(r.cylinder.chambers[1], Chamber::Spent);
    assert_eq!(r.cylinder.chambers[0], Chamber::Loaded);
    assert!(!r.hammer_cocked());
    // Empty the cylinder, then a cocked empty chamber clicks.
    assert!(!e.contains(&RevolverEvent::AmmoEmpty), "five rounds left");
    for k in 0..5 {
        cock(&mut r);
        let e = fire(&mut r);
        assert!(e.contains(&RevolverEvent::Fired));
        assert_eq!(
            e.contains(&RevolverEvent::AmmoEmpty),
            k == 4,
            "ammo_empty exactly on the last round: {e:?}"
        );
    }
    assert_eq!(r.loaded_count(), 0);
    cock(&mut r);
    let click = fire(&mut r);
    assert!(click.contains(&RevolverEvent::EmptyClicked));
    assert_eq!(click.first(), Some(&RevolverEvent::TriggerPulled));
    assert!(
        !click.contains(&RevolverEvent::AmmoEmpty),
        "a click is not a new empty"
    );
}

#[test]
fn cylinder_open_eject_and_load() {
    let mut r = drawn();
    cock(&mut r);
    fire(&mut r);
    let mut e = Vec::new();
    r.open_cylinder(&mut e);
    // The hammer is drawn to half-cock first: the gate opens only there.
    assert_eq!(
        e,
        vec![
            RevolverEvent::HammerMoved(HammerPosition::Safety),
            RevolverEvent::HammerMoved(HammerPosition::HalfCock),
            RevolverEvent::GateToggled(true)
        ]
    );
    // Cocking while open is refused; firing too.
    e.clear();
    r.request_cock(&mut e);
    assert_eq!(e, vec![RevolverEvent::Refused(RefusedAction::Cock)]);
    e.clear();
    assert_eq!(r.eject_spent(&mut e), 1);
    // The spent chamber (1) comes to the gate one click after the gate's chamber 0.
    assert_eq!(r.load_round(&mut e), Some(1));
    assert_eq!(r.loaded_count(), 6);
    assert_eq!(r.load_round(&mut e), None, "full");
    r.close_cylinder(&mut e);
    assert!(e.contains(&RevolverEvent::GateToggled(false)));
    assert!(r.can_cock());
}

#[test]
fn firing_while_latched_is_refused() {
    let mut r = Revolver::default();
    let mut i = input();
    i.grip = 1.0;
    step(&mut r, &i, 0.01);
    i.trigger = 1.0;
    assert_eq!(
        step(&mut r, &i, 0.01),
        vec![RevolverEvent::Refused(RefusedAction::Fire)]
    );
}

#[test]
fn release_near_the_holster_holsters_far_drops_and_pickup() {
    let s = RevolverSettings::default();
    let a = Vec3::ZERO;
    assert!(should_auto_holster(
        Vec3::new(0.0, 0.19, 0.0),
        Quat::from_rotation_x(0.5),
        a,
        Quat::IDENTITY,
        &s
    ));
    assert!(!should_auto_holster(
        Vec3::new(0.0, 0.21, 0.0),
        Quat::IDENTITY,
        a,
        Quat::IDENTITY,
        &s
    ));
    assert!(!should_auto_holster(
        Vec3::ZERO,
        Quat::from_rotation_x(36f32.to_radians()),
        a,
        Quat::IDENTITY,
        &s
    ));
    let mut r = drawn();
    let mut i = held_input();
    i.grip = 0.0;
    assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Dropped]);
    i.grip = 1.0;
    i.hand_on_gun = true;
    assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::PickedUp]);
    i.grip = 0.0;
    i.gun_holster_point = i.holster_anchor + Vec3::new(0.05, 0.05, 0.0);
    assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::Holstered]);
    assert_eq!(r.state, RevolverState::Holstered);
}

#[test]
fn garbage_input_is_harmless() {
    let mut r = drawn();
    let mut i = held_input();
    i.grip = f32::NAN;
    i.trigger = f32::INFINITY;
    i.stick_y = f32::NAN;
    i.hand_position = Vec3::NAN;
    let e = step(&mut r, &i, f32::NAN);
    assert!(e.iter().all(|e| !matches!(e, RevolverEvent::Fired)));
    assert!(r.draw_t.is_finite());
}

#[test]
fn the_draw_direction_is_from_the_holster_to_its_clear_point() {
    // Holster away from the origin, clear point 0.2 m above it: the draw is +Y.
    let (anchor, clear) = (Vec3::new(0.2, 1.0, 0.1), Vec3::new(0.2, 1.2, 0.1));
    let latch = Vec3::new(0.25, 1.0, 0.1);
    // 0.15 m up, less the 0.03 m dead zone, over 0.24 m: half-way.
    let t = draw_progress(latch, latch + Vec3::Y * 0.15, anchor, clear, 0.03, 0.24);
    assert!((t - 0.5).abs() < 1e-5, "{t}");
    // Sideways pulls do not draw.
    let t = draw_progress(latch, latch + Vec3::X * 0.15, anchor, clear, 0.03, 0.24);
    assert_eq!(t, 0.0);
}

#[test]
fn ease_in_out_cubic_known_values() {
    assert_eq!(ease_in_out_cubic(0.0), 0.0);
    assert_eq!(ease_in_out_cubic(0.25), 0.0625);
    assert_eq!(ease_in_out_cubic(0.5), 0.5);
    assert_eq!(ease_in_out_cubic(0.75), 0.9375);
    assert_eq!(ease_in_out_cubic(1.0), 1.0);
    assert_eq!(ease_in_out_cubic(2.0), 1.0);
}

#[test]
fn settings_are_validated() {
    let mut s = RevolverSettings {
        draw_dead_zone_m: f32::NAN,
        draw_distance_m: 0.0,
        auto_holster_angle_deg: 400.0,
        cock_stick_threshold: 0.5,
        cock_duration_s: -1.0,
        trigger_threshold: 0.0,
        grip_threshold: 3.0,
        ..RevolverSettings::default()
    };
    s.validate();
    let d = RevolverSettings::default();
    assert_eq!(s.draw_dead_zone_m, d.draw_dead_zone_m);
    assert_eq!((s.draw_distance_m, s.auto_holster_angle_deg), (0.01, 180.0));
    assert_eq!((s.cock_stick_threshold, s.cock_duration_s), (0.0, 0.01));
    assert_eq!((s.trigger_threshold, s.grip_threshold), (0.05, 1.0));
}

#[test]
fn the_cock_pose_sweeps_back_holds_then_returns() {
    // Half-way through the sweep and through the return, eased: half-way.
    assert!((cock_pose(0.275).gun_back - 0.5).abs() < 1e-6);
    assert!((cock_pose(0.8375).gun_back - 0.5).abs() < 1e-5);
    // Held back while the hammer turns.
    let p = cock_pose(0.6);
    assert_eq!(p.gun_back, 1.0);
    assert!((p.hammer - 0.4).abs() < 1e-5, "{}", p.hammer);
}

#[test]
fn the_cocking_time_runs_over_its_duration() {
    let mut r = drawn();
    let mut i = held_input();
    assert_eq!(r.cock_time(), None);
    i.stick_y = -0.9;
    step(&mut r, &i, 0.0);
    assert_eq!(r.cock_time(), Some(0.0));
    step(&mut r, &i, 0.15);
    assert!(
        (r.cock_time().unwrap() - 0.25).abs() < 1e-6,
        "{:?}",
        r.cock_time()
    );
    // Steps of negative or unknown length do not move it.
    for dt in [-1.0, f32::NAN] {
        step(&mut r, &i, dt);
        assert!((r.cock_time().unwrap() - 0.25).abs() < 1e-6, "{dt}");
    }
    step(&mut r, &i, 0.5);
    assert_eq!(r.cock_time(), None, "done after 0.6 s");
}

#[test]
fn the_trigger_eases_in_and_back_out() {
    let mut r = drawn();
    r.settings.trigger_pull_s = 0.125;
    r.settings.trigger_return_s = 0.25;
    let mut i = held_input();
    assert_eq!(r.trigger_pull(), 0.0);
    i.trigger = 1.0;
    step(&mut r, &i, 0.0);
    assert_eq!(r.trigger_pull(), 0.0, "the pull starts at rest");
    let mut seen = Vec::new();
    for _ in 0..5 {
        step(&mut r, &i, 0.0625);
        seen.push(r.trigger_pull());
    }
    // Pull half-way (eased 0.5), fully pulled, then a quarter and half of the return.
    assert_eq!(seen, [0.5, 1.0, 0.9375, 0.5, 0.0625]);
}

#[test]
fn a_dropped_gun_is_picked_up_only_with_the_hand_on_it() {
    let mut r = drawn();
    let mut i = held_input();
    i.grip = 0.0;
    step(&mut r, &i, 0.01);
    assert_eq!(r.state, RevolverState::Dropped);
    // A grip press away from the gun picks nothing up.
    i.grip = 1.0;
    assert!(step(&mut r, &i, 0.01).is_empty());
    assert_eq!(r.state, RevolverState::Dropped);
}

#[test]
fn letting_go_mid_cock_the_hammer_falls_back_to_the_notch_it_passed() {
    // Let go while the thumb draws it (0.62 of the clip: travel 0.56, past half-cock).
    let mut r = drawn();
    let mut i = held_input();
    i.stick_y = -1.0;
    step(&mut r, &i, 0.0);
    step(&mut r, &i, 0.372);
    assert!(r.hammer.travel() > 0.5 && r.state == RevolverState::Cocking);
    i.grip = 0.0;
    step(&mut r, &i, 0.01);
    assert!(!r.hammer_cocked(), "let go mid-cock");
    assert_eq!(r.hammer.position(), HammerPosition::HalfCock);
    assert_eq!(r.hammer.travel(), HammerPosition::HalfCock.travel());
    // Past full cock (still returning), the sear holds it there.
    let mut r = drawn();
    let mut i = held_input();
    i.stick_y = -1.0;
    step(&mut r, &i, 0.0);
    step(&mut r, &i, 0.42);
    assert!(r.hammer_cocked() && r.state == RevolverState::Cocking);
    i.grip = 0.0;
    step(&mut r, &i, 0.01);
    assert!(r.hammer_cocked(), "full cock holds");
    // Fully cocked, then let go and picked up: still cocked.
    let mut r = drawn();
    cock(&mut r);
    assert!(r.hammer_cocked() && r.state == RevolverState::Held);
    let mut i = held_input();
    i.grip = 0.0;
    step(&mut r, &i, 0.01);
    i.grip = 1.0;
    i.hand_on_gun = true;
    assert_eq!(step(&mut r, &i, 0.01), vec![RevolverEvent::PickedUp]);
    assert!(r.hammer_cocked());
}

#[test]
fn the_hammer_cocks_once_when_a_step_ends_on_its_mark() {
    let mut r = drawn();
    r.settings.cock_duration_s = 1.0;
    let mut i = held_input();
    i.stick_y = -1.0;
    step(&mut r, &i, 0.0);
    let mut cocked = 0;
    for dt in [0.675, 0.1, 0.1] {
        cocked += step(&mut r, &i, dt)
            .iter()
            .filter(|e| **e == RevolverEvent::Cocked)
            .count();
    }
    assert_eq!(cocked, 1);
}

#[test]
fn a_trigger_resting_on_its_threshold_pulls_once() {
    let mut r = drawn();
    let mut i = held_input();
    i.trigger = r.settings.trigger_threshold;
    let mut events = Vec::new();
    for _ in 0..40 {
        events.extend(step(&mut r, &i, 0.01));
    }
    assert_eq!(
        events,
        vec![RevolverEvent::TriggerPulled, RevolverEvent::DryFired]
    );
}

#[test]
fn the_cylinder_opens_only_in_the_hand_with_the_hammer_down_and_once() {
    let refused = vec![RevolverEvent::Refused(RefusedAction::OpenCylinder)];
    let mut e = Vec::new();
    // Holstered.
    Revolver::default().open_cylinder(&mut e);
    assert_eq!(e, refused);
    // Hammer cocked.
    let mut r = drawn();
    cock(&mut r);
    e.clear();
    r.open_cylinder(&mut e);
    assert_eq!(e, refused);
    // Already open.
    let mut r = drawn();
    r.open_cylinder(&mut e);
    e.clear();
    r.open_cylinder(&mut e);
    assert_eq!(e, refused);
    // Nothing spent: nothing ejected; the cylinder turned once round under the gate, click by
    // click, back where it was.
    e.clear();
    assert_eq!(r.eject_spent(&mut e), 0);
    let clicks: Vec<RevolverEvent> = (1..=6)
        .map(|k| RevolverEvent::CylinderIndexed(k % 6))
        .collect();
    assert_eq!(e, clicks);
}

#[test]
fn rounds_load_from_the_chamber_at_the_gate_on() {
    let mut r = drawn();
    r.cylinder.chambers = [Chamber::Empty; 6];
    r.cylinder.current = 4;
    let mut e = Vec::new();
    r.open_cylinder(&mut e);
    let order: Vec<Option<usize>> = (0..7).map(|_| r.load_round(&mut e)).collect();
    assert_eq!(
        order,
        [Some(3), Some(4), Some(5), Some(0), Some(1), Some(2), None]
    );
}
