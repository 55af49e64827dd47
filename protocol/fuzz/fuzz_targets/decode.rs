//! Fuzz target: the decoder on arbitrary bytes in arbitrary chunks keeps its invariants.
#![no_main]

use bytes::BytesMut;
use goban_protocol::{BoardSize, Decoder, MAX_FRAME_LEN};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the board size and the chunk length; the rest is the stream.
    let Some((&control, stream)) = data.split_first() else {
        return;
    };
    let mut decoder = match control % 4 {
        0 => Decoder::new(),
        1 => Decoder::with_board_size(BoardSize::NINE),
        2 => Decoder::with_board_size(BoardSize::THIRTEEN),
        _ => Decoder::with_board_size(BoardSize::NINETEEN),
    };
    let chunk = usize::from(control / 4) + 1;
    let mut buf = BytesMut::new();
    let mut results = 0u64;
    for piece in stream.chunks(chunk) {
        buf.extend_from_slice(piece);
        loop {
            match decoder.decode(&mut buf) {
                Ok(None) => break,
                Ok(Some(frame)) => {
                    results += 1;
                    // Every accepted frame re-encodes to a frame that decodes to itself.
                    let mut again =
                        decoder.board_size().map_or_else(Decoder::new, Decoder::with_board_size);
                    let mut wire = BytesMut::from(&frame.to_bytes()[..]);
                    assert_eq!(again.decode(&mut wire), Ok(Some(frame)));
                    assert!(wire.is_empty());
                }
                Err(rejection) => {
                    results += 1;
                    assert!(rejection.dropped > 0 && rejection.dropped <= MAX_FRAME_LEN);
                }
            }
        }
        assert!(buf.len() < MAX_FRAME_LEN, "holds at most one partial frame");
    }
    let s = decoder.stats();
    assert_eq!(s.bytes + buf.len() as u64, stream.len() as u64);
    assert_eq!(s.bytes, s.frame_bytes + s.unknown_bytes + s.dropped_bytes + s.noise_bytes);
    assert_eq!(s.frames.total() + s.rejections.total(), results);
});
