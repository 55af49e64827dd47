//! Small helpers between the rules core's types and the referee's wire-index world.

use goban_rules::{Board, BoardSize, Color, Move, Point};

use crate::input::Reading;

/// The wire index of a point.
pub(crate) fn point(index: usize) -> Point {
    // Invariant: indices come from boards of at most 25x25 = 625 points.
    Point(u16::try_from(index).unwrap_or(u16::MAX))
}

/// "D4" notation of a wire index.
pub(crate) fn name(index: usize, size: BoardSize) -> String {
    point(index).to_human(size)
}

/// A [`move_name`] held inline, as a [`crate::MoveRecord`] keeps it. Move names are at most
/// 4 bytes ("pass", or a point of a board of at most 25 lines), so it always fits.
pub(crate) fn move_label(name: &str) -> crate::MoveName {
    crate::MoveName::new(name).unwrap_or_default()
}

/// "D4" or "pass".
pub(crate) fn move_name(mv: Move, size: BoardSize) -> String {
    match mv {
        Move::Pass => "pass".into(),
        Move::Play(p) => p.to_human(size),
    }
}

/// The board as readings, index order.
pub(crate) fn readings(board: &Board, size: BoardSize) -> Vec<Reading> {
    (0..size.points())
        .map(|i| Reading::from_color(board.get(point(i))))
        .collect()
}

/// The readings as a position string (api.md `position`).
pub(crate) fn position_string(readings: &[Reading]) -> String {
    readings.iter().map(|r| r.to_char()).collect()
}

/// Whether two wire indices are orthogonal neighbours.
pub(crate) fn adjacent(a: usize, b: usize, size: BoardSize) -> bool {
    let n = size.points().isqrt();
    let (ra, ca, rb, cb) = (a / n, a % n, b / n, b % n);
    ra.abs_diff(rb) + ca.abs_diff(cb) == 1
}

/// Whether a stone read `stone` at `p`, put back on `readings`, would be captured there: its
/// string (the stones of its reading joined to it) touches no empty point. A point read `?`
/// counts as a liberty, since it proves nothing.
pub(crate) fn without_liberty(
    readings: &[Reading],
    p: usize,
    stone: Reading,
    size: BoardSize,
) -> bool {
    let n = usize::from(size.lines());
    let mut seen = vec![false; readings.len()];
    let mut todo = vec![p];
    seen[p] = true;
    while let Some(q) = todo.pop() {
        let (r, c) = (q / n, q % n);
        let around = [
            (r > 0).then(|| q - n),
            (r + 1 < n).then(|| q + n),
            (c > 0).then(|| q - 1),
            (c + 1 < n).then(|| q + 1),
        ];
        for x in around.into_iter().flatten().filter(|&x| x != p) {
            match readings[x] {
                Reading::Empty | Reading::Unknown => return false,
                r if r == stone && !seen[x] => {
                    seen[x] = true;
                    todo.push(x);
                }
                _ => {}
            }
        }
    }
    true
}

/// The colour's opposite reading.
pub(crate) fn reading_of(color: Color) -> Reading {
    Reading::from_color(Some(color))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn readings(rows: &[&str]) -> Vec<Reading> {
        rows.concat()
            .chars()
            .map(|c| Reading::from_char(c).expect("a reading"))
            .collect()
    }

    #[test]
    fn a_stone_surrounded_on_every_side_has_no_liberty() {
        let size = BoardSize::new(5).expect("a size");
        let board = readings(&[".W...", "W.W..", ".W...", ".....", "....."]);
        assert!(without_liberty(&board, 6, Reading::Black, size));
        // In the corner, two white stones take every liberty.
        let corner = readings(&[".W...", "W....", ".....", ".....", "....."]);
        assert!(without_liberty(&corner, 0, Reading::Black, size));
        // One empty neighbour, or one that reads `?`, is a liberty.
        let open = readings(&[".W...", "W....", ".....", ".....", "....."]);
        assert!(!without_liberty(&open, 6, Reading::Black, size));
        let unknown = readings(&[".W...", "W?W..", ".W...", ".....", "....."]);
        assert!(!without_liberty(&unknown, 1, Reading::Black, size));
    }

    #[test]
    fn a_string_lives_while_any_of_its_stones_touches_an_empty_point() {
        let size = BoardSize::new(5).expect("a size");
        // B at (1,1) joined to B at (1,2), whose right neighbour is empty.
        let alive = readings(&[".WW..", "W.B..", ".WW..", ".....", "....."]);
        assert!(!without_liberty(&alive, 6, Reading::Black, size));
        let dead = readings(&[".WW..", "W.BW.", ".WW..", ".....", "....."]);
        assert!(without_liberty(&dead, 6, Reading::Black, size));
    }
}
