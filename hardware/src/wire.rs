//! Reading frames off a byte stream with the one protocol decoder, stamped with the host time their bytes were read, and writing host frames.

use crate::stamp::WallClock;
use bytes::{Bytes, BytesMut};
use goban_protocol::{Decoder, Frame, Rejection};
use std::collections::VecDeque;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Bytes asked of the transport per read: a 19x19 `SNAP` (about 400 bytes) in one read,
/// and at 115200 baud (11.5 KB/s) at most a few dozen reads a second. Each link holds
/// about two of these, so a hall of 1,024 links keeps 1 MB of read buffers, not 12 MB.
const READ_CHUNK: usize = 512;

/// Chunks read but not decoded yet: the reading task waits when this many are queued
/// (4096 chunks of device chatter is minutes of frames; a stalled owner stalls reading).
const CHUNK_QUEUE: usize = 4096;

/// One result of reading the stream.
#[derive(Debug)]
pub(crate) enum Read {
    /// A valid frame, with the host time (ms since the Unix epoch) at which the read that
    /// brought its last byte returned.
    Frame {
        /// The frame.
        frame: Frame,
        /// When its bytes were read.
        read_ms: u64,
    },
    /// Bytes dropped by the decoder (bad CRC, malformed, interrupted); already counted.
    Rejected(Rejection),
    /// The other side closed the stream.
    Eof,
}

/// What the reading task hands over.
enum Chunk {
    Bytes(Bytes, u64),
    End(std::io::Result<()>),
}

/// The read half of a transport, read by its own task so that bytes are stamped when they
/// are read, however long the owner takes to handle the frames before them: load on the
/// host never turns into a later time for a stone or a press. Decoding uses the link's
/// long-lived decoder so statistics survive reconnects.
pub(crate) struct FrameReader {
    chunks: mpsc::Receiver<Chunk>,
    task: JoinHandle<()>,
    buf: BytesMut,
    /// The undecoded bytes of `buf` by the read that brought them: (count, host ms).
    reads: VecDeque<(usize, u64)>,
    ended: bool,
}

impl FrameReader {
    /// Starts reading `reader` on its own task; the task ends with the stream or when the
    /// reader is dropped.
    pub(crate) fn spawn<R>(reader: R, clock: Arc<dyn WallClock>) -> Self
    where
        R: AsyncRead + Unpin + Send + 'static,
    {
        let (tx, chunks) = mpsc::channel(CHUNK_QUEUE);
        let task = tokio::spawn(read_chunks(reader, clock, tx));
        Self {
            chunks,
            task,
            buf: BytesMut::with_capacity(READ_CHUNK * 2),
            reads: VecDeque::new(),
            ended: false,
        }
    }

    /// The next frame, rejection or end of stream. Cancel-safe: the only await is one
    /// `recv`, which either took a chunk (appended at once) or did nothing.
    pub(crate) async fn next(&mut self, decoder: &mut Decoder) -> std::io::Result<Read> {
        loop {
            let before = self.buf.len();
            let decoded = decoder.decode(&mut self.buf);
            let last_ms = self.consume(before - self.buf.len());
            match decoded {
                Ok(Some(frame)) => {
                    // A frame's last byte (its LF) is the last byte the decoder consumed.
                    let read_ms = last_ms.unwrap_or_default();
                    return Ok(Read::Frame { frame, read_ms });
                }
                Err(rejection) => return Ok(Read::Rejected(rejection)),
                Ok(None) => {}
            }
            if self.ended {
                return Ok(Read::Eof);
            }
            match self.chunks.recv().await {
                Some(Chunk::Bytes(bytes, ms)) => {
                    self.reads.push_back((bytes.len(), ms));
                    self.buf.extend_from_slice(&bytes);
                }
                Some(Chunk::End(Ok(()))) | None => {
                    self.ended = true;
                    return Ok(Read::Eof);
                }
                Some(Chunk::End(Err(err))) => {
                    self.ended = true;
                    return Err(err);
                }
            }
        }
    }

    /// Forgets `n` decoded bytes; the read time of the last of them.
    fn consume(&mut self, mut n: usize) -> Option<u64> {
        let mut last = None;
        while n > 0 {
            let Some(front) = self.reads.front_mut() else {
                break;
            };
            let take = n.min(front.0);
            front.0 -= take;
            n -= take;
            last = Some(front.1);
            if front.0 == 0 {
                self.reads.pop_front();
            }
        }
        last
    }
}

impl Drop for FrameReader {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The reading task: each chunk goes out with the host time of its read.
async fn read_chunks<R>(mut reader: R, clock: Arc<dyn WallClock>, tx: mpsc::Sender<Chunk>)
where
    R: AsyncRead + Unpin,
{
    let mut buf = BytesMut::with_capacity(READ_CHUNK);
    loop {
        buf.reserve(READ_CHUNK);
        let chunk = match reader.read_buf(&mut buf).await {
            Ok(0) => Chunk::End(Ok(())),
            Ok(_) => Chunk::Bytes(buf.split().freeze(), clock.now_ms()),
            Err(err) => Chunk::End(Err(err)),
        };
        let last = matches!(chunk, Chunk::End(_));
        if tx.send(chunk).await.is_err() || last {
            return;
        }
    }
}

/// Encodes `frame` and writes it whole into the kernel's buffer, which sends it.
///
/// No `flush`: on a serial port it is `tcdrain`, a blocking call that holds
/// the async worker thread until the bytes are on the wire (3.5 ms for a
/// `$SHOW` frame at 115200 baud, once a second per clock). The writers here
/// are unbuffered, so the bytes are handed over by the time `write_all` returns.
pub(crate) async fn write_frame<W: AsyncWrite + Unpin>(
    writer: &mut W,
    frame: &Frame,
) -> std::io::Result<()> {
    writer.write_all(&frame.to_bytes()).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stamp::TokioWallClock;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn frames_keep_the_time_their_bytes_were_read_however_late_they_are_decoded() {
        let (mut device, host) = tokio::io::duplex(4096);
        let clock = Arc::new(TokioWallClock::starting_at(10_000));
        let mut reader = FrameReader::spawn(host, clock);
        let mut decoder = Decoder::new();
        let beat = |ms| Frame::Beat { ms }.to_bytes();
        device
            .write_all(&[beat(1), beat(2)].concat())
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        // The owner is busy for 800 ms between the two frames: both were read at 10 000.
        let Read::Frame { read_ms: first, .. } = reader.next(&mut decoder).await.unwrap() else {
            panic!("a frame")
        };
        tokio::time::sleep(Duration::from_millis(800)).await;
        let Read::Frame {
            read_ms: second, ..
        } = reader.next(&mut decoder).await.unwrap()
        else {
            panic!("a frame")
        };
        assert_eq!((first, second), (10_000, 10_000));
        // A frame split across two reads is stamped with the read of its line end.
        let bytes = beat(3);
        device.write_all(&bytes[..4]).await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        device.write_all(&bytes[4..]).await.unwrap();
        let Read::Frame { read_ms, frame } = reader.next(&mut decoder).await.unwrap() else {
            panic!("a frame")
        };
        assert_eq!(frame, Frame::Beat { ms: 3 });
        assert_eq!(read_ms, 10_905);
        drop(device);
        assert!(matches!(
            reader.next(&mut decoder).await.unwrap(),
            Read::Eof
        ));
    }
}
