//! The registry handle shared by board supervisors, REST/SSE and MQTT: current states, the event bus and arbiter requests.
//!
//! This is the seam between the board runtime (supervisor, journal, referee)
//! and the publishers (HTTP, MQTT). Publishers only ever see `Hub`; the
//! runtime implements [`BoardControl`] per board and registers it here.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

/// Which MQTT topic / SSE event name a published message belongs to (api.md "MQTT").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Topic {
    /// `<prefix>/boards/<board>/state`, retained, QoS 1.
    State,
    /// `<prefix>/boards/<board>/moves`, QoS 1.
    Moves,
    /// `<prefix>/boards/<board>/infractions`, QoS 1.
    Infractions,
    /// `<prefix>/boards/<board>/clock`, QoS 0.
    Clock,
    /// `<prefix>/boards/<board>/device`, retained, QoS 1.
    Device,
}

/// One message as published: already journaled, numbered with the board's `seq`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Published {
    /// Board id from the config.
    pub board: String,
    /// Per-board counter that only grows, also across restarts (api.md).
    pub seq: u64,
    /// Topic / SSE event name.
    pub topic: Topic,
    /// Host time of the effect, milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// JSON payload carrying `v` and `seq`.
    #[serde(with = "arc_json")]
    pub payload: Arc<serde_json::Value>,
}

/// Serde for `Arc<Value>` without serde's `rc` feature: the payload is written as plain JSON.
mod arc_json {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(
        value: &Arc<serde_json::Value>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value.as_ref().serialize(serializer)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Arc<serde_json::Value>, D::Error> {
        serde_json::Value::deserialize(deserializer).map(Arc::new)
    }
}

/// An arbiter's request as the REST API accepts it (api.md "Arbiter request bodies").
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "snake_case")]
pub enum ArbiterRequest {
    /// POST /boards/{board}/game; every field optional, defaulting to the board's config.
    StartGame(serde_json::Value),
    /// POST /boards/{board}/infractions/{id}/ruling.
    Ruling {
        /// Infraction id.
        id: String,
        /// The ruling body (`action`, `note`).
        body: serde_json::Value,
    },
    /// POST /boards/{board}/clock.
    Clock(serde_json::Value),
    /// POST /boards/{board}/dead-stones.
    DeadStones(serde_json::Value),
    /// POST /boards/{board}/result.
    Result(serde_json::Value),
    /// Any arbiter route: the referee's typed command, signed, built by the HTTP layer.
    Act(goban_referee::ArbiterAct),
}

/// Why an arbiter request was refused; maps to a 4xx with a JSON body.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// No board with that id.
    #[error("unknown board {0}")]
    UnknownBoard(String),
    /// The body or the request does not fit the game (bad field, wrong phase, unknown infraction).
    #[error("{0}")]
    Rejected(String),
    /// The board runtime is stopping or gone.
    #[error("board {0} is not running")]
    Unavailable(String),
}

/// What the runtime of one board offers to publishers.
pub trait BoardControl: Send + Sync {
    /// Apply an arbiter request (journaled first) and answer with the new live state.
    fn request(
        &self,
        request: ArbiterRequest,
        who: String,
    ) -> futures::future::BoxFuture<'static, Result<serde_json::Value, RequestError>>;
    /// The live SGF of the current game.
    fn sgf(&self) -> String;
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
}

struct BoardEntry {
    state: Arc<serde_json::Value>,
    device: Arc<serde_json::Value>,
    control: Arc<dyn BoardControl>,
}

/// Cheap cloneable handle over every board of the daemon.
#[derive(Clone)]
pub struct Hub {
    boards: Arc<RwLock<BTreeMap<String, BoardEntry>>>,
    bus: broadcast::Sender<Published>,
    archive: Arc<dyn Archive>,
}

impl Hub {
    /// A hub whose bus keeps `capacity` messages for slow subscribers.
    pub fn new(capacity: usize, archive: Arc<dyn Archive>) -> Self {
        let (bus, _) = broadcast::channel(capacity);
        Self {
            boards: Arc::default(),
            bus,
            archive,
        }
    }

    /// The journal's read side.
    pub fn archive(&self) -> &Arc<dyn Archive> {
        &self.archive
    }

    /// Register a board's runtime with its initial state.
    pub fn register(&self, board: &str, state: serde_json::Value, control: Arc<dyn BoardControl>) {
        let entry = BoardEntry {
            state: Arc::new(state),
            device: Arc::new(serde_json::Value::Null),
            control,
        };
        self.write().insert(board.to_owned(), entry);
    }

    /// Publish a journaled message: updates the cached state/device and fans out.
    pub fn publish(&self, message: Published) {
        if let Some(entry) = self.write().get_mut(&message.board) {
            match message.topic {
                Topic::State => entry.state = message.payload.clone(),
                Topic::Device => entry.device = message.payload.clone(),
                _ => {}
            }
        }
        // No subscriber is not an error: publishers come and go.
        let _ = self.bus.send(message);
    }

    /// Every message published from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Published> {
        self.bus.subscribe()
    }

    /// Board ids in order.
    pub fn boards(&self) -> Vec<String> {
        self.read().keys().cloned().collect()
    }

    /// The live state of a board.
    pub fn state(&self, board: &str) -> Option<Arc<serde_json::Value>> {
        self.read().get(board).map(|e| e.state.clone())
    }

    /// The last device message of a board.
    pub fn device(&self, board: &str) -> Option<Arc<serde_json::Value>> {
        self.read().get(board).map(|e| e.device.clone())
    }

    /// The runtime of a board, to send it requests.
    pub fn control(&self, board: &str) -> Option<Arc<dyn BoardControl>> {
        self.read().get(board).map(|e| e.control.clone())
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, BoardEntry>> {
        // A poisoned lock only means a panic elsewhere mid-insert; the map is still usable.
        self.boards.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<String, BoardEntry>> {
        self.boards.write().unwrap_or_else(|e| e.into_inner())
    }
}
