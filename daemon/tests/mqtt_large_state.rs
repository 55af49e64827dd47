//! A retained message past rumqttc's 10 KiB default (a device report of many ports, a state with many alerts)
//! reaches a real broker (Mosquitto on 127.0.0.1:1883).

use std::sync::Arc;
use std::time::Duration;

use goban_bridge::message::{Payload, Published, Topic};
use goban_bridge::mqtt::{MqttPublisher, MqttSettings, board_topic};
use goban_bridge::publish::delay::Feed;
use goban_bridge::publish::doubles::MemoryArchive;
use goban_bridge::publish::hub::Hub;
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};

fn build_long_game_state(moves: usize) -> serde_json::Value {
    let moves: Vec<_> = (1..=moves)
        .map(|n| {
            serde_json::json!({"number": n, "color": if n % 2 == 1 { "black" } else { "white" },
                "point": "Q16", "at": "2026-11-30T09:00:00.000Z", "time_left_ms": 3_590_000})
        })
        .collect();
    serde_json::json!({"v": 1, "seq": 1, "board": "t", "position": ".".repeat(361), "moves": moves})
}

#[tokio::test]
async fn a_long_games_retained_state_reaches_the_broker() {
    let prefix = format!("gblarge-{}", std::process::id());
    let hub = Hub::new(16, Arc::new(MemoryArchive::default()));
    let settings = MqttSettings {
        host: "127.0.0.1".into(),
        port: 1883,
        tls: false,
        ca_file: None,
        client_id: format!("{prefix}-pub"),
        credentials: None,
        prefix: prefix.clone(),
        buffer: 64,
        max_backoff: Duration::from_millis(500),
    };
    let publisher = MqttPublisher::spawn(settings, Feed::Live(hub.clone())).expect("publisher");
    let state = build_long_game_state(400);
    let size = state.to_string().len();
    assert!(
        size > 40_000,
        "the fixture must exceed rumqttc's 10 KiB default: {size}"
    );
    hub.publish(Published {
        board: "t".into(),
        seq: 1,
        topic: Topic::Device,
        at_ms: 0,
        payload: Payload::json(&state).unwrap(),
        view: None,
    });

    let mut options = MqttOptions::new(format!("{prefix}-sub"), "127.0.0.1", 1883);
    options.set_max_packet_size(1 << 20, 1 << 20);
    let (client, mut events) = AsyncClient::new(options, 16);
    let topic = board_topic(&prefix, "t", Topic::Device);
    client
        .subscribe(&topic, QoS::AtLeastOnce)
        .await
        .expect("subscribe");
    let received = tokio::time::timeout(Duration::from_secs(15), async {
        loop {
            match events.poll().await {
                Ok(Event::Incoming(Packet::Publish(p))) if p.topic == topic => {
                    return p.payload.len();
                }
                Ok(_) => {}
                Err(err) => panic!("subscriber lost the broker on 127.0.0.1:1883: {err}"),
            }
        }
    })
    .await
    .expect("the large retained state never arrived");
    assert_eq!(received, size);
    // Leave no retained junk behind on the shared broker.
    client
        .publish(&topic, QoS::AtLeastOnce, true, Vec::new())
        .await
        .expect("clear");
    let _ = tokio::time::timeout(Duration::from_secs(3), async {
        while !matches!(
            events.poll().await,
            Ok(Event::Incoming(Packet::PubAck(_))) | Err(_)
        ) {}
    })
    .await;
    publisher.finish(Duration::from_secs(2)).await;
}
