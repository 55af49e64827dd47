//! The fuzz seeds (`protocol/fuzz/seeds`) replayed with the fuzz target's invariants on
//! every build, through `decode` on a `BytesMut` and `decode_ref` on a fixed `LineBuf`
//! (the device side), which must find the same frames and rejections.

mod common;

use bytes::BytesMut;
use goban_protocol::{BoardSize, Decoder, Frame, MAX_FRAME_LEN, Rejection};
use std::path::PathBuf;

type Outcome = Result<Frame, Rejection>;

fn decoder(control: u8) -> Decoder {
    match control % 4 {
        0 => Decoder::new(),
        1 => Decoder::with_board_size(BoardSize::NINE),
        2 => Decoder::with_board_size(BoardSize::THIRTEEN),
        _ => Decoder::with_board_size(BoardSize::NINETEEN),
    }
}

/// The fuzz target's body: its assertions, and the outcomes for comparison.
fn replay(control: u8, stream: &[u8]) -> Vec<Outcome> {
    let mut decoder = decoder(control);
    let chunk = usize::from(control / 4) + 1;
    let (mut buf, mut out) = (BytesMut::new(), Vec::new());
    for piece in stream.chunks(chunk) {
        buf.extend_from_slice(piece);
        loop {
            match decoder.decode(&mut buf) {
                Ok(None) => break,
                Ok(Some(frame)) => {
                    let mut again = decoder
                        .board_size()
                        .map_or_else(Decoder::new, Decoder::with_board_size);
                    let mut wire = BytesMut::from(&frame.to_bytes()[..]);
                    assert_eq!(again.decode(&mut wire), Ok(Some(frame.clone())));
                    assert!(wire.is_empty());
                    out.push(Ok(frame));
                }
                Err(rejection) => {
                    assert!(rejection.dropped > 0 && rejection.dropped <= MAX_FRAME_LEN);
                    out.push(Err(rejection));
                }
            }
        }
        assert!(buf.len() < MAX_FRAME_LEN, "holds at most one partial frame");
    }
    let s = decoder.stats();
    assert_eq!(s.bytes + buf.len() as u64, stream.len() as u64);
    assert_eq!(
        s.bytes,
        s.frame_bytes + s.unknown_bytes + s.dropped_bytes + s.noise_bytes
    );
    assert_eq!(s.frames.total() + s.rejections.total(), out.len() as u64);
    out
}

#[test]
fn every_seed_keeps_the_fuzz_invariants_on_both_buffers() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let mut seeds = 0;
    for entry in std::fs::read_dir(&dir).expect("protocol/fuzz/seeds") {
        let data = std::fs::read(entry.expect("seed").path()).expect("read seed");
        let Some((&control, stream)) = data.split_first() else {
            continue;
        };
        seeds += 1;
        // The seed's own control byte, then every board size with chunks of 1..64 bytes.
        for control in std::iter::once(control).chain((0..=255).step_by(7)) {
            let outcomes = replay(control, stream);
            let chunk = usize::from(control / 4) + 1;
            let fixed = common::feed_fixed(&mut decoder(control), stream, chunk);
            assert_eq!(fixed, outcomes, "control {control}");
        }
    }
    assert!(seeds >= 3, "the seeds are gone");
}
