//! A move: a stone on a point, or a pass (CN2002 art. 2.5).

use serde::{Deserialize, Serialize};

use crate::{BoardSize, Point, RulesError};

/// One turn's action. Serialised as `{"play": 40}` or `"pass"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Move {
    /// A stone on this point.
    Play(Point),
    /// Giving up the turn (虚着, CN2002 art. 2.5).
    Pass,
}

impl Move {
    /// The point, unless a pass.
    #[must_use]
    pub const fn point(self) -> Option<Point> {
        match self {
            Self::Play(p) => Some(p),
            Self::Pass => None,
        }
    }

    /// The move named for people on a board of `size`: `D4` or `pass`.
    ///
    /// ```
    /// use goban_rules::{BoardSize, Move, Point};
    /// assert_eq!(Move::Play(Point(40)).display(BoardSize::NINE).to_string(), "E5");
    /// assert_eq!(Move::Pass.display(BoardSize::NINE).to_string(), "pass");
    /// ```
    #[must_use]
    pub const fn display(self, size: BoardSize) -> MoveDisplay {
        MoveDisplay { mv: self, size }
    }

    /// SGF value: two letters, or the empty string for a pass (FF\[4\]).
    #[must_use]
    pub fn to_sgf(self, size: BoardSize) -> String {
        self.point().map_or_else(String::new, |p| p.to_sgf(size))
    }

    /// Reads an SGF move value; the empty string and, on boards up to 19x19, `tt` are passes.
    ///
    /// # Errors
    /// [`RulesError::BadCoordinate`] for letters off the board.
    pub fn parse_sgf(text: &str, size: BoardSize) -> Result<Self, RulesError> {
        if text.is_empty() || (text == "tt" && size.lines() <= 19) {
            return Ok(Self::Pass);
        }
        Point::parse_sgf(text, size).map(Self::Play)
    }
}

/// A [`Move`] with its board size, printed as `D4` or `pass`; made by [`Move::display`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveDisplay {
    mv: Move,
    size: BoardSize,
}

impl std::fmt::Display for MoveDisplay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.mv {
            Move::Play(p) => write!(f, "{}", p.display(self.size)),
            Move::Pass => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_is_a_pass_up_to_19() {
        assert_eq!(
            Move::parse_sgf("tt", BoardSize::NINETEEN).unwrap(),
            Move::Pass
        );
        assert_eq!(Move::parse_sgf("", BoardSize::NINE).unwrap(), Move::Pass);
        let big = BoardSize::new(21).unwrap();
        assert!(matches!(Move::parse_sgf("tt", big).unwrap(), Move::Play(_)));
    }

    #[test]
    fn serde_shape() {
        assert_eq!(serde_json::to_string(&Move::Pass).unwrap(), "\"pass\"");
        assert_eq!(
            serde_json::to_string(&Move::Play(Point(40))).unwrap(),
            "{\"play\":40}"
        );
    }
}
