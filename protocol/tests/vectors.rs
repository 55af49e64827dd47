//! The spec's example session as test vectors, both directions, plus the reference devices' frames.

mod common;

use common::{feed, feed_chunked, line};
use goban_protocol::{
    BoardSize, Button, Change, Decoder, Frame, Key, Point, PointState, Running, Seq, Text, crc16,
};

const HELLO: &[u8] = b"$HELLO,BOARD,1,9,fw-1.2.0,SB-000417*19B1\n";
const SNAP: &[u8] =
    b"$SNAP,0,1200,.................................................................................*B939\n";
const DIFF: &[u8] = b"$DIFF,1,5311,40B*817D\n";
const PRESS: &[u8] = b"$PRESS,0,5790,L*D0D2\n";

fn text(s: &str) -> Text {
    Text::new(s).expect("valid text")
}

fn spec_frames() -> Vec<Frame> {
    vec![
        Frame::BoardHello {
            size: BoardSize::NINE,
            firmware: text("fw-1.2.0"),
            serial: text("SB-000417"),
        },
        Frame::Snap {
            seq: Seq(0),
            ms: 1200,
            points: vec![PointState::Empty; 81],
        },
        Frame::Diff {
            seq: Seq(1),
            ms: 5311,
            changes: vec![Change {
                point: Point(40),
                state: PointState::Black,
            }],
        },
        Frame::Press {
            seq: Seq(0),
            ms: 5790,
            button: Button::L,
        },
    ]
}

#[test]
fn crc_check_value_is_29b1() {
    // Spec "Framing": check value of `123456789`.
    assert_eq!(crc16(b"123456789"), 0x29B1);
}

#[test]
fn spec_example_session_decodes() {
    let session = [HELLO, SNAP, DIFF, PRESS].concat();
    let mut decoder = Decoder::new();
    let got = feed(&mut decoder, &session);
    let want: Vec<_> = spec_frames().into_iter().map(Ok).collect();
    assert_eq!(got, want);
    assert_eq!(
        decoder.board_size(),
        Some(BoardSize::NINE),
        "learnt from HELLO"
    );
    let stats = decoder.stats();
    assert_eq!(stats.frames.total(), 4);
    assert_eq!(stats.rejections.total(), 0);
    assert_eq!(stats.bytes, session.len() as u64);
    assert_eq!(stats.frame_bytes, session.len() as u64);
}

#[test]
fn spec_example_session_encodes_byte_for_byte() {
    let want = [HELLO, SNAP, DIFF, PRESS];
    for (frame, bytes) in spec_frames().iter().zip(want) {
        assert_eq!(frame.to_bytes(), bytes, "{frame:?}");
        assert_eq!(frame.encoded_len(), bytes.len());
    }
}

#[test]
fn spec_session_one_byte_at_a_time() {
    let session = [HELLO, SNAP, DIFF, PRESS].concat();
    let mut decoder = Decoder::new();
    let got = feed_chunked(&mut decoder, &session, &[1]);
    assert_eq!(got, spec_frames().into_iter().map(Ok).collect::<Vec<_>>());
}

#[test]
fn one_flipped_crc_digit_is_rejected() {
    // wire.py: `$DIFF,1,5311,40B*817E` is not valid.
    let mut decoder = Decoder::with_board_size(BoardSize::NINE);
    let got = feed(&mut decoder, b"$DIFF,1,5311,40B*817E\n");
    assert_eq!(got, vec![Err(goban_protocol::RejectReason::BadCrc)]);
}

/// Every frame of the spec's tables in the form the reference devices (`wire.py`) write it.
#[test]
fn every_kind_round_trips_through_the_wire_form() {
    let cases: Vec<(Vec<u8>, Frame)> = vec![
        (
            line("HELLO,CLOCK,1,heldout-1,HC-0001"),
            Frame::ClockHello {
                firmware: text("heldout-1"),
                serial: text("HC-0001"),
            },
        ),
        (line("BEAT,4294967295"), Frame::Beat { ms: u32::MAX }),
        (
            line("FAULT,E12,sensor row 3 dead"),
            Frame::Fault {
                code: text("E12"),
                text: text("sensor row 3 dead"),
            },
        ),
        (
            line("KEY,7,100,RESIGN_R"),
            Frame::Key {
                seq: Seq(7),
                ms: 100,
                key: Key::ResignR,
            },
        ),
        (
            line("KEY,8,101,DONE_L"),
            Frame::Key {
                seq: Seq(8),
                ms: 101,
                key: Key::DoneL,
            },
        ),
        (
            line("PRESS,9,102,R"),
            Frame::Press {
                seq: Seq(9),
                ms: 102,
                button: Button::R,
            },
        ),
        (line("HELLO?"), Frame::HelloQuery),
        (line("SNAP?"), Frame::SnapQuery),
        (line("LED"), Frame::Led { points: vec![] }),
        (
            line("LED,0;360;72"),
            Frame::Led {
                points: vec![Point(0), Point(360), Point(72)],
            },
        ),
        (
            line("SHOW,300000,299000,5,4,W"),
            Frame::Show {
                black_ms: 300_000,
                white_ms: 299_000,
                black_periods: 5,
                white_periods: 4,
                running: Running::White,
            },
        ),
        (line("BEEP,3"), Frame::Beep { count: 3 }),
        (
            line("DIFF,42,90311,72B;73."),
            Frame::Diff {
                seq: Seq(42),
                ms: 90311,
                changes: vec![
                    Change {
                        point: Point(72),
                        state: PointState::Black,
                    },
                    Change {
                        point: Point(73),
                        state: PointState::Empty,
                    },
                ],
            },
        ),
    ];
    for (bytes, frame) in cases {
        let mut decoder = Decoder::new();
        assert_eq!(
            feed(&mut decoder, &bytes),
            vec![Ok(frame.clone())],
            "{}",
            show(&bytes)
        );
        assert_eq!(frame.to_bytes(), bytes);
    }
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
