//! The catalog against the code that records and the docs that list; link and alert counting.

use std::path::Path;

use goban_hardware::LinkStats;
use goban_referee::{DeviceAlert, DeviceAlertKind, DeviceState, Event, EventKind};
use metrics_exporter_prometheus::PrometheusBuilder;

use super::*;

fn word(kind: Kind) -> &'static str {
    match kind {
        Kind::Counter => "counter",
        Kind::Gauge => "gauge",
        Kind::Histogram => "histogram",
    }
}

fn find(name: &str) -> Option<&'static Series> {
    SERIES.iter().find(|series| series.name == name)
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_series_recorded_in_the_code_is_in_the_catalog() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for crate_dir in [
        "src",
        "../hardware/src",
        "../referee/src",
        "../protocol/src",
    ] {
        rust_files(&root.join(crate_dir), &mut files);
    }
    let call = regex::Regex::new(r#"\b(counter|gauge|histogram)!\(\s*"([^"]+)""#).expect("regex");
    let mut found = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read source");
        for hit in call.captures_iter(&text) {
            let (kind, name) = (&hit[1], &hit[2]);
            let series = find(name).unwrap_or_else(|| {
                panic!("{name} ({}) is recorded but not in SERIES", file.display())
            });
            assert_eq!(word(series.kind), kind, "{name} in {}", file.display());
            found += 1;
        }
    }
    assert!(found >= 15, "the scan found only {found} metric calls");
}

#[test]
fn names_follow_the_prometheus_conventions() {
    let snake = regex::Regex::new("^goban_[a-z0-9_]+$").expect("regex");
    for series in SERIES {
        let name = series.name;
        assert!(snake.is_match(name), "{name}");
        assert_eq!(
            series.kind == Kind::Counter,
            name.ends_with("_total"),
            "{name}: counters and only counters end in _total"
        );
        assert_eq!(
            series.kind == Kind::Histogram,
            !series.buckets.is_empty(),
            "{name}: histograms and only histograms have buckets"
        );
        assert!(
            series.buckets.windows(2).all(|w| w[0] < w[1]),
            "{name}: buckets grow"
        );
        for unit in ["_ms", "_millis", "_milliseconds", "_kb", "_mb"] {
            assert!(!name.contains(unit), "{name}: base units only");
        }
        assert!(!series.labels.contains(&"le"), "{name}");
        assert!(!series.help.is_empty(), "{name}");
        assert_eq!(
            SERIES.iter().filter(|s| s.name == name).count(),
            1,
            "{name} twice"
        );
    }
    for latency in [
        "goban_http_request_duration_seconds",
        "goban_journal_commit_duration_seconds",
    ] {
        assert_eq!(find(latency).map(|s| s.kind), Some(Kind::Histogram));
    }
}

/// The rows of the metric table of docs/api.md: name, type, label names.
fn documented() -> Vec<(String, String, Vec<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/api.md");
    let text = std::fs::read_to_string(path).expect("docs/api.md");
    text.lines()
        .filter(|line| line.starts_with("| `goban_"))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let unquote = |cell: &str| cell.trim_matches('`').to_owned();
            let labels = cells[3]
                .split(',')
                .map(str::trim)
                .filter(|label| !label.is_empty())
                .map(unquote)
                .collect();
            (unquote(cells[1]), cells[2].to_owned(), labels)
        })
        .collect()
}

#[test]
fn docs_list_every_series_with_its_type_and_labels() {
    let rows = documented();
    let expected: Vec<(String, String, Vec<String>)> = SERIES
        .iter()
        .map(|s| {
            (
                s.name.to_owned(),
                word(s.kind).to_owned(),
                s.labels.iter().map(|l| (*l).to_owned()).collect(),
            )
        })
        .collect();
    assert_eq!(
        rows, expected,
        "docs/api.md's /metrics table against SERIES"
    );
}

/// Renders what `record` does on a recorder of its own (the global one is the process's).
fn render(record: impl FnOnce()) -> String {
    let recorder = PrometheusBuilder::new().build_recorder();
    let handle = recorder.handle();
    metrics::with_local_recorder(&recorder, record);
    handle.render()
}

/// The value of the sample line that starts with `series` (name and labels), 0 if none.
fn value(text: &str, series: &str) -> u64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series))
        .and_then(|rest| rest.trim().parse().ok())
        .unwrap_or(0)
}

fn stats(frames: u64, crc: u64, gaps: u64, reconnects: u64) -> LinkStats {
    let mut stats = LinkStats::new("/dev/ttyUSB0");
    stats.frames = frames;
    stats.decoder.rejections.bad_crc = crc;
    stats.decoder.rejections.bad_kind = 1;
    stats.sequence_gaps = gaps;
    stats.reconnects = reconnects;
    stats
}

#[test]
fn link_counters_add_what_each_report_grew_by() {
    let first = stats(10, 1, 0, 0);
    let second = stats(25, 3, 2, 1);
    let replugged = stats(4, 0, 0, 0);
    let text = render(|| {
        link_stats("t1", None, &first);
        link_stats("t1", Some(&first), &second);
        // The same report again (a device message re-sent) adds nothing.
        link_stats("t1", Some(&second), &second);
        // Counters that went down belong to a new link: all of them are new.
        link_stats("t1", Some(&second), &replugged);
    });
    let labels = r#"{board="t1",port="/dev/ttyUSB0"}"#;
    let of = |name: &str| value(&text, &format!("{name}{labels}"));
    assert_eq!(of("goban_device_frames_total"), 25 + 4, "{text}");
    assert_eq!(of("goban_device_crc_errors_total"), 3, "{text}");
    assert_eq!(
        of("goban_device_rejected_frames_total"),
        3 + 1 + 1,
        "{text}"
    );
    assert_eq!(of("goban_device_sequence_gaps_total"), 2, "{text}");
    assert_eq!(of("goban_device_reconnects_total"), 1, "{text}");
    assert!(
        text.contains(&format!("goban_device_disconnects_total{labels} 0")),
        "every counter shows from the first report: {text}"
    );
}

fn alert(n: u32, kind: DeviceAlertKind) -> DeviceAlert {
    DeviceAlert {
        id: format!("t1-d{n}"),
        kind,
        point: None,
        presses_unexplained: 0,
        raised_at: String::new(),
        resolved_at: None,
        message: String::new(),
    }
}

fn device_event(alerts: Vec<DeviceAlert>) -> Event {
    Event {
        board: "t1".into(),
        game: None,
        at: String::new(),
        kind: EventKind::Device {
            device: DeviceState {
                alerts,
                ..DeviceState::default()
            },
        },
    }
}

#[test]
fn a_device_alert_counts_once_and_recovered_ones_not_again() {
    let recovered = alert(1, DeviceAlertKind::BoardUnavailable);
    let chatter = alert(2, DeviceAlertKind::ChatteringSensor);
    let text = render(|| {
        let mut meter = AlertMeter::default();
        meter.prime(|| vec![recovered.clone()]);
        // Priming again (every live input does) keeps what was seen.
        meter.prime(Vec::new);
        meter.count(&device_event(vec![recovered.clone()]));
        meter.count(&device_event(vec![recovered.clone(), chatter.clone()]));
        meter.count(&device_event(vec![recovered.clone(), chatter.clone()]));
    });
    let series = |kind: &str| {
        format!(r#"goban_alerts_raised_total{{board="t1",source="device",kind="{kind}"}}"#)
    };
    assert_eq!(value(&text, &series("chattering_sensor")), 1, "{text}");
    assert!(!text.contains("board_unavailable"), "{text}");
}
