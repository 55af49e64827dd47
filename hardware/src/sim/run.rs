//! Entry points for the daemon: `goban-bridge simulate` (tables on pseudo-terminals) and `demo` (in-process tables).

use crate::error::HardwareError;
use crate::sim::game::SimGame;
use crate::sim::player::HumanProfile;
use crate::sim::scenario::Scenario;
use crate::sim::script::FaultScript;
use crate::sim::table::{Endpoint, Table, TableConfig, Transport, spawn_table};
use std::path::PathBuf;
use tokio_util::sync::CancellationToken;

/// Options of a simulation run.
#[derive(Debug, Clone)]
pub struct SimulateOptions {
    /// Number of tables (board + clock each).
    pub boards: usize,
    /// Player behaviour (speed factor included).
    pub profile: HumanProfile,
    /// Faults and infractions, the same script at every table.
    pub script: FaultScript,
    /// Seed of table 1; table `i` uses `seed + i`.
    pub seed: u64,
    /// Board and clock on one port per table.
    pub shared_port: bool,
    /// DIFF-style boards (`false`: SNAP-only).
    pub diffs: bool,
    /// Pseudo-terminals with stable links in a directory, or in-memory pipes.
    pub transport: Transport,
}

impl Default for SimulateOptions {
    fn default() -> Self {
        Self {
            boards: 1,
            profile: HumanProfile::default(),
            script: FaultScript::default(),
            seed: 1,
            shared_port: false,
            diffs: true,
            transport: Transport::Pty(std::env::temp_dir().join("goban-sim")),
        }
    }
}

/// One running simulated table.
#[derive(Debug)]
pub struct SimTable {
    /// `table-1`, `table-2`...
    pub name: String,
    /// The game it plays.
    pub game: String,
    /// The staged faults that could not happen in this game.
    pub skipped: Vec<String>,
    /// The running devices and where to reach them.
    pub table: Table,
}

impl SimTable {
    /// The paths to open (board, then clock when not shared), for `simulate` to print.
    pub fn paths(&self) -> Vec<PathBuf> {
        [Some(&self.table.board_port), self.table.clock_port.as_ref()]
            .into_iter()
            .flatten()
            .filter_map(|e| match e {
                Endpoint::Path(p) => Some(p.clone()),
                Endpoint::Memory(_) => None,
            })
            .collect()
    }
}

/// Starts `options.boards` tables playing `games` round-robin (the `demo` entry point).
pub fn spawn_tables(
    games: &[SimGame],
    options: &SimulateOptions,
    cancel: &CancellationToken,
) -> Result<Vec<SimTable>, HardwareError> {
    if games.is_empty() {
        return Err(HardwareError::Game {
            origin: "simulation".into(),
            detail: "no game to play".into(),
        });
    }
    let mut tables = Vec::with_capacity(options.boards);
    for i in 0..options.boards {
        let game = games[i % games.len()].clone();
        let name = format!("table-{}", i + 1);
        let scenario = Scenario {
            game,
            profile: options.profile,
            script: options.script.clone(),
            seed: options.seed.wrapping_add(i as u64),
        };
        let timeline = scenario.build()?;
        let config = TableConfig {
            name: name.clone(),
            shared_port: options.shared_port,
            diffs: options.diffs,
            transport: options.transport.clone(),
        };
        let skipped = timeline.skipped.clone();
        let table = spawn_table(&config, timeline, cancel.child_token())?;
        tables.push(SimTable {
            name,
            game: scenario.game.name,
            skipped,
            table,
        });
    }
    Ok(tables)
}

/// `goban-bridge simulate --games <dir|file> --boards N`: loads the games and starts the
/// tables; print [`SimTable::paths`] so a separate daemon can open them.
pub fn simulate(
    games: &std::path::Path,
    options: &SimulateOptions,
    cancel: &CancellationToken,
) -> Result<Vec<SimTable>, HardwareError> {
    let games = SimGame::load(games)?;
    spawn_tables(&games, options, cancel)
}
