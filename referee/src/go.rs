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

/// The colour's opposite reading.
pub(crate) fn reading_of(color: Color) -> Reading {
    Reading::from_color(Some(color))
}
