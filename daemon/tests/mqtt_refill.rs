//! The MQTT publisher falls behind the hub's bus (issue 9: at 20x, a 512-board hall starting at
//! once made it miss 1,225-13,451 messages): it reads what it missed back from the journal and a
//! subscriber on a real broker (Mosquitto on 127.0.0.1:1883) gets every message of every board
//! once, in seq order, with nothing counted as dropped; and when the broker comes back while it
//! is still behind, no board's current state overtakes the messages still to be refilled.

#[path = "support/harness/mod.rs"]
mod harness;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use goban_bridge::message::{BoardView, Payload, Published, Topic};
use goban_bridge::mqtt::{MqttPublisher, MqttSettings};
use goban_bridge::publish::delay::Feed;
use goban_bridge::publish::doubles::{IdleBoard, MemoryArchive};
use goban_bridge::publish::hub::Hub;
use goban_referee::{Referee, RefereeConfig};
use harness::broker::Broker;
use harness::mqtt::Subscriber;
use harness::{unique, wait_for};
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

/// A `state` message as of `seq`, its view the hub's current one once published.
fn build_state(board: &str, seq: u64) -> Published {
    let mut state = Referee::new(RefereeConfig::default()).unwrap().state();
    state.seq = seq;
    state.board = board.into();
    let view = BoardView::build(state, None);
    Published {
        board: board.into(),
        seq,
        topic: Topic::State,
        at_ms: seq,
        payload: view.live.clone(),
        view: Some(view),
    }
}

fn settings(prefix: &str, port: u16, buffer: usize) -> MqttSettings {
    MqttSettings {
        host: "127.0.0.1".into(),
        port,
        tls: false,
        ca_file: None,
        client_id: format!("{prefix}-pub"),
        credentials: None,
        prefix: prefix.into(),
        buffer,
        max_backoff: Duration::from_millis(200),
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

#[tokio::test]
async fn a_journal_briefly_unreadable_is_read_again_and_nothing_is_dropped() {
    // The first three reads fail: the refill waits 0.1, 0.2 and 0.4 s and reads again.
    let journal = Arc::new(MemoryArchive::failing_first(3));
    let refilled = burst_past_the_bus_of("unreadable", 10_000, journal).await;
    assert!(refilled > 0, "the burst must have passed the bus");
}

#[tokio::test]
async fn a_board_whose_journal_stays_unreadable_is_given_up_and_the_others_are_whole() {
    let prefix = unique("gbrefill-lost");
    let journal = Arc::new(MemoryArchive::failing_for(vec!["r2"]));
    let hub = Hub::new(BUS, journal.clone());
    let publisher = MqttPublisher::spawn(settings(&prefix, 1883, 10_000), Feed::Live(hub.clone()))
        .expect("publisher");
    let state = Referee::new(RefereeConfig::default()).unwrap().state();
    for board in BOARDS {
        hub.register(
            board,
            BoardView::build(state.clone(), None),
            Arc::new(IdleBoard),
            0,
        );
    }
    let sub = Subscriber::start(
        1883,
        &format!("{prefix}-sub"),
        &format!("{prefix}/boards/+/moves"),
        false,
    )
    .await;
    let publish = |seq: u64| {
        for board in BOARDS {
            let message = build_message(board, seq);
            journal.keep(message.clone());
            hub.publish(message);
        }
    };
    for seq in 1..=PER_BOARD {
        publish(seq);
    }
    let seqs = |board: &str| -> Vec<u64> {
        let topic = format!("{prefix}/boards/{board}/moves");
        sub.on("")
            .iter()
            .filter(|m| m.topic == topic)
            .map(|m| seq_of(m.text.as_bytes()))
            .collect()
    };
    // Five failed reads (1.5 s of waits), then r2's missed messages are counted as dropped.
    wait_for("r2 given up", Duration::from_secs(20), || {
        let dropped = publisher.counters.dropped.load(Ordering::Relaxed);
        async move { (dropped > 0).then_some(()) }
    })
    .await;
    // The bus is read again: what is published next reaches every board's subscribers.
    publish(PER_BOARD + 1);
    let whole: Vec<u64> = (1..=PER_BOARD + 1).collect();
    wait_for(
        "r1 and r3 whole, r2's next message",
        Duration::from_secs(20),
        || {
            let done =
                seqs("r1") == whole && seqs("r3") == whole && seqs("r2").contains(&(PER_BOARD + 1));
            async move { done.then_some(()) }
        },
    )
    .await;
    assert!(
        seqs("r2").len() < whole.len(),
        "r2's journal was never readable: what the bus dropped of it cannot have been published"
    );
    publisher.finish(Duration::from_secs(2)).await;
}

/// Publishes 1,200 messages in one burst past a bus of 8, checks a subscriber got them all in
/// order with nothing dropped, and says how many were read back from the journal.
async fn burst_past_the_bus(name: &str, buffer: usize) -> u64 {
    burst_past_the_bus_of(name, buffer, Arc::new(MemoryArchive::default())).await
}

/// [`burst_past_the_bus`] with a journal of the test's own.
async fn burst_past_the_bus_of(name: &str, buffer: usize, journal: Arc<MemoryArchive>) -> u64 {
    let prefix = format!("gbrefill-{name}-{}", std::process::id());
    let hub = Hub::new(BUS, journal.clone());
    let settings = settings(&prefix, 1883, buffer);
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

#[tokio::test]
async fn a_broker_back_while_the_publisher_is_behind_gets_every_board_in_seq_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Persistent, and queueing every message for the subscriber while it reconnects (the
    // default of 1,000 would drop some of the 1,200 sent as the broker comes back).
    let path = dir.path().display().to_string();
    let mut broker = Broker::start_with(dir.path(), "unbounded", |port| {
        format!(
            "listener {port} 127.0.0.1\nallow_anonymous true\npersistence true\npersistence_location {path}/\nmax_queued_messages 0\n"
        )
    });
    let prefix = unique("gbrefill-reconnect");
    let journal = Arc::new(MemoryArchive::default());
    let hub = Hub::new(BUS, journal.clone());
    // An outbox of 60: the first refill fills it with r1's messages only, and it stays full
    // (nothing drains without a broker), so the publisher is still behind when the broker is back.
    let publisher =
        MqttPublisher::spawn(settings(&prefix, broker.port, 60), Feed::Live(hub.clone()))
            .expect("publisher");
    for board in BOARDS {
        hub.register(
            board,
            build_state(board, 0).view.unwrap(),
            Arc::new(IdleBoard),
            0,
        );
    }
    let sub = Subscriber::start(
        broker.port,
        &format!("{prefix}-sub"),
        &format!("{prefix}/boards/+/+"),
        true,
    )
    .await;
    // Each board's state at seq 0, announced on connect.
    sub.wait_count("/state", BOARDS.len()).await;

    broker.stop();
    // Every board's seqs 1-400, every fourth a state (the hub's current view then moves on).
    for board in BOARDS {
        for seq in 1..=PER_BOARD {
            let message = if seq % 4 == 0 {
                build_state(board, seq)
            } else {
                build_message(board, seq)
            };
            journal.keep(message.clone());
            hub.publish(message);
        }
    }
    // The publisher reads the bus, finds it lagged and refills what the outbox has room for.
    wait_for("a refill into the outbox", Duration::from_secs(10), || {
        let refilled = publisher.counters.refilled.load(Ordering::Relaxed);
        async move { (refilled > 0).then_some(()) }
    })
    .await;
    broker.restart();

    // A consumer drops the seqs it has already seen (api.md): what it keeps must be every seq.
    let kept = wait_for("every board's 400 seqs", Duration::from_secs(30), || {
        let kept: BTreeMap<String, Vec<u64>> = BOARDS
            .iter()
            .map(|board| {
                let topic = format!("{prefix}/boards/{board}/");
                let mut last = None;
                let mut kept = Vec::new();
                for message in sub.on("").iter().filter(|m| m.topic.starts_with(&topic)) {
                    let seq = seq_of(message.text.as_bytes());
                    if last.is_none_or(|last| seq > last) {
                        kept.push(seq);
                        last = Some(seq);
                    }
                }
                (board.to_string(), kept)
            })
            .collect();
        let done = kept.values().all(|seqs| seqs.last() == Some(&PER_BOARD));
        async move { done.then_some(kept) }
    })
    .await;
    for board in BOARDS {
        let expected: Vec<u64> = (0..=PER_BOARD).collect();
        assert_eq!(
            kept[board], expected,
            "{board}: a newer message went out before older ones"
        );
    }
    assert_eq!(publisher.counters.dropped.load(Ordering::Relaxed), 0);
    publisher.finish(Duration::from_secs(2)).await;
}
