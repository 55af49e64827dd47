//! Helpers shared by the integration tests: feeding bytes in chunks and collecting outcomes.
#![allow(dead_code, unreachable_pub)]

use bytes::BytesMut;
use goban_protocol::{Decoder, Frame, RejectReason};

/// One result of `decode`, without the byte count.
pub type Outcome = Result<Frame, RejectReason>;

/// Feeds `bytes` to `decoder` in chunks of the given sizes (cycled), draining after each.
pub fn feed_chunked(decoder: &mut Decoder, bytes: &[u8], chunks: &[usize]) -> Vec<Outcome> {
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    let mut at = 0;
    let mut sizes = chunks.iter().copied().filter(|&n| n > 0).cycle();
    while at < bytes.len() {
        let n = sizes.next().unwrap_or(bytes.len()).min(bytes.len() - at);
        buf.extend_from_slice(&bytes[at..at + n]);
        at += n;
        drain(decoder, &mut buf, &mut out);
    }
    out
}

/// Feeds everything at once.
pub fn feed(decoder: &mut Decoder, bytes: &[u8]) -> Vec<Outcome> {
    feed_chunked(decoder, bytes, &[bytes.len().max(1)])
}

/// Calls `decode` until it needs more bytes.
pub fn drain(decoder: &mut Decoder, buf: &mut BytesMut, out: &mut Vec<Outcome>) {
    loop {
        match decoder.decode(buf) {
            Ok(Some(frame)) => out.push(Ok(frame)),
            Ok(None) => return,
            Err(rejection) => out.push(Err(rejection.reason)),
        }
    }
}

/// A frame line with a correct CRC around `body` (as `wire.py` builds them).
pub fn line(body: &str) -> Vec<u8> {
    let crc = goban_protocol::crc16(body.as_bytes());
    format!("${body}*{crc:04X}\n").into_bytes()
}

/// Feeds `bytes` in `chunk`-byte pieces to `decode_ref` on a fixed `LineBuf` (the
/// device side); rejections keep their byte count.
pub fn feed_fixed(
    decoder: &mut Decoder,
    bytes: &[u8],
    chunk: usize,
) -> Vec<Result<Frame, goban_protocol::Rejection>> {
    let mut buf = goban_protocol::LineBuf::<{ goban_protocol::MAX_FRAME_LEN + 64 }>::new();
    let mut out = Vec::new();
    for piece in bytes.chunks(chunk.clamp(1, 64)) {
        assert_eq!(
            buf.extend(piece),
            piece.len(),
            "a partial frame and a chunk fit"
        );
        loop {
            match decoder.decode_ref(&mut buf) {
                Ok(None) => break,
                Ok(Some(frame)) => out.push(Ok(Frame::from(frame))),
                Err(rejection) => out.push(Err(rejection)),
            }
        }
    }
    out
}
