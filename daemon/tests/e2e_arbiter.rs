//! The arbiter's tools through the real binary: void and restore, seal, late start, the 21.4
//! dispute, free handicap, guarded game starts and results, seki and the count, and the audit
//! trail of it all on REST, SSE, MQTT and in the SGF.

#[path = "support/harness/mod.rs"]
mod harness;

use std::time::Duration;

use harness::daemon::{BOARD, Daemon, Setup, TOKEN};
use harness::device::Device;
use harness::game::{OPENING, play, point_name};
use harness::mqtt::Subscriber;
use harness::sse::SseClient;
use harness::wait_for;
use serde_json::{Value, json};

const BROKER: u16 = 1883;

async fn start() -> (tempfile::TempDir, Device, Device, Daemon) {
    let dir = tempfile::tempdir().expect("temp dir");
    let (board, clock) = (Device::board(9), Device::clock());
    let setup = Setup::new(dir.path(), board.path(), clock.path(), BROKER);
    let daemon = Daemon::start(&setup, 1).await;
    daemon
        .wait_state("the autostarted game", |s| s["phase"] == "playing")
        .await;
    (dir, board, clock, daemon)
}

/// POSTs `body` to `/boards/table-1/<route>` with the arbiter token.
async fn arbiter(daemon: &Daemon, route: &str, body: Value) -> (u16, Value) {
    daemon
        .post(&format!("/boards/{BOARD}/{route}"), &body, Some(TOKEN))
        .await
}

fn points(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .map(|moves| {
            moves
                .iter()
                .map(|m| m["point"].as_str().unwrap_or("?").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn void_restore_seal_and_the_audit_trail() {
    let (_dir, board, clock, daemon) = start().await;
    for &mv in &OPENING[..3] {
        play(&daemon, &board, &clock, mv).await;
    }
    let opening: Vec<String> = OPENING[..3].iter().map(|p| point_name(p.1, p.2)).collect();
    assert_eq!(points(&daemon.state().await), opening);

    let (status, state) = arbiter(
        &daemon,
        "moves/3/void",
        json!({"note": "stone slipped from the hand"}),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(points(&state)[2], "pass", "a voided move counts as a pass");
    let (status, state) = arbiter(&daemon, "moves/3/restore", json!({})).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(points(&state), opening);
    let (status, state) = arbiter(&daemon, "moves/1/void", json!({})).await;
    assert_eq!(status, 200, "an earlier move too: {state}");
    assert_eq!(points(&state)[0], "pass");
    let (status, state) = arbiter(&daemon, "moves/1/restore", json!({})).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(points(&state), opening);
    for (route, why) in [
        ("moves/9/void", "no such move"),
        ("moves/2/restore", "not void"),
        ("unseal", "not sealed"),
    ] {
        let (status, answer) = arbiter(&daemon, route, json!({})).await;
        assert_eq!(status, 409, "{route} ({why}): {answer}");
    }

    let (status, state) = arbiter(&daemon, "seal", json!({"note": "adjourned for lunch"})).await;
    assert_eq!((status, state["phase"].as_str()), (200, Some("paused")));
    let (status, state) = arbiter(&daemon, "unseal", json!({})).await;
    assert_eq!((status, state["phase"].as_str()), (200, Some("playing")));

    let trail = daemon.get(&format!("/boards/{BOARD}/audit")).await;
    let actions: Vec<&str> = trail["audit"]
        .as_array()
        .expect("audit list")
        .iter()
        .filter_map(|e| e["action"].as_str())
        .collect();
    assert_eq!(
        actions,
        [
            "start_game",
            "void_move",
            "restore_move",
            "void_move",
            "restore_move",
            "seal",
            "unseal"
        ],
        "{trail}"
    );
    let void = &trail["audit"][1];
    assert_eq!(void["by"], "arbiter#1", "{void}");
    assert_eq!(void["note"], "stone slipped from the hand");
    assert_eq!(void["move_number"], 3);
    assert!(
        void["what"].as_str().unwrap_or("").contains("move 3"),
        "{void}"
    );
    assert_eq!(trail["audit"][5]["note"], "adjourned for lunch");
    assert_eq!(trail["game"], daemon.state().await["game"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn late_start_deducts_twice_and_advises_the_loss_beyond_the_limit() {
    let (_dir, _board, _clock, daemon) = start().await;
    let (status, state) = arbiter(
        &daemon,
        "late-start",
        json!({"color": "black", "absent_ms": 300_000, "note": "arrived 5 minutes late"}),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    let main = state["clock"]["black"]["main_ms"]
        .as_u64()
        .expect("main_ms");
    // 90 minutes less the absence twice over (22.1): 80 minutes, minus what ran since.
    assert!(
        (79 * 60_000..=80 * 60_000).contains(&main),
        "black has {main} ms: {state}"
    );
    let alert = &state["infractions"][0];
    assert_eq!(
        (alert["kind"].as_str(), alert["player"].as_str()),
        (Some("late_start"), Some("black")),
        "{alert}"
    );
    assert_eq!(state["phase"], "playing", "within 15 minutes play goes on");

    let (status, state) = arbiter(
        &daemon,
        "late-start",
        json!({"color": "white", "absent_ms": 1_200_000}),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    let alert = state["infractions"]
        .as_array()
        .and_then(|all| all.iter().find(|i| i["player"] == "white"))
        .cloned()
        .expect("white's late_start alert");
    assert_eq!(alert["sanction_applied"], false, "only advised: {alert}");
    let id = alert["id"].as_str().expect("alert id");
    let (status, state) = arbiter(
        &daemon,
        &format!("infractions/{id}/ruling"),
        json!({"action": "confirm"}),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        (state["phase"].as_str(), state["result"].as_str()),
        (Some("finished"), Some("B+F")),
        "confirm applies the article's sanction: 20 minutes late loses (22.2)"
    );
    let trail = daemon.get(&format!("/boards/{BOARD}/audit")).await;
    let late = &trail["audit"][1];
    assert_eq!(late["action"], "late_start");
    assert_eq!(late["note"], "arrived 5 minutes late");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_change_nothing_and_a_dispute_resumes_play() {
    let (_dir, board, clock, daemon) = start().await;
    let before = daemon.state().await;
    let refused = [
        ("game", json!([]), 400),
        ("game", json!({}), 409),
        ("game", json!({"black": "Other", "force": false}), 409),
        ("result", json!({"result": "W+1000000"}), 400),
        ("result", json!({"result": "W+0.3"}), 400),
        ("result", json!({"result": "W+X"}), 400),
        ("result", json!({"result": "B+R"}), 409),
        ("resume-play", json!({"first": "black"}), 409),
    ];
    for (route, body, status) in refused {
        let (got, answer) = arbiter(&daemon, route, body.clone()).await;
        assert_eq!(got, status, "{route} {body}: {answer}");
        assert!(answer["detail"].is_string(), "a reason: {answer}");
    }
    let after = daemon.state().await;
    for field in ["game", "phase", "result", "black", "move_number"] {
        assert_eq!(
            before[field], after[field],
            "a refused request changed {field}"
        );
    }

    for &mv in &OPENING[..2] {
        play(&daemon, &board, &clock, mv).await;
    }
    // Two passes: Black's press with no stone, White's press, then White's pass deadline.
    clock.press('L');
    tokio::time::sleep(Duration::from_millis(400)).await;
    clock.press('R');
    daemon
        .wait_state("counting after two passes", |s| s["phase"] == "counting")
        .await;
    let (status, state) = arbiter(
        &daemon,
        "resume-play",
        json!({"first": "white", "note": "White says D7 is dead"}),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        (state["phase"].as_str(), state["to_move"].as_str()),
        (Some("playing"), Some("white")),
        "the side claiming dead moves first (21.4)"
    );
    let (status, state) = arbiter(&daemon, "result", json!({"result": "B+R", "force": true})).await;
    assert_eq!(
        (status, state["result"].as_str()),
        (200, Some("B+R")),
        "{state}"
    );

    // A finished game: a new one needs no force. jk without komi takes jk's 6.5.
    let (status, state) = arbiter(&daemon, "game", json!({"ruleset": "jk"})).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        (state["ruleset"].as_str(), state["komi"].as_f64()),
        (Some("jk"), Some(6.5))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn free_handicap_stones_are_read_off_the_board() {
    let (_dir, board, _clock, daemon) = start().await;
    let (status, state) = arbiter(
        &daemon,
        "game",
        json!({"handicap": 2, "free_handicap": true, "force": true, "note": "replaying round 2"}),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    let stones = |s: &Value| s["position"].as_str().unwrap_or("").matches('B').count();
    assert_eq!(
        stones(&state),
        0,
        "free placement: no stone on fixed points"
    );
    daemon.wait_board_reads().await;
    board.set(&[(2 * 9 + 2, b'B')]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    board.set(&[(6 * 9 + 6, b'B')]);
    let state = wait_for("two handicap stones", Duration::from_secs(10), || async {
        let state = daemon.state().await;
        (stones(&state) == 2).then_some(state)
    })
    .await;
    assert_eq!(state["move_number"], 0, "handicap stones are not moves");
    assert_eq!(state["to_move"], "white", "White moves after the handicap");
    assert!(
        state["infractions"].as_array().is_some_and(Vec::is_empty),
        "{state}"
    );
    let trail = daemon.get(&format!("/boards/{BOARD}/audit")).await;
    let start = &trail["audit"][0];
    assert_eq!(start["action"], "start_game");
    assert_eq!(start["note"], "replaying round 2");
    assert!(
        start["what"]
            .as_str()
            .unwrap_or("")
            .contains("2 handicap stones (free"),
        "{start}"
    );
}

/// The `data` of every SSE event named `event`.
fn sse_data(sse: &SseClient, event: &str) -> Vec<Value> {
    sse.events()
        .into_iter()
        .filter(|e| e.event == event)
        .map(|e| e.data)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counting_rulings_reach_the_streams_the_result_and_the_sgf() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (board, clock) = (Device::board(9), Device::clock());
    let setup = Setup::new(dir.path(), board.path(), clock.path(), BROKER);
    let mqtt = Subscriber::start(
        BROKER,
        &format!("{}-audit", setup.prefix),
        &format!("{}/boards/{BOARD}/audit", setup.prefix),
        false,
    )
    .await;
    let daemon = Daemon::start(&setup, 1).await;
    daemon
        .wait_state("the autostarted game", |s| s["phase"] == "playing")
        .await;
    let sse = SseClient::open(&format!("{}/boards/{BOARD}/events", daemon.base()), None).await;
    for &mv in &OPENING[..4] {
        play(&daemon, &board, &clock, mv).await;
    }
    clock.press('L');
    tokio::time::sleep(Duration::from_millis(400)).await;
    clock.press('R');
    let state = daemon
        .wait_state("counting after two passes", |s| s["phase"] == "counting")
        .await;
    assert_eq!(state["result_unit"], "stones", "cn2002 counts in stones");
    assert!(state["count"]["black"]["stones"].is_u64(), "{state}");
    assert_eq!(state["count"]["komi"], 3.75, "{state}");
    // A stone of the game position, whatever the start-up reading made of the first move.
    let stone = state["moves"]
        .as_array()
        .and_then(|m| m.iter().rev().find(|m| m["point"] != "pass"))
        .and_then(|m| m["point"].as_str())
        .expect("a stone on the board")
        .to_owned();

    for (body, status) in [
        (json!({"points": [], "ruling": "in_seki"}), 400),
        (json!({"points": [stone], "ruling": "maybe"}), 400),
        (json!({"points": ["Z9"], "ruling": "in_seki"}), 400),
    ] {
        let (got, answer) = arbiter(&daemon, "seki", body.clone()).await;
        assert_eq!(got, status, "{body}: {answer}");
    }
    let (status, state) = arbiter(
        &daemon,
        "seki",
        json!({"points": [stone], "ruling": "in_seki", "note": "both players agree"}),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        state["seki"],
        json!([{"point": stone, "ruling": "in_seki"}]),
        "{state}"
    );
    let (status, _) = arbiter(
        &daemon,
        "seki",
        json!({"points": [stone], "ruling": "clear"}),
    )
    .await;
    assert_eq!(status, 200);
    let (status, state) = arbiter(
        &daemon,
        "dead-stones",
        json!({"points": [stone], "dead": true, "note": "agreed dead"}),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    let (status, answer) = arbiter(
        &daemon,
        "seki",
        json!({"points": [stone], "ruling": "in_seki"}),
    )
    .await;
    assert_eq!(status, 409, "a dead stone is in no seki: {answer}");
    let proposed = state["proposed_result"].clone();
    let (status, state) = arbiter(&daemon, "confirm-result", json!({})).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["phase"], "finished");
    assert_eq!(state["result"], proposed, "the count is the result");
    assert_eq!(
        state["dead_stones"],
        json!([stone]),
        "kept in the final state"
    );
    assert!(state["count"]["result"].is_string(), "{state}");
    let (status, _) = arbiter(&daemon, "confirm-result", json!({})).await;
    assert_eq!(status, 409, "nothing left to confirm");

    let actions = ["mark_seki", "mark_seki", "mark_dead", "confirm_result"];
    let on_sse = wait_for("the audit on SSE", Duration::from_secs(10), || {
        let got: Vec<Value> = sse_data(&sse, "audit");
        async move { (got.len() >= actions.len()).then_some(got) }
    })
    .await;
    let named: Vec<&str> = on_sse
        .iter()
        .filter_map(|d| d["entry"]["action"].as_str())
        .collect();
    assert_eq!(named, actions, "{on_sse:?}");
    assert_eq!(on_sse[0]["event"], "arbiter_action");
    assert_eq!(on_sse[0]["entry"]["by"], "arbiter#1");
    assert_eq!(on_sse[0]["entry"]["note"], "both players agree");
    // The subscriber was there before the daemon: it also has the game's start.
    let on_mqtt = mqtt.wait_count("/audit", 1 + actions.len()).await;
    let named: Vec<String> = on_mqtt
        .iter()
        .filter_map(|m| m.json()["entry"]["action"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(named[0], "start_game");
    assert_eq!(named[1..], actions);
    assert!(on_mqtt.iter().all(|m| !m.retain));

    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client");
    let sgf = http
        .get(format!("{}/boards/{BOARD}/sgf", daemon.base()))
        .send()
        .await
        .expect("GET sgf")
        .text()
        .await
        .expect("sgf text");
    assert!(sgf.contains("ruled in seki: "), "{sgf}");
    assert!(sgf.contains("Note: agreed dead"), "{sgf}");
    // On the node where they happened: the two passes' last one (TB/TW: referee unit tests).
    let last = &sgf[sgf.rfind("\n;").expect("moves")..];
    assert!(last.contains("counted result confirmed"), "{sgf}");
}
