//! Live analysis with the real daemon, GNU Go and a broadcast delay (issue 42): the analysis of a position reaches REST, SSE and MQTT only once that position is public, never before.

#[path = "support/harness/mod.rs"]
mod harness;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use harness::daemon::{BOARD, Daemon, Setup, TOKEN};
use harness::device::Device;
use harness::game::{OPENING, act};
use harness::mqtt::Subscriber;
use harness::sse::SseClient;
use harness::{unique, wait_for};
use serde_json::Value;

const BROKER: u16 = 1883;
/// Moves played: the analysis of the last one is awaited everywhere.
const MOVES: usize = 3;

/// GNU Go where the daemon's `auto` looks for it: on `PATH`, or in Debian's `/usr/games`.
fn gnugo_installed() -> bool {
    let path = std::env::var("PATH").unwrap_or_default();
    path.split(':')
        .chain(["/usr/games"])
        .any(|dir| Path::new(dir).join("gnugo").is_file())
}

/// What a REST poller saw: for each released analysis, the public state's seq read right after.
#[derive(Default)]
struct RestSightings {
    /// `(analysis seq, public state seq read after it)`.
    pairs: Vec<(u64, u64)>,
}

async fn get_json(http: &reqwest::Client, url: &str, token: Option<&str>) -> Option<Value> {
    let mut request = http.get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.ok()?.json().await.ok()
}

async fn get_text(http: &reqwest::Client, url: &str) -> String {
    let response = http.get(url).send().await.expect("GET");
    response.text().await.expect("a text body")
}

/// Polls the public analysis route, then the public state, until stopped.
fn watch_rest(base: String, seen: Arc<Mutex<RestSightings>>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let http = reqwest::Client::new();
        loop {
            let analysis = get_json(&http, &format!("{base}/boards/{BOARD}/analysis"), None).await;
            let state = get_json(&http, &format!("{base}/boards/{BOARD}"), None).await;
            let seqs = analysis
                .and_then(|a| a["latest"]["position_seq"].as_u64())
                .zip(state.and_then(|s| s["seq"].as_u64()));
            if let Some(pair) = seqs {
                seen.lock().expect("sightings").pairs.push(pair);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
}

/// Each analysis on an ordered public channel comes after a state of its seq or later.
fn assert_after_its_state(channel: &str, events: &[(String, u64)]) {
    let mut public = 0;
    let mut analyses = 0;
    for (kind, seq) in events {
        match kind.as_str() {
            "state" => public = public.max(*seq),
            "analysis" => {
                analyses += 1;
                assert!(
                    *seq <= public,
                    "{channel}: analysis of seq {seq} before its state (public seq {public})"
                );
            }
            _ => {}
        }
    }
    assert!(analyses > 0, "{channel}: no analysis at all");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_is_public_only_once_its_position_is() {
    if !gnugo_installed() {
        eprintln!("skipped: GNU Go is not installed (apt-get install gnugo)");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let (board, clock) = (Device::board(9), Device::clock());
    let mut setup = Setup::new(dir.path(), board.path(), clock.path(), BROKER);
    setup.server_extra = "broadcast_delay = \"3s\"\n".into();
    // At normal priority: this test is about when an analysis is published, and under
    // SCHED_IDLE (the default) the engine gets no CPU at all on a saturated machine (`.ci/run`
    // with busy loops beside it). The idle launch has its own test (`analysis::process`).
    setup.analysis = "[analysis]\nengine = \"gtp\"\ntime_per_position = \"20s\"\nidle = false\n\
                      featured = [\"table-1\"]\n"
        .into();
    let daemon = Daemon::start(&setup, 1).await;
    let filter = format!("{}/boards/{BOARD}/#", setup.prefix);
    let sub = Subscriber::start(BROKER, &unique("gbe2e-analysis"), &filter, false).await;
    let sse = SseClient::open(&format!("{}/boards/{BOARD}/events", daemon.base()), None).await;
    let sightings = Arc::new(Mutex::new(RestSightings::default()));
    let watcher = watch_rest(daemon.base().to_owned(), sightings.clone());
    let http = reqwest::Client::new();
    let live_url = format!("{}/boards/{BOARD}", daemon.base());

    let mut last_seq = 0;
    for (n, play) in OPENING.into_iter().take(MOVES).enumerate() {
        act(&board, &clock, play).await;
        let live = wait_for(
            "the move live for arbiters",
            Duration::from_secs(30),
            || async {
                let state = get_json(&http, &live_url, Some(TOKEN)).await?;
                (state["move_number"].as_u64() >= Some(n as u64 + 1)).then_some(state)
            },
        )
        .await;
        last_seq = live["seq"].as_u64().expect("a seq");
    }

    let wanted = |seq: Option<u64>| seq.is_some_and(|s| s >= last_seq);
    let page = wait_for(
        "the last move's analysis on REST",
        Duration::from_secs(120),
        || async {
            let page = get_json(
                &http,
                &format!("{}/boards/{BOARD}/analysis", daemon.base()),
                None,
            )
            .await?;
            wanted(page["latest"]["position_seq"].as_u64()).then_some(page)
        },
    )
    .await;
    wait_for("the analysis on SSE", Duration::from_secs(30), || async {
        let events = sse.events();
        events
            .iter()
            .any(|e| e.event == "analysis" && wanted(e.data["position_seq"].as_u64()))
            .then_some(())
    })
    .await;
    wait_for("the analysis on MQTT", Duration::from_secs(30), || async {
        let messages = sub.on("/analysis");
        messages
            .iter()
            .any(|m| wanted(m.json()["position_seq"].as_u64()))
            .then_some(())
    })
    .await;
    watcher.abort();

    // What GNU Go said, as published.
    assert_eq!(page["enabled"], true);
    assert!(
        page["engine"]["name"]
            .as_str()
            .is_some_and(|n| n.starts_with("GNU Go")),
        "{page}"
    );
    assert_eq!(page["latest"]["move_number"], MOVES as u64);
    assert!(page["latest"]["score_lead"].is_f64(), "{page}");
    assert!(
        !page["latest"]["candidates"]
            .as_array()
            .expect("candidates")
            .is_empty()
    );
    assert!(!page["history"].as_array().expect("history").is_empty());

    // The SGF on request: the analysis the public was shown, on the moves' nodes, in stones.
    let sgf = get_text(
        &http,
        &format!("{}/boards/{BOARD}/sgf?analysis=true", daemon.base()),
    )
    .await;
    assert!(sgf.contains("GNU Go 3.8 (20s per position): "), "{sgf}");
    assert!(sgf.contains(" stones ("), "leads in the game's unit: {sgf}");
    let plain = get_text(&http, &format!("{}/boards/{BOARD}/sgf", daemon.base())).await;
    assert!(!plain.contains("GNU Go"), "only on request: {plain}");

    // Never ahead of the public view, on any route.
    let sse_events: Vec<(String, u64)> = sse
        .events()
        .iter()
        .filter_map(|e| {
            let seq = e.id.or_else(|| numbered(&e.data))?;
            Some((e.event.clone(), seq))
        })
        .collect();
    assert_after_its_state("SSE", &sse_events);
    let mqtt_events: Vec<(String, u64)> = sub
        .on("")
        .iter()
        .filter_map(|m| {
            let kind = m.topic.rsplit('/').next()?.to_owned();
            Some((kind, numbered(&m.json())?))
        })
        .collect();
    assert_after_its_state("MQTT", &mqtt_events);
    assert_seqs_never_repeat(&sub);
    let pairs = sightings.lock().expect("sightings").pairs.clone();
    assert!(!pairs.is_empty(), "REST was watched");
    for (analysis, public) in pairs {
        assert!(
            analysis <= public,
            "REST: analysis of seq {analysis} while the public state was at {public}"
        );
    }
}

/// A message's own `seq`, or for an analysis the `position_seq` of the state it analyses.
fn numbered(message: &serde_json::Value) -> Option<u64> {
    message["seq"]
        .as_u64()
        .or_else(|| message["position_seq"].as_u64())
}

/// A consumer that drops the seqs it has seen loses nothing: the numbered messages never
/// repeat a seq, and an analysis carries none of its own (issue 42).
fn assert_seqs_never_repeat(sub: &Subscriber) {
    let mut seen = std::collections::BTreeSet::new();
    let mut analyses = 0;
    for message in sub.on("") {
        let json = message.json();
        if message.topic.ends_with("/analysis") {
            analyses += 1;
            assert!(json.get("seq").is_none(), "an analysis has no seq: {json}");
            continue;
        }
        // Retained messages may be sent again when the subscription starts: count each
        // (topic, seq) once.
        let Some(seq) = json["seq"].as_u64() else {
            continue;
        };
        let kind = message
            .topic
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        if let Some(other) = seen
            .iter()
            .find(|(s, k): &&(u64, String)| *s == seq && *k != kind)
        {
            panic!("seq {seq} on both {} and {kind}", other.1);
        }
        seen.insert((seq, kind));
    }
    assert!(analyses > 0, "analyses were published");
}
