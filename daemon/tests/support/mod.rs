//! Helpers of the daemon's end-to-end tests: the real binary, simulated tables on pseudo-terminals, HTTP, SSE and MQTT clients.
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use goban_hardware::sim::{
    FaultScript, HumanProfile, SimGame, SimTable, SimulateOptions, Transport,
};
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

pub const TOKEN: &str = "e2e-secret-token";

/// A bundled demo game (no corpus needed).
pub fn demo_game() -> SimGame {
    let text = include_str!("../../assets/games/AlphaGo-2.0-AG-vs-AG-G12-English.sgf");
    SimGame::from_sgf(text, "G12")
        .expect("bundled SGF")
        .remove(0)
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

/// Where the simulator will put table `name`'s ports (stable links in `dir`).
pub fn sim_paths(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("usb-goban-sim-{name}-board")),
        dir.join(format!("usb-goban-sim-{name}-clock")),
    )
}

/// Start `boards` simulated tables playing the demo game at `speed`, with `script`.
pub fn spawn_sim(
    dir: &Path,
    boards: usize,
    speed: f64,
    script: &str,
    cancel: &CancellationToken,
) -> Vec<SimTable> {
    let options = SimulateOptions {
        boards,
        profile: HumanProfile {
            speed,
            ..HumanProfile::default()
        },
        script: FaultScript::from_json(script, "test").expect("script"),
        seed: 11,
        shared_port: false,
        diffs: true,
        transport: Transport::Pty(dir.to_path_buf()),
    };
    goban_hardware::sim::spawn_tables(&[demo_game()], &options, cancel).expect("tables")
}

/// A config for tables `table-1..=boards` in `ports_dir`, publishing to `mqtt_port` under `prefix`.
pub fn write_config(
    work: &Path,
    http_port: u16,
    mqtt_port: u16,
    prefix: &str,
    boards: usize,
) -> PathBuf {
    let ports = work.join("ports");
    let mut text = format!(
        "[server]\nlisten = \"127.0.0.1:{http_port}\"\narbiter_tokens = [\"{TOKEN}\"]\n\
         [journal]\npath = {:?}\n[mqtt]\nurl = \"mqtt://127.0.0.1:{mqtt_port}\"\nprefix = \"{prefix}\"\n\
         client_id = \"{prefix}\"\nmax_backoff = \"500ms\"\n\
         [analysis]\nengine = \"off\"\n",
        work.join("journal.sqlite").display().to_string()
    );
    for i in 1..=boards {
        let (board, clock) = sim_paths(&ports, &format!("table-{i}"));
        text.push_str(&format!(
            "[[board]]\nid = \"table-{i}\"\nboard_port = {:?}\nclock_port = {:?}\nautostart = true\n\
             time_control = \"byoyomi-cn:main=20m,reserve=3,period=30s\"\nblack = \"AlphaGo\"\nwhite = \"AlphaGo\"\n",
            board.display().to_string(),
            clock.display().to_string()
        ));
    }
    let path = work.join("goban-bridge.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

/// The real daemon binary, killed on drop.
pub struct Daemon {
    pub child: Child,
}

impl Daemon {
    pub fn run(config: &Path) -> Self {
        let child = Command::new(env!("CARGO_BIN_EXE_goban-bridge"))
            .args(["run", "--config"])
            .arg(config)
            .env("RUST_LOG", "warn,goban_bridge=info")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn goban-bridge");
        Self { child }
    }

    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, then wait; returns how long the exit took.
    pub fn terminate(&mut self) -> (Duration, std::process::ExitStatus) {
        let started = Instant::now();
        let pid = nix_pid(&self.child);
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let status = self.child.wait().expect("wait");
        (started.elapsed(), status)
    }
}

fn nix_pid(child: &Child) -> String {
    child.id().to_string()
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .expect("client")
}

/// GET a JSON document, `None` while the daemon is not answering.
pub async fn get_json(url: &str) -> Option<Value> {
    let response = http().get(url).send().await.ok()?;
    if !response.status().is_success() {
        return None;
    }
    response.json().await.ok()
}

/// Poll `url` until `check` holds, at most `limit`.
pub async fn wait_for(url: &str, limit: Duration, check: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(value) = get_json(url).await {
            if check(&value) {
                return value;
            }
            if Instant::now() > deadline {
                panic!("condition not reached at {url}; last: {}", summary(&value));
            }
        } else if Instant::now() > deadline {
            panic!("{url} never answered");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

pub fn summary(state: &Value) -> String {
    format!(
        "seq={} move_number={} phase={} device={} infractions={}",
        state["seq"],
        state["move_number"],
        state["phase"],
        state["device"],
        state["infractions"].as_array().map_or(0, Vec::len)
    )
}

/// SSE events of `url` (with `Last-Event-ID: after`) read until `done` says they are enough,
/// `limit` at most (generous: a loaded machine streams slowly): (id, event, data).
pub async fn read_sse_until(
    url: &str,
    after: Option<u64>,
    limit: Duration,
    done: impl Fn(&[(u64, String, Value)]) -> bool,
) -> Vec<(u64, String, Value)> {
    let client = reqwest::Client::new();
    let mut request = client.get(url).header("Accept", "text/event-stream");
    if let Some(after) = after {
        request = request.header("Last-Event-ID", after.to_string());
    }
    let Ok(mut response) = request.send().await else {
        return Vec::new();
    };
    let mut text = String::new();
    let deadline = tokio::time::Instant::now() + limit;
    while let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(deadline, response.chunk()).await {
        text.push_str(&String::from_utf8_lossy(&chunk));
        // Only whole events count: the text up to the last blank line.
        let whole = text.rfind("\n\n").map_or("", |end| &text[..end]);
        if done(&parse_sse(whole)) {
            return parse_sse(whole);
        }
    }
    parse_sse(&text)
}

/// SSE events of `url` (with `Last-Event-ID: after`) read for `for_how_long`: (id, event, data).
pub async fn read_sse(
    url: &str,
    after: Option<u64>,
    for_how_long: Duration,
) -> Vec<(u64, String, Value)> {
    read_sse_until(url, after, for_how_long, |_| false).await
}

fn parse_sse(text: &str) -> Vec<(u64, String, Value)> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let (mut id, mut event, mut data) = (None, String::from("message"), String::new());
        for line in block.lines() {
            if let Some(v) = line.strip_prefix("id:") {
                id = v.trim().parse().ok();
            } else if let Some(v) = line.strip_prefix("event:") {
                event = v.trim().to_owned();
            } else if let Some(v) = line.strip_prefix("data:") {
                data.push_str(v.trim_start());
            }
        }
        if let (Some(id), Ok(value)) = (id, serde_json::from_str(&data)) {
            out.push((id, event, value));
        }
    }
    out
}

/// Everything received under `<prefix>/#`: (topic, payload, retained).
pub struct Subscriber {
    pub messages: mpsc::UnboundedReceiver<(String, String, bool)>,
    pub seen: Vec<(String, String, bool)>,
    stop: CancellationToken,
}

impl Subscriber {
    pub async fn connect(port: u16, prefix: &str) -> Self {
        let mut options = MqttOptions::new(format!("{prefix}-sub"), "127.0.0.1", port);
        options.set_keep_alive(Duration::from_secs(5));
        let (client, mut events) = AsyncClient::new(options, 100);
        let (tx, messages) = mpsc::unbounded_channel();
        let stop = CancellationToken::new();
        let filter = format!("{prefix}/#");
        let stopper = stop.clone();
        tokio::spawn(async move {
            loop {
                let polled = tokio::select! {
                    () = stopper.cancelled() => break,
                    polled = events.poll() => polled,
                };
                match polled {
                    Ok(Event::Incoming(Packet::ConnAck(_))) => {
                        let _ = client.subscribe(filter.clone(), QoS::AtLeastOnce).await;
                    }
                    Ok(Event::Incoming(Packet::Publish(p))) => {
                        let payload = String::from_utf8_lossy(&p.payload).into_owned();
                        let _ = tx.send((p.topic.clone(), payload, p.retain));
                    }
                    Ok(_) => {}
                    Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                }
            }
        });
        Self {
            messages,
            seen: Vec::new(),
            stop,
        }
    }

    /// Collect what arrived so far.
    pub fn drain(&mut self) -> &[(String, String, bool)] {
        while let Ok(message) = self.messages.try_recv() {
            self.seen.push(message);
        }
        &self.seen
    }

    /// Wait until a message on a topic ending with `suffix` satisfies `check`.
    pub async fn wait(
        &mut self,
        suffix: &str,
        limit: Duration,
        check: impl Fn(&str) -> bool,
    ) -> String {
        let deadline = Instant::now() + limit;
        loop {
            self.drain();
            if let Some((_, payload, _)) = self
                .seen
                .iter()
                .find(|(t, p, _)| t.ends_with(suffix) && check(p))
            {
                return payload.clone();
            }
            assert!(
                Instant::now() < deadline,
                "no MQTT message on *{suffix} in time; got {} messages",
                self.seen.len()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The JSON payloads on topics ending with `suffix`.
    pub fn payloads(&mut self, suffix: &str) -> Vec<Value> {
        self.drain();
        self.seen
            .iter()
            .filter(|(t, _, _)| t.ends_with(suffix))
            .filter_map(|(_, p, _)| serde_json::from_str(p).ok())
            .collect()
    }
}

impl Drop for Subscriber {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}
