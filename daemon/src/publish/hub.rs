//! The registry handle shared by board supervisors, REST/SSE and MQTT: board views, the event bus and arbiter commands.
//!
//! This is the seam between the board runtime (supervisor, journal, referee)
//! and the publishers (HTTP, MQTT). Publishers only ever see `Hub`; the
//! runtime implements [`BoardControl`] per board and registers it here.
//! Everything crossing it is typed or already-serialized JSON ([`Payload`]):
//! a message is serialized once, by the runtime, and the same bytes go to
//! the journal, SSE, MQTT and REST.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock, RwLock};

use bytes::Bytes;
use goban_referee::{BoardState, SgfHeader};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, watch};

use super::followers::BoardFollowers;

/// Which MQTT topic / SSE event name a published message belongs to (api.md "MQTT").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
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
    /// `<prefix>/boards/<board>/audit`, QoS 1: one `arbiter_action` per arbiter action.
    Audit,
    /// `<prefix>/boards/<board>/analysis`, retained, QoS 0: an engine's view of a position,
    /// released with that position (never journaled; `seq` is the analysed state's).
    Analysis,
}

impl Topic {
    /// The topic's name in MQTT topics, SSE event names and the journal.
    pub fn name(self) -> &'static str {
        match self {
            Self::State => "state",
            Self::Moves => "moves",
            Self::Infractions => "infractions",
            Self::Clock => "clock",
            Self::Device => "device",
            Self::Audit => "audit",
            Self::Analysis => "analysis",
        }
    }

    /// The topic of a name.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "state" => Self::State,
            "moves" => Self::Moves,
            "infractions" => Self::Infractions,
            "clock" => Self::Clock,
            "device" => Self::Device,
            "audit" => Self::Audit,
            "analysis" => Self::Analysis,
            _ => return None,
        })
    }
}

/// A JSON document serialized once; cloning shares the bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Payload(Bytes);

impl Payload {
    /// Serialize `value` (our own types: this only fails on a non-string map key, which we never use).
    pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<Self, serde_json::Error> {
        serde_json::to_vec(value).map(|mut v| {
            // The writer grows its buffer by doubling; a message is kept (views, retained
            // topics, queues), so it keeps only its own bytes.
            v.shrink_to_fit();
            Self(Bytes::from(v))
        })
    }

    /// Wrap JSON text read back from the journal.
    pub fn from_text(text: String) -> Self {
        Self(Bytes::from(text))
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        // Built only from `serde_json` output or a `String`: always UTF-8.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// The bytes, shared.
    pub fn bytes(&self) -> Bytes {
        self.0.clone()
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No bytes (a board with no device message yet).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Parsed, for tests and the rare reader that needs fields.
    pub fn value(&self) -> serde_json::Value {
        serde_json::from_slice(&self.0).unwrap_or(serde_json::Value::Null)
    }
}

/// Our own types always serialize; an empty payload would show the slip without crashing.
fn serialized(value: Result<Payload, serde_json::Error>) -> Payload {
    value.unwrap_or_else(|err| {
        tracing::error!(cause = %err, "board state did not serialize");
        Payload::default()
    })
}

/// One board as of one `seq`: the typed state and its serializations, each made at most once.
#[derive(Debug)]
pub struct BoardView {
    /// The full state (with `moves`), `seq` set.
    pub state: BoardState,
    /// The live (v2) state without `moves`: the `state` message.
    pub live: Payload,
    /// The full state as `GET /boards/{board}` serves it: serialized on the first request, since
    /// it holds the whole move list and most views are replaced before anyone asks for them.
    full: OnceLock<Payload>,
    /// What the game's SGF holds besides the state (`None` before a game), shared by the
    /// views of one game.
    sgf_header: Option<Arc<SgfHeader>>,
    /// The game so far as SGF, by the rules core's writer: written on the first request, as
    /// it costs as much as the game is long and most views are replaced before anyone asks.
    sgf: OnceLock<Arc<str>>,
}

impl BoardView {
    /// The view of `state`, its live message serialized now; `sgf_header` is the game's
    /// ([`goban_referee::Referee::sgf_header`]).
    pub fn build(state: BoardState, sgf_header: Option<Arc<SgfHeader>>) -> Arc<Self> {
        let live = serialized(Payload::json(&state.live()));
        Self::with_live(state, sgf_header, live)
    }

    /// A view whose live message is already serialized: `live` must be `state.live()` as of
    /// `state.seq` (a recovered board, or a press that only timed the last move).
    pub(crate) fn with_live(
        state: BoardState,
        sgf_header: Option<Arc<SgfHeader>>,
        live: Payload,
    ) -> Arc<Self> {
        Arc::new(Self {
            live,
            full: OnceLock::new(),
            state,
            sgf_header,
            sgf: OnceLock::new(),
        })
    }

    /// The full state (with `moves`) as `GET /boards/{board}` serves it, serialized once.
    pub fn full(&self) -> Payload {
        self.full
            .get_or_init(|| serialized(Payload::json(&self.state)))
            .clone()
    }

    /// The game so far as SGF (empty before a game), written once.
    ///
    /// # Errors
    /// The state's moves do not play again from the header's opening (never for a view the
    /// runtime built: both come from one referee).
    pub fn sgf(&self) -> Result<Arc<str>, goban_referee::SgfError> {
        if let Some(text) = self.sgf.get() {
            return Ok(text.clone());
        }
        let text: Arc<str> = Arc::from(self.write_sgf()?);
        Ok(self.sgf.get_or_init(|| text).clone())
    }

    /// The SGF for one use (a finished game's archive record), not kept by the view.
    pub(crate) fn sgf_unkept(&self) -> Result<String, goban_referee::SgfError> {
        match self.sgf.get() {
            Some(text) => Ok(text.to_string()),
            None => self.write_sgf(),
        }
    }

    fn write_sgf(&self) -> Result<String, goban_referee::SgfError> {
        match &self.sgf_header {
            Some(header) => self.state.sgf(header),
            None => Ok(String::new()),
        }
    }

    /// The SGF header of this view's game, to share with the next view of the same game.
    pub(crate) fn sgf_header(&self) -> Option<&Arc<SgfHeader>> {
        self.sgf_header.as_ref()
    }

    /// The full state for one use, made now unless a request already made it, and not kept.
    pub(crate) fn full_unkept(&self) -> Payload {
        match self.full.get() {
            Some(full) => full.clone(),
            None => serialized(Payload::json(&self.state)),
        }
    }

    /// A board rebuilt after a restart, as of the last `state` message it published: that
    /// message's seq and exact bytes for the live view (republished to a broker that lost its
    /// retained messages, it must not differ from what went out under that seq).
    pub fn recovered(
        mut state: BoardState,
        sgf_header: Option<Arc<SgfHeader>>,
        seq: u64,
        live: String,
    ) -> Arc<Self> {
        state.seq = seq;
        Self::with_live(state, sgf_header, Payload::from_text(live))
    }

    /// The seq of this view.
    pub fn seq(&self) -> u64 {
        self.state.seq
    }
}

/// One message as published: already journaled, numbered with the board's `seq`.
#[derive(Clone, Debug)]
pub struct Published {
    /// Board id from the config.
    pub board: Arc<str>,
    /// Per-board counter that only grows, also across restarts (api.md).
    pub seq: u64,
    /// Topic / SSE event name.
    pub topic: Topic,
    /// Host time of the effect, milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The JSON payload carrying `v` and `seq`.
    pub payload: Payload,
    /// For a live `state` message: the board as of this seq (absent when read back from the
    /// journal). Also on the newest message of a commit whose press only timed the last move:
    /// the full view with that time, the live state unchanged (its seq and bytes).
    pub view: Option<Arc<BoardView>>,
}

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
    fn journal_status(&self) -> tokio::sync::watch::Receiver<crate::journal::JournalStatus> {
        tokio::sync::watch::channel(crate::journal::JournalStatus::Accepting).1
    }
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
