//! The MQTT broker stopped and restarted mid-game (issue 5): every move arrives after the reconnect, and the retained state is republished.

#[path = "support/harness/mod.rs"]
mod harness;

use std::time::Duration;

use harness::broker::Broker;
use harness::daemon::{BOARD, Daemon, Setup};
use harness::device::Device;
use harness::game::{OPENING, play, point_name};
use harness::mqtt::{Subscriber, retained};
use harness::{unique, wait_for};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broker_restart_mid_game_loses_no_move_and_republishes_state() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut broker = Broker::start(dir.path());
    let (board, clock) = (Device::board(9), Device::clock());
    let setup = Setup::new(dir.path(), board.path(), clock.path(), broker.port);
    let daemon = Daemon::start(&setup, 1).await;
    // A persistent session: the broker keeps our subscription and queues QoS 1 messages across its restart.
    let filter = format!("{}/boards/{BOARD}/#", setup.prefix);
    let sub = Subscriber::start(broker.port, &unique("gbe2e-persist"), &filter, true).await;

    for p in &OPENING[..2] {
        play(&daemon, &board, &clock, *p).await;
    }
    sub.wait_count("/moves", 2).await;
    broker.stop();
    for p in &OPENING[2..6] {
        play(&daemon, &board, &clock, *p).await; // play goes on while the broker is away
    }
    let early = sub.move_points("");
    assert_eq!(
        early.len(),
        2,
        "nothing can arrive while the broker is down: {early:?}"
    );
    broker.restart();

    let want: Vec<String> = OPENING[..6].iter().map(|p| point_name(p.1, p.2)).collect();
    let moves = wait_for(
        "all 6 moves on MQTT after the broker came back",
        Duration::from_secs(20),
        || async {
            let points = sub.move_points("");
            (points.len() >= want.len()).then_some(points)
        },
    )
    .await;
    assert_eq!(moves, want, "moves in seq order after the broker restart");

    let state = wait_for(
        "the retained state republished with move 6",
        Duration::from_secs(10),
        || async {
            let msg = retained(
                broker.port,
                &format!("{}/boards/{BOARD}/state", setup.prefix),
            )
            .await?;
            let state = msg.json();
            (state["move_number"] == 6).then_some(state)
        },
    )
    .await;
    assert_eq!(state["v"], 2, "the live state of api.md Changes");
    assert!(state.get("moves").is_none() && state["last_move"]["number"] == 6);
    let rest = daemon.state().await;
    assert_eq!(
        state["position"], rest["position"],
        "retained state equals REST"
    );
    let status = retained(broker.port, &format!("{}/status", setup.prefix))
        .await
        .expect("retained status");
    assert_eq!(status.text, "online");
}
