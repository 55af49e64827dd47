//! Prometheus metrics: the process-wide recorder, per-request counters and the /metrics page.

use std::sync::{Arc, OnceLock};

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use super::App;
use super::error::ApiError;

static RECORDER: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the global Prometheus recorder once; later calls return the same handle.
///
/// `None` when another recorder was installed first (metrics then go there, not to /metrics).
pub(crate) fn install_metrics() -> Option<PrometheusHandle> {
    RECORDER
        .get_or_init(|| match builder().install_recorder() {
            Ok(handle) => {
                crate::telemetry::describe();
                Some(handle)
            }
            Err(error) => {
                tracing::warn!(cause = %error, "Prometheus recorder not installed; /metrics disabled");
                None
            }
        })
        .clone()
}

/// The exporter with the buckets of every histogram of the catalog (without buckets the
/// exporter would render a summary, which cannot be aggregated across scrapes or daemons).
pub(crate) fn builder() -> PrometheusBuilder {
    crate::telemetry::SERIES
        .iter()
        .filter(|series| !series.buckets.is_empty())
        .fold(PrometheusBuilder::new(), |builder, series| {
            builder
                .set_buckets_for_metric(Matcher::Full(series.name.to_owned()), series.buckets)
                .unwrap_or_else(|_| unreachable!("the catalog's buckets are not empty"))
        })
}

/// The method as a label: the standard ones by name, any extension method as `other`.
pub(crate) fn method_label(method: &axum::http::Method) -> &'static str {
    match method.as_str() {
        "GET" => "GET",
        "HEAD" => "HEAD",
        "POST" => "POST",
        "PUT" => "PUT",
        "PATCH" => "PATCH",
        "DELETE" => "DELETE",
        "OPTIONS" => "OPTIONS",
        "CONNECT" => "CONNECT",
        "TRACE" => "TRACE",
        _ => "other",
    }
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
    let handle = app.metrics.clone().ok_or(ApiError::MetricsDisabled)?;
    let content_type = [(
        header::CONTENT_TYPE,
        "text/plain; version=0.0.4; charset=utf-8",
    )];
    // A hall's page is long (about 880 KB and 34 ms at 512 boards): rendered inline, it held
    // one of the async workers, and the boards' moves waiting behind it, for that long.
    let text = tokio::task::spawn_blocking(move || handle.render())
        .await
        .map_err(|error| ApiError::Unavailable(format!("metrics render failed: {error}")))?;
    Ok((content_type, text).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::telemetry::{Kind, SERIES};

    /// Every series of the catalog recorded once (labels set to `x`) on a recorder of its own.
    fn render_catalog() -> String {
        let recorder = builder().build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            crate::telemetry::describe();
            for series in SERIES {
                let labels: Vec<(&str, &str)> = series.labels.iter().map(|l| (*l, "x")).collect();
                match series.kind {
                    Kind::Counter => metrics::counter!(series.name, &labels).increment(1),
                    Kind::Gauge => metrics::gauge!(series.name, &labels).set(1.0),
                    Kind::Histogram => metrics::histogram!(series.name, &labels).record(0.002),
                }
            }
        });
        handle.render()
    }

    #[test]
    fn every_series_renders_with_help_and_type() {
        let text = render_catalog();
        for series in SERIES {
            let kind = match series.kind {
                Kind::Counter => "counter",
                Kind::Gauge => "gauge",
                Kind::Histogram => "histogram",
            };
            assert!(
                text.contains(&format!("# HELP {} {}\n", series.name, series.help)),
                "no HELP for {}:\n{text}",
                series.name
            );
            assert!(
                text.contains(&format!("# TYPE {} {kind}\n", series.name)),
                "no TYPE {kind} for {}:\n{text}",
                series.name
            );
        }
        assert!(!text.contains("quantile="), "a summary slipped in:\n{text}");
    }

    #[test]
    fn latency_metrics_render_as_histograms_with_their_buckets() {
        let text = render_catalog();
        for series in SERIES.iter().filter(|s| s.kind == Kind::Histogram) {
            let buckets = text
                .lines()
                .filter(|line| line.starts_with(&format!("{}_bucket{{", series.name)))
                .count();
            // One line per bound, plus +Inf.
            assert_eq!(
                buckets,
                series.buckets.len() + 1,
                "{}:\n{text}",
                series.name
            );
            assert!(text.contains(&format!("{}_count", series.name)), "{text}");
            assert!(text.contains(&format!("{}_sum", series.name)), "{text}");
        }
        assert!(
            text.contains(r#"goban_journal_commit_duration_seconds_bucket{le="0.00005"} 0"#),
            "{text}"
        );
        assert!(
            text.contains(r#"goban_journal_commit_duration_seconds_bucket{le="0.0025"} 1"#),
            "{text}"
        );
        assert!(
            text.contains(
                r#"goban_http_request_duration_seconds_bucket{method="x",route="x",le="5"} 1"#
            ),
            "{text}"
        );
    }

    #[test]
    fn the_catalog_passes_promtool_where_installed() {
        use std::io::Write;
        let Ok(mut child) = std::process::Command::new("promtool")
            .args(["check", "metrics"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
        else {
            // daemon/tests/e2e_metrics.rs runs it on the real binary's page and fails under CI.
            println!("skipped: promtool not found (Debian package prometheus)");
            return;
        };
        let text = render_catalog();
        child
            .stdin
            .take()
            .expect("piped stdin")
            .write_all(text.as_bytes())
            .expect("write to promtool");
        let out = child.wait_with_output().expect("promtool ran");
        assert!(
            out.status.success() && out.stdout.is_empty() && out.stderr.is_empty(),
            "promtool check metrics: {}{}\n{text}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    #[test]
    fn extension_methods_share_one_label() {
        let custom = axum::http::Method::from_bytes(b"PROPFIND").expect("a token");
        assert_eq!(method_label(&custom), "other");
        assert_eq!(method_label(&axum::http::Method::POST), "POST");
    }
}
