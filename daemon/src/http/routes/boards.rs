//! Public reads of live boards: health, every board's live state, one board's full state, its moves since N, its SGF.
//!
//! Every answer is bytes the runtime serialized once per seq; nothing is
//! rebuilt per request but the short framing of lists.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use goban_referee::{Link, MoveRecordsTail};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::SGF_CONTENT_TYPE;
use crate::http::App;
use crate::http::auth::Viewer;
use crate::http::error::ApiError;
use crate::journal::JournalStatus;
use crate::message::Payload;
use crate::publish::hub::Readiness;

/// A JSON document already serialized by the runtime, served as is.
pub(crate) struct FullState(pub(crate) Payload);

impl IntoResponse for FullState {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0.bytes()).into_response()
    }
}

/// GET /health: the daemon, which boards are ready, and each ready board's devices.
#[utoipa::path(
    get,
    path = "/api/v1/health",
    tag = "boards",
    responses((status = 200, description = "Daemon and device health; boards still recovering from the journal are listed", body = crate::http::schema::Health))
)]
pub(crate) async fn handle_health(State(app): State<Arc<App>>) -> Json<Value> {
    let mut boards: Vec<(Arc<str>, Value)> = app
        .hub
        .boards()
        .into_iter()
        .map(|board| {
            let health = board_health(&app, &board);
            (board, health)
        })
        .collect();
    let mut recovering = Vec::new();
    for (board, readiness) in app.hub.not_ready() {
        let error = match readiness {
            Readiness::Recovering => {
                recovering.push(board.clone());
                None
            }
            Readiness::Failed(why) => Some(why),
        };
        let health = json!({ "board": board, "ready": false, "healthy": false, "error": error });
        boards.push((board, health));
    }
    boards.sort_by(|a, b| a.0.cmp(&b.0));
    let journal = app.hub.archive().journal_status().borrow().clone();
    // The desk's alerts (a target refusing results, a ruling contradicted): someone must act.
    let desk_alerts = app
        .tournament
        .as_ref()
        .map(|d| d.alerts())
        .unwrap_or_default();
    let healthy = boards
        .iter()
        .all(|(_, b)| b["healthy"] == Value::Bool(true))
        && journal == JournalStatus::Accepting
        && desk_alerts.is_empty();
    let boards: Vec<Value> = boards.into_iter().map(|(_, health)| health).collect();
    Json(json!({
        "status": if healthy { "ok" } else { "degraded" },
        "version": env!("CARGO_PKG_VERSION"),
        "uptime_ms": u64::try_from(app.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        "broadcast_delay_ms": u64::try_from(app.broadcast_delay.as_millis()).unwrap_or(u64::MAX),
        "journal": journal_health(&journal),
        "recovering": recovering,
        "boards": boards,
        "tournament": { "alerts": desk_alerts },
    }))
}

/// The journal's part of `/health`: `ok`, or `refusing` with since when and why.
fn journal_health(status: &JournalStatus) -> Value {
    match status {
        JournalStatus::Accepting => json!({ "status": "ok" }),
        JournalStatus::Refusing { since_ms, cause } => json!({
            "status": "refusing",
            "since": goban_referee::Timestamp(*since_ms).to_rfc3339(),
            "cause": cause,
            "alert": "the journal refuses writes (disk full or read-only?): new moves, clock readings \
                      and alerts wait unpublished until it accepts them again",
        }),
    }
}

fn board_health(app: &App, board: &str) -> Value {
    let Some(view) = app.hub.view(board) else {
        return json!({ "board": board, "ready": false, "healthy": false });
    };
    let device = &view.state.device;
    let healthy = device.board == Link::Connected && device.clock == Link::Connected;
    let report = app
        .hub
        .device(board)
        .filter(|p| !p.is_empty())
        .map_or(Value::Null, |p| p.value());
    json!({ "board": board, "ready": true, "healthy": healthy, "device": device, "report": report })
}

/// GET /boards: the live (v2, without `moves`) state of every board, in id order (delayed for the public).
#[utoipa::path(
    get,
    path = "/api/v1/boards",
    tag = "boards",
    responses(
        (status = 200, description = "The live state of every board in id order: the SSE/MQTT `state` message (v2, `last_move` instead of `moves`)", body = Vec<crate::http::schema::LiveBoardState>),
        (status = 401, description = "Authorization header present but invalid", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_boards(State(app): State<Arc<App>>, viewer: Viewer) -> Response {
    let feed = app.feed(&viewer);
    let views: Vec<_> = app
        .hub
        .boards()
        .iter()
        .filter_map(|board| feed.view(board))
        .collect();
    let mut body = Vec::with_capacity(views.iter().map(|v| v.live.len() + 1).sum::<usize>() + 2);
    body.push(b'[');
    for (i, view) in views.iter().enumerate() {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(view.live.as_str().as_bytes());
    }
    body.push(b']');
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// GET /boards/{board}: the full board state of api.md, `moves` included.
#[utoipa::path(
    get,
    path = "/api/v1/boards/{board}",
    tag = "boards",
    params(("board" = String, Path, description = "Board id from the config")),
    responses(
        (status = 200, description = "The board state (delayed for the public when a broadcast delay is set)", body = crate::http::schema::BoardState),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`)", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_board(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(board): Path<String>,
) -> Result<FullState, ApiError> {
    let view = app
        .feed(&viewer)
        .view(&board)
        .ok_or_else(|| app.missing(&board))?;
    Ok(FullState(view.full()))
}

/// Query of `GET /boards/{board}/moves`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub(crate) struct MovesQuery {
    /// Only moves with a number above this (all when absent).
    #[param(minimum = 0, maximum = 4_294_967_295_u64, format = Int64)]
    since: Option<u32>,
}

/// The answer of `GET /boards/{board}/moves`.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct MovesPage<'a> {
    /// Board id.
    board: &'a str,
    /// Game id, or null before a game.
    game: Option<&'a str>,
    /// Seq of the state these moves are from.
    seq: u64,
    /// The `since` asked (0 when absent).
    since: u32,
    /// Moves with `number > since`, oldest first.
    #[schema(value_type = Vec<goban_referee::MoveRecord>)]
    moves: MoveRecordsTail<'a>,
}

/// GET /boards/{board}/moves?since=N: the move list, or its tail, for clients that catch up.
#[utoipa::path(
    get,
    path = "/api/v1/boards/{board}/moves",
    tag = "boards",
    params(("board" = String, Path, description = "Board id from the config"), MovesQuery),
    responses(
        (status = 200, description = "Moves numbered above `since` (delayed for the public)", body = MovesPage),
        (status = 400, description = "`since` is not a number", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`)", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_moves(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(board): Path<String>,
    Query(query): Query<MovesQuery>,
) -> Result<FullState, ApiError> {
    let view = app
        .feed(&viewer)
        .view(&board)
        .ok_or_else(|| app.missing(&board))?;
    let since = query.since.unwrap_or(0);
    let moves = &view.state.moves;
    // Moves are numbered 1.. in order; the tail starts at index `since`.
    let start = moves.partition_point(|m| m.number <= since);
    let page = MovesPage {
        board: &view.state.board,
        game: view.state.game.as_deref(),
        seq: view.seq(),
        since,
        moves: moves.tail_from(start),
    };
    Payload::json(&page)
        .map(FullState)
        .map_err(|err| ApiError::Unavailable(format!("moves did not serialize: {err}")))
}

/// Query of `GET /boards/{board}/sgf`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub(crate) struct SgfQuery {
    /// `true`: the engine's analysis the public was shown, as comments and Sabaki's `SBKV`.
    analysis: Option<bool>,
}

/// GET /boards/{board}/sgf: the game as SGF, by the rules core's writer; the public gets the delayed one.
#[utoipa::path(
    get,
    path = "/api/v1/boards/{board}/sgf",
    tag = "boards",
    params(("board" = String, Path, description = "Board id from the config"), SgfQuery),
    responses(
        (status = 200, description = "SGF FF[4] of the current game", content_type = "application/x-go-sgf", body = String),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`)", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_board_sgf(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(board): Path<String>,
    Query(query): Query<SgfQuery>,
) -> Result<Response, ApiError> {
    let view = app
        .feed(&viewer)
        .view(&board)
        .ok_or_else(|| app.missing(&board))?;
    if query.analysis == Some(true) {
        return sgf_with_analysis(&app, &board, &view);
    }
    let text = view.sgf().map_err(|err| {
        tracing::error!(board = %board, cause = %err, "the live SGF could not be written");
        ApiError::Unavailable(format!(
            "the SGF of board {board:?} could not be written: {err}"
        ))
    })?;
    let text = text.to_string();
    Ok(([(header::CONTENT_TYPE, SGF_CONTENT_TYPE)], text).into_response())
}

/// The SGF with the analysis the public was shown: written for this request, not kept.
fn sgf_with_analysis(
    app: &App,
    board: &str,
    view: &crate::message::BoardView,
) -> Result<Response, ApiError> {
    let state = &view.state;
    let text = match (view.sgf_header(), &app.analysis) {
        (Some(header), Some(store)) => {
            let history = store.history(board, state.game.as_deref());
            let engine = store.engine();
            let unit = state.ruleset.score_unit();
            let notes = crate::analysis::sgf_notes::notes(&history, engine.as_ref(), unit);
            state.sgf_with_notes(header, &notes)
        }
        _ => view.sgf().map(|text| text.to_string()),
    };
    let text = text.map_err(|err| {
        tracing::error!(board = %board, cause = %err, "the SGF with analysis could not be written");
        ApiError::Unavailable(format!(
            "the SGF of board {board:?} could not be written: {err}"
        ))
    })?;
    Ok(([(header::CONTENT_TYPE, SGF_CONTENT_TYPE)], text).into_response())
}
