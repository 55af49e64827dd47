//! Rebuilding boards from the journal at start: a few blocking threads, each with one read connection, take boards in config order.
//!
//! A rebuild is CPU-bound (the referee replays the open game's inputs), so
//! there is one thread per core and no more; each sends its board's ledger
//! to the board's task as soon as it is ready, so the first boards are
//! served while the last are still being rebuilt. Plain threads from
//! Tokio's blocking pool and a shared queue are enough: the work is a
//! few hundred independent items, with no nesting that would justify a
//! work-stealing pool such as rayon.

use std::collections::VecDeque;
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::Mutex;

use goban_referee::RefereeConfig;
use tokio::sync::oneshot;

use super::ledger::{Ledger, RecoverError};
use crate::journal::{Journal, RecoveryReader};

/// One board to rebuild, and where its ledger goes.
pub(super) struct Job {
    /// The board's referee settings (its id is `config.board`).
    pub(super) config: RefereeConfig,
    /// The board's task, waiting; the error is in words for `/health`. Boxed: the task's
    /// future then holds a pointer, not the ledger (3.4 KB) once per await point.
    pub(super) done: oneshot::Sender<Result<Box<Ledger>, String>>,
}

/// Rebuild every job's board on one blocking thread per core, in the order given.
pub(super) fn spawn(journal: &Journal, jobs: Vec<Job>) {
    let threads = threads_for(jobs.len());
    let queue = Arc::new(Mutex::new(VecDeque::from(jobs)));
    for _ in 0..threads {
        let queue = queue.clone();
        let journal = journal.clone();
        tokio::task::spawn_blocking(move || work(&journal, &queue));
    }
}

/// One per core, at most one per board.
pub(super) fn threads_for(jobs: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    cores.min(jobs)
}

fn work(journal: &Journal, queue: &Mutex<VecDeque<Job>>) {
    let reader = journal.recovery_reader();
    loop {
        // A poisoned queue only means another thread panicked between pops; the jobs are intact.
        let Some(job) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front() else {
            return;
        };
        let span = tracing::info_span!("board", board = %job.config.board);
        let _entered = span.enter();
        let result = match &reader {
            Ok(reader) => rebuild(reader, job.config),
            Err(err) => Err(format!("journal: {err}")),
        };
        // The board's task is gone only when the daemon stopped meanwhile.
        let _ = job.done.send(result.map(Box::new));
    }
}

/// One board: read its journaled past, restore its checkpoint and replay the inputs after it;
/// if the checkpoint is refused (older format, damaged, another config), replay the whole game.
pub(super) fn rebuild(reader: &RecoveryReader, config: RefereeConfig) -> Result<Ledger, String> {
    let journal = |err: crate::journal::JournalError| format!("journal: {err}");
    let recovered = reader.recover(&config.board).map_err(journal)?;
    match Ledger::recover(config.clone(), &recovered) {
        Err(RecoverError::Checkpoint(err)) => {
            tracing::warn!(
                cause = %err,
                "the board's checkpoint was refused; its whole game is replayed instead"
            );
            let full = reader.recover_in_full(&config.board).map_err(journal)?;
            Ledger::recover(config, &full).map_err(|err| err.to_string())
        }
        other => other.map_err(|err| err.to_string()),
    }
}

#[cfg(test)]
#[path = "recovery_tests.rs"]
mod tests;
