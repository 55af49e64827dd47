//! The points each side owns at the count, as SGF `TB`/`TW` mark them: the empty points it
//! alone surrounds once the dead stones are off, the dead stones' points included.

use crate::{Board, Color, Point};

use super::DeadStones;
use super::regions::empty_regions;

/// Owned points per side, in board order (SGF `TB` and `TW`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Territory {
    /// Black's points (`TB`).
    pub black: Vec<Point>,
    /// White's points (`TW`).
    pub white: Vec<Point>,
}

impl Territory {
    /// The owned points of `board` once `dead` is taken off. Points next to both colours
    /// (dame, seki liberties) belong to nobody; seki eyes count for their owner, as in
    /// area counting (JK leaves them out of its count but not out of the picture).
    #[must_use]
    pub fn of(board: &Board, dead: &DeadStones) -> Self {
        let mut live = Board::new(board.size());
        for (p, c) in board.stones() {
            if !dead.contains(p) {
                live.put_setup_stone(p, c);
            }
        }
        let mut owned = Self::default();
        for region in empty_regions(&live) {
            match region.owner {
                Some(Color::Black) => owned.black.extend(region.points),
                Some(Color::White) => owned.white.extend(region.points),
                None => {}
            }
        }
        owned.black.sort_unstable();
        owned.white.sort_unstable();
        owned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSize;

    fn build_board(rows: &[&str]) -> Board {
        let size = BoardSize::new(rows.len() as u8).unwrap();
        let mut board = Board::new(size);
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let color = match ch {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                // Rows are written top first; row 1 is the bottom line.
                let name = format!("{}{}", "ABCDEFGHJ".as_bytes()[c] as char, rows.len() - r);
                board.put_setup_stone(Point::parse_human(&name, size).unwrap(), color);
            }
        }
        board
    }

    fn names(points: &[Point], size: BoardSize) -> Vec<String> {
        let mut out: Vec<String> = points.iter().map(|p| p.to_human(size)).collect();
        out.sort();
        out
    }

    #[test]
    fn dead_stones_count_for_the_side_around_them() {
        let board = build_board(&[".XO..", ".XO..", "XXO..", ".XOOO", "OX..."]);
        let size = board.size();
        let dead = DeadStones::from_points([Point::parse_human("A1", size).unwrap()]);
        let t = Territory::of(&board, &dead);
        assert_eq!(names(&t.black, size), ["A1", "A2", "A4", "A5"]);
        assert_eq!(names(&t.white, size), ["D3", "D4", "D5", "E3", "E4", "E5"]);
        // C1, D1, E1 touch both colours: dame, nobody's.
        let t_alive = Territory::of(&board, &DeadStones::new());
        // A2 touches the living white A1 then: dame too.
        assert_eq!(names(&t_alive.black, size), ["A4", "A5"]);
    }

    #[test]
    fn no_dead_stones_leaves_the_stones_standing() {
        let board = build_board(&["X..", "...", "..O"]);
        let t = Territory::of(&board, &DeadStones::new());
        assert!(t.black.is_empty() && t.white.is_empty(), "{t:?}");
    }
}
