//! Interpretation of quiet physical positions against the game position (the classification table of referee-notes.md).

mod burst;
mod removal;
mod stone;
mod substep;

use crate::diff::Diff;

use burst::Candidates;

use crate::debounce::Quiet;
use crate::event::EventKind;
use crate::go;
use crate::input::Reading;
use crate::match_state::Match;
use crate::referee::Referee;
use crate::state::Phase;

impl Referee {
    /// A quiet board arrived: interpret it.
    pub(crate) fn handle_quiet(&mut self, quiet: Quiet) {
        if !self.sight.blind() {
            // The snapshot that ends a blind spell (start-up, resync) is no act of a player:
            // it stays out of the alerts' evidence (issue 15).
            self.timeline.record_readings(
                self.sight.physical(),
                &quiet.readings,
                &quiet.changed_at,
                self.size,
            );
        }
        let gone = self.stones_gone_while_held(&quiet);
        let mut vanished = self.sight.handle_quiet(quiet);
        vanished.extend(gone);
        self.keep_vanished(vanished);
        self.update_unknown_points();
        self.update_chattering();
        self.update_sight();
        self.adopt_late_leftovers();
        let phase = self.game.as_ref().map(|m| m.phase);
        match phase {
            Some(Phase::Playing) if !self.game.as_ref().is_some_and(Match::is_sealed) => {
                self.reconcile();
                self.read_hidden_sequence();
                // Presses wait for any change still settling elsewhere: it may be their stone.
                let before = self.claims_judged_before();
                self.process_claims(before);
                self.interpret(false);
                // A stone the reading could not place yet (a burst waiting for its sub-steps)
                // still bounds the presses judged now.
                let before = self.claims_judged_before();
                self.process_claims(before);
            }
            Some(Phase::Counting) => self.update_counting(),
            _ => {}
        }
        if self.sight.debouncer().earliest_pending().is_none() {
            for key in std::mem::take(&mut self.waiting_keys) {
                // The game may have ended meanwhile: a key that no longer applies is dropped.
                let _ = self.handle_key(key);
            }
        }
        self.refresh_guidance();
        self.emit(EventKind::StateChanged);
    }

    /// Stones that stood and went inside the stall: a sequence the stall hid (a ko taken and
    /// retaken before the region was quiet, issue 15). It is read before the presses are
    /// judged, since the stones left on the board may all be later than the presses: judged
    /// first, the press of a hidden stone would read as a pass. Accepted only when it
    /// reproduces the board.
    fn read_hidden_sequence(&mut self) {
        // Nothing hidden, or what took it is not reported yet (the next report reads it).
        if !self.stall_has_substeps() || self.substep_still_settling() {
            return;
        }
        let diff = self.current_diff();
        if !diff.is_empty() {
            self.read_burst_over_captures(&diff, Candidates::WithSubSteps);
        }
    }

    /// The grace for an unexplained removal ran out: decide now.
    pub(crate) fn handle_grace_due(&mut self) {
        self.interpret(true);
        if let Some(m) = self.game.as_mut() {
            m.clear_suspect();
        }
        self.refresh_guidance();
        self.emit(EventKind::StateChanged);
    }

    /// The game position as readings.
    pub(crate) fn game_readings(&self) -> Vec<Reading> {
        match &self.game {
            Some(m) => go::readings(m.game.board(), self.size),
            None => vec![Reading::Empty; self.size.points()],
        }
    }

    /// The diff of the physical board against the game, after the exclusions.
    pub(crate) fn current_diff(&mut self) -> Diff {
        let game = self.game_readings();
        let Some(m) = self.game.as_mut() else {
            return Diff::default();
        };
        let physical = self.sight.physical();
        // A captured stone retaken before its report: once the point is reported anew, the
        // stone there is a new one (a ko at blitz pace).
        let changed_at = self.sight.changed_at();
        let reread: Vec<usize> = m
            .known_until_reread
            .iter()
            .filter(|&(&p, &since)| changed_at[p] > since)
            .map(|(&p, _)| p)
            .collect();
        for p in reread {
            m.known.remove(&p);
            m.known_until_reread.remove(&p);
        }
        // A known deviation ends when the point reads something else (`?` is not something else).
        m.known.retain(|&p, r| {
            physical[p] == Reading::Unknown || (physical[p] == *r && physical[p] != game[p])
        });
        let known = &m.known;
        m.known_until_reread.retain(|p, _| known.contains_key(p));
        // A captured stone once seen off the board is no longer pending: a new stone there is new,
        // also when it was put down in the same stall as the capture (its reading is newer
        // than the capturing move: a point retaken in fast play, issue 15).
        let captured_at = m.placed_at;
        m.pending_caps
            .retain(|&(p, c)| physical[p] == go::reading_of(c) && changed_at[p] <= captured_at);
        // Until the opponent's next stone, the last move's captured stones may still be taken off.
        let pending = m.pending_caps.clone();
        Diff::between(&game, physical, &m.known, &pending)
    }

    /// Presses before this time can be judged now: no change still settling and no stone not
    /// yet in the game came before them (`None`: all of them).
    pub(crate) fn claims_judged_before(&mut self) -> Option<crate::Timestamp> {
        let pending = self.sight.debouncer().earliest_pending();
        // A stone that stood and went inside the stall, with what took it still settling: the
        // presses after it wait for the report that completes the sequence (issue 15).
        let hidden = self.first_hidden_stone_at();
        [self.first_new_stone_at(), pending, hidden]
            .into_iter()
            .flatten()
            .min()
    }

    /// Whether a new stone still settling in the debouncer was placed before every stone of
    /// `diff`: the game reads on once it is reported (or gone).
    fn earlier_stone_settling(&self, diff: &Diff) -> bool {
        let Some(m) = self.game.as_ref() else {
            return false;
        };
        let Some(first) = diff
            .added
            .iter()
            .map(|&(p, _)| self.sight.changed_at()[p])
            .min()
        else {
            return false;
        };
        let board = m.game.board();
        self.sight.debouncer().pending_readings().any(|(p, r, at)| {
            r.color().is_some() && at < first && board.get(go::point(p)).is_none()
        })
    }

    /// Whether a new stone (one not in the game) is still settling in the debouncer.
    pub(crate) fn new_stone_settling(&self) -> bool {
        let Some(m) = self.game.as_ref() else {
            return false;
        };
        let board = m.game.board();
        self.sight
            .debouncer()
            .pending_readings()
            .any(|(p, r, _)| r.color().is_some() && board.get(go::point(p)).is_none())
    }

    /// When the earliest stone not in the game arrived, if any.
    fn first_new_stone_at(&mut self) -> Option<crate::Timestamp> {
        let diff = self.current_diff();
        diff.added
            .iter()
            .map(|&(p, _)| self.sight.changed_at()[p])
            .min()
    }

    /// Interprets until the position is explained or waits for more evidence.
    pub(crate) fn interpret(&mut self, grace: bool) {
        for _ in 0..32 {
            if !self.interpret_step(grace) {
                return;
            }
        }
    }

    /// One step; `true` when the game changed and the board must be read again.
    fn interpret_step(&mut self, grace: bool) -> bool {
        if self.game.as_ref().is_some_and(|m| !m.held.is_empty()) {
            // Held presses first: only a reading that explains them moves the game on.
            return false;
        }
        let frozen = self.game.as_ref().is_some_and(Match::is_frozen);
        if frozen {
            return self.check_restored();
        }
        let diff = self.current_diff();
        if self
            .game
            .as_ref()
            .is_some_and(|m| m.game.handicap_pending())
        {
            return self.read_free_handicap(&diff);
        }
        if diff.is_empty() {
            if let Some(m) = self.game.as_mut() {
                m.clear_suspect();
            }
            return false;
        }
        let before_first_move = self.game.as_ref().is_some_and(|m| m.moves.is_empty());
        if before_first_move && diff.added.is_empty() && diff.changed.is_empty() {
            // Setup stones not (yet) on the board — the handicap still to place, or swept off
            // with the last game's leftovers — are guidance, never an alert (issue 15).
            if let Some(m) = self.game.as_mut() {
                m.clear_suspect();
            }
            return false;
        }
        if self.earlier_stone_settling(&diff) || self.substep_still_settling() {
            // A stone placed before these is still settling where a hand is busy, or one that
            // stood and went has what took it still settling: it comes first, so reading
            // these now would put the moves out of order (issue 15).
            return false;
        }
        if !diff.changed.is_empty() {
            if !diff.added.is_empty() && self.read_burst_over_captures(&diff, Candidates::Both) {
                return true;
            }
            self.on_changed(&diff)
        } else if diff.added.len() == 1 {
            let (x, s) = diff.added[0];
            self.on_new_stone(x, s, &diff)
        } else if diff.added.len() > 1 {
            self.on_burst(&diff)
        } else {
            // Stones gone, and stones that stood and went inside the stall: the gone ones may
            // be the captures of a sequence whose stones the stall hid (a ko taken and retaken
            // before the region was quiet, issue 15).
            if self.stall_has_substeps() && self.read_burst_over_captures(&diff, Candidates::Both) {
                return true;
            }
            self.on_removals(&diff, grace)
        }
    }

    /// Free handicap (CN2002 2.2 with the handicap rules): once exactly the agreed number of
    /// black stones and nothing else stand on the board, they are the handicap.
    fn read_free_handicap(&mut self, diff: &Diff) -> bool {
        let Some(m) = self.game.as_mut() else {
            return false;
        };
        let wanted = usize::from(m.game.setup().handicap);
        let black: Vec<goban_rules::Point> = diff
            .added
            .iter()
            .filter(|a| a.1 == goban_rules::Color::Black)
            .map(|a| go::point(a.0))
            .collect();
        let clean =
            diff.removed.is_empty() && diff.changed.is_empty() && black.len() == diff.added.len();
        if !clean || black.len() != wanted || m.game.place_free_handicap(&black).is_err() {
            return false;
        }
        self.emit(EventKind::StateChanged);
        true
    }

    /// Unfrozen once every stone of the game is back where it was; a new stone placed
    /// meanwhile is read as usual (`true`: read the board again).
    fn check_restored(&mut self) -> bool {
        let game = self.game_readings();
        let restored = game.iter().zip(self.sight.physical()).all(|(g, p)| {
            g == p || *p == Reading::Unknown || (*g == Reading::Empty && p.color().is_some())
        });
        let Some(m) = self.game.as_mut() else {
            return false;
        };
        if restored {
            m.thaw();
        }
        restored
    }

    fn update_unknown_points(&mut self) {
        let unknown: Vec<String> = (0..self.sight.physical().len())
            .filter(|&i| self.sight.physical()[i] == Reading::Unknown)
            .map(|i| go::name(i, self.size))
            .collect();
        if self.devices.handle_unknown_points(unknown) {
            self.emit_device();
        }
    }
}
