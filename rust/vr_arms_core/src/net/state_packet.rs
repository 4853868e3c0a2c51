//! The avatar state stream: what the owner of an avatar sends, unreliably, many times a second,
//! and the checks every received packet passes before it can move a bone.
//!
//! Layout (47 bytes, 53 with finger curls; little endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0 | kind and version ([STATE_TAG]) |
//! | 1 | sequence number (u8, wraps) |
//! | 2-3 | sender's clock (ms, u16, wraps every 65.5 s) |
//! | 4 | flags: head, left, right tracked; left, right hand tracking (bits 0-4); revolver state + 1, 0 for none (bits 5-7) |
//! | 5 | body flags: seated (bit 0); the other bits 0 |
//! | 6 | the avatar's scale (the height fit), 0.5-2.0 in 255 steps |
//! | 7-12 | the avatar root's world position (3 x i16, 1/64 m: +-512 m) |
//! | 13-42 | head, left hand, right hand: position from the root (3 x i16, 1/4096 m: +-8 m) and world rotation (u32, smallest three) |
//! | 43-46 | per hand: grip (u8), trigger (u8) |
//! | 47-52 | only when a hand is hand-tracked: per hand five finger curls (4 bits each, 3 bytes) |
//!
//! Positions are sent from the avatar's root, so they keep their 0.12 mm steps wherever the
//! player walks (within 512 m of the world origin); the root itself only anchors them.

use glam::Vec3;

use super::quantize::{
    decode_position, decode_rotation, decode_unit_u4, decode_unit_u8, encode_position,
    encode_rotation, encode_unit_u4, encode_unit_u8,
};
use crate::maths::pose::Pose;

/// First byte of a state packet: kind 1 (state) in the high nibble, layout version 3 below
/// (version 2 had no body flags: a peer with an older addon is refused as another kind).
pub const STATE_TAG: u8 = 0x13;
/// Bytes in a state packet without finger curls.
pub const STATE_PACKET_BYTES: usize = 47;
/// Bytes in a state packet with finger curls (a hand is hand-tracked).
pub const STATE_PACKET_WITH_CURLS_BYTES: usize = 53;
/// The body flags' bit for a seated player.
const SEATED_BIT: u8 = 1;
/// Smallest and largest avatar scale a packet carries.
pub const SCALE_RANGE: (f32, f32) = (0.5, 2.0);
/// Step of the root's position (metres).
pub const ROOT_STEP_M: f32 = 1.0 / 64.0;

/// One tracked hand as the network carries it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HandState {
    /// The controller (or tracked hand): position from the avatar root, world rotation.
    pub pose: Pose,
    pub tracked: bool,
    /// Fingers come from hand tracking rather than the controller.
    pub hand_tracking: bool,
    /// Grip and trigger, 0..1.
    pub grip: f32,
    pub trigger: f32,
    /// Thumb, index, middle, ring, little: 0 open, 1 curled. Sent only while a hand is
    /// hand-tracked (otherwise the receiver curls the fingers from grip and trigger).
    pub curls: [f32; 5],
}

/// One sample of a player's avatar: the three tracked points, the hands, the revolver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AvatarState {
    /// The avatar's uniform scale (the height fit or calibration made it), 0.5-2.0; the remote
    /// avatar is scaled the same so its arms reach as far.
    pub scale: f32,
    /// The avatar root's world position: the other positions are from it.
    pub root: Vec3,
    /// The headset: position from the avatar root, world rotation.
    pub head: Pose,
    pub head_tracked: bool,
    /// Left, right.
    pub hands: [HandState; 2],
    /// The revolver's state (`RevolverState as u8`), if the avatar has one.
    pub revolver: Option<u8>,
    /// The player sits (the game said so, or the body saw it from the headset): the remote
    /// body sits too.
    pub seated: bool,
}

impl Default for AvatarState {
    fn default() -> Self {
        Self {
            scale: 1.0,
            root: Vec3::ZERO,
            head: Pose::IDENTITY,
            head_tracked: false,
            hands: [HandState::default(); 2],
            revolver: None,
            seated: false,
        }
    }
}

/// A state packet's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateHeader {
    pub sequence: u8,
    /// The sender's clock in milliseconds, modulo 65536.
    pub time_ms: u16,
}

/// Limits a received state must be within to be believed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StateLimits {
    /// Farthest a tracked hand may be from the tracked head (metres).
    pub max_hand_from_head_m: f32,
    /// Farthest the head may be from the avatar root (metres).
    pub max_head_from_root_m: f32,
}

impl Default for StateLimits {
    fn default() -> Self {
        Self {
            max_hand_from_head_m: 1.5,
            max_head_from_root_m: 3.0,
        }
    }
}

/// Why a packet was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PacketError {
    /// Shorter than its layout.
    Truncated,
    /// Longer than its layout.
    Oversized,
    /// Not this kind of packet, or another layout version.
    WrongKind,
    /// A rotation no unit quaternion has, a revolver state that does not exist, or a body flag
    /// this version does not know.
    Corrupt,
    /// Well formed but not a body: a hand far from the head, a head far from the root.
    Absurd,
}

impl PacketError {
    pub const ALL: [PacketError; 5] = [
        PacketError::Truncated,
        PacketError::Oversized,
        PacketError::WrongKind,
        PacketError::Corrupt,
        PacketError::Absurd,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PacketError::Truncated => "truncated",
            PacketError::Oversized => "oversized",
            PacketError::WrongKind => "wrong_kind",
            PacketError::Corrupt => "corrupt",
            PacketError::Absurd => "absurd",
        }
    }
}

/// Number of revolver states a packet may name (`RevolverState` 0-4).
const REVOLVER_STATES: u8 = 5;

fn put_pose(out: &mut Vec<u8>, p: &Pose) {
    for c in encode_position(p.position) {
        out.extend_from_slice(&c.to_le_bytes());
    }
    out.extend_from_slice(&encode_rotation(p.rotation).to_le_bytes());
}

/// The packet for `state`. Never fails: values out of range are clamped, non-finite ones
/// replaced (see [super::quantize]).
pub fn encode_state(header: StateHeader, state: &AvatarState) -> Vec<u8> {
    let mut out = Vec::with_capacity(STATE_PACKET_WITH_CURLS_BYTES);
    out.push(STATE_TAG);
    out.push(header.sequence);
    out.extend_from_slice(&header.time_ms.to_le_bytes());
    let [l, r] = &state.hands;
    let revolver = match state.revolver {
        Some(s) if s < REVOLVER_STATES => s + 1,
        _ => 0,
    };
    let flags = state.head_tracked as u8
        | (l.tracked as u8) << 1
        | (r.tracked as u8) << 2
        | (l.hand_tracking as u8) << 3
        | (r.hand_tracking as u8) << 4
        | revolver << 5;
    out.push(flags);
    out.push(if state.seated { SEATED_BIT } else { 0 });
    let (lo, hi) = SCALE_RANGE;
    let scale = if state.scale.is_finite() {
        state.scale.clamp(lo, hi)
    } else {
        1.0
    };
    out.push(((scale - lo) / (hi - lo) * 255.0).round() as u8);
    // The root on its coarse grid; the other positions from that grid point, so the root's
    // rounding does not move them.
    let root = finite_or_zero(state.root);
    let grid = root.to_array().map(|c| {
        (c / ROOT_STEP_M)
            .round()
            .clamp(i16::MIN as f32, i16::MAX as f32) as i16
    });
    for c in grid {
        out.extend_from_slice(&c.to_le_bytes());
    }
    let shift = root - Vec3::from_array(grid.map(|c| c as f32 * ROOT_STEP_M));
    for p in [&state.head, &l.pose, &r.pose] {
        put_pose(
            &mut out,
            &Pose::new(finite_or_zero(p.position) + shift, p.rotation),
        );
    }
    for h in &state.hands {
        out.push(encode_unit_u8(h.grip));
        out.push(encode_unit_u8(h.trigger));
    }
    if l.hand_tracking || r.hand_tracking {
        for h in &state.hands {
            let c = h.curls.map(encode_unit_u4);
            out.push(c[0] | c[1] << 4);
            out.push(c[2] | c[3] << 4);
            out.push(c[4]);
        }
    }
    out
}

fn finite_or_zero(v: Vec3) -> Vec3 {
    Vec3::from_array(v.to_array().map(|c| if c.is_finite() { c } else { 0.0 }))
}

/// Reads little-endian fields in order.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u8(&mut self) -> u8 {
        let v = self.bytes[self.at];
        self.at += 1;
        v
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }
    fn pose(&mut self) -> Option<Pose> {
        let p = [0; 3].map(|_: i32| self.u16() as i16);
        let q = decode_rotation(self.u32())?;
        Some(Pose::new(decode_position(p), q))
    }
}

/// The header and state in `bytes`, if it is a well-formed state packet within `limits`.
/// Everything it returns is finite.
pub fn decode_state(
    bytes: &[u8],
    limits: &StateLimits,
) -> Result<(StateHeader, AvatarState), PacketError> {
    if bytes.is_empty() || bytes[0] != STATE_TAG {
        return Err(if bytes.is_empty() {
            PacketError::Truncated
        } else {
            PacketError::WrongKind
        });
    }
    if bytes.len() < STATE_PACKET_BYTES {
        return Err(PacketError::Truncated);
    }
    let curls = bytes[4] & 0b1_1000 != 0;
    let want = if curls {
        STATE_PACKET_WITH_CURLS_BYTES
    } else {
        STATE_PACKET_BYTES
    };
    if bytes.len() < want {
        return Err(PacketError::Truncated);
    }
    if bytes.len() > want {
        return Err(PacketError::Oversized);
    }
    let mut r = Reader { bytes, at: 1 };
    let header = StateHeader {
        sequence: r.u8(),
        time_ms: r.u16(),
    };
    let flags = r.u8();
    let revolver = match flags >> 5 {
        0 => None,
        s if s <= REVOLVER_STATES => Some(s - 1),
        _ => return Err(PacketError::Corrupt),
    };
    let body = r.u8();
    if body & !SEATED_BIT != 0 {
        return Err(PacketError::Corrupt);
    }
    let (lo, hi) = SCALE_RANGE;
    let scale = lo + r.u8() as f32 / 255.0 * (hi - lo);
    let root = Vec3::from_array([0; 3].map(|_: i32| r.u16() as i16 as f32 * ROOT_STEP_M));
    let poses = [r.pose(), r.pose(), r.pose()];
    let [Some(head), Some(left), Some(right)] = poses else {
        return Err(PacketError::Corrupt);
    };
    let mut state = AvatarState {
        scale,
        root,
        head,
        head_tracked: flags & 1 != 0,
        hands: [HandState::default(); 2],
        revolver,
        seated: body & SEATED_BIT != 0,
    };
    for (i, (h, pose)) in state.hands.iter_mut().zip([left, right]).enumerate() {
        h.pose = pose;
        h.tracked = flags & (2 << i) != 0;
        h.hand_tracking = flags & (8 << i) != 0;
        h.grip = decode_unit_u8(r.u8());
        h.trigger = decode_unit_u8(r.u8());
    }
    if curls {
        for h in &mut state.hands {
            let (a, b, c) = (r.u8(), r.u8(), r.u8());
            h.curls = [a, a >> 4, b, b >> 4, c].map(decode_unit_u4);
        }
    }
    if !plausible(&state, limits) {
        return Err(PacketError::Absurd);
    }
    Ok((header, state))
}

fn plausible(s: &AvatarState, limits: &StateLimits) -> bool {
    let head = s.head.position;
    head.length() <= limits.max_head_from_root_m
        && s.hands.iter().all(|h| {
            !(h.tracked && s.head_tracked)
                || h.pose.position.distance(head) <= limits.max_hand_from_head_m
        })
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;

    fn sample_state() -> AvatarState {
        let hand = |x: f32, grip: f32| HandState {
            pose: Pose::new(
                Vec3::new(x, 1.2, 0.35),
                Quat::from_rotation_x(0.4) * Quat::from_rotation_y(x),
            ),
            tracked: true,
            hand_tracking: x > 0.0,
            grip,
            trigger: 1.0 - grip,
            curls: [0.0, 0.25, 0.5, 0.75, 1.0],
        };
        AvatarState {
            scale: 1.13,
            // Off the root's grid.
            root: Vec3::new(105.3, 0.011, -47.2),
            head: Pose::new(Vec3::new(0.02, 1.63, 0.05), Quat::from_rotation_y(0.3)),
            head_tracked: true,
            hands: [hand(0.25, 0.2), hand(-0.3, 0.9)],
            revolver: Some(2),
            seated: true,
        }
    }

    #[test]
    fn a_state_round_trips_within_the_stated_precision() {
        let s = sample_state();
        let header = StateHeader {
            sequence: 255,
            time_ms: 1234,
        };
        let bytes = encode_state(header, &s);
        assert_eq!(
            bytes.len(),
            STATE_PACKET_WITH_CURLS_BYTES,
            "a hand is hand-tracked"
        );
        let (h, back) = decode_state(&bytes, &StateLimits::default()).unwrap();
        assert_eq!(h, header);
        assert_eq!(
            (back.head_tracked, back.revolver, back.seated),
            (true, Some(2), true)
        );
        assert!(
            (back.scale - 1.13).abs() <= 0.75 / 255.0 + 1e-6,
            "{}",
            back.scale
        );
        let poses = |s: &AvatarState| [s.head, s.hands[0].pose, s.hands[1].pose];
        for (a, b) in poses(&s).iter().zip(poses(&back)) {
            // World positions: the root's rounding is carried by the offsets.
            let (wa, wb) = (s.root + a.position, back.root + b.position);
            assert!(wa.distance(wb) < 2.2e-4, "{wa} {wb}");
            assert!(a.rotation.angle_between(b.rotation).to_degrees() < 0.25);
        }
        for (a, b) in s.hands.iter().zip(&back.hands) {
            assert_eq!((a.tracked, a.hand_tracking), (b.tracked, b.hand_tracking));
            assert!((a.grip - b.grip).abs() <= 0.5 / 255.0 + 1e-6);
            assert!((a.trigger - b.trigger).abs() <= 0.5 / 255.0 + 1e-6);
            for (x, y) in a.curls.iter().zip(b.curls) {
                assert!((x - y).abs() <= 0.5 / 15.0 + 1e-6, "{x} {y}");
            }
        }
        assert_eq!(back.hands[0].curls[4], 1.0);
        assert!(!back.hands[1].hand_tracking && back.hands[0].hand_tracking);
        let standing = AvatarState { seated: false, ..s };
        let (_, back) =
            decode_state(&encode_state(header, &standing), &StateLimits::default()).unwrap();
        assert!(!back.seated);
    }

    #[test]
    fn non_finite_states_become_finite_packets() {
        let mut s = sample_state();
        s.head.position.x = f32::NAN;
        s.root.z = f32::INFINITY;
        s.hands[0].pose.rotation = Quat::from_xyzw(f32::INFINITY, 0.0, 0.0, 1.0);
        s.hands[1].grip = f32::NAN;
        s.revolver = Some(200);
        s.scale = f32::NAN;
        let (_, back) = decode_state(
            &encode_state(
                StateHeader {
                    sequence: 1,
                    time_ms: 2,
                },
                &s,
            ),
            &StateLimits::default(),
        )
        .unwrap();
        assert!((back.root.z + back.head.position.z - s.head.position.z).abs() < 1e-3);
        assert!((back.root.x + back.head.position.x - s.root.x).abs() < 1e-3);
        assert_eq!(back.hands[0].pose.rotation, Quat::IDENTITY);
        assert_eq!((back.hands[1].grip, back.revolver), (0.0, None));
        assert!((back.scale - 1.0).abs() < 0.006, "a bad scale is sent as 1");
    }

    #[test]
    fn malformed_packets_are_refused_by_kind() {
        let limits = StateLimits::default();
        let good = encode_state(
            StateHeader {
                sequence: 7,
                time_ms: 70,
            },
            &sample_state(),
        );
        assert_eq!(decode_state(&[], &limits), Err(PacketError::Truncated));
        assert_eq!(
            decode_state(&good[..STATE_PACKET_BYTES - 1], &limits),
            Err(PacketError::Truncated)
        );
        // Hand tracking on: the curls must be there.
        assert_eq!(
            decode_state(&good[..STATE_PACKET_WITH_CURLS_BYTES - 1], &limits),
            Err(PacketError::Truncated)
        );
        let mut long = good.clone();
        long.push(0);
        assert_eq!(decode_state(&long, &limits), Err(PacketError::Oversized));
        let mut plain = sample_state();
        plain.hands[0].hand_tracking = false;
        let short = encode_state(
            StateHeader {
                sequence: 1,
                time_ms: 2,
            },
            &plain,
        );
        assert_eq!(
            short.len(),
            STATE_PACKET_BYTES,
            "no curls without hand tracking"
        );
        assert!(decode_state(&short, &limits).is_ok());
        let mut other = good.clone();
        other[0] = 0x11;
        assert_eq!(decode_state(&other, &limits), Err(PacketError::WrongKind));
        // The layout before the body flags (version 2).
        other[0] = 0x12;
        assert_eq!(decode_state(&other, &limits), Err(PacketError::WrongKind));
        let mut bad_body = good.clone();
        bad_body[5] |= 2;
        assert_eq!(decode_state(&bad_body, &limits), Err(PacketError::Corrupt));
        let mut bad_gun = good.clone();
        bad_gun[4] |= 7 << 5;
        assert_eq!(decode_state(&bad_gun, &limits), Err(PacketError::Corrupt));
        let mut bad_rotation = good;
        bad_rotation[19..23].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(
            decode_state(&bad_rotation, &limits),
            Err(PacketError::Corrupt)
        );
    }

    #[test]
    fn a_hand_far_from_the_head_is_absurd_unless_untracked() {
        let limits = StateLimits::default();
        let header = StateHeader {
            sequence: 0,
            time_ms: 0,
        };
        let mut s = sample_state();
        s.hands[1].pose.position = Vec3::new(-3.0, 1.2, 0.0);
        assert_eq!(
            decode_state(&encode_state(header, &s), &limits),
            Err(PacketError::Absurd)
        );
        s.hands[1].tracked = false;
        assert!(decode_state(&encode_state(header, &s), &limits).is_ok());
        let mut high = sample_state();
        high.head.position.y = 5.0;
        assert_eq!(
            decode_state(&encode_state(header, &high), &limits),
            Err(PacketError::Absurd)
        );
    }

    #[test]
    fn any_bytes_decode_to_an_error_or_a_finite_state() {
        // A cheap deterministic generator: every outcome must be finite or refused.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let limits = StateLimits::default();
        let mut accepted = 0;
        for _ in 0..20_000 {
            let mut bytes = [0u8; STATE_PACKET_WITH_CURLS_BYTES];
            for b in bytes.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *b = x as u8;
            }
            bytes[0] = STATE_TAG;
            if let Ok((_, s)) = decode_state(&bytes, &limits) {
                accepted += 1;
                let poses = [s.head, s.hands[0].pose, s.hands[1].pose];
                assert!(poses.iter().all(|p| p.position.is_finite()
                    && p.rotation.is_finite()
                    && p.rotation.is_normalized()));
                assert!(s.hands.iter().all(|h| h.grip.is_finite()
                    && (0.0..=1.0).contains(&h.trigger)
                    && h.curls.iter().all(|c| (0.0..=1.0).contains(c))));
            }
        }
        assert!(accepted > 0, "some random bodies pass the checks");
    }
}
