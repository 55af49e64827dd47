//! One board's supervisor task: device links in, arbiter requests in, referee timeouts, journal commit, then publication.

use std::collections::BTreeMap;
use std::time::Duration;

use goban_hardware::{LinkEvent, LinkHandle};
use goban_protocol::DeviceKind;
use goban_referee::{ArbiterAct, ArbiterCommand, DeviceCommand, GameSetup, Input};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::control::{ControlMsg, act_of};
use super::core::BoardCore;
use super::devices::{command_frame, inputs_of};
use super::health::Health;
use crate::hub::{RequestError, Topic};

/// Most link events folded into one journal commit.
const MAX_BATCH: usize = 64;

/// The channels and links of one board.
pub struct Wiring {
    /// Events of every link of the board.
    pub events: mpsc::Receiver<LinkEvent>,
    /// Arbiter requests from the hub.
    pub requests: mpsc::Receiver<ControlMsg>,
    /// Link per port label, with the device kinds it serves.
    pub links: BTreeMap<String, (LinkHandle, Vec<DeviceKind>)>,
}

/// Host time now in ms since the Unix epoch: the only clock read of the board runtime.
pub fn now_ms() -> u64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

/// Run until `cancel`; then journal and publish a final device message.
pub async fn run(
    mut core: BoardCore,
    mut wiring: Wiring,
    autostart: bool,
    cancel: CancellationToken,
) {
    let mut health = Health::new(
        &core.id,
        wiring
            .links
            .iter()
            .map(|(port, (_, kinds))| (port.clone(), kinds.clone())),
    );
    if autostart && !core.has_game() {
        let _ = start_game(
            &mut core,
            &wiring,
            GameSetup::default(),
            "autostart".into(),
            None,
        )
        .await;
    }
    loop {
        let sleep = deadline_sleep(core.poll_timeout());
        tokio::select! {
            () = cancel.cancelled() => break,
            Some(event) = wiring.events.recv() => {
                on_link_event(&mut core, &mut health, &wiring, event);
                for _ in 1..MAX_BATCH {
                    let Ok(event) = wiring.events.try_recv() else { break };
                    on_link_event(&mut core, &mut health, &wiring, event);
                }
            }
            Some(msg) = wiring.requests.recv() => on_request(&mut core, &wiring, msg).await,
            () = sleep => { let _ = core.handle(now_ms(), Input::Timeout); }
        }
        commit(&mut core, &wiring).await;
    }
    let payload = health.message("stopped");
    core.push_event(Topic::Device, payload, now_ms());
    commit(&mut core, &wiring).await;
    tracing::info!("board stopped");
}

async fn deadline_sleep(deadline: Option<u64>) {
    match deadline {
        Some(at) => tokio::time::sleep(Duration::from_millis(at.saturating_sub(now_ms()))).await,
        None => std::future::pending().await,
    }
}

fn on_link_event(core: &mut BoardCore, health: &mut Health, wiring: &Wiring, event: LinkEvent) {
    let at = match &event {
        LinkEvent::Frame { at_ms, .. } => *at_ms,
        _ => now_ms(),
    };
    let port = port_of(&event);
    let expect = port.and_then(|p| wiring.links.get(p)).map_or_else(
        || vec![DeviceKind::Board, DeviceKind::Clock],
        |(_, kinds)| kinds.clone(),
    );
    for input in inputs_of(&event, &expect) {
        if let Err(err) = core.handle(at, input) {
            tracing::debug!(cause = %err, "referee refused a device input");
        }
    }
    if let Some(payload) = health.handle(&event) {
        core.push_event(Topic::Device, payload, at);
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

async fn on_request(core: &mut BoardCore, wiring: &Wiring, msg: ControlMsg) {
    let ControlMsg {
        request,
        who,
        reply,
    } = msg;
    tracing::info!(who = %who, "arbiter request");
    let answer = match act_of(request, &who) {
        Err(err) => Err(err),
        Ok(ArbiterAct {
            command: ArbiterCommand::StartGame(setup),
            by,
            note,
        }) => start_game(core, wiring, setup, by, note).await,
        Ok(act) => match core.handle(now_ms(), Input::ArbiterAct(act)) {
            Ok(()) => Ok(()),
            Err(err) => Err(RequestError::Rejected(err.to_string())),
        },
    };
    commit(core, wiring).await;
    // The client may have gone away; the ruling stands regardless.
    let _ = reply.send(answer.map(|()| core.state()));
}

/// Start a game: a fresh referee epoch if this one already held a game, then the journaled command.
async fn start_game(
    core: &mut BoardCore,
    wiring: &Wiring,
    mut setup: GameSetup,
    by: String,
    note: Option<String>,
) -> Result<(), RequestError> {
    if core.has_game() {
        if let Err(err) = core.rotate().await {
            tracing::error!(cause = %err, "could not close the previous game's journal epoch");
            return Err(RequestError::Unavailable(core.id.clone()));
        }
        // The new referee knows nothing yet: tell it which devices answer and ask the board for a snapshot.
        for (handle, kinds) in wiring.links.values() {
            if handle.stats().connected {
                for &kind in kinds {
                    let _ = core.handle(
                        now_ms(),
                        Input::DeviceConnected {
                            device: super::devices::device_of(kind),
                        },
                    );
                }
            }
        }
        send_command(wiring, &DeviceCommand::SnapRequest);
    }
    let now = now_ms();
    setup.game = Some(game_id(now, &core.id, core.epoch()));
    let act = ArbiterAct {
        by,
        note,
        command: ArbiterCommand::StartGame(setup),
    };
    core.handle(now, Input::ArbiterAct(act))
        .map_err(|err| RequestError::Rejected(err.to_string()))
}

/// "2026-11-30-table-1-3": the UTC date, the board, the board's epoch number.
fn game_id(now_ms: u64, board: &str, epoch: u64) -> String {
    let date = goban_referee::Timestamp(now_ms).to_rfc3339();
    format!("{}-{board}-{epoch}", date.get(..10).unwrap_or("0000-00-00"))
}

async fn commit(core: &mut BoardCore, wiring: &Wiring) {
    match core.commit().await {
        Ok(commands) => {
            for command in &commands {
                send_command(wiring, command);
            }
        }
        Err(err) => {
            tracing::error!(cause = %err, "journal write failed; its messages are not published")
        }
    }
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
