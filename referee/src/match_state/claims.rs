//! The match's presses waiting for the board: the queue not judged yet with the wait for the board's late frames (issue 15), the open bare press (a pass or a premature press) with its pass deadline, and the pass announced at that deadline.

use goban_rules::Color;

use super::{Claim, Match};
use crate::Timestamp;

impl Match {
    /// The presses held while the board could not see, as moves: the first one if it
    /// completes the last move recorded (its stone was read before the board went blind),
    /// then the others, one new move each.
    pub(crate) fn held_presses(&self) -> (Option<Claim>, &[Claim]) {
        let last = self.game.moves().last().map(|l| l.color);
        match self.held.split_first() {
            Some((first, rest)) if self.provisional && last == Some(first.color) => {
                (Some(*first), rest)
            }
            _ => (None, &self.held),
        }
    }

    /// [`Match::held_presses`], with who moves after them all; `None` unless the new moves'
    /// presses alternate from the side to move.
    pub(crate) fn held_moves(&self) -> Option<(Option<Claim>, &[Claim], Color)> {
        let (complete, presses) = self.held_presses();
        let mut to_move = self.game.to_move();
        for press in presses {
            if press.color != to_move {
                return None;
            }
            to_move = to_move.opponent();
        }
        Some((complete, presses, to_move))
    }

    /// A press joins the queue, to be judged once the board is quiet.
    pub(crate) fn queue_claim(&mut self, claim: Claim) {
        self.claims.push(claim);
    }

    /// The oldest press waiting, once the wait for late frames is over at `now` (the wait
    /// ends here); `None` while it lasts or when no press waits.
    pub(crate) fn first_claim(&mut self, now: Timestamp) -> Option<Claim> {
        let first = *self.claims.first()?;
        if self.claims_wait_until.is_some_and(|t| t > now) {
            return None;
        }
        self.claims_wait_until = None;
        Some(first)
    }

    /// The oldest press was judged (or handed on): it leaves the queue.
    pub(crate) fn pop_claim(&mut self) {
        if !self.claims.is_empty() {
            self.claims.remove(0);
        }
    }

    /// `claim` goes back to the front of the queue, judged no sooner than `until` (its
    /// captures may still come off in frames on their way).
    pub(crate) fn requeue_claim(&mut self, claim: Claim, until: Timestamp) {
        self.claims.insert(0, claim);
        self.claims_wait_until = Some(until);
    }

    /// Takes out of the queue the oldest press that `fits`.
    pub(crate) fn take_claim(&mut self, fits: impl Fn(&Claim) -> bool) -> Option<Claim> {
        let k = self.claims.iter().position(fits)?;
        Some(self.claims.remove(k))
    }

    /// Whether presses wait in the queue.
    pub(crate) fn has_queued_claims(&self) -> bool {
        !self.claims.is_empty()
    }

    /// Takes the whole queue, oldest first (the presses behind a press that is held).
    pub(crate) fn take_queued_claims(&mut self) -> Vec<Claim> {
        self.claims_wait_until = None;
        std::mem::take(&mut self.claims)
    }

    /// The queue is dropped (play ended or stopped).
    pub(crate) fn drop_claims(&mut self) {
        self.claims.clear();
    }

    /// When the wait for the board's late frames ends, if one is running.
    pub(crate) fn claims_timeout(&self) -> Option<Timestamp> {
        self.claims_wait_until
    }

    /// The open bare press (a pass or a premature press, digest), if any.
    pub(crate) fn open_press(&self) -> Option<Claim> {
        self.pending_press
    }

    /// Takes the open press; when its pass deadline counts from is left as it was.
    pub(crate) fn take_open_press(&mut self) -> Option<Claim> {
        self.pending_press.take()
    }

    /// Takes the open press with the time its pass deadline counts from, when later than
    /// the press (a press explained only once the board could see again).
    pub(crate) fn take_open_press_and_wait(&mut self) -> Option<(Claim, Option<Timestamp>)> {
        let press = self.pending_press.take()?;
        Some((press, self.pending_wait_from.take()))
    }

    /// `claim` is the open press now; its pass deadline counts from `wait_from` when given,
    /// from the press otherwise.
    pub(crate) fn open_press_from(&mut self, claim: Claim, wait_from: Option<Timestamp>) {
        self.pending_press = Some(claim);
        self.pending_wait_from = wait_from;
    }

    /// The open press goes back to the front of the queue (a burst takes it as its first
    /// stone's completing press).
    pub(crate) fn requeue_open_press(&mut self) {
        if let Some(press) = self.pending_press.take() {
            self.pending_wait_from = None;
            self.claims.insert(0, press);
        }
    }

    /// Every press not judged: the open press, then the queue; both are emptied.
    pub(crate) fn take_open_presses(&mut self) -> Vec<Claim> {
        let open = self
            .pending_press
            .take()
            .into_iter()
            .chain(self.claims.drain(..))
            .collect();
        self.pending_wait_from = None;
        open
    }

    /// Play stopped (counting or a result): the open press and the queue are dropped.
    pub(crate) fn drop_presses(&mut self) {
        self.pending_press = None;
        self.claims.clear();
    }

    /// When the open press becomes a pass, `decision_ms` after the press or its wait.
    pub(crate) fn pass_timeout(&self, decision_ms: u64) -> Option<Timestamp> {
        let p = self.pending_press?;
        let from = self.pending_wait_from.map_or(p.at, |w| w.max(p.at));
        Some(from.plus_ms(decision_ms))
    }

    /// A move was recorded: no pass announced at the deadline stands as the last move.
    pub(crate) fn forget_deadline_pass(&mut self) {
        self.deadline_pass = None;
    }

    /// The pass just recorded was announced at the pass deadline from `press`.
    pub(crate) fn handle_deadline_pass(&mut self, press: Claim) {
        self.deadline_pass = Some(press);
    }

    /// Whether the last pass was announced at the pass deadline.
    pub(crate) fn has_deadline_pass(&self) -> bool {
        self.deadline_pass.is_some()
    }

    /// The pass announced at the deadline was undone: its press (or `otherwise`) is open again.
    pub(crate) fn reopen_deadline_press(&mut self, otherwise: Claim) {
        self.pending_press = self.deadline_pass.take().or(Some(otherwise));
    }
}
