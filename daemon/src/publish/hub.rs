//! The registry handle shared by board supervisors, REST/SSE and MQTT: board views, the event bus and arbiter commands.
//!
//! This is the seam between the board runtime (supervisor, journal, referee)
//! and the publishers (HTTP, MQTT). Publishers only ever see `Hub`; the
//! runtime implements [`BoardControl`] per board and registers it here.
//! Everything crossing it is typed or already-serialized JSON
//! ([`crate::message`]): a message is serialized once, by the runtime, and
//! the same bytes go to the journal, SSE, MQTT and REST.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use tokio::sync::{broadcast, watch};

use super::followers::BoardFollowers;
use crate::journal::{JournalError, JournalStatus, SqliteArchive};
use crate::message::{BoardView, Payload, Published, Topic};

/// An arbiter's command as it travels from HTTP to the board's runtime: the referee's signed
/// command (`by`, `note`, `command`); `StartGame`'s game id is chosen by the runtime.
pub type ArbiterRequest = goban_referee::ArbiterAct;

/// Why an arbiter request was refused; maps to a 4xx with a JSON body.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// No board with that id.
    #[error("unknown board {0}")]
    UnknownBoard(String),
    /// The body or the request does not fit the game (bad field, wrong phase, unknown infraction).
    #[error("{0}")]
    Rejected(String),
    /// The board cannot take the command now: its runtime is stopping or gone, or the
    /// journal refuses writes (the command cannot be journaled, so it is not applied).
    #[error(
        "board {0} cannot take commands now: it is stopping, or the journal refuses writes (see GET /health)"
    )]
    Unavailable(String),
}

/// What the runtime of one board offers to publishers.
pub trait BoardControl: Send + Sync {
    /// Apply an arbiter command (journaled first) and answer with the board as it then is.
    fn request(
        &self,
        request: ArbiterRequest,
    ) -> futures::future::BoxFuture<'static, Result<Arc<BoardView>, RequestError>>;
}

/// What the journal offers to publishers: history for SSE resume and finished games.
pub trait Archive: Send + Sync {
    /// Messages of `board` with `seq > after`, oldest first, at most `limit`.
    fn events_since(
        &self,
        board: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Published>, RequestError>;
    /// Summaries of finished games, newest first.
    fn games(&self) -> Result<Vec<serde_json::Value>, RequestError>;
    /// One finished game's final state, if it exists.
    fn game(&self, id: &str) -> Result<Option<serde_json::Value>, RequestError>;
    /// One finished game's SGF, if it exists.
    fn game_sgf(&self, id: &str) -> Result<Option<String>, RequestError>;
    /// Whether the journal takes writes, now and each change (`/health`, MQTT `status`);
    /// an archive without a journal always accepts.
    fn journal_status(&self) -> watch::Receiver<JournalStatus> {
        watch::channel(JournalStatus::Accepting).1
    }
}

/// The journal's reads, as publishers ask for them: a read SQLite refused is `Unavailable`.
impl Archive for SqliteArchive {
    fn events_since(
        &self,
        board: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Published>, RequestError> {
        Self::events_since(self, board, after, limit).map_err(unreadable)
    }
    fn games(&self) -> Result<Vec<serde_json::Value>, RequestError> {
        Self::games(self).map_err(unreadable)
    }
    fn game(&self, id: &str) -> Result<Option<serde_json::Value>, RequestError> {
        Self::game(self, id).map_err(unreadable)
    }
    fn game_sgf(&self, id: &str) -> Result<Option<String>, RequestError> {
        Self::game_sgf(self, id).map_err(unreadable)
    }
    fn journal_status(&self) -> watch::Receiver<JournalStatus> {
        self.status()
    }
}

/// A journal read that failed (the journal logged it), in SQLite's words: "journal (…)".
fn unreadable(err: JournalError) -> RequestError {
    let words = match err {
        JournalError::Sqlite(words) => words,
        other => other.to_string(),
    };
    RequestError::Unavailable(format!("journal ({words})"))
}

/// Where a configured board stands before it serves: its runtime is not registered yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Readiness {
    /// Being rebuilt from the journal (after a restart); nothing of it is published yet.
    Recovering,
    /// Its recovery failed; the words say why (the daemon serves the other boards).
    Failed(String),
}

struct BoardEntry {
    view: Arc<BoardView>,
    device: Payload,
    control: Arc<dyn BoardControl>,
    /// The board's highest seq when it was registered: its first message after is numbered above.
    registered_seq: u64,
    /// The highest seq published since (the registered one before the first).
    published_seq: u64,
}

/// Cheap cloneable handle over every board of the daemon.
#[derive(Clone)]
pub struct Hub {
    boards: Arc<RwLock<BTreeMap<Arc<str>, BoardEntry>>>,
    /// Configured boards not registered yet.
    pending: Arc<RwLock<BTreeMap<Arc<str>, Readiness>>>,
    /// Bumped whenever a board is registered or fails, for those waiting on one.
    settled: Arc<watch::Sender<u64>>,
    bus: broadcast::Sender<Published>,
    /// The same messages, per followed board.
    followers: Arc<BoardFollowers>,
    archive: Arc<dyn Archive>,
}

impl Hub {
    /// A hub whose bus keeps `capacity` messages for slow subscribers.
    pub fn new(capacity: usize, archive: Arc<dyn Archive>) -> Self {
        let (bus, _) = broadcast::channel(capacity);
        Self {
            boards: Arc::default(),
            pending: Arc::default(),
            settled: Arc::new(watch::Sender::new(0)),
            bus,
            followers: Arc::default(),
            archive,
        }
    }

    /// The journal's read side.
    pub fn archive(&self) -> &Arc<dyn Archive> {
        &self.archive
    }

    /// Announce a configured board whose runtime is still being recovered: until it is
    /// registered, it has no view and no control, and [`Hub::readiness`] says why.
    pub fn expect(&self, board: &str) {
        self.write_pending()
            .insert(Arc::from(board), Readiness::Recovering);
    }

    /// A board announced with [`Hub::expect`] will not be registered: its recovery failed.
    pub fn fail(&self, board: &str, why: String) {
        self.write_pending()
            .insert(Arc::from(board), Readiness::Failed(why));
        self.settled.send_modify(|n| *n += 1);
    }

    /// Changes whenever a board is registered or fails (after a restart, as each is recovered).
    pub fn settled(&self) -> watch::Receiver<u64> {
        self.settled.subscribe()
    }

    /// Why a configured board is not served yet; `None` when it is registered, or unknown.
    pub fn readiness(&self, board: &str) -> Option<Readiness> {
        if self.read().contains_key(board) {
            return None;
        }
        self.read_pending().get(board).cloned()
    }

    /// Every configured board not registered yet, in id order.
    pub fn not_ready(&self) -> Vec<(Arc<str>, Readiness)> {
        let ready = self.read();
        self.read_pending()
            .iter()
            .filter(|(board, _)| !ready.contains_key(*board))
            .map(|(board, readiness)| (board.clone(), readiness.clone()))
            .collect()
    }

    /// Register a board's runtime with its initial view: from now on it is served. `last_seq`
    /// is the highest seq the board has journaled (a restart's recovered counter, 0 for a new
    /// board): everything it publishes from now on is numbered above it.
    pub fn register(
        &self,
        board: &str,
        view: Arc<BoardView>,
        control: Arc<dyn BoardControl>,
        last_seq: u64,
    ) {
        let entry = BoardEntry {
            view,
            device: Payload::default(),
            control,
            registered_seq: last_seq,
            published_seq: last_seq,
        };
        self.write().insert(Arc::from(board), entry);
        self.write_pending().remove(board);
        self.settled.send_modify(|n| *n += 1);
    }

    /// Publish a journaled message: updates the board's view or device message, then fans out.
    pub fn publish(&self, message: Published) {
        if let Some(entry) = self.write().get_mut(&message.board) {
            entry.published_seq = entry.published_seq.max(message.seq);
            match (&message.topic, &message.view) {
                // A state, or the message that a press timing the last move rode on.
                (_, Some(view)) => entry.view = view.clone(),
                (Topic::Device, _) => entry.device = message.payload.clone(),
                _ => {}
            }
        }
        self.followers.send(&message);
        // No subscriber is not an error: publishers come and go.
        let _ = self.bus.send(message);
    }

    /// Fan out a message that is not journaled and changes no view (an analysis): to the
    /// board's followers and the bus, as is. Only the public feed calls it, when that feed
    /// is the hub itself (no broadcast delay).
    pub(crate) fn publish_beside(&self, message: Published) {
        self.followers.send(&message);
        // No subscriber is not an error.
        let _ = self.bus.send(message);
    }

    /// Every message published from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Published> {
        self.bus.subscribe()
    }

    /// Every message of `board` published from now on (and no other board's).
    pub fn subscribe_board(&self, board: &Arc<str>) -> broadcast::Receiver<Published> {
        self.followers.subscribe(board)
    }

    /// Ids of the boards served (registered), in order; see [`Hub::not_ready`] for the others.
    pub fn boards(&self) -> Vec<Arc<str>> {
        self.read().keys().cloned().collect()
    }

    /// The highest seq a board had journaled when it was registered: a subscriber that came
    /// before the registration saw nothing of it at or below this seq on the bus.
    pub fn registered_seq(&self, board: &str) -> Option<u64> {
        self.read().get(board).map(|e| e.registered_seq)
    }

    /// The highest seq a board has published (its registered one before the first).
    pub fn published_seq(&self, board: &str) -> Option<u64> {
        self.read().get(board).map(|e| e.published_seq)
    }

    /// The board as of its last published state.
    pub fn view(&self, board: &str) -> Option<Arc<BoardView>> {
        self.read().get(board).map(|e| e.view.clone())
    }

    /// The last device message of a board (empty before the first).
    pub fn device(&self, board: &str) -> Option<Payload> {
        self.read().get(board).map(|e| e.device.clone())
    }

    /// The runtime of a board, to send it requests.
    pub fn control(&self, board: &str) -> Option<Arc<dyn BoardControl>> {
        self.read().get(board).map(|e| e.control.clone())
    }

    /// The runtime of a board, waiting while it recovers; `None` for an unknown board or a
    /// failed recovery.
    pub async fn control_when_ready(&self, board: &str) -> Option<Arc<dyn BoardControl>> {
        let mut settled = self.settled.subscribe();
        loop {
            if let Some(control) = self.control(board) {
                return Some(control);
            }
            if self.readiness(board) != Some(Readiness::Recovering) {
                return None;
            }
            // The sender lives as long as the hub, which `self` holds.
            settled.changed().await.ok()?;
        }
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<Arc<str>, BoardEntry>> {
        // A poisoned lock only means a panic elsewhere mid-insert; the map is still usable.
        self.boards.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<Arc<str>, BoardEntry>> {
        self.boards.write().unwrap_or_else(|e| e.into_inner())
    }

    fn read_pending(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<Arc<str>, Readiness>> {
        self.pending.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write_pending(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<Arc<str>, Readiness>> {
        self.pending.write().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_read_sqlite_refused_is_unavailable_in_sqlites_words() {
        let refused = unreadable(JournalError::Sqlite("disk I/O error".into()));
        assert!(
            matches!(&refused, RequestError::Unavailable(words) if words == "journal (disk I/O error)"),
            "{refused:?}"
        );
    }
}
