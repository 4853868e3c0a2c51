//! What `VRAvatarSync` counts: packets and bytes sent, and why received ones were dropped.

use godot::prelude::*;
use vr_arms_core::net::PacketError;

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub state_packets_sent: u64,
    pub state_bytes_sent: u64,
    pub event_packets_sent: u64,
    pub event_bytes_sent: u64,
    /// Per [PacketError::ALL], in that order.
    pub dropped: [u64; 5],
    /// Well-formed state packets from a peer with no avatar (no scene to make one from).
    pub no_avatar: u64,
    /// State packets the jitter buffers took, and refused as duplicates or too old.
    pub receipts: [u64; 3],
    pub events_played: u64,
    pub events_repeated: u64,
    pub events_missed: u64,
}

impl Stats {
    pub fn state_sent(&mut self, bytes: usize) {
        self.state_packets_sent += 1;
        self.state_bytes_sent += bytes as u64;
    }

    pub fn event_sent(&mut self, bytes: usize) {
        self.event_packets_sent += 1;
        self.event_bytes_sent += bytes as u64;
    }

    pub fn dropped(&mut self, e: PacketError) {
        if let Some(i) = PacketError::ALL.iter().position(|x| *x == e) {
            self.dropped[i] += 1;
        }
    }

    pub fn add_receipts(&mut self, r: &[u64; 3]) {
        for (a, b) in self.receipts.iter_mut().zip(r) {
            *a += b;
        }
    }

    pub fn to_dictionary(&self) -> VarDictionary {
        let mut d = VarDictionary::new();
        let mut put = |k: &str, v: u64| d.set(k, v as i64);
        put("state_packets_sent", self.state_packets_sent);
        put("state_bytes_sent", self.state_bytes_sent);
        put("event_packets_sent", self.event_packets_sent);
        put("event_bytes_sent", self.event_bytes_sent);
        for (e, n) in PacketError::ALL.iter().zip(self.dropped) {
            put(&format!("dropped_{}", e.name()), n);
        }
        put("dropped_no_avatar", self.no_avatar);
        put("state_packets_accepted", self.receipts[0]);
        put("dropped_duplicate", self.receipts[1]);
        put("dropped_too_old", self.receipts[2]);
        put("events_played", self.events_played);
        put("events_repeated", self.events_repeated);
        put("events_missed", self.events_missed);
        d
    }
}
