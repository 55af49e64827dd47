//! Wire protocol v1 of the sensor board and the game clock: frames, decoder, encoder, sequence tracking.
//!
//! Implements `shared/spec/wire-protocol.md` exactly, for both sides of the wire:
//! the daemon decodes board and clock frames and encodes host frames; the
//! simulators do the reverse. Pure: no IO, no clock, no tokio.
//!
//! ```
//! use bytes::BytesMut;
//! use goban_protocol::{Decoder, Frame, Seq, Button};
//!
//! let mut decoder = Decoder::new();
//! let mut buf = BytesMut::from(&b"boot banner\r\n$PRESS,0,5790,L*D0D2\n$BEAT,1"[..]);
//! let frame = decoder.decode(&mut buf).unwrap();
//! assert_eq!(frame, Some(Frame::Press { seq: Seq(0), ms: 5790, button: Button::L }));
//! assert_eq!(decoder.decode(&mut buf), Ok(None)); // "$BEAT,1" waits for more bytes
//!
//! let mut out = Vec::new();
//! Frame::SnapQuery.encode(&mut out);
//! assert_eq!(out, b"$SNAP?*C5B4\n");
//! ```
//!
//! - [`Frame`]: every frame of the spec, typed; [`Frame::encode`] writes it.
//! - [`Decoder::decode`]: incremental, resyncs as the spec says, never panics;
//!   [`DecoderStats`] counts frames, bytes and rejections by [`RejectReason`].
//! - [`SeqTracker`]: gaps and wraps of the SNAP/DIFF and PRESS/KEY counters.
//!
//! Without the default `std` feature the crate is `#![no_std]` and allocates nothing,
//! for the firmware of a device: [`FrameRef`] borrows its lists and texts, encodes into
//! any [`Sink`], and [`Decoder::decode_ref`] reads frames from a fixed [`LineBuf`].
//! `Frame`, `Text`, `ProtocolError` and [`Decoder::decode`] (on a `BytesMut`) need `std`;
//! both sides run the same parser, encoder and CRC.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

mod crc;
mod decode;
mod encode;
mod error;
#[cfg(feature = "std")]
mod frame;
mod kind;
#[cfg(feature = "std")]
mod owned;
mod parse;
mod seq;
mod stats;
mod types;
mod view;

pub use crate::crc::crc16;
pub use crate::decode::{Decoder, FrameBuffer, LineBuf};
pub use crate::encode::{LenCounter, Sink};
#[cfg(feature = "std")]
pub use crate::error::ProtocolError;
pub use crate::error::{RejectReason, Rejection};
#[cfg(feature = "std")]
pub use crate::frame::Frame;
pub use crate::kind::FrameKind;
pub use crate::seq::{SeqEvent, SeqTracker};
pub use crate::stats::{DecoderStats, FrameCounts, RejectionCounts};
#[cfg(feature = "std")]
pub use crate::types::Text;
pub use crate::types::{
    BoardSize, Button, Change, DeviceKind, Key, Point, PointState, Running, Seq, is_text_byte,
};
pub use crate::view::{Changes, FrameRef, Indices, States};

/// The longest frame in bytes, `$` to LF inclusive (spec "Framing"); a CR counts too.
pub const MAX_FRAME_LEN: usize = 1024;

/// The protocol version this crate speaks, as sent in `HELLO`.
pub const PROTOCOL_VERSION: u32 = 1;
