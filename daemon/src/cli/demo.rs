//! The `demo` command: simulated tables playing bundled games, read through the production serial path by a full daemon.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use goban_hardware::sim::{FaultScript, SimGame, SimTable};
use tokio_util::sync::CancellationToken;

use super::commands::{print_endpoints, sim_options};
use super::demo_tables;
use crate::app::{self, Endpoints};
use crate::config::{self, Config};

/// Bundled demo games (see assets/games/README.md for their origin).
const DEMO_GAMES: [(&str, &str); 5] = [
    (
        "AG vs AG G12",
        include_str!("../../assets/games/AlphaGo-2.0-AG-vs-AG-G12-English.sgf"),
    ),
    (
        "AG vs AG G13",
        include_str!("../../assets/games/AlphaGo-2.0-AG-vs-AG-G13-English.sgf"),
    ),
    (
        "AG vs AG G26",
        include_str!("../../assets/games/AlphaGo-2.0-AG-vs-AG-G26-English.sgf"),
    ),
    (
        "AG vs AG G29",
        include_str!("../../assets/games/AlphaGo-2.0-AG-vs-AG-G29-English.sgf"),
    ),
    (
        "AG vs AG G32",
        include_str!("../../assets/games/AlphaGo-2.0-AG-vs-AG-G32-English.sgf"),
    ),
];

/// A few scripted incidents so the demo shows alerts (rules-digest.md ids) and line noise the
/// link recovers from. No lost clock frame: that is a WARN, and a normal demo run prints none.
const DEMO_SCRIPT: &str = r#"{"steps": [
  {"at_move": 8, "fault": "garbage", "device": "board", "bytes": 48},
  {"at_move": 14, "fault": "premature_press"},
  {"at_move": 30, "fault": "missed_capture"}
]}"#;

/// `goban-bridge demo`: simulated tables on pseudo-terminals read through the production serial path.
pub(super) async fn demo(
    listen: std::net::SocketAddr,
    boards: usize,
    speed: f64,
    journal: Option<PathBuf>,
    own_games: Option<&Path>,
) -> anyhow::Result<()> {
    let games = match own_games {
        Some(path) => SimGame::load(path)?,
        None => bundled_games()?,
    };
    // Removed when `work` drops: on a signal, and on any error below too.
    let work = demo_run_dir()?;
    let ports = work.path().join("ports");
    let script = FaultScript::from_json(DEMO_SCRIPT, "demo script")?;
    let options = sim_options(boards.max(1), speed, script, 7, false, ports.clone());
    // The tables first, so the daemon finds their ports when it opens them; it asks each board
    // for a snapshot on connecting, and the first stone comes only after the players sit down.
    let cancel = CancellationToken::new();
    let tables = goban_hardware::sim::spawn_tables(&games, &options, &cancel)?;
    wait_for_links(&tables).await;
    let names: Vec<String> = tables.iter().map(|t| t.name.clone()).collect();
    let config = demo_config(
        &names,
        &ports,
        listen,
        journal.unwrap_or_else(|| work.path().join("demo.sqlite")),
    )?;
    let tokens = config.server.arbiter_tokens.clone();
    let mqtt_prefix = config.mqtt.prefix.clone();
    let analysis = config.analysis.clone();
    let daemon = app::start(config).await?;
    print_endpoints(&daemon.endpoints);
    print_demo_extras(&daemon.endpoints, &mqtt_prefix, &names);
    println!("  analysis:      {}", analysis_banner(&analysis));
    println!(
        "  arbiter token: {}",
        tokens.first().map_or("(none)", String::as_str)
    );
    let mut players = Vec::new();
    for (i, table) in tables.into_iter().enumerate() {
        println!("  {}: {}", table.name, table.game);
        players.push(tokio::spawn(demo_tables::keep_playing(
            table,
            games.clone(),
            i,
            options.clone(),
            daemon.hub.clone(),
            cancel.clone(),
        )));
    }
    println!(
        "  the demo runs until Ctrl-C; its run directory {} goes with it",
        work.path().display()
    );
    app::shutdown_signal().await;
    // The daemon stops before the tables it reads, so it does not see their ports vanish.
    daemon.stop().await;
    cancel.cancel();
    for player in players {
        let _ = player.await;
    }
    Ok(())
}

/// What the demo says about analysis at start: the engine and its budget, or how to turn it on.
fn analysis_banner(config: &crate::analysis::AnalysisConfig) -> String {
    use crate::analysis::Resolved;
    match config.resolve(std::env::var("PATH").ok().as_deref()) {
        Resolved::Gtp(command, _) | Resolved::Katago(command) => format!(
            "on: {} ({}, {} board(s) at a time, featured {}); \
             candidate moves on the viewer's \"engine moves\" toggle",
            command.join(" "),
            config.budget_words(false),
            config.max_boards,
            config
                .featured
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        ),
        Resolved::Off(why) => format!(
            "off ({why}). To see a live score lead and candidate moves: \
             apt-get install gnugo, then run the demo again"
        ),
    }
}

fn bundled_games() -> anyhow::Result<Vec<SimGame>> {
    let mut games = Vec::new();
    for (name, text) in DEMO_GAMES {
        games.extend(SimGame::from_sgf(text, name)?);
    }
    Ok(games)
}

/// A fresh directory under the platform's runtime directory (`$XDG_RUNTIME_DIR`, else the temp dir).
fn demo_run_dir() -> anyhow::Result<tempfile::TempDir> {
    let base = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.is_dir())
        .unwrap_or_else(std::env::temp_dir);
    tempfile::Builder::new()
        .prefix(&format!("goban-demo-{}-", std::process::id()))
        .tempdir_in(&base)
        .with_context(|| format!("creating the demo's run directory in {}", base.display()))
}

/// Waits (a few seconds at most) until every simulated port has its link on disk.
async fn wait_for_links(tables: &[SimTable]) {
    for _ in 0..100 {
        if tables.iter().flat_map(SimTable::paths).all(|p| p.exists()) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

fn print_demo_extras(endpoints: &Endpoints, prefix: &str, tables: &[String]) {
    let http = endpoints.http;
    if let Some(first) = tables.first() {
        println!("  watch a table: http://{http}/board/{first}");
        println!("  its SGF:       http://{http}/api/v1/boards/{first}/sgf");
    }
    let (host, port) = &endpoints.mqtt;
    println!("  MQTT:          mosquitto_sub -h {host} -p {port} -t '{prefix}/#' -v");
}

/// Where the simulator puts a table's stable port links (hardware/src/sim/table.rs naming).
fn sim_port(dir: &Path, table: &str, device: &str) -> String {
    dir.join(format!("usb-goban-sim-{table}-{device}"))
        .display()
        .to_string()
}

fn demo_config(
    tables: &[String],
    ports: &Path,
    listen: std::net::SocketAddr,
    journal: PathBuf,
) -> anyhow::Result<Config> {
    let mut text = format!(
        "[server]\nlisten = \"{listen}\"\narbiter_tokens = [\"demo\"]\n[journal]\npath = {:?}\n",
        journal.display().to_string()
    );
    if let Some(first) = tables.first() {
        // The first table is the one the engine follows first.
        text.push_str(&format!("[analysis]\nfeatured = [\"{first}\"]\n"));
    }
    for table in tables {
        text.push_str(&format!(
            "[[board]]\nid = \"{table}\"\nboard_port = {:?}\nclock_port = {:?}\nautostart = true\n\
             time_control = \"byoyomi-cn:main=20m,reserve=3,period=30s\"\nblack = \"AlphaGo\"\nwhite = \"AlphaGo\"\n",
            sim_port(ports, table, "board"),
            sim_port(ports, table, "clock")
        ));
    }
    let mut config =
        config::parse(&text).map_err(|errors| anyhow::anyhow!("demo config: {errors}"))?;
    config::add_env_tokens(
        &mut config,
        std::env::var(config::TOKENS_ENV).ok().as_deref(),
    );
    Ok(config)
}
