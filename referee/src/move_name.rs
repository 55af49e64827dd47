//! A move's name as people read it ("D4", "pass"), held inline: a board keeps one per move
//! twice (the referee's record and the state it publishes), so a heap string each cost a
//! hall of 512 games about 50 bytes a move more.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::{Serialize, Serializer};

/// "D4", "T19", "pass", or "unseen" (a move nobody saw); compares and serializes as that text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MoveName {
    len: u8,
    bytes: [u8; Self::MAX],
}

impl MoveName {
    /// The longest name held: "pass" and any point of a 25x25 board ("Z25") fit.
    pub const MAX: usize = 7;

    /// `name`, if it is at most [`MoveName::MAX`] bytes.
    pub fn new(name: &str) -> Option<Self> {
        let mut bytes = [0; Self::MAX];
        bytes
            .get_mut(..name.len())?
            .copy_from_slice(name.as_bytes());
        Some(Self {
            len: u8::try_from(name.len()).ok()?,
            bytes,
        })
    }

    /// The text naming a move nobody saw: a setup block's press that no stone on the board
    /// accounts for (a pass, or a stone taken off again within the block).
    pub const UNSEEN: &'static str = "unseen";

    /// The name of a move nobody saw ([`MoveName::UNSEEN`]).
    pub fn unseen() -> Self {
        Self::new(Self::UNSEEN).unwrap_or_default()
    }

    /// Whether this names a move nobody saw.
    pub fn is_unseen(&self) -> bool {
        self.as_str() == Self::UNSEEN
    }

    /// The name's text.
    pub fn as_str(&self) -> &str {
        // Built only from a `&str` cut at its own length: always UTF-8.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl std::ops::Deref for MoveName {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for MoveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for MoveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for MoveName {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for MoveName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Serialize for MoveName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for MoveName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = MoveName;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a move name of at most {} bytes", MoveName::MAX)
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<MoveName, E> {
                MoveName::new(text).ok_or_else(|| E::invalid_length(text.len(), &self))
            }
        }
        deserializer.deserialize_str(Name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_as_text_and_longer_ones_are_refused() {
        let name = MoveName::new("Q16").expect("fits");
        assert_eq!(name, "Q16");
        assert_eq!(name.to_string(), "Q16");
        assert_eq!(format!("{name:?}"), "\"Q16\"");
        let json = serde_json::to_string(&name).expect("json");
        assert_eq!(json, "\"Q16\"");
        let back: MoveName = serde_json::from_str(&json).expect("back");
        assert_eq!(back, name);
        assert_eq!(MoveName::new("pass").map(|n| n.len()), Some(4));
        assert!(MoveName::new("too long").is_none());
        assert!(serde_json::from_str::<MoveName>("\"too long\"").is_err());
        assert!(std::mem::size_of::<MoveName>() <= 8);
    }
}
