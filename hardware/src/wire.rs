//! Reading frames off a byte stream with the one protocol decoder, and writing host frames.

use bytes::BytesMut;
use goban_protocol::{Decoder, Frame, Rejection};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Bytes asked of the transport per read.
const READ_CHUNK: usize = 4096;

/// One result of reading the stream.
#[derive(Debug)]
pub(crate) enum Read {
    /// A valid frame.
    Frame(Frame),
    /// Bytes dropped by the decoder (bad CRC, malformed, interrupted); already counted.
    Rejected(Rejection),
    /// The other side closed the stream.
    Eof,
}

/// Read half of a transport with its buffer; decoding uses the link's long-lived decoder so
/// statistics survive reconnects.
pub(crate) struct FrameReader<R> {
    reader: R,
    buf: BytesMut,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    /// Wraps a fresh read half.
    pub(crate) fn new(reader: R) -> Self {
        Self {
            reader,
            buf: BytesMut::with_capacity(READ_CHUNK * 2),
        }
    }

    /// The next frame, rejection or end of stream. Cancel-safe: the only await is one
    /// `read_buf`, which either appended bytes or did nothing.
    pub(crate) async fn next(&mut self, decoder: &mut Decoder) -> std::io::Result<Read> {
        loop {
            match decoder.decode(&mut self.buf) {
                Ok(Some(frame)) => return Ok(Read::Frame(frame)),
                Err(rejection) => return Ok(Read::Rejected(rejection)),
                Ok(None) => {}
            }
            self.buf.reserve(READ_CHUNK);
            if self.reader.read_buf(&mut self.buf).await? == 0 {
                return Ok(Read::Eof);
            }
        }
    }
}

/// Encodes `frame` and writes it whole.
pub(crate) async fn write_frame<W: AsyncWrite + Unpin>(
    writer: &mut W,
    frame: &Frame,
) -> std::io::Result<()> {
    writer.write_all(&frame.to_bytes()).await?;
    writer.flush().await
}
