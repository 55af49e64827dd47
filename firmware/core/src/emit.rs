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
