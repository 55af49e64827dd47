//! Board sizes and points: wire-protocol indices, letters-and-numbers and SGF coordinates.

use serde::{Deserialize, Serialize};

use crate::RulesError;

/// The number of lines of a square board, 2..=25 (CN2002 art. 1: 19; 9 and 13 for short games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct BoardSize(u8);

impl BoardSize {
    /// The smallest supported size.
    pub const MIN: u8 = 2;
    /// The largest supported size (SGF letters run out after 52, the zobrist table at 25).
    pub const MAX: u8 = 25;
    /// 9x9.
    pub const NINE: Self = Self(9);
    /// 13x13.
    pub const THIRTEEN: Self = Self(13);
    /// 19x19, the standard board (CN2002 art. 1).
    pub const NINETEEN: Self = Self(19);

    /// A size in 2..=25.
    ///
    /// # Errors
    /// [`RulesError::BadSize`] outside that range.
    pub fn new(lines: u8) -> Result<Self, RulesError> {
        if (Self::MIN..=Self::MAX).contains(&lines) {
            Ok(Self(lines))
        } else {
            Err(RulesError::BadSize(u32::from(lines)))
        }
    }

    /// The number of lines.
    #[must_use]
    pub const fn lines(self) -> u8 {
        self.0
    }

    /// The number of points, lines squared.
    #[must_use]
    pub const fn points(self) -> usize {
        self.0 as usize * self.0 as usize
    }

    /// Every point of the board in index order.
    pub fn all_points(self) -> impl Iterator<Item = Point> {
        // The cast cannot truncate: 25 * 25 = 625 fits in u16.
        (0..self.points()).map(|i| Point(i as u16))
    }
}

impl TryFrom<u8> for BoardSize {
    type Error = RulesError;
    fn try_from(lines: u8) -> Result<Self, Self::Error> {
        Self::new(lines)
    }
}

impl From<BoardSize> for u8 {
    fn from(size: BoardSize) -> Self {
        size.0
    }
}

impl std::fmt::Display for BoardSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{0}x{0}", self.0)
    }
}

/// A point of the board as the wire protocol numbers it: `row * size + col`, row 0 the
/// far line as seen by Black (line `size`), col 0 Black's left (column A). On 19x19,
/// `Point(0)` is A19 and `Point(360)` is T1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Point(pub u16);

/// Column letters of the letters-and-numbers notation: A..Z without I.
const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl Point {
    /// The point at `row` (0 = far line) and `col` (0 = column A), if on the board.
    #[must_use]
    pub fn from_row_col(row: u8, col: u8, size: BoardSize) -> Option<Self> {
        let n = size.lines();
        (row < n && col < n).then(|| Self(u16::from(row) * u16::from(n) + u16::from(col)))
    }

    /// The index as a `usize`, for arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether the point lies on a board of `size`.
    #[must_use]
    pub const fn is_on(self, size: BoardSize) -> bool {
        self.index() < size.points()
    }

    /// The row, 0 = the far line as seen by Black.
    #[must_use]
    pub fn row(self, size: BoardSize) -> u8 {
        // Truncation impossible for on-board points: row < 25.
        (self.0 / u16::from(size.lines())) as u8
    }

    /// The column, 0 = column A on Black's left.
    #[must_use]
    pub fn col(self, size: BoardSize) -> u8 {
        // Truncation impossible: the remainder is < 25.
        (self.0 % u16::from(size.lines())) as u8
    }

    /// Letters-and-numbers notation, e.g. `"D4"` (I skipped, numbers from Black's side).
    #[must_use]
    pub fn to_human(self, size: BoardSize) -> String {
        self.display(size).to_string()
    }

    /// The point named for people on a board of `size`, without allocating: `D4`.
    ///
    /// A `Point` is a bare index, and which intersection it is depends on the board size,
    /// so `Point` itself has no `Display`: this is the way to print one.
    ///
    /// ```
    /// use goban_rules::{BoardSize, Point};
    /// assert_eq!(format!("{}", Point(0).display(BoardSize::NINETEEN)), "A19");
    /// assert_eq!(Point(40).display(BoardSize::NINE).to_string(), "E5");
    /// ```
    #[must_use]
    pub const fn display(self, size: BoardSize) -> PointDisplay {
        PointDisplay { point: self, size }
    }

    /// Reads `"D4"` / `"q16"`.
    ///
    /// # Errors
    /// [`RulesError::BadCoordinate`] when the text names no point of this board.
    pub fn parse_human(text: &str, size: BoardSize) -> Result<Self, RulesError> {
        let bad = || RulesError::BadCoordinate {
            text: text.to_owned(),
            size: size.lines(),
        };
        let mut chars = text.trim().chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        let col = COLUMN_LETTERS
            .iter()
            .position(|&c| char::from(c) == letter)
            .ok_or_else(bad)?;
        let number: u8 = chars.as_str().parse().map_err(|_| bad())?;
        if number == 0 || number > size.lines() {
            return Err(bad());
        }
        // `col` < 25 from the table.
        Self::from_row_col(size.lines() - number, col as u8, size).ok_or_else(bad)
    }

    /// SGF coordinates, e.g. `"dp"` for D4 on 19x19 (x = column, y = row, `aa` top left).
    #[must_use]
    pub fn to_sgf(self, size: BoardSize) -> String {
        let x = char::from(b'a' + self.col(size));
        let y = char::from(b'a' + self.row(size));
        format!("{x}{y}")
    }

    /// Reads two SGF letters. `tt` and the empty string are passes, not points: see
    /// [`crate::Move::parse_sgf`].
    ///
    /// # Errors
    /// [`RulesError::BadCoordinate`] when the letters name no point of this board.
    pub fn parse_sgf(text: &str, size: BoardSize) -> Result<Self, RulesError> {
        let bad = || RulesError::BadCoordinate {
            text: text.to_owned(),
            size: size.lines(),
        };
        match text.as_bytes() {
            [x @ b'a'..=b'z', y @ b'a'..=b'z'] => {
                Self::from_row_col(y - b'a', x - b'a', size).ok_or_else(bad)
            }
            _ => Err(bad()),
        }
    }
}

/// A [`Point`] with its board size, printed in letters and numbers (`D4`); made by
/// [`Point::display`]. A point off that board prints as its index (`point 999, off the
/// 19x19 board`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointDisplay {
    point: Point,
    size: BoardSize,
}

impl std::fmt::Display for PointDisplay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (p, size) = (self.point, self.size);
        if !p.is_on(size) {
            return write!(f, "point {}, off the {size} board", p.0);
        }
        let letter = char::from(COLUMN_LETTERS[usize::from(p.col(size))]);
        write!(f, "{letter}{}", size.lines() - p.row(size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S19: BoardSize = BoardSize::NINETEEN;

    #[test]
    fn wire_protocol_corners() {
        assert_eq!(Point(0).to_human(S19), "A19");
        assert_eq!(Point(360).to_human(S19), "T1");
        assert_eq!(Point(40).to_human(BoardSize::NINE), "E5");
        assert_eq!(Point::parse_human("A19", S19).unwrap(), Point(0));
        assert_eq!(Point::parse_human("t1", S19).unwrap(), Point(360));
    }

    #[test]
    fn display_names_the_point_and_survives_off_board_indices() {
        assert_eq!(Point(360).display(S19).to_string(), "T1");
        assert_eq!(Point(80).display(BoardSize::NINE).to_string(), "J1");
        assert_eq!(
            Point(999).display(S19).to_string(),
            "point 999, off the 19x19 board"
        );
    }

    #[test]
    fn letter_i_is_skipped() {
        assert_eq!(Point::from_row_col(18, 8, S19).unwrap().to_human(S19), "J1");
        assert!(Point::parse_human("I5", S19).is_err());
    }

    #[test]
    fn human_and_sgf_round_trip_every_point() {
        for size in [2u8, 9, 13, 19, 25] {
            let size = BoardSize::new(size).unwrap();
            for p in size.all_points() {
                assert_eq!(Point::parse_human(&p.to_human(size), size).unwrap(), p);
                assert_eq!(Point::parse_sgf(&p.to_sgf(size), size).unwrap(), p);
            }
        }
    }

    #[test]
    fn sgf_orientation_matches_wire_rows() {
        // dp is D4: x = d (col 3), y = p (row 15 from the top).
        assert_eq!(Point::parse_sgf("dp", S19).unwrap().to_human(S19), "D4");
    }

    #[test]
    fn bad_coordinates_are_errors() {
        for text in ["", "Z9", "A0", "A20", "D", "4D", "A-1"] {
            assert!(Point::parse_human(text, S19).is_err(), "{text}");
        }
        assert!(Point::parse_sgf("tt", S19).is_err());
        assert!(Point::parse_sgf("a", S19).is_err());
        assert!(BoardSize::new(1).is_err() && BoardSize::new(26).is_err());
    }
}
