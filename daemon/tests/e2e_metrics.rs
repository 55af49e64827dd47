//! End-to-end: the real binary's /metrics after a little play with device faults and an infraction has every slow-hall series, and passes `promtool check metrics`.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::*;
use tokio_util::sync::CancellationToken;

/// A bad CRC and lost frames on the board, a premature press, then the board unplugged.
const SCRIPT: &str = r#"{"steps": [
  {"at_move": 2, "fault": "crc_error", "device": "board", "count": 2},
  {"at_move": 3, "fault": "drop_frames", "device": "board", "count": 1},
  {"at_move": 4, "fault": "premature_press"},
  {"at_move": 6, "fault": "unplug", "device": "board", "down_ms": 1500}
]}"#;

/// The series a hall operator reads when the hall is slow, present after any play.
const EXPECTED: &[&str] = &[
    "goban_http_requests_total",
    "goban_http_request_duration_seconds",
    "goban_http_sse_clients",
    "goban_board_input_queue_depth",
    "goban_board_alarm_late_seconds",
    "goban_board_publish_wait_seconds",
    "goban_alerts_raised_total",
    "goban_journal_commit_duration_seconds",
    "goban_journal_commit_batches",
    "goban_journal_commit_rows",
    "goban_journal_commit_errors_total",
    "goban_mqtt_outbox_depth",
    "goban_mqtt_dropped_total",
    "goban_mqtt_refilled_total",
    "goban_mqtt_published_total",
    "goban_mqtt_connection_errors_total",
    "goban_device_frames_total",
    "goban_device_received_bytes_total",
    "goban_device_rejected_frames_total",
    "goban_device_crc_errors_total",
    "goban_device_sequence_gaps_total",
    "goban_device_reconnects_total",
    "goban_device_disconnects_total",
];

/// The value of the first sample whose line starts with `name` and holds every one of `labels`.
fn sample(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter(|line| {
            line.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('{') || rest.starts_with(' '))
        })
        .find(|line| labels.iter().all(|label| line.contains(label)))
        .and_then(|line| line.rsplit(' ').next())
        .and_then(|value| value.parse().ok())
}

/// `promtool check metrics` on `text`: `None` when promtool is not installed, else its verdict.
fn promtool(text: &str) -> Option<Result<(), String>> {
    let mut child = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(text.as_bytes())
        .expect("write to promtool");
    let out = child.wait_with_output().expect("promtool ran");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(if out.status.success() && said.trim().is_empty() {
        Ok(())
    } else {
        Err(format!("exit {:?}: {said}", out.status.code()))
    })
}

/// The config of `write_config`, publishing to the daemon's embedded broker on a free port.
fn config_with_embedded_broker(work: &std::path::Path, http_port: u16) -> std::path::PathBuf {
    let mqtt_port = free_port();
    let path = write_config(work, http_port, mqtt_port, "goban-metrics", 1);
    let text = std::fs::read_to_string(&path)
        .expect("read config")
        .replace(
            &format!("url = \"mqtt://127.0.0.1:{mqtt_port}\""),
            &format!("embedded_port = {mqtt_port}"),
        );
    std::fs::write(&path, text).expect("write config");
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_of_a_real_run_explain_the_hall_and_pass_promtool() {
    let work = tempfile::tempdir().expect("tempdir");
    let http_port = free_port();
    let config = config_with_embedded_broker(work.path(), http_port);
    let _daemon = Daemon::run(&config);
    let base = format!("http://127.0.0.1:{http_port}");
    wait_for(
        &format!("{base}/api/v1/health"),
        Duration::from_secs(20),
        |_| true,
    )
    .await;
    let cancel = CancellationToken::new();
    let _tables = spawn_sim(&work.path().join("ports"), 1, 12.0, SCRIPT, &cancel);
    // An SSE client for a moment, and a few REST reads.
    let _ = read_sse(
        &format!("{base}/api/v1/boards/table-1/events"),
        Some(0),
        Duration::from_millis(300),
    )
    .await;

    // Every fault of the script shows in its counter; the board is back and playing.
    let board = r#"board="table-1""#;
    let done = |text: &str| {
        let at_least = |name: &str, labels: &[&str], n: f64| {
            sample(text, name, labels).is_some_and(|v| v >= n)
        };
        at_least("goban_device_frames_total", &[board], 10.0)
            && at_least("goban_device_crc_errors_total", &[board], 2.0)
            && at_least("goban_device_rejected_frames_total", &[board], 2.0)
            && at_least("goban_device_sequence_gaps_total", &[board], 1.0)
            && at_least("goban_device_reconnects_total", &[board], 1.0)
            && at_least("goban_device_disconnects_total", &[board], 1.0)
            && at_least(
                "goban_alerts_raised_total",
                &[board, r#"source="infraction""#, r#"kind="premature_press""#],
                1.0,
            )
            && at_least("goban_journal_commit_duration_seconds_count", &[], 1.0)
            // Moves settle on the board's timer and go out after their own commit.
            && at_least("goban_board_alarm_late_seconds_count", &[], 1.0)
            && at_least("goban_board_publish_wait_seconds_count", &[], 1.0)
            && at_least("goban_mqtt_published_total", &[], 1.0)
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    let text = loop {
        let _ = http()
            .get(format!("{base}/api/v1/boards/table-1"))
            .send()
            .await;
        let text = match http().get(format!("{base}/metrics")).send().await {
            Ok(response) => response.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if done(&text) {
            break text;
        }
        assert!(
            Instant::now() < deadline,
            "the faults never all showed in /metrics; last page:\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    cancel.cancel();

    let lines = format!("\n{text}");
    for name in EXPECTED {
        assert!(
            lines.contains(&format!("\n# HELP {name} "))
                && lines.contains(&format!("\n# TYPE {name} ")),
            "{name} has no HELP or TYPE:\n{text}"
        );
        assert!(
            sample(&text, name, &[]).is_some()
                || sample(&text, &format!("{name}_count"), &[]).is_some(),
            "{name} has no sample:\n{text}"
        );
    }
    for latency in [
        "goban_http_request_duration_seconds",
        "goban_journal_commit_duration_seconds",
        "goban_board_alarm_late_seconds",
        "goban_board_publish_wait_seconds",
    ] {
        assert!(
            text.contains(&format!("# TYPE {latency} histogram"))
                && text.contains(&format!("{latency}_bucket{{")),
            "{latency} is not a histogram:\n{text}"
        );
    }
    // Counters of both ports of the table; route templates, never raw paths.
    assert!(text.contains("usb-goban-sim-table-1-board"), "{text}");
    assert!(text.contains("usb-goban-sim-table-1-clock"), "{text}");
    assert!(text.contains(r#"route="/api/v1/boards/{board}""#), "{text}");
    assert!(
        !text.contains(r#"route="/api/v1/boards/table-1""#),
        "{text}"
    );

    match promtool(&text) {
        Some(verdict) => {
            if let Err(problems) = verdict {
                panic!("promtool check metrics: {problems}\n{text}");
            }
            println!(
                "promtool check metrics: ok ({} lines)",
                text.lines().count()
            );
        }
        None => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "promtool is required under CI (Debian package prometheus)"
            );
            println!(
                "skipped: promtool not found (apt-get install prometheus); the page was not linted"
            );
        }
    }
}
