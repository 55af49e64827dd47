//! End-to-end: the real binary reading simulated boards on pseudo-terminals, publishing to Mosquitto (127.0.0.1:1883), REST, SSE and a real SQLite journal; kill -9 and restart lose nothing published.

mod support;

use std::time::Duration;

use serde_json::Value;
use support::*;
use tokio_util::sync::CancellationToken;

/// How long an SSE read may take to bring what it waits for (a loaded machine streams slowly).
const LIMIT: Duration = Duration::from_secs(30);

const SCRIPT: &str = r#"{"steps": [
  {"at_move": 3, "fault": "premature_press"},
  {"at_move": 5, "fault": "garbage", "device": "board", "bytes": 40}
]}"#;

fn moves_of(state: &Value) -> Vec<(u64, String)> {
    state["moves"]
        .as_array()
        .map(|moves| {
            moves
                .iter()
                .map(|m| {
                    (
                        m["number"].as_u64().unwrap_or(0),
                        m["point"].as_str().unwrap_or("").to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_flows_to_every_channel_and_survives_kill_9() {
    let work = tempfile::tempdir().expect("tempdir");
    let http_port = free_port();
    let prefix = format!("goban-e2e-{}", std::process::id());
    let config = write_config(work.path(), http_port, 1883, &prefix, 1);
    // The autostarted game is the config's event, at its place (SGF EV, PC).
    let mut text = std::fs::read_to_string(&config).expect("config");
    text.push_str("[tournament]\nevent = \"Hall Open 2026\"\nplace = \"Hall B\"\n");
    std::fs::write(&config, text).expect("config");
    let mut mqtt = Subscriber::connect(1883, &prefix).await;
    let mut daemon = Daemon::run(&config);
    let base = format!("http://127.0.0.1:{http_port}/api/v1");
    let board = format!("{base}/boards/table-1");
    wait_for(&format!("{base}/health"), Duration::from_secs(20), |_| true).await;
    let cancel = CancellationToken::new();
    let _tables = spawn_sim(&work.path().join("ports"), 1, 12.0, SCRIPT, &cancel);

    // Moves reach REST, then SGF, SSE and MQTT.
    let state = wait_for(&board, Duration::from_secs(60), |s| {
        s["move_number"].as_u64() >= Some(6)
    })
    .await;
    assert_eq!(state["v"], 1);
    assert_eq!(state["board"], "table-1");
    let first_moves = moves_of(&state);
    assert!(first_moves.len() >= 6, "{}", summary(&state));
    let sgf = http()
        .get(format!("{board}/sgf"))
        .send()
        .await
        .expect("sgf")
        .text()
        .await
        .expect("text");
    assert!(sgf.starts_with("(;") && sgf.contains(";B["), "{sgf}");
    assert!(
        sgf.contains("EV[Hall Open 2026]") && sgf.contains("PC[Hall B]"),
        "{sgf}"
    );
    let events = read_sse_until(&format!("{board}/events"), Some(0), LIMIT, |e| {
        e.iter().any(|(_, event, _)| event == "moves")
    })
    .await;
    assert!(
        events.iter().any(|(_, event, _)| event == "moves"),
        "SSE carries moves: {events:?}"
    );
    let ids: Vec<u64> = events.iter().map(|(id, _, _)| *id).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "SSE ids grow: {ids:?}");
    let mqtt_move = mqtt
        .wait("/boards/table-1/moves", Duration::from_secs(20), |_| true)
        .await;
    let mqtt_move: Value = serde_json::from_str(&mqtt_move).expect("json");
    assert_eq!(mqtt_move["v"], 1);
    assert!(mqtt_move["seq"].as_u64().is_some());
    // Each move's clock reaches `moves` itself: the press's completing correction (issue 15).
    let completing = mqtt
        .wait("/boards/table-1/moves", Duration::from_secs(20), |p| {
            serde_json::from_str::<Value>(p).is_ok_and(|v| {
                v["event"] == "correction" && v["was"] == v["now"] && v["time_left_ms"].is_u64()
            })
        })
        .await;
    assert!(
        completing.contains("completed by the clock press"),
        "{completing}"
    );
    mqtt.wait("/boards/table-1/state", Duration::from_secs(10), |_| true)
        .await;
    mqtt.wait("/status", Duration::from_secs(10), |p| p == "online")
        .await;

    // The scripted premature press (CN2002 17.4) shows on REST, SSE and MQTT.
    let state = wait_for(&board, Duration::from_secs(60), |s| {
        s["infractions"]
            .as_array()
            .is_some_and(|list| !list.is_empty())
    })
    .await;
    let alert = state["infractions"][0].clone();
    assert!(
        alert["article"]
            .as_str()
            .is_some_and(|a| a.starts_with("CN2002")),
        "{alert}"
    );
    let events = read_sse_until(&format!("{board}/events"), Some(0), LIMIT, |e| {
        e.iter().any(|(_, event, _)| event == "infractions")
    })
    .await;
    assert!(
        events.iter().any(|(_, event, _)| event == "infractions"),
        "SSE carries the alert"
    );
    mqtt.wait(
        "/boards/table-1/infractions",
        Duration::from_secs(10),
        |_| true,
    )
    .await;

    // Arbiter routes need the token.
    let id = alert["id"].as_str().expect("id").to_owned();
    let ruling = format!("{board}/infractions/{}/ruling", id.replace('/', "%2F"));
    let body = serde_json::json!({"action": "dismiss", "note": "e2e"});
    let refused = http().post(&ruling).json(&body).send().await.expect("post");
    assert_eq!(refused.status(), 401);
    let refused_body: Value = refused.json().await.expect("json error body");
    assert!(refused_body["error"].is_string());
    let accepted = http()
        .post(&ruling)
        .bearer_auth(TOKEN)
        .json(&body)
        .send()
        .await
        .expect("post");
    assert!(
        accepted.status().is_success(),
        "ruling with token: {}",
        accepted.status()
    );

    // kill -9, restart: every move and every message published before is still there.
    let before = get_json(&board).await.expect("state");
    let state_seq = before["seq"].as_u64().expect("the state's seq");
    let published = read_sse_until(&format!("{board}/events"), Some(0), LIMIT, |e| {
        e.last().is_some_and(|(id, _, _)| *id >= state_seq)
    })
    .await;
    let last_seq = published.last().map(|(id, _, _)| *id).expect("some events");
    daemon.kill9();
    let mut daemon = Daemon::run(&config);
    let after = wait_for(&board, Duration::from_secs(20), |s| {
        s["seq"].as_u64() >= Some(last_seq)
    })
    .await;
    let (old, new) = (moves_of(&before), moves_of(&after));
    assert!(
        new.len() >= old.len() && new[..old.len()] == old[..],
        "moves survive:\nbefore {old:?}\nafter {new:?}"
    );
    let replayed = read_sse_until(&format!("{board}/events"), Some(0), LIMIT, |e| {
        e.last().is_some_and(|(id, _, _)| *id >= last_seq)
    })
    .await;
    for (id, event, data) in &published {
        let found = replayed.iter().find(|(rid, _, _)| rid == id);
        assert_eq!(
            found.map(|(_, e, d)| (e, d)),
            Some((event, data)),
            "event {id} kept after kill -9"
        );
    }
    // New messages after the restart (device reconnections at least) continue the numbering.
    let fresh = read_sse_until(&format!("{board}/events"), Some(last_seq), LIMIT, |e| {
        !e.is_empty()
    })
    .await;
    assert!(
        fresh.iter().all(|(id, _, _)| *id > last_seq),
        "seq keeps growing across restarts"
    );
    assert!(!fresh.is_empty(), "the restarted daemon publishes again");

    // SIGTERM: offline on MQTT, exit well within 2 s.
    let (took, status) = daemon.terminate();
    assert!(status.success(), "clean exit: {status}");
    println!("SIGTERM to exit: {took:?}");
    mqtt.wait("/status", Duration::from_secs(5), |p| p == "offline")
        .await;
    cancel.cancel();
}
