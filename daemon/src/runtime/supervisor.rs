//! One board's supervisor task: device links in, arbiter requests in, referee timeouts; journal, then publish, then device commands.

use std::collections::BTreeMap;

use goban_hardware::{LinkEvent, LinkHandle};
use goban_protocol::DeviceKind;
use goban_referee::{ArbiterAct, ArbiterCommand, DeviceCommand, GameSetup, Input};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::alarm::Alarm;
use super::clock::HostClock;
use super::control::ControlMsg;
use super::devices::{command_frame, inputs_of};
use super::health::Health;
use super::in_flight::InFlight;
use super::ledger::{Ledger, Sealed, Urgency};
use super::unjournaled::{RETRY_EVERY, Unjournaled};
use crate::journal::Journal;
use crate::publish::hub::{Hub, RequestError};

/// Most link events folded into one journal commit.
const MAX_BATCH: usize = 64;

/// The channels, links and effects of one board.
pub(crate) struct Wiring {
    /// Events of every link of the board.
    pub(crate) events: mpsc::Receiver<LinkEvent>,
    /// Arbiter requests from the hub.
    pub(crate) requests: mpsc::Receiver<ControlMsg>,
    /// Link per port label, with the device kinds it serves.
    pub(crate) links: BTreeMap<String, (LinkHandle, Vec<DeviceKind>)>,
    /// Where batches are committed.
    pub(crate) journal: Journal,
    /// Where committed messages are published.
    pub(crate) hub: Hub,
    /// The board's time.
    pub(crate) clock: HostClock,
    /// Batches the journal refused, waiting for it in order.
    pub(crate) unjournaled: Unjournaled,
    /// The batch that may wait, handed to the journal and not yet answered for.
    pub(crate) in_flight: Option<InFlight>,
}

/// Run until `cancel`; then journal and publish a final device message. The ledger comes
/// boxed: held by value, it was stored in the task's future twice (argument and local), 6.8 of
/// its 11.9 KB (debug build).
pub(crate) async fn run(
    mut ledger: Box<Ledger>,
    mut wiring: Wiring,
    autostart: Option<GameSetup>,
    cancel: CancellationToken,
) {
    let mut health = Health::new(
        ledger.id().clone(),
        wiring
            .links
            .iter()
            .map(|(port, (_, kinds))| (port.clone(), kinds.clone())),
    );
    if let Some(setup) = autostart.filter(|_| !ledger.has_game()) {
        let _ = start_game(&mut ledger, &mut wiring, setup, "autostart".into(), None).await;
    }
    // Fixed when batches start waiting, so a stream of inputs that need no commit cannot postpone it.
    let mut retry_at = None;
    // Looked up once: a lookup by name and label costs more than the reading it records.
    let queue_depth =
        metrics::gauge!("goban_board_input_queue_depth", "board" => ledger.id().to_string());
    let alarm_late = metrics::histogram!("goban_board_alarm_late_seconds");
    let publish_wait = metrics::histogram!("goban_board_publish_wait_seconds");
    let mut alarm = Alarm::new(wiring.clock);
    loop {
        let due_ms = ledger.poll_timeout();
        retry_at = match (wiring.unjournaled.len(), retry_at) {
            (0, _) => None,
            (_, None) => Some(Instant::now() + RETRY_EVERY),
            (_, at) => at,
        };
        tokio::select! {
            () = cancel.cancelled() => break,
            Some(event) = wiring.events.recv() => {
                on_link_event(&mut ledger, &mut health, &wiring, event);
                for _ in 1..MAX_BATCH {
                    let Ok(event) = wiring.events.try_recv() else { break };
                    on_link_event(&mut ledger, &mut health, &wiring, event);
                }
                queue_depth.set(wiring.events.len() as f64);
            }
            Some(msg) = wiring.requests.recv() => on_request(&mut ledger, &mut wiring, msg).await,
            answer = answered(&mut wiring.in_flight) => {
                if let Some(in_flight) = wiring.in_flight.take() {
                    land(in_flight.into_sealed(), answer, &wiring);
                }
            }
            () = alarm.ring_at(due_ms) => {
                // The referee's time is whole milliseconds, and it is the deadline's (Tokio's
                // timer, where there is no precise alarm, rings within the millisecond before).
                let now = wiring.clock.now_ms().max(due_ms.unwrap_or(0));
                if let Some(due) = due_ms {
                    let late = Instant::now().saturating_duration_since(wiring.clock.instant_of(due));
                    alarm_late.record(late.as_secs_f64());
                }
                let _ = ledger.handle(now, Input::Timeout);
            }
            () = sleep_until(retry_at) => {
                retry_at = None;
                commit(None, &mut wiring).await;
            }
        }
        match ledger.urgency() {
            Urgency::Now => {
                let (sealed_at, sealed) = (Instant::now(), ledger.seal());
                let timed = sealed.is_some();
                commit(sealed, &mut wiring).await;
                if timed {
                    publish_wait.record(sealed_at.elapsed().as_secs_f64());
                }
            }
            // One batch out at a time, and none while refused ones wait: order is kept.
            Urgency::MayWait if wiring.in_flight.is_none() && wiring.unjournaled.len() == 0 => {
                commit_lazily(ledger.seal(), &mut wiring).await;
            }
            Urgency::MayWait | Urgency::Idle => {}
        }
    }
    let report = health.message("stopped");
    ledger.push_device(report, wiring.clock.now_ms());
    if !commit(ledger.seal(), &mut wiring).await {
        tracing::error!(
            batches = wiring.unjournaled.len(),
            "stopping with batches the journal refused; they were never published"
        );
    }
    tracing::info!("board stopped");
}

/// The journal's answer for the batch out, or never when there is none.
async fn answered(in_flight: &mut Option<InFlight>) -> Result<(), crate::journal::JournalError> {
    match in_flight {
        Some(in_flight) => in_flight.answered().await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

fn on_link_event(ledger: &mut Ledger, health: &mut Health, wiring: &Wiring, event: LinkEvent) {
    let now = wiring.clock.now_ms();
    let at = match &event {
        LinkEvent::Frame { at_ms, .. } => *at_ms,
        _ => now,
    };
    let port = port_of(&event);
    let expect = port
        .and_then(|p| wiring.links.get(p))
        .map_or(&[DeviceKind::Board, DeviceKind::Clock][..], |(_, kinds)| {
            kinds.as_slice()
        });
    let rejected = match &event {
        LinkEvent::Stats(stats) => health.rejected_since_last(stats),
        _ => 0,
    };
    let counted = (rejected > 0).then_some(Input::FramesRejected { frames: rejected });
    for input in inputs_of(&event, expect).into_iter().chain(counted) {
        if let Err(err) = ledger.handle(at, input) {
            tracing::debug!(cause = %err, "referee refused a device input");
        }
    }
    if let Some(report) = health.handle(&event, now) {
        ledger.push_device(report, at);
    }
}

fn port_of(event: &LinkEvent) -> Option<&str> {
    match event {
        LinkEvent::Connected { port, .. }
        | LinkEvent::Disconnected { port, .. }
        | LinkEvent::Unavailable { port, .. }
        | LinkEvent::WrongDevice { port, .. } => Some(port),
        LinkEvent::Stats(stats) => Some(&stats.port),
        _ => None,
    }
}

async fn on_request(ledger: &mut Ledger, wiring: &mut Wiring, msg: ControlMsg) {
    let ControlMsg { request, reply } = msg;
    tracing::info!(who = %request.by, note = request.note.as_deref().unwrap_or(""), "arbiter request");
    let answer = match request {
        ArbiterAct {
            command: ArbiterCommand::StartGame(setup),
            by,
            note,
        } => start_game(ledger, wiring, setup, by, note).await,
        act => ledger
            .handle(wiring.clock.now_ms(), Input::ArbiterAct(act))
            .map_err(|err| RequestError::Rejected(err.to_string())),
    };
    // Refused commands are journaled too: the referee advanced its timers before refusing.
    let committed = commit(ledger.seal(), wiring).await;
    let answer = match (answer, committed) {
        (Ok(()), false) => Err(RequestError::Unavailable(ledger.id().to_string())),
        (answer, _) => answer,
    };
    // The client may have gone away; the ruling stands regardless.
    let _ = reply.send(answer.map(|()| ledger.view().clone()));
}

/// Start a game: a fresh referee epoch if this one already held a game, then the journaled command.
async fn start_game(
    ledger: &mut Ledger,
    wiring: &mut Wiring,
    mut setup: GameSetup,
    by: String,
    note: Option<String>,
) -> Result<(), RequestError> {
    if ledger.has_game() {
        if !commit(ledger.rotate(), wiring).await {
            tracing::error!("could not close the previous game's journal epoch");
            return Err(RequestError::Unavailable(ledger.id().to_string()));
        }
        // The new referee knows nothing yet: tell it which devices answer and ask the board for a snapshot.
        for (handle, kinds) in wiring.links.values() {
            if handle.stats().connected {
                for &kind in kinds {
                    let device = super::devices::device_of(kind);
                    let _ = ledger.handle(wiring.clock.now_ms(), Input::DeviceConnected { device });
                }
            }
        }
        send_command(wiring, &DeviceCommand::SnapRequest);
    }
    let now = wiring.clock.now_ms();
    // The daemon names games; a client-chosen id could collide with the archive.
    setup.game = Some(game_id(now, ledger.id(), ledger.epoch()));
    let act = ArbiterAct {
        by,
        note,
        command: ArbiterCommand::StartGame(setup),
    };
    ledger
        .handle(now, Input::ArbiterAct(act))
        .map_err(|err| RequestError::Rejected(err.to_string()))
}

/// "2026-11-30-table-1-3": the UTC date, the board, the board's epoch number.
fn game_id(now_ms: u64, board: &str, epoch: u64) -> String {
    let date = goban_referee::Timestamp(now_ms).to_rfc3339();
    format!("{}-{board}-{epoch}", date.get(..10).unwrap_or("0000-00-00"))
}

/// Hand a batch that may wait to the journal; it is published when the journal answers.
async fn commit_lazily(sealed: Option<Sealed>, wiring: &mut Wiring) {
    let Some(sealed) = sealed else { return };
    match InFlight::hand_over(sealed, &wiring.journal) {
        Ok(in_flight) => wiring.in_flight = Some(in_flight),
        Err(sealed) => {
            commit(Some(*sealed), wiring).await;
        }
    }
}

/// The batch out: published if the journal committed it, else first in line to wait for it.
fn land(sealed: Sealed, answer: Result<(), crate::journal::JournalError>, wiring: &Wiring) {
    match answer {
        Ok(()) => publish(sealed, wiring),
        Err(err) => {
            let mut queue = wiring.unjournaled.take(None);
            queue.push_front(sealed);
            keep_refused(queue, &err, wiring);
        }
    }
}

/// Keep `queue` (a refused batch first, everything after it behind) until the journal accepts it.
fn keep_refused(
    queue: std::collections::VecDeque<Sealed>,
    err: &crate::journal::JournalError,
    wiring: &Wiring,
) {
    // The journal logs once when it starts refusing and once when it accepts again.
    tracing::debug!(
        cause = %err,
        waiting = queue.len(),
        "journal write failed; its messages wait, unpublished, until the journal accepts them"
    );
    set_waiting_gauge(&batch_board(&queue), queue.len());
    wiring.unjournaled.keep(queue);
}

/// Publish a committed batch's messages, then send its device commands.
fn publish(sealed: Sealed, wiring: &Wiring) {
    for event in sealed.batch.events {
        wiring.hub.publish(event);
    }
    for command in &sealed.commands {
        send_command(wiring, command);
    }
}

/// Journal, then publish, then send the device commands; `false` when the journal refused.
///
/// The batch out, if any, is answered for first; if it still waits for company, `sealed`
/// is sent behind it and one commit takes both ([`commit_behind`]). Batches the journal refused
/// earlier go next, in order; a refused batch stays queued with everything
/// after it, unpublished, until the journal accepts it (a full disk that gets
/// space again, a file made writable).
async fn commit(sealed: Option<Sealed>, wiring: &mut Wiring) -> bool {
    let sealed = match wiring.in_flight.take() {
        None => sealed,
        Some(mut in_flight) => match (in_flight.try_answer(), sealed) {
            (Some(answer), sealed) => {
                land(in_flight.into_sealed(), answer, wiring);
                sealed
            }
            (None, Some(sealed)) if !sealed.batch.is_empty() && wiring.unjournaled.len() == 0 => {
                return commit_behind(in_flight, sealed, wiring).await;
            }
            (None, sealed) => {
                let answer = in_flight.answer_now(&wiring.journal).await;
                land(in_flight.into_sealed(), answer, wiring);
                sealed
            }
        },
    };
    let was_waiting = wiring.unjournaled.len() > 0;
    let mut queue = wiring.unjournaled.take(sealed);
    let board = if was_waiting {
        queue.front().map(|sealed| sealed.batch.board.clone())
    } else {
        None
    };
    while let Some(Sealed { batch, commands }) = queue.pop_front() {
        if !batch.is_empty()
            && let Err(err) = wiring.journal.write(batch.clone()).await
        {
            queue.push_front(Sealed { batch, commands });
            keep_refused(queue, &err, wiring);
            return false;
        }
        publish(Sealed { batch, commands }, wiring);
    }
    if let Some(board) = board {
        set_waiting_gauge(&board, 0);
        tracing::debug!("the journal accepts writes again; every waiting message is published");
    }
    true
}

/// Commit `sealed` behind the batch out, which still waits for company: one commit takes
/// both. The batch out is landed first, then `sealed` is published or kept behind it.
async fn commit_behind(mut in_flight: InFlight, sealed: Sealed, wiring: &mut Wiring) -> bool {
    let own = wiring.journal.write_after(sealed.batch.clone());
    let answer = in_flight.answered().await;
    land(in_flight.into_sealed(), answer, wiring);
    let answer = match own {
        Ok(committed) => committed
            .await
            .unwrap_or(Err(crate::journal::JournalError::Closed)),
        Err(err) => Err(err),
    };
    match answer {
        Ok(()) => {
            publish(sealed, wiring);
            true
        }
        Err(err) => {
            let mut queue = wiring.unjournaled.take(None);
            queue.push_back(sealed);
            keep_refused(queue, &err, wiring);
            false
        }
    }
}

fn batch_board(queue: &std::collections::VecDeque<Sealed>) -> String {
    queue
        .front()
        .map(|sealed| sealed.batch.board.clone())
        .unwrap_or_default()
}

fn set_waiting_gauge(board: &str, batches: usize) {
    metrics::gauge!("goban_journal_unjournaled_batches", "board" => board.to_owned())
        .set(batches as f64);
}

fn send_command(wiring: &Wiring, command: &DeviceCommand) {
    let (kind, frame) = command_frame(command);
    let Some((handle, _)) = wiring
        .links
        .values()
        .find(|(_, kinds)| kinds.contains(&kind))
    else {
        return;
    };
    if let Err(err) = handle.send(frame) {
        tracing::debug!(cause = %err, "device command not queued");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_carry_date_board_and_number() {
        assert_eq!(
            game_id(1_796_029_200_123, "table-1", 3),
            "2026-11-30-table-1-3"
        );
    }
}

#[cfg(test)]
#[path = "supervisor_tests.rs"]
mod full_journal_tests;
