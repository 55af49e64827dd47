//! The route table: every path of api.md under /api/v1, plus /metrics.

pub(crate) mod analysis;
pub(crate) mod arbiter;
pub(crate) mod archive;
pub(crate) mod boards;
pub(crate) mod games;
pub(crate) mod me;
pub(crate) mod tournament;

use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post};

use super::App;
use super::{metrics, openapi, sse};

/// Every route, with full paths so they read the same as api.md and /openapi.json.
pub(crate) fn all() -> Router<Arc<App>> {
    Router::new()
        .route("/api/v1/health", get(boards::handle_health))
        .route("/api/v1/arbiter/me", get(me::handle_me))
        .route("/api/v1/boards", get(boards::handle_boards))
        .route("/api/v1/boards/{board}", get(boards::handle_board))
        .route("/api/v1/boards/{board}/sgf", get(boards::handle_board_sgf))
        .route("/api/v1/boards/{board}/moves", get(boards::handle_moves))
        .route(
            "/api/v1/boards/{board}/analysis",
            get(analysis::handle_analysis),
        )
        .route("/api/v1/events", get(sse::handle_hall_events))
        .route("/api/v1/boards/{board}/events", get(sse::handle_events))
        .route(
            "/api/v1/boards/{board}/game",
            post(arbiter::handle_start_game),
        )
        .route(
            "/api/v1/boards/{board}/infractions/{id}/ruling",
            post(arbiter::handle_ruling),
        )
        .route(
            "/api/v1/boards/{board}/infractions/{id}/acknowledge",
            post(arbiter::handle_acknowledge),
        )
        .route("/api/v1/boards/{board}/clock", post(arbiter::handle_clock))
        .route(
            "/api/v1/boards/{board}/dead-stones",
            post(arbiter::handle_dead_stones),
        )
        .route("/api/v1/boards/{board}/seki", post(arbiter::handle_seki))
        .route(
            "/api/v1/boards/{board}/confirm-result",
            post(arbiter::handle_confirm_result),
        )
        .route(
            "/api/v1/boards/{board}/result",
            post(arbiter::handle_result),
        )
        .route(
            "/api/v1/boards/{board}/moves/{n}/void",
            post(arbiter::handle_void),
        )
        .route(
            "/api/v1/boards/{board}/moves/{n}/restore",
            post(arbiter::handle_restore),
        )
        .route(
            "/api/v1/boards/{board}/moves/{n}/order",
            post(arbiter::handle_order),
        )
        .route(
            "/api/v1/boards/{board}/late-start",
            post(arbiter::handle_late_start),
        )
        .route("/api/v1/boards/{board}/seal", post(arbiter::handle_seal))
        .route(
            "/api/v1/boards/{board}/unseal",
            post(arbiter::handle_unseal),
        )
        .route(
            "/api/v1/boards/{board}/resume-play",
            post(arbiter::handle_resume_play),
        )
        .route("/api/v1/boards/{board}/audit", get(arbiter::handle_audit))
        .route("/api/v1/games", get(games::handle_games))
        .route("/api/v1/games/{game}", get(games::handle_game))
        .route("/api/v1/games/{game}/sgf", get(games::handle_game_sgf))
        .route("/api/v1/archive.zip", get(archive::handle_archive))
        .route("/api/v1/openapi.json", get(openapi::handle_openapi))
        .route("/api/v1/metrics", get(metrics::handle_metrics))
        .route("/metrics", get(metrics::handle_metrics))
        .merge(tournament_routes())
        .merge(super::pages::routes())
}

/// The tournament desk's routes (issue 13).
fn tournament_routes() -> Router<Arc<App>> {
    use axum::extract::DefaultBodyLimit;
    Router::new()
        .route(
            "/api/v1/tournament/round",
            get(tournament::handle_round)
                .post(tournament::handle_load)
                .layer(DefaultBodyLimit::max(tournament::ROUND_BODY_LIMIT)),
        )
        .route(
            "/api/v1/tournament/seating",
            get(tournament::handle_seating),
        )
        .route("/api/v1/tournament/start", post(tournament::handle_start))
        .route(
            "/api/v1/tournament/tables/{table}/seat",
            post(tournament::handle_reseat),
        )
        .route(
            "/api/v1/tournament/tables/{table}/result",
            post(tournament::handle_decide),
        )
        .route(
            "/api/v1/tournament/boards/{board}",
            get(tournament::handle_board_seating),
        )
        .route(
            "/api/v1/tournament/results",
            get(tournament::handle_results),
        )
        .route(
            "/api/v1/tournament/standings",
            get(tournament::handle_standings),
        )
        .route(
            "/api/v1/tournament/opengotha",
            get(tournament::handle_opengotha),
        )
        .route("/api/v1/tournament/alerts", get(tournament::handle_alerts))
}

/// The SGF media type of api.md.
pub(crate) const SGF_CONTENT_TYPE: &str = "application/x-go-sgf";
