//! The incremental decoder: finds frames in a byte buffer, resyncs on noise and counts what it drops.

use crate::MAX_FRAME_LEN;
use crate::error::{RejectReason, Rejection};
use crate::parse::{Parsed, parse_line};
use crate::stats::DecoderStats;
use crate::types::BoardSize;
use crate::view::FrameRef;

/// A byte buffer the decoder reads frames from: the caller appends, the decoder
/// consumes from the front. `BytesMut` (with `std`) and the fixed [`LineBuf`] are two.
pub trait FrameBuffer: core::ops::Deref<Target = [u8]> {
    /// Drops the first `n` bytes.
    fn advance(&mut self, n: usize);
}

#[cfg(feature = "std")]
impl FrameBuffer for bytes::BytesMut {
    fn advance(&mut self, n: usize) {
        bytes::Buf::advance(self, n);
    }
}

/// A fixed buffer of `N` bytes for a device without allocation; `N` of
/// [`MAX_FRAME_LEN`] plus the largest chunk appended at once always suffices.
#[derive(Debug, Clone)]
pub struct LineBuf<const N: usize> {
    data: [u8; N],
    len: usize,
}

impl<const N: usize> Default for LineBuf<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> LineBuf<N> {
    /// An empty buffer.
    pub const fn new() -> Self {
        Self {
            data: [0; N],
            len: 0,
        }
    }

    /// Appends as much of `bytes` as fits; returns how many bytes were taken.
    pub fn extend(&mut self, bytes: &[u8]) -> usize {
        let n = bytes.len().min(N - self.len);
        self.data[self.len..self.len + n].copy_from_slice(&bytes[..n]);
        self.len += n;
        n
    }
}

impl<const N: usize> core::ops::Deref for LineBuf<N> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.data[..self.len]
    }
}

impl<const N: usize> FrameBuffer for LineBuf<N> {
    fn advance(&mut self, n: usize) {
        let n = n.min(self.len);
        self.data.copy_within(n..self.len, 0);
        self.len -= n;
    }
}

/// Where the decoder stands in the byte stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Outside any frame: bytes up to the next `$` are noise.
    Idle,
    /// `buf[0]` is the `$` of a frame; `buf[..scanned]` holds no LF and no other `$`.
    InFrame { scanned: usize },
    /// After a frame over 1024 bytes: drop everything up to the next `$`.
    Discarding,
}

/// What scanning a partial frame found.
enum Scan {
    /// A line end at this index.
    Line(usize),
    /// A new `$` at this index: the bytes before it are a dropped partial frame.
    Restart(usize),
    /// 1024 bytes and no line end.
    TooLong,
    /// Everything scanned; wait for more bytes.
    NeedMore,
}

/// Incremental decoder of wire protocol v1, for both directions (device and host frames).
///
/// Call [`Decoder::decode`] in a loop after every read. The caller owns the buffer and
/// may only append to it between calls (or call [`Decoder::reset`] after clearing it).
/// The decoder consumes every byte it has decided about and remembers how far it has
/// scanned a partial frame, so every byte is examined once (no quadratic rescans),
/// and it never holds more than one partial frame of at most 1024 bytes.
///
/// Board size: SNAP lengths and DIFF/LED indices are checked against the size given
/// by [`Decoder::with_board_size`] or learnt from the last board `HELLO` (the device
/// knows its own size, so a `HELLO` replaces a configured size; the daemon compares
/// it with its configuration). Until a size is known, a SNAP must hold 81, 169 or 361
/// points and indices must be below 361, the largest board.
#[derive(Debug, Clone)]
pub struct Decoder {
    board_size: Option<BoardSize>,
    state: State,
    stats: DecoderStats,
    /// Rejections since the last accepted frame.
    rejected_run: u64,
    /// Rejections that preceded the last accepted frame, until taken.
    resync: u64,
    /// Bytes of the line last returned by [`Decoder::decode_ref`], consumed on the next call.
    pending: usize,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder that learns the board size from the board's `HELLO`.
    pub fn new() -> Self {
        Self {
            board_size: None,
            state: State::Idle,
            stats: DecoderStats::default(),
            rejected_run: 0,
            resync: 0,
            pending: 0,
        }
    }

    /// A decoder that checks SNAP and DIFF against `size` until a `HELLO` says otherwise.
    pub fn with_board_size(size: BoardSize) -> Self {
        let mut decoder = Self::new();
        decoder.board_size = Some(size);
        decoder
    }

    /// The board size used for validation, if known.
    pub const fn board_size(&self) -> Option<BoardSize> {
        self.board_size
    }

    /// Sets (or forgets, with `None`) the board size used for validation.
    pub fn set_board_size(&mut self, size: Option<BoardSize>) {
        self.board_size = size;
    }

    /// The statistics so far.
    pub const fn stats(&self) -> &DecoderStats {
        &self.stats
    }

    /// Forgets a partial frame, for a caller that cleared or replaced its buffer
    /// (a reopened port). Statistics and board size are kept.
    pub fn reset(&mut self) {
        self.state = State::Idle;
        self.rejected_run = 0;
        self.pending = 0;
    }

    /// How many rejections came between the previous good frame and the last one
    /// returned, once: lets the caller log a resync once, when the stream recovers.
    pub fn take_resync(&mut self) -> Option<u64> {
        let n = core::mem::take(&mut self.resync);
        (n > 0).then_some(n)
    }

    /// Decodes the next frame from the front of `buf`, borrowing it: the device side,
    /// without allocation.
    ///
    /// Like [`Decoder::decode`], except that the returned frame's line stays in `buf`
    /// until the next call, which consumes it first; append between calls, never
    /// remove.
    pub fn decode_ref<'b, B: FrameBuffer>(
        &mut self,
        buf: &'b mut B,
    ) -> Result<Option<FrameRef<'b>>, Rejection> {
        buf.advance(core::mem::take(&mut self.pending));
        let end = loop {
            let Some(end) = self.next_line(buf)? else {
                return Ok(None);
            };
            if let Ok(Parsed::Unknown) = parse_line(&buf[..=end], self.board_size) {
                self.stats.on_unknown(end + 1);
                buf.advance(end + 1);
            } else {
                break end;
            }
        };
        self.pending = end + 1;
        let buf: &'b B = buf;
        self.handle_line(&buf[..=end]).unwrap_or(Ok(None))
    }

    /// Finds the next complete line at the front of `buf` and returns the index of its
    /// LF (the line stays in `buf`); `Ok(None)`: need more bytes.
    fn next_line<B: FrameBuffer>(&mut self, buf: &mut B) -> Result<Option<usize>, Rejection> {
        self.check_buffer(buf);
        loop {
            match self.state {
                State::Idle | State::Discarding => {
                    let Some(at) = find_dollar(buf) else {
                        self.on_skipped(buf.len());
                        buf.advance(buf.len());
                        return Ok(None);
                    };
                    self.on_skipped(at);
                    buf.advance(at);
                    self.state = State::InFrame { scanned: 1 };
                }
                State::InFrame { scanned } => return self.handle_partial(buf, scanned),
            }
        }
    }

    /// Counts bytes skipped outside frames: noise, or the rest of a too-long run.
    fn on_skipped(&mut self, n: usize) {
        if self.state == State::Discarding {
            self.stats.on_dropped(n);
        } else {
            self.stats.on_noise(n);
        }
    }

    /// Scans the partial frame at the front of `buf`.
    fn handle_partial<B: FrameBuffer>(
        &mut self,
        buf: &mut B,
        scanned: usize,
    ) -> Result<Option<usize>, Rejection> {
        match scan(buf, scanned) {
            Scan::NeedMore => {
                self.state = State::InFrame { scanned: buf.len() };
                Ok(None)
            }
            Scan::Restart(at) => {
                // Spec "Framing": a `$` inside a frame drops the partial frame.
                buf.advance(at);
                self.state = State::InFrame { scanned: 1 };
                Err(self.reject(RejectReason::Interrupted, at))
            }
            Scan::TooLong => {
                // Spec "Framing": longer input is discarded up to the next `$`.
                buf.advance(MAX_FRAME_LEN);
                self.state = State::Discarding;
                Err(self.reject(RejectReason::TooLong, MAX_FRAME_LEN))
            }
            Scan::Line(end) => {
                self.state = State::Idle;
                Ok(Some(end))
            }
        }
    }

    /// Parses one complete line; `None` means "skipped, continue" (an unknown KIND).
    fn handle_line<'l>(
        &mut self,
        line: &'l [u8],
    ) -> Option<Result<Option<FrameRef<'l>>, Rejection>> {
        match parse_line(line, self.board_size) {
            Ok(Parsed::Frame(frame)) => {
                if let FrameRef::BoardHello { size, .. } = &frame {
                    self.board_size = Some(*size);
                }
                self.stats.on_frame(frame.kind(), line.len());
                self.resync = core::mem::take(&mut self.rejected_run);
                Some(Ok(Some(frame)))
            }
            Ok(Parsed::Unknown) => {
                self.stats.on_unknown(line.len());
                None
            }
            Err(reason) => Some(Err(self.reject(reason, line.len()))),
        }
    }

    fn reject(&mut self, reason: RejectReason, dropped: usize) -> Rejection {
        self.stats.on_reject(reason, dropped);
        self.rejected_run = self.rejected_run.saturating_add(1);
        Rejection { reason, dropped }
    }

    /// Protects against a caller that changed the buffer behind our back: a partial
    /// frame must still start with `$` and be at least as long as what was scanned.
    fn check_buffer(&mut self, buf: &[u8]) {
        if let State::InFrame { scanned } = self.state
            && (buf.len() < scanned || buf.first() != Some(&b'$'))
        {
            self.state = State::Idle;
        }
    }
}

fn find_dollar(buf: &[u8]) -> Option<usize> {
    buf.iter().position(|&b| b == b'$')
}

/// Looks for LF or `$` in `buf[scanned..]`, within the first 1024 bytes of the frame.
fn scan(buf: &[u8], scanned: usize) -> Scan {
    let window = buf.len().min(MAX_FRAME_LEN);
    let found = buf
        .get(scanned..window)
        .and_then(|rest| rest.iter().position(|&b| b == b'\n' || b == b'$'));
    match found.map(|i| (scanned + i, buf[scanned + i])) {
        Some((at, b'\n')) => Scan::Line(at),
        Some((at, _)) => Scan::Restart(at),
        None if buf.len() >= MAX_FRAME_LEN => Scan::TooLong,
        None => Scan::NeedMore,
    }
}

#[cfg(feature = "std")]
impl Decoder {
    /// Decodes the next frame from the front of `buf`.
    ///
    /// - `Ok(Some(frame))`: a valid frame; its bytes are consumed.
    /// - `Ok(None)`: need more bytes; a partial frame stays in `buf`.
    /// - `Err(rejection)`: one frame or partial frame was dropped and counted;
    ///   call again.
    ///
    /// Noise outside frames and frames of unknown KIND are consumed and counted
    /// without returning.
    pub fn decode(&mut self, buf: &mut bytes::BytesMut) -> Result<Option<crate::Frame>, Rejection> {
        self.pending = 0;
        loop {
            let Some(end) = self.next_line(buf)? else {
                return Ok(None);
            };
            let line = buf.split_to(end + 1);
            if let Some(result) = self.handle_line(&line) {
                return result.map(|frame| frame.map(crate::Frame::from));
            }
        }
    }
}
