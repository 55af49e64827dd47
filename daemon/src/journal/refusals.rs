//! The boards whose last batch the journal refused, so a batch sent to follow it is refused too.
//!
//! A board may send a move's batch before the journal has answered for the
//! batch it handed over earlier (a clock reading that may wait): one
//! commit then takes both. If the earlier batch went out alone in a commit
//! that failed, the move must not be stored without it, or a disk that
//! refuses and then accepts would keep the board's batches out of order.

use std::collections::HashMap;

use super::JournalError;

/// Per board, the error of its last commit when that commit failed.
#[derive(Default)]
pub(super) struct Refusals(HashMap<String, JournalError>);

impl Refusals {
    /// Why a batch of `board` that follows its last one is refused: that one was.
    pub(super) fn of(&self, board: &str) -> Option<&JournalError> {
        self.0.get(board)
    }

    /// After a commit of batches of `boards`: forget them if it committed, remember why not.
    pub(super) fn record<'a>(
        &mut self,
        boards: impl Iterator<Item = &'a str>,
        outcome: &Result<(), JournalError>,
    ) {
        for board in boards {
            match outcome {
                Ok(()) => {
                    self.0.remove(board);
                }
                Err(err) => {
                    self.0.insert(board.to_owned(), err.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_is_refused_from_a_failed_commit_until_one_succeeds() {
        let mut refusals = Refusals::default();
        let full = Err(JournalError::Sqlite("database or disk is full".into()));
        refusals.record(["t1", "t2"].into_iter(), &full);
        assert!(refusals.of("t1").is_some());
        assert!(refusals.of("t3").is_none());
        refusals.record(["t1"].into_iter(), &Ok(()));
        assert!(refusals.of("t1").is_none());
        assert_eq!(
            refusals.of("t2").map(ToString::to_string).as_deref(),
            Some("sqlite: database or disk is full")
        );
    }
}
