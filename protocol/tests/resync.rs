//! Resynchronisation as spec "Framing" says: noise, `$` inside a frame, 1024-byte limit, CR LF, split reads.

mod common;

use bytes::BytesMut;
use common::{Outcome, feed, feed_chunked, line};
use goban_protocol::{BoardSize, Decoder, Frame, MAX_FRAME_LEN, RejectReason};

fn beat(ms: u32) -> Outcome {
    Ok(Frame::Beat { ms })
}

/// Checks the byte accounting invariant of `DecoderStats`.
fn assert_bytes_add_up(decoder: &Decoder) {
    let s = decoder.stats();
    assert_eq!(
        s.bytes,
        s.frame_bytes + s.unknown_bytes + s.dropped_bytes + s.noise_bytes
    );
}

#[test]
fn trailing_junk_is_skipped_and_a_trailing_partial_frame_is_kept() {
    let mut bytes = line("BEAT,5");
    bytes.extend_from_slice(b"junk after\r\n$BE");
    let mut decoder = Decoder::new();
    let mut buf = BytesMut::from(&bytes[..]);
    assert_eq!(decoder.decode(&mut buf), Ok(Some(Frame::Beat { ms: 5 })));
    assert_eq!(decoder.decode(&mut buf), Ok(None));
    assert_eq!(
        &buf[..],
        b"$BE",
        "the partial frame waits, nothing over-read"
    );
    assert_eq!(decoder.stats().noise_bytes, 12);
    buf.extend_from_slice(&line("BEAT,6")[3..]);
    assert_eq!(decoder.decode(&mut buf), Ok(Some(Frame::Beat { ms: 6 })));
    assert!(buf.is_empty());
    assert_bytes_add_up(&decoder);
}

#[test]
fn boot_banner_and_binary_noise_before_the_first_frame() {
    let mut bytes = b"\x00\xffU-Boot 2024.01\r\nbooting...\n\x1b[0m".to_vec();
    bytes.extend(line("BEAT,1"));
    let mut decoder = Decoder::new();
    assert_eq!(feed(&mut decoder, &bytes), vec![beat(1)]);
    assert_eq!(
        decoder.stats().rejections.total(),
        0,
        "noise is not a rejection"
    );
    assert_eq!(
        decoder.stats().noise_bytes,
        (bytes.len() - line("BEAT,1").len()) as u64
    );
}

#[test]
fn dollar_inside_a_frame_restarts_it() {
    let mut bytes = b"$DIFF,1,53".to_vec();
    bytes.extend(line("BEAT,7"));
    let mut decoder = Decoder::new();
    assert_eq!(
        feed(&mut decoder, &bytes),
        vec![Err(RejectReason::Interrupted), beat(7)]
    );
    assert_eq!(decoder.stats().dropped_bytes, 10);
    assert_eq!(
        decoder.take_resync(),
        Some(1),
        "one rejection before the good frame"
    );
    assert_eq!(decoder.take_resync(), None, "reported once");
}

#[test]
fn over_1024_bytes_is_discarded_up_to_the_next_dollar() {
    let mut bytes = b"$".to_vec();
    bytes.extend(std::iter::repeat_n(b'A', 2000));
    bytes.extend_from_slice(b"\n\nmore noise");
    bytes.extend(line("BEAT,8"));
    for chunks in [&[bytes.len()][..], &[1], &[7, 300]] {
        let mut decoder = Decoder::new();
        let got = feed_chunked(&mut decoder, &bytes, chunks);
        assert_eq!(
            got,
            vec![Err(RejectReason::TooLong), beat(8)],
            "chunks {chunks:?}"
        );
        assert_eq!(decoder.stats().dropped_bytes, 1 + 2000 + 2 + 10);
        assert_bytes_add_up(&decoder);
    }
}

#[test]
fn the_buffer_never_holds_more_than_one_frame_of_garbage() {
    let mut decoder = Decoder::new();
    let mut buf = BytesMut::new();
    buf.extend_from_slice(b"$");
    for _ in 0..100 {
        buf.extend_from_slice(&[b'Z'; 500]);
        while let Err(rejection) = decoder.decode(&mut buf) {
            assert_eq!(rejection.reason, RejectReason::TooLong);
        }
        assert!(buf.len() < MAX_FRAME_LEN, "buffer grew to {}", buf.len());
    }
    assert_eq!(decoder.stats().rejections.too_long, 1);
}

/// A FAULT frame padded so that it is exactly `len` bytes long, `$` to LF inclusive.
fn fault_of_len(len: usize, cr: bool) -> Vec<u8> {
    let overhead = "$FAULT,E,*XXXX\n".len() + usize::from(cr);
    let text = "x".repeat(len - overhead);
    let mut bytes = line(&format!("FAULT,E,{text}"));
    if cr {
        bytes.insert(bytes.len() - 1, b'\r');
    }
    assert_eq!(bytes.len(), len);
    bytes
}

#[test]
fn exactly_1024_bytes_is_accepted_1025_is_not() {
    for cr in [false, true] {
        let mut decoder = Decoder::new();
        let got = feed_chunked(&mut decoder, &fault_of_len(MAX_FRAME_LEN, cr), &[100]);
        assert!(
            matches!(got.as_slice(), [Ok(Frame::Fault { .. })]),
            "cr {cr}: {got:?}"
        );
        let got = feed_chunked(&mut decoder, &fault_of_len(MAX_FRAME_LEN + 1, cr), &[100]);
        assert_eq!(got, vec![Err(RejectReason::TooLong)], "cr {cr}");
    }
}

#[test]
fn cr_before_lf_is_accepted_once() {
    let mut crlf = line("BEAT,9");
    crlf.insert(crlf.len() - 1, b'\r');
    let mut decoder = Decoder::new();
    assert_eq!(feed(&mut decoder, &crlf), vec![beat(9)]);
    let mut two_cr = crlf.clone();
    two_cr.insert(two_cr.len() - 1, b'\r');
    assert_eq!(
        feed(&mut decoder, &two_cr),
        vec![Err(RejectReason::BadFraming)]
    );
}

#[test]
fn cr_alone_does_not_end_a_frame() {
    let mut bytes = b"$BEAT,1*1234\r".to_vec();
    bytes.extend(line("BEAT,2"));
    let mut decoder = Decoder::new();
    assert_eq!(
        feed(&mut decoder, &bytes),
        vec![Err(RejectReason::Interrupted), beat(2)]
    );
}

#[test]
fn every_split_point_gives_the_same_frames() {
    let mut session = b"noise".to_vec();
    session.extend(line("HELLO,BOARD,1,9,fw,sn"));
    session.extend(line(&format!("SNAP,0,1,{}", ".".repeat(81))));
    session.extend(b"$BROKEN,1*0000\r\n");
    session.extend(line("DIFF,1,2,40B;41W"));
    session.extend(line("PRESS,0,3,R"));
    let mut reference = Decoder::new();
    let want = feed(&mut reference, &session);
    assert_eq!(want.len(), 5);
    for split in 0..=session.len() {
        let mut decoder = Decoder::new();
        let got = feed_chunked(&mut decoder, &session, &[split.max(1), session.len()]);
        assert_eq!(got, want, "split at {split}");
        assert_eq!(decoder.stats(), reference.stats(), "split at {split}");
    }
}

#[test]
fn unknown_kinds_are_skipped_without_error() {
    let mut bytes = line("TEMP,21");
    bytes.extend(line("CALIBRATE?"));
    bytes.extend(line("BEAT,3"));
    let mut decoder = Decoder::new();
    assert_eq!(feed(&mut decoder, &bytes), vec![beat(3)]);
    let stats = decoder.stats();
    assert_eq!((stats.unknown_kinds, stats.rejections.total()), (2, 0));
    assert_eq!(
        stats.unknown_bytes,
        (bytes.len() - line("BEAT,3").len()) as u64
    );
}

#[test]
fn unknown_kind_with_a_bad_crc_is_a_crc_rejection() {
    let mut decoder = Decoder::new();
    assert_eq!(
        feed(&mut decoder, b"$TEMP,21*0000\n"),
        vec![Err(RejectReason::BadCrc)]
    );
    assert_eq!(decoder.stats().unknown_kinds, 0);
}

#[test]
fn reset_after_the_caller_dropped_its_buffer() {
    let mut decoder = Decoder::new();
    let mut buf = BytesMut::from(&b"$DIFF,1,2,4"[..]);
    assert_eq!(decoder.decode(&mut buf), Ok(None));
    decoder.reset();
    let mut fresh = BytesMut::from(&line("BEAT,4")[..]);
    assert_eq!(decoder.decode(&mut fresh), Ok(Some(Frame::Beat { ms: 4 })));
}

#[test]
fn a_replaced_buffer_without_reset_is_not_trusted_blindly() {
    let mut decoder = Decoder::new();
    let mut buf = BytesMut::from(&b"$DIFF,1,2,4"[..]);
    assert_eq!(decoder.decode(&mut buf), Ok(None));
    let mut other = BytesMut::from(&b"x"[..]);
    other.extend(line("BEAT,4"));
    assert_eq!(decoder.decode(&mut other), Ok(Some(Frame::Beat { ms: 4 })));
}

#[test]
fn a_board_hello_replaces_the_configured_size() {
    let mut decoder = Decoder::with_board_size(BoardSize::NINETEEN);
    let mut bytes = line("HELLO,BOARD,1,13,fw,sn");
    bytes.extend(line(&format!("SNAP,0,1,{}", "B".repeat(169))));
    let got = feed(&mut decoder, &bytes);
    assert!(matches!(
        got.as_slice(),
        [Ok(Frame::BoardHello { .. }), Ok(Frame::Snap { .. })]
    ));
    assert_eq!(decoder.board_size(), Some(BoardSize::THIRTEEN));
    // A clock HELLO on a shared port changes nothing.
    feed(&mut decoder, &line("HELLO,CLOCK,1,fw,sn"));
    assert_eq!(decoder.board_size(), Some(BoardSize::THIRTEEN));
}

#[test]
fn resync_is_reported_once_with_the_count_of_rejections() {
    let mut bytes = b"$BEAT,1*0000\n$BEAT,2*0000\n$BE".to_vec();
    bytes.extend(line("BEAT,3"));
    let mut decoder = Decoder::new();
    let mut buf = BytesMut::from(&bytes[..]);
    let first = decoder.decode(&mut buf);
    let Err(rejection) = first else {
        panic!("expected a rejection, got {first:?}");
    };
    let message = goban_protocol::ProtocolError::from(rejection).to_string();
    assert!(
        message.contains("bad_crc") && message.contains("13 bytes"),
        "{message}"
    );
    assert_eq!(
        decoder.take_resync(),
        None,
        "not before the stream recovers"
    );
    assert!(decoder.decode(&mut buf).is_err());
    assert!(decoder.decode(&mut buf).is_err());
    assert_eq!(decoder.decode(&mut buf), Ok(Some(Frame::Beat { ms: 3 })));
    assert_eq!(decoder.take_resync(), Some(3));
    assert_eq!(decoder.take_resync(), None);
}
