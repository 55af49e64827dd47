//! What the command line accepts (clap): the global flags and one subcommand each of api.md "Command line".

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::config;

/// goban-bridge: a physical Go board and clock in; referee, journal, REST/SSE and MQTT out.
#[derive(Debug, Parser)]
#[command(name = "goban-bridge", version, about)]
pub struct Cli {
    /// Log JSON lines instead of text (overrides `[log] format`).
    #[arg(long, global = true)]
    pub log_json: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands of api.md "Command line".
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Simulated boards replaying real games, embedded broker, REST API: no hardware, no set-up.
    Demo {
        /// REST/SSE listen address (`ip:port` or `host:port`).
        #[arg(long, default_value = "127.0.0.1:8080", value_parser = config::parse_listen)]
        listen: SocketAddr,
        /// Number of simulated tables.
        #[arg(long, default_value_t = 4)]
        boards: usize,
        /// Playing speed (1.0 is real time).
        #[arg(long, default_value_t = 4.0)]
        speed: f64,
        /// Journal file to keep (default: one in the demo's run directory, removed on exit).
        #[arg(long)]
        journal: Option<PathBuf>,
        /// Play these games (an SGF file or a directory of them) instead of the bundled ones.
        #[arg(long)]
        games: Option<PathBuf>,
    },
    /// Production: boards and clocks on serial ports, as the config says.
    Run {
        /// The TOML config.
        #[arg(long)]
        config: PathBuf,
    },
    /// The simulator alone, on pseudo-terminals, for a separate daemon to open.
    Simulate {
        /// An SGF file or a directory of them.
        #[arg(long)]
        games: PathBuf,
        /// Number of tables.
        #[arg(long, default_value_t = 1)]
        boards: usize,
        /// Playing speed (1.0 is real time).
        #[arg(long, default_value_t = 1.0)]
        speed: f64,
        /// A fault script (JSON) staged at every table.
        #[arg(long)]
        script: Option<PathBuf>,
        /// Directory for the stable pty links.
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Board and clock share one port per table.
        #[arg(long)]
        shared_port: bool,
        /// Random seed of table 1.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// List serial ports with their USB identity.
    Ports,
    /// Validate a config; explain every error with its line; exit non-zero if any.
    CheckConfig {
        /// The TOML config.
        file: PathBuf,
    },
    /// Print the documented default config (deploy/goban-bridge.toml).
    GenerateConfig,
    /// Write every finished game of the journal as SGF, with index.csv and index.json.
    Export {
        /// Which journal.
        #[command(flatten)]
        source: crate::archive::command::JournalSource,
        /// The directory to write into (created if needed).
        #[arg(long)]
        out: PathBuf,
    },
    /// Copy the journal to a new file, safely while the daemon runs.
    Backup {
        /// Which journal.
        #[command(flatten)]
        source: crate::archive::command::JournalSource,
        /// The new file (never overwritten).
        #[arg(long)]
        out: PathBuf,
    },
}
