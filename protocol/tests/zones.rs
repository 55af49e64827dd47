//! The v1.1 ZONE extension (docs/protocol.md 10.2): `ZONE` in `$CAPS`, the board's `$ZONE` frame; v1 frames unchanged.

mod common;

use common::{feed, line};
use goban_protocol::{Decoder, Frame, FrameKind, PointState, RejectReason};

/// Vectors from the independent implementation (`shared/conformance/wire.py` `frame()`).
const CAPS_ZONE: &[u8] = b"$CAPS,ZONE*163E\n";
const CAPS_BOTH: &[u8] = b"$CAPS,SYNC;ZONE*4F91\n";
const ZONE_WHITE_IN_BLACKS: &[u8] = b"$ZONE,5400,W.*3D4A\n";
const ZONE_EMPTY: &[u8] = b"$ZONE,5400,..*8F8B\n";
const ZONE_BOTH: &[u8] = b"$ZONE,9100,WB*810A\n";
const ZONE_UNKNOWN: &[u8] = b"$ZONE,100,?.*24A7\n";

fn zone(ms: u32, black: PointState, white: PointState) -> Frame {
    Frame::Zone { ms, black, white }
}

#[test]
fn zone_frames_encode_to_the_independent_vectors_and_decode_back() {
    use PointState::{Black, Empty, Unknown, White};
    let cases = [
        (
            Frame::Caps {
                sync: false,
                zones: true,
            },
            CAPS_ZONE,
        ),
        (
            Frame::Caps {
                sync: true,
                zones: true,
            },
            CAPS_BOTH,
        ),
        (zone(5400, White, Empty), ZONE_WHITE_IN_BLACKS),
        (zone(5400, Empty, Empty), ZONE_EMPTY),
        (zone(9100, White, Black), ZONE_BOTH),
        (zone(100, Unknown, Empty), ZONE_UNKNOWN),
    ];
    for (frame, bytes) in cases {
        assert_eq!(frame.to_bytes(), bytes, "{frame:?}");
        assert_eq!(feed(&mut Decoder::new(), bytes), vec![Ok(frame)]);
    }
}

#[test]
fn a_zone_frame_is_a_board_frame_with_device_time_and_no_seq() {
    let frame = zone(42, PointState::Empty, PointState::Black);
    assert_eq!(frame.kind(), FrameKind::Zone);
    assert_eq!(FrameKind::Zone.wire_kind(), "ZONE");
    assert!(!FrameKind::Zone.is_host());
    assert_eq!(frame.device_ms(), Some(42));
    // Its own frame, outside the SNAP/DIFF counter: a v1 host that skips it sees no gap.
    assert_eq!(frame.seq(), None);
}

#[test]
fn malformed_zone_frames_are_rejected() {
    let cases = [
        ("ZONE,1", RejectReason::FieldCount),
        ("ZONE,1,W.,x", RejectReason::FieldCount),
        ("ZONE,x,W.", RejectReason::BadNumber),
        ("ZONE,1,W", RejectReason::BadState),
        ("ZONE,1,W..", RejectReason::BadState),
        ("ZONE,1,w.", RejectReason::BadState),
    ];
    for (body, reason) in cases {
        assert_eq!(
            feed(&mut Decoder::new(), &line(body)),
            vec![Err(reason)],
            "{body}"
        );
    }
}

#[test]
fn a_zone_board_session_keeps_its_v1_frames_and_counters() {
    let session = [
        &b"$HELLO,BOARD,1,9,fw-1.2.0,SB-000417*19B1\n"[..],
        CAPS_ZONE,
        b"$DIFF,1,5311,40B*817D\n",
        ZONE_WHITE_IN_BLACKS,
        b"$DIFF,2,6100,41W;40.*143B\n",
    ]
    .concat();
    let frames = feed(&mut Decoder::new(), &session);
    assert_eq!(frames.len(), 5);
    let seqs: Vec<u32> = frames
        .iter()
        .filter_map(|f| f.as_ref().ok().and_then(Frame::seq).map(|s| s.0))
        .collect();
    assert_eq!(seqs, vec![1, 2], "ZONE takes no SNAP/DIFF number");
    assert_eq!(
        frames[1],
        Ok(Frame::Caps {
            sync: false,
            zones: true
        })
    );
}
