//! Why our count and GNU Go's `final_score` differ, found from GNU Go's own answers.
//!
//! GNU Go's `final_score` is not computed from its `final_status_list` answers: it plays the
//! position out (`aftermath_compute_score`: both sides fill dame, capture the dead stones by
//! play and may play inside their own territory), counts the board that results, and under
//! `--chinese-rules` adds its own handicap variable (0 when a record's handicap stones are
//! `AB` setup). So the same status lists are also counted here the way the rules count
//! them (CN2002 art. 9: stones plus surrounded points, shared points halved; JK: territory
//! plus prisoners), with our handicap give-back: when that count equals ours, our count
//! agrees with GNU Go's judgement of every point and the difference is GNU Go's play-out.
#![allow(unreachable_pub)]

use goban_rules::score::{DeadStones, Territory};
use goban_rules::{Board, Color, Point, Ruleset};

use super::answers::Answer;

/// GNU Go's status lists counted by the rules, as Black's margin in points.
pub fn margin_from_lists(
    board: &Board,
    prisoners: [u32; 2],
    ruleset: Ruleset,
    komi: f64,
    giveback_points: f64,
    answer: &Answer,
) -> f64 {
    let size = board.size();
    let dead_of = |color: Color| {
        answer
            .dead
            .iter()
            .filter_map(|v| Point::parse_human(v, size).ok())
            .filter(|&p| board.get(p) == Some(color))
            .count() as f64
    };
    let (dead_black, dead_white) = (dead_of(Color::Black), dead_of(Color::White));
    let (bt, wt) = (answer.black_territory as f64, answer.white_territory as f64);
    let diff = match ruleset {
        // Territory (dead stones' points included) plus prisoners (captures and dead).
        Ruleset::Jk => {
            (bt + dead_white + f64::from(prisoners[0]) + dead_white)
                - (wt + dead_black + f64::from(prisoners[1]) + dead_black)
        }
        // Live stones plus surrounded points (dead stones' included); dame split evenly.
        _ => {
            let alive_black = f64::from(board.stone_count(Color::Black)) - dead_black;
            let alive_white = f64::from(board.stone_count(Color::White)) - dead_white;
            (alive_black + bt + dead_white) - (alive_white + wt + dead_black)
        }
    };
    diff - komi - giveback_points
}

/// The points GNU Go's status lists and our count give to different owners: `(point,
/// ours, GNU Go's)` with owners +1 Black, -1 White, 0 nobody (dame, seki). Our count minus
/// [`margin_from_lists`] is the sum of `ours - theirs` over them, under both rulesets: the
/// stones and prisoners are the same, only the owner of empty points and dead stones'
/// points can differ. `territory` is GNU Go's `black_territory` and `white_territory`.
pub fn owner_differences(
    board: &Board,
    answer: &Answer,
    territory: [&[String]; 2],
) -> Vec<(String, i8, i8)> {
    let size = board.size();
    let parse = |list: &[String]| -> Vec<Point> {
        list.iter()
            .filter_map(|v| Point::parse_human(v, size).ok())
            .collect()
    };
    let dead = parse(&answer.dead);
    let (black, white) = (parse(territory[0]), parse(territory[1]));
    let ours = Territory::of(board, &DeadStones::from_points(dead.iter().copied()));
    let mut out = Vec::new();
    for p in size.all_points() {
        let is_dead = dead.contains(&p);
        if board.get(p).is_some() && !is_dead {
            continue;
        }
        let theirs: i8 = match board.get(p) {
            Some(Color::White) => 1,
            Some(Color::Black) => -1,
            None if black.contains(&p) => 1,
            None if white.contains(&p) => -1,
            None => 0,
        };
        let mine: i8 = if ours.black.contains(&p) {
            1
        } else if ours.white.contains(&p) {
            -1
        } else {
            0
        };
        if mine != theirs {
            out.push((p.display(size).to_string(), mine, theirs));
        }
    }
    out
}

/// The live colours bordering the region of `p` (empty points and dead stones' points
/// joined orthogonally), found by a flood fill of this test's own, independent of the
/// library's region code: `[black, white]`.
pub fn region_borders(board: &Board, dead: &[String], p: Point) -> [bool; 2] {
    let size = board.size();
    let dead: Vec<Point> = dead
        .iter()
        .filter_map(|v| Point::parse_human(v, size).ok())
        .collect();
    let open = |q: Point| board.get(q).is_none() || dead.contains(&q);
    let mut seen = vec![false; size.points()];
    let mut stack = vec![p];
    let mut borders = [false; 2];
    seen[p.index()] = true;
    while let Some(q) = stack.pop() {
        for r in board.neighbours(q) {
            if open(r) {
                if !seen[r.index()] {
                    seen[r.index()] = true;
                    stack.push(r);
                }
            } else if let Some(c) = board.get(r) {
                borders[c.index()] = true;
            }
        }
    }
    borders
}
