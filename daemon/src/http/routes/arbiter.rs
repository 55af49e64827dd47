//! Arbiter requests: start a game, rule on an alert, run the clock, mark dead stones, set the result.
//!
//! Each handler authenticates first, reads its body strictly, checks what it can
//! against the live state, then hands one `ArbiterRequest` to the board's runtime,
//! which journals it before any effect; bad input never reaches the runtime.

use std::sync::Arc;

use axum::extract::{Path, State};
use goban_referee::ArbiterCommand;

use super::boards::FullState;
use crate::http::App;
use crate::http::auth::{Arbiter, Identity};
use crate::http::bodies::{Body, ClockBody, DeadStonesBody, ResultBody, RulingBody, StartGameBody};
use crate::http::command::kind_of;
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
) -> Result<FullState, ApiError> {
    submit(&app, &board, who, body.command()).await
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
) -> Result<FullState, ApiError> {
    let view = app
        .hub
        .view(&board)
        .ok_or_else(|| ApiError::UnknownBoard(board.clone()))?;
    let known = view.state.infractions.iter().any(|i| i.id.0 == id);
    if !known {
        return Err(ApiError::UnknownInfraction(id));
    }
    submit(&app, &board, who, body.command(id)).await
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
) -> Result<FullState, ApiError> {
    let command = body.command(who.name());
    submit(&app, &board, who, command).await
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
) -> Result<FullState, ApiError> {
    let view = app
        .hub
        .view(&board)
        .ok_or_else(|| ApiError::UnknownBoard(board.clone()))?;
    let size = u32::from(view.state.size).clamp(2, MAX_SIZE);
    let body = body.normalise(size)?;
    submit(&app, &board, who, body.command()).await
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
) -> Result<FullState, ApiError> {
    submit(&app, &board, who, body.command()).await
}

/// Hands one command to the board's runtime and answers with the new state it returns.
async fn submit(
    app: &App,
    board: &str,
    who: Identity,
    command: ArbiterCommand,
) -> Result<FullState, ApiError> {
    let control = app.control(board)?;
    let kind = kind_of(&command);
    tracing::info!(board, who = who.name(), kind, "arbiter request");
    let request = ArbiterRequest {
        command,
        who: who.name().to_owned(),
        note: None,
    };
    let outcome = control.request(request).await;
    let label = if outcome.is_ok() {
        "applied"
    } else {
        "refused"
    };
    metrics::counter!("goban_http_arbiter_requests_total", "kind" => kind, "outcome" => label)
        .increment(1);
    match outcome {
        Ok(view) => Ok(FullState(view.full.clone())),
        Err(error) => {
            tracing::info!(board, who = who.name(), kind, cause = %error, "arbiter request refused");
            Err(error.into())
        }
    }
}
