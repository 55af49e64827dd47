//! Finished games from the journal: the list, one game's final state, its SGF.
//!
//! Under a broadcast delay, a game that is finished live but still running in the
//! public's delayed view stays hidden from the public until the view catches up.

use std::collections::HashSet;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::SGF_CONTENT_TYPE;
use crate::http::App;
use crate::http::auth::Viewer;
use crate::http::error::ApiError;
use crate::publish::delay::Feed;

/// Game ids still in play in the delayed view (empty for live viewers).
fn hidden_games(app: &App, feed: &Feed) -> HashSet<String> {
    if !feed.is_delayed() {
        return HashSet::new();
    }
    app.hub
        .boards()
        .iter()
        .filter_map(|board| feed.view(board))
        .filter(|view| view.state.phase != goban_referee::Phase::Finished)
        .filter_map(|view| view.state.game.clone())
        .collect()
}

fn game_id(summary: &Value) -> Option<&str> {
    summary["game"].as_str().or_else(|| summary["id"].as_str())
}

/// Refuses ids that cannot be game ids before touching the journal.
fn check_game_id(game: &str) -> Result<(), ApiError> {
    let plausible = !game.is_empty()
        && game.len() <= 128
        && game
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plausible {
        Ok(())
    } else {
        Err(ApiError::UnknownGame(game.to_owned()))
    }
}

/// GET /games: finished games, newest first, kept across restarts.
#[utoipa::path(
    get,
    path = "/api/v1/games",
    tag = "games",
    responses(
        (status = 200, description = "Finished games, newest first", body = crate::http::schema::GameList),
        (status = 503, description = "Journal unavailable", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_games(
    State(app): State<Arc<App>>,
    viewer: Viewer,
) -> Result<Json<Value>, ApiError> {
    let hidden = hidden_games(&app, &app.feed(&viewer));
    let mut games = app.read_archive(|archive| archive.games()).await?;
    games.retain(|summary| game_id(summary).is_none_or(|id| !hidden.contains(id)));
    Ok(Json(json!({ "games": games })))
}

/// GET /games/{game}: one finished game's final state.
#[utoipa::path(
    get,
    path = "/api/v1/games/{game}",
    tag = "games",
    params(("game" = String, Path, description = "Game id, e.g. 2026-11-30-table-1-1")),
    responses(
        (status = 200, description = "The game's final board state", body = crate::http::schema::BoardState),
        (status = 404, description = "Unknown game", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_game(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(game): Path<String>,
) -> Result<Json<Value>, ApiError> {
    check_game_id(&game)?;
    if hidden_games(&app, &app.feed(&viewer)).contains(&game) {
        return Err(ApiError::UnknownGame(game));
    }
    let id = game.clone();
    let found = app.read_archive(move |archive| archive.game(&id)).await?;
    found.map(Json).ok_or(ApiError::UnknownGame(game))
}

/// GET /games/{game}/sgf: one finished game's SGF.
#[utoipa::path(
    get,
    path = "/api/v1/games/{game}/sgf",
    tag = "games",
    params(("game" = String, Path, description = "Game id")),
    responses(
        (status = 200, description = "SGF FF[4]", content_type = "application/x-go-sgf", body = String),
        (status = 404, description = "Unknown game", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_game_sgf(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(game): Path<String>,
) -> Result<Response, ApiError> {
    check_game_id(&game)?;
    if hidden_games(&app, &app.feed(&viewer)).contains(&game) {
        return Err(ApiError::UnknownGame(game));
    }
    let id = game.clone();
    let found = app
        .read_archive(move |archive| archive.game_sgf(&id))
        .await?;
    let text = found.ok_or(ApiError::UnknownGame(game))?;
    Ok(([(header::CONTENT_TYPE, SGF_CONTENT_TYPE)], text).into_response())
}
