//! The hall's ingest report: each probe move's DIFF written -> event received, minus the settle time.

use std::time::{Duration, Instant};

use super::probe::Sample;
use super::{ms, percentiles};

/// The figures of the summary row (p50 / p99 / max, ms) and the sample counts.
pub(super) struct Ingest {
    pub(super) sse: String,
    pub(super) mqtt: String,
    pub(super) counted: usize,
    pub(super) sse_missing: usize,
    pub(super) mqtt_missing: usize,
}

/// Prints the ingest latency of the samples taken in the window, how many probe moves were
/// written in the same millisecond as another probe's, and the slowest MQTT arrivals.
pub(super) fn report(samples: &[Sample], settle: f64) -> Ingest {
    let counted: Vec<&Sample> = samples.iter().filter(|s| s.counted).collect();
    let late = |s: &Sample, at: Instant| ms(at.saturating_duration_since(s.written)) - settle;
    let latency = |pick: fn(&Sample) -> Option<Instant>| -> (Vec<f64>, usize) {
        let values: Vec<f64> = counted
            .iter()
            .filter_map(|s| Some(late(s, pick(s)?)))
            .collect();
        let missing = counted.len() - values.len();
        (values, missing)
    };
    let (sse, sse_missing) = latency(|s| s.sse);
    let (mqtt, mqtt_missing) = latency(|s| s.mqtt);
    println!(
        "ingest, DIFF written -> event received, minus the {settle:.0} ms settle time:\n  \
         SSE  {}, {sse_missing} not received within 5 s\n  \
         MQTT {}, {mqtt_missing} not received within 5 s",
        percentiles(sse.clone()),
        percentiles(mqtt.clone()),
    );
    let in_step = |s: &Sample| {
        counted.iter().any(|o| {
            o.board != s.board
                && (o.written.max(s.written) - o.written.min(s.written)) < Duration::from_millis(1)
        })
    };
    let apart: Vec<f64> = counted
        .iter()
        .filter(|s| !in_step(s))
        .filter_map(|s| Some(late(s, s.sse?)))
        .collect();
    println!(
        "  DIFFs written within 1 ms of another probe's: {} of {}; SSE of the others: {}",
        counted.len() - apart.len(),
        counted.len(),
        percentiles(apart)
    );
    println!("  the slowest on SSE: {}", slowest_on_sse(&counted, late));
    let mut slow: Vec<(f64, String)> = counted
        .iter()
        .filter_map(|s| {
            let late = late(s, s.mqtt?);
            (late > 100.0).then(|| (late, format!("{} move {}", s.board, s.number)))
        })
        .collect();
    slow.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!(
        "  MQTT over 100 ms: {} of {}, over 500 ms: {}; the slowest: {}",
        slow.len(),
        counted.len(),
        slow.iter().filter(|s| s.0 > 500.0).count(),
        slow.iter()
            .take(6)
            .map(|(late, what)| format!("{what} {late:.0} ms"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ingest {
        sse: short(sse),
        mqtt: short(mqtt),
        counted: counted.len(),
        sse_missing,
        mqtt_missing,
    }
}

/// The ten slowest SSE arrivals with the wall-clock time their DIFF was written (UTC, to the
/// millisecond), to be found in the daemon's log (`GOBAN_HALL_LOG`).
fn slowest_on_sse(counted: &[&Sample], late: impl Fn(&Sample, Instant) -> f64) -> String {
    let (now, wall_now) = (Instant::now(), std::time::SystemTime::now());
    let mut slow: Vec<(f64, &Sample)> = counted
        .iter()
        .filter_map(|s| Some((late(s, s.sse?), *s)))
        .collect();
    slow.sort_by(|a, b| b.0.total_cmp(&a.0));
    slow.iter()
        .take(10)
        .map(|(late, s)| {
            let wall = wall_now - now.saturating_duration_since(s.written);
            let of_day = wall
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() % 86_400_000);
            format!(
                "{late:.2} ms ({} move {}, written {:02}:{:02}:{:02}.{:03})",
                s.board,
                s.number,
                of_day / 3_600_000,
                of_day / 60_000 % 60,
                of_day / 1000 % 60,
                of_day % 1000
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// "a / b / c" of [`percentiles`]' "p50 a / p99 b / max c ms (n = …)".
fn short(values: Vec<f64>) -> String {
    let text = percentiles(values);
    text.split(" ms")
        .next()
        .unwrap_or("")
        .replace("p50 ", "")
        .replace("p99 ", "")
        .replace("max ", "")
}
