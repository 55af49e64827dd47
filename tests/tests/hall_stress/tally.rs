//! Counting what the referee made of a game against the record: moves recovered in order or unordered (a setup block), lost, invented, phantom passes, false and staged alerts.

use goban_referee::InfractionKind;

/// Something the referee said during a game that the suite counts.
#[derive(Clone, Debug)]
pub(crate) enum Noted {
    /// An alert of the digest's table.
    Infraction { kind: InfractionKind, text: String },
    /// A device-level `board_unavailable` alert asking the arbiter (its id; once per alert).
    Ask { id: String },
}

/// What the referee produced for one game.
#[derive(Clone, Debug, Default)]
pub(crate) struct GameLog {
    pub(crate) noted: Vec<Noted>,
    /// The recorded moves ("D4", "pass") at the game's end.
    pub(crate) moves: Vec<String>,
    /// For each recorded move, whether its order is known (`false`: a setup block's move,
    /// played while the board could not see and listed by point).
    pub(crate) order_known: Vec<bool>,
    /// The game position at the end.
    pub(crate) position: String,
}

/// What was expected of one game.
pub(crate) struct Expected {
    pub(crate) name: String,
    /// The record's moves ("D4", "pass").
    pub(crate) moves: Vec<String>,
    /// Alerts of these kinds were staged: this many of them are not false.
    pub(crate) staged: Vec<(InfractionKind, usize)>,
    /// How many times the board could not see for a while: if moves are lost, one
    /// ask-the-arbiter alert is due for each spell that lost some (at least one, at most this).
    pub(crate) blind_spells: usize,
}

/// The counts of one game or a sum of games.
#[derive(Clone, Debug, Default)]
pub(crate) struct Counts {
    pub(crate) games: usize,
    pub(crate) moves: usize,
    /// Moves recorded in the order played.
    pub(crate) recovered: usize,
    /// Moves recorded in a setup block (their stones right, their order unknown): never
    /// counted as recovered in order.
    pub(crate) unordered: usize,
    /// Moves recorded as nobody saw them (`"unseen"`, in a block): the clock counted them,
    /// nothing on the board shows them (a pass, or a stone captured while the board could
    /// not see). Never counted as recovered; each needs the block's ask to the arbiter.
    pub(crate) unseen: usize,
    pub(crate) lost: usize,
    pub(crate) invented: usize,
    pub(crate) phantom_passes: usize,
    pub(crate) false_alerts: usize,
    pub(crate) staged_alerts: usize,
    pub(crate) ask_alerts: usize,
    /// Games with moves lost that did not get one ask-the-arbiter alert per blind spell at most (and at least one).
    pub(crate) unasked: usize,
    pub(crate) failed_games: usize,
    /// Virtual play time in ms, for the pace column.
    pub(crate) play_ms: u64,
    /// The first problems seen, for the failure message.
    pub(crate) examples: Vec<String>,
}

impl Counts {
    pub(crate) fn add(&mut self, other: &Self) {
        self.games += other.games;
        self.moves += other.moves;
        self.recovered += other.recovered;
        self.unordered += other.unordered;
        self.unseen += other.unseen;
        self.lost += other.lost;
        self.invented += other.invented;
        self.phantom_passes += other.phantom_passes;
        self.false_alerts += other.false_alerts;
        self.staged_alerts += other.staged_alerts;
        self.ask_alerts += other.ask_alerts;
        self.unasked += other.unasked;
        self.failed_games += other.failed_games;
        self.play_ms += other.play_ms;
        for e in &other.examples {
            if self.examples.len() < 6 {
                self.examples.push(e.clone());
            }
        }
    }

    /// The targets: no phantom pass, no false alert, no invented move, and every move
    /// recovered or, for each blind spell that lost moves, one ask-the-arbiter alert.
    pub(crate) fn passes(&self) -> bool {
        self.failed_games == 0
    }
}

/// The longest common subsequence of two move lists, as matched index pairs.
fn matched(expected: &[String], got: &[String]) -> Vec<(usize, usize)> {
    let (n, m) = (expected.len(), got.len());
    let mut len = vec![vec![0u16; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            len[i][j] = if expected[i] == got[j] {
                len[i + 1][j + 1] + 1
            } else {
                len[i + 1][j].max(len[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n && j < m {
        if expected[i] == got[j] {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if len[i + 1][j] >= len[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// What a block's moves nobody saw read as in the referee's record.
const UNSEEN: &str = "unseen";

/// The recorded moves with each setup block compared as a set: a block (a run of moves of
/// unknown order) whose stones are among the record's moves at its numbers, the rest of
/// them moves nobody saw ("unseen"), reads as the record there; any other block stays as
/// listed (its moves then count as invented and the record's as lost). Also the indices of
/// the blocks' moves, and of their moves nobody saw.
fn blocks_as_sets(expected: &[String], log: &GameLog) -> (Vec<String>, Vec<usize>, Vec<usize>) {
    let mut got = log.moves.clone();
    let unordered: Vec<usize> = (0..got.len())
        .filter(|&j| log.order_known.get(j) == Some(&false))
        .collect();
    let mut unseen = Vec::new();
    let mut start = 0;
    while let Some(a) = (start..got.len()).find(|j| unordered.contains(j)) {
        let b = (a..got.len())
            .find(|j| !unordered.contains(j))
            .unwrap_or(got.len());
        if let Some(want) = expected.get(a..b) {
            let mut left = want.to_vec();
            let fits = got[a..b].iter().filter(|m| *m != UNSEEN).all(|m| {
                match left.iter().position(|w| w == m) {
                    Some(i) => {
                        left.swap_remove(i);
                        true
                    }
                    None => false,
                }
            });
            if fits {
                unseen.extend((a..b).filter(|&j| got[j] == UNSEEN));
                got[a..b].clone_from_slice(want);
            }
        }
        start = b;
    }
    (got, unordered, unseen)
}

/// Counts one game.
pub(crate) fn count(expected: &Expected, log: &GameLog) -> Counts {
    let (got, unordered, unseen) = blocks_as_sets(&expected.moves, log);
    let pairs = matched(&expected.moves, &got);
    let not_seen = pairs.iter().filter(|(_, j)| unseen.contains(j)).count();
    let in_blocks = pairs.iter().filter(|(_, j)| unordered.contains(j)).count() - not_seen;
    let mut c = Counts {
        games: 1,
        moves: expected.moves.len(),
        recovered: pairs.len() - in_blocks - not_seen,
        unordered: in_blocks,
        unseen: not_seen,
        lost: expected.moves.len() - pairs.len(),
        invented: log.moves.len() - pairs.len(),
        ..Counts::default()
    };
    let kept: Vec<usize> = pairs.iter().map(|&(_, j)| j).collect();
    c.phantom_passes = (0..log.moves.len())
        .filter(|j| !kept.contains(j) && log.moves[*j] == "pass")
        .count();
    let mut budget = expected.staged.clone();
    let mut problems = Vec::new();
    for noted in &log.noted {
        match noted {
            Noted::Infraction { kind, text } => {
                match budget.iter_mut().find(|(k, n)| k == kind && *n > 0) {
                    Some((_, n)) => {
                        *n -= 1;
                        c.staged_alerts += 1;
                    }
                    None => {
                        c.false_alerts += 1;
                        problems.push(format!("false alert {text}"));
                    }
                }
            }
            Noted::Ask { .. } => c.ask_alerts += 1,
        }
    }
    if (c.lost > 0 || c.unseen > 0) && !(1..=expected.blind_spells).contains(&c.ask_alerts) {
        c.unasked = 1;
    }
    let (want, got) = (&expected.moves, &got);
    if let Some(k) = (0..want.len().max(got.len())).find(|&k| want.get(k) != got.get(k)) {
        problems.push(format!(
            "moves diverge at {}: record {:?}, referee {:?} ({} of {} recorded)",
            k + 1,
            want.get(k),
            got.get(k),
            got.len(),
            want.len()
        ));
    }
    let failed = c.phantom_passes > 0 || c.false_alerts > 0 || c.invented > 0 || c.unasked > 0;
    if failed {
        c.failed_games = 1;
        c.examples = problems
            .into_iter()
            .take(3)
            .map(|p| format!("{}: {p}", expected.name))
            .collect();
    }
    c
}

/// The header and one row per scenario of the printed table.
pub(crate) fn table(rows: &[(String, Counts)]) -> String {
    let mut out = format!(
        "{:<34} {:>5} {:>6} {:>7} {:>9} {:>9} {:>6} {:>5} {:>8} {:>7} {:>6} {:>6} {:>4} {:>7} {:>6}\n",
        "scenario",
        "games",
        "moves",
        "s/move",
        "recovered",
        "unordered",
        "unseen",
        "lost",
        "invented",
        "phantom",
        "false",
        "staged",
        "ask",
        "unasked",
        "failed"
    );
    for (name, c) in rows {
        let pace = if c.moves > 0 {
            c.play_ms as f64 / c.moves as f64 / 1_000.0
        } else {
            0.0
        };
        out.push_str(&format!(
            "{:<34} {:>5} {:>6} {:>7.2} {:>9} {:>9} {:>6} {:>5} {:>8} {:>7} {:>6} {:>6} {:>4} {:>7} {:>6}\n",
            name,
            c.games,
            c.moves,
            pace,
            c.recovered,
            c.unordered,
            c.unseen,
            c.lost,
            c.invented,
            c.phantom_passes,
            c.false_alerts,
            c.staged_alerts,
            c.ask_alerts,
            c.unasked,
            c.failed_games
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| (*m).to_owned()).collect()
    }

    fn build_expected(moves: &[&str]) -> Expected {
        Expected {
            name: "game".into(),
            moves: build(moves),
            staged: Vec::new(),
            blind_spells: 1,
        }
    }

    fn build_log(moves: &[&str], order_known: &[bool]) -> GameLog {
        GameLog {
            noted: vec![Noted::Ask { id: "d1".into() }],
            moves: build(moves),
            order_known: order_known.to_vec(),
            position: String::new(),
        }
    }

    #[test]
    fn a_block_of_the_right_stones_counts_as_unordered_never_in_order() {
        let expected = build_expected(&["E5", "C3", "G7", "C7", "G3", "D4"]);
        let log = build_log(
            &["E5", "C3", "C7", "G7", "G3", "D4"],
            &[true, true, false, false, false, true],
        );
        let c = count(&expected, &log);
        assert_eq!((c.recovered, c.unordered, c.lost, c.invented), (3, 3, 0, 0));
        assert_eq!(c.failed_games, 0);
    }

    #[test]
    fn a_move_nobody_saw_counts_as_unseen_and_needs_an_ask() {
        // Black's G7 was captured by White's G6 while the board could not see.
        let expected = build_expected(&["E5", "C3", "G7", "G6", "D4"]);
        let log = build_log(
            &["E5", "C3", "G6", "unseen", "D4"],
            &[true, true, false, false, true],
        );
        let c = count(&expected, &log);
        assert_eq!(
            (c.recovered, c.unordered, c.unseen, c.lost, c.invented),
            (3, 1, 1, 0, 0)
        );
        assert_eq!(c.failed_games, 0);
        let mut unasked = log.clone();
        unasked.noted.clear();
        assert_eq!(count(&expected, &unasked).failed_games, 1, "no ask: failed");
        // More moves nobody saw than the record has room for: invented.
        let log = build_log(
            &["E5", "C3", "G6", "unseen", "unseen", "D4"],
            &[true, true, false, false, false, true],
        );
        assert!(count(&expected, &log).invented > 0);
    }

    #[test]
    fn a_block_with_a_wrong_stone_counts_as_invented() {
        let expected = build_expected(&["E5", "C3", "G7", "C7", "G3"]);
        let log = build_log(
            &["E5", "C3", "C7", "G7", "H3"],
            &[true, true, false, false, false],
        );
        let c = count(&expected, &log);
        assert!(c.invented > 0, "{c:?}");
        assert_eq!(c.failed_games, 1);
    }
}
