//! Fault injection (issue 9): line-noise floods and CRC storms on every serial port while four games are played; the rejected-frame counters rise, REST keeps answering (its p99 under the flood is printed), and no move is lost or invented and no infraction raised.

#[path = "support/harness/mod.rs"]
mod harness;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures::future::join_all;
use harness::broker::Broker;
use harness::daemon::Daemon;
use harness::device::{Device, frame};
use harness::hall::{self, Prng, Script, Table, play_script, rest_moves, wait_board};
use harness::wait_for;
use tokio::sync::watch;

const TABLES: usize = 4;
const MOVES: usize = 24;
const DEFAULT_SEED: u64 = 2_026_120_104;
/// A burst on every port this often: about 15 KB/s of noise per port, beyond what a
/// 115200-baud line carries (11.5 KB/s).
const BURST_EVERY: Duration = Duration::from_millis(20);

/// `body` framed with a CRC that does not match (one hex digit changed).
fn bad_crc(body: &str) -> Vec<u8> {
    let mut bytes = frame(body);
    let i = bytes.len() - 2;
    bytes[i] = if bytes[i] == b'0' { b'1' } else { b'0' };
    bytes
}

/// Noise: printable junk, control bytes and `$` (a frame start the next real `$` cuts), but no
/// LF, so noise alone never completes a frame that could be counted as a CRC error.
fn noise(rng: &mut Prng, len: usize) -> Vec<u8> {
    const ALPHABET: &[u8] = b"$$*,.0123456789ABCDEFBWDIFFPRESS?\x00\x07\x1b\r\xff\xfe\x80 #!~";
    (0..len)
        .map(|_| ALPHABET[usize::try_from(rng.below(ALPHABET.len() as u64)).unwrap_or(0)])
        .collect()
}

/// Floods one device until `stop`: noise bursts and frames with a bad CRC (stones, presses,
/// snapshots, keys that would change the game if they were believed). Counts the bad frames.
async fn flood(device: &Device, board: bool, seed: u64, stop: &AtomicBool, bad: &AtomicU64) {
    let mut rng = Prng::new(seed);
    while !stop.load(Ordering::Relaxed) {
        let len = 200 + usize::try_from(rng.below(200)).unwrap_or(0);
        let mut burst = noise(&mut rng, len);
        for _ in 0..3 {
            let body = if board {
                match rng.below(3) {
                    0 => format!("DIFF,{},1,{}B", rng.below(1000), rng.below(81)),
                    1 => format!("SNAP,{},1,{}", rng.below(1000), "W".repeat(81)),
                    _ => format!("DIFF,{},1,{}W;{}.", rng.below(1000), rng.below(81), 40),
                }
            } else {
                match rng.below(3) {
                    0 => format!("PRESS,{},1,L", rng.below(1000)),
                    1 => format!("PRESS,{},1,R", rng.below(1000)),
                    _ => format!("KEY,{},1,RESIGN_L", rng.below(1000)),
                }
            };
            burst.extend(bad_crc(&body));
            burst.extend(noise(&mut rng, 40));
            bad.fetch_add(1, Ordering::Relaxed);
        }
        device.send(burst);
        tokio::time::sleep(BURST_EVERY).await;
    }
}

/// GETs every board in turn until `stop`; the latency of each answer (all must be 200).
async fn probe(base: &str, stop: &AtomicBool) -> Vec<Duration> {
    let http = hall::client();
    let mut took = Vec::new();
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        i = i % TABLES + 1;
        let started = Instant::now();
        let resp = http
            .get(format!("{base}/boards/table-{i}"))
            .send()
            .await
            .expect("GET /boards/{b} answered within 5 s under the flood");
        assert_eq!(resp.status(), 200);
        let _ = resp.bytes().await.expect("the whole body");
        took.push(started.elapsed());
    }
    took
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((sorted.len() as f64) * p).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The value of `name{..board="id"..}` summed over its ports in a Prometheus page.
fn metric(text: &str, name: &str, id: &str) -> f64 {
    let board = format!("board=\"{id}\"");
    text.lines()
        .filter(|l| l.starts_with(&format!("{name}{{")) && l.contains(&board))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_floods_and_crc_storms_raise_counters_not_infractions() {
    let begun = Instant::now();
    let seed = hall::seed(DEFAULT_SEED);
    println!("seed {seed} (GOBAN_FAULT_SEED={seed} replays it)");
    let dir = tempfile::tempdir().expect("temp dir");
    let broker = Broker::start(dir.path());
    let tables = Table::open(TABLES);
    let setup = hall::setup(dir.path(), &tables, broker.port);
    let daemon = Daemon::start(&setup, 1).await;
    let base = daemon.base().to_string();
    for t in &tables {
        wait_board(
            &base,
            &t.id,
            "the board read",
            Duration::from_secs(10),
            hall::reads,
        )
        .await;
    }
    let scripts: Vec<Script> = (0..TABLES as u64)
        .map(|i| Script::random(seed.wrapping_add(i), MOVES, None))
        .collect();

    let stop = AtomicBool::new(false);
    let bad: Vec<AtomicU64> = (0..TABLES).map(|_| AtomicU64::new(0)).collect();
    let (_open, gate) = watch::channel(true);
    let floods = join_all(tables.iter().enumerate().flat_map(|(i, t)| {
        let s = seed ^ ((i as u64) << 8);
        [
            flood(&t.board, true, s, &stop, &bad[i]),
            flood(&t.clock, false, s ^ 1, &stop, &bad[i]),
        ]
    }));
    let games = async {
        join_all(
            tables
                .iter()
                .zip(&scripts)
                .map(|(t, s)| play_script(&base, t, s, gate.clone())),
        )
        .await;
        stop.store(true, Ordering::Relaxed);
    };
    let flood_started = Instant::now();
    let (_, (), latencies) = tokio::join!(floods, games, probe(&base, &stop));
    let flooded = flood_started.elapsed();

    let mut sorted = latencies.clone();
    sorted.sort();
    println!(
        "GET /api/v1/boards/{{b}} under the flood: {} requests in {flooded:?}, p50 {:?}, p99 {:?}, max {:?}",
        sorted.len(),
        percentile(&sorted, 0.50),
        percentile(&sorted, 0.99),
        sorted.last().copied().unwrap_or_default()
    );
    assert!(!sorted.is_empty(), "REST was probed during the flood");

    for (i, (t, script)) in tables.iter().zip(&scripts).enumerate() {
        let sent = bad[i].load(Ordering::Relaxed);
        let state = wait_board(
            &base,
            &t.id,
            "every bad frame counted in device.rejected_frames",
            Duration::from_secs(20),
            |s| s["device"]["rejected_frames"].as_u64() >= Some(sent),
        )
        .await;
        // The links report their counters periodically: wait until the storm is counted.
        let metrics = wait_for(
            &format!("{}: {sent} CRC errors on /metrics", t.id),
            Duration::from_secs(20),
            || async {
                let text = hall::client()
                    .get(format!("{}/metrics", base.trim_end_matches("/api/v1")))
                    .send()
                    .await
                    .ok()?
                    .text()
                    .await
                    .ok()?;
                (metric(&text, "goban_device_crc_errors_total", &t.id) >= sent as f64)
                    .then_some(text)
            },
        )
        .await;
        let crc = metric(&metrics, "goban_device_crc_errors_total", &t.id);
        let rejected = metric(&metrics, "goban_device_rejected_frames_total", &t.id);
        println!(
            "{}: {sent} bad-CRC frames sent; device.rejected_frames {}, crc_errors_total {crc}, rejected_frames_total {rejected}, device alerts {}",
            t.id, state["device"]["rejected_frames"], state["device"]["alerts"]
        );
        // Noise holds no LF, so it never ends a frame: the CRC errors are exactly the bad
        // frames, none lost in the noise and none counted twice.
        assert!(
            crc == sent as f64 && rejected > crc,
            "{}: /metrics counts {crc} CRC errors, {rejected} rejections for {sent} bad frames",
            t.id
        );
        assert_eq!(
            rest_moves(&state["moves"]),
            script.points(),
            "{}: no move lost or invented under the flood",
            t.id
        );
        assert_eq!(state["result"], script.result(), "{}", t.id);
        assert_eq!(
            state["infractions"].as_array().map(Vec::len),
            Some(0),
            "{}: noise is no infraction: {}",
            t.id,
            state["infractions"]
        );
    }
    println!("duration: {:?}", begun.elapsed());
}
