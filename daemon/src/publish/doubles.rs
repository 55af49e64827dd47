//! Doubles of the runtime's side of the hub, for tests of the publishers: a journal kept in
//! memory and a board that refuses every request.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::hub::{ArbiterRequest, Archive, BoardControl, RequestError};
use crate::message::{BoardView, Published};

/// A journal in memory: the messages [`MemoryArchive::keep`] was given, in that order. It holds
/// no finished games.
#[derive(Default)]
pub struct MemoryArchive {
    log: Mutex<Vec<Published>>,
    broken: Vec<&'static str>,
    /// Reads still to fail, whatever the board (a journal briefly unreadable).
    failing_reads: AtomicUsize,
}

impl MemoryArchive {
    /// A journal whose reads of `boards` fail, as one that cannot be read.
    pub fn failing_for(boards: Vec<&'static str>) -> Self {
        Self {
            broken: boards,
            ..Self::default()
        }
    }

    /// A journal whose first `reads` reads fail, then all succeed.
    pub fn failing_first(reads: usize) -> Self {
        Self {
            failing_reads: AtomicUsize::new(reads),
            ..Self::default()
        }
    }

    /// Journal `message` (before it is published, as the runtime does).
    pub fn keep(&self, message: Published) {
        self.lock().push(message);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Published>> {
        self.log.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Archive for MemoryArchive {
    fn events_since(
        &self,
        board: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Published>, RequestError> {
        let briefly_unreadable = self
            .failing_reads
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok();
        if briefly_unreadable || self.broken.contains(&board) {
            return Err(RequestError::Unavailable(board.to_owned()));
        }
        Ok(self
            .lock()
            .iter()
            .filter(|m| &*m.board == board && m.seq > after)
            .take(limit)
            .cloned()
            .collect())
    }
    fn games(&self) -> Result<Vec<serde_json::Value>, RequestError> {
        Ok(Vec::new())
    }
    fn game(&self, _: &str) -> Result<Option<serde_json::Value>, RequestError> {
        Ok(None)
    }
    fn game_sgf(&self, _: &str) -> Result<Option<String>, RequestError> {
        Ok(None)
    }
}

/// A board runtime that answers every request with `Unavailable`.
pub struct IdleBoard;

impl BoardControl for IdleBoard {
    fn request(
        &self,
        _: ArbiterRequest,
    ) -> futures::future::BoxFuture<'static, Result<Arc<BoardView>, RequestError>> {
        Box::pin(async { Err(RequestError::Unavailable("idle".into())) })
    }
}
