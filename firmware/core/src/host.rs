//! Bytes from the host in, frames out: the protocol crate's decoder on a fixed buffer.

use goban_protocol::{Decoder, DecoderStats, FrameRef, LineBuf, MAX_FRAME_LEN};

/// The largest chunk [`HostLink::feed`] appends at once (a USB full-speed packet).
const CHUNK: usize = 64;

/// The device's receiver: holds at most one partial frame, never allocates.
#[derive(Debug, Clone, Default)]
pub struct HostLink {
    decoder: Decoder,
    buf: LineBuf<{ MAX_FRAME_LEN + CHUNK }>,
}

impl HostLink {
    /// An empty receiver.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes bytes read from the host and calls `on_frame` with each complete frame;
    /// bad frames and noise are dropped and counted (see [`HostLink::stats`]).
    pub fn feed(&mut self, bytes: &[u8], mut on_frame: impl FnMut(FrameRef<'_>)) {
        for chunk in bytes.chunks(CHUNK) {
            self.buf.extend(chunk);
            loop {
                match self.decoder.decode_ref(&mut self.buf) {
                    Ok(None) => break,
                    Ok(Some(frame)) => on_frame(frame),
                    Err(_) => {}
                }
            }
        }
    }

    /// What the receiver has counted.
    pub const fn stats(&self) -> &DecoderStats {
        self.decoder.stats()
    }
}
