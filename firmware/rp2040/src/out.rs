//! The frames of one step, collected and then written to the host in USB packets.

use crate::usb::UsbDriver;
use embassy_time::{Duration, with_timeout};
use embassy_usb::class::cdc_acm::Sender;
use goban_protocol::Sink;

/// How long a packet may wait for the host to read it. A host that does not read (no
/// program has the port open) loses the frames; it asks for HELLO and SNAP when it
/// opens the port, and a lost DIFF shows as a gap in `seq` (docs/protocol.md 8).
const WRITE_TIMEOUT: Duration = Duration::from_millis(50);

/// Frames waiting to go out; bytes beyond its capacity are dropped and counted.
pub struct TxBuf {
    data: [u8; 4096],
    len: usize,
    /// Bytes dropped because the buffer was full or the host did not read.
    pub dropped: u32,
}

impl Default for TxBuf {
    fn default() -> Self {
        Self::new()
    }
}

impl TxBuf {
    /// An empty buffer.
    pub const fn new() -> Self {
        Self {
            data: [0; 4096],
            len: 0,
            dropped: 0,
        }
    }

    /// Writes everything collected, in packets of 64 bytes.
    pub async fn flush(&mut self, tx: &mut Sender<'static, UsbDriver>) {
        let len = core::mem::take(&mut self.len);
        for chunk in self.data[..len].chunks(64) {
            if !matches!(
                with_timeout(WRITE_TIMEOUT, tx.write_packet(chunk)).await,
                Ok(Ok(()))
            ) {
                self.dropped = self.dropped.saturating_add(len as u32);
                return;
            }
        }
    }
}

impl Sink for TxBuf {
    fn put_slice(&mut self, bytes: &[u8]) {
        let room = self.data.len() - self.len;
        if bytes.len() > room {
            self.dropped = self.dropped.saturating_add(bytes.len() as u32);
            return;
        }
        self.data[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }
}
