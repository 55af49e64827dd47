//! The device link task: connect, handshake, read, watchdog, reconnect with backoff, report events.

use crate::command::LinkHandle;
use crate::connector::Connector;
use crate::error::HardwareError;
use crate::handshake::handshake;
use crate::link_state::{LinkConfig, LinkEvent, LinkState};
use crate::reconnect::Backoff;
use crate::session::{Session, SessionEnd};
use crate::stamp::{SystemWallClock, WallClock};
use crate::stats::{LinkStats, StatsPacing};
use crate::wire::FrameReader;
use goban_protocol::Decoder;
use std::sync::Arc;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

/// Spawns a device link on `connector` with the system wall clock: it runs until `cancel`
/// fires or `events` is dropped, and returns the handle for host commands.
pub fn spawn_link<C: Connector>(
    connector: C,
    config: LinkConfig,
    events: mpsc::Sender<LinkEvent>,
    cancel: CancellationToken,
) -> (LinkHandle, JoinHandle<LinkStats>) {
    spawn_link_with_clock(connector, config, events, cancel, Arc::new(SystemWallClock))
}

/// As [`spawn_link`], stamping frames with `clock` (tests use [`crate::TokioWallClock`]).
pub fn spawn_link_with_clock<C: Connector>(
    connector: C,
    config: LinkConfig,
    events: mpsc::Sender<LinkEvent>,
    cancel: CancellationToken,
    clock: Arc<dyn WallClock>,
) -> (LinkHandle, JoinHandle<LinkStats>) {
    let port = connector.label();
    let (cmd_tx, cmd_rx) = mpsc::channel(config.command_queue.max(1));
    let (stats_tx, stats_rx) = watch::channel(LinkStats::new(port.clone()));
    let stats_pacing = StatsPacing::new(
        config.stats_interval_ms.max(10),
        config.stats_event_interval_ms,
        &port,
    );
    let state = LinkState {
        port,
        config,
        events,
        commands: cmd_rx,
        commands_open: true,
        stats: stats_tx,
        stats_pacing,
        decoder: Decoder::new(),
        clock,
        cancel,
        last_wrong: None,
        reported_outage: false,
    };
    let span = tracing::info_span!("device_link", port = %state.port);
    let task = tokio::spawn(run_link(connector, state).instrument(span));
    (LinkHandle::new(cmd_tx, stats_rx), task)
}

/// The supervisor loop: connect, run a session, back off, repeat.
async fn run_link<C: Connector>(mut connector: C, mut state: LinkState) -> LinkStats {
    let mut backoff = Backoff::new(state.config.reconnect);
    let mut ever_connected = false;
    loop {
        let attempt = tokio::select! {
            () = state.cancel.cancelled() => break,
            io = connector.connect() => io,
        };
        let end = match attempt {
            Ok(io) => run_connection(io, &mut state, &mut ever_connected).await,
            Err(err) => {
                state.count(|s| s.open_failures += 1);
                report_outage(&mut state, &err).await
            }
        };
        match end {
            SessionEnd::Stop => break,
            SessionEnd::Lost => {
                backoff.reset();
                state.reported_outage = false;
            }
            SessionEnd::Retry => {}
        }
        if !wait_backoff(&mut state, backoff.next_delay()).await {
            break;
        }
    }
    state.count(|s| s.connected = false);
    state.publish_stats();
    state.stats.borrow().clone()
}

/// Reports the first failure of an outage as `Unavailable`; later ones only count.
async fn report_outage(state: &mut LinkState, err: &HardwareError) -> SessionEnd {
    if state.reported_outage {
        return SessionEnd::Retry;
    }
    tracing::warn!(cause = %err, "device unavailable");
    state.reported_outage = true;
    let event = LinkEvent::Unavailable {
        port: state.port.clone(),
        error: err.to_string(),
    };
    if state.emit(event).await {
        SessionEnd::Retry
    } else {
        SessionEnd::Stop
    }
}

/// Sleeps out a backoff delay; host commands meanwhile are stale and dropped (counted).
async fn wait_backoff(state: &mut LinkState, delay: std::time::Duration) -> bool {
    let sleep = tokio::time::sleep(delay);
    tokio::pin!(sleep);
    loop {
        tokio::select! {
            () = state.cancel.cancelled() => return false,
            () = &mut sleep => return true,
            cmd = state.commands.recv(), if state.commands_open => match cmd {
                Some(_) => state.count(|s| s.commands_dropped += 1),
                // Every handle dropped: nobody can command us, reading goes on.
                None => state.commands_open = false,
            },
        }
    }
}

/// One connection: handshake, then the session until it ends.
async fn run_connection<IO>(io: IO, state: &mut LinkState, ever_connected: &mut bool) -> SessionEnd
where
    IO: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (read, mut write) = tokio::io::split(io);
    let mut reader = FrameReader::spawn(read, state.clock.clone());
    state.decoder.reset();
    let shaken = tokio::select! {
        () = state.cancel.cancelled() => return SessionEnd::Stop,
        shaken = handshake(&state.port, &state.config.expect, state.config.handshake,
            &mut reader, &mut write, &mut state.decoder) => shaken,
    };
    let shaken = match shaken {
        Ok(shaken) => shaken,
        Err(err) => return handle_handshake_error(state, err).await,
    };
    if *ever_connected {
        state.count(|s| s.reconnects += 1);
    }
    *ever_connected = true;
    state.last_wrong = None;
    state.reported_outage = false;
    tracing::info!(devices = shaken.devices.len(), "device link connected");
    let session = Session::new(state, shaken.devices.clone(), write);
    session.run(reader, shaken.early).await
}

/// A failed handshake: a device alert for a wrong device, a log line otherwise; retry later.
async fn handle_handshake_error(state: &mut LinkState, err: HardwareError) -> SessionEnd {
    state.count(|s| s.handshake_failures += 1);
    state.publish_stats();
    tracing::warn!(cause = %err, "handshake failed");
    let HardwareError::WrongDevice {
        port,
        expected,
        found,
    } = err
    else {
        return report_outage(state, &err).await;
    };
    if state.last_wrong.as_deref() == Some(found.as_str()) {
        return SessionEnd::Retry;
    }
    state.last_wrong = Some(found.clone());
    let event = LinkEvent::WrongDevice {
        port,
        expected,
        found,
    };
    if state.emit(event).await {
        SessionEnd::Retry
    } else {
        SessionEnd::Stop
    }
}
