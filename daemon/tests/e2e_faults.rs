//! End-to-end faults: a private Mosquitto stopped and restarted mid-game (everything arrives after reconnect) and a board unplugged mid-game (it recovers).

mod support;

use std::collections::BTreeSet;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use support::*;
use tokio_util::sync::CancellationToken;

struct Mosquitto(Child, u16);

impl Mosquitto {
    fn start(port: u16) -> Option<Self> {
        let child = Command::new("mosquitto")
            .args(["-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        Some(Self(child, port))
    }
}

impl Mosquitto {
    /// Waits until the broker accepts connections (30 s at most: a loaded machine starts it late).
    fn wait_listening(&self) {
        let port = self.1;
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "mosquitto did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Mosquitto {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

const UNPLUG: &str =
    r#"{"steps": [{"at_move": 4, "fault": "unplug", "device": "board", "down_ms": 1500}]}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broker_restart_and_unplugged_board_lose_nothing() {
    let port = free_port();
    let Some(broker) = Mosquitto::start(port) else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "mosquitto is required under CI"
        );
        println!("skipped: mosquitto is not installed");
        return;
    };
    let work = tempfile::tempdir().expect("tempdir");
    let http_port = free_port();
    let prefix = "goban-faults";
    let config = write_config(work.path(), http_port, port, prefix, 1);
    broker.wait_listening();
    let mut mqtt = Subscriber::connect(port, prefix).await;
    let _daemon = Daemon::run(&config);
    let board = format!("http://127.0.0.1:{http_port}/api/v1/boards/table-1");
    wait_for(&board, Duration::from_secs(20), |_| true).await;
    let cancel = CancellationToken::new();
    let _tables = spawn_sim(&work.path().join("ports"), 1, 12.0, UNPLUG, &cancel);

    // The board is unplugged at move 4 and comes back: disconnected, then connected again, play goes on.
    wait_for(&board, Duration::from_secs(60), |s| {
        s["move_number"].as_u64() >= Some(2)
    })
    .await;
    // "status":"disconnected" only comes from a link that was connected and lost its device.
    mqtt.wait("/boards/table-1/device", Duration::from_secs(60), |p| {
        p.contains("\"status\":\"disconnected\"")
    })
    .await;
    let recovered = wait_for(&board, Duration::from_secs(30), |s| {
        s["device"]["board"] == "connected"
    })
    .await;
    println!("after unplug: {}", summary(&recovered));

    // Stop the broker mid-game, let the game go on, restart it on the same port.
    let stopped_at = recovered["seq"].as_u64().unwrap_or(0);
    drop(broker);
    let during = wait_for(&board, Duration::from_secs(30), |s| {
        s["seq"].as_u64() > Some(stopped_at + 3)
    })
    .await;
    let _broker = Mosquitto::start(port).expect("mosquitto restarts");
    let last_seq = during["seq"].as_u64().unwrap_or(0);
    mqtt.wait("/boards/table-1/state", Duration::from_secs(30), |p| {
        serde_json::from_str::<serde_json::Value>(p)
            .ok()
            .and_then(|v| v["seq"].as_u64())
            >= Some(last_seq)
    })
    .await;

    // Every move and alert message published while the broker was away arrived after the reconnect.
    let events = read_sse_until(
        &format!("{board}/events"),
        Some(0),
        Duration::from_secs(30),
        |e| e.last().is_some_and(|(id, _, _)| *id >= last_seq),
    )
    .await;
    let expected: BTreeSet<u64> = events
        .iter()
        .filter(|(id, event, _)| (event == "moves" || event == "infractions") && *id <= last_seq)
        .map(|(id, _, _)| *id)
        .collect();
    let mut got: BTreeSet<u64> = BTreeSet::new();
    for suffix in ["/moves", "/infractions"] {
        got.extend(
            mqtt.payloads(suffix)
                .iter()
                .filter_map(|p| p["seq"].as_u64()),
        );
    }
    let missing: Vec<&u64> = expected.difference(&got).collect();
    assert!(
        missing.is_empty(),
        "MQTT lost messages {missing:?} across the broker restart"
    );
    assert!(!expected.is_empty());
    cancel.cancel();
}
