//! The MQTT publisher falls behind the hub's bus (issue 9: at 20x, a 512-board hall starting at
//! once made it miss 1,225-13,451 messages): it reads what it missed back from the journal and a
//! subscriber on a real broker (Mosquitto on 127.0.0.1:1883) gets every message of every board
//! once, in seq order, with nothing counted as dropped.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use goban_bridge::delay::Feed;
use goban_bridge::doubles::{IdleBoard, MemoryArchive};
use goban_bridge::hub::{BoardView, Hub, Payload, Published, Topic};
use goban_bridge::mqtt::{MqttPublisher, MqttSettings};
use goban_referee::{Referee, RefereeConfig};
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};

const BOARDS: [&str; 3] = ["r1", "r2", "r3"];
/// Messages per board: far more than the bus holds.
const PER_BOARD: u64 = 400;
/// The hub's bus: a few messages, so the publisher must fall behind.
const BUS: usize = 8;

fn build_message(board: &str, seq: u64) -> Published {
    Published {
        board: board.into(),
        seq,
        topic: Topic::Moves,
        at_ms: seq,
        payload: Payload::json(&serde_json::json!({"v": 1, "seq": seq, "board": board})).unwrap(),
        view: None,
    }
}

fn seq_of(payload: &[u8]) -> u64 {
    let value: serde_json::Value = serde_json::from_slice(payload).expect("JSON");
    value["seq"].as_u64().expect("a seq")
}

#[tokio::test]
async fn a_publisher_behind_the_bus_publishes_every_message_in_seq_order() {
    let refilled = burst_past_the_bus("all", 10_000).await;
    assert!(
        refilled > 0,
        "the burst must have passed the bus: this test shows nothing otherwise"
    );
}

#[tokio::test]
async fn a_refill_larger_than_the_outbox_goes_out_in_turns_and_drops_nothing() {
    // 1,200 missed, 100 at a time: the publisher refills, sends, refills again.
    let refilled = burst_past_the_bus("turns", 100).await;
    assert!(refilled > 100, "more than one turn: {refilled}");
}

/// Publishes 1,200 messages in one burst past a bus of 8, checks a subscriber got them all in
/// order with nothing dropped, and says how many were read back from the journal.
async fn burst_past_the_bus(name: &str, buffer: usize) -> u64 {
    let prefix = format!("gbrefill-{name}-{}", std::process::id());
    let journal = Arc::new(MemoryArchive::default());
    let hub = Hub::new(BUS, journal.clone());
    let settings = MqttSettings {
        host: "127.0.0.1".into(),
        port: 1883,
        tls: false,
        ca_file: None,
        client_id: format!("{prefix}-pub"),
        credentials: None,
        prefix: prefix.clone(),
        buffer,
        max_backoff: Duration::from_millis(500),
    };
    let publisher = MqttPublisher::spawn(settings, Feed::Live(hub.clone())).expect("publisher");
    // Registered after the publisher subscribed, as the daemon does; r2 was restarted at seq 10.
    let state = Referee::new(RefereeConfig::default()).unwrap().state();
    for board in BOARDS {
        let last_seq = if board == "r2" { 10 } else { 0 };
        hub.register(
            board,
            BoardView::build(state.clone(), None),
            Arc::new(IdleBoard),
            last_seq,
        );
    }

    let (client, mut events) = AsyncClient::new(
        MqttOptions::new(format!("{prefix}-sub"), "127.0.0.1", 1883),
        64,
    );
    client
        .subscribe(format!("{prefix}/boards/+/moves"), QoS::AtLeastOnce)
        .await
        .expect("subscribe");
    tokio::time::timeout(Duration::from_secs(10), async {
        while !matches!(events.poll().await, Ok(Event::Incoming(Packet::SubAck(_)))) {}
    })
    .await
    .expect("no SUBACK from the broker on 127.0.0.1:1883");

    // One burst, never yielding: the publisher's task cannot run until it is over.
    let first = |board: &str| if board == "r2" { 11 } else { 1 };
    for round in 0..PER_BOARD {
        for board in BOARDS {
            let message = build_message(board, first(board) + round);
            journal.keep(message.clone());
            hub.publish(message);
        }
    }

    let mut received: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let total = PER_BOARD as usize * BOARDS.len();
    let outcome = tokio::time::timeout(Duration::from_secs(30), async {
        while received.values().map(Vec::len).sum::<usize>() < total {
            match events.poll().await {
                Ok(Event::Incoming(Packet::Publish(p))) => {
                    let board = p.topic.split('/').nth(2).unwrap_or_default().to_owned();
                    received.entry(board).or_default().push(seq_of(&p.payload));
                }
                Ok(_) => {}
                Err(err) => panic!("subscriber lost the broker: {err}"),
            }
        }
    })
    .await;
    let counts: Vec<usize> = received.values().map(Vec::len).collect();
    assert!(
        outcome.is_ok(),
        "not every message arrived: {counts:?} of {PER_BOARD} each"
    );
    for board in BOARDS {
        let expected: Vec<u64> = (first(board)..first(board) + PER_BOARD).collect();
        assert_eq!(
            received[board], expected,
            "{board}: every seq once, in order"
        );
    }
    assert_eq!(publisher.counters.dropped.load(Ordering::Relaxed), 0);
    let refilled = publisher.counters.refilled.load(Ordering::Relaxed);
    publisher.finish(Duration::from_secs(2)).await;
    refilled
}
