//! Tournament routes: arbiters load, seat, start and decide; everyone reads the round, results and standings.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use goban_tournament::{Decision, Outcome};
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::http::App;
use crate::http::auth::Arbiter;
use crate::http::bodies::{Body, Validate};
use crate::http::error::ApiError;
use crate::tournament::alerts::{DeskAlert, DeskAlertKind};
use crate::tournament::views::{ResultView, RoundView, StandingsView, TableView};
use crate::tournament::{Desk, DeskError, LoadRequest};

/// Largest round upload: an OpenGotha file of a big open with every round is a few hundred KB.
pub(crate) const ROUND_BODY_LIMIT: usize = 8 * 1024 * 1024;

/// `POST /tournament/tables/{table}/seat`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeatBody {
    /// The board that now seats the table.
    board: String,
}

/// `POST /tournament/tables/{table}/result`: an arbiter's decision (forfeit 22.x, both lose, ...).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DecisionBody {
    /// `black_wins`, `white_wins`, `draw`, `both_lose`, `both_win`, `unknown`, `cancelled`.
    #[schema(example = "white_wins")]
    outcome: Outcome,
    /// True when the game was not played (absence, CN2002 22.1-22.4).
    #[serde(default)]
    by_default: bool,
    /// Free text for the log.
    #[serde(default)]
    #[schema(
        max_length = 800,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$"
    )]
    note: Option<String>,
}

impl Validate for LoadRequest {
    fn validate(&self) -> Result<(), ApiError> {
        let round = match self {
            Self::Opengotha { round, .. }
            | Self::Csv { round, .. }
            | Self::Pairgoth { round, .. } => *round,
        };
        if round == 0 {
            return Err(ApiError::bad_body("round: rounds start at 1"));
        }
        Ok(())
    }
}

impl Validate for SeatBody {
    fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }
}

impl Validate for DecisionBody {
    fn validate(&self) -> Result<(), ApiError> {
        crate::http::bodies::check_note(self.note.as_deref())
    }
}

fn desk(app: &App) -> Result<&Arc<Desk>, ApiError> {
    app.tournament
        .as_ref()
        .ok_or_else(|| ApiError::Unavailable("the tournament desk is not running".into()))
}

impl From<DeskError> for ApiError {
    fn from(error: DeskError) -> Self {
        match error {
            DeskError::UnknownBoard(board) => Self::UnknownBoard(board),
            DeskError::NoRound | DeskError::UnknownTable(_) => Self::NoRoute(error.to_string()),
            // The body was well formed; the file inside it is not a round (RFC 9110 15.5.21).
            DeskError::Source(_) => Self::Unreadable(error.to_string()),
            DeskError::Pairgoth(_) | DeskError::Store(_) => Self::Unavailable(error.to_string()),
            DeskError::Conflict(_) | DeskError::Config(_) => Self::Rejected(error.to_string()),
        }
    }
}

/// POST /tournament/round: load a round (an uploaded file or Pairgoth) and seat it.
#[utoipa::path(
    post, path = "/api/v1/tournament/round", tag = "tournament", security(("arbiter" = [])),
    request_body(content = LoadRequest, description = "`{\"source\": \"opengotha\", \"round\": 2, \"document\": \"<?xml…\"}`, `{\"source\": \"csv\", \"round\": 1, \"document\": \"1,Li Wei,Wang Fang,0,7.5\"}` or `{\"source\": \"pairgoth\", \"round\": 2}`"),
    responses(
        (status = 200, description = "The round as seated", body = RoundView),
        (status = 400, description = "Bad body (not the JSON of one of the three sources)", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 409, description = "Refused (nothing configured to load from, a board refused the game)", body = crate::http::schema::ErrorBody),
        (status = 422, description = "The round file (the CSV or OpenGotha document, uploaded or configured) cannot be read as that round: the reason names the line or the field", body = crate::http::schema::ErrorBody),
        (status = 503, description = "Pairgoth unreachable", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_load(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Body(body): Body<LoadRequest>,
) -> Result<Json<RoundView>, ApiError> {
    tracing::info!(who = who.name(), "tournament: load round");
    Ok(Json(desk(&app)?.load(body).await?))
}

/// GET /tournament/seating: the current round with boards and game ids (arbiters).
#[utoipa::path(
    get, path = "/api/v1/tournament/seating", tag = "tournament", security(("arbiter" = [])),
    responses(
        (status = 200, description = "The current round and its seating", body = RoundView),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "No round loaded", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_seating(
    State(app): State<Arc<App>>,
    Arbiter(_who): Arbiter,
) -> Result<Json<RoundView>, ApiError> {
    Ok(Json(desk(&app)?.round_view()?))
}

/// POST /tournament/start: set up every seated game that has not started.
#[utoipa::path(
    post, path = "/api/v1/tournament/start", tag = "tournament", security(("arbiter" = [])),
    responses(
        (status = 200, description = "The round with its game ids", body = RoundView),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "No round loaded", body = crate::http::schema::ErrorBody),
        (status = 409, description = "A board refused its game", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_start(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
) -> Result<Json<RoundView>, ApiError> {
    tracing::info!(who = who.name(), "tournament: start all boards");
    Ok(Json(desk(&app)?.start_all().await?))
}

/// POST /tournament/tables/{table}/seat: move one table to another board.
#[utoipa::path(
    post, path = "/api/v1/tournament/tables/{table}/seat", tag = "tournament", security(("arbiter" = [])),
    params(("table" = u32, Path, description = "Table number")),
    request_body(content = SeatBody),
    responses(
        (status = 200, description = "The round as seated now", body = RoundView),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown table or board", body = crate::http::schema::ErrorBody),
        (status = 409, description = "The board seats another table, or the table has no board", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_reseat(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(table): Path<u32>,
    Body(body): Body<SeatBody>,
) -> Result<Json<RoundView>, ApiError> {
    tracing::info!(who = who.name(), table, board = %body.board, "tournament: re-seat");
    Ok(Json(desk(&app)?.reseat(table, &body.board).await?))
}

/// POST /tournament/tables/{table}/result: record an arbiter's decision for a table.
#[utoipa::path(
    post, path = "/api/v1/tournament/tables/{table}/result", tag = "tournament", security(("arbiter" = [])),
    params(("table" = u32, Path, description = "Table number")),
    request_body(content = DecisionBody),
    responses(
        (status = 200, description = "The confirmed result", body = ResultView),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown table", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_decide(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(table): Path<u32>,
    Body(body): Body<DecisionBody>,
) -> Result<Json<ResultView>, ApiError> {
    tracing::info!(
        who = who.name(),
        table,
        note = body.note.as_deref().unwrap_or(""),
        "tournament: arbiter decision"
    );
    let decision = Decision {
        outcome: body.outcome,
        by_default: body.by_default,
    };
    Ok(Json(desk(&app)?.decide(table, decision)?))
}

/// GET /tournament/round: the current round's pairings and results.
#[utoipa::path(
    get, path = "/api/v1/tournament/round", tag = "tournament",
    responses(
        (status = 200, description = "The current round", body = RoundView),
        (status = 404, description = "No round loaded", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_round(State(app): State<Arc<App>>) -> Result<Json<RoundView>, ApiError> {
    Ok(Json(desk(&app)?.round_view()?))
}

/// Where one board stands in the event: its table of the current round, if seated.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub(crate) struct BoardSeating {
    /// The board.
    board: String,
    /// The event's name, when configured.
    event: Option<String>,
    /// The current round, or null when none is loaded.
    round: Option<u32>,
    /// The board's table in that round, or null when it is not seated.
    table: Option<TableView>,
}

/// GET /tournament/boards/{board}: the board's seating in the current round, for the pages
/// (200 also when no round is loaded or the board is not seated: `round`/`table` null).
#[utoipa::path(
    get, path = "/api/v1/tournament/boards/{board}", tag = "tournament",
    params(("board" = String, Path, description = "Board id from the config")),
    responses(
        (status = 200, description = "The board's table, round and event (null when not seated)", body = BoardSeating),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_board_seating(
    State(app): State<Arc<App>>,
    Path(board): Path<String>,
) -> Result<Json<BoardSeating>, ApiError> {
    if app.hub.view(&board).is_none() && app.hub.readiness(&board).is_none() {
        return Err(ApiError::UnknownBoard(board));
    }
    let desk = desk(&app)?;
    let round = match desk.round_view() {
        Ok(round) => Some(round),
        Err(DeskError::NoRound) => None,
        Err(error) => return Err(error.into()),
    };
    let table = round
        .as_ref()
        .and_then(|r| {
            r.tables
                .iter()
                .find(|t| t.board.as_deref() == Some(board.as_str()))
        })
        .cloned();
    Ok(Json(BoardSeating {
        event: desk.config.event.clone(),
        round: round.map(|r| r.round),
        table,
        board,
    }))
}

/// GET /tournament/results: every confirmed result of the event.
#[utoipa::path(
    get, path = "/api/v1/tournament/results", tag = "tournament",
    responses((status = 200, description = "Confirmed results, by round and table", body = Vec<ResultView>))
)]
pub(crate) async fn handle_results(
    State(app): State<Arc<App>>,
) -> Result<Json<Vec<ResultView>>, ApiError> {
    Ok(Json(desk(&app)?.results()?))
}

/// GET /tournament/standings: CN2002 art. 27 standings with the referee's warnings.
#[utoipa::path(
    get, path = "/api/v1/tournament/standings", tag = "tournament",
    responses((status = 200, description = "Standings, best first", body = StandingsView))
)]
pub(crate) async fn handle_standings(
    State(app): State<Arc<App>>,
) -> Result<Json<StandingsView>, ApiError> {
    Ok(Json(desk(&app)?.standings()?))
}

/// GET /tournament/opengotha: the event's OpenGotha file (the configured `opengotha_file`, else the last upload) with every confirmed result written in.
#[utoipa::path(
    get, path = "/api/v1/tournament/opengotha", tag = "tournament", security(("arbiter" = [])),
    responses(
        (status = 200, description = "OpenGotha tournament XML", content_type = "application/xml", body = String),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 409, description = "No opengotha_file is configured and no OpenGotha document was uploaded, or the configured file cannot be read", body = crate::http::schema::ErrorBody),
        (status = 422, description = "The OpenGotha document cannot be read", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_opengotha(
    State(app): State<Arc<App>>,
    Arbiter(_who): Arbiter,
) -> Result<Response, ApiError> {
    let xml = desk(&app)?.opengotha_export()?;
    Ok((
        [(header::CONTENT_TYPE, "application/xml; charset=utf-8")],
        xml,
    )
        .into_response())
}

/// GET /tournament/alerts: the desk's alerts (a target refusing results, a board disagreeing with a ruling).
#[utoipa::path(
    get, path = "/api/v1/tournament/alerts", tag = "tournament",
    responses((status = 200, description = "The desk's alerts up now, oldest first", body = Vec<DeskAlert>))
)]
pub(crate) async fn handle_alerts(
    State(app): State<Arc<App>>,
) -> Result<Json<Vec<DeskAlert>>, ApiError> {
    Ok(Json(desk(&app)?.alerts()))
}

/// The tournament part of /openapi.json, merged into the main document.
#[derive(OpenApi)]
#[openapi(
    paths(handle_load, handle_seating, handle_start, handle_reseat, handle_decide, handle_round, handle_board_seating, handle_results, handle_standings, handle_opengotha, handle_alerts),
    components(schemas(LoadRequest, SeatBody, DecisionBody, RoundView, TableView, BoardSeating, ResultView, StandingsView, crate::tournament::views::StandingView, DeskAlert, DeskAlertKind)),
    tags((name = "tournament", description = "Rounds, seating, results and standings (CN2002 art. 27)"))
)]
pub(crate) struct TournamentDoc;
