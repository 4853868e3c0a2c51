//! The revolver's discrete events between peers: sent reliably and in order by the gun's owner,
//! played (sound, flash, recoil) by every other peer without deciding anything again.
//!
//! Layout: tag ([EVENT_TAG]), sequence number (u16, little endian), event code (u8); a shot adds
//! whether it hit (u8), the hit point (3 x f32, world space, metres) and the surface normal
//! (3 x i16, units of 1/32767). 4 bytes, or 23 for a shot.

use glam::Vec3;

use super::state_packet::PacketError;

/// First byte of an event packet: kind 2 (event), layout version 1.
pub const EVENT_TAG: u8 = 0x21;
/// Farthest a hit point may be from the world origin (metres) to be believed.
pub const MAX_HIT_DISTANCE_M: f32 = 100_000.0;

/// What the revolver did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RevolverNetEvent {
    Draw,
    Holster,
    Cock,
    /// A shot; `point` and `normal` are where it hit (world space) when `hit`.
    Fire {
        hit: bool,
        point: Vec3,
        normal: Vec3,
    },
    Drop,
    Reload,
}

impl RevolverNetEvent {
    fn code(&self) -> u8 {
        match self {
            RevolverNetEvent::Draw => 0,
            RevolverNetEvent::Holster => 1,
            RevolverNetEvent::Cock => 2,
            RevolverNetEvent::Fire { .. } => 3,
            RevolverNetEvent::Drop => 4,
            RevolverNetEvent::Reload => 5,
        }
    }

    /// The event called `name` ([Self::name]); a shot takes `hit`, `point` and `normal`, the
    /// others ignore them. `None` for no such event.
    pub fn named(name: &str, hit: bool, point: Vec3, normal: Vec3) -> Option<Self> {
        Some(match name {
            "draw" => RevolverNetEvent::Draw,
            "holster" => RevolverNetEvent::Holster,
            "cock" => RevolverNetEvent::Cock,
            "fire" => RevolverNetEvent::Fire { hit, point, normal },
            "drop" => RevolverNetEvent::Drop,
            "reload" => RevolverNetEvent::Reload,
            _ => return None,
        })
    }

    /// The event's name, as signals and logs give it.
    pub fn name(&self) -> &'static str {
        match self {
            RevolverNetEvent::Draw => "draw",
            RevolverNetEvent::Holster => "holster",
            RevolverNetEvent::Cock => "cock",
            RevolverNetEvent::Fire { .. } => "fire",
            RevolverNetEvent::Drop => "drop",
            RevolverNetEvent::Reload => "reload",
        }
    }
}

const HEADER_BYTES: usize = 4;
const FIRE_BYTES: usize = HEADER_BYTES + 1 + 12 + 6;

/// The packet for event number `sequence`. A shot's non-finite point is sent as a miss.
pub fn encode_event(sequence: u16, event: &RevolverNetEvent) -> Vec<u8> {
    let mut out = Vec::with_capacity(FIRE_BYTES);
    out.push(EVENT_TAG);
    out.extend_from_slice(&sequence.to_le_bytes());
    out.push(event.code());
    if let RevolverNetEvent::Fire { hit, point, normal } = *event {
        let usable = hit && point.is_finite() && point.length() <= MAX_HIT_DISTANCE_M;
        let (point, normal) = if usable {
            (point, normal.try_normalize().unwrap_or(Vec3::Y))
        } else {
            (Vec3::ZERO, Vec3::Y)
        };
        out.push(usable as u8);
        for c in point.to_array() {
            out.extend_from_slice(&c.to_le_bytes());
        }
        for c in normal.to_array() {
            let q = (c.clamp(-1.0, 1.0) * i16::MAX as f32).round() as i16;
            out.extend_from_slice(&q.to_le_bytes());
        }
    }
    out
}

/// The sequence number and event in `bytes`, if they are a well-formed event packet.
pub fn decode_event(bytes: &[u8]) -> Result<(u16, RevolverNetEvent), PacketError> {
    match bytes.first() {
        None => return Err(PacketError::Truncated),
        Some(&t) if t != EVENT_TAG => return Err(PacketError::WrongKind),
        _ => {}
    }
    if bytes.len() < HEADER_BYTES {
        return Err(PacketError::Truncated);
    }
    let sequence = u16::from_le_bytes([bytes[1], bytes[2]]);
    let code = bytes[3];
    let want = if code == 3 { FIRE_BYTES } else { HEADER_BYTES };
    if bytes.len() < want {
        return Err(PacketError::Truncated);
    }
    if bytes.len() > want {
        return Err(PacketError::Oversized);
    }
    let event = match code {
        0 => RevolverNetEvent::Draw,
        1 => RevolverNetEvent::Holster,
        2 => RevolverNetEvent::Cock,
        3 => {
            let f =
                |i: usize| f32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
            let n =
                |i: usize| i16::from_le_bytes([bytes[i], bytes[i + 1]]) as f32 / i16::MAX as f32;
            let hit = match bytes[4] {
                0 => false,
                1 => true,
                _ => return Err(PacketError::Corrupt),
            };
            let point = Vec3::new(f(5), f(9), f(13));
            let normal = Vec3::new(n(17), n(19), n(21));
            if !point.is_finite() {
                return Err(PacketError::Corrupt);
            }
            if point.length() > MAX_HIT_DISTANCE_M {
                return Err(PacketError::Absurd);
            }
            let Some(normal) = normal.try_normalize().filter(|_| normal.length() > 0.9) else {
                return Err(PacketError::Corrupt);
            };
            RevolverNetEvent::Fire { hit, point, normal }
        }
        4 => RevolverNetEvent::Drop,
        5 => RevolverNetEvent::Reload,
        _ => return Err(PacketError::Corrupt),
    };
    Ok((sequence, event))
}

/// What became of a received event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventReceipt {
    /// The next one: play it.
    InOrder,
    /// Newer than the next one: play it; `missed` events before it never came.
    AfterGap { missed: u16 },
    /// Already played (or older): dropped.
    Repeated,
}

/// Plays each event once, in the sender's order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventOrder {
    next: Option<u16>,
}

impl EventOrder {
    pub fn accept(&mut self, sequence: u16) -> EventReceipt {
        let receipt = match self.next {
            None => EventReceipt::InOrder,
            Some(next) => match sequence.wrapping_sub(next) {
                0 => EventReceipt::InOrder,
                d if d < 0x8000 => EventReceipt::AfterGap { missed: d },
                _ => return EventReceipt::Repeated,
            },
        };
        self.next = Some(sequence.wrapping_add(1));
        receipt
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_round_trips() {
        let shot = RevolverNetEvent::Fire {
            hit: true,
            point: Vec3::new(1.5, 1.2, -8.25),
            normal: Vec3::new(0.0, 0.0, 1.0),
        };
        for (i, e) in [
            RevolverNetEvent::Draw,
            RevolverNetEvent::Holster,
            RevolverNetEvent::Cock,
            shot,
            RevolverNetEvent::Drop,
            RevolverNetEvent::Reload,
        ]
        .iter()
        .enumerate()
        {
            let bytes = encode_event(i as u16 + 65530, e);
            assert_eq!(bytes.len(), if i == 3 { 23 } else { 4 });
            assert_eq!(decode_event(&bytes), Ok((i as u16 + 65530, *e)));
        }
    }

    #[test]
    fn events_have_their_names_and_a_miss_sends_no_point() {
        let names = [
            RevolverNetEvent::Draw,
            RevolverNetEvent::Holster,
            RevolverNetEvent::Cock,
            RevolverNetEvent::Fire {
                hit: false,
                point: Vec3::ZERO,
                normal: Vec3::Y,
            },
            RevolverNetEvent::Drop,
            RevolverNetEvent::Reload,
        ]
        .map(|e| e.name());
        assert_eq!(names, ["draw", "holster", "cock", "fire", "drop", "reload"]);
        for n in names {
            let e = RevolverNetEvent::named(n, true, Vec3::ONE, Vec3::Z).expect("named");
            assert_eq!(e.name(), n);
        }
        assert_eq!(
            RevolverNetEvent::named("fire", true, Vec3::ONE, Vec3::Z),
            Some(RevolverNetEvent::Fire {
                hit: true,
                point: Vec3::ONE,
                normal: Vec3::Z
            })
        );
        assert_eq!(
            RevolverNetEvent::named("twirl", false, Vec3::ZERO, Vec3::ZERO),
            None
        );
        let miss = encode_event(
            1,
            &RevolverNetEvent::Fire {
                hit: false,
                point: Vec3::new(4.0, 5.0, 6.0),
                normal: Vec3::X,
            },
        );
        assert_eq!(
            decode_event(&miss),
            Ok((
                1,
                RevolverNetEvent::Fire {
                    hit: false,
                    point: Vec3::ZERO,
                    normal: Vec3::Y
                }
            ))
        );
    }

    #[test]
    fn a_shot_s_normal_is_unit_and_a_bad_point_is_a_miss() {
        let bytes = encode_event(
            0,
            &RevolverNetEvent::Fire {
                hit: true,
                point: Vec3::ONE,
                normal: Vec3::new(0.3, 0.4, 0.0),
            },
        );
        let Ok((_, RevolverNetEvent::Fire { normal, .. })) = decode_event(&bytes) else {
            panic!("a shot");
        };
        assert!((normal - Vec3::new(0.6, 0.8, 0.0)).length() < 1e-4);
        let bytes = encode_event(
            0,
            &RevolverNetEvent::Fire {
                hit: true,
                point: Vec3::new(f32::NAN, 0.0, 0.0),
                normal: Vec3::Y,
            },
        );
        assert_eq!(
            decode_event(&bytes),
            Ok((
                0,
                RevolverNetEvent::Fire {
                    hit: false,
                    point: Vec3::ZERO,
                    normal: Vec3::Y
                }
            ))
        );
    }

    #[test]
    fn malformed_events_are_refused_by_kind() {
        let shot = encode_event(
            4,
            &RevolverNetEvent::Fire {
                hit: true,
                point: Vec3::ONE,
                normal: Vec3::Y,
            },
        );
        assert_eq!(decode_event(&[]), Err(PacketError::Truncated));
        assert_eq!(decode_event(&[EVENT_TAG, 0]), Err(PacketError::Truncated));
        assert_eq!(decode_event(&shot[..20]), Err(PacketError::Truncated));
        assert_eq!(decode_event(&[0x11, 0, 0, 0]), Err(PacketError::WrongKind));
        assert_eq!(
            decode_event(&[EVENT_TAG, 0, 0, 9]),
            Err(PacketError::Corrupt)
        );
        assert_eq!(
            decode_event(&[EVENT_TAG, 0, 0, 0, 0]),
            Err(PacketError::Oversized)
        );
        let mut nan = shot.clone();
        nan[5..9].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(decode_event(&nan), Err(PacketError::Corrupt));
        let mut far = shot.clone();
        far[5..9].copy_from_slice(&1e9f32.to_le_bytes());
        assert_eq!(decode_event(&far), Err(PacketError::Absurd));
        let mut flat = shot.clone();
        flat[17..23].fill(0);
        assert_eq!(decode_event(&flat), Err(PacketError::Corrupt));
        let mut odd = shot;
        odd[4] = 7;
        assert_eq!(decode_event(&odd), Err(PacketError::Corrupt));
    }

    #[test]
    fn events_play_once_in_order_across_the_wrap() {
        let mut order = EventOrder::default();
        assert_eq!(order.accept(65534), EventReceipt::InOrder);
        assert_eq!(order.accept(65535), EventReceipt::InOrder);
        assert_eq!(order.accept(0), EventReceipt::InOrder);
        assert_eq!(order.accept(0), EventReceipt::Repeated);
        assert_eq!(order.accept(65535), EventReceipt::Repeated);
        assert_eq!(order.accept(3), EventReceipt::AfterGap { missed: 2 });
        assert_eq!(order.accept(4), EventReceipt::InOrder);
    }
}
