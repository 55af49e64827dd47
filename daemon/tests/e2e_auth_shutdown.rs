//! Arbiter routes need the bearer token (api.md REST, 401 with a JSON body), and SIGTERM exits within 2 s saying `offline`.

#[path = "support/harness/mod.rs"]
mod harness;

use std::time::Duration;

use harness::daemon::{BOARD, Daemon, Setup, TOKEN};
use harness::device::Device;
use harness::mqtt::{Subscriber, retained};
use harness::{unique, wait_for};
use serde_json::json;

const BROKER: u16 = 1883;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arbiter_routes_answer_401_json_without_the_token() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (board, clock) = (Device::board(9), Device::clock());
    let setup = Setup::new(dir.path(), board.path(), clock.path(), BROKER);
    let daemon = Daemon::start(&setup, 1).await;
    // autostart: wait for the game, so that only a refused request could change it.
    let before = daemon
        .wait_state("the autostarted game", |s| s["game"].is_string())
        .await;
    let routes = [
        ("game", json!({"black": "X", "white": "Y"})),
        ("clock", json!({"action": "pause"})),
        ("result", json!({"result": "B+R"})),
        ("dead-stones", json!({"points": ["D4"], "dead": true})),
        ("infractions/some-id/ruling", json!({"action": "dismiss"})),
    ];
    for (route, body) in &routes {
        let path = format!("/boards/{BOARD}/{route}");
        for token in [None, Some("not-the-token"), Some("")] {
            let (status, answer) = daemon.post(&path, body, token).await;
            assert_eq!(status, 401, "POST {path} with {token:?}: {answer}");
            assert!(
                answer["error"].is_string(),
                "401 without a JSON error body on {path}: {answer}"
            );
        }
    }
    let after = daemon.state().await;
    for field in ["game", "phase", "result", "black", "white"] {
        assert_eq!(
            before[field], after[field],
            "a refused request changed `{field}`"
        );
    }
    assert_eq!(after["clock"]["paused"], before["clock"]["paused"]);

    let (status, paused) = daemon
        .post(
            &format!("/boards/{BOARD}/clock"),
            &json!({"action": "pause"}),
            Some(TOKEN),
        )
        .await;
    assert_eq!(status, 200, "pause with the token: {paused}");
    assert!(
        paused["phase"] == "paused" || paused["clock"]["paused"] == true,
        "pause did not pause: {paused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_exits_within_2s_and_publishes_offline() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (board, clock) = (Device::board(9), Device::clock());
    let setup = Setup::new(dir.path(), board.path(), clock.path(), BROKER);
    let mut daemon = Daemon::start(&setup, 1).await;
    let status_topic = format!("{}/status", setup.prefix);
    wait_for("retained `online`", Duration::from_secs(10), || async {
        retained(BROKER, &status_topic)
            .await
            .filter(|m| m.text == "online")
    })
    .await;
    let sub = Subscriber::start(
        BROKER,
        &unique("gbe2e-term"),
        &format!("{}/#", setup.prefix),
        false,
    )
    .await;
    let devices_before = sub.on("/device").len();

    let exit = daemon.sigterm(Duration::from_secs(2));
    let exit = exit.unwrap_or_else(|| {
        panic!(
            "goban-bridge still running 2 s after SIGTERM:\n{}",
            daemon.log_tail()
        )
    });
    assert!(
        exit.success(),
        "SIGTERM exit status {exit}:\n{}",
        daemon.log_tail()
    );

    wait_for(
        "`offline` on <prefix>/status",
        Duration::from_secs(5),
        || async {
            sub.on("/status")
                .iter()
                .any(|m| m.text == "offline")
                .then_some(())
        },
    )
    .await;
    let last = retained(BROKER, &status_topic)
        .await
        .expect("retained status");
    assert_eq!(
        last.text, "offline",
        "the retained status after a clean shutdown"
    );
    assert!(
        sub.on("/device").len() > devices_before,
        "api.md: a final device message per board on clean shutdown"
    );
}
