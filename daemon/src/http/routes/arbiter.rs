//! Arbiter requests: start a game, rule on an alert, run the clock, void and restore moves,
//! late start, seal, dead stones, resume play, the result; and the game's audit trail.
//!
//! Each handler authenticates first, reads its body strictly, checks what it can
//! against the live state, then hands one signed `ArbiterAct` (the referee's typed
//! command, who, the note) to the board's runtime, which journals it before any
//! effect; bad input never reaches the runtime.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use goban_referee::{ArbiterAct, ArbiterCommand, AuditEntry, InfractionId, Phase};
use serde::Serialize;

use super::boards::FullState;
use crate::http::App;
use crate::http::auth::{Arbiter, Identity, Viewer};
use crate::http::bodies::{
    AcknowledgeBody, Body, ClockBody, DeadStonesBody, LateStartBody, NoteBody, OrderBody,
    ResultBody, ResumePlayBody, RulingBody, SekiBody, StartGameBody,
};
use crate::http::error::ApiError;
use crate::http::grammar;

/// Largest board of the letters-and-numbers notation (A..Z without I).
const MAX_SIZE: u32 = 25;

/// What the checks at the door read from the live state.
struct Live {
    phase: Phase,
    ruleset: goban_rules::Ruleset,
    size: u32,
    komi: f64,
    infractions: Vec<InfractionId>,
}

fn live(app: &App, board: &str) -> Result<Live, ApiError> {
    let view = app.hub.view(board).ok_or_else(|| app.missing(board))?;
    // The typed state the runtime published with this view: no second parse.
    let state = &view.state;
    Ok(Live {
        phase: state.phase,
        ruleset: state.ruleset,
        size: u32::from(state.size),
        komi: state.komi,
        infractions: state.infractions.iter().map(|i| i.id.clone()).collect(),
    })
}

impl Live {
    fn size(&self) -> u32 {
        self.size.clamp(2, MAX_SIZE)
    }

    fn in_progress(&self) -> bool {
        matches!(self.phase, Phase::Playing | Phase::Paused | Phase::Counting)
    }

    /// The api.md word of the phase (`playing`, `paused`, `counting`): its one-word variant name.
    fn phase_word(&self) -> String {
        format!("{:?}", self.phase).to_lowercase()
    }
}

/// POST /boards/{board}/game: start a new game and its clock.
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/game",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = StartGameBody, description = "Every field optional; defaults from the board's config. \
        Komi defaults to the config's, else to the ruleset's (cn2002 7.5, jk 6.5, ing 8, historical 0). \
        Over a game still in play (playing, paused, counting) it needs \"force\": true, else 409."),
    responses(
        (status = 200, description = "The new board state", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body (not a JSON object, unknown field, value out of range)", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "A game is in progress and \"force\" is not true, or refused by the game", body = crate::http::schema::ErrorBody),
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
    let live = live(&app, &board)?;
    if live.in_progress() && body.force != Some(true) {
        return Err(ApiError::Rejected(format!(
            "a game is in progress on {board} (phase {}); starting another abandons it \
             without a result: send \"force\": true to do so",
            live.phase_word()
        )));
    }
    let config = app.tournament.as_ref().map(|desk| &desk.config);
    let command = body.command(
        config.and_then(|c| c.event.as_deref()),
        config.and_then(|c| c.place.as_deref()),
    );
    submit(&app, &board, who, command, body.note.clone()).await
}

/// POST /boards/{board}/infractions/{id}/ruling: confirm, sanction, dismiss or convert an alert.
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/infractions/{id}/ruling",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id"), ("id" = String, Path, description = "Infraction id")),
    request_body(content = RulingBody, description = "`confirm` and `sanction` apply the sanction the article gives \
        (a warning, a void move, a loss); `dismiss` closes the alert and undoes a sanction already applied; \
        `convert` turns a time forfeit into a pass (CN2002 22.5). An alert takes one ruling: \
        a ruling on a closed alert is a 409 saying how it was closed."),
    responses(
        (status = 200, description = "The new board state", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board or infraction", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "The alert is closed, or the ruling does not apply to it", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_ruling(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path((board, id)): Path<(String, String)>,
    Body(body): Body<RulingBody>,
) -> Result<FullState, ApiError> {
    if !live(&app, &board)?.infractions.iter().any(|i| i.0 == id) {
        return Err(ApiError::UnknownInfraction(id));
    }
    submit(&app, &board, who, body.command(id), body.note.clone()).await
}

/// POST /boards/{board}/infractions/{id}/acknowledge: "I'm on my way", seen by every arbiter.
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/infractions/{id}/acknowledge",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id"), ("id" = String, Path, description = "Infraction id")),
    request_body(content = AcknowledgeBody, description = "`{}` takes the open alert: its `taken_by` and \
        `taken_at` name the arbiter on the way, in the state, on SSE and MQTT. `take_over` takes one another \
        arbiter took; `withdraw` hands it back. The game is not touched; the audit trail keeps it."),
    responses(
        (status = 200, description = "The new board state", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board or infraction", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "The alert is closed, or another arbiter took it (the message names them)", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_acknowledge(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path((board, id)): Path<(String, String)>,
    Body(body): Body<AcknowledgeBody>,
) -> Result<FullState, ApiError> {
    if !live(&app, &board)?.infractions.iter().any(|i| i.0 == id) {
        return Err(ApiError::UnknownInfraction(id));
    }
    submit(&app, &board, who, body.command(id), body.note.clone()).await
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
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
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
    submit(&app, &board, who, command, body.note()).await
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
        (status = 400, description = "Bad body (a point not of the form D4 on a 19-line board)", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "Refused by the game, or a point beyond this board's edge", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_dead_stones(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<DeadStonesBody>,
) -> Result<FullState, ApiError> {
    let body = body.normalise(live(&app, &board)?.size())?;
    submit(&app, &board, who, body.command(), body.note.clone()).await
}

/// POST /boards/{board}/seki: rule groups in seki, or not, while counting (CN2002 21.2; JK counts it).
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/seki",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = SekiBody, description = "`in_seki` or `not_in_seki` overrides the count's own reading of \
        the named groups; `clear` withdraws a ruling (any stone of the group names it). Under jk the points a group \
        in seki surrounds are not territory; area counting (cn2002, ing, historical) is unchanged. \
        The new count is in the state's `count` and `proposed_result`."),
    responses(
        (status = 200, description = "The new board state", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body (a point not of the form D4 on a 19-line board)", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "The game is not counting, a point beyond this board's edge, or a point holds no living stone (nothing changed)", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_seki(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<SekiBody>,
) -> Result<FullState, ApiError> {
    let body = body.normalise(live(&app, &board)?.size())?;
    submit(&app, &board, who, body.command(), body.note.clone()).await
}

/// POST /boards/{board}/confirm-result: the counted result becomes final (CN2002 8, 21).
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/confirm-result",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = NoteBody, description = "Optional; may be empty. The state's `proposed_result` \
        (the count with the dead stones, seki rulings and warnings as they stand) becomes `result`; \
        `count` and `dead_stones` stay in the final state."),
    responses(
        (status = 200, description = "The new board state: finished", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "The game is not counting, or there is no count to confirm", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_confirm_result(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<NoteBody>,
) -> Result<FullState, ApiError> {
    submit(&app, &board, who, ArbiterCommand::ConfirmResult, body.note).await
}

/// POST /boards/{board}/result: record or correct the result.
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/result",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = ResultBody, description = "Only results the game's ruleset can produce on its board (409 otherwise). \
        On a game still in play (playing or paused) it needs \"force\": true, else 409; during counting or \
        after the end it sets or corrects the result."),
    responses(
        (status = 200, description = "The new board state", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body: a result not of the RE form (the reason says why)", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "The game is in play and \"force\" is not true, no game, or a result its ruleset or board cannot produce (the reason says which)", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_result(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<ResultBody>,
) -> Result<FullState, ApiError> {
    let live = live(&app, &board)?;
    // The form was the pattern's, read with the body; whether it fits this game, the document
    // cannot know.
    grammar::check_result(&body.result, live.ruleset, live.size(), live.komi)
        .map_err(|why| ApiError::Rejected(format!("result: {why}")))?;
    submit(&app, &board, who, body.command(), body.note.clone()).await
}

/// POST /boards/{board}/moves/{n}/void: move n counts as a pass (any move, not only the last).
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/moves/{n}/void",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id"), ("n" = u32, Path, description = "Move number, 1-based")),
    request_body(content = NoteBody, description = "Optional; may be empty"),
    responses(
        (status = 200, description = "The new board state: the move is a pass, later moves replayed", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body or move number", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "No such stone, already void, not in play, or a later move would become illegal (nothing changed)", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_void(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path((board, n)): Path<(String, u32)>,
    Body(body): Body<NoteBody>,
) -> Result<FullState, ApiError> {
    let command = ArbiterCommand::VoidMove { number: n };
    submit(&app, &board, who, command, body.note).await
}

/// POST /boards/{board}/moves/{n}/restore: a voided move is played again.
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/moves/{n}/restore",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id"), ("n" = u32, Path, description = "Move number, 1-based")),
    request_body(content = NoteBody, description = "Optional; may be empty"),
    responses(
        (status = 200, description = "The new board state with the move restored", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body or move number", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "The move is not void, or a later move would become illegal (nothing changed)", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_restore(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path((board, n)): Path<(String, u32)>,
    Body(body): Body<NoteBody>,
) -> Result<FullState, ApiError> {
    let command = ArbiterCommand::RestoreMove { number: n };
    submit(&app, &board, who, command, body.note).await
}

/// POST /boards/{board}/moves/{n}/order: the order of a setup block's moves.
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/moves/{n}/order",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id"), ("n" = u32, Path, description = "The number of the setup block's first move")),
    request_body(content = OrderBody),
    responses(
        (status = 200, description = "The new board state: the block's moves in the order given, `order_known` true, later moves replayed", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body (a point not of the form D4 on this board)", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "No block starts at move n, the points are not its stones one colour in turn, not in play, or a later move would become illegal (nothing changed)", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_order(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path((board, n)): Path<(String, u32)>,
    Body(body): Body<OrderBody>,
) -> Result<FullState, ApiError> {
    let body = body.normalise(live(&app, &board)?.size())?;
    submit(&app, &board, who, body.command(n), body.note.clone()).await
}

/// POST /boards/{board}/late-start: a player arrived late (CN2002 22.1-22.4).
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/late-start",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = LateStartBody),
    responses(
        (status = 200, description = "The new board state: the absence deducted twice over and a closed `late_start` alert, or beyond the limit an open one advising the loss (CN2002 22.1-22.4)", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "No game, no clock, the player has already moved, a late start already declared for them, or the absence is longer than the game has run", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_late_start(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<LateStartBody>,
) -> Result<FullState, ApiError> {
    submit(&app, &board, who, body.command(), body.note.clone()).await
}

/// POST /boards/{board}/seal: the next move is sealed and the game adjourned (封棋, CN2002 14).
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/seal",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = NoteBody, description = "Optional; may be empty"),
    responses(
        (status = 200, description = "The new board state: paused, sealed", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "No game in play", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_seal(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<NoteBody>,
) -> Result<FullState, ApiError> {
    submit(&app, &board, who, ArbiterCommand::Seal, body.note).await
}

/// POST /boards/{board}/unseal: the adjourned game resumes; the sealed move is read off the board.
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/unseal",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = NoteBody, description = "Optional; may be empty"),
    responses(
        (status = 200, description = "The new board state: playing, the clock running", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "The game is not sealed", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_unseal(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<NoteBody>,
) -> Result<FullState, ApiError> {
    submit(&app, &board, who, ArbiterCommand::Unseal, body.note).await
}

/// POST /boards/{board}/resume-play: dead stones disputed at counting; play resumes (CN2002 21.4).
#[utoipa::path(
    post,
    path = "/api/v1/boards/{board}/resume-play",
    tag = "arbiter",
    security(("arbiter" = [])),
    params(("board" = String, Path, description = "Board id")),
    request_body(content = ResumePlayBody),
    responses(
        (status = 200, description = "The new board state: playing, `first` to move", body = crate::http::schema::BoardState),
        (status = 400, description = "Bad body", body = crate::http::schema::ErrorBody),
        (status = 401, description = "No or unknown arbiter token", body = crate::http::schema::ErrorBody),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
        (status = 409, description = "The game is not counting", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_resume_play(
    State(app): State<Arc<App>>,
    Arbiter(who): Arbiter,
    Path(board): Path<String>,
    Body(body): Body<ResumePlayBody>,
) -> Result<FullState, ApiError> {
    submit(&app, &board, who, body.command(), body.note.clone()).await
}

/// GET /boards/{board}/audit: every arbiter action of the current game, oldest first.
#[utoipa::path(
    get,
    path = "/api/v1/boards/{board}/audit",
    tag = "boards",
    params(("board" = String, Path, description = "Board id")),
    responses(
        (status = 200, description = "`{board, game, audit: [{number, at, by, action, what, move_number, note}]}` \
            (delayed for the public under a broadcast delay)", body = AuditList),
        (status = 404, description = "Unknown board", body = crate::http::schema::ErrorBody),
        (status = 503, description = "The board is still being recovered from the journal after a restart (`recovering`, see `/health`), or its journal refuses writes (`unavailable`)", body = crate::http::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_audit(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(board): Path<String>,
) -> Result<Json<AuditList>, ApiError> {
    let view = app
        .feed(&viewer)
        .view(&board)
        .ok_or_else(|| app.missing(&board))?;
    Ok(Json(AuditList {
        board,
        game: view.state.game.clone(),
        audit: view.state.audit.clone(),
    }))
}

/// GET /boards/{board}/audit: the current game's audit trail.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct AuditList {
    /// Board id.
    board: String,
    /// Game id, null before the first game.
    game: Option<String>,
    /// Every arbiter action, oldest first.
    audit: Vec<AuditEntry>,
}

/// Hands one signed command to the board's runtime and answers with the new state it returns.
async fn submit(
    app: &App,
    board: &str,
    who: Identity,
    command: ArbiterCommand,
    note: Option<String>,
) -> Result<FullState, ApiError> {
    let control = app.control(board)?;
    let kind = command.name();
    tracing::info!(board, who = who.name(), kind, "arbiter request");
    let act = ArbiterAct {
        by: who.name().to_owned(),
        note,
        command,
    };
    let outcome = control.request(act).await;
    let label = if outcome.is_ok() {
        "applied"
    } else {
        "refused"
    };
    metrics::counter!("goban_http_arbiter_requests_total", "kind" => kind, "outcome" => label)
        .increment(1);
    match outcome {
        Ok(view) => Ok(FullState(view.full())),
        Err(error) => {
            tracing::info!(board, who = who.name(), kind, cause = %error, "arbiter request refused");
            Err(error.into())
        }
    }
}
