//! Arbiter requests: start a game, rule on an alert, run the clock, mark dead stones, set the result.
//!
//! Each handler authenticates first, reads its body strictly, checks what it can
//! against the live state, then hands one `ArbiterRequest` to the board's runtime,
//! which journals it before any effect; bad input never reaches the runtime.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use serde::Serialize;
use serde_json::Value;

use crate::http::App;
use crate::http::auth::{Arbiter, Identity};
use crate::http::bodies::{Body, ClockBody, DeadStonesBody, ResultBody, RulingBody, StartGameBody};
use crate::http::error::ApiError;
use crate::hub::ArbiterRequest;

/// Largest board of the letters-and-numbers notation (A..Z without I).
const MAX_SIZE: u32 = 25;

/// POST /boards/{board}/game: start a new game and its clock.
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/game",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = StartGameBody, description = "Every field optional; defaults from the board's config"),
    responses(
        (status = 200, description = "The new board state", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 409, description = "Refused by the game (e.g. wrong phase)", body = crate::http::schema::ErrorBody),
        (status = 413, description = "Body too large", body = crate::http::schema::ErrorBody),
        (status = 415, description = "Not JSON", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_start_game(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<StartGameBody>,
) -> Result<Json<Value>, ApiError> {
    submit(&app, &board, who, ArbiterRequest::StartGame, &body).await
}

/// POST /boards/{board}/infractions/{id}/ruling: confirm, sanction or dismiss an alert.
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/infractions/{id}/ruling",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id"), ("id" = String, Path, description = "Infraction id")),
    request_body(content = RulingBody),
    responses(
        (status = 200, description = "The new board state", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board or infraction", body = crate::http::schema::ErrorBody),
        (status = 409, description = "Refused by the game", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_ruling(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path((board, id)): Path<(String, String)>,
    Body(body): Body<RulingBody>,
) -> Result<Json<Value>, ApiError> {
    let state = app
        .hub
        .state(&board)
        .ok_or_else(|| ApiError::UnknownBoard(board.clone()))?;
    let known = state["infractions"]
        .as_array()
        .is_some_and(|all| all.iter().any(|i| i["id"] == id.as_str()));
    if !known {
        return Err(ApiError::UnknownInfraction(id));
    }
    submit(
        &app,
        &board,
        who,
        |value| ArbiterRequest::Ruling { id, body: value },
        &body,
    )
    .await
}

/// POST /boards/{board}/clock: pause, resume or adjust time (CN2002 14, 22.8-22.9).
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/clock",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = ClockBody),
    responses(
        (status = 200, description = "The new board state", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 409, description = "Refused by the game", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_clock(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<ClockBody>,
) -> Result<Json<Value>, ApiError> {
    submit(&app, &board, who, ArbiterRequest::Clock, &body).await
}

/// POST /boards/{board}/dead-stones: mark or unmark dead groups (CN2002 counting).
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/dead-stones",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = DeadStonesBody),
    responses(
        (status = 200, description = "The new board state", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body or a point off the board", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 409, description = "Refused by the game", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_dead_stones(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<DeadStonesBody>,
) -> Result<Json<Value>, ApiError> {
    let state = app
        .hub
        .state(&board)
        .ok_or_else(|| ApiError::UnknownBoard(board.clone()))?;
    let size = state["size"]
        .as_u64()
        .and_then(|s| u32::try_from(s).ok())
        .unwrap_or(19)
        .clamp(2, MAX_SIZE);
    let body = body.normalise(size)?;
    submit(&app, &board, who, ArbiterRequest::DeadStones, &body).await
}

/// POST /boards/{board}/result: record or correct the result.
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/result",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = ResultBody),
    responses(
        (status = 200, description = "The new board state", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 409, description = "Refused by the game", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_result(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<ResultBody>,
) -> Result<Json<Value>, ApiError> {
    submit(&app, &board, who, ArbiterRequest::Result, &body).await
}

/// Hands one request to the board's runtime and answers with the new state it returns.
async fn submit<B: Serialize>(
    app: &App,
    board: &str,
    who: Identity,
    wrap: impl FnOnce(Value) -> ArbiterRequest,
    body: &B,
) -> Result<Json<Value>, ApiError> {
    let control = app.control(board)?;
    // Serialising our own plain structs cannot fail; map it anyway rather than panic.
    let value = serde_json::to_value(body).map_err(|e| ApiError::bad_body(e.to_string()))?;
    let request = wrap(value);
    let kind = request_kind(&request);
    tracing::info!(board, who = who.name(), kind, "arbiter request");
    let outcome = control.request(request, who.name().to_owned()).await;
    let label = if outcome.is_ok() {
        "applied"
    } else {
        "refused"
    };
    metrics::counter!("goban_http_arbiter_requests_total", "kind" => kind, "outcome" => label)
        .increment(1);
    match outcome {
        Ok(state) => Ok(Json(state)),
        Err(error) => {
            tracing::info!(board, who = who.name(), kind, cause = %error, "arbiter request refused");
            Err(error.into())
        }
    }
}

fn request_kind(request: &ArbiterRequest) -> &'static str {
    match request {
        ArbiterRequest::StartGame(_) => "game",
        ArbiterRequest::Ruling { .. } => "ruling",
        ArbiterRequest::Clock(_) => "clock",
        ArbiterRequest::DeadStones(_) => "dead_stones",
        ArbiterRequest::Result(_) => "result",
    }
}
