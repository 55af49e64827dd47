//! A short text field (firmware version, serial number) stored without allocation.

use goban_protocol::is_text_byte;

/// Up to 64 bytes of wire text: printable ASCII without `$`, `*` or `,`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label {
    bytes: [u8; Self::CAPACITY],
    len: u8,
}

impl Label {
    /// The longest label in bytes.
    pub const CAPACITY: usize = 64;

    /// `text` as a label; `None` if it is too long or holds a byte a frame cannot carry.
    pub fn new(text: &str) -> Option<Self> {
        let src = text.as_bytes();
        if src.len() > Self::CAPACITY || !src.iter().all(|&b| is_text_byte(b)) {
            return None;
        }
        let mut bytes = [0; Self::CAPACITY];
        bytes[..src.len()].copy_from_slice(src);
        Some(Self {
            bytes,
            len: u8::try_from(src.len()).ok()?,
        })
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Only printable ASCII was stored.
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_wire_text_of_64_bytes_or_less() {
        assert_eq!(Label::new("fw-1.2.0").map(|l| l.len), Some(8));
        assert_eq!(Label::new("SB-000417").unwrap().as_str(), "SB-000417");
        assert!(Label::new("a,b").is_none());
        let long = [b'x'; 65];
        let text = |n: usize| core::str::from_utf8(&long[..n]).unwrap();
        assert!(Label::new(text(65)).is_none());
        assert!(Label::new(text(64)).is_some());
    }
}
