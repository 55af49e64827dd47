//! A board as the wire protocol's point-state characters: `.` empty, `B` black, `W` white.

use crate::{Board, BoardSize, Color, Point, RulesError};

impl Board {
    /// The position as `size*size` characters in index order (wire protocol `$SNAP` body).
    #[must_use]
    pub fn to_wire_text(&self) -> String {
        self.size()
            .all_points()
            .map(|p| match self.get(p) {
                None => '.',
                Some(Color::Black) => 'B',
                Some(Color::White) => 'W',
            })
            .collect()
    }

    /// A board from wire-protocol characters. Stones are placed as setup stones, without
    /// captures; `?` (an unreadable sensor) is refused, as the rules cannot guess it.
    ///
    /// # Errors
    /// [`RulesError::BadCoordinate`] for a wrong length or a character other than `.BW`.
    pub fn from_wire_text(size: BoardSize, text: &str) -> Result<Self, RulesError> {
        let bad = || RulesError::BadCoordinate {
            text: text.to_owned(),
            size: size.lines(),
        };
        if text.chars().count() != size.points() {
            return Err(bad());
        }
        let mut board = Self::new(size);
        for (i, ch) in text.chars().enumerate() {
            // i < size.points() <= 625 fits in u16.
            let p = Point(i as u16);
            match ch {
                '.' => {}
                'B' => _ = board.put_setup_stone(p, Color::Black),
                'W' => _ = board.put_setup_stone(p, Color::White),
                _ => return Err(bad()),
            }
        }
        Ok(board)
    }

    /// The points that differ between two boards of the same size, in index order.
    #[must_use]
    pub fn diff(&self, other: &Self) -> Vec<Point> {
        self.size()
            .all_points()
            .filter(|&p| self.get(p) != other.get(p))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_text_round_trips() {
        let size = BoardSize::new(3).unwrap();
        let b = Board::from_wire_text(size, "B.W.B....").unwrap();
        assert_eq!(b.get(Point(0)), Some(Color::Black));
        assert_eq!(b.get(Point(2)), Some(Color::White));
        assert_eq!(b.to_wire_text(), "B.W.B....");
        assert_eq!(b.diff(&Board::new(size)), [Point(0), Point(2), Point(4)]);
        assert!(Board::from_wire_text(size, "B.W.B...").is_err());
        assert!(Board::from_wire_text(size, "B.W.B...?").is_err());
    }
}
