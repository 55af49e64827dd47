//! Starting stones: fixed handicap star points, free handicap, and the historical 座子.

use crate::{BoardSize, Color, Point, RulesError};

/// The line (1-based from the edge) of the corner star points, if the board has them.
fn corner_line(size: BoardSize) -> Option<u8> {
    match size.lines() {
        n if n >= 13 => Some(4),
        n if n >= 7 => Some(3),
        _ => None,
    }
}

/// The fixed handicap points for `stones` (2..=9) on a 9x9, 13x13 or 19x19 board, in the
/// customary order (the same as GNU Go and most servers).
///
/// # Errors
/// [`RulesError::BadHandicap`] for other sizes or counts (use free placement there).
pub fn fixed_handicap_points(size: BoardSize, stones: u8) -> Result<Vec<Point>, RulesError> {
    let n = size.lines();
    if !matches!(n, 9 | 13 | 19) || !(2..=9).contains(&stones) {
        return Err(RulesError::BadHandicap(format!(
            "no fixed placement of {stones} stones on {size}"
        )));
    }
    let edge = corner_line(size).unwrap_or(3) - 1;
    let (lo, mid, hi) = (edge, n / 2, n - 1 - edge);
    let pt = |col: u8, row: u8| Point::from_row_col(row, col, size);
    // Rows from the top: hi row is Black's near side.
    let top_right = pt(hi, lo);
    let bottom_left = pt(lo, hi);
    let bottom_right = pt(hi, hi);
    let top_left = pt(lo, lo);
    let centre = pt(mid, mid);
    let (left, right, top, bottom) = (pt(lo, mid), pt(hi, mid), pt(mid, lo), pt(mid, hi));
    let mut order = vec![top_right, bottom_left];
    if stones >= 3 {
        order.push(bottom_right);
    }
    if stones >= 4 {
        order.push(top_left);
    }
    if stones >= 6 {
        order.extend([left, right]);
    }
    if stones >= 8 {
        order.extend([top, bottom]);
    }
    if stones % 2 == 1 && stones >= 5 {
        order.push(centre);
    }
    // from_row_col cannot fail: every coordinate is < n.
    Ok(order.into_iter().flatten().collect())
}

/// Checks free handicap placement: `stones` distinct on-board points, at least two.
///
/// # Errors
/// [`RulesError::BadHandicap`] when the points do not fit.
pub fn check_free_handicap(
    size: BoardSize,
    stones: u8,
    points: &[Point],
) -> Result<(), RulesError> {
    if points.len() != usize::from(stones) || stones < 2 {
        return Err(RulesError::BadHandicap(format!(
            "{} points given for {stones} stones",
            points.len()
        )));
    }
    let mut sorted = points.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != points.len() || points.iter().any(|p| !p.is_on(size)) {
        return Err(RulesError::BadHandicap(
            "points repeat or lie off the board".into(),
        ));
    }
    Ok(())
}

/// The historical 座子 opening: two stones each on the corner star points, diagonally.
/// We put Black on the upper-right and lower-left star points and White on the other two
/// (the layout of the old diagrams; White then moves first, 古代一般白先黑后).
///
/// # Errors
/// [`RulesError::BadHandicap`] on boards under 7x7, which have no corner star points.
pub fn zuozi_points(size: BoardSize) -> Result<Vec<(Point, Color)>, RulesError> {
    let line = corner_line(size)
        .ok_or_else(|| RulesError::BadHandicap(format!("no corner star points on {size}")))?;
    let (lo, hi) = (line - 1, size.lines() - line);
    let pt = |col: u8, row: u8| Point::from_row_col(row, col, size);
    let stones = [
        (pt(hi, lo), Color::Black),
        (pt(lo, hi), Color::Black),
        (pt(lo, lo), Color::White),
        (pt(hi, hi), Color::White),
    ];
    Ok(stones
        .into_iter()
        .filter_map(|(p, c)| p.map(|p| (p, c)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn human(size: BoardSize, pts: &[Point]) -> Vec<String> {
        pts.iter().map(|p| p.to_human(size)).collect()
    }

    #[test]
    fn nineteen_handicaps() {
        let s = BoardSize::NINETEEN;
        assert_eq!(
            human(s, &fixed_handicap_points(s, 2).unwrap()),
            ["Q16", "D4"]
        );
        assert_eq!(
            human(s, &fixed_handicap_points(s, 5).unwrap()),
            ["Q16", "D4", "Q4", "D16", "K10"]
        );
        let nine = human(s, &fixed_handicap_points(s, 9).unwrap());
        assert_eq!(
            nine,
            ["Q16", "D4", "Q4", "D16", "D10", "Q10", "K16", "K4", "K10"]
        );
        assert!(fixed_handicap_points(s, 1).is_err() && fixed_handicap_points(s, 10).is_err());
    }

    #[test]
    fn small_boards_use_the_third_line() {
        let s = BoardSize::NINE;
        assert_eq!(
            human(s, &fixed_handicap_points(s, 4).unwrap()),
            ["G7", "C3", "G3", "C7"]
        );
        let t = BoardSize::THIRTEEN;
        assert_eq!(
            human(t, &fixed_handicap_points(t, 6).unwrap()),
            ["K10", "D4", "K4", "D10", "D7", "K7"]
        );
        assert!(fixed_handicap_points(BoardSize::new(11).unwrap(), 2).is_err());
    }

    #[test]
    fn every_count_gives_distinct_points() {
        for size in [BoardSize::NINE, BoardSize::THIRTEEN, BoardSize::NINETEEN] {
            for n in 2..=9 {
                let pts = fixed_handicap_points(size, n).unwrap();
                assert!(check_free_handicap(size, n, &pts).is_ok(), "{size} {n}");
            }
        }
    }

    #[test]
    fn zuozi_is_diagonal() {
        let s = BoardSize::NINETEEN;
        let z = zuozi_points(s).unwrap();
        let names: Vec<_> = z
            .iter()
            .map(|(p, c)| format!("{}{}", c.sgf_letter(), p.to_human(s)))
            .collect();
        assert_eq!(names, ["BQ16", "BD4", "WD16", "WQ4"]);
    }
}
