//! The request metrics of each route, their handles looked up in the recorder once per route, method and status.
//!
//! `metrics::counter!` with labels builds a key and searches the registry at
//! every call: a few allocations and comparisons that cost a static board
//! read a noticeable share of its time. The handles are kept here instead.

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::Duration;

use metrics::{Counter, Histogram};

/// Handles of the request series, by route template.
#[derive(Default)]
pub(crate) struct RouteMeters {
    routes: RwLock<HashMap<Box<str>, Vec<Meter>>>,
}

/// The series of one route, method and status.
struct Meter {
    method: &'static str,
    status: u16,
    duration: Histogram,
    requests: Counter,
}

impl Meter {
    fn new(route: &str, method: &'static str, status: u16) -> Self {
        Self {
            method,
            status,
            duration: metrics::histogram!(
                "goban_http_request_duration_seconds",
                "method" => method,
                "route" => route.to_owned()
            ),
            requests: metrics::counter!(
                "goban_http_requests_total",
                "method" => method,
                "route" => route.to_owned(),
                "status" => status.to_string()
            ),
        }
    }

    fn record(&self, took: Duration) {
        self.duration.record(took.as_secs_f64());
        self.requests.increment(1);
    }
}

impl RouteMeters {
    /// Count one request of `route` (a template, never a raw path) and record its duration.
    pub(crate) fn record(&self, route: &str, method: &'static str, status: u16, took: Duration) {
        let is_meter = |m: &&Meter| m.method == method && m.status == status;
        {
            let routes = self.routes.read().unwrap_or_else(|e| e.into_inner());
            if let Some(meter) = routes.get(route).and_then(|ms| ms.iter().find(is_meter)) {
                meter.record(took);
                return;
            }
        }
        let mut routes = self.routes.write().unwrap_or_else(|e| e.into_inner());
        let meters = routes.entry(route.into()).or_default();
        // Another request may have added it between the two locks.
        match meters.iter().find(is_meter) {
            Some(meter) => meter.record(took),
            None => {
                let meter = Meter::new(route, method, status);
                meter.record(took);
                meters.push(meter);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_route_method_and_status_is_its_own_series() {
        let recorder = metrics_exporter_prometheus::PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            let meters = RouteMeters::default();
            let took = Duration::from_millis(2);
            meters.record("/api/v1/boards/{board}", "GET", 200, took);
            meters.record("/api/v1/boards/{board}", "GET", 200, took);
            meters.record("/api/v1/boards/{board}", "GET", 404, took);
            meters.record("/api/v1/health", "GET", 200, took);
        });
        let text = handle.render();
        for (line, count) in [
            (
                r#"goban_http_requests_total{method="GET",route="/api/v1/boards/{board}",status="200"}"#,
                2,
            ),
            (
                r#"goban_http_requests_total{method="GET",route="/api/v1/boards/{board}",status="404"}"#,
                1,
            ),
            (
                r#"goban_http_requests_total{method="GET",route="/api/v1/health",status="200"}"#,
                1,
            ),
            (
                r#"goban_http_request_duration_seconds_count{method="GET",route="/api/v1/boards/{board}"}"#,
                3,
            ),
        ] {
            assert!(
                text.contains(&format!("{line} {count}\n")),
                "{line} {count}:\n{text}"
            );
        }
    }
}
