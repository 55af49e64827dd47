//! Field validation: every rejection reason, with valid CRCs so only the checked field is wrong.

mod common;

use common::{feed, line};
use goban_protocol::{BoardSize, Decoder, Frame, RejectReason, Seq};

/// Decodes each body (wrapped with a correct CRC) and expects one rejection for `reason`.
fn assert_rejected(size: Option<BoardSize>, bodies: &[&str], reason: RejectReason) {
    for body in bodies {
        let mut decoder = size.map_or_else(Decoder::new, Decoder::with_board_size);
        let bytes = line(body);
        assert_eq!(feed(&mut decoder, &bytes), vec![Err(reason)], "{body:?}");
        let stats = decoder.stats();
        assert_eq!(stats.rejections.count(reason), 1, "{body:?}");
        assert_eq!(stats.dropped_bytes, bytes.len() as u64, "{body:?}");
        assert_eq!(stats.frames.total(), 0, "{body:?}: never returned");
    }
}

fn assert_raw_rejected(bytes: &[&[u8]], reason: RejectReason) {
    for raw in bytes {
        let mut decoder = Decoder::new();
        let got = feed(&mut decoder, raw);
        assert_eq!(got, vec![Err(reason)], "{}", String::from_utf8_lossy(raw));
    }
}

fn dots(n: usize) -> String {
    ".".repeat(n)
}

#[test]
fn bad_framing() {
    assert_raw_rejected(
        &[
            b"$BEAT,5\n",
            b"$BEAT,5*12\n",
            b"$BEAT,5*12345\n",
            b"$\n",
            b"$*\n",
            b"$BEAT,5+9B5C\n",
        ],
        RejectReason::BadFraming,
    );
    // The CRC digits are upper-case hex only (spec "Framing").
    let lower = (0..100u32)
        .map(|ms| (ms, goban_protocol::crc16(format!("BEAT,{ms}").as_bytes())))
        .find(|(_, crc)| format!("{crc:04X}") != format!("{crc:04x}"))
        .map(|(ms, crc)| format!("$BEAT,{ms}*{crc:04x}\n"))
        .unwrap_or_default();
    assert!(!lower.is_empty());
    assert_raw_rejected(&[lower.as_bytes()], RejectReason::BadFraming);
}

#[test]
fn bad_crc() {
    let mut bytes = line("SNAP?");
    let at = bytes.len() - 2;
    bytes[at] = if bytes[at] == b'0' { b'1' } else { b'0' };
    assert_raw_rejected(&[&bytes, b"$BEAT,5*0000\n"], RejectReason::BadCrc);
}

#[test]
fn bad_byte_even_with_a_matching_crc() {
    // Spec "Framing": one line of printable ASCII; fields never contain `*` or CR.
    assert_rejected(
        None,
        &["BEAT,\t5", "FAULT,E1,caf\u{e9}", "BEAT*5", "BEAT,5\r"],
        RejectReason::BadByte,
    );
}

#[test]
fn bad_kind() {
    assert_rejected(
        None,
        &["beat,5", ",5", "B3AT,5", "SNAP??", "?", "HELLO ?"],
        RejectReason::BadKind,
    );
}

#[test]
fn field_count() {
    assert_rejected(
        None,
        &[
            "BEAT",
            "BEAT,1,2",
            "HELLO?,1",
            "SNAP?,",
            "HELLO",
            "HELLO,BOARD,1,9,fw",
            "HELLO,BOARD,1,9,fw,sn,extra",
            "HELLO,CLOCK,1,fw",
            "PRESS,1,2",
            "SHOW,1,2,3,4",
            "FAULT,only-code",
            "DIFF,1,2",
        ],
        RejectReason::FieldCount,
    );
}

#[test]
fn bad_number() {
    let snap = format!("SNAP,a,1,{}", dots(81));
    assert_rejected(
        None,
        &[
            "BEAT,-1",
            "BEAT,+1",
            "BEAT,4294967296",
            "BEAT,",
            "BEAT,1x",
            "BEAT, 1",
            &snap,
            "DIFF,1,2,B",
            "DIFF,1,2,40B;",
            "LED,",
            "LED,1;;2",
            "BEEP,three",
            "HELLO,BOARD,x,9,fw,sn",
        ],
        RejectReason::BadNumber,
    );
}

#[test]
fn u32_limits_are_accepted() {
    let mut decoder = Decoder::new();
    let got = feed(&mut decoder, &line("PRESS,4294967295,0,L"));
    assert!(matches!(
        got.as_slice(),
        [Ok(Frame::Press {
            seq: Seq(u32::MAX),
            ms: 0,
            ..
        })]
    ));
    // Leading zeros are still a decimal u32 (spec: "decimal u32 counter").
    let got = feed(&mut decoder, &line("BEAT,007"));
    assert_eq!(got, vec![Ok(Frame::Beat { ms: 7 })]);
}

#[test]
fn bad_value() {
    assert_rejected(
        None,
        &[
            "PRESS,1,2,X",
            "PRESS,1,2,l",
            "KEY,1,2,STOP",
            "KEY,1,2,RESIGN",
            "SHOW,1,2,3,4,X",
            "SHOW,1,2,3,4,",
            "HELLO,TOASTER,1,x,y",
            "HELLO,BOARD,1,10,fw,sn",
            "HELLO,BOARD,1,0,fw,sn",
        ],
        RejectReason::BadValue,
    );
}

#[test]
fn unsupported_version() {
    assert_rejected(
        None,
        &["HELLO,BOARD,2,9,fw,sn", "HELLO,CLOCK,0,fw,sn"],
        RejectReason::UnsupportedVersion,
    );
}

#[test]
fn bad_length_against_a_known_size() {
    let short = format!("SNAP,1,2,{}", dots(80));
    let nine_on_nineteen = format!("SNAP,1,2,{}", dots(81));
    assert_rejected(Some(BoardSize::NINE), &[&short], RejectReason::BadLength);
    assert_rejected(
        Some(BoardSize::NINETEEN),
        &[&nine_on_nineteen],
        RejectReason::BadLength,
    );
    assert_rejected(
        Some(BoardSize::NINE),
        &["SNAP,1,2,"],
        RejectReason::BadLength,
    );
}

#[test]
fn bad_length_without_a_size_accepts_only_the_three_boards() {
    let odd = format!("SNAP,1,2,{}", dots(100));
    assert_rejected(None, &[&odd], RejectReason::BadLength);
    for n in [81, 169, 361] {
        let mut decoder = Decoder::new();
        let got = feed(&mut decoder, &line(&format!("SNAP,1,2,{}", dots(n))));
        assert!(matches!(got.as_slice(), [Ok(Frame::Snap { points, .. })] if points.len() == n));
    }
}

#[test]
fn bad_index() {
    assert_rejected(
        Some(BoardSize::NINE),
        &["DIFF,1,2,81B", "DIFF,1,2,0B;81W", "LED,80;81"],
        RejectReason::BadIndex,
    );
    assert_rejected(None, &["DIFF,1,2,361B", "LED,361"], RejectReason::BadIndex);
    let mut decoder = Decoder::with_board_size(BoardSize::NINE);
    assert!(matches!(
        feed(&mut decoder, &line("DIFF,1,2,80W")).as_slice(),
        [Ok(_)]
    ));
}

#[test]
fn bad_state() {
    let mut snap = dots(81);
    snap.replace_range(40..41, "x");
    let snap = format!("SNAP,1,2,{snap}");
    assert_rejected(
        Some(BoardSize::NINE),
        &[
            &snap,
            "DIFF,1,2,40b",
            "DIFF,1,2,40BB",
            "DIFF,1,2,40",
            "DIFF,1,2,40-",
        ],
        RejectReason::BadState,
    );
}

#[test]
fn every_reason_has_a_distinct_stable_name() {
    let names: std::collections::BTreeSet<_> =
        RejectReason::ALL.iter().map(|r| r.as_str()).collect();
    assert_eq!(names.len(), RejectReason::ALL.len());
    for reason in RejectReason::ALL {
        let json = serde_json::to_string(&reason).unwrap_or_default();
        assert_eq!(json, format!("\"{}\"", reason.as_str()));
    }
}
