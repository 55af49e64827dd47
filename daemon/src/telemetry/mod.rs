//! The daemon's Prometheus series: one catalog (name, type, labels, help, buckets) that
//! describes them to the recorder and to `docs/api.md`, and the few recorders that need
//! more than one line at their call site (link counters, alerts, journal commits).
//!
//! Label sets stay bounded: route templates, board ids, port labels of the config, kinds.

use std::collections::HashSet;
use std::time::Duration;

use goban_hardware::LinkStats;
use goban_referee::{DeviceAlert, DeviceAlertKind, Event, EventKind};

/// A Prometheus metric type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Only grows (reset by a restart).
    Counter,
    /// Goes up and down.
    Gauge,
    /// Observations counted in buckets, with `_sum` and `_count`.
    Histogram,
}

/// One series of the /metrics page.
#[derive(Debug)]
pub(crate) struct Series {
    /// Metric name, with its unit and `_total` for counters.
    pub(crate) name: &'static str,
    /// Its type.
    pub(crate) kind: Kind,
    /// Its label names (besides `le` of a histogram).
    pub(crate) labels: &'static [&'static str],
    /// The `# HELP` text.
    pub(crate) help: &'static str,
    /// Upper bounds of the buckets of a histogram.
    pub(crate) buckets: &'static [f64],
}

/// HTTP requests: 100 µs (a cached state) to 5 s (an archive download).
const HTTP_SECONDS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];
/// Journal commits: 50 µs (a small transaction in the page cache) to 1 s (a stalled disk).
const COMMIT_SECONDS: &[f64] = &[
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
];
/// A board's wait for its timer or its journal: 50 µs to 1 s, as commits.
const BOARD_WAIT_SECONDS: &[f64] = COMMIT_SECONDS;
/// Board batches per commit: one board alone up to the writer's 256 requests.
const COMMIT_BATCHES: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];
/// Rows (inputs and messages) per commit.
const COMMIT_ROWS: &[f64] = &[
    1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 4096.0,
];

const fn series(
    name: &'static str,
    kind: Kind,
    labels: &'static [&'static str],
    help: &'static str,
) -> Series {
    Series {
        name,
        kind,
        labels,
        help,
        buckets: &[],
    }
}

const fn histogram(
    name: &'static str,
    labels: &'static [&'static str],
    help: &'static str,
    buckets: &'static [f64],
) -> Series {
    Series {
        name,
        kind: Kind::Histogram,
        labels,
        help,
        buckets,
    }
}

const BOARD_PORT: &[&str] = &["board", "port"];

/// Every series the daemon records (docs/api.md lists the same, tested).
pub(crate) const SERIES: &[Series] = &[
    series(
        "goban_http_requests_total",
        Kind::Counter,
        &["method", "route", "status"],
        "HTTP requests answered, by method, route template and status code",
    ),
    histogram(
        "goban_http_request_duration_seconds",
        &["method", "route"],
        "Time from an HTTP request to its response head, by method and route template",
        HTTP_SECONDS,
    ),
    series(
        "goban_http_sse_clients",
        Kind::Gauge,
        &[],
        "Open Server-Sent Events streams",
    ),
    series(
        "goban_http_idle_closed_total",
        Kind::Counter,
        &[],
        "HTTP connections closed after moving no byte for server.idle_timeout",
    ),
    series(
        "goban_http_delay_held_messages",
        Kind::Gauge,
        &[],
        "Messages held back by the broadcast delay",
    ),
    series(
        "goban_analysis_positions_total",
        Kind::Counter,
        &[],
        "Positions an engine analysed and the daemon published beside them",
    ),
    series(
        "goban_analysis_failures_total",
        Kind::Counter,
        &[],
        "Positions an engine failed on or overran (the engine is started again)",
    ),
    series(
        "goban_analysis_waiting",
        Kind::Gauge,
        &[],
        "Boards with a position waiting for the engine",
    ),
    series(
        "goban_http_arbiter_requests_total",
        Kind::Counter,
        &["kind", "outcome"],
        "Arbiter requests by command kind and outcome (applied, refused)",
    ),
    series(
        "goban_board_input_queue_depth",
        Kind::Gauge,
        &["board"],
        "Device link events waiting in a board's input queue after its last batch",
    ),
    series(
        "goban_alerts_raised_total",
        Kind::Counter,
        &["board", "source", "kind"],
        "Alerts raised live, by board, source (infraction, device) and kind",
    ),
    series(
        "goban_board_port_lag_seconds",
        Kind::Gauge,
        &["board"],
        "How late the board's readings arrive after the clock's, measured from play",
    ),
    histogram(
        "goban_board_alarm_late_seconds",
        &[],
        "How late a board's timer (settle time, clock deadline) woke its task after the deadline",
        BOARD_WAIT_SECONDS,
    ),
    histogram(
        "goban_board_publish_wait_seconds",
        &[],
        "Time from a board batch that cannot wait (a move, an alert) sealed to its messages published: the journal's round trip",
        BOARD_WAIT_SECONDS,
    ),
    histogram(
        "goban_journal_commit_duration_seconds",
        &[],
        "Time of one journal transaction (group commit of every waiting board batch)",
        COMMIT_SECONDS,
    ),
    histogram(
        "goban_journal_commit_batches",
        &[],
        "Board batches written by one journal commit",
        COMMIT_BATCHES,
    ),
    histogram(
        "goban_journal_commit_rows",
        &[],
        "Inputs and messages written by one journal commit",
        COMMIT_ROWS,
    ),
    series(
        "goban_journal_wal_bytes",
        Kind::Gauge,
        &[],
        "Size of the journal's write-ahead log file after its last fold",
    ),
    series(
        "goban_journal_commit_errors_total",
        Kind::Counter,
        &[],
        "Journal commits that failed; nothing of them was published",
    ),
    series(
        "goban_journal_unjournaled_batches",
        Kind::Gauge,
        &["board"],
        "Batches of a board that the journal refused, waiting unpublished for it",
    ),
    series(
        "goban_mqtt_outbox_depth",
        Kind::Gauge,
        &[],
        "Messages waiting in the MQTT publisher's outbox",
    ),
    series(
        "goban_mqtt_dropped_total",
        Kind::Counter,
        &[],
        "MQTT messages dropped: the outbox was full while the broker was away, or a refill could not read the journal",
    ),
    series(
        "goban_mqtt_refilled_total",
        Kind::Counter,
        &[],
        "MQTT messages read back from the journal after the publisher fell behind the hub's bus",
    ),
    series(
        "goban_mqtt_published_total",
        Kind::Counter,
        &[],
        "MQTT messages handed to the client for the broker",
    ),
    series(
        "goban_mqtt_connection_errors_total",
        Kind::Counter,
        &[],
        "MQTT connection errors (each one is followed by a reconnect attempt)",
    ),
    series(
        "goban_mqtt_refused_publish_total",
        Kind::Counter,
        &[],
        "Embedded broker: clients closed for publishing where they may not",
    ),
    series(
        "goban_device_frames_total",
        Kind::Counter,
        BOARD_PORT,
        "Valid frames received from the devices, by board and port",
    ),
    series(
        "goban_device_received_bytes_total",
        Kind::Counter,
        BOARD_PORT,
        "Bytes received from the devices (frames and line noise), by board and port",
    ),
    series(
        "goban_device_rejected_frames_total",
        Kind::Counter,
        BOARD_PORT,
        "Frames the decoder rejected for any reason (CRC, format, length), by board and port",
    ),
    series(
        "goban_device_crc_errors_total",
        Kind::Counter,
        BOARD_PORT,
        "Frames rejected for a CRC mismatch, by board and port",
    ),
    series(
        "goban_device_sequence_gaps_total",
        Kind::Counter,
        BOARD_PORT,
        "Gaps or backward jumps in the devices' sequence numbers, by board and port",
    ),
    series(
        "goban_device_reconnects_total",
        Kind::Counter,
        BOARD_PORT,
        "Successful device connections after a port's first one, by board and port",
    ),
    series(
        "goban_device_disconnects_total",
        Kind::Counter,
        BOARD_PORT,
        "Device connections lost (watchdog, end of file, I/O error), by board and port",
    ),
];

/// Describes every series to the installed recorder, and shows the label-less counters
/// and gauges at 0 from the start (a scrape then sees "no drop yet", not "no such series").
pub(crate) fn describe() {
    for series in SERIES {
        match series.kind {
            Kind::Counter => {
                metrics::describe_counter!(series.name, series.help);
                if series.labels.is_empty() {
                    metrics::counter!(series.name).increment(0);
                }
            }
            Kind::Gauge => {
                metrics::describe_gauge!(series.name, series.help);
                if series.labels.is_empty() {
                    metrics::gauge!(series.name).increment(0.0);
                }
            }
            Kind::Histogram => {
                metrics::describe_histogram!(series.name, series.help);
            }
        }
    }
}

/// One journal commit of `batches` board batches and `rows` rows (a commit without a
/// batch only flushed and is not counted).
pub(crate) fn journal_commit(took: Duration, batches: usize, rows: usize, committed: bool) {
    if batches == 0 {
        return;
    }
    metrics::histogram!("goban_journal_commit_duration_seconds").record(took.as_secs_f64());
    metrics::histogram!("goban_journal_commit_batches").record(batches as f64);
    metrics::histogram!("goban_journal_commit_rows").record(rows as f64);
    if !committed {
        metrics::counter!("goban_journal_commit_errors_total").increment(1);
    }
}

/// The journal's WAL file size after a fold: about one fold interval of writes while the
/// WAL starts over; growing from fold to fold, the folds cannot finish.
pub(crate) fn journal_wal(bytes: u64) {
    metrics::gauge!("goban_journal_wal_bytes").set(bytes as f64);
}

/// Adds what a port's link counters grew by since its last report (`before`) to the
/// device counters of `board`; each report is cumulative, so nothing is counted twice.
/// A link whose counters went down started again from zero: its whole count is new.
pub(crate) fn link_stats(board: &str, before: Option<&LinkStats>, now: &LinkStats) {
    let grew = |read: fn(&LinkStats) -> u64| {
        let then = before.map_or(0, read);
        let value = read(now);
        if value >= then { value - then } else { value }
    };
    let labels = [("board", board.to_owned()), ("port", now.port.clone())];
    metrics::counter!("goban_device_frames_total", &labels).increment(grew(|s| s.frames));
    metrics::counter!("goban_device_received_bytes_total", &labels).increment(grew(|s| s.bytes));
    metrics::counter!("goban_device_rejected_frames_total", &labels)
        .increment(grew(|s| s.decoder.rejections.total()));
    metrics::counter!("goban_device_crc_errors_total", &labels)
        .increment(grew(|s| s.decoder.rejections.bad_crc));
    metrics::counter!("goban_device_sequence_gaps_total", &labels)
        .increment(grew(|s| s.sequence_gaps));
    metrics::counter!("goban_device_reconnects_total", &labels).increment(grew(|s| s.reconnects));
    metrics::counter!("goban_device_disconnects_total", &labels).increment(grew(|s| s.disconnects));
}

/// Counts the alerts of one referee's live events: each infraction raised, and each
/// device alert the first time it shows up in a `device` event. Alerts the referee held
/// before its first live input (recovered from the journal) are not counted again.
#[derive(Debug, Default)]
pub(crate) struct AlertMeter {
    /// Ids of the device alerts seen; `None` until the first live input.
    seen: Option<HashSet<String>>,
}

impl AlertMeter {
    /// Before the first live input: takes the alerts the referee already holds as seen.
    pub(crate) fn prime(&mut self, held: impl FnOnce() -> Vec<DeviceAlert>) {
        if self.seen.is_none() {
            self.seen = Some(held().into_iter().map(|alert| alert.id).collect());
        }
    }

    /// Counts the alerts `event` raises.
    pub(crate) fn count(&mut self, event: &Event) {
        match &event.kind {
            EventKind::InfractionRaised { infraction } => {
                raised(&event.board, "infraction", infraction.kind.id());
            }
            EventKind::Device { device } => {
                // Device events are rare (links, alerts, a lag that moved): the gauge is cheap here.
                metrics::gauge!("goban_board_port_lag_seconds", "board" => event.board.clone())
                    .set(device.port_lag_ms as f64 / 1_000.0);
                let seen = self.seen.get_or_insert_with(HashSet::new);
                for alert in &device.alerts {
                    if seen.insert(alert.id.clone()) {
                        raised(&event.board, "device", device_alert_kind(alert.kind));
                    }
                }
            }
            _ => {}
        }
    }
}

fn raised(board: &str, source: &'static str, kind: &'static str) {
    metrics::counter!("goban_alerts_raised_total", "board" => board.to_owned(), "source" => source, "kind" => kind)
        .increment(1);
}

fn device_alert_kind(kind: DeviceAlertKind) -> &'static str {
    match kind {
        DeviceAlertKind::BoardUnavailable => "board_unavailable",
        DeviceAlertKind::ChatteringSensor => "chattering_sensor",
        DeviceAlertKind::PortLag => "port_lag",
    }
}

#[cfg(test)]
mod tests;
