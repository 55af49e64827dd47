//! Whether the match's record stands as read: moves the arbiter voided, a recorded double move, a board frozen by a disturbance (CN2002 17.6), and the held presses no reading explained yet with their device alert.

use goban_rules::{Color, Move};

use super::Match;
use crate::diff::Diff;

impl Match {
    /// The arbiter voided move `number`, which was `old` (kept for restoring it).
    pub(crate) fn handle_void(&mut self, number: u32, old: (Color, Move)) {
        self.voided.insert(number, old);
    }

    /// The move `number` was before the arbiter voided it, if it was voided.
    pub(crate) fn voided_move(&self, number: u32) -> Option<(Color, Move)> {
        self.voided.get(&number).copied()
    }

    /// Whether move `number` was voided.
    pub(crate) fn is_voided(&self, number: u32) -> bool {
        self.voided.contains_key(&number)
    }

    /// The voided move `number` was restored.
    pub(crate) fn handle_restore(&mut self, number: u32) {
        self.voided.remove(&number);
    }

    /// Whether the board was disturbed and nothing is read until it shows the game again.
    pub(crate) fn is_frozen(&self) -> bool {
        self.frozen
    }

    /// The board was disturbed (CN2002 17.6): no reading until it shows the game position.
    pub(crate) fn freeze(&mut self) {
        self.frozen = true;
        self.suspect_since = None;
    }

    /// The board shows the game position again: reading resumes, with nothing alerted on.
    pub(crate) fn thaw(&mut self) {
        self.frozen = false;
        self.known.clear();
        self.suspect_since = None;
    }

    /// Whether the last reading failed to explain the held presses.
    pub(crate) fn reconcile_failed(&self) -> bool {
        self.reconcile_failed
    }

    /// Whether reading `seen` (the diff and the number of held presses) again is no use: the
    /// last failure was ambiguous (more presses never tell two orders of the same stones
    /// apart), or it saw just this.
    pub(crate) fn tried_in_vain(&self, seen: &(Diff, usize)) -> bool {
        match &self.unexplained {
            Some(None) => true,
            Some(Some(last)) => last == seen,
            None => false,
        }
    }

    /// No sequence (or more than one, `ambiguous`) explained `seen`.
    pub(crate) fn handle_unexplained(&mut self, seen: (Diff, usize), ambiguous: bool) {
        self.reconcile_failed = true;
        self.unexplained = Some((!ambiguous).then_some(seen));
    }

    /// The held presses were explained or dropped: the next reading starts afresh.
    pub(crate) fn forget_unexplained(&mut self) {
        self.reconcile_failed = false;
        self.unexplained = None;
    }

    /// The open `board_unavailable` device alert's id, if one is open.
    pub(crate) fn board_alert(&self) -> Option<&str> {
        self.board_alert.as_deref()
    }

    /// The `board_unavailable` alert `id` was raised for the held presses.
    pub(crate) fn handle_board_alert_raised(&mut self, id: String) {
        self.board_alert = Some(id);
    }

    /// No press is held any more: the `board_unavailable` alert is no longer this game's.
    pub(crate) fn handle_board_alert_closed(&mut self) {
        self.board_alert = None;
    }

    /// The last move is a recorded double move (advised, not voided): lifting its stone
    /// withdraws it at once.
    pub(crate) fn handle_double_move(&mut self) {
        self.double_move = Some(self.move_count());
    }

    /// Whether the last move is a recorded double move.
    pub(crate) fn last_is_double_move(&self) -> bool {
        self.double_move == Some(self.move_count())
    }

    /// Takes the number of the recorded double move, if any.
    pub(crate) fn take_double_move(&mut self) -> Option<u32> {
        self.double_move.take()
    }
}
