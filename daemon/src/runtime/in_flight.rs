//! A board's batch that may wait (clock readings, device reports), handed to the journal
//! without waiting, and published once the journal answers that it is committed.
//!
//! A board has at most one such batch out at a time, and commits nothing else
//! before the journal has answered for it, so its batches are journaled and
//! published in the order they were sealed, refused ones included.

use tokio::sync::oneshot::error::TryRecvError;

use super::ledger::Sealed;
use crate::journal::{Committed, Journal, JournalError};

/// The batch handed over and the journal's answer to come.
pub(crate) struct InFlight {
    sealed: Sealed,
    committed: Committed,
}

impl InFlight {
    /// Hand `sealed` to the journal to commit along with another commit; gives it back if the
    /// journal is closed.
    pub(crate) fn hand_over(sealed: Sealed, journal: &Journal) -> Result<Self, Box<Sealed>> {
        match journal.write_lazily(sealed.batch.clone()) {
            Ok(committed) => Ok(Self { sealed, committed }),
            Err(_) => Err(Box::new(sealed)),
        }
    }

    /// The journal's answer, once it comes (cancel-safe: the answer is not lost if dropped).
    pub(crate) async fn answered(&mut self) -> Result<(), JournalError> {
        (&mut self.committed)
            .await
            .unwrap_or(Err(JournalError::Closed))
    }

    /// The journal's answer if it has come; `None` while the batch waits.
    pub(crate) fn try_answer(&mut self) -> Option<Result<(), JournalError>> {
        match self.committed.try_recv() {
            Ok(answer) => Some(answer),
            Err(TryRecvError::Closed) => Some(Err(JournalError::Closed)),
            Err(TryRecvError::Empty) => None,
        }
    }

    /// The journal's answer now: if it has not come, the journal is asked to commit at once.
    pub(crate) async fn answer_now(&mut self, journal: &Journal) -> Result<(), JournalError> {
        match self.try_answer() {
            Some(answer) => answer,
            None => {
                journal.hurry();
                self.answered().await
            }
        }
    }

    /// The batch, to publish or to keep until the journal accepts it.
    pub(crate) fn into_sealed(self) -> Sealed {
        self.sealed
    }
}
