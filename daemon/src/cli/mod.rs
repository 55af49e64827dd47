//! The command line (clap): demo, run, simulate, ports, check-config, generate-config.

pub mod commands;
mod demo_tables;
pub mod logging;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{self, LogFormat};

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

/// Run the parsed command line; the exit code of the process.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::GenerateConfig => {
            print!("{}", config::DEFAULT_CONFIG);
            ExitCode::SUCCESS
        }
        Command::CheckConfig { file } => check_config(&file),
        Command::Ports => commands::ports(),
        Command::Export { source, out } => crate::archive::command::run_export(&source, &out),
        Command::Backup { source, out } => crate::archive::command::run_backup(&source, &out),
        command => {
            // Before anything opens: a hall needs more files than a service's usual 1,024.
            let _ = crate::app::open_files::raise();
            let runtime = match tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(err) => {
                    eprintln!("goban-bridge: cannot start the async runtime: {err}");
                    return ExitCode::FAILURE;
                }
            };
            let format = if cli.log_json {
                Some(LogFormat::Json)
            } else {
                None
            };
            match runtime.block_on(commands::run_async(command, format)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) => {
                    eprintln!("goban-bridge: {err:#}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// Parses, then runs the same checks as `run` (config::preflight): valid here means `run` starts.
fn check_config(file: &std::path::Path) -> ExitCode {
    match config::load(file) {
        Ok(loaded) => {
            let verdict = config::preflight(&loaded);
            for warning in &verdict.warnings {
                eprintln!("{}: warning: {warning}", file.display());
            }
            if !verdict.errors.is_empty() {
                for error in &verdict.errors {
                    eprintln!("{}: {error}", file.display());
                }
                return ExitCode::FAILURE;
            }
            println!(
                "{}: valid, {} board(s)",
                file.display(),
                loaded.boards.len()
            );
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("{err}");
            ExitCode::FAILURE
        }
    }
}
