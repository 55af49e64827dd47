//! The test vectors printed in `docs/protocol.md` decode with our codec and re-encode byte for byte.

use bytes::BytesMut;
use goban_protocol::{Decoder, crc16};

const DOC: &str = include_str!("../../docs/protocol.md");

/// Every line of section 9's code blocks that is a frame (starts with `$`).
fn doc_frames() -> Vec<&'static str> {
    let section = DOC
        .split("## 9. Test vectors")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/protocol.md has a section 9");
    section
        .lines()
        .filter(|line| line.starts_with('$'))
        .collect()
}

#[test]
fn the_documented_check_value_is_our_crc() {
    assert!(DOC.contains("`123456789` is `29B1`"));
    assert_eq!(crc16(b"123456789"), 0x29B1);
}

#[test]
fn every_documented_frame_round_trips_byte_for_byte() {
    let frames = doc_frames();
    assert!(frames.len() >= 15, "section 9 lost its vectors: {frames:?}");
    for line in frames {
        let wire = format!("{line}\n");
        let mut buf = BytesMut::from(wire.as_bytes());
        let frame = Decoder::new()
            .decode(&mut buf)
            .unwrap_or_else(|err| panic!("{line}: rejected: {err:?}"))
            .unwrap_or_else(|| panic!("{line}: incomplete"));
        assert!(buf.is_empty(), "{line}: bytes left over");
        assert_eq!(
            String::from_utf8_lossy(&frame.to_bytes()),
            wire,
            "{line}: re-encoding differs"
        );
    }
}

#[test]
fn a_documented_frame_with_one_crc_digit_changed_is_rejected() {
    for line in doc_frames() {
        let (body, crc) = line.rsplit_once('*').expect("a CRC");
        let wrong = format!("{:04X}", u16::from_str_radix(crc, 16).expect("hex") ^ 1);
        let mut buf = BytesMut::from(format!("{body}*{wrong}\n").as_bytes());
        assert!(Decoder::new().decode(&mut buf).is_err(), "{line}");
    }
}
