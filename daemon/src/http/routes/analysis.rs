//! GET /boards/{board}/analysis: the engine's view of a board as the public has been shown it (never ahead of the broadcast delay).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};

use crate::analysis::store::AnalysisPage;
use crate::http::App;
use crate::http::error::ApiError;

/// GET /boards/{board}/analysis.
#[utoipa::path(
    get,
    path = "/api/v1/boards/{board}/analysis",
    tag = "boards",
    params(("board" = String, Path, description = "Board id from the config")),
    responses(
        (status = 200, description = "The latest analysis released with its position (after the broadcast delay), Black's lead over the game, and the engine with its budget; `enabled: false` with `off_reason` when no engine runs", body = AnalysisPage),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`)", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_analysis(
    State(app): State<Arc<App>>,
    Path(board): Path<String>,
) -> Result<Json<AnalysisPage>, ApiError> {
    if app.hub.view(&board).is_none() {
        return Err(app.missing(&board));
    }
    let page = match &app.analysis {
        Some(store) => store.page(&board),
        None => crate::analysis::PublicAnalysis::default().page(&board),
    };
    Ok(Json(page))
}
