//! Arbiters as a team through the real binary: a token that carries a name, the "on my way"
//! acknowledge seen on REST, SSE and MQTT, and the late start of CN2002 22.1-22.4 over HTTP.

#[path = "support/harness/mod.rs"]
mod harness;

use std::time::Duration;

use harness::daemon::{BOARD, Daemon, Setup, TOKEN};
use harness::device::Device;
use harness::mqtt::Subscriber;
use harness::sse::SseClient;
use harness::wait_for;
use serde_json::{Value, json};

const BROKER: u16 = 1883;
/// A generous deadline for what the daemon publishes: the test waits on the condition, not a time.
const WAIT: Duration = Duration::from_secs(60);
const LI_WEI: &str = "e2e-li-wei-token";

async fn post(daemon: &Daemon, route: &str, body: Value, token: &str) -> (u16, Value) {
    daemon
        .post(&format!("/boards/{BOARD}/{route}"), &body, Some(token))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_named_arbiter_takes_an_alert_and_every_arbiter_sees_who() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (board, clock) = (Device::board(9), Device::clock());
    let mut setup = Setup::new(dir.path(), board.path(), clock.path(), BROKER);
    setup.boards_extra = format!("[[server.arbiters]]\nname = \"Li Wei\"\ntoken = \"{LI_WEI}\"\n");
    let mqtt = Subscriber::start(
        BROKER,
        &format!("{}-ack", setup.prefix),
        &format!("{}/boards/{BOARD}/infractions", setup.prefix),
        false,
    )
    .await;
    let daemon = Daemon::start(&setup, 1).await;
    daemon
        .wait_state("the autostarted game", |s| s["phase"] == "playing")
        .await;
    let sse = SseClient::open(&format!("{}/boards/{BOARD}/events", daemon.base()), Some(0)).await;
    // 20 minutes late at a same-site venue: an open alert advising the loss (CN2002 22.2).
    let (status, state) = post(
        &daemon,
        "late-start",
        json!({"color": "white", "absent_ms": 1_200_000}),
        TOKEN,
    )
    .await;
    assert_eq!(status, 200, "{state}");
    let id = state["infractions"][0]["id"]
        .as_str()
        .expect("alert")
        .to_owned();
    assert_eq!(state["infractions"][0]["status"], "open");

    let route = format!("infractions/{id}/acknowledge");
    let (status, state) = post(&daemon, &route, json!({"note": "table 1"}), LI_WEI).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["infractions"][0]["taken_by"], "Li Wei");
    assert!(state["infractions"][0]["taken_at"].is_string(), "{state}");
    let (status, answer) = post(&daemon, &route, json!({}), TOKEN).await;
    assert_eq!(status, 409, "another arbiter is told: {answer}");
    assert!(answer.to_string().contains("Li Wei"), "{answer}");
    let (status, _) = post(
        &daemon,
        &route,
        json!({"take_over": true, "withdraw": true}),
        TOKEN,
    )
    .await;
    assert_eq!(status, 409, "one or the other: valid alone, not together");

    let taken =
        |v: &Value| v["event"] == "infraction_changed" && v["infraction"]["taken_by"] == "Li Wei";
    wait_for("the SSE infraction_changed naming Li Wei", WAIT, || {
        let seen = sse
            .events()
            .iter()
            .any(|e| e.event == "infractions" && taken(&e.data));
        async move { seen.then_some(()) }
    })
    .await;
    wait_for("the MQTT infraction_changed naming Li Wei", WAIT, || {
        let seen = mqtt.on("/infractions").iter().any(|m| taken(&m.json()));
        async move { seen.then_some(()) }
    })
    .await;

    let (status, state) = post(&daemon, &route, json!({"take_over": true}), TOKEN).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["infractions"][0]["taken_by"], "arbiter#1");
    let (status, state) = post(
        &daemon,
        &format!("infractions/{id}/ruling"),
        json!({"action": "confirm"}),
        LI_WEI,
    )
    .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        state["result"], "B+F",
        "beyond 15 minutes the game is lost (22.2)"
    );
    assert_eq!(state["infractions"][0]["ruled_by"], "Li Wei");
    let trail = daemon.get(&format!("/boards/{BOARD}/audit")).await;
    let who: Vec<(&str, &str)> = trail["audit"]
        .as_array()
        .expect("audit")
        .iter()
        .map(|e| {
            (
                e["action"].as_str().unwrap_or(""),
                e["by"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        &who[1..],
        [
            ("late_start", "arbiter#1"),
            ("acknowledge", "Li Wei"),
            ("acknowledge", "arbiter#1"),
            ("ruling", "Li Wei"),
        ],
        "{trail}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_five_minute_late_start_is_deducted_and_no_ruling_forfeits_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (board, clock) = (Device::board(9), Device::clock());
    let setup = Setup::new(dir.path(), board.path(), clock.path(), BROKER);
    let daemon = Daemon::start(&setup, 1).await;
    daemon
        .wait_state("the autostarted game", |s| s["phase"] == "playing")
        .await;
    let (status, state) = post(
        &daemon,
        "late-start",
        json!({"color": "black", "absent_ms": 300_000}),
        TOKEN,
    )
    .await;
    assert_eq!(status, 200, "{state}");
    let alert = &state["infractions"][0];
    assert_eq!(
        (alert["status"].as_str(), alert["ruled_by"].as_str()),
        (Some("sanctioned"), Some("arbiter#1")),
        "closed at once: the deduction is the whole sanction (CN2002 22.2): {alert}"
    );
    let id = alert["id"].as_str().expect("id").to_owned();
    for action in ["confirm", "sanction"] {
        let (status, answer) = post(
            &daemon,
            &format!("infractions/{id}/ruling"),
            json!({ "action": action }),
            TOKEN,
        )
        .await;
        assert_eq!(status, 409, "{action}: {answer}");
    }
    let state = daemon.state().await;
    assert_eq!(
        (state["phase"].as_str(), state["result"].as_str()),
        (Some("playing"), None),
        "{state}"
    );
    let (status, answer) = post(
        &daemon,
        "late-start",
        json!({"color": "black", "absent_ms": 60_000}),
        TOKEN,
    )
    .await;
    assert_eq!(status, 409, "declared once per side: {answer}");
}
