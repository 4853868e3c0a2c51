//! The clips of `../shared/mocap/everyday/` (motion capture kept outside the repository, as the
//! evaluation reads it; these tests fail, not skip, without it). A clip without a T-pose is
//! calibrated from how the performer stands in its first frame: measured here against the same
//! clip calibrated from its T-pose.

use std::path::PathBuf;

use vr_arms_core::Side;
use vr_arms_eval::bvh::Bvh;
use vr_arms_eval::clip::Clip;
use vr_arms_eval::clip_rest::RestSource;

fn everyday(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/mocap/everyday")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the motion capture beside the repository)",
            path.display()
        )
    })
}

#[test]
fn a_walk_without_its_t_pose_is_calibrated_from_how_the_performer_stands() {
    let text = everyday("cmu07_04_slow_walk_cc.bvh");
    let mut lines: Vec<&str> = text.lines().collect();
    let motion = lines
        .iter()
        .position(|l| l.starts_with("Frame Time"))
        .unwrap();
    lines.remove(motion + 1);
    let with = Clip::from_bvh("t".into(), Bvh::parse(&text).unwrap()).unwrap();
    let without =
        Clip::from_bvh("s".into(), Bvh::parse(&(lines.join("\n") + "\n")).unwrap()).unwrap();
    assert_eq!(with.rest_source(), RestSource::FirstFrameTPose);
    assert_eq!(without.rest_source(), RestSource::FirstFrameStanding);
    assert_eq!(with.frame_count(), without.frame_count());
    let mut worst = [0.0f32; 4];
    for k in 0..with.frame_count() {
        let (a, b) = (with.frame(k), without.frame(k));
        let deg = |x: glam::Quat, y: glam::Quat| x.angle_between(y).to_degrees();
        for side in [Side::Left, Side::Right] {
            let (ca, cb) = (a.controllers.get(side), b.controllers.get(side));
            worst[0] = worst[0].max(deg(ca.rotation, cb.rotation));
            worst[1] = worst[1].max(ca.position.distance(cb.position));
        }
        worst[2] = worst[2].max(deg(a.headset.rotation, b.headset.rotation));
        worst[3] = worst[3].max(deg(a.chest.rotation, b.chest.rotation));
        // Where the performer is does not depend on the calibration.
        assert!(a.headset.position.distance(b.headset.position) < 1e-5);
        assert!(a.elbow.left.distance(b.elbow.left) < 1e-5);
    }
    // Measured: the hands 20.0 degrees off (the finger roots' frame against the T-pose's level
    // hand), their grips 1.65 cm; the head 18.1 (the performer looks down as the walk starts),
    // the chest 3.8. Laying the hand along the forearm, palm in, was 47 degrees off.
    let [hand_deg, grip_m, head_deg, chest_deg] = worst;
    assert!(hand_deg < 21.0, "hands {hand_deg} degrees off");
    assert!(grip_m < 0.02, "grips {grip_m} m off");
    assert!(head_deg < 19.0, "head {head_deg} degrees off");
    assert!(chest_deg < 5.0, "chest {chest_deg} degrees off");
    // The avatar built from either has the performer's arms.
    let (ra, rb) = (with.rest_arms(), without.rest_arms());
    for side in [Side::Left, Side::Right] {
        let reach = |r: &vr_arms_core::ArmBones| {
            r.upper.position.distance(r.lower.position) + r.lower.position.distance(r.hand.position)
        };
        assert!((reach(ra.get(side)) - reach(rb.get(side))).abs() < 1e-4);
        // Laid out level along the side's axis.
        let d = (rb.get(side).hand.position - rb.get(side).upper.position).normalize();
        assert!(d.dot(glam::Vec3::X * side.sign()) > 0.9999, "{side:?}: {d}");
    }
}

#[test]
fn each_skeleton_of_the_everyday_clips_is_read_with_its_floor_and_performer() {
    for (name, first_frame, source) in [
        ("cmu02_01_walk_cc.bvh", 0, RestSource::FirstFrameStanding),
        ("cmu07_12_brisk_walk_cc.bvh", 1, RestSource::FirstFrameTPose),
        (
            "cmu131_01_start_walk_stop.bvh",
            0,
            RestSource::SkeletonStanding,
        ),
    ] {
        let clip = Clip::from_bvh(name.into(), Bvh::parse(&everyday(name)).unwrap()).unwrap();
        assert_eq!(clip.read.first_frame, first_frame, "{name}");
        assert_eq!(clip.rest_source(), source, "{name}");
        // The feet stand on the floor found from them: the ankles' lowest is over it by the
        // ankle's rest height, within marker noise, in clips whose floors differ by 1 m.
        let floor = clip.floor_y();
        let lowest = (0..clip.frame_count())
            .filter_map(|k| clip.frame(k).lower)
            .map(|l| l.ankle.left.y.min(l.ankle.right.y))
            .fold(f32::INFINITY, f32::min);
        let (_, _, legs) = clip.rest_lower().expect("legs");
        let ankle_rest = legs[0][2].y.min(legs[1][2].y) - clip.rest_floor();
        assert!(
            (lowest - floor - ankle_rest).abs() < 0.03,
            "{name}: floor {floor}, lowest ankle {lowest}, ankle height {ankle_rest}"
        );
        // A human performer: 1.2 to 1.9 m from the left ankle to the eyes standing.
        let (_, eyes) = clip.rest_torso();
        let height = eyes.y - legs[0][2].y;
        assert!((1.2..1.9).contains(&height), "{name}: {height} m");
    }
}
