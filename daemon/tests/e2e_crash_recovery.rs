//! Zero loss across `kill -9` (issue 5): what SSE and MQTT published before the kill is in the journal after a restart, and seq keeps growing.

#[path = "support/harness/mod.rs"]
mod harness;

use harness::daemon::{BOARD, Daemon, Setup, TOKEN};
use harness::device::Device;
use harness::game::{CAPTURE, KO_RETAKE, OPENING, act, play, point_name};
use harness::mqtt::Subscriber;
use harness::sse::SseClient;
use harness::{unique, wait_for};
use std::time::Duration;

use serde_json::{Value, json};

const BROKER: u16 = 1883;

/// `(number, color, point)` of a move event or a state's move.
fn move_key(v: &Value) -> Option<(u64, String, String)> {
    let m = if v.get("point").is_some() {
        v
    } else {
        v.get("move")?
    };
    Some((
        m["number"].as_u64()?,
        m["color"].as_str()?.to_string(),
        m["point"].as_str()?.to_string(),
    ))
}

/// The alert id of an infraction event (top level or under `infraction`).
fn infraction_id(v: &Value) -> Option<String> {
    let i = if v.get("kind").is_some() {
        v
    } else {
        v.get("infraction")?
    };
    i["id"].as_str().map(str::to_string)
}

async fn ko_violation_id(daemon: &Daemon) -> String {
    let state = daemon
        .wait_state("a ko_violation (CN2002 18.3) on REST", |s| {
            s["infractions"]
                .as_array()
                .is_some_and(|a| a.iter().any(|i| i["kind"] == "ko_violation"))
        })
        .await;
    let all = state["infractions"].as_array().cloned().unwrap_or_default();
    let alert = all
        .iter()
        .find(|i| i["kind"] == "ko_violation")
        .cloned()
        .unwrap_or_default();
    alert["id"].as_str().expect("infraction id").to_string()
}

/// What consumers saw before the crash.
struct Seen {
    mqtt_moves: Vec<(u64, String, String)>,
    sse_moves: Vec<(u64, String, String)>,
    alerts: Vec<String>,
    max_seq: u64,
    max_state_seq: u64,
}

async fn wait_published(sub: &Subscriber, sse: &SseClient, ko: &str) {
    wait_for(
        "the ko_violation on MQTT",
        Duration::from_secs(10),
        || async {
            let on = sub.on("/infractions");
            on.iter()
                .any(|m| infraction_id(&m.json()).as_deref() == Some(ko))
                .then_some(())
        },
    )
    .await;
    wait_for(
        "the ko_violation on SSE",
        Duration::from_secs(10),
        || async {
            let events = sse.events();
            let mut infractions = events.iter().filter(|e| e.event == "infractions");
            infractions
                .any(|e| infraction_id(&e.data).as_deref() == Some(ko))
                .then_some(())
        },
    )
    .await;
}

fn seen_before_crash(sub: &Subscriber, sse: &SseClient) -> Seen {
    let mqtt = sub.on("");
    let events = sse.events();
    let on = |topic: &'static str| {
        mqtt.iter()
            .filter(move |m| m.topic.ends_with(topic))
            .map(|m| m.json())
    };
    let sse_of = |name: &'static str| {
        events
            .iter()
            .filter(move |e| e.event == name)
            .map(|e| &e.data)
    };
    let mut alerts: Vec<String> = on("/infractions")
        .filter_map(|v| infraction_id(&v))
        .collect();
    alerts.extend(sse_of("infractions").filter_map(infraction_id));
    let mqtt_seqs = mqtt.iter().filter_map(|m| m.json()["seq"].as_u64());
    Seen {
        mqtt_moves: on("/moves").filter_map(|v| move_key(&v)).collect(),
        sse_moves: sse_of("moves").filter_map(move_key).collect(),
        alerts,
        max_seq: mqtt_seqs
            .chain(events.iter().filter_map(|e| e.id))
            .max()
            .expect("some seq seen"),
        // The REST state is the last `state` message: a later seq may be a clock reading's.
        max_state_seq: on("/state")
            .filter_map(|v| v["seq"].as_u64())
            .chain(sse_of("state").filter_map(|d| d["seq"].as_u64()))
            .max()
            .unwrap_or(0),
    }
}

fn assert_nothing_lost(state: &Value, seen: &Seen) {
    let kept: Vec<_> = state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(move_key)
        .collect();
    for m in seen.mqtt_moves.iter().chain(&seen.sse_moves) {
        assert!(
            kept.contains(m),
            "published move {m:?} lost by kill -9; after restart: {kept:?}"
        );
    }
    let infractions = state["infractions"].as_array().expect("infractions");
    let kept_alerts: Vec<_> = infractions.iter().filter_map(infraction_id).collect();
    for id in &seen.alerts {
        assert!(
            kept_alerts.contains(id),
            "published infraction {id} lost by kill -9; after restart: {kept_alerts:?}"
        );
    }
    assert!(
        state["seq"].as_u64() >= Some(seen.max_state_seq),
        "the state's seq went back: {} < {}",
        state["seq"],
        seen.max_state_seq
    );
}

/// The next change after the restart carries a seq above anything published before the crash.
async fn assert_seq_grows(daemon: &Daemon, ko: &str, max_seq: u64) {
    // A client percent-encodes the id in the path (ids such as "<game>/<n>" hold a `/`).
    let id = ko.replace('%', "%25").replace('/', "%2F");
    let path = format!("/boards/{BOARD}/infractions/{id}/ruling");
    let (status, after) = daemon
        .post(
            &path,
            &json!({"action": "dismiss", "note": "e2e"}),
            Some(TOKEN),
        )
        .await;
    assert_eq!(status, 200, "dismiss after restart: {after}");
    assert!(
        after["seq"].as_u64() > Some(max_seq),
        "seq must keep growing across restarts: {} <= {max_seq}",
        after["seq"]
    );
    let url = format!("{}/boards/{BOARD}/events", daemon.base());
    let resumed = SseClient::open(&url, Some(max_seq)).await;
    wait_for(
        "an SSE event after Last-Event-ID",
        Duration::from_secs(5),
        || async { (!resumed.events().is_empty()).then_some(()) },
    )
    .await;
    let ids: Vec<_> = resumed.events().iter().filter_map(|e| e.id).collect();
    assert!(
        ids.iter().all(|&id| id > max_seq),
        "Last-Event-ID {max_seq} resumed with older ids {ids:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_game_then_restart_loses_nothing_published() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (board, clock) = (Device::board(9), Device::clock());
    let setup = Setup::new(dir.path(), board.path(), clock.path(), BROKER);
    let mut daemon = Daemon::start(&setup, 1).await;
    let filter = format!("{}/boards/{BOARD}/#", setup.prefix);
    let sub = Subscriber::start(BROKER, &unique("gbe2e-crash"), &filter, false).await;
    let sse = SseClient::open(&format!("{}/boards/{BOARD}/events", daemon.base()), None).await;

    for p in OPENING.into_iter().chain([CAPTURE]) {
        play(&daemon, &board, &clock, p).await;
    }
    act(&board, &clock, KO_RETAKE).await;
    let ko = ko_violation_id(&daemon).await;
    wait_published(&sub, &sse, &ko).await;
    let seen = seen_before_crash(&sub, &sse);
    let want: Vec<String> = OPENING
        .iter()
        .chain([&CAPTURE])
        .map(|p| point_name(p.1, p.2))
        .collect();
    let points: Vec<String> = seen.mqtt_moves.iter().map(|k| k.2.clone()).collect();
    assert_eq!(
        points.get(..want.len()),
        Some(&want[..]),
        "MQTT moves in play order"
    );
    assert!(
        seen.sse_moves.len() >= want.len(),
        "moves seen on SSE: {:?}",
        seen.sse_moves
    );

    daemon.kill9();
    drop(sse);
    let daemon = Daemon::start(&setup, 2).await;
    assert_nothing_lost(&daemon.state().await, &seen);
    assert_seq_grows(&daemon, &ko, seen.max_seq).await;
}
