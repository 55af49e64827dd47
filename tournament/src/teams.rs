//! Team standings by CN2002 art. 27 (团体赛): board points (局分) as in individual games, match points (场分) 2/1/0 from them, then board points, then board order.
//!
//! The text: "团体赛每人局分的记法和个人赛相同.每场比赛根据两队间局分的多少记场分.
//! 局分多者为胜,场分记2分;局分少者为负,场分记0分;局分相等者为平,场分各记1分."
//! and, for round-robin team events, "各队所得场分高者名次列前;如场分相同,局分高者名次列前;
//! 如局分相同,比第一台棋手的局分,高者名次列前;以下依次相比,如全部一样,允许并列."
//!
//! So each game scores its player 2, 1 or 0 board points; the team with more
//! board points in a match scores 2 match points, the other 0, equal 1 each.
//! Teams rank by match points, then board points, then the board points won
//! on board 1, then board 2, and so on; teams equal on all of them share a
//! place. The text gives this order for round robins only; it is used for
//! every team event here, which is what the texts leave to the organiser.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use goban_rules::Color;
use serde::{Deserialize, Serialize};

use crate::Outcome;

/// A team's key (its name or the pairing program's id).
pub type TeamId = String;

/// One game of a team match, seen from the home team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardGame {
    /// The board (台次), 1 for the first board.
    pub board: u32,
    /// The colour the home team's player had.
    pub home_color: Color,
    /// The game's outcome.
    pub outcome: Outcome,
}

/// One match between two teams.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatch {
    /// The round.
    pub round: u32,
    /// The home team (listed first by the pairing).
    pub home: TeamId,
    /// The away team.
    pub away: TeamId,
    /// The games, one per board.
    pub games: Vec<BoardGame>,
}

/// One line of the team standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamStanding {
    /// The place, 1-based; tied teams share the best place of their group.
    pub place: u32,
    /// Whether another team shares this place ("允许并列").
    pub shared: bool,
    /// The team.
    pub team: TeamId,
    /// 场分: 2 per match won, 1 per match drawn.
    pub match_points: u32,
    /// 局分: 2 per game won, 1 per game drawn.
    pub board_points: u32,
    /// 局分 by board: index 0 is board 1.
    pub by_board: Vec<u32>,
    /// Matches counted.
    pub matches: u32,
}

#[derive(Default)]
struct Tally {
    match_points: u32,
    board_points: u32,
    by_board: BTreeMap<u32, u32>,
    matches: u32,
}

/// Computes the team standings of every team named in `matches`, best first.
#[must_use]
pub fn compute_teams(matches: &[TeamMatch]) -> Vec<TeamStanding> {
    let mut tallies: BTreeMap<TeamId, Tally> = BTreeMap::new();
    for m in matches {
        let (home, away) = board_points(m);
        let sum = |side: &BTreeMap<u32, u32>| side.values().sum::<u32>();
        let (h, a) = (sum(&home), sum(&away));
        for (team, mine, theirs, boards) in [(&m.home, h, a, home), (&m.away, a, h, away)] {
            let t = tallies.entry(team.clone()).or_default();
            t.matches += 1;
            t.board_points += mine;
            t.match_points += match mine.cmp(&theirs) {
                Ordering::Greater => 2,
                Ordering::Equal => 1,
                Ordering::Less => 0,
            };
            for (board, p) in boards {
                *t.by_board.entry(board).or_default() += p;
            }
        }
    }
    let boards = tallies
        .values()
        .filter_map(|t| t.by_board.keys().max().copied())
        .max()
        .unwrap_or(0);
    let mut lines: Vec<TeamStanding> = tallies
        .into_iter()
        .map(|(team, t)| TeamStanding {
            place: 0,
            shared: false,
            team,
            match_points: t.match_points,
            board_points: t.board_points,
            by_board: (1..=boards)
                .map(|b| t.by_board.get(&b).copied().unwrap_or(0))
                .collect(),
            matches: t.matches,
        })
        .collect();
    lines.sort_by(|a, b| compare(a, b).then_with(|| a.team.cmp(&b.team)));
    crate::places::assign(&mut lines, compare, |line, place, shared| {
        line.place = place;
        line.shared = shared;
    });
    lines
}

/// Each side's board points in one match, by board.
fn board_points(m: &TeamMatch) -> (BTreeMap<u32, u32>, BTreeMap<u32, u32>) {
    let (mut home, mut away) = (BTreeMap::new(), BTreeMap::new());
    for g in &m.games {
        let opp = g.home_color.opponent();
        // Every board played shows in the table, an unknown game with no points.
        let h = home.entry(g.board).or_default();
        *h += g.outcome.points(g.home_color).unwrap_or(0);
        let a = away.entry(g.board).or_default();
        *a += g.outcome.points(opp).unwrap_or(0);
    }
    (home, away)
}

/// 场分, then 局分, then board 1's 局分, board 2's, ...
fn compare(a: &TeamStanding, b: &TeamStanding) -> Ordering {
    b.match_points
        .cmp(&a.match_points)
        .then_with(|| b.board_points.cmp(&a.board_points))
        .then_with(|| b.by_board.cmp(&a.by_board))
}
