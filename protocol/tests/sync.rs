//! The v1.1 SYNC extension (docs/protocol.md): `$CAPS` after HELLO, the host's `$SYNC` and the devices' echo; v1 frames unchanged.

mod common;

use common::{feed, line};
use goban_protocol::{Decoder, Frame, FrameKind, RejectReason};

/// Vectors from the independent implementation (`shared/conformance/wire.py` `frame()`).
const CAPS_SYNC: &[u8] = b"$CAPS,SYNC*744C\n";
const CAPS_NONE: &[u8] = b"$CAPS*3F34\n";
const HOST_SYNC: &[u8] = b"$SYNC,7*802E\n";
const ECHO: &[u8] = b"$SYNC,7,123456*022B\n";
const CAPS_MORE: &[u8] = b"$CAPS,LEDS;SYNC*2380\n";

#[test]
fn sync_frames_encode_to_the_independent_vectors_and_decode_back() {
    let cases = [
        (
            Frame::Caps {
                sync: true,
                zones: false,
            },
            CAPS_SYNC,
        ),
        (
            Frame::Caps {
                sync: false,
                zones: false,
            },
            CAPS_NONE,
        ),
        (Frame::Sync { token: 7 }, HOST_SYNC),
        (
            Frame::SyncEcho {
                token: 7,
                ms: 123_456,
            },
            ECHO,
        ),
    ];
    for (frame, bytes) in cases {
        assert_eq!(frame.to_bytes(), bytes, "{frame:?}");
        assert_eq!(feed(&mut Decoder::new(), bytes), vec![Ok(frame)]);
    }
}

#[test]
fn kinds_directions_and_device_time() {
    assert_eq!(Frame::Sync { token: 1 }.kind(), FrameKind::Sync);
    assert!(FrameKind::Sync.is_host());
    assert!(!FrameKind::SyncEcho.is_host() && !FrameKind::Caps.is_host());
    assert_eq!(FrameKind::SyncEcho.wire_kind(), "SYNC");
    let echo = Frame::SyncEcho { token: 1, ms: 42 };
    assert_eq!(echo.device_ms(), Some(42));
    assert_eq!(Frame::Sync { token: 1 }.device_ms(), None);
}

#[test]
fn unknown_capabilities_are_skipped_and_malformed_ones_rejected() {
    assert_eq!(
        feed(&mut Decoder::new(), CAPS_MORE),
        vec![Ok(Frame::Caps {
            sync: true,
            zones: false
        })]
    );
    assert_eq!(
        feed(&mut Decoder::new(), &line("CAPS,LEDS")),
        vec![Ok(Frame::Caps {
            sync: false,
            zones: false
        })]
    );
    for bad in ["CAPS,sync", "CAPS,SYNC;", "CAPS,SYNC,LEDS", "CAPS,"] {
        assert_eq!(
            feed(&mut Decoder::new(), &line(bad)),
            vec![Err(if bad.matches(',').count() > 1 {
                RejectReason::FieldCount
            } else {
                RejectReason::BadValue
            })],
            "{bad}"
        );
    }
}

#[test]
fn sync_needs_one_or_two_numbers() {
    for bad in ["SYNC", "SYNC,1,2,3"] {
        assert_eq!(
            feed(&mut Decoder::new(), &line(bad)),
            vec![Err(RejectReason::FieldCount)],
            "{bad}"
        );
    }
    assert_eq!(
        feed(&mut Decoder::new(), &line("SYNC,x")),
        vec![Err(RejectReason::BadNumber)]
    );
    assert_eq!(
        feed(&mut Decoder::new(), &line("SYNC,4294967295,0")),
        vec![Ok(Frame::SyncEcho {
            token: u32::MAX,
            ms: 0
        })]
    );
}

#[test]
fn a_v1_1_device_session_keeps_its_v1_frames_byte_for_byte() {
    // HELLO is unchanged: the capability comes in its own frame, which a v1 host skips.
    let hello = b"$HELLO,BOARD,1,9,fw-1.2.0,SB-000417*19B1\n";
    let session = [&hello[..], CAPS_SYNC, b"$DIFF,1,5311,40B*817D\n"].concat();
    let frames = feed(&mut Decoder::new(), &session);
    assert_eq!(frames.len(), 3);
    assert!(matches!(frames[0], Ok(Frame::BoardHello { .. })));
    assert_eq!(
        frames[1],
        Ok(Frame::Caps {
            sync: true,
            zones: false
        })
    );
}
