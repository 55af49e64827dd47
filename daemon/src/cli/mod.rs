//! The command line: parse it, set up the log, run the chosen command (demo, run, simulate, ports, check-config, generate-config, export, backup).

mod args;
mod commands;
mod demo;
mod demo_tables;
mod logging;

use std::process::ExitCode;

use clap::Parser;
use goban_hardware::sim::FaultScript;

pub use args::{Cli, Command};

use crate::config::{self, LogFormat};

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
            match runtime.block_on(run_async(command, format)) {
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

/// The commands that need the async runtime, each with its log set up first.
async fn run_async(command: Command, log_override: Option<LogFormat>) -> anyhow::Result<()> {
    match command {
        Command::Run { config } => {
            let config = config::load(&config)?;
            logging::init(
                log_override.unwrap_or(config.log.format),
                &config.log.filter,
            );
            commands::serve_until_signal(config).await
        }
        Command::Demo {
            listen,
            boards,
            speed,
            journal,
            games,
        } => {
            logging::init(log_override.unwrap_or_default(), "info");
            demo::demo(listen, boards, speed, journal, games.as_deref()).await
        }
        Command::Simulate {
            games,
            boards,
            speed,
            script,
            dir,
            shared_port,
            seed,
        } => {
            logging::init(log_override.unwrap_or_default(), "info");
            let script = match script {
                Some(path) => commands::read_script(&path)?,
                None => FaultScript::default(),
            };
            let dir = dir.unwrap_or_else(|| std::env::temp_dir().join("goban-sim"));
            let options = commands::sim_options(boards, speed, script, seed, shared_port, dir);
            commands::simulate(&games, &options).await
        }
        Command::Ports
        | Command::CheckConfig { .. }
        | Command::GenerateConfig
        | Command::Export { .. }
        | Command::Backup { .. } => Ok(()),
    }
}
