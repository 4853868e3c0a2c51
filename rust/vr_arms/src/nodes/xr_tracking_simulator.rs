//! `XRTrackingSimulator`: headset and controllers without a headset.

use godot::classes::xr_pose::TrackingConfidence;
use godot::classes::xr_positional_tracker::TrackerHand;
use godot::classes::xr_server::TrackerType;
use godot::classes::{FileAccess, INode, Node, XrControllerTracker, XrPositionalTracker, XrServer};
use godot::prelude::*;
use vr_arms_core::body::tracking_trace::{ControllerInputs, TrackingTrace};

use crate::convert::to_transform;
use crate::shared::hand::Hand;

/// Simulated tracking: registers a `head` tracker and `left_hand` / `right_hand` controller
/// trackers with the [XRServer] and feeds them poses and inputs, so [XRCamera3D] and
/// [XRController3D] nodes move exactly as they would with a headset.
///
/// Poses are in XR tracking space (relative to the [XROrigin3D]), in metres. Set them from code
/// ([method set_hand_pose], [method set_head_pose], [method set_input]) or replay a recorded trace
/// ([method play_trace]). A tracker that a real XR runtime already provides is left alone unless
/// [member take_over_existing] is on.
#[derive(GodotClass)]
#[class(base = Node, tool)]
pub struct XRTrackingSimulator {
    /// Pose of the headset in tracking space.
    #[export]
    #[var(set = set_head_pose)]
    head_pose: Transform3D,
    /// Pose of the left controller in tracking space.
    #[export]
    #[var(set = set_left_hand_pose)]
    left_hand_pose: Transform3D,
    /// Pose of the right controller in tracking space.
    #[export]
    #[var(set = set_right_hand_pose)]
    right_hand_pose: Transform3D,
    /// Replace trackers that already exist (for example from a real OpenXR runtime) instead of
    /// leaving them alone.
    #[export]
    take_over_existing: bool,
    /// Trace playback speed (1 = real time).
    #[export(range = (0.0, 4.0, or_greater))]
    playback_speed: f32,

    head: Option<Gd<XrPositionalTracker>>,
    /// Tracked flags: head, left hand, right hand.
    tracked: [bool; 3],
    hands: [Option<Gd<XrControllerTracker>>; 2],
    trace: Option<TrackingTrace>,
    trace_time: f32,
    report: crate::problems::ProblemReport,
    base: Base<Node>,
}

const HAND_NAMES: [&str; 2] = ["left_hand", "right_hand"];

#[godot_api]
impl INode for XRTrackingSimulator {
    fn init(base: Base<Node>) -> Self {
        Self {
            head_pose: Transform3D::new(Basis::IDENTITY, Vector3::new(0.0, 1.65, 0.0)),
            // The head looks down -Z (Godot's XR convention), so the player's left is -X: each
            // hand on its own side, a little in front of the body at waist height.
            left_hand_pose: Transform3D::new(Basis::IDENTITY, Vector3::new(-0.2, 1.15, -0.3)),
            right_hand_pose: Transform3D::new(Basis::IDENTITY, Vector3::new(0.2, 1.15, -0.3)),
            take_over_existing: false,
            playback_speed: 1.0,
            head: None,
            tracked: [true; 3],
            hands: [None, None],
            trace: None,
            trace_time: 0.0,
            report: crate::problems::ProblemReport::new("XRTrackingSimulator"),
            base,
        }
    }

    fn enter_tree(&mut self) {
        if crate::shared::common::in_editor() {
            return;
        }
        self.register();
        self.push_all();
    }

    fn exit_tree(&mut self) {
        self.unregister();
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        crate::shared::common::refresh_warnings_on_set(&self.to_gd().upcast())
    }

    fn process(&mut self, delta: f64) {
        if crate::shared::common::skip_in_editor(false) {
            return;
        }
        let Some(trace) = &self.trace else { return };
        self.trace_time += (delta as f32).max(0.0) * self.playback_speed;
        let finished = self.trace_time > trace.duration();
        if let Some(frame) = trace.sample(self.trace_time) {
            self.head_pose = to_transform(&frame.head);
            self.left_hand_pose = to_transform(&frame.left);
            self.right_hand_pose = to_transform(&frame.right);
            self.push_all();
            self.push_inputs(0, &frame.left_inputs);
            self.push_inputs(1, &frame.right_inputs);
        }
        if finished {
            self.trace = None;
            self.signals().trace_finished().emit();
        }
    }
}

#[godot_api]
impl XRTrackingSimulator {
    /// A replayed trace reached its end.
    #[signal]
    fn trace_finished();

    #[func]
    fn set_head_pose(&mut self, pose: Transform3D) {
        self.head_pose = pose;
        self.push_all();
    }

    #[func]
    fn set_left_hand_pose(&mut self, pose: Transform3D) {
        self.left_hand_pose = pose;
        self.push_all();
    }

    #[func]
    fn set_right_hand_pose(&mut self, pose: Transform3D) {
        self.right_hand_pose = pose;
        self.push_all();
    }

    /// Sets a controller's pose (`hand`: `VRArms.Hand`). Bound [XRController3D]s move at once.
    #[func]
    fn set_hand_pose(&mut self, hand: Hand, pose: Transform3D) {
        match hand {
            Hand::Left => self.set_left_hand_pose(pose),
            Hand::Right => self.set_right_hand_pose(pose),
        }
    }

    /// Sets a controller input as an OpenXR action map would: `name` is for example `"grip"`,
    /// `"trigger"` (floats 0..1), `"primary"` (thumbstick, [Vector2]) or `"ax_button"` (bool).
    #[func]
    fn set_input(&mut self, hand: Hand, name: StringName, value: Variant) {
        if let Some(t) = self.hands[hand.side().index()].as_mut() {
            t.set_input(&name, &value);
        }
    }

    /// Marks a controller as tracked or not. An untracked controller reports an invalid pose,
    /// as a real one does when it leaves the cameras' view.
    #[func]
    fn set_hand_tracked(&mut self, hand: Hand, tracked: bool) {
        self.tracked[1 + hand.side().index()] = tracked;
        self.push_all();
    }

    /// Marks the headset as tracked or not (an untracked headset reports an invalid pose).
    #[func]
    fn set_head_tracked(&mut self, tracked: bool) {
        self.tracked[0] = tracked;
        self.push_all();
    }

    /// Loads a tracking trace and plays it from the start. Returns false, with an error naming
    /// the line, when the file cannot be read.
    ///
    /// The trace is CSV, one frame per line, times in seconds increasing from the first frame,
    /// after this header (columns after the last are ignored):
    /// `time, head_px, head_py, head_pz, head_qx, head_qy, head_qz, head_qw,` the same seven for
    /// `left_` and `right_`, then `left_grip, left_trigger, left_stick_x, left_stick_y,
    /// right_grip, right_trigger, right_stick_x, right_stick_y`. Positions are metres in XR
    /// tracking space, rotations unit quaternions (x, y, z, w), grip and trigger 0..1, sticks
    /// -1..1.
    #[func]
    fn play_trace(&mut self, path: GString) -> bool {
        let text = FileAccess::get_file_as_string(&path);
        if text.is_empty() {
            godot_error!("XRTrackingSimulator: cannot read trace \"{path}\"");
            return false;
        }
        match TrackingTrace::parse_csv(&text.to_string()) {
            Ok(trace) => {
                self.trace = Some(trace);
                self.trace_time = 0.0;
                true
            }
            Err(e) => {
                godot_error!("XRTrackingSimulator: trace \"{path}\", {e}");
                false
            }
        }
    }

    /// Stops trace playback; poses stay where they are.
    #[func]
    fn stop_trace(&mut self) {
        self.trace = None;
    }

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let me = self.to_gd();
        if me.is_inside_tree() {
            let others = me
                .get_tree()
                .get_root()
                .map(|r| {
                    r.find_children_ex("*")
                        .type_("XRTrackingSimulator")
                        .owned(false)
                        .done()
                })
                .map(|found| {
                    found
                        .iter_shared()
                        .filter(|n| *n != me.clone().upcast())
                        .count()
                })
                .unwrap_or(0);
            if others > 0 {
                out.push("Another XRTrackingSimulator is in the scene: only the first feeds the head and hand trackers; remove the others.".into());
            }
        }
        if !self.playback_speed.is_finite() || self.playback_speed <= 0.0 {
            out.push("\"playback_speed\" is not above 0: a played trace never moves.".into());
        }
        out
    }

    /// Whether a trace is playing.
    #[func]
    fn is_playing(&self) -> bool {
        self.trace.is_some()
    }

    fn register(&mut self) {
        let mut server = XrServer::singleton();
        let take = self.take_over_existing;
        // Another simulator's trackers are not a real runtime's: that is a setup problem.
        let problems = self.problems();
        self.report.runtime(&problems);
        let mut claim = |name: &str| -> bool {
            match server.get_tracker(name) {
                Some(_) if !take => false,
                Some(existing) => {
                    server.remove_tracker(&existing);
                    true
                }
                None => true,
            }
        };
        if claim("head") {
            let mut head = XrPositionalTracker::new_gd();
            head.set_tracker_type(TrackerType::HEAD);
            head.set_tracker_name("head");
            head.set_tracker_desc("vr_arms simulated headset");
            XrServer::singleton().add_tracker(&head);
            self.head = Some(head);
        }
        for (i, name) in HAND_NAMES.iter().enumerate() {
            if claim(name) {
                let mut t = XrControllerTracker::new_gd();
                t.set_tracker_type(TrackerType::CONTROLLER);
                t.set_tracker_name(*name);
                t.set_tracker_desc("vr_arms simulated controller");
                t.set_tracker_hand(if i == 0 {
                    TrackerHand::LEFT
                } else {
                    TrackerHand::RIGHT
                });
                XrServer::singleton().add_tracker(&t);
                self.hands[i] = Some(t);
            }
        }
    }

    fn unregister(&mut self) {
        let mut server = XrServer::singleton();
        if let Some(head) = self.head.take() {
            server.remove_tracker(&head);
        }
        for t in self.hands.iter_mut() {
            if let Some(t) = t.take() {
                server.remove_tracker(&t);
            }
        }
    }

    fn push_all(&mut self) {
        let zero = Vector3::ZERO;
        if let Some(h) = self.head.as_mut() {
            if self.tracked[0] {
                h.set_pose(
                    "default",
                    self.head_pose,
                    zero,
                    zero,
                    TrackingConfidence::HIGH,
                );
            } else {
                h.invalidate_pose("default");
            }
        }
        let poses = [self.left_hand_pose, self.right_hand_pose];
        let tracked = [self.tracked[1], self.tracked[2]];
        for ((t, pose), tracked) in self.hands.iter_mut().zip(poses).zip(tracked) {
            if let Some(t) = t.as_mut() {
                for name in ["default", "grip", "aim"] {
                    if tracked {
                        t.set_pose(name, pose, zero, zero, TrackingConfidence::HIGH);
                    } else {
                        t.invalidate_pose(name);
                    }
                }
            }
        }
    }

    fn push_inputs(&mut self, hand: usize, inputs: &ControllerInputs) {
        if let Some(t) = self.hands[hand].as_mut() {
            t.set_input("grip", &inputs.grip.to_variant());
            t.set_input("trigger", &inputs.trigger.to_variant());
            t.set_input(
                "primary",
                &Vector2::new(inputs.stick.x, inputs.stick.y).to_variant(),
            );
        }
    }
}
