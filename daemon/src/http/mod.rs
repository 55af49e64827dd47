//! The daemon's HTTP layer: REST and SSE under /api/v1, OpenAPI, arbiter auth, broadcast delay, CORS and metrics.
//!
//! Only [`crate::publish::hub::Hub`] connects this module to the board runtime: live
//! states and the event bus for reading, `BoardControl` for arbiter requests,
//! `Archive` for SSE history and finished games.

mod auth;
mod bodies;
mod constraints;
mod edge;
mod error;
mod grammar;
mod metrics;
mod openapi;
mod pages;
mod patterns;
mod route_meters;
mod routes;
mod schema;
mod server;
mod settings;
pub(crate) mod sse;
#[cfg(test)]
mod tests;
pub(crate) mod whole_number;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, Method, header};
use metrics_exporter_prometheus::PrometheusHandle;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::trace::TraceLayer;

pub(crate) use self::metrics::install_metrics;
pub(crate) use server::ConnectionLimits;
pub(crate) use settings::{AllowOrigins, ArbiterTokens, HttpSettings};

use crate::publish::delay::{DelayedView, Feed};
use crate::publish::hub::{Archive, BoardControl, Hub, Readiness};
use auth::Viewer;
use error::ApiError;

/// How often the Prometheus recorder drains histograms while serving.
const METRICS_UPKEEP: Duration = Duration::from_secs(5);

/// What every handler shares: the hub, the delayed view and the settings that matter per request.
pub(crate) struct App {
    hub: Hub,
    tokens: ArbiterTokens,
    delayed: Option<DelayedView>,
    body_limit_bytes: usize,
    broadcast_delay: Duration,
    metrics: Option<PrometheusHandle>,
    shutdown: CancellationToken,
    started: std::time::Instant,
    /// The tournament desk (issue 13), when running.
    tournament: Option<Arc<crate::tournament::Desk>>,
    /// The overlay page's whole CSP (its `frame-ancestors` is configured).
    overlay_csp: axum::http::HeaderValue,
    /// The analysis released to the public (issue 42), when started.
    analysis: Option<crate::analysis::PublicAnalysis>,
}

impl App {
    /// The live hub for arbiters (and for everyone without a delay), the delayed view for the public.
    fn feed(&self, viewer: &Viewer) -> Feed {
        match (&self.delayed, viewer.is_arbiter()) {
            (Some(view), false) => Feed::Delayed(view.clone()),
            _ => Feed::Live(self.hub.clone()),
        }
    }

    /// A registered board's runtime, or why there is none.
    fn control(&self, board: &str) -> Result<Arc<dyn BoardControl>, ApiError> {
        self.hub.control(board).ok_or_else(|| self.missing(board))
    }

    /// Why `board` has no view or runtime: still recovering or failed to (503), or unknown (404).
    fn missing(&self, board: &str) -> ApiError {
        match self.hub.readiness(board) {
            Some(Readiness::Recovering) => ApiError::Recovering(board.to_owned()),
            Some(Readiness::Failed(why)) => ApiError::Unavailable(format!(
                "board {board:?} could not be recovered from the journal: {why}"
            )),
            None => ApiError::UnknownBoard(board.to_owned()),
        }
    }

    /// Runs a journal read off the async workers (it may touch SQLite).
    async fn read_archive<T, F>(&self, read: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&dyn Archive) -> Result<T, crate::publish::hub::RequestError> + Send + 'static,
    {
        let archive = self.hub.archive().clone();
        match tokio::task::spawn_blocking(move || read(archive.as_ref())).await {
            Ok(result) => result.map_err(ApiError::from),
            Err(error) => Err(ApiError::Unavailable(format!(
                "journal read failed: {error}"
            ))),
        }
    }
}

/// The whole API as a router, for tests and embedding; needs a Tokio runtime when a delay is set.
#[allow(
    dead_code,
    reason = "API for embedding and tests; the daemon itself calls serve"
)]
pub(crate) fn router(settings: HttpSettings, hub: Hub) -> Router {
    let shutdown = CancellationToken::new();
    let public = Feed::public(hub, settings.broadcast_delay, &shutdown);
    build(settings, public, shutdown)
}

/// Serves the API on `listener` until `shutdown` is cancelled; open SSE streams end at shutdown.
///
/// `public` is what the public sees: the hub itself, or the daemon's one broadcast delay.
pub(crate) async fn serve(
    listener: TcpListener,
    settings: HttpSettings,
    public: Feed,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    if let Some(handle) = settings.metrics.clone() {
        tokio::spawn(upkeep_metrics(handle, shutdown.clone()));
    }
    let limits = settings.connections;
    let router = build(settings, public, shutdown.clone());
    tracing::info!(address = %listener.local_addr()?, "HTTP API listening");
    server::run(listener, router, limits, shutdown).await
}

fn build(settings: HttpSettings, public: Feed, shutdown: CancellationToken) -> Router {
    let hub = public.hub().clone();
    let delayed = match public {
        Feed::Delayed(view) => Some(view),
        Feed::Live(_) => None,
    };
    let app = Arc::new(App {
        hub,
        tokens: settings.arbiter_tokens,
        delayed,
        body_limit_bytes: settings.body_limit_bytes,
        broadcast_delay: settings.broadcast_delay,
        metrics: settings.metrics,
        shutdown,
        started: std::time::Instant::now(),
        tournament: settings.tournament,
        overlay_csp: pages::overlay_csp(&settings.overlay_frame_ancestors),
        analysis: settings.analysis,
    });
    routes::all()
        .fallback(error::handle_no_route)
        .method_not_allowed_fallback(error::handle_wrong_method)
        .layer(edge::EdgeLayer::new(
            Arc::default(),
            cors(&settings.cors_allow_origins),
            matches!(settings.cors_allow_origins, AllowOrigins::Any),
        ))
        .layer(DefaultBodyLimit::max(settings.body_limit_bytes))
        .layer(TraceLayer::new_for_http())
        .with_state(app)
}

fn cors(origins: &AllowOrigins) -> CorsLayer {
    let allow_origin = match origins {
        AllowOrigins::Any => AllowOrigin::any(),
        AllowOrigins::List(list) => AllowOrigin::list(list.iter().cloned()),
    };
    CorsLayer::new()
        .allow_origin(allow_origin)
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            HeaderName::from_static("last-event-id"),
        ])
        .max_age(Duration::from_secs(600))
}

async fn upkeep_metrics(handle: PrometheusHandle, shutdown: CancellationToken) {
    let mut tick = tokio::time::interval(METRICS_UPKEEP);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => break,
            // Off the async workers, as a render: it walks every series of the hall.
            _ = tick.tick() => {
                let handle = handle.clone();
                let _ = tokio::task::spawn_blocking(move || handle.run_upkeep()).await;
            }
        }
    }
}
