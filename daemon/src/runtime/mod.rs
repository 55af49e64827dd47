//! The board runtime: one supervisor task per board wiring device links, referee, journal and hub together.

mod clock;
mod compaction;
mod control;
mod devices;
mod engine;
mod health;
#[cfg(test)]
mod journal_growth_tests;
mod ledger;
mod story;
mod supervisor;
mod unjournaled;

use std::collections::BTreeMap;
use std::sync::Arc;

use goban_hardware::{LinkConfig, SerialConnector, spawn_link};
use goban_protocol::DeviceKind;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::config::{BoardConfig, Config};
use crate::hub::Hub;
use crate::journal::Journal;
use clock::HostClock;
use control::BoardHandle;
use ledger::Ledger;
use supervisor::Wiring;

/// Why a board could not start.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StartError {
    /// The journal could not be read.
    #[error("board {board}: journal: {source}")]
    Journal {
        /// Board id.
        board: String,
        /// The cause.
        source: crate::journal::JournalError,
    },
    /// The referee refused the board's settings.
    #[error("board {board}: referee: {message}")]
    Referee {
        /// Board id.
        board: String,
        /// The referee's words.
        message: String,
    },
}

/// The running tasks of every board: device links and supervisors.
pub(crate) struct Boards {
    /// Supervisor tasks; each ends after its final device message once `cancel` fires.
    pub(crate) supervisors: Vec<JoinHandle<()>>,
    /// Device link tasks.
    pub(crate) links: Vec<JoinHandle<goban_hardware::LinkStats>>,
}

/// Recover every board from the journal, register it with the hub and start its tasks.
pub(crate) fn start(
    config: &Config,
    hub: &Hub,
    journal: &Journal,
    cancel: &CancellationToken,
) -> Result<Boards, StartError> {
    let mut boards = Boards {
        supervisors: Vec::new(),
        links: Vec::new(),
    };
    for board in &config.boards {
        start_board(board, config, hub, journal, cancel, &mut boards)?;
    }
    Ok(boards)
}

fn start_board(
    board: &BoardConfig,
    config: &Config,
    hub: &Hub,
    journal: &Journal,
    cancel: &CancellationToken,
    boards: &mut Boards,
) -> Result<(), StartError> {
    let id = board.id.as_str().to_owned();
    let span = tracing::info_span!("board", board = %id);
    let _entered = span.enter();
    let recovered = journal.recover(&id).map_err(|source| StartError::Journal {
        board: id.clone(),
        source,
    })?;
    let referee = engine::referee_config(board, &config.referee);
    let ledger = Ledger::recover(referee, &recovered).map_err(|err| StartError::Referee {
        board: id.clone(),
        message: err.to_string(),
    })?;
    let (request_tx, requests) = mpsc::channel(32);
    hub.register(
        &id,
        ledger.view().clone(),
        Arc::new(BoardHandle::new(ledger.id().clone(), request_tx)),
    );
    let (event_tx, events) = mpsc::channel(1024);
    let mut links = BTreeMap::new();
    for (path, kinds) in ports_of(board) {
        let mut connector = SerialConnector::new(&path);
        connector.settings.baud = board.baud;
        let label = goban_hardware::Connector::label(&connector);
        let (handle, task) = spawn_link(
            connector,
            LinkConfig::expecting(&kinds),
            event_tx.clone(),
            cancel.child_token(),
        );
        boards.links.push(task);
        links.insert(label, (handle, kinds));
    }
    let wiring = Wiring {
        events,
        requests,
        links,
        journal: journal.clone(),
        hub: hub.clone(),
        clock: HostClock::system(),
        unjournaled: unjournaled::Unjournaled::default(),
    };
    let task = supervisor::run(ledger, wiring, board.autostart, cancel.clone());
    drop(_entered);
    boards.supervisors.push(tokio::spawn(task.instrument(span)));
    Ok(())
}

/// Compact the journal's finished games past `[journal] retention`, every ten minutes until `cancel`.
pub(crate) fn spawn_compaction(
    config: &Config,
    journal: &Journal,
    cancel: &CancellationToken,
) -> JoinHandle<()> {
    compaction::spawn(
        journal.clone(),
        config.journal.retention,
        compaction::COMPACT_EVERY,
        HostClock::system(),
        cancel.clone(),
    )
}

/// One link per distinct port: a shared port serves both devices.
fn ports_of(board: &BoardConfig) -> Vec<(std::path::PathBuf, Vec<DeviceKind>)> {
    if board.clock_port() == &board.board_port {
        vec![(
            board.board_port.clone(),
            vec![DeviceKind::Board, DeviceKind::Clock],
        )]
    } else {
        vec![
            (board.board_port.clone(), vec![DeviceKind::Board]),
            (board.clock_port().clone(), vec![DeviceKind::Clock]),
        ]
    }
}
