//! CN2002 art. 27 team standings (场分, 局分, board order) against tables computed by hand.

use goban_rules::Color;
use goban_tournament::Outcome;
use goban_tournament::teams::{BoardGame, TeamMatch, TeamStanding, compute_teams};

/// A match; `won[i]` is board i+1 from the home team's side: `'W'` won, `'L'` lost,
/// `'D'` drawn, `'?'` unknown. The home player has Black on odd boards, White on even ones.
fn team_match(round: u32, home: &str, away: &str, won: &str) -> TeamMatch {
    let games = won
        .chars()
        .zip(1u32..)
        .map(|(c, board)| {
            let home_color = if board % 2 == 1 {
                Color::Black
            } else {
                Color::White
            };
            let home_wins = match home_color {
                Color::Black => Outcome::BlackWins,
                Color::White => Outcome::WhiteWins,
            };
            let away_wins = match home_color {
                Color::Black => Outcome::WhiteWins,
                Color::White => Outcome::BlackWins,
            };
            let outcome = match c {
                'W' => home_wins,
                'L' => away_wins,
                'D' => Outcome::Draw,
                _ => Outcome::Unknown,
            };
            BoardGame {
                board,
                home_color,
                outcome,
            }
        })
        .collect();
    TeamMatch {
        round,
        home: home.into(),
        away: away.into(),
        games,
    }
}

/// place, team, 场分, 局分, 局分 by board, shared.
type Line<'a> = (u32, &'a str, u32, u32, Vec<u32>, bool);

fn table(lines: &[TeamStanding]) -> Vec<Line<'_>> {
    lines
        .iter()
        .map(|s| {
            (
                s.place,
                s.team.as_str(),
                s.match_points,
                s.board_points,
                s.by_board.clone(),
                s.shared,
            )
        })
        .collect()
}

/// Three rounds of three teams, three boards.
/// R1 A-B: A wins boards 1 and 3: 局分 A 4, B 2; 场分 A 2, B 0.
/// R2 B-C: B wins 1, draw on 2, C wins 3: 局分 3-3; 场分 1 each.
/// R3 A-C: C wins 1 and 2, A wins 3: 局分 A 2, C 4; 场分 C 2.
/// 场分: C 3, A 2, B 1. 局分: C 7, A 6, B 5.
#[test]
fn match_points_come_from_board_points_and_rank_first() {
    let matches = [
        team_match(1, "A", "B", "WLW"),
        team_match(2, "B", "C", "WDL"),
        team_match(3, "A", "C", "LLW"),
    ];
    assert_eq!(
        table(&compute_teams(&matches)),
        vec![
            // C: board 1 0+2, board 2 1+2, board 3 2+0.
            (1, "C", 3, 7, vec![2, 3, 2], false),
            // A: board 1 2+0, board 2 0+0, board 3 2+2.
            (2, "A", 2, 6, vec![2, 0, 4], false),
            // B: board 1 0+2, board 2 2+1, board 3 0+0.
            (3, "B", 1, 5, vec![2, 3, 0], false),
        ]
    );
}

/// One round, six teams. A-B "WLW": A 4 [2,0,2], B 2 [0,2,0]. C-D "LWW": C 4 [0,2,2],
/// D 2 [2,0,0]. E-F all drawn: 3 [1,1,1] each, 场分 1 each.
/// A and C tie on 场分 2 and 局分 4: board 1 puts A first. D and B tie on 0 and 2:
/// board 1 puts D first. E and F are equal on everything: they share third ("允许并列").
#[test]
fn ties_go_to_the_first_board_then_the_next_and_equal_teams_share() {
    let matches = [
        team_match(1, "A", "B", "WLW"),
        team_match(1, "C", "D", "LWW"),
        team_match(1, "E", "F", "DDD"),
    ];
    assert_eq!(
        table(&compute_teams(&matches)),
        vec![
            (1, "A", 2, 4, vec![2, 0, 2], false),
            (2, "C", 2, 4, vec![0, 2, 2], false),
            (3, "E", 1, 3, vec![1, 1, 1], true),
            (3, "F", 1, 3, vec![1, 1, 1], true),
            (5, "D", 0, 2, vec![2, 0, 0], false),
            (6, "B", 0, 2, vec![0, 2, 0], false),
        ]
    );
}

/// An unknown game scores nothing for either side: A-B "W?" is 2-0 in 局分, a win for A.
#[test]
fn an_unknown_game_counts_for_nothing() {
    let lines = compute_teams(&[team_match(1, "A", "B", "W?")]);
    assert_eq!(
        table(&lines),
        vec![
            (1, "A", 2, 2, vec![2, 0], false),
            (2, "B", 0, 0, vec![0, 0], false),
        ]
    );
}
