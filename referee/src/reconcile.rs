//! Held presses against the board once it sees again: the one sequence of legal moves that explains the position and the presses is accepted with corrections; otherwise the referee keeps asking.

use std::collections::BTreeMap;

use goban_rules::{Color, Game, Move};

use crate::Timestamp;
use crate::event::EventKind;
use crate::go;
use crate::input::Reading;
use crate::match_state::Claim;
use crate::referee::Referee;
use crate::setup_block::Verdict;
use crate::step::Step;

/// Positions tried at most while looking for explanations; beyond it the case is ambiguous.
const SEARCH_BUDGET: u32 = 20_000;

/// Explanations collected at most; beyond it the case is ambiguous.
const FOUND_LIMIT: usize = 16;

/// The search for sequences that explain a position.
struct Search<'a> {
    physical: &'a [Reading],
    /// Points whose reading is explained already (known deviations, captures pending).
    tolerated: &'a BTreeMap<usize, Reading>,
    presses: &'a [Claim],
    /// Stones a press may play: the new ones first (each must be explained), then the
    /// stones found late at the start (leftovers unless a press claims them) and the stones
    /// that stood and were captured before the board reported them.
    added: &'a [(usize, Color)],
    /// When each of `added` was first read: stones a seeing board read one after the other
    /// are played in that order (referee-notes point 8); stones read at once (a snapshot
    /// after a blind spell) in any order; `None` for a stone on a point that read `?` (a
    /// chattering sensor), whose time says only when the sensor read again.
    read_at: &'a [Option<Timestamp>],
    /// The read time of each stone played on the current path.
    played_at: Vec<Option<Timestamp>>,
    /// How many of `added` are new stones that must be explained.
    required: usize,
    budget: u32,
    found: Vec<Vec<Step>>,
}

impl Search<'_> {
    fn run(&mut self, game: &mut Game, i: usize, used: &mut [bool], path: &mut Vec<Step>) {
        if self.found.len() >= FOUND_LIMIT || self.budget == 0 {
            return;
        }
        self.budget -= 1;
        if i == self.presses.len() {
            self.finish(game, used, path);
            return;
        }
        let press = self.presses[i];
        let c = press.color;
        if c != game.to_move() {
            return;
        }
        let after_pass = game.moves().last().is_some_and(|l| l.mv == Move::Pass);
        // Two passes end the game: never guessed (referee-notes.md point 7).
        // A copy per step: `Game::undo` replays the whole game.
        let mut next = game.clone();
        if !after_pass && next.play(c, Move::Pass).is_ok() {
            path.push(Step::Pass(c, press));
            self.run(&mut next, i + 1, used, path);
            path.pop();
        }
        for k in 0..self.added.len() {
            let (p, color) = self.added[k];
            let at = self.read_at[k];
            if used[k] || color != c || !self.in_order(at) {
                continue;
            }
            let mut next = game.clone();
            if next.play(c, Move::Play(go::point(p))).is_err() {
                continue;
            }
            used[k] = true;
            path.push(Step::Play(c, p, press));
            self.played_at.push(at);
            self.run(&mut next, i + 1, used, path);
            self.played_at.pop();
            path.pop();
            used[k] = false;
        }
    }

    /// Every press explained: the board must match, possibly with one stone placed since.
    fn finish(&mut self, game: &mut Game, used: &[bool], path: &[Step]) {
        let left: Vec<usize> = (0..self.required).filter(|&k| !used[k]).collect();
        match left.as_slice() {
            [] => {
                if self.matches(game) {
                    self.found.push(path.to_vec());
                }
                // A stone found late may also be the next move, placed but not pressed yet.
                let unused = self.added.iter().zip(used).skip(self.required);
                let read_at = self.read_at.iter().skip(self.required);
                for ((&(p, c), _), &at) in unused.zip(read_at).filter(|((_, used), _)| !**used) {
                    if c != game.to_move() || !self.in_order(at) {
                        continue;
                    }
                    let mut next = game.clone();
                    if next.play(c, Move::Play(go::point(p))).is_ok() && self.matches(&next) {
                        let mut found = path.to_vec();
                        found.push(Step::Trailing(c, p));
                        self.found.push(found);
                    }
                }
            }
            &[k] => {
                let (p, c) = self.added[k];
                if c == game.to_move()
                    && self.in_order(self.read_at[k])
                    && game.play(c, Move::Play(go::point(p))).is_ok()
                    && self.matches(game)
                {
                    let mut found = path.to_vec();
                    found.push(Step::Trailing(c, p));
                    self.found.push(found);
                }
            }
            _ => {}
        }
    }

    /// Whether a stone read at `at` may follow the stones played on the path: none of them
    /// was read after it (a stone without a read time fits anywhere).
    fn in_order(&self, at: Option<Timestamp>) -> bool {
        let last = self.played_at.iter().rev().flatten().next();
        at.is_none_or(|at| last.is_none_or(|&last| last <= at))
    }

    /// Whether the replayed game shows the physical board; the last move's captures may
    /// still be on it.
    fn matches(&self, game: &Game) -> bool {
        let size = game.setup().size;
        let captured: Vec<usize> = game
            .moves()
            .last()
            .map(|l| l.captured.iter().map(|q| q.index()).collect())
            .unwrap_or_default();
        let replayed = go::readings(game.board(), size);
        replayed
            .iter()
            .zip(self.physical)
            .enumerate()
            .all(|(i, (g, p))| {
                g == p
                    || self.tolerated.get(&i) == Some(p)
                    || (captured.contains(&i) && *g == Reading::Empty)
            })
    }
}

impl Referee {
    /// Tries to explain the held presses with the board as it reads now (clean and seeing).
    pub(crate) fn reconcile(&mut self) {
        if self.sight.blind() || self.sight.unclean() {
            return;
        }
        let diff = self.current_diff();
        let Some(m) = self.game.as_ref() else { return };
        if m.held.is_empty() || m.is_frozen() {
            return;
        }
        if self.new_stone_settling() {
            // A stone is still settling where a hand is busy: explain once it is reported.
            return;
        }
        // Stones found late at the start are tolerated by the diff, yet may be the held moves.
        let late_on_board = m
            .late_found
            .iter()
            .any(|&p| m.known.get(&p) == Some(&self.sight.physical()[p]));
        if m.reconcile_failed() && diff.is_empty() && !late_on_board {
            // The arbiter had the stones played meanwhile taken off: they are read again as replayed.
            self.drop_held("; the position was restored, the stones are read as they are replayed");
            return;
        }
        let seen = (diff.clone(), m.held.len());
        if m.tried_in_vain(&seen) {
            // Ambiguous once, ambiguous for good: the arbiter decides (the message says how);
            // or nothing changed since no sequence explained the board.
            return;
        }
        let found = self.explanations(&diff.added);
        match found.as_slice() {
            [steps] if diff.changed.is_empty() && !self.pass_hides_a_capture(steps) => {
                let steps = steps.clone();
                self.accept(&steps);
            }
            _ => {
                // The same stones in different orders: recorded as a block, order unknown.
                let verdict = self.unordered_block(&found, &diff);
                if let Verdict::Block(block) = &verdict
                    && self.accept_block(block)
                {
                    return;
                }
                // Presses made while the board could not see, more than its new stones: the
                // stones and captures shown as a block, the presses left over as moves nobody saw.
                if verdict != Verdict::AwaitPress
                    && let Some(block) = self.block_with_unseen(&diff)
                    && self.accept_block(&block)
                {
                    return;
                }
                let guessed_pass =
                    matches!(found.as_slice(), [steps] if self.pass_hides_a_capture(steps));
                let awaiting = verdict == Verdict::AwaitPress;
                let ambiguous = found.len() > 1;
                if let Some(m) = self.game.as_mut() {
                    // Awaiting a press is no ambiguity for good: tried again when it comes.
                    m.handle_unexplained(seen, ambiguous && !awaiting);
                }
                let why = if awaiting {
                    "; one stone more than the presses: waiting for its press"
                } else if ambiguous {
                    "; more than one sequence of moves explains the board"
                } else if guessed_pass {
                    "; only a pass would explain a press, and a pass made while the board could \
                     not see cannot be told from a stone played and captured meanwhile"
                } else {
                    "; no sequence of legal moves explains the board"
                };
                self.update_board_alert(why);
            }
        }
    }

    /// Whether a pass of `steps`, read for a press made while the board could not see after it
    /// (blind or unclean at `last_blind_at` or later), could as well have been a stone that a
    /// later move of `steps` captured, leaving the same board: then the pass is a guess, and the
    /// referee asks (a pass needs proof, referee-notes point 7). A last bare press is decided
    /// as usual.
    fn pass_hides_a_capture(&self, steps: &[Step]) -> bool {
        let Some(m) = &self.game else { return false };
        let mut tolerated = m.known.clone();
        for &(p, c) in &m.pending_caps {
            tolerated.insert(p, go::reading_of(c));
        }
        let matcher = Search {
            physical: self.sight.physical(),
            tolerated: &tolerated,
            presses: &[],
            added: &[],
            read_at: &[],
            played_at: Vec::new(),
            required: 0,
            budget: 0,
            found: Vec::new(),
        };
        let last = steps.len().saturating_sub(1);
        let unseen = |i: usize, claim: &Claim| i < last && claim.at <= self.sight.last_blind_at();
        let unseen_passes = steps
            .iter()
            .enumerate()
            .filter(|(i, s)| matches!(s, Step::Pass(_, claim) if unseen(*i, claim)))
            .count();
        if unseen_passes > 1 {
            // Two passes while the board could not see: a stone and the stone that captured
            // it hide as well behind two passes as one stone behind one (hall stress, "chatter
            // on a stone"); one replacement at a time cannot rule that out.
            return true;
        }
        let points = self.sight.physical().len();
        steps.iter().enumerate().any(|(i, step)| match step {
            Step::Pass(color, claim) if unseen(i, claim) => (0..points).any(|q| {
                let mut game = m.game.clone();
                steps.iter().enumerate().all(|(k, s)| {
                    let (c, mv) = match *s {
                        Step::Complete(_) => return true,
                        _ if k == i => (*color, Move::Play(go::point(q))),
                        Step::Play(c, p, _) | Step::Trailing(c, p) => (c, Move::Play(go::point(p))),
                        Step::Pass(c, _) => (c, Move::Pass),
                    };
                    game.play(c, mv).is_ok()
                }) && matcher.matches(&game)
            }),
            _ => false,
        })
    }

    /// The explanations with the fewest passes.
    fn explanations(&self, added: &[(usize, Color)]) -> Vec<Vec<Step>> {
        let Some(m) = &self.game else {
            return Vec::new();
        };
        let mut tolerated = m.known.clone();
        for &(p, c) in &m.pending_caps {
            tolerated.insert(p, go::reading_of(c));
        }
        let (complete, presses) = m.held_presses();
        let mut path: Vec<Step> = complete.map(Step::Complete).into_iter().collect();
        let mut candidates = added.to_vec();
        let read_at_of = |p: usize| (!self.sight.surfaced(p)).then(|| self.sight.changed_at()[p]);
        let mut read_at: Vec<Option<Timestamp>> =
            added.iter().map(|&(p, _)| read_at_of(p)).collect();
        let required = candidates.len();
        for &p in &m.late_found {
            match m.known.get(&p) {
                Some(&Reading::Black) if self.sight.physical()[p] == Reading::Black => {
                    candidates.push((p, Color::Black));
                    read_at.push(read_at_of(p));
                }
                Some(&Reading::White) if self.sight.physical()[p] == Reading::White => {
                    candidates.push((p, Color::White));
                    read_at.push(read_at_of(p));
                }
                _ => {}
            }
        }
        // Stones that stood and were captured meanwhile (sub-steps); the point may have been
        // retaken since by a stone of the other colour, itself one of the new stones.
        for v in m.vanished.iter().filter(|v| v.from > m.placed_at) {
            if let Some(c) = v.reading.color()
                && self.sight.physical()[v.index] != v.reading
                && !candidates.contains(&(v.index, c))
            {
                candidates.push((v.index, c));
                read_at.push(Some(v.from));
            }
        }
        // A stone of the game's colour on its point but placed since the last move: the
        // game's stone there was captured and the point retaken (a ko inside a stall).
        let board = m.game.board();
        for (p, &r) in self.sight.physical().iter().enumerate() {
            if let Some(c) = r.color()
                && self.sight.changed_at()[p] > m.placed_at
                && board.get(go::point(p)) == Some(c)
            {
                candidates.push((p, c));
                read_at.push(read_at_of(p));
            }
        }
        let mut search = Search {
            physical: self.sight.physical(),
            tolerated: &tolerated,
            presses,
            added: &candidates,
            read_at: &read_at,
            played_at: Vec::new(),
            required,
            budget: SEARCH_BUDGET,
            found: Vec::new(),
        };
        let mut game = m.game.clone();
        let mut used = vec![false; candidates.len()];
        search.run(&mut game, 0, &mut used, &mut path);
        if search.budget == 0 || search.found.len() >= FOUND_LIMIT {
            // Too many to tell apart: as ambiguous as two.
            return vec![Vec::new(), Vec::new()];
        }
        // A pass needs proof: where a stone of the presser explains a press, no pass does.
        let passes =
            |steps: &Vec<Step>| steps.iter().filter(|s| matches!(s, Step::Pass(..))).count();
        let fewest = search.found.iter().map(passes).min().unwrap_or(0);
        search.found.retain(|s| passes(s) == fewest);
        // A stone found late that a move explains is a move rather than a leftover: of the
        // explanations left, those that leave the fewest such stones unplayed.
        let stones = |steps: &Vec<Step>| {
            steps
                .iter()
                .filter(|s| matches!(s, Step::Play(..) | Step::Trailing(..)))
                .count()
        };
        let most = search.found.iter().map(stones).max().unwrap_or(0);
        search.found.retain(|s| stones(s) == most);
        search.found
    }

    /// A held press explained by a stone the board saw being placed after it, while it could
    /// see again: the order is known, and a press before its stone is premature (CN2002 17.4).
    /// Stones found at once when the board read again carry no order, and are judged by none.
    fn judge_held_press(&mut self, color: Color, p: usize, claim: &Claim) {
        let read_at = self.sight.changed_at()[p];
        // A stone on a point that read `?` was seen when the sensor read again, not placed then.
        let seen_placed = read_at > self.sight.last_blind_at() && !self.sight.surfaced(p);
        if seen_placed && read_at > claim.at.plus_ms(self.effective_skew()) {
            let number = self.game.as_ref().map_or(0, |m| m.move_count());
            let evidence = vec![
                (
                    claim.at,
                    format!("{color} pressed the clock with no new stone"),
                ),
                (
                    read_at,
                    format!("{color} stone read at {}", go::name(p, self.size)),
                ),
            ];
            let margin = read_at.0.saturating_sub(claim.at.0);
            self.raise_premature(color, number, vec![p], evidence, margin);
        }
    }

    /// Records the one explanation, each recovered move with a correction.
    fn accept(&mut self, steps: &[Step]) {
        let size = self.size;
        if let Some(m) = self.game.as_mut() {
            m.held.clear();
            m.forget_unexplained();
        }
        let reason = "read when the board could see again: the only sequence of legal moves \
                      that explains the position and the presses";
        for (i, step) in steps.iter().enumerate() {
            let last = i + 1 == steps.len();
            let (point, claim) = match *step {
                Step::Complete(claim) => {
                    self.set_last_time(&claim);
                    if let Some(m) = self.game.as_mut() {
                        m.provisional = false;
                    }
                    continue;
                }
                Step::Pass(_, claim) if last => {
                    // A last bare press may still be a premature press: decided as usual, from now.
                    let now = self.now;
                    if let Some(m) = self.game.as_mut() {
                        m.open_press_from(claim, Some(now));
                    }
                    continue;
                }
                Step::Pass(color, claim) => {
                    self.record_pass(color, claim, false);
                    ("pass".to_owned(), claim)
                }
                Step::Play(color, p, claim) => {
                    if let Some(m) = self.game.as_mut() {
                        // A stone found late at the start, claimed as this move: no longer a leftover.
                        m.known.remove(&p);
                    }
                    let time = Some((claim.time_left, claim.periods_left));
                    self.record_timed_move(color, Move::Play(go::point(p)), claim.at, false, time);
                    self.judge_held_press(color, p, &claim);
                    (go::name(p, size), claim)
                }
                Step::Trailing(color, p) => {
                    if let Some(m) = self.game.as_mut() {
                        m.known.remove(&p);
                    }
                    let at = self.sight.changed_at()[p];
                    self.record_move(color, Move::Play(go::point(p)), at, true);
                    continue;
                }
            };
            let number = self.game.as_ref().map_or(0, |m| m.move_count());
            self.emit(EventKind::Correction {
                number,
                was: "none".into(),
                now: point,
                reason: reason.into(),
                time_left_ms: claim.time_left,
                periods_left: claim.periods_left,
            });
        }
        self.update_board_alert("");
    }
}
