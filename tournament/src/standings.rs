//! Individual standings by CN2002 art. 27: win 2, draw 1, loss 0; then 胜者小分 or 对手分; then fewer warnings; then shared.
//!
//! Art. 27.1, individual events:
//! - round robin (循环赛): points; then 胜者小分, the points of the
//!   opponents beaten plus half the points of the opponents drawn (A);
//!   then fewer warnings over the whole event (B); then a play-off or lots
//!   if ties are not allowed (C), which is outside the daemon: a tie that
//!   survives A and B is reported as a shared place.
//! - Swiss (积分编排), method B: points; then the opponents' points (对手分);
//!   then B and C above. Method A's "总得分" formula is garbled in the
//!   source text (`总得分=个人积分+(- 轮次 )`), so it is not implemented.
//!
//! Points of opponents are their final points in the games counted. A game
//! both sides win counts as a win for each; both lose, as a loss for each;
//! an unknown or cancelled game counts for nothing. A bye scores
//! [`Rules::bye_points`] and has no opponent.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use goban_rules::Color;
use serde::{Deserialize, Serialize};

use crate::{Outcome, PlayerId};

/// The pairing system, which chooses the second criterion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// 循环赛: the second criterion is 胜者小分.
    RoundRobin,
    /// 积分编排 (Swiss, method B): the second criterion is 对手分.
    Swiss,
}

/// How to score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// The pairing system.
    pub system: System,
    /// Points for a bye (2 = a win; art. 27 does not say, OpenGotha's default is a win).
    pub bye_points: u32,
}

impl Rules {
    /// The system with a bye scored as a win.
    #[must_use]
    pub const fn new(system: System) -> Self {
        Self {
            system,
            bye_points: 2,
        }
    }
}

/// One game's result as standings need it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The round.
    pub round: u32,
    /// Black's key.
    pub black: PlayerId,
    /// White's key.
    pub white: PlayerId,
    /// The outcome.
    pub outcome: Outcome,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// The place, 1-based; tied players share the best place of their group.
    pub place: u32,
    /// Whether another player shares this place (art. 27 C left to the organiser).
    pub shared: bool,
    /// The player.
    pub player: PlayerId,
    /// Points (积分): win 2, draw 1, loss 0.
    pub points: u32,
    /// 胜者小分: points of opponents beaten plus half of those drawn.
    pub defeated_points: f64,
    /// 对手分: the sum of all opponents' points.
    pub opponents_points: f64,
    /// Warnings over the whole event, from the referee's record.
    pub warnings: u32,
    /// Games counted (byes excluded).
    pub games: u32,
}

#[derive(Default)]
struct Tally {
    points: u32,
    games: u32,
    /// (opponent, this player's points in that game)
    opponents: Vec<(PlayerId, u32)>,
}

/// Computes the standings of every player named in `games`, `byes` or
/// `warnings`, best first.
#[must_use]
pub fn compute(
    rules: Rules,
    games: &[GameRecord],
    byes: &[(u32, PlayerId)],
    warnings: &BTreeMap<PlayerId, u32>,
) -> Vec<Standing> {
    let tallies = tally(rules, games, byes, warnings);
    let mut lines: Vec<Standing> = tallies
        .iter()
        .map(|(player, t)| line(player, t, &tallies, warnings))
        .collect();
    lines.sort_by(|a, b| compare(rules.system, a, b).then_with(|| a.player.cmp(&b.player)));
    crate::places::assign(
        &mut lines,
        |a, b| compare(rules.system, a, b),
        |line, place, shared| {
            line.place = place;
            line.shared = shared;
        },
    );
    lines
}

fn tally(
    rules: Rules,
    games: &[GameRecord],
    byes: &[(u32, PlayerId)],
    warnings: &BTreeMap<PlayerId, u32>,
) -> BTreeMap<PlayerId, Tally> {
    let mut tallies: BTreeMap<PlayerId, Tally> = BTreeMap::new();
    for g in games {
        for (me, them, side) in [
            (&g.black, &g.white, Color::Black),
            (&g.white, &g.black, Color::White),
        ] {
            let entry = tallies.entry(me.clone()).or_default();
            if let Some(p) = g.outcome.points(side) {
                entry.points += p;
                entry.games += 1;
                entry.opponents.push((them.clone(), p));
            }
        }
    }
    for (_, player) in byes {
        tallies.entry(player.clone()).or_default().points += rules.bye_points;
    }
    for player in warnings.keys() {
        tallies.entry(player.clone()).or_default();
    }
    tallies
}

fn line(
    player: &PlayerId,
    t: &Tally,
    tallies: &BTreeMap<PlayerId, Tally>,
    warnings: &BTreeMap<PlayerId, u32>,
) -> Standing {
    let points_of = |id: &PlayerId| tallies.get(id).map_or(0, |o| o.points);
    // In half points so that "half the points of those drawn" stays exact.
    let mut defeated_x2 = 0u32;
    let mut opponents_x2 = 0u32;
    for (opp, mine) in &t.opponents {
        let theirs = points_of(opp);
        opponents_x2 += 2 * theirs;
        defeated_x2 += match mine {
            2 => 2 * theirs,
            1 => theirs,
            _ => 0,
        };
    }
    Standing {
        place: 0,
        shared: false,
        player: player.clone(),
        points: t.points,
        defeated_points: f64::from(defeated_x2) / 2.0,
        opponents_points: f64::from(opponents_x2) / 2.0,
        warnings: warnings.get(player).copied().unwrap_or(0),
        games: t.games,
    }
}

/// Art. 27's order: points, then the system's second criterion, then fewer warnings.
fn compare(system: System, a: &Standing, b: &Standing) -> Ordering {
    let second = |s: &Standing| match system {
        System::RoundRobin => s.defeated_points,
        System::Swiss => s.opponents_points,
    };
    b.points
        .cmp(&a.points)
        .then_with(|| second(b).total_cmp(&second(a)))
        .then_with(|| a.warnings.cmp(&b.warnings))
}
