//! A BVH reader with forward kinematics.
//!
//! Handles any channel order per joint (CMU "cgspeed" files use `Zrotation Xrotation Yrotation`
//! for the Daz-friendly family and `Zrotation Yrotation Xrotation` for the MotionBuilder one).
//! Rotation channels are applied in the listed order (`R = R1 * R2 * R3`), degrees; positions and
//! offsets are multiplied by `unit_m` to give metres.

use glam::{Quat, Vec3};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Xposition,
    Yposition,
    Zposition,
    Xrotation,
    Yrotation,
    Zrotation,
}

#[derive(Clone, Debug)]
pub struct Joint {
    pub name: String,
    pub parent: Option<usize>,
    /// Offset from the parent in file units.
    pub offset: Vec3,
    pub channels: Vec<Channel>,
    /// Index of this joint's first channel in a frame.
    pub first_channel: usize,
}

#[derive(Clone, Debug)]
pub struct Bvh {
    pub joints: Vec<Joint>,
    /// Seconds per frame as the header says.
    pub frame_time: f32,
    /// Channel values, one row per frame.
    pub frames: Vec<Vec<f32>>,
}

/// A line of a BVH file that could not be read.
#[derive(Clone, Debug)]
pub struct BvhError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for BvhError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl Bvh {
    pub fn parse(text: &str) -> Result<Bvh, BvhError> {
        let mut joints: Vec<Joint> = Vec::new();
        let mut stack: Vec<Option<usize>> = Vec::new();
        let mut pending_end = false;
        let mut channel_count = 0;
        let mut lines = text.lines().enumerate();
        let err = |line: usize, message: &str| BvhError {
            line: line + 1,
            message: message.to_string(),
        };
        for (no, line) in lines.by_ref() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first().copied() {
                Some("HIERARCHY") | None => {}
                Some("ROOT") | Some("JOINT") => {
                    let name = words
                        .get(1)
                        .ok_or_else(|| err(no, "joint without a name"))?;
                    let parent = stack.last().copied().flatten();
                    joints.push(Joint {
                        name: name.to_string(),
                        parent,
                        offset: Vec3::ZERO,
                        channels: Vec::new(),
                        first_channel: 0,
                    });
                    pending_end = false;
                }
                Some("End") => pending_end = true,
                Some("{") => {
                    if pending_end {
                        stack.push(None);
                    } else {
                        stack.push(Some(
                            joints
                                .len()
                                .checked_sub(1)
                                .ok_or_else(|| err(no, "'{' before any joint"))?,
                        ));
                    }
                    pending_end = false;
                }
                Some("}") => {
                    stack.pop().ok_or_else(|| err(no, "unbalanced '}'"))?;
                }
                Some("OFFSET") => {
                    let v: Result<Vec<f32>, _> =
                        words[1..].iter().map(|w| w.parse::<f32>()).collect();
                    let v = v.map_err(|_| err(no, "bad OFFSET"))?;
                    if v.len() != 3 {
                        return Err(err(no, "OFFSET needs 3 numbers"));
                    }
                    if let Some(Some(j)) = stack.last() {
                        joints[*j].offset = Vec3::new(v[0], v[1], v[2]);
                    }
                }
                Some("CHANNELS") => {
                    let j = stack
                        .last()
                        .copied()
                        .flatten()
                        .ok_or_else(|| err(no, "CHANNELS outside a joint"))?;
                    let mut chans = Vec::new();
                    for w in words.iter().skip(2) {
                        chans.push(match *w {
                            "Xposition" => Channel::Xposition,
                            "Yposition" => Channel::Yposition,
                            "Zposition" => Channel::Zposition,
                            "Xrotation" => Channel::Xrotation,
                            "Yrotation" => Channel::Yrotation,
                            "Zrotation" => Channel::Zrotation,
                            other => return Err(err(no, &format!("unknown channel {other}"))),
                        });
                    }
                    joints[j].first_channel = channel_count;
                    channel_count += chans.len();
                    joints[j].channels = chans;
                }
                Some("MOTION") => break,
                Some(other) => return Err(err(no, &format!("unexpected '{other}'"))),
            }
        }
        let mut frame_time = 1.0 / 120.0;
        let mut frames = Vec::new();
        for (no, line) in lines {
            let t = line.trim();
            if t.is_empty() || t.starts_with("Frames:") {
                continue;
            }
            if let Some(v) = t.strip_prefix("Frame Time:") {
                frame_time = v.trim().parse().map_err(|_| err(no, "bad Frame Time"))?;
                continue;
            }
            let row: Result<Vec<f32>, _> = t.split_whitespace().map(|w| w.parse::<f32>()).collect();
            let row = row.map_err(|_| err(no, "bad number in a frame"))?;
            if row.len() != channel_count {
                return Err(err(
                    no,
                    &format!("{} values, expected {channel_count}", row.len()),
                ));
            }
            frames.push(row);
        }
        if joints.is_empty() {
            return Err(err(0, "no joints"));
        }
        Ok(Bvh {
            joints,
            frame_time,
            frames,
        })
    }

    pub fn joint(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// World positions (metres) and rotations of every joint in frame `f`.
    pub fn pose(&self, f: usize, unit_m: f32) -> Vec<(Vec3, Quat)> {
        let row = &self.frames[f];
        let mut out: Vec<(Vec3, Quat)> = Vec::with_capacity(self.joints.len());
        for j in &self.joints {
            let mut pos = j.offset;
            let mut rot = Quat::IDENTITY;
            for (k, c) in j.channels.iter().enumerate() {
                let v = row[j.first_channel + k];
                match c {
                    Channel::Xposition => pos.x = j.offset.x + v,
                    Channel::Yposition => pos.y = j.offset.y + v,
                    Channel::Zposition => pos.z = j.offset.z + v,
                    Channel::Xrotation => rot *= Quat::from_rotation_x(v.to_radians()),
                    Channel::Yrotation => rot *= Quat::from_rotation_y(v.to_radians()),
                    Channel::Zrotation => rot *= Quat::from_rotation_z(v.to_radians()),
                }
            }
            let local_pos = pos * unit_m;
            let world = match j.parent {
                Some(p) => {
                    let (pp, pr) = out[p];
                    (pp + pr * local_pos, (pr * rot).normalize())
                }
                None => (local_pos, rot.normalize()),
            };
            out.push(world);
        }
        out
    }

    /// World positions (metres) of every joint in the rest pose (all channels zero).
    pub fn rest(&self, unit_m: f32) -> Vec<Vec3> {
        let mut out: Vec<Vec3> = Vec::with_capacity(self.joints.len());
        for j in &self.joints {
            let p = j.offset * unit_m + j.parent.map(|p| out[p]).unwrap_or(Vec3::ZERO);
            out.push(p);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "HIERARCHY
ROOT hip
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT arm
  {
    OFFSET 10 0 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 5 0 0
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.0083333
0 100 0 0 0 0 0 0 0
0 100 0 0 0 90 90 0 0
";

    #[test]
    fn parses_and_runs_forward_kinematics() {
        let b = Bvh::parse(SMALL).unwrap();
        assert_eq!(b.joints.len(), 2);
        assert_eq!(b.frames.len(), 2);
        assert!((b.frame_time - 0.0083333).abs() < 1e-7);
        let p0 = b.pose(0, 0.01);
        assert!(p0[1].0.distance(Vec3::new(0.1, 1.0, 0.0)) < 1e-6);
        // Root yawed 90 degrees about Y: the arm's offset +X turns to -Z.
        let p1 = b.pose(1, 0.01);
        assert!(
            p1[1].0.distance(Vec3::new(0.0, 1.0, -0.1)) < 1e-5,
            "{}",
            p1[1].0
        );
    }

    #[test]
    fn channel_order_is_applied_as_listed() {
        // Zrotation then Xrotation: R = Rz * Rx.
        let text = SMALL.replace("0 100 0 0 0 90 90 0 0", "0 100 0 90 90 0 0 0 0");
        let b = Bvh::parse(&text).unwrap();
        let (_, r) = b.pose(1, 0.01)[0];
        let expected = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)
            * Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
        assert!(r.dot(expected).abs() > 0.999_999, "{r} vs {expected}");
    }

    #[test]
    fn bad_files_name_the_line() {
        let e = Bvh::parse("HIERARCHY\nROOT a\n{\n  OFFSET 1 2\n}\n").unwrap_err();
        assert_eq!(e.line, 4);
    }
}
