//! GET /archive.zip (arbiter): every finished game of the journal as SGF with index.csv and index.json, one zip, as `goban-bridge export` writes them.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::archive::{ArchivedGame, apply_seats, write_zip};
use crate::http::App;
use crate::http::auth::Arbiter;
use crate::http::error::ApiError;
use crate::publish::hub::{Archive, RequestError};

/// The finished games through the journal's read side (the same rows `export` reads).
fn archived_games(archive: &dyn Archive) -> Result<Vec<ArchivedGame>, RequestError> {
    let mut games = Vec::new();
    // Newest first from the journal; the export lists them oldest first.
    for summary in archive.games()?.into_iter().rev() {
        let Some(id) = summary
            .get("game")
            .and_then(|g| g.as_str())
            .map(str::to_owned)
        else {
            continue;
        };
        let state = archive.game(&id)?.unwrap_or(serde_json::Value::Null);
        let sgf = archive.game_sgf(&id)?.unwrap_or_default();
        games.push(ArchivedGame::from_columns(
            &id,
            &summary.to_string(),
            &state.to_string(),
            sgf,
        ));
    }
    Ok(games)
}

/// GET /archive.zip.
#[utoipa::path(
    get,
    path = "/api/v1/archive.zip",
    tag = "arbiter",
    security(("arbiter" = [])),
    responses(
        (status = 200, description = "Every finished game as SGF, with index.csv and index.json (players, result, moves, alerts, warnings)", content_type = "application/zip", body = Vec<u8>),
        (status = 401, description = "No or wrong arbiter token", body = crate::http::schema::ErrorBody),
        (status = 503, description = "Journal unavailable", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_archive(
    State(app): State<Arc<App>>,
    _arbiter: Arbiter,
) -> Result<Response, ApiError> {
    let mut games = app.read_archive(archived_games).await?;
    // Round and table, for `round-07-table-001.sgf`: where the tournament desk seated each game.
    if let Some(desk) = &app.tournament {
        let seats = desk
            .seated_games()
            .map_err(|err| ApiError::Unavailable(err.to_string()))?;
        apply_seats(&mut games, &seats);
    }
    let bytes = write_zip(&games).map_err(|err| ApiError::Unavailable(err.to_string()))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"goban-bridge-archive.zip\"",
            ),
        ],
        bytes,
    )
        .into_response())
}
