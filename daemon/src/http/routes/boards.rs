//! Public reads of live boards: health, the board list, one board's state and its SGF.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::SGF_CONTENT_TYPE;
use crate::http::App;
use crate::http::auth::Viewer;
use crate::http::delay::Feed;
use crate::http::error::ApiError;
use crate::http::sgf;

/// State fields copied into a board summary when present.
const SUMMARY_FIELDS: [&str; 15] = [
    "v",
    "seq",
    "board",
    "game",
    "black",
    "white",
    "size",
    "ruleset",
    "komi",
    "players",
    "phase",
    "move_number",
    "to_move",
    "result",
    "device",
];

/// GET /health: the daemon and each board's devices.
#[utoipa::path(
    get,
    path = "/api/v1/health",
    tag = "boards",
    responses((status = 200, description = "Daemon and device health", body = crate::http::schema::Health))
)]
pub(crate) async fn handle_health(State(app): State<Arc<App>>) -> Json<Value> {
    let boards: Vec<Value> = app
        .hub
        .boards()
        .into_iter()
        .map(|board| board_health(&app, &board))
        .collect();
    let healthy = boards.iter().all(|b| b["healthy"] == Value::Bool(true));
    Json(json!({
        "status": if healthy { "ok" } else { "degraded" },
        "version": env!("CARGO_PKG_VERSION"),
        "uptime_ms": u64::try_from(app.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        "broadcast_delay_ms": u64::try_from(app.broadcast_delay.as_millis()).unwrap_or(u64::MAX),
        "boards": boards,
    }))
}

fn board_health(app: &App, board: &str) -> Value {
    let device = app
        .hub
        .state(board)
        .and_then(|s| s.get("device").cloned())
        .unwrap_or_default();
    let report = app
        .hub
        .device(board)
        .map(|d| d.as_ref().clone())
        .unwrap_or_default();
    json!({ "board": board, "healthy": links_connected(&device), "device": device, "report": report })
}

/// Both device links of the state's `device` field are `connected` (other fields are counters).
fn links_connected(device: &Value) -> bool {
    ["board", "clock"]
        .iter()
        .all(|link| device[link] == "connected")
}

/// GET /boards: every board with its current game summary (delayed for the public).
#[utoipa::path(
    get,
    path = "/api/v1/boards",
    tag = "boards",
    responses(
        (status = 200, description = "Board summaries in id order", body = crate::http::schema::BoardList),
        (status = 401, description = "Authorization header present but invalid", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_boards(State(app): State<Arc<App>>, viewer: Viewer) -> Json<Value> {
    let feed = app.feed(&viewer);
    let boards: Vec<Value> = app
        .hub
        .boards()
        .into_iter()
        .map(|board| summary(&feed, &board))
        .collect();
    Json(json!({ "boards": boards }))
}

fn summary(feed: &Feed, board: &str) -> Value {
    let mut out = Map::new();
    out.insert("board".to_owned(), Value::String(board.to_owned()));
    if let Some(state) = feed.state(board) {
        for field in SUMMARY_FIELDS {
            if let Some(value) = state.get(field) {
                out.insert(field.to_owned(), value.clone());
            }
        }
    }
    Value::Object(out)
}

/// GET /boards/{board}: the full board state of api.md.
#[utoipa::path(
    get,
    path = "/api/v1/boards/{board}",
    tag = "boards",
    params(("board" = String, Path, description = "Board id from the config")),
    responses(
        (status = 200, description = "The board state (delayed for the public when a broadcast delay is set)", body = crate::http::schema::BoardState),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_board(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(board): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let state = app
        .feed(&viewer)
        .state(&board)
        .ok_or(ApiError::UnknownBoard(board))?;
    Ok(Json(state.as_ref().clone()))
}

/// GET /boards/{board}/sgf: the live game as SGF; the public gets it rebuilt from the delayed state.
#[utoipa::path(
    get,
    path = "/api/v1/boards/{board}/sgf",
    tag = "boards",
    params(("board" = String, Path, description = "Board id from the config")),
    responses(
        (status = 200, description = "SGF FF[4] of the current game", content_type = "application/x-go-sgf", body = String),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_board_sgf(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(board): Path<String>,
) -> Result<Response, ApiError> {
    let control = app.control(&board)?;
    let feed = app.feed(&viewer);
    let text = if feed.is_delayed() {
        let state = feed.state(&board).ok_or(ApiError::UnknownBoard(board))?;
        sgf::from_state(&state)
    } else {
        control.sgf()
    };
    Ok(([(header::CONTENT_TYPE, SGF_CONTENT_TYPE)], text).into_response())
}
