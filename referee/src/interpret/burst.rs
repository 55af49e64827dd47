//! Several stones in one burst (blitz without presses): infer the sequence as igoki does, accept it only if the replay reproduces the board.

use goban_rules::{Color, Move};

use crate::Timestamp;
use crate::diff::Diff;
use crate::go;
use crate::input::Reading;
use crate::match_state::Match;
use crate::referee::Referee;

/// Which readings of a burst may explain the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Candidates {
    /// The stones on the board, with or without the stall's sub-steps.
    Both,
    /// Only with the stall's sub-steps: a sequence that hid stones.
    WithSubSteps,
}

impl Referee {
    /// More than one new stone in one quiet state.
    pub(super) fn on_burst(&mut self, diff: &Diff) -> bool {
        if self.read_resignation_burst(diff) {
            return true;
        }
        // Stones that persist into the quiet board, in the order they arrived (igoki `infer-moves`).
        let mut order: Vec<(usize, Color, Timestamp)> = diff
            .added
            .iter()
            .map(|&(p, c)| (p, c, self.sight.changed_at()[p]))
            .collect();
        order.sort_by_key(|&(p, _, at)| (at, p));
        if self.record_burst_if_it_replays(&order, Candidates::Both) {
            return true;
        }
        if self.substep_still_settling() {
            // A stone that stood and went inside the stall has a neighbour still settling (the
            // capturing stone of a ko retaken at once): the next report completes the sequence.
            return false;
        }
        // Not a clean sequence: take the earliest stone alone; the loop reads the rest again.
        let (x, s, at) = order[0];
        let only = Diff {
            added: vec![(x, s)],
            removed: diff.removed.clone(),
            changed: Vec::new(),
        };
        let read = self.on_new_stone(x, s, &only);
        if read && let Some(&(_, _, next_at)) = order.get(1) {
            self.complete_alone_taken_stone(x, s, at, next_at);
        }
        read
    }

    /// The earliest stone of a burst that is no sequence (a double move, issue 39.3) was
    /// recorded alone: the press of its colour made between it and the next stone completes
    /// it now, so that press is never pinned on the stone that follows (one act, one alert).
    fn complete_alone_taken_stone(&mut self, x: usize, s: Color, from: Timestamp, to: Timestamp) {
        let Some(m) = self.game.as_mut() else { return };
        let last_is_it = m.provisional
            && m.game
                .moves()
                .last()
                .is_some_and(|l| l.color == s && l.mv == Move::Play(go::point(x)));
        let skew = self.config.port_skew_ms;
        if !last_is_it {
            return;
        }
        let found =
            m.take_claim(|c| c.color == s && c.switched && c.at.plus_ms(skew) >= from && c.at < to);
        if let Some(claim) = found {
            self.complete_last_move(claim);
        }
    }

    /// New stones and stones of the other colour than the game's, in one quiet state: a stall
    /// in which a stone was captured and its point retaken (a ko or a snapback in fast play,
    /// issue 15). Read as a burst where each changed point is the later stone, accepted only if
    /// the sequence reproduces the board; `false` leaves the change to the usual reading.
    pub(super) fn read_burst_over_captures(&mut self, diff: &Diff, which: Candidates) -> bool {
        let mut order: Vec<(usize, Color, Timestamp)> = diff
            .added
            .iter()
            .map(|&(p, c)| (p, c, self.sight.changed_at()[p]))
            .chain(
                diff.changed
                    .iter()
                    .map(|&(p, _, c)| (p, c, self.sight.changed_at()[p])),
            )
            .collect();
        order.sort_by_key(|&(p, _, at)| (at, p));
        self.record_burst_if_it_replays(&order, which)
    }

    /// Records `order` (with or without the stall's sub-steps) as the burst's moves when
    /// playing it reproduces the board; `false` records nothing.
    fn record_burst_if_it_replays(
        &mut self,
        order: &[(usize, Color, Timestamp)],
        which: Candidates,
    ) -> bool {
        // A bare press still open (pass or premature press, digest) must be settled by the first
        // stone alone, as `on_new_stone` does; read as a sequence, the burst would leave the press
        // pending and pin it on a later move (CN2002 17.4).
        let press_open = self.game.as_ref().is_some_and(|m| m.open_press().is_some());
        // With the stones that stood and were captured inside the stall (its sub-steps), or
        // without them.
        let with_substeps = self.with_vanished(order);
        let plain = match which {
            Candidates::Both => Some(order.to_vec()),
            // Nothing hidden: the usual reading decides.
            Candidates::WithSubSteps if with_substeps.len() == order.len() => return false,
            Candidates::WithSubSteps => None,
        };
        for candidate in std::iter::once(with_substeps).chain(plain) {
            // The open press may be the first stone's own, made after it (fast play in a fight:
            // the press was judged before the stone's region was quiet); then it completes that
            // stone and the burst reads as a sequence.
            if candidate.is_empty() || (press_open && !self.open_press_completes(&candidate)) {
                continue;
            }
            if self.burst_replays(&candidate) {
                if press_open {
                    self.reopen_pending_press();
                }
                self.record_burst(&candidate);
                return true;
            }
        }
        false
    }

    /// Whether playing the burst's stones in order gives exactly the physical board.
    fn burst_replays(&self, order: &[(usize, Color, Timestamp)]) -> bool {
        let moves: Vec<(usize, Color)> = order.iter().map(|&(p, c, _)| (p, c)).collect();
        self.replay_matches(&moves)
    }

    /// Whether the open bare press is the first stone's: same colour, made after the stone was
    /// first read (less the ports' skew) and before the burst's second stone.
    fn open_press_completes(&self, order: &[(usize, Color, Timestamp)]) -> bool {
        let Some(press) = self.game.as_ref().and_then(Match::open_press) else {
            return false;
        };
        let Some(&(_, color, at)) = order.first() else {
            return false;
        };
        let before_next = order.get(1).is_none_or(|&(_, _, next)| press.at < next);
        color == press.color && at < press.at.plus_ms(self.config.port_skew_ms) && before_next
    }

    /// Puts the open press back with the other presses, so the burst takes it as the first
    /// stone's completing press.
    fn reopen_pending_press(&mut self) {
        let Some(m) = self.game.as_mut() else { return };
        m.requeue_open_press();
    }

    /// Records the stones of a burst as moves, each completed by the press made before the next.
    fn record_burst(&mut self, order: &[(usize, Color, Timestamp)]) {
        self.close_previous_move();
        let last = order.len() - 1;
        for (i, &(p, c, at)) in order.iter().enumerate() {
            self.record_move(c, Move::Play(go::point(p)), at, i == last);
            if let Some(&(_, _, next_at)) = order.get(i + 1) {
                self.take_completing_press(c, at, next_at);
            }
        }
    }

    /// The press of `color` between its stone (at `from`) and the next stone of the burst
    /// (at `to`) completed the move just recorded: it is used up here, so it is not pinned
    /// on a later move of the same colour (fast play, issue 15).
    fn take_completing_press(
        &mut self,
        color: Color,
        from: crate::Timestamp,
        to: crate::Timestamp,
    ) {
        let Some(m) = self.game.as_mut() else { return };
        let found = m.take_claim(|c| c.color == color && c.switched && c.at >= from && c.at < to);
        if let Some(claim) = found {
            self.set_last_time(&claim);
        }
    }

    /// Whether playing `order` alternately from the side to move gives exactly the physical board.
    pub(super) fn replay_matches(&self, order: &[(usize, Color)]) -> bool {
        let Some(m) = &self.game else { return false };
        let mut game = m.game.clone();
        let mut color = game.to_move();
        for &(p, c) in order {
            if c != color || game.play(c, Move::Play(go::point(p))).is_err() {
                return false;
            }
            color = color.opponent();
        }
        let pending: Vec<usize> = game
            .moves()
            .last()
            .map(|l| l.captured.iter().map(|q| q.index()).collect())
            .unwrap_or_default();
        let replayed = go::readings(game.board(), self.size);
        replayed
            .iter()
            .zip(self.sight.physical())
            .enumerate()
            .all(|(i, (g, p))| {
                g == p
                    || *p == Reading::Unknown
                    || m.known.get(&i) == Some(p)
                    || (pending.contains(&i) && g == &Reading::Empty)
            })
    }
}
