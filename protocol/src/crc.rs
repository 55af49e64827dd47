//! CRC-16/CCITT-FALSE of a frame body and its 4-digit upper-case hex form (wire protocol v1, "Framing").

use crc::{CRC_16_IBM_3740, Crc, Digest, Table};

/// CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, xorout 0.
/// The `crc` catalogue names it CRC-16/IBM-3740; its check value is 0x29B1.
/// Slice-by-16 tables (8 KiB, built at compile time): SNAP bodies are 370 bytes.
static CCITT_FALSE: Crc<u16, Table<16>> = Crc::<u16, Table<16>>::new(&CRC_16_IBM_3740);

/// The CRC of `body`: every byte after `$` up to but not including `*`.
pub fn crc16(body: &[u8]) -> u16 {
    CCITT_FALSE.checksum(body)
}

/// A running CRC for encoders that write the body piece by piece.
pub(crate) fn digest() -> Digest<'static, u16, Table<16>> {
    CCITT_FALSE.digest()
}

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// The 4 upper-case hex digits of a CRC as they appear on the wire.
pub(crate) fn to_hex(crc: u16) -> [u8; 4] {
    let nibble = |shift: u16| HEX_UPPER[usize::from((crc >> shift) & 0xF)];
    [nibble(12), nibble(8), nibble(4), nibble(0)]
}

/// Parses exactly 4 upper-case hex digits; lower case is not the wire form.
pub(crate) fn from_hex(digits: &[u8]) -> Option<u16> {
    if digits.len() != 4 {
        return None;
    }
    digits.iter().try_fold(0u16, |acc, &d| {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'A'..=b'F' => d - b'A' + 10,
            _ => return None,
        };
        Some((acc << 4) | u16::from(v))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_value_of_the_spec() {
        // Spec "Framing": the CRC of `123456789` is `29B1`.
        assert_eq!(crc16(b"123456789"), 0x29B1);
        assert_eq!(&to_hex(crc16(b"123456789")), b"29B1");
    }

    #[test]
    fn hex_round_trip_and_strictness() {
        for crc in [0u16, 1, 0x29B1, 0xABCD, 0xFFFF] {
            assert_eq!(from_hex(&to_hex(crc)), Some(crc));
        }
        assert_eq!(from_hex(b"29b1"), None, "lower case is not the wire form");
        assert_eq!(from_hex(b"29B"), None);
        assert_eq!(from_hex(b"29B10"), None);
        assert_eq!(from_hex(b"G000"), None);
    }

    #[test]
    fn digest_matches_checksum() {
        let mut d = digest();
        d.update(b"DIFF,1,");
        d.update(b"5311,40B");
        assert_eq!(d.finalize(), crc16(b"DIFF,1,5311,40B"));
        assert_eq!(&to_hex(crc16(b"DIFF,1,5311,40B")), b"817D");
    }
}
