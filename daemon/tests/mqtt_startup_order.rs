//! A board's first MQTT messages at start-up (issue 39.6): the publisher connects while the board's first messages are still on their way through the bus; a subscriber on a real broker (Mosquitto on 127.0.0.1:1883) gets every board's seqs in order from the first one, never the current state ahead of older messages.

#[path = "support/harness/mod.rs"]
mod harness;

use std::sync::Arc;
use std::time::Duration;

use goban_bridge::message::{BoardView, Payload, Published, Topic};
use goban_bridge::mqtt::{MqttPublisher, MqttSettings};
use goban_bridge::publish::delay::Feed;
use goban_bridge::publish::doubles::{IdleBoard, MemoryArchive};
use goban_bridge::publish::hub::Hub;
use goban_referee::{Referee, RefereeConfig};
use harness::mqtt::Subscriber;
use harness::{unique, wait_for};

const BOARDS: [&str; 3] = ["s1", "s2", "s3"];
/// Messages per board published while the publisher connects.
const PER_BOARD: u64 = 60;

fn settings(prefix: &str) -> MqttSettings {
    MqttSettings {
        host: "127.0.0.1".into(),
        port: 1883,
        tls: false,
        ca_file: None,
        client_id: format!("{prefix}-pub"),
        credentials: None,
        prefix: prefix.into(),
        buffer: 10_000,
        max_backoff: Duration::from_millis(200),
    }
}

/// Message `seq` of `board`: a `state` every third one (its view the hub's current one), a
/// `device` report otherwise, as a board's first messages are.
fn build_message(board: &str, seq: u64) -> Published {
    if seq.is_multiple_of(3) {
        let mut state = Referee::new(RefereeConfig::default()).unwrap().state();
        state.seq = seq;
        state.board = board.into();
        let view = BoardView::build(state, None);
        return Published {
            board: board.into(),
            seq,
            topic: Topic::State,
            at_ms: seq,
            payload: view.live.clone(),
            view: Some(view),
        };
    }
    Published {
        board: board.into(),
        seq,
        topic: Topic::Device,
        at_ms: seq,
        payload: Payload::json(&serde_json::json!({"v": 1, "seq": seq, "board": board})).unwrap(),
        view: None,
    }
}

fn seq_of(text: &str) -> u64 {
    let value: serde_json::Value = serde_json::from_str(text).expect("JSON");
    value["seq"].as_u64().expect("a seq")
}

/// One start-up: the hub's boards publish at once while the publisher connects.
async fn start_up(run: usize) {
    let prefix = unique(&format!("gbstart{run}"));
    let sub = Subscriber::start(
        1883,
        &format!("{prefix}-sub"),
        &format!("{prefix}/boards/#"),
        false,
    )
    .await;
    let journal = Arc::new(MemoryArchive::default());
    let hub = Hub::new(4_096, journal.clone());
    let publisher =
        MqttPublisher::spawn(settings(&prefix), Feed::Live(hub.clone())).expect("publisher");
    let state = Referee::new(RefereeConfig::default()).unwrap().state();
    for board in BOARDS {
        hub.register(
            board,
            BoardView::build(state.clone(), None),
            Arc::new(IdleBoard),
            0,
        );
    }
    for seq in 1..=PER_BOARD {
        for board in BOARDS {
            let message = build_message(board, seq);
            journal.keep(message.clone());
            hub.publish(message);
        }
        if seq.is_multiple_of(10) {
            tokio::task::yield_now().await;
        }
    }
    let want = BOARDS.len() * usize::try_from(PER_BOARD).unwrap();
    wait_for("every message", Duration::from_secs(30), || async {
        (sub.on("").len() >= want).then_some(())
    })
    .await;
    for board in BOARDS {
        let suffix = format!("/boards/{board}/");
        let seqs: Vec<u64> = sub
            .on("")
            .iter()
            .filter(|m| m.topic.contains(&suffix))
            .map(|m| seq_of(&m.text))
            .collect();
        assert!(
            seqs.windows(2).all(|w| w[0] < w[1]),
            "run {run}, {board}: seqs out of order from the first message: {:?}",
            &seqs[..seqs.len().min(12)]
        );
        // The state the board was registered with (seq 0) may come first: it is the oldest.
        assert!(
            seqs.first().is_some_and(|&first| first <= 1),
            "run {run}, {board}: from the first message on: {:?}",
            &seqs[..seqs.len().min(12)]
        );
    }
    publisher.finish(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seqs_go_out_in_order_from_the_first_message_at_start_up() {
    // The race is between the broker's answer and the bus: several start-ups give it its chances.
    for run in 0..6 {
        start_up(run).await;
    }
}
