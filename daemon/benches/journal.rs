//! Journal commit latency and throughput with `synchronous = "normal"` and `"full"`: prints figures, no assertions.
//!
//! Run: `cargo bench -p goban-bridge --bench journal`. One reading as the
//! daemon journals it (the input plus the messages it causes) is one batch;
//! a commit must reach the OS (normal) or the disk (full) before publishing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use goban_bridge::config::{JournalConfig, Synchronous};
use goban_bridge::journal::{Batch, InputRecord, Journal};
use goban_bridge::message::{Payload, Published, Topic};

const LATENCY_WRITES: usize = 300;
const BOARDS: usize = 500;
const BATCHES_PER_BOARD: usize = 20;

fn build_batch(board: &str, n: u64, first: bool) -> Batch {
    let mut batch = Batch::new(board, 1);
    batch.open_epoch = first;
    batch.inputs.push(InputRecord {
        at_ms: 1_796_029_200_000 + n,
        json: r#"{"type":"board_diff","changes":[{"index":72,"state":"B"}]}"#.into(),
    });
    let payload = Payload::json(
        &serde_json::json!({"v": 1, "seq": n, "event": "move_played", "number": n,
        "color": "black", "point": "Q16", "at": "2026-11-30T09:00:00.000Z"}),
    )
    .expect("json");
    for (offset, topic) in [(0, Topic::Moves), (1, Topic::State)] {
        batch.events.push(Published {
            board: board.into(),
            seq: n * 2 + offset,
            topic,
            at_ms: 1_796_029_200_000 + n,
            payload: payload.clone(),
            view: None,
        });
    }
    batch
}

fn open(dir: &tempfile::TempDir, synchronous: Synchronous) -> Journal {
    let config = JournalConfig {
        path: dir.path().join("bench.sqlite"),
        synchronous,
        commit_window: JournalConfig::default().commit_window,
        ..JournalConfig::default()
    };
    match Journal::open(&config) {
        Ok(journal) => journal,
        Err(err) => panic!("cannot open the bench journal: {err}"),
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

/// One board writing one reading at a time, waiting for each commit.
async fn measure_latency(synchronous: Synchronous) {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = open(&dir, synchronous);
    let mut samples = Vec::with_capacity(LATENCY_WRITES);
    for n in 0..LATENCY_WRITES as u64 {
        let started = Instant::now();
        journal
            .write(build_batch("table-1", n, n == 0))
            .await
            .expect("write");
        samples.push(started.elapsed());
    }
    samples.sort();
    println!(
        "journal {synchronous:?}: one board, sequential commits: p50 {:?}, p99 {:?}, max {:?} ({LATENCY_WRITES} writes)",
        percentile(&samples, 0.5),
        percentile(&samples, 0.99),
        samples[samples.len() - 1],
    );
}

/// A hall of boards writing at once: group commit gathers them.
async fn measure_throughput(synchronous: Synchronous) {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = Arc::new(open(&dir, synchronous));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(BOARDS);
    for board in 0..BOARDS {
        let journal = journal.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("table-{board}");
            for n in 0..BATCHES_PER_BOARD as u64 {
                journal
                    .write(build_batch(&id, n, n == 0))
                    .await
                    .expect("write");
            }
        }));
    }
    for task in tasks {
        task.await.expect("writer task");
    }
    let elapsed = started.elapsed();
    let total = BOARDS * BATCHES_PER_BOARD;
    println!(
        "journal {synchronous:?}: {BOARDS} boards x {BATCHES_PER_BOARD} readings: {total} batches in {elapsed:?} = {:.0} readings/s",
        total as f64 / elapsed.as_secs_f64()
    );
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    runtime.block_on(async {
        for synchronous in [Synchronous::Normal, Synchronous::Full] {
            measure_latency(synchronous).await;
            measure_throughput(synchronous).await;
        }
    });
}
