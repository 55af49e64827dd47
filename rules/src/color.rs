//! The two colours of stones and whose turn it is.

use serde::{Deserialize, Serialize};

/// A player's colour. Serialised as `"black"` / `"white"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Color {
    /// Black, who moves first on an even game (CN2002 art. 2.3).
    Black,
    /// White.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const BOTH: [Self; 2] = [Self::Black, Self::White];

    /// The other colour.
    #[must_use]
    pub const fn opponent(self) -> Self {
        match self {
            Self::Black => Self::White,
            Self::White => Self::Black,
        }
    }

    /// `0` for Black, `1` for White: an index into per-colour arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Self::Black => 0,
            Self::White => 1,
        }
    }

    /// The SGF letter: `'B'` or `'W'`.
    #[must_use]
    pub const fn sgf_letter(self) -> char {
        match self {
            Self::Black => 'B',
            Self::White => 'W',
        }
    }

    /// The lower-case name, as serialised: `"black"` or `"white"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Black => "black",
            Self::White => "white",
        }
    }
}

impl std::fmt::Display for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_is_an_involution() {
        for c in Color::BOTH {
            assert_ne!(c, c.opponent());
            assert_eq!(c, c.opponent().opponent());
        }
    }

    #[test]
    fn serde_names_are_lowercase() {
        assert_eq!(serde_json::to_string(&Color::Black).unwrap(), "\"black\"");
        let w: Color = serde_json::from_str("\"white\"").unwrap();
        assert_eq!(w, Color::White);
    }
}
