//! Host frames waiting for the port, written by the session's own task: no writer task, no
//! hand-over, so a host frame costs the hall no extra wake-up.

use bytes::Bytes;
use goban_protocol::Frame;
use std::collections::VecDeque;
use tokio::io::{AsyncWrite, AsyncWriteExt};

/// Frames that may wait for the port inside one session; the link's own queue is in front.
const OUTBOX_FRAMES: usize = 16;

/// The write half of a connection and the encoded frames not yet in the kernel's buffer.
///
/// The session polls [`Outbox::write_some`] beside its reads, so a device that stops
/// reading (its buffer full) holds up only the host's frames, never the reading: those
/// beyond [`OUTBOX_FRAMES`] are refused and counted by the caller.
pub(crate) struct Outbox<W> {
    write: W,
    frames: VecDeque<Bytes>,
    /// Bytes of the front frame already written.
    written: usize,
    /// A write failed: the connection is going (the reading side sees it too); nothing more
    /// is written.
    broken: bool,
}

impl<W: AsyncWrite + Unpin> Outbox<W> {
    pub(crate) fn new(write: W) -> Self {
        Self {
            write,
            frames: VecDeque::new(),
            written: 0,
            broken: false,
        }
    }

    /// Queues `frame`; `false` when it was refused (the outbox is full or the port broken).
    pub(crate) fn push(&mut self, frame: &Frame) -> bool {
        if self.broken || self.frames.len() >= OUTBOX_FRAMES {
            return false;
        }
        self.frames.push_back(Bytes::from(frame.to_bytes()));
        true
    }

    /// Whether there is something to write (the session polls [`Self::write_some`] only then).
    pub(crate) fn has_pending(&self) -> bool {
        !self.broken && !self.frames.is_empty()
    }

    /// One write of the front frame's remaining bytes. Cancel-safe: the only await is one
    /// `write`, which either wrote (and the bookkeeping follows at once) or did nothing.
    ///
    /// No `flush`: on a serial port it is `tcdrain`, a blocking call that holds the async
    /// worker thread until the bytes are on the wire (3.5 ms for a `$SHOW` frame at 115200
    /// baud). The writers here are unbuffered: written bytes are in the kernel's hands.
    pub(crate) async fn write_some(&mut self) {
        let Some(front) = self.frames.front() else {
            return;
        };
        let result = self.write.write(&front[self.written..]).await;
        match result {
            Ok(0) => self.fail("the port accepts no more bytes"),
            Ok(n) => {
                self.written += n;
                if self.written == front.len() {
                    self.frames.pop_front();
                    self.written = 0;
                }
            }
            Err(err) => self.fail(&err.to_string()),
        }
    }

    fn fail(&mut self, cause: &str) {
        tracing::debug!(cause, "write to device failed");
        self.broken = true;
        self.frames.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn frames_are_written_whole_and_in_order_across_partial_writes() {
        // A 7-byte pipe: every frame needs several writes, each waiting for the reader.
        let (host, mut device) = tokio::io::duplex(7);
        let mut outbox = Outbox::new(host);
        let frames = [Frame::SnapQuery, Frame::HelloQuery, Frame::SnapQuery];
        for frame in &frames {
            assert!(outbox.push(frame));
        }
        let expected: Vec<u8> = frames.iter().flat_map(Frame::to_bytes).collect();
        let mut received = vec![0; expected.len()];
        let reading = tokio::spawn(async move {
            device.read_exact(&mut received).await.unwrap();
            received
        });
        while outbox.has_pending() {
            outbox.write_some().await;
        }
        assert_eq!(reading.await.unwrap(), expected);
    }

    #[tokio::test]
    async fn a_device_that_does_not_read_fills_the_outbox_which_then_refuses_frames() {
        let (host, _device) = tokio::io::duplex(1);
        let mut outbox = Outbox::new(host);
        let accepted = (0..OUTBOX_FRAMES + 5)
            .filter(|_| outbox.push(&Frame::SnapQuery))
            .count();
        assert_eq!(accepted, OUTBOX_FRAMES);
    }

    #[tokio::test]
    async fn a_failed_write_drops_what_waits_and_refuses_the_rest() {
        let (host, device) = tokio::io::duplex(64);
        drop(device);
        let mut outbox = Outbox::new(host);
        assert!(outbox.push(&Frame::SnapQuery));
        outbox.write_some().await;
        assert!(!outbox.has_pending());
        assert!(!outbox.push(&Frame::SnapQuery));
    }
}
