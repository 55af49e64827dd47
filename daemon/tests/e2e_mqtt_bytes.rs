//! MQTT bytes per move (issue 9, api.md "Changes"): over every topic of a board except `clock`,
//! a long simulated game on the real binary averages under 4 KB a move, and the last third of
//! its moves costs no more than the first third (the live state no longer carries the move list).
//!
//! Not a timing test: the game is played fast, and only bytes are counted.

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use goban_hardware::sim::{FaultScript, HumanProfile, SimulateOptions, Transport};
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};
use serde_json::Value;
use support::*;
use tokio_util::sync::CancellationToken;

/// The target of issue 9: average bytes per move, every topic but `clock`.
const BYTES_PER_MOVE: f64 = 4096.0;
/// How much more the last third of the moves may cost than the first third. The simulator's
/// noise (stones slid across a neighbour, hands hovering, flicker) is random, so each move's
/// count of device and guidance messages varies by a few messages around its mean; the numbers
/// in the messages (seq, move number, time left) gain a digit or two. A state that held the move
/// list (about 40 bytes a move, on each of several messages per move) would make the last third
/// cost several times the first, far beyond this margin.
const GROWTH_MARGIN: f64 = 0.25;
/// A long game is at least this many moves (the bundled game has 180).
const MIN_MOVES: u64 = 150;

/// Every message under `filter`: (arrival, topic, payload).
type Log = Arc<Mutex<Vec<(Instant, String, Vec<u8>)>>>;

async fn subscribe(filter: String, client_id: String) -> (Log, tokio::task::JoinHandle<()>) {
    let mut options = MqttOptions::new(client_id, "127.0.0.1", 1883);
    options.set_keep_alive(Duration::from_secs(5));
    options.set_max_packet_size(1 << 20, 1 << 20);
    let (client, mut events) = AsyncClient::new(options, 100);
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&log);
    let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
    let mut ready_tx = Some(ready_tx);
    let task = tokio::spawn(async move {
        loop {
            match events.poll().await {
                Ok(Event::Incoming(Packet::ConnAck(_))) => {
                    let _ = client.subscribe(filter.clone(), QoS::AtLeastOnce).await;
                }
                Ok(Event::Incoming(Packet::SubAck(_))) => {
                    if let Some(tx) = ready_tx.take() {
                        let _ = tx.send(());
                    }
                }
                Ok(Event::Incoming(Packet::Publish(p))) => sink.lock().expect("log").push((
                    Instant::now(),
                    p.topic.clone(),
                    p.payload.to_vec(),
                )),
                Ok(_) => {}
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    });
    tokio::time::timeout(Duration::from_secs(10), ready_rx)
        .await
        .expect("MQTT subscription within 10 s")
        .expect("subscriber task");
    (log, task)
}

/// A config for one 19x19 table whose simulator plays fast: a short settle time.
fn config(work: &std::path::Path, http_port: u16, prefix: &str) -> std::path::PathBuf {
    let (board, clock) = sim_paths(&work.join("ports"), "table-1");
    let text = format!(
        "[server]\nlisten = \"127.0.0.1:{http_port}\"\narbiter_tokens = [\"{TOKEN}\"]\n\
         [journal]\npath = {journal:?}\n[mqtt]\nurl = \"mqtt://127.0.0.1:1883\"\nprefix = \"{prefix}\"\n\
         client_id = \"{prefix}\"\nmax_backoff = \"500ms\"\n[referee]\nsettle_time = \"40ms\"\n\
         [[board]]\nid = \"table-1\"\nboard_port = {board:?}\nclock_port = {clock:?}\nautostart = true\n\
         time_control = \"byoyomi-cn:main=20m,reserve=3,period=30s\"\nblack = \"AlphaGo\"\nwhite = \"AlphaGo\"\n",
        journal = work.join("journal.sqlite").display().to_string(),
        board = board.display().to_string(),
        clock = clock.display().to_string(),
    );
    let path = work.join("goban-bridge.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

/// The move number a message announces: a `moves` event of a move, or a state's `move_number`.
fn move_of(topic: &str, payload: &[u8]) -> Option<u64> {
    let value: Value = serde_json::from_slice(payload).ok()?;
    if topic.ends_with("/moves") && value["event"] == "move_played" {
        return value["number"].as_u64();
    }
    if topic.ends_with("/state") {
        return value["move_number"].as_u64();
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mqtt_bytes_per_move_stay_small_and_flat_over_a_long_game() {
    let work = tempfile::tempdir().expect("tempdir");
    let http_port = free_port();
    let prefix = format!("goban-bytes-{}", std::process::id());
    let config = config(work.path(), http_port, &prefix);
    let board_topic = format!("{prefix}/boards/table-1");
    let (log, sub) = subscribe(format!("{board_topic}/#"), format!("{prefix}-sub")).await;
    let _daemon = Daemon::run(&config);
    let base = format!("http://127.0.0.1:{http_port}/api/v1");
    wait_for(&format!("{base}/health"), Duration::from_secs(20), |_| true).await;

    // The simulator's human at 40x: the noise model stays on (slides, hovering hands, flicker).
    // At 100x, on a CI machine busy compiling, the simulated players' own threads fell behind
    // and played out of order (one game ended at move 4 with two infractions).
    let cancel = CancellationToken::new();
    let options = SimulateOptions {
        boards: 1,
        profile: HumanProfile {
            speed: 40.0,
            min_reply_ms: 100,
            min_press_ms: 100,
            ..HumanProfile::default()
        },
        script: FaultScript::default(),
        seed: 9,
        shared_port: false,
        diffs: true,
        transport: Transport::Pty(work.path().join("ports")),
    };
    let _tables = goban_hardware::sim::spawn_tables(&[demo_game()], &options, &cancel)
        .expect("simulated table");
    let total = u64::try_from(demo_game().moves.len()).expect("moves");
    assert!(total >= MIN_MOVES, "the bundled game is long enough");

    let board = format!("{base}/boards/table-1");
    let state = wait_for(&board, Duration::from_secs(240), |s| {
        s["move_number"].as_u64() >= Some(total) || s["phase"] == "finished"
    })
    .await;
    // Stragglers (the last move's state and guidance) arrive within a moment.
    tokio::time::sleep(Duration::from_secs(1)).await;
    cancel.cancel();
    sub.abort();
    let moves = state["move_number"].as_u64().unwrap_or(0);
    assert!(
        moves >= MIN_MOVES,
        "the game went on long enough: {}",
        summary(&state)
    );

    // Each message counts for the latest move announced so far (in arrival order); what comes
    // before the first move (device hello, the game's start) counts in the average only.
    let messages = log.lock().expect("log").clone();
    let mut per_move = vec![0u64; usize::try_from(moves).expect("moves") + 1];
    let (mut clock_bytes, mut clock_count) = (0u64, 0usize);
    let mut by_topic = std::collections::BTreeMap::<String, (usize, u64)>::new();
    let mut current = 0u64;
    for (_, topic, payload) in &messages {
        let bytes = u64::try_from(topic.len() + payload.len()).expect("size");
        let leaf = topic.rsplit('/').next().unwrap_or("").to_owned();
        if leaf == "clock" {
            clock_bytes += bytes;
            clock_count += 1;
            continue;
        }
        if let Some(number) = move_of(topic, payload) {
            current = current.max(number.min(moves));
        }
        per_move[usize::try_from(current).expect("index")] += bytes;
        let entry = by_topic.entry(leaf).or_default();
        entry.0 += 1;
        entry.1 += bytes;
    }
    let all: u64 = per_move.iter().sum();
    let average = all as f64 / moves as f64;
    let third = usize::try_from(moves / 3).expect("third");
    let first: u64 = per_move[1..=third].iter().sum();
    let last: u64 = per_move[per_move.len() - third..].iter().sum();
    let (first, last) = (first as f64 / third as f64, last as f64 / third as f64);
    println!(
        "MQTT bytes (topic + payload), board table-1, {moves} moves, {} messages:",
        messages.len()
    );
    for (topic, (count, bytes)) in &by_topic {
        println!(
            "  {topic:<12} {count:>6} messages {bytes:>9} bytes {:>8.1} per move",
            *bytes as f64 / moves as f64
        );
    }
    println!(
        "  clock (not counted) {clock_count} messages, {clock_bytes} bytes\n  \
         average {average:.0} bytes per move (target < {BYTES_PER_MOVE}); \
         moves 1-{third}: {first:.0} per move, moves {}-{moves}: {last:.0} per move ({:+.1}%)",
        moves - moves / 3 + 1,
        (last / first - 1.0) * 100.0
    );
    explain_states(&messages);
    assert!(
        by_topic.contains_key("state") && by_topic.contains_key("moves"),
        "state and moves were received: {by_topic:?}"
    );
    assert!(
        average < BYTES_PER_MOVE,
        "average {average:.0} bytes per move, target < {BYTES_PER_MOVE}"
    );
    assert!(
        last <= first * (1.0 + GROWTH_MARGIN),
        "bytes per move grow with the move number: first third {first:.0}, last third {last:.0}"
    );
}

/// What the `state` messages are made of: the size of each field of a late one, and which
/// fields changed from one state to the next (the reason each was published).
fn explain_states(messages: &[(Instant, String, Vec<u8>)]) {
    let states: Vec<Value> = messages
        .iter()
        .filter(|(_, topic, _)| topic.ends_with("/state"))
        .filter_map(|(_, _, payload)| serde_json::from_slice(payload).ok())
        .collect();
    let Some(late) = states.get(states.len() * 2 / 3) else {
        return;
    };
    if let Some(fields) = late.as_object() {
        let sizes: Vec<String> = fields
            .iter()
            .map(|(key, value)| format!("{key} {}", value.to_string().len()))
            .collect();
        println!(
            "  a state at move {}: {} bytes; fields: {}",
            late["move_number"],
            late.to_string().len(),
            sizes.join(", ")
        );
    }
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    for pair in states.windows(2) {
        let (Some(a), Some(b)) = (pair[0].as_object(), pair[1].as_object()) else {
            continue;
        };
        let changed: Vec<&str> = b
            .iter()
            .filter(|(key, value)| key.as_str() != "seq" && a.get(key.as_str()) != Some(*value))
            .map(|(key, _)| key.as_str())
            .collect();
        *reasons.entry(changed.join("+")).or_default() += 1;
    }
    let mut reasons: Vec<_> = reasons.into_iter().collect();
    reasons.sort_by_key(|r| std::cmp::Reverse(r.1));
    for (changed, count) in reasons.iter().take(8) {
        println!("  {count:>5} states changed (besides seq): {changed}");
    }
}
