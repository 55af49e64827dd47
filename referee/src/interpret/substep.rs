//! The sub-steps of a stall: a stone that stood and went again before its region was quiet (placed, then captured) is the move a press was made for, never a pass (issue 15).

use goban_rules::{Color, Move};

use crate::Timestamp;
use crate::debounce::{Quiet, Vanished};
use crate::go;
use crate::input::Reading;
use crate::match_state::Claim;
use crate::referee::Referee;

/// At most this many sub-steps are kept for one move: a stall holds a few stones at most.
const VANISHED_KEPT: usize = 16;

impl Referee {
    /// Keeps the stones of the last report that stood and went, after the last move's stone.
    pub(super) fn keep_vanished(&mut self, vanished: Vec<Vanished>) {
        // A chattering sensor's flips are no stones: kept, they would crowd out real ones.
        let debouncer = self.sight.debouncer();
        let real: Vec<Vanished> = vanished
            .into_iter()
            .filter(|v| !debouncer.is_chattering(v.index))
            .collect();
        let Some(m) = self.game.as_mut() else { return };
        let since = m.placed_at;
        m.vanished.retain(|v| v.from > since);
        m.vanished
            .extend(real.into_iter().filter(|v| v.from > since));
        let extra = m.vanished.len().saturating_sub(VANISHED_KEPT);
        m.vanished.drain(..extra);
    }

    /// While presses wait for their stones (open or queued, before any is held: once the
    /// referee holds, only sub-steps inside a stall count) or points read `?`, the board
    /// seeing: stones reported but not the game's that the quiet position `next` no
    /// longer shows and would leave without a liberty, so placed and captured meanwhile; each
    /// may be a move of a later explanation (hall stress, "chatter on a stone": a stone held
    /// while a sensor flickered, then captured).
    pub(super) fn stones_gone_while_held(&self, next: &Quiet) -> Vec<Vanished> {
        let Some(m) = self.game.as_ref() else {
            return Vec::new();
        };
        let waiting = m.open_press().is_some() || m.has_queued_claims();
        // After a blind spell the last position is stale: what it lost says nothing.
        if self.sight.blind() || !(waiting || self.sight.unclean()) {
            return Vec::new();
        }
        let board = m.game.board();
        let physical = self.sight.physical();
        physical
            .iter()
            .zip(&next.readings)
            .enumerate()
            .filter_map(|(p, (&was, &now))| {
                let c = was.color()?;
                (now == Reading::Empty
                    && !self.sight.debouncer().is_chattering(p)
                    && go::without_liberty(&next.readings, p, was, self.size)
                    && board.get(go::point(p)) != Some(c))
                .then(|| Vanished {
                    index: p,
                    reading: was,
                    from: self.sight.changed_at()[p],
                    to: next.changed_at[p],
                })
            })
            .collect()
    }

    /// A stone of `mover` that stood and went since the last move and that, played before
    /// `s`'s stone at `x`, makes the board read as it does (that stone captured it).
    pub(super) fn vanished_move(&self, mover: Color, x: usize, s: Color) -> Option<Vanished> {
        let m = self.game.as_ref()?;
        let reading = go::reading_of(mover);
        m.vanished
            .iter()
            .filter(|v| v.reading == reading && v.from > m.placed_at && v.index != x)
            .find(|v| self.replay_matches(&[(v.index, mover), (x, s)]))
            .copied()
    }

    /// A burst's stones with the stones that stood and went since the last move (a point may
    /// hold several), in the order they were first read.
    pub(super) fn with_vanished(
        &self,
        order: &[(usize, Color, Timestamp)],
    ) -> Vec<(usize, Color, Timestamp)> {
        let Some(m) = self.game.as_ref() else {
            return order.to_vec();
        };
        let mut all = order.to_vec();
        // Every stone that stood and went counts once, even on a point played again inside the
        // stall (a ko fought faster than the region settles): each is its own sub-step.
        for v in m.vanished.iter().filter(|v| v.from > m.placed_at) {
            if let Some(c) = v.reading.color()
                && !all.iter().any(|&(p, _, at)| p == v.index && at == v.from)
            {
                all.push((v.index, c, v.from));
            }
        }
        // A stone of the same colour as the game's on its point, but placed since the last move:
        // the game's stone there was captured and the point retaken inside the stall (ko).
        let board = m.game.board();
        for (p, &reading) in self.sight.physical().iter().enumerate() {
            let at = self.sight.changed_at()[p];
            if let Some(c) = reading.color()
                && at > m.placed_at
                && board.get(go::point(p)) == Some(c)
                && !all.iter().any(|&(q, _, _)| q == p)
            {
                all.push((p, c, at));
            }
        }
        all.sort_by_key(|&(p, _, at)| (at, p));
        all
    }

    /// When the first stone that stood and went since the last move was placed, while what
    /// took it is still settling (the sequence is not fully reported yet).
    pub(super) fn first_hidden_stone_at(&self) -> Option<Timestamp> {
        if !self.substep_still_settling() {
            return None;
        }
        self.substeps().map(|v| v.from).min()
    }

    /// Whether a stone stood and went since the last move.
    pub(super) fn stall_has_substeps(&self) -> bool {
        self.substeps().next().is_some()
    }

    /// The stones that stood and went since the last move (the stall's sub-steps).
    fn substeps(&self) -> impl Iterator<Item = &Vanished> {
        self.game
            .iter()
            .flat_map(|m| m.vanished.iter().filter(|v| v.from > m.placed_at))
    }

    /// Whether a stone that stood and went since the last move has its point or a neighbour
    /// still settling in the debouncer: what took it is not reported yet.
    pub(super) fn substep_still_settling(&self) -> bool {
        let gone: Vec<usize> = self.substeps().map(|v| v.index).collect();
        !gone.is_empty()
            && self.sight.debouncer().pending_readings().any(|(p, _, _)| {
                gone.iter()
                    .any(|&g| g == p || go::adjacent(g, p, self.size))
            })
    }

    /// Whether a stone of `mover`, first read before `before` (the press, plus the ports'
    /// skew), stood a whole settle time and went since the last move (a shorter one may be a
    /// hand's flicker: it counts only when it explains the board; one read after the press
    /// cannot be the press's move).
    pub(super) fn vanished_stone_of(&self, mover: Color, before: Timestamp) -> bool {
        let reading = go::reading_of(mover);
        let settle = self.config.settle_ms;
        self.game.as_ref().is_some_and(|m| {
            m.vanished.iter().any(|v| {
                v.reading == reading
                    && v.from > m.placed_at
                    && v.from < before
                    && v.from.plus_ms(settle) <= v.to
            })
        })
    }

    /// A stone of `mover` that was first read before `press_at` and went after it, since the
    /// last move: the stone the press completed, lifted again before it was reported.
    pub(super) fn stone_lifted_after(&self, mover: Color, press_at: Timestamp) -> Option<Vanished> {
        let m = self.game.as_ref()?;
        let reading = go::reading_of(mover);
        m.vanished
            .iter()
            .filter(|v| v.reading == reading && v.from > m.placed_at)
            .find(|v| v.from < press_at && v.to > press_at)
            .copied()
    }

    /// Records the vanished stone `v` as `mover`'s move, completed by `press`.
    pub(super) fn play_vanished(&mut self, v: Vanished, mover: Color, press: &Claim) {
        self.close_previous_move();
        let time = Some((press.time_left, press.periods_left));
        self.record_timed_move(mover, Move::Play(go::point(v.index)), v.from, false, time);
    }
}
