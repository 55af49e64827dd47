//! Property tests: encode/decode round trip through junk and chunking, no panic on any bytes.

mod common;

use bytes::BytesMut;
use common::{feed, feed_chunked};
use goban_protocol::{
    BoardSize, Button, Change, Decoder, Frame, Key, MAX_FRAME_LEN, Point, PointState, Running, Seq,
    Text,
};
use proptest::collection::vec;
use proptest::prelude::*;

fn arb_text() -> impl Strategy<Value = Text> {
    vec(0x20u8..=0x7E, 0..12).prop_map(|bytes| {
        let s: String = bytes
            .into_iter()
            .filter(|b| !matches!(b, b'$' | b'*' | b','))
            .map(char::from)
            .collect();
        Text::new(s).unwrap_or_default()
    })
}

fn arb_size() -> impl Strategy<Value = BoardSize> {
    prop_oneof![
        Just(BoardSize::NINE),
        Just(BoardSize::THIRTEEN),
        Just(BoardSize::NINETEEN)
    ]
}

fn arb_state() -> impl Strategy<Value = PointState> {
    prop_oneof![
        Just(PointState::Empty),
        Just(PointState::Black),
        Just(PointState::White),
        Just(PointState::Unknown)
    ]
}

fn arb_key() -> impl Strategy<Value = Key> {
    prop_oneof![
        Just(Key::Pause),
        Just(Key::Resume),
        Just(Key::ResignL),
        Just(Key::ResignR),
        Just(Key::DoneL),
        Just(Key::DoneR)
    ]
}

fn arb_point(size: BoardSize) -> impl Strategy<Value = Point> {
    (0..size.points()).prop_map(Point)
}

/// Device frames for a board of `size` (a board HELLO never changes the size).
fn arb_device_frame(size: BoardSize) -> impl Strategy<Value = Frame> {
    let n = usize::from(size.points());
    prop_oneof![
        (arb_text(), arb_text()).prop_map(move |(firmware, serial)| Frame::BoardHello {
            size,
            firmware,
            serial
        }),
        (arb_text(), arb_text())
            .prop_map(|(firmware, serial)| Frame::ClockHello { firmware, serial }),
        (any::<u32>(), any::<u32>(), vec(arb_state(), n)).prop_map(|(s, ms, points)| Frame::Snap {
            seq: Seq(s),
            ms,
            points
        }),
        (
            any::<u32>(),
            any::<u32>(),
            vec((arb_point(size), arb_state()), 1..40)
        )
            .prop_map(|(s, ms, list)| Frame::Diff {
                seq: Seq(s),
                ms,
                changes: list
                    .into_iter()
                    .map(|(point, state)| Change { point, state })
                    .collect(),
            }),
        any::<u32>().prop_map(|ms| Frame::Beat { ms }),
        (arb_text(), arb_text()).prop_map(|(code, text)| Frame::Fault { code, text }),
        (any::<u32>(), any::<u32>(), any::<bool>()).prop_map(|(s, ms, l)| Frame::Press {
            seq: Seq(s),
            ms,
            button: if l { Button::L } else { Button::R },
        }),
        (any::<u32>(), any::<u32>(), arb_key()).prop_map(|(s, ms, key)| Frame::Key {
            seq: Seq(s),
            ms,
            key
        }),
    ]
}

fn arb_host_frame(size: BoardSize) -> impl Strategy<Value = Frame> {
    let running = prop_oneof![
        Just(Running::Black),
        Just(Running::White),
        Just(Running::Stopped)
    ];
    prop_oneof![
        Just(Frame::HelloQuery),
        Just(Frame::SnapQuery),
        vec(arb_point(size), 0..30).prop_map(|points| Frame::Led { points }),
        (any::<[u32; 4]>(), running).prop_map(|([b, w, bp, wp], running)| Frame::Show {
            black_ms: b,
            white_ms: w,
            black_periods: bp,
            white_periods: wp,
            running,
        }),
        any::<u32>().prop_map(|count| Frame::Beep { count }),
    ]
}

fn arb_frame(size: BoardSize) -> impl Strategy<Value = Frame> {
    prop_oneof![3 => arb_device_frame(size), 1 => arb_host_frame(size)]
}

/// Junk between frames: any bytes but `$` (which would start a frame).
fn arb_junk() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>().prop_filter("no $", |b| *b != b'$'), 0..24)
}

/// A stream: its board size, its frames, and their wire bytes with junk and CRs.
fn arb_stream() -> impl Strategy<Value = (BoardSize, Vec<Frame>, Vec<u8>)> {
    arb_size()
        .prop_flat_map(|size| {
            vec((arb_frame(size), arb_junk(), any::<bool>()), 0..16)
                .prop_map(move |items| (size, items))
        })
        .prop_map(|(size, items)| {
            let mut bytes = Vec::new();
            let mut frames = Vec::new();
            for (frame, junk, cr) in items {
                let mut wire = frame.to_bytes();
                if cr {
                    wire.insert(wire.len() - 1, b'\r');
                }
                bytes.extend(wire);
                bytes.extend(junk);
                frames.push(frame);
            }
            (size, frames, bytes)
        })
}

/// Bytes rich in `$`, LF, commas and frame-like text, for the no-panic properties.
fn arb_noisy_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        vec(any::<u8>(), 0..64),
        vec(
            prop::sample::select(b"$\n\r,*;.BW?0123456789AF".to_vec()),
            0..64
        ),
        Just(b"$SNAP?*C5B4\n".to_vec()),
        Just(b"$DIFF,1,5311,40B*817D\n".to_vec()),
        Just(vec![b'x'; 1100]),
    ];
    vec(piece, 0..12).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn encode_then_decode_is_identity((size, frames, bytes) in arb_stream(), chunks in vec(1usize..300, 1..8)) {
        let mut decoder = Decoder::with_board_size(size);
        let got = feed_chunked(&mut decoder, &bytes, &chunks);
        let want: Vec<_> = frames.into_iter().map(Ok).collect();
        prop_assert_eq!(got, want);
        prop_assert_eq!(decoder.stats().rejections.total(), 0);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_bytes_add_up(bytes in arb_noisy_bytes(), chunks in vec(1usize..200, 1..8)) {
        let mut decoder = Decoder::new();
        let mut buf = BytesMut::new();
        let mut sizes = chunks.iter().cycle();
        let mut at = 0;
        let mut out = Vec::new();
        while at < bytes.len() {
            let n = sizes.next().copied().unwrap_or(1).min(bytes.len() - at);
            buf.extend_from_slice(&bytes[at..at + n]);
            at += n;
            common::drain(&mut decoder, &mut buf, &mut out);
            // After "need more bytes" at most one partial frame (< 1024 bytes) is held.
            prop_assert!(buf.len() < MAX_FRAME_LEN);
        }
        let s = decoder.stats();
        prop_assert_eq!(s.bytes + buf.len() as u64, bytes.len() as u64);
        prop_assert_eq!(s.bytes, s.frame_bytes + s.unknown_bytes + s.dropped_bytes + s.noise_bytes);
        prop_assert_eq!(s.frames.total() + s.rejections.total(), out.len() as u64);
        // Every accepted frame is canonical again after a re-encode.
        for frame in out.into_iter().flatten() {
            let mut again = decoder.board_size().map_or_else(Decoder::new, Decoder::with_board_size);
            prop_assert_eq!(feed(&mut again, &frame.to_bytes()), vec![Ok(frame)]);
        }
    }

    #[test]
    fn chunking_never_changes_the_outcome(bytes in arb_noisy_bytes(), chunks in vec(1usize..50, 1..8)) {
        let mut whole = Decoder::new();
        let mut split = Decoder::new();
        prop_assert_eq!(feed(&mut whole, &bytes), feed_chunked(&mut split, &bytes, &chunks));
        prop_assert_eq!(whole.stats(), split.stats());
    }

    #[test]
    fn one_corrupted_byte_never_yields_a_frame(
        (size, frame) in arb_size().prop_flat_map(|size| (Just(size), arb_frame(size))),
        at in any::<prop::sample::Index>(),
        value in any::<u8>(),
    ) {
        let mut bytes = frame.to_bytes();
        // Corrupt a byte between `$` and LF to another byte that is neither.
        let at = 1 + at.index(bytes.len() - 2);
        prop_assume!(bytes[at] != value && value != b'$' && value != b'\n');
        bytes[at] = value;
        let mut decoder = Decoder::with_board_size(size);
        prop_assert_eq!(feed(&mut decoder, &frame.to_bytes()), vec![Ok(frame.clone())]);
        let got = feed(&mut decoder, &bytes);
        prop_assert_eq!(got.len(), 1);
        prop_assert!(got[0].is_err(), "CRC-16 catches every single-byte error: {:?}", got);
    }
}
