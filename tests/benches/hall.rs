//! The hall benchmark (issue 9, "Benchmarks"): the real `goban-bridge` binary with N boards on
//! pseudo-terminals, a real Mosquitto, REST and SSE, measured from outside.
//!
//! Most boards are the simulator's tables at human pace (speed 1.0, the noise model on: slides,
//! hovering hands, flicker; clocks running). A few are probe boards driven by this bench: each
//! probe writes a DIFF with one stone on the device side of its pty, notes the instant its
//! last byte was written, and waits for the `move_played` event on SSE and on MQTT; then it
//! presses its clock and, after a pause, plays the next move (a non-capturing pattern).
//!
//! For each N it prints ingest latency (settle time subtracted), the daemon's CPU and RSS from
//! /proc, and `wrk` on `GET /api/v1/boards/{id}` against an axum server serving the same bytes
//! as a static string (and a hello world) in the same run. It also prints the daemon's own
//! stages over the window, read from its `/metrics` (`hall/stages.rs`): how late its timers
//! woke the boards and how long a move waited for the journal. It measures the harness's own
//! cost, a pty round trip and a publish-to-receive loop on the broker, before the halls on the
//! idle machine and again during each hall's window, at about the probes' rate: the same paths
//! under the same load, with no daemon in them.
//!
//! Not run in CI. Build the daemon, then run the bench (from the workspace root):
//!
//!     cargo build --release -p goban-bridge
//!     GOBAN_HALL_BOARDS=1,64 GOBAN_HALL_SECONDS=60 cargo bench -p goban-e2e --bench hall
//!
//! Settings (environment): `GOBAN_HALL_BOARDS` (comma-separated N, default `1,64,256,512`),
//! `GOBAN_HALL_SECONDS` (measuring window, default 60), `GOBAN_HALL_WARMUP` (seconds before it,
//! default 20), `GOBAN_HALL_WRK` (seconds per wrk run, default 10), `GOBAN_HALL_PROBES` (probe
//! boards among the N, default 4), `GOBAN_HALL_GAP_MS` (a probe's pause after each press,
//! default 700), `GOBAN_HALL_SETTLE_MS` (the daemon's `settle_time`, default 300),
//! `GOBAN_HALL_PROBE_JITTER_MS` (up to this much added to a probe's pause, different for each probe
//! and move, default 300: a player's thinking time varies. At 0 the probes, which start together
//! and pace themselves on the daemon's answers, stay in step, and five or six of them settle in
//! the same millisecond again and again, which the hall's human-pace tables never do: a stress
//! of its own, reported apart in docs/performance.md),
//! `GOBAN_HALL_SPEED` (the tables' pace, default 1.0: human; a faster pace reaches the
//! memory of late games within a short run, at a higher rate of moves),
//! `GOBAN_HALL_ANALYSIS` (`1`: the daemon's `[analysis]` runs GNU Go, `engine = "gtp"`, one
//! position at a time at its default priority, `SCHED_IDLE`, featured `table-1`; `nice`: the
//! same at nice 19 only (`idle = false`); `idle`: a synonym of `1`; default off,
//! `engine = "off"`, so that an installed GNU Go does not change the other figures),
//! `GOBAN_HALL_DELAY` (the daemon's `broadcast_delay` in seconds, default 0: with one, the
//! public SSE and MQTT the probes follow are late by it, so only the memory and CPU figures
//! mean anything), `GOBAN_HALL_MQTT_PORT` (a running broker's port; by default the bench
//! starts its own Mosquitto with `set_tcp_nodelay true`, as deploy/mosquitto.conf sets it:
//! `hall/broker.rs`), `GOBAN_HALL_BIN` (the daemon binary, default
//! `target/release/goban-bridge` of this workspace), `GOBAN_HALL_KEEP=1` keeps the work
//! directory (config, journal, daemon log) and prints where it is, `GOBAN_HALL_LOG` sets the
//! daemon's `RUST_LOG` (default `warn`; the slowest probe moves are listed with the time their
//! DIFF was written, to be found in that log).

use std::collections::HashMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[path = "hall/broker.rs"]
mod broker;
#[path = "hall/harness.rs"]
mod harness;
#[path = "hall/latency.rs"]
mod latency;
#[path = "hall/probe.rs"]
mod probe;
#[path = "hall/rest.rs"]
mod rest;
#[path = "hall/stages.rs"]
mod stages;
#[path = "hall/system.rs"]
mod system;

use harness::{UNDER_LOAD_PAUSE, broker_cost, pty_cost};
use probe::{Arrivals, Pace, Probe, mqtt_reader, play_probe, sse_reader};
use rest::{static_server, wrk};
use system::{clock_ticks, load, proc_cpu, proc_rss_kb};

use anyhow::{Context, Result, bail};
use goban_hardware::sim::{
    FaultScript, HumanProfile, PtyDevice, SimGame, SimulateOptions, Transport,
};
use goban_hardware::{SerialSettings, open_serial};
use rumqttc::{AsyncClient, Event, MqttOptions, NetworkOptions, Packet, QoS};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

/// A DIFF frame with one stone (`$DIFF,123,45678,180B*XXXX\n`) is about 25 bytes: at 115200
/// baud, 10 bits a byte, it takes this long on the wire.
const WIRE_MS: f64 = 25.0 * 10.0 / 115_200.0 * 1000.0;
const LETTERS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

struct Settings {
    boards: Vec<usize>,
    probes: usize,
    warmup: Duration,
    measure: Duration,
    wrk: Duration,
    gap: Duration,
    /// Most a probe's pause is lengthened by, per move (0: every probe pauses `gap`).
    jitter: Duration,
    settle_ms: u64,
    /// The simulated tables' pace (1.0: human); faster reaches late-game memory in a short run.
    speed: f64,
    /// The daemon's broadcast delay, seconds.
    delay_s: u64,
    /// Whether the daemon runs GNU Go beside the hall: `""` no, `"1"` niced, `"idle"` SCHED_IDLE.
    analysis: String,
    mqtt_port: u16,
    bin: PathBuf,
    keep: bool,
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

impl Settings {
    fn from_env() -> Self {
        let boards = std::env::var("GOBAN_HALL_BOARDS")
            .unwrap_or_else(|_| "1,64,256,512".into())
            .split(',')
            .filter_map(|n| n.trim().parse().ok())
            .collect();
        let bin = std::env::var_os("GOBAN_HALL_BIN").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/goban-bridge"),
            PathBuf::from,
        );
        Self {
            boards,
            probes: env_or("GOBAN_HALL_PROBES", 4),
            warmup: Duration::from_secs(env_or("GOBAN_HALL_WARMUP", 20)),
            measure: Duration::from_secs(env_or("GOBAN_HALL_SECONDS", 60)),
            wrk: Duration::from_secs(env_or("GOBAN_HALL_WRK", 10)),
            gap: Duration::from_millis(env_or("GOBAN_HALL_GAP_MS", 700)),
            jitter: Duration::from_millis(env_or("GOBAN_HALL_PROBE_JITTER_MS", 300)),
            settle_ms: env_or("GOBAN_HALL_SETTLE_MS", 300),
            speed: env_or("GOBAN_HALL_SPEED", 1.0),
            delay_s: env_or("GOBAN_HALL_DELAY", 0),
            analysis: std::env::var("GOBAN_HALL_ANALYSIS")
                .ok()
                .filter(|v| v == "1" || v == "idle" || v == "nice")
                .unwrap_or_default(),
            mqtt_port: env_or("GOBAN_HALL_MQTT_PORT", 0),
            bin,
            keep: std::env::var("GOBAN_HALL_KEEP").is_ok_and(|v| v == "1"),
        }
    }
}

fn main() -> Result<()> {
    // `cargo bench` passes `--bench`; a filter argument is not used.
    let settings = Settings::from_env();
    if !settings.bin.exists() {
        bail!(
            "no daemon binary at {} (cargo build --release -p goban-bridge, or GOBAN_HALL_BIN)",
            settings.bin.display()
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(run(settings))
}

async fn run(mut settings: Settings) -> Result<()> {
    println!("hall bench: {}", load());
    // Port 0: the bench's own broker, configured as deploy/mosquitto.conf is.
    let _broker = if settings.mqtt_port == 0 {
        let broker = broker::PrivateBroker::start()?;
        settings.mqtt_port = broker.port;
        println!(
            "MQTT: the bench's own mosquitto on port {} (set_tcp_nodelay true)",
            broker.port
        );
        Some(broker)
    } else {
        println!("MQTT: the broker on port {}", settings.mqtt_port);
        None
    };
    println!(
        "a DIFF frame of about 25 bytes takes {WIRE_MS:.2} ms on the wire at 115200 baud (8N1)"
    );
    let pty = pty_cost(300, Duration::from_millis(2)).await?;
    println!(
        "harness pty, device write -> host read (tokio-serial, as the daemon reads): {}; \
         round trip: {}",
        pty.0, pty.1
    );
    let broker = broker_cost(settings.mqtt_port, 300, Duration::from_millis(5)).await?;
    println!("harness broker, publish (QoS 1, nodelay) -> subscriber receives: {broker}");
    println!("{}", load());
    let mut rows = Vec::new();
    for &n in &settings.boards {
        match hall(&settings, n).await {
            Ok(row) => rows.push(row),
            Err(err) => println!("N = {n}: the run failed: {err:#}"),
        }
    }
    println!(
        "\n| N | ingest SSE p50 / p99 / max (ms) | ingest MQTT p50 / p99 / max (ms) | samples (timeouts) | daemon CPU | RSS end (max) | REST / same-size static / hello (req/s) | ratio | load |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for row in rows {
        println!("{row}");
    }
    Ok(())
}

/// p50 / p99 / max of durations in ms.
fn percentiles(mut values: Vec<f64>) -> String {
    if values.is_empty() {
        return "no sample".into();
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let index = ((values.len() as f64 - 1.0) * q).round() as usize;
        values[index.min(values.len() - 1)]
    };
    format!(
        "p50 {:.2} / p99 {:.2} / max {:.2} ms (n = {})",
        at(0.5),
        at(0.99),
        values[values.len() - 1],
        values.len()
    )
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn frame(body: &str) -> Vec<u8> {
    format!("${body}*{:04X}\n", goban_protocol::crc16(body.as_bytes())).into_bytes()
}

fn mqtt_options(id: &str, port: u16) -> (MqttOptions, NetworkOptions) {
    let mut options = MqttOptions::new(id, "127.0.0.1", port);
    options.set_keep_alive(Duration::from_secs(30));
    options.set_max_packet_size(1 << 20, 1 << 20);
    let mut network = NetworkOptions::new();
    network.set_tcp_nodelay(true);
    (options, network)
}

/// The bundled games of the daemon, played round robin by the simulated tables.
fn games() -> Result<Vec<SimGame>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../daemon/assets/games");
    let mut games = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path)?;
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        games.extend(SimGame::from_sgf(&text, &name)?);
    }
    Ok(games)
}

/// The daemon, in a process group of its own: `GOBAN_HALL_BIN` may be a wrapper (heaptrack,
/// perf) whose daemon is its child, and stopping the wrapper alone left that daemon running
/// beside the next halls.
struct DaemonProcess {
    child: Child,
}

impl DaemonProcess {
    /// Sends `signal` to the whole group (its id is the leader's pid).
    fn signal_group(&self, signal: &str) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args([signal, "--", &group])
            .stderr(Stdio::null())
            .status();
    }
}

impl Drop for DaemonProcess {
    fn drop(&mut self) {
        self.signal_group("-TERM");
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                // A wrapper's daemon may outlive it by a moment; the group goes with it.
                std::thread::sleep(Duration::from_millis(200));
                self.signal_group("-KILL");
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        self.signal_group("-KILL");
        let _ = self.child.wait();
    }
}

/// One hall of `n` boards: returns its table row.
#[allow(clippy::too_many_lines)]
async fn hall(settings: &Settings, n: usize) -> Result<String> {
    let probes = settings.probes.clamp(1, n);
    let tables = n - probes;
    let work = tempfile::Builder::new().prefix("goban-hall-").tempdir()?;
    let ports = work.path().join("ports");
    std::fs::create_dir_all(&ports)?;
    let cancel = CancellationToken::new();
    let prefix = format!("goban-hall-{}-{n}", std::process::id());
    let http_port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let base = format!("http://127.0.0.1:{http_port}/api/v1");
    println!(
        "\n== N = {n}: {tables} simulated tables at {}x human pace, {probes} probe boards; {}",
        settings.speed,
        load()
    );

    let mut probe_devices = Vec::new();
    for k in 1..=probes {
        let board = Probe::open(true, format!("HALL-B-{k}"), cancel.clone())?;
        let clock = Probe::open(false, format!("HALL-C-{k}"), cancel.clone())?;
        probe_devices.push((format!("probe-{k}"), board, clock));
    }
    let journal = work.path().join("journal.sqlite");
    let mut config = format!(
        "[server]\nlisten = \"127.0.0.1:{http_port}\"\narbiter_tokens = [\"hall-bench-token\"]\n\
         broadcast_delay = \"{}s\"\n\
         [journal]\npath = {:?}\n[mqtt]\nurl = \"mqtt://127.0.0.1:{}\"\nprefix = \"{prefix}\"\n\
         client_id = \"{prefix}\"\nmax_backoff = \"1s\"\n[referee]\nsettle_time = \"{}ms\"\n",
        settings.delay_s,
        journal.display().to_string(),
        settings.mqtt_port,
        settings.settle_ms,
    );
    config.push_str(match settings.analysis.as_str() {
        "1" | "idle" => "[analysis]\nengine = \"gtp\"\nfeatured = [\"table-1\"]\n",
        "nice" => "[analysis]\nengine = \"gtp\"\nfeatured = [\"table-1\"]\nidle = false\n",
        _ => "[analysis]\nengine = \"off\"\n",
    });
    let board_entry = |id: &str, board: &Path, clock: &Path| {
        format!(
            "[[board]]\nid = \"{id}\"\nboard_port = {:?}\nclock_port = {:?}\nsize = 19\nautostart = true\n\
             time_control = \"byoyomi-cn:main=20m,reserve=3,period=30s\"\nblack = \"Black\"\nwhite = \"White\"\n",
            board.display().to_string(),
            clock.display().to_string()
        )
    };
    for (id, board, clock) in &probe_devices {
        config.push_str(&board_entry(id, &board.path, &clock.path));
    }
    for i in 1..=tables {
        let name = format!("table-{i}");
        config.push_str(&board_entry(
            &name,
            &ports.join(format!("usb-goban-sim-{name}-board")),
            &ports.join(format!("usb-goban-sim-{name}-clock")),
        ));
    }
    let config_path = work.path().join("goban-bridge.toml");
    std::fs::write(&config_path, config)?;

    let mqtt_arrivals: Arrivals = Arc::default();
    let sse_arrivals: Arrivals = Arc::default();
    let mqtt_moves = Arc::new(AtomicU64::new(0));
    let mqtt_task = mqtt_reader(
        settings.mqtt_port,
        &prefix,
        Arc::clone(&mqtt_arrivals),
        Arc::clone(&mqtt_moves),
    )
    .await?;

    let log = std::fs::File::create(work.path().join("daemon.log"))?;
    let started = Instant::now();
    let child = Command::new(&settings.bin)
        .args(["run", "--config"])
        .arg(&config_path)
        .current_dir(work.path())
        .env(
            "RUST_LOG",
            std::env::var("GOBAN_HALL_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .process_group(0)
        .spawn()
        .context("spawn goban-bridge")?;
    let mut daemon = DaemonProcess { child };
    let pid = daemon.child.id();
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()?;
    loop {
        if let Ok(Some(status)) = daemon.child.try_wait() {
            bail!("the daemon exited at start: {status}");
        }
        let ok = http.get(format!("{base}/health")).send().await;
        if ok.is_ok_and(|r| r.status().is_success()) {
            break;
        }
        if started.elapsed() > Duration::from_secs(60) {
            bail!("the daemon did not answer /health within 60 s");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!(
        "daemon pid {pid} answers /health after {:.1} s; RSS {} kB",
        started.elapsed().as_secs_f64(),
        proc_rss_kb(pid, "VmRSS:").unwrap_or(0)
    );

    let _tables = if tables > 0 {
        let options = SimulateOptions {
            boards: tables,
            profile: HumanProfile {
                speed: settings.speed,
                ..HumanProfile::default()
            },
            script: FaultScript::default(),
            seed: 17,
            shared_port: false,
            diffs: true,
            transport: Transport::Pty(ports.clone()),
        };
        goban_hardware::sim::spawn_tables(&games()?, &options, &cancel)?
    } else {
        Vec::new()
    };

    let measuring = Arc::new(AtomicBool::new(false));
    let mut sse_tasks = Vec::new();
    let mut probe_tasks = Vec::new();
    for (name, board, clock) in probe_devices {
        sse_tasks.push(tokio::spawn(sse_reader(
            format!("{base}/boards/{name}/events"),
            Arc::clone(&sse_arrivals),
            cancel.clone(),
        )));
        probe_tasks.push(tokio::spawn(play_probe(
            name,
            board,
            clock,
            base.clone(),
            Arc::clone(&sse_arrivals),
            Arc::clone(&mqtt_arrivals),
            Arc::clone(&measuring),
            Pace {
                gap: settings.gap,
                jitter: settings.jitter,
            },
            cancel.clone(),
        )));
    }

    tokio::time::sleep(settings.warmup).await;
    let ticks = clock_ticks();
    let load_start = load();
    let (cpu0, self0, t0) = (
        proc_cpu(pid).unwrap_or(0),
        proc_cpu(std::process::id()).unwrap_or(0),
        Instant::now(),
    );
    let moves0 = mqtt_moves.load(Ordering::Relaxed);
    let rss_start = proc_rss_kb(pid, "VmRSS:").unwrap_or(0);
    let stages_start = stages::scrape(&http, &base).await.unwrap_or_default();
    measuring.store(true, Ordering::Relaxed);
    // The harness's own paths again, under the hall's load, at about the probes' rate.
    let rounds = (settings.measure.as_millis() / UNDER_LOAD_PAUSE.as_millis()) as usize * 9 / 10;
    let pty_under_load = tokio::spawn(pty_cost(rounds, UNDER_LOAD_PAUSE));
    let broker_under_load = tokio::spawn(broker_cost(settings.mqtt_port, rounds, UNDER_LOAD_PAUSE));
    let mut rss_max = 0;
    while t0.elapsed() < settings.measure {
        rss_max = rss_max.max(proc_rss_kb(pid, "VmRSS:").unwrap_or(0));
        tokio::time::sleep(Duration::from_secs(2).min(settings.measure)).await;
        if let Ok(Some(status)) = daemon.child.try_wait() {
            bail!("the daemon exited while measuring: {status}");
        }
    }
    measuring.store(false, Ordering::Relaxed);
    let wall = t0.elapsed().as_secs_f64();
    let stages_end = stages::scrape(&http, &base).await.unwrap_or_default();
    let cpu = (proc_cpu(pid).unwrap_or(0) - cpu0) as f64 / ticks / wall * 100.0;
    let own_cpu = (proc_cpu(std::process::id()).unwrap_or(0) - self0) as f64 / ticks / wall * 100.0;
    let rss_end = proc_rss_kb(pid, "VmRSS:").unwrap_or(0);
    rss_max = rss_max.max(rss_end);
    let moves = mqtt_moves.load(Ordering::Relaxed) - moves0;
    let load_end = load();
    println!(
        "measured {wall:.0} s: daemon CPU {cpu:.1}% of a core, RSS {:.1} MB at the start, {:.1} MB at the end (max {:.1} MB, \
         peak VmHWM {:.1} MB); bench process (simulator, probes, clients) {own_cpu:.1}%; \
         {moves} move events on MQTT ({:.1}/s); {load_start} -> {load_end}",
        rss_start as f64 / 1024.0,
        rss_end as f64 / 1024.0,
        rss_max as f64 / 1024.0,
        proc_rss_kb(pid, "VmHWM:").unwrap_or(0) as f64 / 1024.0,
        moves as f64 / wall,
    );
    let file_mb = |suffix: &str| {
        let mut path = journal.clone().into_os_string();
        path.push(suffix);
        std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1e6)
    };
    let pty = pty_under_load.await??;
    println!(
        "harness pty under the hall's load (same window): device write -> host read {}; round trip {}",
        pty.0, pty.1
    );
    println!(
        "harness broker under the hall's load (same window): publish -> subscriber receives {}",
        broker_under_load.await??
    );
    println!(
        "journal at the end of the window: file {:.1} MB, WAL {:.1} MB",
        file_mb(""),
        file_mb("-wal")
    );
    println!(
        "the daemon's stages over the window (all boards; /metrics at its start and end):\n{}",
        stages::report(&stages_start, &stages_end)
    );

    if !settings.analysis.is_empty() {
        let metrics = http
            .get(format!("{base}/metrics"))
            .send()
            .await?
            .text()
            .await?;
        let analysed = metrics
            .lines()
            .find(|l| l.starts_with("goban_analysis_positions_total"))
            .unwrap_or("goban_analysis_positions_total: none");
        println!(
            "analysis beside the hall (GNU Go, {}, one position at a time): {analysed}",
            if settings.analysis == "nice" {
                "nice 19"
            } else {
                "SCHED_IDLE"
            }
        );
    }

    // REST while the boards play: the probe with the most moves, then the same bytes static.
    let rest_board = "probe-1";
    let url = format!("{base}/boards/{rest_board}");
    let body = http.get(&url).send().await?.bytes().await?;
    let state: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let (rest, rest_latency) = wrk(&url, settings.wrk)?;
    let load_rest = load();
    let static_port = static_server(format!("/api/v1/boards/{rest_board}"), body.clone())?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (fixed, fixed_latency) = wrk(
        &format!("http://127.0.0.1:{static_port}/api/v1/boards/{rest_board}"),
        settings.wrk,
    )?;
    let (hello, hello_latency) = wrk(
        &format!("http://127.0.0.1:{static_port}/hello"),
        settings.wrk,
    )?;
    println!(
        "REST GET /api/v1/boards/{rest_board} (move {}, {} bytes): {rest:.0} req/s ({rest_latency}); \
         the same bytes static: {fixed:.0} req/s ({fixed_latency}); hello world: {hello:.0} req/s \
         ({hello_latency}); ratio {:.1}% of static, {:.1}% of hello; {load_rest}",
        state["move_number"],
        body.len(),
        rest / fixed * 100.0,
        rest / hello * 100.0,
    );

    cancel.cancel();
    let mut samples = Vec::new();
    for task in probe_tasks {
        samples.extend(task.await.unwrap_or_default());
    }
    for task in sse_tasks {
        task.abort();
    }
    mqtt_task.abort();
    let ingest = latency::report(&samples, settings.settle_ms as f64);
    // The daemon's goodbye (`offline`, a last `device` per board) is retained too.
    drop(daemon);
    clear_retained(settings.mqtt_port, &prefix).await;
    if settings.keep {
        println!("work directory kept: {}", work.keep().display());
    }
    Ok(format!(
        "| {n} | {} | {} | {} ({}/{}) | {cpu:.1}% | {:.0} MB ({:.0}) | {rest:.0} / {fixed:.0} / {hello:.0} | {:.1}% / {:.1}% | {load_start} |",
        ingest.sse,
        ingest.mqtt,
        ingest.counted,
        ingest.sse_missing,
        ingest.mqtt_missing,
        rss_end as f64 / 1024.0,
        rss_max as f64 / 1024.0,
        rest / fixed * 100.0,
        rest / hello * 100.0,
    ))
}

/// Removes the run's retained messages from the broker (it is shared with other runs).
async fn clear_retained(port: u16, prefix: &str) {
    let (options, _) = mqtt_options(&format!("{prefix}-clear"), port);
    let (client, mut events) = AsyncClient::new(options, 10_000);
    let filter = format!("{prefix}/#");
    let mut topics = std::collections::BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_millis(500), events.poll()).await {
            Ok(Ok(Event::Incoming(Packet::ConnAck(_)))) => {
                let _ = client.subscribe(filter.clone(), QoS::AtMostOnce).await;
            }
            Ok(Ok(Event::Incoming(Packet::Publish(p)))) if p.retain => {
                topics.insert(p.topic.clone());
            }
            Ok(Err(_)) => break,
            _ => {}
        }
    }
    for topic in &topics {
        let _ = client
            .publish(topic.clone(), QoS::AtMostOnce, true, Vec::<u8>::new())
            .await;
    }
    let _ = client.disconnect().await;
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline {
        if !matches!(
            tokio::time::timeout(Duration::from_millis(500), events.poll()).await,
            Ok(Ok(_))
        ) {
            break;
        }
    }
}
