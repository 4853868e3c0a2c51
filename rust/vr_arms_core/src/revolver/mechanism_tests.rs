//! The Single Action Army's mechanism through the revolver: the hammer's notches, the loading
//! gate, indexing, the ejector, loading by hand, fanning and the drop safety.
use glam::{Quat, Vec3};

use super::*;
use HammerPosition::*;
use RevolverEvent as E;

/// A revolver in the hand (drawn), its input.
fn held() -> (Revolver, RevolverInput) {
    let r = Revolver {
        state: RevolverState::Held,
        ..Default::default()
    };
    let i = RevolverInput {
        grip: 1.0,
        trigger: 0.0,
        stick_y: 0.0,
        hand_position: Vec3::new(0.2, 1.4, 0.4),
        hand_in_holster_zone: false,
        hand_on_gun: false,
        holster_anchor: Vec3::new(0.2, 1.0, 0.0),
        holster_rotation: Quat::IDENTITY,
        draw_clear_point: Vec3::new(0.2, 1.3, 0.0),
        gun_holster_point: Vec3::new(0.2, 1.4, 0.4),
        gun_rotation: Quat::IDENTITY,
        fan_palm: None,
        flick_rate_rad_s: 0.0,
        cylinder_palm: None,
    };
    (r, i)
}

fn step(r: &mut Revolver, i: &RevolverInput, dt: f32) -> Vec<E> {
    let mut e = Vec::new();
    r.update(i, dt, &mut e);
    e
}

/// Thumbs the hammer back to `travel` and lets go.
fn thumb_to(r: &mut Revolver, travel: f32) -> Vec<E> {
    let mut e = Vec::new();
    r.thumb_hammer(travel, &mut e);
    r.release_hammer(&mut e);
    e
}

/// Pulls the trigger through its sear point and lets it return.
fn pull(r: &mut Revolver, i: &RevolverInput) -> Vec<E> {
    let mut i = *i;
    let mut e = Vec::new();
    i.trigger = 1.0;
    for _ in 0..30 {
        e.extend(step(r, &i, 0.01));
    }
    i.trigger = 0.0;
    e.extend(step(r, &i, 0.01));
    e
}

#[test]
fn the_thumb_clicks_each_notch_and_full_cock_turns_the_cylinder() {
    let (mut r, _) = held();
    assert_eq!(thumb_to(&mut r, 0.3), vec![E::HammerMoved(Safety)]);
    assert_eq!(thumb_to(&mut r, 0.6), vec![E::HammerMoved(HalfCock)]);
    assert_eq!(r.cylinder.current, 0, "half-cock does not turn it");
    assert_eq!(
        thumb_to(&mut r, 1.0),
        vec![E::HammerMoved(FullCock), E::Cocked, E::CylinderIndexed(1)]
    );
    assert!(r.hammer_cocked());
    // Not in the hand: refused.
    let mut r = Revolver::default();
    let mut e = Vec::new();
    r.thumb_hammer(1.0, &mut e);
    assert_eq!(e, vec![E::Refused(RefusedAction::Cock)]);
    assert_eq!(r.hammer.position(), Down);
}

#[test]
fn the_trigger_is_locked_at_half_cock_and_the_safety_notch_and_dry_when_down() {
    let (mut r, i) = held();
    for travel in [0.2, 0.5] {
        thumb_to(&mut r, travel);
        let e = pull(&mut r, &i);
        assert_eq!(e, vec![E::Refused(RefusedAction::Fire)], "{travel}");
    }
    let (mut r, i) = held();
    assert_eq!(pull(&mut r, &i), vec![E::TriggerPulled, E::DryFired]);
    // From full cock it falls on the chamber under the hammer (the cock turned it to 1).
    thumb_to(&mut r, 1.0);
    let e = pull(&mut r, &i);
    assert_eq!(
        e,
        vec![
            E::TriggerPulled,
            E::HammerMoved(Down),
            E::Fired,
            E::AmmoChanged(5)
        ]
    );
    assert_eq!(r.cylinder.chambers[1], Chamber::Spent);
}

#[test]
fn with_the_trigger_held_the_thumb_lowers_a_cocked_hammer_and_a_slip_fires() {
    let (mut r, mut i) = held();
    thumb_to(&mut r, 1.0);
    i.trigger = 1.0;
    // The trigger is pulled while the thumb holds the hammer: the sear point passes, nothing
    // falls (it is thumbed). Thumbed first, then the trigger.
    let mut e = Vec::new();
    r.thumb_hammer(1.0, &mut e);
    e.extend(step(&mut r, &i, 0.2));
    assert!(!e.contains(&E::Fired), "{e:?}");
    r.thumb_hammer(0.0, &mut e);
    r.release_hammer(&mut e);
    assert_eq!(r.hammer.position(), Down);
    assert!(
        !e.contains(&E::Fired) && e.contains(&E::HammerMoved(Down)),
        "{e:?}"
    );
    // Again, and the thumb slips half way down: the hammer falls on the pin.
    let (mut r, mut i) = held();
    thumb_to(&mut r, 1.0);
    let mut e = Vec::new();
    r.thumb_hammer(1.0, &mut e);
    i.trigger = 1.0;
    step(&mut r, &i, 0.2);
    r.thumb_hammer(0.6, &mut e);
    r.release_hammer(&mut e);
    assert!(e.contains(&E::Fired), "{e:?}");
}

#[test]
fn the_gate_opens_only_at_half_cock_and_blocks_cocking_and_the_trigger() {
    let (mut r, i) = held();
    let mut e = Vec::new();
    r.open_gate(&mut e);
    assert_eq!(
        e,
        vec![E::Refused(RefusedAction::OpenCylinder)],
        "hammer down"
    );
    thumb_to(&mut r, 0.5);
    e.clear();
    r.open_gate(&mut e);
    assert_eq!(e, vec![E::GateToggled(true)]);
    // Cocking, the thumb past half-cock, and the trigger are refused or stop short.
    e.clear();
    r.request_cock(&mut e);
    assert_eq!(e, vec![E::Refused(RefusedAction::Cock)]);
    assert_eq!(thumb_to(&mut r, 1.0), vec![]);
    assert_eq!(r.hammer.position(), HalfCock);
    assert_eq!(pull(&mut r, &i), vec![E::Refused(RefusedAction::Fire)]);
    e.clear();
    r.close_gate(&mut e);
    assert_eq!(e, vec![E::GateToggled(false)]);
    // At full cock the gate stays shut.
    thumb_to(&mut r, 1.0);
    e.clear();
    r.open_gate(&mut e);
    assert_eq!(e, vec![E::Refused(RefusedAction::OpenCylinder)]);
}

#[test]
fn turning_ejecting_and_loading_need_the_open_gate() {
    let (mut r, _) = held();
    let mut e = Vec::new();
    r.turn_cylinder(1, &mut e);
    assert_eq!(r.push_ejector(&mut e), None);
    assert_eq!(r.insert_cartridge(&mut e), None);
    assert_eq!(
        e,
        vec![
            E::Refused(RefusedAction::Turn),
            E::Refused(RefusedAction::Eject),
            E::Refused(RefusedAction::Load)
        ]
    );
    // Open: the gate's chamber (5, one before the hammer's) holds a live round: it comes out
    // whole, and a cartridge goes back in.
    thumb_to(&mut r, 0.5);
    r.open_gate(&mut e);
    e.clear();
    assert_eq!(r.push_ejector(&mut e), Some((5, false)));
    assert_eq!(r.insert_cartridge(&mut e), Some(5));
    r.turn_cylinder(2, &mut e);
    assert_eq!(
        e,
        vec![
            E::CaseEjected {
                chamber: 5,
                spent: false
            },
            E::AmmoChanged(5),
            E::CartridgeLoaded(5),
            E::AmmoChanged(6),
            E::CylinderIndexed(1),
            E::CylinderIndexed(2),
        ]
    );
}

/// The reload the issue asks for, by hand: half-cock, open the gate, turn and eject six spent
/// cases, load six cartridges, close, cock and fire six.
#[test]
fn a_whole_reload_by_hand_then_six_shots() {
    let (mut r, i) = held();
    r.cylinder.chambers = [Chamber::Spent; CHAMBERS];
    let mut e = Vec::new();
    thumb_to(&mut r, 0.5);
    r.open_gate(&mut e);
    let mut ejected = Vec::new();
    for _ in 0..CHAMBERS {
        ejected.push(r.push_ejector(&mut e));
        r.turn_cylinder(1, &mut e);
    }
    assert_eq!(
        ejected,
        [5, 0, 1, 2, 3, 4].map(|c| Some((c, true))).to_vec(),
        "each chamber as it comes to the gate"
    );
    let mut loaded = Vec::new();
    for _ in 0..CHAMBERS {
        loaded.push(r.insert_cartridge(&mut e));
        r.turn_cylinder(1, &mut e);
    }
    assert_eq!(loaded, [5, 0, 1, 2, 3, 4].map(Some).to_vec());
    assert_eq!(r.loaded_count(), 6);
    r.close_gate(&mut e);
    let mut shots = 0;
    for _ in 0..CHAMBERS {
        thumb_to(&mut r, 1.0);
        shots += pull(&mut r, &i).iter().filter(|e| **e == E::Fired).count();
    }
    assert_eq!(shots, 6);
    assert_eq!(r.loaded_count(), 0);
    assert_eq!(pull(&mut r, &i), vec![E::TriggerPulled, E::DryFired]);
}

#[test]
fn a_fanned_string_of_six_with_the_trigger_held() {
    let (mut r, mut i) = held();
    i.trigger = 1.0;
    // The first pull with the hammer down is a dry one; the trigger then stays back.
    let first = step(&mut r, &i, 0.01);
    assert_eq!(first, vec![E::TriggerPulled]);
    let spur = Vec3::new(0.0, 1.4, 0.3);
    let mut all = Vec::new();
    let dt = 1.0 / 90.0;
    for _ in 0..6 {
        // The palm sweeps in from 20 cm at 2 m/s and back out.
        for k in 0..9 {
            i.fan_palm = Some((spur + Vec3::new(0.0, 0.20 - 0.022 * k as f32, 0.0), spur));
            all.extend(step(&mut r, &i, dt));
        }
        for k in 0..9 {
            i.fan_palm = Some((spur + Vec3::new(0.0, 0.02 + 0.022 * k as f32, 0.0), spur));
            all.extend(step(&mut r, &i, dt));
        }
    }
    let count = |x: E| all.iter().filter(|e| **e == x).count();
    assert_eq!((count(E::Fanned), count(E::Fired)), (6, 6), "{all:?}");
    // The fan spends the pull under way: no dry pull after it.
    assert_eq!(count(E::DryFired), 0, "{all:?}");
    assert_eq!(count(E::AmmoEmpty), 1);
    // Each fan is a whole cycle, in order: the palm, full cock, the turn, the fall, the shot.
    let first_fan = all.iter().position(|e| *e == E::Fanned).unwrap();
    assert_eq!(
        &all[first_fan..first_fan + 6],
        &[
            E::Fanned,
            E::HammerMoved(Safety),
            E::HammerMoved(HalfCock),
            E::HammerMoved(FullCock),
            E::Cocked,
            E::CylinderIndexed(1)
        ]
    );
    assert_eq!(
        &all[first_fan + 6..first_fan + 9],
        &[E::HammerMoved(Down), E::Fired, E::AmmoChanged(5)]
    );
    // Without the trigger held the same sweep does nothing.
    let (mut r, mut i) = held();
    for k in 0..9 {
        i.fan_palm = Some((spur + Vec3::new(0.0, 0.20 - 0.022 * k as f32, 0.0), spur));
        assert!(step(&mut r, &i, dt).is_empty());
    }
}

#[test]
fn the_other_hands_palm_rolls_the_cylinder_at_the_open_gate() {
    let (mut r, mut i) = held();
    let dt = 1.0 / 90.0;
    // A third of a turn the Colt's way (clockwise from behind), in 20 steps.
    let roll = |r: &mut Revolver, i: &mut RevolverInput| {
        let mut all = Vec::new();
        for k in 0..=20 {
            let a = (90.0f32 - 120.0 * k as f32 / 20.0).to_radians();
            i.cylinder_palm = Some(Vec3::new(a.cos(), a.sin(), 0.0) * 0.045);
            all.extend(step(r, i, dt));
        }
        i.cylinder_palm = None;
        all.extend(step(r, i, dt));
        all
    };
    let from = r.cylinder.current;
    assert!(roll(&mut r, &mut i).is_empty(), "gate shut: nothing turns");
    assert_eq!(r.cylinder.current, from);
    thumb_to(&mut r, HalfCock.travel());
    r.open_gate(&mut Vec::new());
    let e = roll(&mut r, &mut i);
    let turned: Vec<_> = e
        .iter()
        .filter(|e| matches!(e, E::CylinderIndexed(_)))
        .collect();
    assert_eq!(turned.len(), 2, "two clicks: {e:?}");
    assert_eq!(r.cylinder.current, (from + 2) % CHAMBERS);
}

#[test]
fn the_off_hand_is_poised_to_fan_near_the_hammer_with_the_trigger_held() {
    let (mut r, mut i) = held();
    let spur = Vec3::new(0.2, 1.45, 0.45);
    let dt = 1.0 / 90.0;
    i.trigger = 1.0;
    i.fan_palm = Some((spur + Vec3::new(0.0, 0.25, 0.0), spur));
    step(&mut r, &i, dt);
    assert!(r.fan_poised(), "25 cm above the hammer, the trigger held");
    i.fan_palm = Some((spur + Vec3::new(0.0, 0.35, 0.0), spur));
    step(&mut r, &i, dt);
    assert!(!r.fan_poised(), "35 cm: beyond twice the fan radius");
    i.fan_palm = Some((spur + Vec3::new(0.0, 0.2, 0.0), spur));
    i.trigger = 0.0;
    step(&mut r, &i, dt);
    assert!(!r.fan_poised(), "the trigger let go");
    i.trigger = 1.0;
    i.fan_palm = None;
    step(&mut r, &i, dt);
    assert!(
        !r.fan_poised(),
        "no palm (the hand holds the gun two-handed)"
    );
    let (mut r, mut i) = held();
    i.fan_palm = Some((spur + Vec3::new(0.0, 0.2, 0.0), spur));
    thumb_to(&mut r, HalfCock.travel());
    r.open_gate(&mut Vec::new());
    i.trigger = 1.0;
    step(&mut r, &i, dt);
    assert!(!r.fan_poised(), "the gate open");
}

#[test]
fn a_hard_landing_on_a_lowered_hammer_fires_only_without_a_transfer_bar() {
    let (mut r, _) = held();
    let mut e = Vec::new();
    assert!(r.landed(4.0, true, &mut e));
    assert_eq!(e, vec![E::Fired, E::AmmoChanged(5)]);
    // The old carry: the empty chamber under the hammer.
    let (mut r, _) = held();
    r.cylinder.chambers[0] = Chamber::Empty;
    assert!(!r.landed(9.0, true, &mut Vec::new()));
    // A transfer bar.
    let (mut r, _) = held();
    r.fan_settings.transfer_bar = true;
    assert!(!r.landed(9.0, true, &mut Vec::new()));
}

#[test]
fn a_twirl_spins_the_gun_and_blocks_the_trigger_until_it_is_back_in_the_grip() {
    let (mut r, mut i) = held();
    let mut e = Vec::new();
    r.request_twirl(&mut e);
    assert_eq!(e, vec![E::TwirlStarted]);
    assert!(step(&mut r, &i, 0.3).is_empty());
    assert!(r.twirl.angle(&r.twirl_settings) > 1.0);
    // Mid-spin: no pull, no cock, no second twirl.
    e.clear();
    r.request_fire(&mut e);
    r.request_cock(&mut e);
    r.request_twirl(&mut e);
    assert_eq!(
        e,
        [
            RefusedAction::Fire,
            RefusedAction::Cock,
            RefusedAction::Twirl
        ]
        .map(E::Refused)
    );
    // Nor the thumb or a fan.
    let mut e = Vec::new();
    r.thumb_hammer(1.0, &mut e);
    assert_eq!(e, vec![E::Refused(RefusedAction::Cock)]);
    assert_eq!(step(&mut r, &i, 0.5), vec![E::Twirled]);
    assert_eq!(r.twirl.angle(&r.twirl_settings), 0.0);
    assert_eq!(pull(&mut r, &i), vec![E::TriggerPulled, E::DryFired]);
    // A flick, when the settings allow one, with the finger off the trigger.
    r.twirl_settings.flick_speed_rad_s = 12.0;
    i.flick_rate_rad_s = 15.0;
    assert_eq!(step(&mut r, &i, 0.01), vec![E::TwirlStarted]);
    // Dropped mid-spin: the twirl is over.
    i.flick_rate_rad_s = 0.0;
    i.grip = 0.0;
    step(&mut r, &i, 0.01);
    assert!(!r.twirl.active());
    // Not in the hand, or with the gate open: refused.
    let mut e = Vec::new();
    Revolver::default().request_twirl(&mut e);
    let (mut r, _) = held();
    thumb_to(&mut r, 0.5);
    r.open_gate(&mut e);
    r.request_twirl(&mut e);
    assert_eq!(
        e,
        vec![
            E::Refused(RefusedAction::Twirl),
            E::GateToggled(true),
            E::Refused(RefusedAction::Twirl)
        ]
    );
}
