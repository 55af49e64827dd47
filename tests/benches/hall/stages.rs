//! The daemon's own view of the measuring window: its stage histograms read from `/metrics`
//! at the window's start and end, so the ingest tail can be split into the daemon's timer
//! wake-ups, its journal round trips and the rest (devices, network, broker, this harness).
//!
//! A histogram gives a quantile only to its bucket: "p99 <= 1 ms" means the bucket whose upper
//! bound is 1 ms holds it.

/// The stages reported, with a short name for the table.
const STAGES: &[(&str, &str)] = &[
    ("goban_board_alarm_late_seconds", "timer wake-up late"),
    ("goban_board_publish_wait_seconds", "journal round trip"),
    ("goban_journal_commit_duration_seconds", "commit"),
];

/// One histogram as scraped: cumulative counts by upper bound (seconds), and the sum.
#[derive(Clone, Debug, Default)]
struct Histogram {
    buckets: Vec<(f64, u64)>,
    count: u64,
    sum: f64,
}

/// Every stage's histogram at one scrape.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scrape(Vec<Histogram>);

/// Reads the stage histograms from the daemon's `/metrics` page (`None` if it does not answer).
pub(crate) async fn scrape(http: &reqwest::Client, base: &str) -> Option<Scrape> {
    let text = http
        .get(format!("{base}/metrics"))
        .send()
        .await
        .ok()?
        .text()
        .await
        .ok()?;
    Some(parse(&text))
}

fn parse(text: &str) -> Scrape {
    Scrape(
        STAGES
            .iter()
            .map(|(name, _)| {
                let mut histogram = Histogram::default();
                let bucket = format!("{name}_bucket{{le=\"");
                let (count, sum) = (format!("{name}_count"), format!("{name}_sum"));
                for line in text.lines() {
                    let Some((key, value)) = line.rsplit_once(' ') else {
                        continue;
                    };
                    if let Some(bound) = key.strip_prefix(&bucket) {
                        let bound = bound.trim_end_matches("\"}");
                        // `+Inf` is the count itself: a quantile beyond the top bucket is "> top".
                        if let (Ok(bound), Ok(count)) = (bound.parse::<f64>(), value.parse())
                            && bound.is_finite()
                        {
                            histogram.buckets.push((bound, count));
                        }
                    } else if key == count {
                        histogram.count = value.parse().unwrap_or(0);
                    } else if key == sum {
                        histogram.sum = value.parse().unwrap_or(0.0);
                    }
                }
                histogram
            })
            .collect(),
    )
}

/// The cumulative count of `histogram` at the bucket bound `bound` (0 if it has none).
fn at_most(histogram: &Histogram, bound: f64) -> u64 {
    histogram
        .buckets
        .iter()
        .find(|(b, _)| *b == bound)
        .map_or(0, |(_, c)| *c)
}

/// The upper bound of the bucket holding quantile `q` of what `after` added to `before`.
fn quantile(before: &Histogram, after: &Histogram, q: f64) -> Option<f64> {
    let count = after.count.checked_sub(before.count)?;
    let rank = (q * count as f64).ceil() as u64;
    after.buckets.iter().find_map(|&(bound, cumulative)| {
        let earlier = at_most(before, bound);
        (count > 0 && cumulative.saturating_sub(earlier) >= rank).then_some(bound)
    })
}

/// How many of what `after` added to `before` lie above the bucket bound `bound` (seconds).
fn over(before: &Histogram, after: &Histogram, bound: f64) -> u64 {
    let count = after.count.saturating_sub(before.count);
    count.saturating_sub(at_most(after, bound).saturating_sub(at_most(before, bound)))
}

/// One line per stage over the window: count, mean, p50, p99 and p99.9 (bucket bounds, ms),
/// and how many took over 2.5 and over 5 ms (a tail that the p99 of a few hundred probe moves
/// cannot show).
pub(crate) fn report(before: &Scrape, after: &Scrape) -> String {
    if before.0.is_empty() || after.0.is_empty() {
        return "  (no /metrics page: the daemon's metrics are off or it did not answer)"
            .to_owned();
    }
    let ms = |bound: Option<f64>| bound.map_or("> top".to_owned(), |s| format!("<= {}", s * 1e3));
    STAGES
        .iter()
        .zip(before.0.iter().zip(&after.0))
        .map(|((_, label), (b, a))| {
            let count = a.count.saturating_sub(b.count);
            let mean = (a.sum - b.sum) / count.max(1) as f64 * 1e3;
            format!(
                "  {label}: n = {count}, mean {mean:.3} ms, p50 {} / p99 {} / p99.9 {} ms, over 2.5 / 5 ms: {} / {}",
                ms(quantile(b, a, 0.5)),
                ms(quantile(b, a, 0.99)),
                ms(quantile(b, a, 0.999)),
                over(b, a, 0.0025),
                over(b, a, 0.005),
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
