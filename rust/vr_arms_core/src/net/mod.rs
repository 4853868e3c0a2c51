//! Other players' bodies over the network: the avatar state stream (quantised, checked), the
//! jitter buffer that plays it back, and the revolver's events. Pure data and maths; the engine
//! side sends and receives the bytes through Godot's multiplayer API.

pub mod correction;
pub mod events;
pub mod impairment;
pub mod jitter_buffer;
pub mod quantize;
pub mod state_packet;

pub use events::{EventOrder, EventReceipt, RevolverNetEvent, decode_event, encode_event};
pub use impairment::Impairment;
pub use jitter_buffer::{JitterBuffer, JitterSettings, Playback, Receipt};
pub use state_packet::{
    AvatarState, HandState, PacketError, STATE_PACKET_BYTES, StateHeader, StateLimits,
    decode_state, encode_state,
};
