//! Fault injection (issue 9): `kill -9` at seeded random moments while eight games are played at once, the daemon restarted on the same journal each time; nothing published is lost, seq keeps growing, and every SGF records what an uninterrupted run of the same games records.
//!
//! What is compared at the end, per board, with an uninterrupted run of the same scripts (run
//! beside it on its own daemon): the SGF's move nodes in order (`B[dc]`, colour and point,
//! without the `BL`/`WL` times or comments) and its `RE`, both also equal to the script's; and
//! the alerts of the final state as `(kind, move_number, player)`. Times and timestamps differ
//! between runs and are not compared.

#[path = "support/harness/mod.rs"]
mod harness;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use futures::future::join_all;
use harness::broker::Broker;
use harness::daemon::{Daemon, Setup};
use harness::hall::{
    self, Prng, Script, Table, play_script, reads, rest_moves, sgf_record, standing_moves,
    wait_board,
};
use harness::mqtt::Subscriber;
use harness::sse::SseClient;
use harness::{unique, wait_for};
use serde_json::Value;
use tokio::sync::watch;

const TABLES: usize = 8;
/// Moves of table 1; table `i` plays one more when `i` is even, so both colours resign.
const MOVES: usize = 36;
const KILLS: usize = 6;
const DEFAULT_SEED: u64 = 2_026_120_109;

/// What one board published, by seq: the topic (SSE `event:` / MQTT topic suffix) and payload.
type Seen = BTreeMap<u64, (String, Value)>;

/// Adds a message to `seen`; one seq is one message on every channel.
fn note(seen: &mut Seen, seq: u64, topic: &str, payload: Value, channel: &str) {
    if let Some((t, p)) = seen.get(&seq) {
        assert!(
            t == topic && *p == payload,
            "seq {seq} published twice differently ({channel}): {t} {p} / {topic} {payload}"
        );
        return;
    }
    seen.insert(seq, (topic.to_string(), payload));
}

/// Everything SSE (every stream opened so far) and MQTT delivered for board `id`.
fn published(id: &str, streams: &[SseClient], sub: &Subscriber, prefix: &str) -> Seen {
    let mut seen = Seen::new();
    for stream in streams {
        for e in stream.events() {
            if let Some(id) = e.id {
                note(&mut seen, id, &e.event, e.data, "SSE");
            }
        }
    }
    let root = format!("{prefix}/boards/{id}/");
    for m in sub.on("") {
        let Some(topic) = m.topic.strip_prefix(&root) else {
            continue;
        };
        let payload = m.json();
        if let Some(seq) = payload["seq"].as_u64() {
            note(&mut seen, seq, topic, payload, "MQTT");
        }
    }
    seen
}

/// Board `id`'s messages replayed from the journal (SSE `Last-Event-ID: 0`) up to `until`.
async fn replay(base: &str, id: &str, until: u64) -> Seen {
    let sse = SseClient::open(&format!("{base}/boards/{id}/events"), Some(0)).await;
    let events = wait_for(
        &format!("{id}: the SSE replay up to seq {until}"),
        Duration::from_secs(15),
        || {
            let events = sse.events();
            async move { events.iter().any(|e| e.id >= Some(until)).then_some(events) }
        },
    )
    .await;
    let ids: Vec<u64> = events.iter().filter_map(|e| e.id).collect();
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]),
        "{id}: replayed seqs do not grow: {ids:?}"
    );
    events
        .into_iter()
        .filter_map(|e| Some((e.id?, (e.event, e.data))))
        .collect()
}

/// Nothing `seen` before the kill is missing from the restarted daemon: REST state and
/// `/moves` hold every standing move and alert, seq is not behind, and the SSE replay
/// holds every message with the same topic and payload.
async fn assert_kept(daemon: &Daemon, id: &str, seen: &Seen) {
    let Some(&max) = seen.keys().max() else {
        return;
    };
    let state = daemon.get(&format!("/boards/{id}")).await;
    // The state's seq is that of the last state message (api.md), not of the last message.
    let last_state = seen
        .iter()
        .filter(|(_, (t, _))| t == "state")
        .map(|(s, _)| *s)
        .max();
    assert!(
        state["seq"].as_u64() >= last_state,
        "{id}: the state went back after the restart: seq {} < {last_state:?}",
        state["seq"]
    );
    let page = daemon.get(&format!("/boards/{id}/moves?since=0")).await;
    for (source, list) in [
        ("state", rest_moves(&state["moves"])),
        ("/moves", rest_moves(&page["moves"])),
    ] {
        for (number, m) in standing_moves(seen) {
            let kept = usize::try_from(number - 1).ok().and_then(|i| list.get(i));
            assert_eq!(
                kept,
                Some(&m),
                "{id}: published move {number} {m:?} lost by kill -9 ({source}: {list:?})"
            );
        }
    }
    let alerts: BTreeSet<&str> = state["infractions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["id"].as_str())
        .collect();
    for (seq, (topic, event)) in seen {
        if topic == "infractions" {
            let alert = event["infraction"]["id"].as_str().unwrap_or_default();
            assert!(
                alerts.contains(alert),
                "{id}: alert {alert} (seq {seq}) lost by kill -9; kept: {alerts:?}"
            );
        }
    }
    let journal = replay(daemon.base(), id, max).await;
    for (seq, message) in seen {
        assert_eq!(
            journal.get(seq),
            Some(message),
            "{id}: seq {seq} published before kill -9, not the same in the journal's replay"
        );
    }
}

/// One daemon with its tables and games.
struct Hall {
    setup: Setup,
    tables: Vec<Table>,
}

impl Hall {
    fn new(dir: &std::path::Path, broker: u16) -> Self {
        let tables = Table::open(TABLES);
        let setup = hall::setup(dir, &tables, broker);
        Self { setup, tables }
    }

    fn base(&self) -> String {
        format!("http://127.0.0.1:{}/api/v1", self.setup.http_port)
    }

    async fn wait_all_read(&self, limit: Duration) {
        let base = self.base();
        for t in &self.tables {
            wait_board(&base, &t.id, "the board read", limit, reads).await;
        }
    }

    /// Plays every script, each table at its own pace.
    async fn play(&self, scripts: &[Script], gate: &watch::Receiver<bool>) {
        let base = self.base();
        join_all(
            self.tables
                .iter()
                .zip(scripts)
                .map(|(t, s)| play_script(&base, t, s, gate.clone())),
        )
        .await;
    }

    /// `(moves, RE)` of each board's SGF and its alerts as `(kind, move_number, player)`.
    async fn records(&self) -> Vec<(Vec<String>, Option<String>, Vec<String>)> {
        let http = hall::client();
        let mut out = Vec::new();
        for t in &self.tables {
            let url = format!("{}/boards/{}/sgf", self.base(), t.id);
            let sgf = http
                .get(&url)
                .send()
                .await
                .expect("GET sgf")
                .text()
                .await
                .expect("SGF text");
            let (moves, result) = sgf_record(&sgf);
            let state = hall::try_get(&http, &self.base(), &format!("/boards/{}", t.id))
                .await
                .expect("state");
            let alerts = state["infractions"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|i| format!("{} {} {}", i["kind"], i["move_number"], i["player"]))
                .collect();
            out.push((moves, result, alerts));
        }
        out
    }
}

/// The uninterrupted run: the same scripts, never killed.
async fn uninterrupted(hall: &Hall, scripts: &[Script]) -> Daemon {
    let daemon = Daemon::start(&hall.setup, 1).await;
    hall.wait_all_read(Duration::from_secs(10)).await;
    let (_open, gate) = watch::channel(true);
    hall.play(scripts, &gate).await;
    daemon
}

/// The run killed `KILLS` times; returns the last daemon and what was published, per board,
/// over the whole run.
async fn killed(hall: &Hall, scripts: &[Script], broker: u16, seed: u64) -> (Daemon, Vec<Seen>) {
    let mut daemon = Daemon::start(&hall.setup, 1).await;
    hall.wait_all_read(Duration::from_secs(10)).await;
    let prefix = hall.setup.prefix.clone();
    let sub = Subscriber::start(
        broker,
        &unique("gbe2e-kill"),
        &format!("{prefix}/boards/#"),
        false,
    )
    .await;
    let events = |base: &str, id: &str| format!("{base}/boards/{id}/events");
    let mut streams: Vec<Vec<SseClient>> = Vec::new();
    for t in &hall.tables {
        streams.push(vec![
            SseClient::open(&events(daemon.base(), &t.id), Some(0)).await,
        ]);
    }
    let (gate_tx, gate) = watch::channel(true);
    let started = Instant::now();
    let killer = async {
        let mut rng = Prng::new(seed ^ 0x6b69_6c6c);
        for k in 1..=KILLS {
            tokio::time::sleep(rng.millis(1_000, 2_500)).await;
            gate_tx.send_replace(false);
            daemon.kill9();
            let at = started.elapsed();
            // Messages already on their way were published before the kill: let them land.
            tokio::time::sleep(Duration::from_millis(300)).await;
            let seen: Vec<Seen> = hall
                .tables
                .iter()
                .zip(&streams)
                .map(|(t, s)| published(&t.id, s, &sub, &prefix))
                .collect();
            let moves: Vec<usize> = seen.iter().map(|s| standing_moves(s).len()).collect();
            println!("kill -9 #{k} at {at:?}: moves published per board {moves:?}");
            daemon = Daemon::start(&hall.setup, k + 1).await;
            hall.wait_all_read(Duration::from_secs(15)).await;
            for (t, s) in hall.tables.iter().zip(&seen) {
                assert_kept(&daemon, &t.id, s).await;
            }
            // Each live stream resumes where it stopped (Last-Event-ID); seq keeps growing
            // across the restart (checked at the end: every stream only goes up, the replay
            // holds each seq once with the payload first published).
            for (t, s) in hall.tables.iter().zip(streams.iter_mut()) {
                let last = s
                    .last()
                    .and_then(|c| c.events().iter().filter_map(|e| e.id).max());
                let url = events(daemon.base(), &t.id);
                s.push(SseClient::open(&url, Some(last.unwrap_or(0))).await);
            }
            gate_tx.send_replace(true);
        }
    };
    tokio::join!(killer, hall.play(scripts, &gate));
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut all = Vec::new();
    for (t, s) in hall.tables.iter().zip(&streams) {
        let seen = published(&t.id, s, &sub, &prefix);
        assert_kept(&daemon, &t.id, &seen).await;
        // The resumed streams left no gap: every journaled message up to the last one seen
        // live reached SSE.
        let ids: Vec<u64> = s
            .iter()
            .flat_map(|c| c.events())
            .filter_map(|e| e.id)
            .collect();
        assert!(
            ids.windows(2).all(|w| w[0] < w[1]),
            "{}: seq went back across a restart on the resumed streams: {ids:?}",
            t.id
        );
        let live: BTreeSet<u64> = ids.into_iter().collect();
        let last = live.last().copied().unwrap_or(0);
        let journal = replay(daemon.base(), &t.id, last).await;
        let missed: Vec<&u64> = journal
            .keys()
            .filter(|q| **q <= last && !live.contains(q))
            .collect();
        assert!(missed.is_empty(), "{}: SSE resume skipped {missed:?}", t.id);
        all.push(seen);
    }
    (daemon, all)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_at_random_moments_across_eight_games_loses_nothing() {
    let begun = Instant::now();
    let seed = hall::seed(DEFAULT_SEED);
    println!("seed {seed} (GOBAN_FAULT_SEED={seed} replays it)");
    let scripts: Vec<Script> = (0..TABLES as u64)
        .map(|i| {
            // Every other game has a premature press, so alerts are published too.
            let premature = (i % 2 == 0).then_some(3 + 2 * i as usize);
            Script::random(seed.wrapping_add(i), MOVES + (i % 2) as usize, premature)
        })
        .collect();
    let captures: usize = scripts.iter().map(Script::captures).sum();
    println!(
        "{TABLES} games of {MOVES}-{} moves, {captures} moves capturing",
        MOVES + 1
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let (calm_dir, faulted_dir) = (dir.path().join("calm"), dir.path().join("faulted"));
    std::fs::create_dir_all(&calm_dir).expect("dir");
    std::fs::create_dir_all(&faulted_dir).expect("dir");
    let broker = Broker::start(dir.path());
    let calm = Hall::new(&calm_dir, broker.port);
    let faulted = Hall::new(&faulted_dir, broker.port);

    let (_calm_daemon, (_daemon, seen)) = tokio::join!(
        uninterrupted(&calm, &scripts),
        killed(&faulted, &scripts, broker.port, seed)
    );

    let want = calm.records().await;
    let got = faulted.records().await;
    for (i, script) in scripts.iter().enumerate() {
        let id = &faulted.tables[i].id;
        let (ref moves, ref result, ref alerts) = want[i];
        assert_eq!(moves, &script.record(), "{id}: the uninterrupted run's SGF");
        assert_eq!(result.as_deref(), Some(script.result()), "{id}: RE");
        assert_eq!(
            got[i], want[i],
            "{id}: SGF moves, RE and alerts after {KILLS} kills differ from the uninterrupted run"
        );
        let topics: BTreeSet<&str> = seen[i].values().map(|(t, _)| t.as_str()).collect();
        println!(
            "{id}: {} moves, RE {}, alerts {alerts:?}; {} messages published and kept ({topics:?})",
            moves.len(),
            result.as_deref().unwrap_or("-"),
            seen[i].len()
        );
    }
    println!("duration: {:?}", begun.elapsed());
}
