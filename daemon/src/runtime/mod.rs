//! The board runtime: one supervisor task per board wiring device links, referee, journal and hub together.
//!
//! At start every board is announced to the hub as recovering and its
//! device links open at once; the boards are rebuilt from the journal on a
//! few blocking threads ([`recovery`]) while HTTP already answers, and each
//! board's supervisor starts, and the board is served, when its own rebuild
//! is done. Nothing of a board is published before that.

mod alarm;
mod checkpoint_policy;
mod clock;
mod compaction;
mod control;
mod devices;
mod engine;
mod game_change;
mod health;
mod in_flight;
#[cfg(test)]
mod journal_growth_tests;
mod ledger;
#[cfg(test)]
mod ledger_tests;
mod recovery;
mod story;
mod supervisor;
mod unjournaled;

use std::collections::BTreeMap;
use std::sync::Arc;

use goban_hardware::{LinkConfig, SerialConnector, spawn_link_with_clock};
use goban_protocol::DeviceKind;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::config::{BoardConfig, Config};
use crate::journal::Journal;
use crate::publish::hub::Hub;
use clock::HostClock;
use control::BoardHandle;
use ledger::Ledger;
use supervisor::Wiring;

/// Why a board could not start (a journal that cannot be read only stops that board: see `/health`).
#[derive(Debug, thiserror::Error)]
pub(crate) enum StartError {
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

/// Announce every board to the hub, open its links and start rebuilding it from the journal;
/// returns at once, each board being served when its own rebuild is done.
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
    let mut jobs = Vec::with_capacity(config.boards.len());
    // One clock for every board and link: frames are stamped on the timeline of the deadlines.
    let clock = HostClock::system();
    for board in &config.boards {
        jobs.push(start_board(
            board,
            config,
            hub,
            journal,
            clock,
            cancel,
            &mut boards,
        )?);
    }
    recovery::spawn(journal, jobs);
    Ok(boards)
}

fn start_board(
    board: &BoardConfig,
    config: &Config,
    hub: &Hub,
    journal: &Journal,
    clock: HostClock,
    cancel: &CancellationToken,
    boards: &mut Boards,
) -> Result<recovery::Job, StartError> {
    let id: Arc<str> = Arc::from(board.id.as_str());
    let span = tracing::info_span!("board", board = %id);
    let _entered = span.enter();
    let referee = engine::referee_config(board, &config.referee);
    // Settings the referee refuses stop the daemon before it serves, as they always did.
    engine::Engine::new(referee.clone()).map_err(|err| StartError::Referee {
        board: id.to_string(),
        message: err.to_string(),
    })?;
    hub.expect(&id);
    let (request_tx, requests) = mpsc::channel(32);
    // Frames that arrive while the board recovers wait here, in order, for its supervisor.
    let (event_tx, events) = mpsc::channel(1024);
    let mut links = BTreeMap::new();
    for (path, kinds) in ports_of(board) {
        let mut connector = SerialConnector::new(&path);
        connector.settings.baud = board.baud;
        let label = goban_hardware::Connector::label(&connector);
        // A beat changes no game state and the link's own watchdog takes it: not passed on,
        // it does not wake the board's task twice a second per device.
        let config = LinkConfig {
            forward_beats: false,
            ..LinkConfig::expecting(&kinds)
        };
        let (handle, task) = spawn_link_with_clock(
            connector,
            config,
            event_tx.clone(),
            cancel.child_token(),
            Arc::new(clock),
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
        clock,
        unjournaled: unjournaled::Unjournaled::default(),
        in_flight: None,
    };
    let control = Arc::new(BoardHandle::new(id.clone(), request_tx));
    let (done, rebuilt) = oneshot::channel();
    // An autostarted game is the config's event, played at its place (SGF `EV`, `PC`).
    let autostart = board.autostart.then(|| goban_referee::GameSetup {
        event: config.tournament.event.clone(),
        place: config.tournament.place.clone(),
        ..goban_referee::GameSetup::default()
    });
    let task = serve_when_recovered(rebuilt, control, wiring, autostart, cancel.clone());
    drop(_entered);
    boards.supervisors.push(tokio::spawn(task.instrument(span)));
    Ok(recovery::Job {
        config: referee,
        done,
    })
}

/// Wait for the board's rebuild, register it with the hub (it is served from now on), then supervise it.
async fn serve_when_recovered(
    rebuilt: oneshot::Receiver<Result<Box<Ledger>, String>>,
    control: Arc<BoardHandle>,
    wiring: Wiring,
    autostart: Option<goban_referee::GameSetup>,
    cancel: CancellationToken,
) {
    let result = tokio::select! {
        // Stopped before the board was rebuilt: it published nothing, so there is nothing to close.
        () = cancel.cancelled() => return,
        result = rebuilt => result.unwrap_or_else(|_| Err("the recovery thread ended".to_owned())),
    };
    let ledger = match result {
        Ok(ledger) => ledger,
        Err(why) => {
            tracing::error!(cause = %why, "board not recovered; it is not served");
            wiring.hub.fail(control.board(), why);
            return;
        }
    };
    wiring.hub.register(
        ledger.id(),
        ledger.view().clone(),
        control,
        ledger.last_seq(),
    );
    tracing::info!(seq = ledger.view().seq(), "board ready");
    supervisor::run(ledger, wiring, autostart, cancel).await;
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
