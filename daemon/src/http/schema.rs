//! OpenAPI schemas of the daemon's own answers (lists, health, SSE events, errors); documentation only.
//!
//! The board state and its parts are the referee's and the rules' types, whose schemas derive
//! from them (feature `openapi`); the types here describe JSON the daemon builds itself, for
//! /openapi.json, and are never used to parse or reshape it.

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

/// Every error answer is an RFC 9457 problem; the handlers' annotations name it `ErrorBody`.
pub(crate) use super::error::Problem as ErrorBody;
/// The board state is the referee's own type; the handlers' annotations name it here.
pub(crate) use goban_referee::BoardState;
/// The live state (v2) is the referee's borrowed view; its schema is named `LiveBoardState`.
pub(crate) use goban_referee::LiveState as LiveBoardState;

/// GET /boards: one summary per board, fields copied from its (possibly delayed) state.
#[derive(Serialize, ToSchema)]
pub(crate) struct BoardList {
    /// Board summaries in id order: `board`, `game`, `phase`, `move_number`, `to_move`, `result`, `seq`, ...
    #[schema(value_type = Vec<Object>)]
    boards: Vec<Value>,
}

/// GET /games: finished games, newest first.
#[derive(Serialize, ToSchema)]
pub(crate) struct GameList {
    /// Game summaries as the journal keeps them.
    #[schema(value_type = Vec<Object>)]
    games: Vec<Value>,
}

/// Health of one board's devices.
#[derive(Serialize, ToSchema)]
pub(crate) struct BoardHealth {
    /// Board id.
    board: String,
    /// True once the board is rebuilt from the journal and served; false while it recovers
    /// after a restart (its routes answer 503 `recovering` until then) or when that failed.
    ready: bool,
    /// True when the board is ready and every device of the board reports `connected`.
    healthy: bool,
    /// The `device` field of the live state (ready boards only).
    #[schema(value_type = Object, required = false)]
    device: Option<Value>,
    /// The last `device` message (connection and error counters), null before the first
    /// (ready boards only).
    #[schema(value_type = Option<Object>)]
    report: Option<Value>,
    /// Why the board's recovery from the journal failed (a board that will not become ready
    /// until the daemon restarts); null or absent otherwise.
    error: Option<String>,
}

/// The journal's health in GET /health.
#[derive(Serialize, ToSchema)]
pub(crate) struct JournalHealth {
    /// `ok`, or `refusing` while commits fail (disk full, read-only file): new messages
    /// then wait unpublished, and are published in order once a commit succeeds again.
    #[schema(example = "ok")]
    status: String,
    /// With `refusing`: when the first refused commit failed (RFC 3339).
    since: Option<String>,
    /// With `refusing`: SQLite's words for that failure.
    cause: Option<String>,
    /// With `refusing`: the alert in words, for an operator.
    alert: Option<String>,
}

/// GET /health.
#[derive(Serialize, ToSchema)]
pub(crate) struct Health {
    /// `ok`, or `degraded` when a device is not connected or the journal refuses writes.
    status: String,
    /// Daemon version.
    version: String,
    /// Time since the API started.
    uptime_ms: u64,
    /// Broadcast delay applied to public views.
    broadcast_delay_ms: u64,
    /// Whether the journal takes writes.
    journal: JournalHealth,
    /// Boards still being rebuilt from the journal after a restart, in id order (empty once
    /// every board is served). Nothing of a board is published before it is ready.
    recovering: Vec<String>,
    /// Per board, in id order, ready or not.
    boards: Vec<BoardHealth>,
    /// The tournament desk's alerts (docs/tournament.md); any makes `status` `degraded`.
    tournament: TournamentHealth,
}

/// The tournament desk's part of GET /health.
#[derive(Serialize, ToSchema)]
pub(crate) struct TournamentHealth {
    /// The desk's alerts up now (also `GET /tournament/alerts`, MQTT `tournament/alerts`).
    alerts: Vec<crate::tournament::alerts::DeskAlert>,
}

/// One Server-Sent Event of the event streams, as an SSE parser yields it.
#[derive(Serialize, ToSchema)]
pub(crate) struct SseEvent {
    /// The topic (`state`, `moves`, `infractions`, `clock`, `device`, `audit`), or `error`
    /// when the stream cannot go on (then it closes).
    #[schema(example = "state")]
    event: Option<String>,
    /// The message: the JSON of the topic's payload, with `v`, `seq` and `board`.
    #[schema(content_media_type = "application/json")]
    data: String,
    /// The message's `seq` (per-board streams: send it back as `Last-Event-ID` to resume).
    #[schema(pattern = "^[0-9]+$")]
    id: Option<String>,
}
