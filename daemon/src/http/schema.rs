//! OpenAPI schemas of the JSON the API answers with (board state of api.md, lists, errors); documentation only.
//!
//! The runtime hands states over as JSON; these types describe that JSON for
//! /openapi.json and are never used to parse or reshape it.

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use goban_referee::clock::ClockReading;
use goban_referee::{AuditEntry, DeviceState, Infraction, MoveRecord, PerColor, SekiMark};
use goban_rules::Color;
use goban_rules::score::Score;

/// Every error answer is an RFC 9457 problem; the handlers' annotations name it `ErrorBody`.
pub(crate) use super::error::Problem as ErrorBody;

/// The board state of api.md (GET /boards/{board}, SSE `state` events, MQTT `state`).
#[derive(Serialize, ToSchema)]
pub(crate) struct BoardState {
    /// Schema version, 1.
    v: u32,
    /// Per-board counter that only grows, also across restarts.
    seq: u64,
    /// Board id.
    #[schema(example = "table-1")]
    board: String,
    /// Current game id, null before the first game.
    #[schema(example = "2026-11-30-table-1-1")]
    game: Option<String>,
    /// Board size.
    size: u32,
    /// `cn2002 | jk | ing | historical`.
    ruleset: String,
    /// Komi in points.
    komi: f64,
    /// size*size chars of `.`, `B`, `W` in the index order of wire-protocol.md.
    position: String,
    /// Moves played so far.
    move_number: u32,
    /// Side to move.
    to_move: Color,
    /// The game record.
    moves: Vec<MoveRecord>,
    /// Prisoners taken by each side.
    captures: PerColor,
    /// Clock reading.
    clock: Option<ClockReading>,
    /// Alerts of this game.
    infractions: Vec<Infraction>,
    /// Warnings per side (CN2002 24).
    warnings: PerColor,
    /// Device connections.
    device: DeviceState,
    /// `setup | playing | paused | counting | finished`.
    #[schema(example = "playing")]
    phase: String,
    /// SGF `RE` form with the margin in `result_unit`, e.g. `B+0.75` (stones, cn2002), `W+6.5`
    /// (points, jk), `B+R`, `W+T`; null while playing.
    result: Option<String>,
    /// The counted score during counting, or `B+R`/`W+R` while a resignation signal
    /// (two own stones at one's lower-right corner) waits for the arbiter's `POST /result`.
    proposed_result: Option<String>,
    /// `stones` under cn2002 and historical (1 stone = 2 points), `points` under jk and ing.
    #[schema(example = "stones")]
    result_unit: String,
    /// The count behind `proposed_result`, or behind `result` when the count gave it; null otherwise.
    count: Option<Score>,
    /// Stones counted dead ("D4"): while counting, and kept in the final state.
    dead_stones: Vec<String>,
    /// The arbiter's seki rulings (`POST /seki`), by the stone that named each group.
    seki: Vec<SekiMark>,
    /// The physical end signal waiting for the arbiter or the other player (CN2002), or null:
    /// `{"signal": "resignation", "color", "points", "move_number"}`,
    /// `{"signal": "agreed_end_proposed", "color", "move_number"}` or
    /// `{"signal": "out_of_order", "zone", "stone", "move_number"}`.
    #[schema(value_type = Option<Object>)]
    end_signal: Option<Value>,
    /// Every arbiter action of the game, oldest first.
    audit: Vec<AuditEntry>,
}

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

/// The live state (v2) of api.md: `GET /boards` lists them, SSE and MQTT `state` carry them.
/// Every field of [`BoardState`] but `moves`, plus `last_move`, the sensors and the players.
#[derive(Serialize, ToSchema)]
pub(crate) struct LiveBoardState {
    /// Schema version, 2.
    v: u32,
    /// Per-board counter that only grows, also across restarts.
    seq: u64,
    /// Board id.
    #[schema(example = "table-1")]
    board: String,
    /// Current game id, null before the first game.
    game: Option<String>,
    /// Board size.
    size: u32,
    /// `cn2002 | jk | ing | historical`.
    ruleset: String,
    /// Komi in points.
    komi: f64,
    /// size*size chars of `.`, `B`, `W`.
    position: String,
    /// Moves played so far.
    move_number: u32,
    /// Side to move.
    to_move: Color,
    /// The newest move, or null before the first.
    last_move: Option<LastMove>,
    /// Prisoners taken by each side.
    captures: PerColor,
    /// Clock reading.
    clock: Option<ClockReading>,
    /// Alerts of this game.
    infractions: Vec<Infraction>,
    /// Warnings per side (CN2002 24).
    warnings: PerColor,
    /// Device connections.
    device: DeviceState,
    /// `setup | playing | paused | counting | finished`.
    phase: String,
    /// Final result, null while playing.
    result: Option<String>,
    /// The counted score or a resignation signal waiting for the arbiter.
    proposed_result: Option<String>,
    /// `stones` or `points`.
    result_unit: String,
    /// The count behind the (proposed) result.
    count: Option<Score>,
    /// The physical end signal waiting for the arbiter or the other player, or null.
    #[schema(value_type = Option<Object>)]
    end_signal: Option<Value>,
    /// Stones counted dead.
    dead_stones: Vec<String>,
    /// The arbiter's seki rulings.
    seki: Vec<SekiMark>,
    /// Every arbiter action of the game, oldest first.
    audit: Vec<AuditEntry>,
    /// The sensors' reading after debouncing, size*size chars of `.`, `B`, `W`, `?`, only
    /// while it differs from `position` (a stone off its point, captured stones still on the
    /// board, a hand over it); absent when the board reads as `position`. The full state
    /// (`GET /boards/{board}`) always has it.
    #[schema(required = false)]
    physical: Option<String>,
    /// What to change on the board to restore the game position.
    #[schema(value_type = Object)]
    guidance: Value,
    /// Black player.
    black: String,
    /// White player.
    white: String,
}

/// The newest move in the live state.
#[derive(Serialize, ToSchema)]
pub(crate) struct LastMove {
    /// 1 for the first move.
    number: u32,
    /// Who played.
    color: Color,
    /// Letters-and-numbers point (`Q16`) or `pass`.
    #[schema(example = "Q16")]
    point: String,
    /// The mover's remaining time after the move, when a clock runs; null until the press
    /// that completes the move. That press publishes no new state: its update goes on `moves`
    /// (a `correction` with `was` = `now` and the times) and `clock`; `GET /boards/{board}`
    /// has it at once.
    time_left_ms: Option<u64>,
    /// The mover's byo-yomi periods (or Canadian moves) left, when a clock runs; null until
    /// the press, like `time_left_ms`.
    periods_left: Option<u32>,
}
