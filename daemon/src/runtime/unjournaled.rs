//! A board's batches the journal refused (disk full, read-only file), kept in order until it accepts them.
//!
//! The referee has already applied their inputs, so dropping them would make
//! a restart replay a different game; publishing them unjournaled would
//! break "nothing is published that is not journaled". They wait here, and
//! everything newer of the board waits behind them.

use std::collections::VecDeque;
use std::sync::Mutex;

use super::ledger::Sealed;

/// How long a board with refused batches waits before trying the journal again.
pub(crate) const RETRY_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// The queue; a `Mutex` only so the supervisor's future stays `Send`, never held across an await.
#[derive(Default)]
pub(crate) struct Unjournaled {
    queue: Mutex<VecDeque<Sealed>>,
}

impl Unjournaled {
    /// Everything waiting, oldest first, then `next`.
    pub(crate) fn take(&self, next: Option<Sealed>) -> VecDeque<Sealed> {
        let mut queue = std::mem::take(&mut *self.lock());
        queue.extend(next);
        queue
    }

    /// Put back what is still refused (oldest first).
    pub(crate) fn keep(&self, queue: VecDeque<Sealed>) {
        *self.lock() = queue;
    }

    /// Batches waiting.
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Sealed>> {
        // A panic while holding it cannot leave a half-written queue: every change is one assignment.
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
