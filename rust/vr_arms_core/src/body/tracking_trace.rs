//! Recorded tracking: headset and controller poses plus controller inputs over time.
//!
//! The simulated tracking node replays a trace into Godot's XR trackers, and the core tests and
//! benchmarks drive the pipeline from the same data. The file format is CSV with a header, one
//! frame per line, so traces are easy to write by hand, by script or by a recorder:
//!
//! ```text
//! time, head_px, head_py, head_pz, head_qx, head_qy, head_qz, head_qw, left_..., right_...,
//! left_grip, left_trigger, left_stick_x, left_stick_y, right_grip, ...
//! ```
//! Positions in metres (XR tracking space), rotations as unit quaternions, time in seconds.

use glam::{Quat, Vec2, Vec3};

use crate::maths::pose::Pose;

/// Analog inputs of one controller.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ControllerInputs {
    /// Grip, 0..1.
    pub grip: f32,
    /// Trigger, 0..1.
    pub trigger: f32,
    /// Thumbstick, -1..1 on each axis (+y is up/forward).
    pub stick: Vec2,
}

/// One sample of tracking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrackingFrame {
    /// Seconds since the start of the trace.
    pub time: f32,
    pub head: Pose,
    pub left: Pose,
    pub right: Pose,
    pub left_inputs: ControllerInputs,
    pub right_inputs: ControllerInputs,
}

/// A time-ordered list of frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrackingTrace {
    pub frames: Vec<TrackingFrame>,
}

/// Column names, in file order.
pub const COLUMNS: [&str; 30] = [
    "time",
    "head_px",
    "head_py",
    "head_pz",
    "head_qx",
    "head_qy",
    "head_qz",
    "head_qw",
    "left_px",
    "left_py",
    "left_pz",
    "left_qx",
    "left_qy",
    "left_qz",
    "left_qw",
    "right_px",
    "right_py",
    "right_pz",
    "right_qx",
    "right_qy",
    "right_qz",
    "right_qw",
    "left_grip",
    "left_trigger",
    "left_stick_x",
    "left_stick_y",
    "right_grip",
    "right_trigger",
    "right_stick_x",
    "right_stick_y",
];

/// A line of a trace that could not be read.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceError {
    /// 1-based line number.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TraceError {}

impl TrackingTrace {
    /// Parses CSV text. The header line is required; extra columns after `right_stick_y` are
    /// ignored.
    /// Frames must be in increasing time order.
    pub fn parse_csv(text: &str) -> Result<Self, TraceError> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        let (header_no, header) = lines.next().ok_or(TraceError {
            line: 1,
            message: "empty trace: expected a header line".into(),
        })?;
        let names: Vec<&str> = header.split(',').map(str::trim).collect();
        let needed = COLUMNS.len();
        if names.len() < needed || names[..needed] != COLUMNS[..needed] {
            return Err(TraceError {
                line: header_no + 1,
                message: format!("header must start with: {}", COLUMNS[..needed].join(",")),
            });
        }
        let mut frames: Vec<TrackingFrame> = Vec::new();
        for (no, line) in lines {
            let err = |message: String| TraceError {
                line: no + 1,
                message,
            };
            let values: Result<Vec<f32>, _> =
                line.split(',').map(|v| v.trim().parse::<f32>()).collect();
            let v = values.map_err(|e| err(format!("not a number: {e}")))?;
            if v.len() < needed {
                return Err(err(format!("{} values, expected {needed}", v.len())));
            }
            if v.iter().any(|x| !x.is_finite()) {
                return Err(err("non-finite value".into()));
            }
            let pose_at = |i: usize| {
                Pose::new(
                    Vec3::new(v[i], v[i + 1], v[i + 2]),
                    Quat::from_xyzw(v[i + 3], v[i + 4], v[i + 5], v[i + 6]),
                )
                .sanitized(&Pose::IDENTITY)
            };
            let inputs_at = |i: usize| ControllerInputs {
                grip: v[i],
                trigger: v[i + 1],
                stick: Vec2::new(v[i + 2], v[i + 3]),
            };
            let frame = TrackingFrame {
                time: v[0],
                head: pose_at(1),
                left: pose_at(8),
                right: pose_at(15),
                left_inputs: inputs_at(22),
                right_inputs: inputs_at(26),
            };
            if let Some(last) = frames.last()
                && frame.time < last.time
            {
                return Err(err(format!(
                    "time {} goes backwards (previous {})",
                    frame.time, last.time
                )));
            }
            frames.push(frame);
        }
        Ok(Self { frames })
    }

    /// CSV text that [`parse_csv`](Self::parse_csv) reads back.
    pub fn to_csv(&self) -> String {
        let mut out = COLUMNS.join(",");
        out.push('\n');
        for f in &self.frames {
            let mut v = vec![f.time];
            for p in [f.head, f.left, f.right] {
                v.extend_from_slice(&[p.position.x, p.position.y, p.position.z]);
                v.extend_from_slice(&[p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w]);
            }
            for i in [f.left_inputs, f.right_inputs] {
                v.extend_from_slice(&[i.grip, i.trigger, i.stick.x, i.stick.y]);
            }
            let line: Vec<String> = v.iter().map(|x| format!("{x}")).collect();
            out.push_str(&line.join(","));
            out.push('\n');
        }
        out
    }

    /// Duration in seconds (time of the last frame).
    pub fn duration(&self) -> f32 {
        self.frames.last().map(|f| f.time).unwrap_or(0.0)
    }

    /// The tracking at `time`: poses interpolated between the two nearest frames (slerp for
    /// rotations), inputs taken from the earlier frame. Clamped to the first and last frame.
    pub fn sample(&self, time: f32) -> Option<TrackingFrame> {
        let first = self.frames.first()?;
        if time.is_nan() || time <= first.time {
            return Some(*first);
        }
        let next = self.frames.partition_point(|f| f.time <= time);
        if next >= self.frames.len() {
            return self.frames.last().copied();
        }
        let a = &self.frames[next - 1];
        let b = &self.frames[next];
        let span = b.time - a.time;
        let t = if span > 1e-9 {
            (time - a.time) / span
        } else {
            1.0
        };
        let lerp = |p: Pose, q: Pose| {
            Pose::new(
                p.position.lerp(q.position, t),
                p.rotation.slerp(q.rotation, t).normalize(),
            )
        };
        Some(TrackingFrame {
            time,
            head: lerp(a.head, b.head),
            left: lerp(a.left, b.left),
            right: lerp(a.right, b.right),
            left_inputs: a.left_inputs,
            right_inputs: a.right_inputs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(time: f32, x: f32) -> TrackingFrame {
        TrackingFrame {
            time,
            head: Pose::from_position(Vec3::new(0.0, 1.6, 0.0)),
            left: Pose::new(Vec3::new(x, 1.0, -0.3), Quat::from_rotation_y(x)),
            right: Pose::from_position(Vec3::new(-x, 1.0, -0.3)),
            left_inputs: ControllerInputs {
                grip: 1.0,
                trigger: 0.5,
                stick: Vec2::new(0.0, -1.0),
            },
            right_inputs: ControllerInputs::default(),
        }
    }

    #[test]
    fn csv_round_trip() {
        let trace = TrackingTrace {
            frames: vec![frame(0.0, 0.1), frame(0.5, 0.3)],
        };
        let back = TrackingTrace::parse_csv(&trace.to_csv()).unwrap();
        assert_eq!(back.frames.len(), 2);
        assert!((back.frames[1].left.position.x - 0.3).abs() < 1e-6);
        assert_eq!(back.frames[0].left_inputs.stick, Vec2::new(0.0, -1.0));
    }

    #[test]
    fn sample_interpolates_and_clamps() {
        let trace = TrackingTrace {
            frames: vec![frame(0.0, 0.0), frame(1.0, 0.4)],
        };
        let mid = trace.sample(0.5).unwrap();
        assert!((mid.left.position.x - 0.2).abs() < 1e-6);
        assert!(mid.left.rotation.angle_between(Quat::from_rotation_y(0.2)) < 1e-5);
        assert_eq!(trace.sample(-3.0).unwrap().left.position.x, 0.0);
        assert_eq!(trace.sample(9.0).unwrap().left.position.x, 0.4);
        assert!(TrackingTrace::default().sample(0.0).is_none());
    }

    #[test]
    fn bad_lines_are_named() {
        let mut text = TrackingTrace {
            frames: vec![frame(0.0, 0.0)],
        }
        .to_csv();
        text.push_str("0.1,oops\n");
        let e = TrackingTrace::parse_csv(&text).unwrap_err();
        assert_eq!(e.line, 3);
        let e = TrackingTrace::parse_csv("time,x\n").unwrap_err();
        assert_eq!(e.line, 1);
        let mut backwards = TrackingTrace {
            frames: vec![frame(1.0, 0.0), frame(0.5, 0.0)],
        }
        .to_csv();
        backwards.push('\n');
        assert_eq!(TrackingTrace::parse_csv(&backwards).unwrap_err().line, 3);
    }

    #[test]
    fn comments_and_blank_lines_are_skipped_and_errors_say_their_line() {
        let trace = TrackingTrace {
            frames: vec![frame(0.0, 0.0), frame(1.0, 0.4)],
        };
        let csv = trace.to_csv();
        let mut lines: Vec<&str> = csv.lines().collect();
        lines.insert(1, "# a comment");
        lines.insert(2, "   ");
        lines.insert(0, "# recorded by hand");
        let read = TrackingTrace::parse_csv(&lines.join("\n")).unwrap();
        // Too few values is an error; extra values after the last column are ignored.
        let short = format!("{}\n0.1,1,2,3,4\n", COLUMNS.join(","));
        let e = TrackingTrace::parse_csv(&short).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (2, "5 values, expected 30"));
        let long = csv.replace('\n', ",9\n").replacen(",9\n", "\n", 1);
        assert_eq!(TrackingTrace::parse_csv(&long).unwrap(), read);
        assert_eq!(read, TrackingTrace::parse_csv(&csv).unwrap());
        let e = TraceError {
            line: 7,
            message: "non-finite value".into(),
        };
        assert_eq!(e.to_string(), "line 7: non-finite value");
    }

    #[test]
    fn every_column_lands_in_its_field() {
        // Distinct values in all 30 columns; unit quaternions so nothing is renormalised.
        let q = |a: f32, b: f32, c: f32| {
            let w = (1.0 - a * a - b * b - c * c).sqrt();
            [a, b, c, w]
        };
        let (hq, lq, rq) = (q(0.1, 0.2, 0.3), q(0.15, 0.25, 0.35), q(0.05, 0.45, 0.1));
        let mut v = vec![0.5, 1.0, 1.6, 2.0];
        v.extend(hq);
        v.extend([3.0, 4.0, 5.0]);
        v.extend(lq);
        v.extend([6.0, 7.0, 8.0]);
        v.extend(rq);
        v.extend([0.11, 0.12, 0.13, 0.14, 0.21, 0.22, 0.23, 0.24]);
        let line: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        let text = format!("{}\n{}\n", COLUMNS.join(","), line.join(","));
        let f = TrackingTrace::parse_csv(&text).unwrap().frames[0];
        assert_eq!(f.time, 0.5);
        let quat = |a: [f32; 4]| Quat::from_xyzw(a[0], a[1], a[2], a[3]);
        let close = |p: Pose, pos: Vec3, rot: [f32; 4]| {
            p.position == pos && p.rotation.angle_between(quat(rot)) < 1e-5
        };
        assert!(close(f.head, Vec3::new(1.0, 1.6, 2.0), hq), "{:?}", f.head);
        assert!(close(f.left, Vec3::new(3.0, 4.0, 5.0), lq), "{:?}", f.left);
        assert!(
            close(f.right, Vec3::new(6.0, 7.0, 8.0), rq),
            "{:?}",
            f.right
        );
        let inputs = |i: ControllerInputs| (i.grip, i.trigger, i.stick.x, i.stick.y);
        assert_eq!(inputs(f.left_inputs), (0.11, 0.12, 0.13, 0.14));
        assert_eq!(inputs(f.right_inputs), (0.21, 0.22, 0.23, 0.24));
    }

    #[test]
    fn frames_at_the_same_time_are_allowed_and_sampling_spans_any_gap() {
        let trace = TrackingTrace {
            frames: vec![frame(1.0, 0.0), frame(3.0, 0.4), frame(3.0, 0.8)],
        };
        let read = TrackingTrace::parse_csv(&trace.to_csv()).unwrap();
        assert_eq!(read.frames.len(), 3);
        assert_eq!(read.duration(), 3.0);
        assert_eq!(TrackingTrace::default().duration(), 0.0);
        // Half-way through a 2 s gap that starts at 1 s.
        let mid = read.sample(2.0).unwrap();
        assert!(
            (mid.left.position.x - 0.2).abs() < 1e-6,
            "{}",
            mid.left.position
        );
        let quarter = read.sample(1.5).unwrap();
        assert!((quarter.left.position.x - 0.1).abs() < 1e-6);
    }
}
