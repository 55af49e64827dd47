//! Prometheus metrics: the process-wide recorder, per-request counters and the /metrics page.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use super::App;
use super::error::ApiError;

static RECORDER: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the global Prometheus recorder once; later calls return the same handle.
///
/// `None` when another recorder was installed first (metrics then go there, not to /metrics).
pub(crate) fn install_metrics() -> Option<PrometheusHandle> {
    RECORDER
        .get_or_init(|| match PrometheusBuilder::new().install_recorder() {
            Ok(handle) => {
                describe();
                Some(handle)
            }
            Err(error) => {
                tracing::warn!(cause = %error, "Prometheus recorder not installed; /metrics disabled");
                None
            }
        })
        .clone()
}

fn describe() {
    metrics::describe_counter!(
        "goban_http_requests_total",
        "HTTP requests by method, route and status"
    );
    metrics::describe_histogram!(
        "goban_http_request_duration_seconds",
        metrics::Unit::Seconds,
        "Time to the response head, by method and route"
    );
    metrics::describe_gauge!("goban_http_sse_clients", "Open Server-Sent Events streams");
    metrics::describe_gauge!(
        "goban_http_delay_held_messages",
        "Messages held back by the broadcast delay"
    );
    metrics::describe_counter!(
        "goban_http_arbiter_requests_total",
        "Arbiter requests by kind and outcome"
    );
}

/// Middleware counting every request by route template (never the raw path, to bound the label set).
pub(crate) async fn track_request(
    matched: Option<MatchedPath>,
    request: Request,
    next: Next,
) -> Response {
    let route = matched.map_or_else(|| "unmatched".to_owned(), |m| m.as_str().to_owned());
    let method = request.method().as_str().to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::histogram!("goban_http_request_duration_seconds", "method" => method.clone(), "route" => route.clone())
        .record(started.elapsed().as_secs_f64());
    metrics::counter!("goban_http_requests_total", "method" => method, "route" => route, "status" => status)
        .increment(1);
    response
}

/// GET /metrics: the Prometheus text exposition.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses(
        (status = 200, description = "Prometheus text format 0.0.4", content_type = "text/plain; version=0.0.4", body = String),
        (status = 404, description = "Metrics not enabled", body = super::schema::ErrorBody),
    )
)]
pub(crate) async fn handle_metrics(State(app): State<Arc<App>>) -> Result<Response, ApiError> {
    let handle = app.metrics.as_ref().ok_or(ApiError::MetricsDisabled)?;
    let content_type = [(
        header::CONTENT_TYPE,
        "text/plain; version=0.0.4; charset=utf-8",
    )];
    Ok((content_type, handle.render()).into_response())
}
