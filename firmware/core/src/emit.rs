//! Where the core's frames go: the wire (bytes into any `Sink`) or, in the simulator, a list.

use goban_protocol::{FrameRef, Sink};

/// Receives each frame the core produces, in order.
pub trait Emit {
    /// One frame to send to the host.
    fn frame(&mut self, frame: FrameRef<'_>);
}

/// Encodes each frame onto a byte sink: the USB endpoint's buffer on a device.
#[derive(Debug)]
pub struct WireOut<'a, S: Sink + ?Sized>(pub &'a mut S);

impl<S: Sink + ?Sized> Emit for WireOut<'_, S> {
    fn frame(&mut self, frame: FrameRef<'_>) {
        frame.encode(self.0);
    }
}

/// A FAULT frame; a code or text that a frame cannot carry becomes `?`.
pub(crate) fn fault<'a>(code: &'a str, text: &'a str) -> FrameRef<'a> {
    let wire = |s: &'a str| {
        if s.bytes().all(goban_protocol::is_text_byte) {
            s
        } else {
            "?"
        }
    };
    FrameRef::Fault {
        code: wire(code),
        text: wire(text),
    }
}

/// A device's outgoing side: its sequence counter (SNAP/DIFF, or PRESS/KEY) and when it
/// last sent anything (for the heartbeat).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Outgoing {
    pub(crate) seq: goban_protocol::Seq,
    last_sent_ms: u32,
}

impl Outgoing {
    pub(crate) const fn new() -> Self {
        Self {
            seq: goban_protocol::Seq(0),
            last_sent_ms: 0,
        }
    }

    /// The counter for the next counted frame, and moves it on.
    pub(crate) const fn take_seq(&mut self) -> goban_protocol::Seq {
        let seq = self.seq;
        self.seq = seq.next();
        seq
    }

    /// Sends `frame` at device time `now`.
    pub(crate) fn send(&mut self, frame: FrameRef<'_>, now: u32, out: &mut impl Emit) {
        out.frame(frame);
        self.last_sent_ms = now;
    }

    /// The echo of a host `$SYNC` with the device time it was received at (v1.1).
    pub(crate) fn sync_echo(&mut self, token: u32, received: u32, out: &mut impl Emit) {
        self.send(
            FrameRef::SyncEcho {
                token,
                ms: received,
            },
            received,
            out,
        );
    }

    /// A BEAT if nothing was sent for [`crate::BEAT_EVERY_MS`].
    pub(crate) fn beat_if_quiet(&mut self, now: u32, out: &mut impl Emit) {
        if now.wrapping_sub(self.last_sent_ms) >= crate::BEAT_EVERY_MS {
            self.send(FrameRef::Beat { ms: now }, now, out);
        }
    }
}
