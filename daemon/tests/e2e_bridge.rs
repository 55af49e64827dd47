//! The broker set-up of deploy/ (issue 14) with real Mosquittos: the venue ACL makes the daemon the only writer, and two venues bridged into a central broker lose nothing when a bridge link drops.

#[path = "support/harness/mod.rs"]
mod harness;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use harness::broker::Broker;
use harness::daemon::{BOARD, Daemon, Setup};
use harness::device::Device;
use harness::game::{OPENING, play, point_name};
use harness::mqtt::Subscriber;
use harness::{unique, wait_for};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

const DAEMON_USER: &str = "goban-bridge";
const DAEMON_PASSWORD: &str = "venue-daemon-secret";
const VIEWER_PASSWORD: &str = "viewer-secret";
const BRIDGE_PASSWORD: &str = "bridge-secret";
const BROADCASTER_PASSWORD: &str = "broadcaster-secret";

/// A file of the repository's `deploy/` directory.
fn deploy_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../deploy")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("read {}: {err}", path.display()))
}

/// A Mosquitto password file made by `mosquitto_passwd`, readable by the broker.
fn password_file(dir: &Path, name: &str, users: &[(&str, &str)]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, "").expect("create the password file");
    for (user, password) in users {
        let status = std::process::Command::new("mosquitto_passwd")
            .arg("-b")
            .arg(&path)
            .args([user, password])
            .status()
            .expect("run mosquitto_passwd (install mosquitto)");
        assert!(status.success(), "mosquitto_passwd failed for {user}");
    }
    path
}

/// The venue broker of `deploy/mosquitto.conf` on loopback: its ACL file verbatim, a password file, no TLS listener.
fn venue_conf(dir: &Path, name: &str, port: u16, bridge: &str) -> String {
    let acl = dir.join(format!("{name}.acl"));
    std::fs::write(&acl, deploy_file("goban.acl")).expect("write the ACL");
    let passwd = password_file(
        dir,
        &format!("{name}.passwd"),
        &[(DAEMON_USER, DAEMON_PASSWORD), ("viewer", VIEWER_PASSWORD)],
    );
    // `user root`: a broker started by root would otherwise drop to `mosquitto`
    // and could not read the test's private files.
    format!(
        "user root\nper_listener_settings true\n{bridge}\nlistener {port} 127.0.0.1\nallow_anonymous true\n\
         password_file {}\nacl_file {}\nlog_type all\nlog_dest file {}\n",
        passwd.display(),
        acl.display(),
        dir.join(format!("{name}.log")).display()
    )
}

/// The venue's bridge section of `deploy/bridge/venue-bridge.conf` for `venue`, pointed at `address` without TLS.
fn bridge_section(venue: &str, address: &str) -> String {
    deploy_file("bridge/venue-bridge.conf")
        .lines()
        .filter(|line| !line.starts_with("bridge_cafile"))
        .map(|line| {
            if line.starts_with("address ") {
                format!("address {address}")
            } else if line.starts_with("remote_password") {
                format!("remote_password {BRIDGE_PASSWORD}")
            } else if line.starts_with("restart_timeout") {
                // The deploy file backs off to 30 s; a test waits 1 s between tries.
                "restart_timeout 1".to_string()
            } else {
                line.replace("VENUE", venue)
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The central broker of `deploy/bridge/central.conf`'s ACL on loopback without TLS.
fn central_conf(dir: &Path, port: u16) -> String {
    let acl = dir.join("central.acl");
    std::fs::write(&acl, deploy_file("bridge/central.acl")).expect("write the central ACL");
    let passwd = password_file(
        dir,
        "central.passwd",
        &[
            ("paris", BRIDGE_PASSWORD),
            ("lyon", BRIDGE_PASSWORD),
            ("broadcaster", BROADCASTER_PASSWORD),
        ],
    );
    format!(
        "user root\nper_listener_settings true\npersistence false\nlistener {port} 127.0.0.1\nallow_anonymous false\n\
         password_file {}\nacl_file {}\nlog_type all\nlog_dest file {}\n",
        passwd.display(),
        acl.display(),
        dir.join("central.log").display()
    )
}

/// Broker log lines that say something is wrong with the configuration.
fn warnings(dir: &Path, name: &str) -> Vec<String> {
    std::fs::read_to_string(dir.join(format!("{name}.log")))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("Warning") || l.contains("Error"))
        .map(str::to_string)
        .collect()
}

/// A daemon of one venue logged in as the only writer, with its prefix `goban/<venue>`.
async fn venue_daemon(dir: &Path, venue: &str, broker: u16) -> (Daemon, Device, Device) {
    let (board, clock) = (Device::board(9), Device::clock());
    let mut setup = Setup::new(dir, board.path(), clock.path(), broker);
    setup.prefix = format!("goban/{venue}");
    setup.mqtt_extra = format!("username = \"{DAEMON_USER}\"\npassword = \"{DAEMON_PASSWORD}\"\n");
    let daemon = Daemon::start(&setup, 1).await;
    (daemon, board, clock)
}

/// A TCP relay in front of the central broker whose link can be cut and restored, like a venue's uplink.
struct Uplink {
    port: u16,
    up: Arc<AtomicBool>,
    tasks: Arc<tokio::sync::Mutex<JoinSet<()>>>,
    accept: tokio::task::JoinHandle<()>,
}

impl Uplink {
    async fn start(target: u16) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the relay");
        let port = listener.local_addr().expect("relay address").port();
        let up = Arc::new(AtomicBool::new(true));
        let tasks = Arc::new(tokio::sync::Mutex::new(JoinSet::new()));
        let (flag, set) = (Arc::clone(&up), Arc::clone(&tasks));
        let accept = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if !flag.load(Ordering::SeqCst) {
                    continue; // the link is down: the connection is dropped at once
                }
                set.lock().await.spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(("127.0.0.1", target)).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
            }
        });
        Self {
            port,
            up,
            tasks,
            accept,
        }
    }

    /// Cuts every open connection and refuses new ones.
    async fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        self.tasks.lock().await.abort_all();
    }

    fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

impl Drop for Uplink {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn venue_acl_makes_the_daemon_the_only_writer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let venue = Broker::start_with(dir.path(), "venue", |port| {
        venue_conf(dir.path(), "venue", port, "")
    });
    let (daemon, board, clock) = venue_daemon(dir.path(), "hall", venue.port).await;
    let state_topic = format!("goban/hall/boards/{BOARD}/state");
    let watcher = Subscriber::start(venue.port, &unique("acl-watch"), "goban/hall/#", false).await;
    play(&daemon, &board, &clock, OPENING[0]).await;
    watcher.wait_count("/moves", 1).await;

    // An anonymous client and a password viewer both try to overwrite the retained state.
    for login in [None, Some(("viewer", VIEWER_PASSWORD))] {
        let mut options = rumqttc::MqttOptions::new(unique("acl-forger"), "127.0.0.1", venue.port);
        if let Some((user, password)) = login {
            options.set_credentials(user, password);
        }
        let (client, mut events) = rumqttc::AsyncClient::new(options, 10);
        client
            .publish(&state_topic, rumqttc::QoS::AtLeastOnce, true, "forged")
            .await
            .expect("queue the forged publish");
        let _ = tokio::time::timeout(Duration::from_secs(2), async {
            loop {
                if let Ok(rumqttc::Event::Incoming(rumqttc::Packet::PubAck(_))) =
                    events.poll().await
                {
                    break;
                }
            }
        })
        .await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let forged: Vec<_> = watcher
        .on("/state")
        .into_iter()
        .filter(|m| m.text == "forged")
        .collect();
    assert!(
        forged.is_empty(),
        "a reader wrote the board state: {forged:?}"
    );
    let retained = Subscriber::start(venue.port, &unique("acl-ret"), &state_topic, false).await;
    let state = wait_for("the retained state", Duration::from_secs(5), || {
        let found = retained.on("/state").into_iter().find(|m| m.retain);
        async move { found }
    })
    .await;
    assert_eq!(
        state.json()["move_number"],
        1,
        "retained state is the daemon's: {}",
        state.text
    );
    let log = warnings(dir.path(), "venue");
    assert!(
        log.is_empty(),
        "the venue broker warned about its config: {log:?}"
    );
    let denied = std::fs::read_to_string(dir.path().join("venue.log")).unwrap_or_default();
    assert!(
        denied.contains("Denied PUBLISH"),
        "the broker did not log the refused writes"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_venues_bridge_into_central_without_loss_across_a_link_outage() {
    let outage = Duration::from_secs(
        std::env::var("GOBAN_BRIDGE_OUTAGE_S")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(5),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let central = Broker::start_with(dir.path(), "central", |port| central_conf(dir.path(), port));
    let (uplink_a, uplink_b) = (
        Uplink::start(central.port).await,
        Uplink::start(central.port).await,
    );
    let bridge_a = bridge_section("paris", &format!("127.0.0.1:{}", uplink_a.port));
    let bridge_b = bridge_section("lyon", &format!("127.0.0.1:{}", uplink_b.port));
    let venue_a = Broker::start_with(dir.path(), "paris", |port| {
        venue_conf(dir.path(), "paris", port, &bridge_a)
    });
    let venue_b = Broker::start_with(dir.path(), "lyon", |port| {
        venue_conf(dir.path(), "lyon", port, &bridge_b)
    });
    let broadcaster = Subscriber::start_as(
        central.port,
        &unique("broadcaster"),
        "goban/#",
        true,
        Some(("broadcaster", BROADCASTER_PASSWORD)),
    )
    .await;
    let (dir_a, dir_b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&dir_a).expect("dir a");
    std::fs::create_dir_all(&dir_b).expect("dir b");
    let (daemon_a, board_a, clock_a) = venue_daemon(&dir_a, "paris", venue_a.port).await;
    let (daemon_b, board_b, clock_b) = venue_daemon(&dir_b, "lyon", venue_b.port).await;

    for p in &OPENING[..2] {
        play(&daemon_a, &board_a, &clock_a, *p).await;
        play(&daemon_b, &board_b, &clock_b, *p).await;
    }
    wait_for(
        "the first moves of both venues centrally",
        Duration::from_secs(20),
        || {
            let done = broadcaster.move_points("goban/paris/").len() >= 2
                && broadcaster.move_points("goban/lyon/").len() >= 2;
            async move { done.then_some(()) }
        },
    )
    .await;

    uplink_a.cut().await;
    for p in &OPENING[2..6] {
        play(&daemon_a, &board_a, &clock_a, *p).await; // play goes on in Paris, cut off
        play(&daemon_b, &board_b, &clock_b, *p).await;
    }
    tokio::time::sleep(outage).await;
    assert_eq!(
        broadcaster.move_points("goban/paris/").len(),
        2,
        "nothing of Paris can arrive while its link is down"
    );
    uplink_a.restore();

    let want: Vec<String> = OPENING[..6].iter().map(|p| point_name(p.1, p.2)).collect();
    for venue in ["paris", "lyon"] {
        let got = wait_for(
            &format!("all 6 moves of {venue} centrally"),
            Duration::from_secs(30),
            || {
                let got = broadcaster.move_points(&format!("goban/{venue}/"));
                async move { (got.len() >= 6).then_some(got) }
            },
        )
        .await;
        assert_eq!(
            got, want,
            "{venue}: every move, in seq order, after the outage"
        );
    }
    for (venue, daemon) in [("paris", &daemon_a), ("lyon", &daemon_b)] {
        let topic = format!("goban/{venue}/boards/{BOARD}/state");
        let retained = Subscriber::start_as(
            central.port,
            &unique("ret"),
            &topic,
            false,
            Some(("broadcaster", BROADCASTER_PASSWORD)),
        )
        .await;
        let state = wait_for(
            &format!("{venue}'s retained state at move 6"),
            Duration::from_secs(10),
            || {
                let found = retained
                    .on("/state")
                    .into_iter()
                    .find(|m| m.retain && m.json()["move_number"] == 6);
                async move { found }
            },
        )
        .await;
        let rest = daemon.state().await;
        assert_eq!(
            state.json()["position"],
            rest["position"],
            "{venue}: central retained state equals REST"
        );
        let status = broadcaster
            .on(&format!("goban/{venue}/status"))
            .into_iter()
            .any(|m| m.text == "online");
        assert!(status, "{venue}: status online on the central broker");
    }
    for name in ["central", "paris", "lyon"] {
        let log = warnings(dir.path(), name);
        assert!(log.is_empty(), "{name} broker warned: {log:?}");
    }
}
