//! What a board publishes: one message (`Published`), its topic, its JSON serialized once, and the board view a state carries.
//!
//! The runtime serializes a message once; the same bytes go to the journal,
//! SSE, MQTT and REST. These types sit below everything that handles a
//! message (runtime, journal, the publish side, HTTP, MQTT) and import none of them.

use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use goban_referee::{BoardState, SgfHeader};
use serde::{Deserialize, Serialize};

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

/// A message as the ledger numbers it: the schema version and the board's `seq`, then the
/// body's own fields (`{"v":1,"seq":812,"board":...}`, api.md "Messages"). The ledger is a
/// board's only counter: the referee's events and the daemon's device reports carry no number
/// of their own, and get this one where they are serialized, once.
#[derive(Serialize)]
pub(crate) struct Numbered<'a, T> {
    /// Schema version ([`goban_referee::SCHEMA_VERSION`]).
    v: u8,
    /// The board's seq for this message.
    seq: u64,
    #[serde(flatten)]
    body: &'a T,
}

impl<'a, T: Serialize> Numbered<'a, T> {
    /// `body` as message `seq` of its board.
    pub(crate) fn new(seq: u64, body: &'a T) -> Self {
        Self {
            v: goban_referee::SCHEMA_VERSION,
            seq,
            body,
        }
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
