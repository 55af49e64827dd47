//! The demo's tables: each plays one bundled game after another until the demo stops.

use std::time::Duration;

use goban_hardware::sim::{Act, Scenario, SimGame, SimTable, SimulateOptions, Step};
use goban_protocol::PointState;
use goban_referee::{ArbiterAct, ArbiterCommand, GameSetup};
use tokio_util::sync::CancellationToken;

use crate::publish::hub::Hub;

/// How long a finished game stays on the board before the players clear it (at speed 1.0).
const BETWEEN_GAMES: Duration = Duration::from_secs(60);

/// Who starts the demo's next games, in the journal and the SGF.
const DEMO_ARBITER: &str = "demo";

/// Keeps `table` playing: when its game ends, the stones are cleared, the daemon starts a new
/// game on the board and the table plays the next bundled game (round robin from `first`).
pub(crate) async fn keep_playing(
    mut table: SimTable,
    games: Vec<SimGame>,
    first: usize,
    options: SimulateOptions,
    hub: Hub,
    cancel: CancellationToken,
) {
    let pause = BETWEEN_GAMES.div_f64(options.profile.speed.max(0.01));
    let stride = options.boards.max(1);
    let mut next = first;
    loop {
        tokio::select! {
            () = cancel.cancelled() => return,
            _ = &mut table.table.driver => {}
        }
        next = (next + stride) % games.len().max(1);
        let Some(game) = games.get(next).cloned() else {
            return;
        };
        tokio::select! {
            () = cancel.cancelled() => return,
            () = tokio::time::sleep(pause) => {}
        }
        let name = game.name.clone();
        let scenario = Scenario {
            game,
            profile: options.profile,
            script: options.script.clone(),
            seed: options.seed.wrapping_add(next as u64),
        };
        let mut timeline = match scenario.build() {
            Ok(timeline) => timeline,
            Err(err) => {
                tracing::error!(cause = %err, "demo game not playable; the table stops");
                return;
            }
        };
        // The players clear the board first: the next game must begin on an empty board.
        let clear = clearing_steps(&table.table.readings());
        if !clear.is_empty() {
            table.table.play(
                goban_hardware::sim::Timeline {
                    steps: clear,
                    ..timeline.clone()
                },
                cancel.child_token(),
            );
            let _ = (&mut table.table.driver).await;
        }
        if !start_game(&hub, &table.name).await {
            return;
        }
        tracing::info!(board = %table.name, game = %name, "demo: next game");
        // A breath for the SNAP that the new game asks for, before the first stone.
        if let Some(first) = timeline.steps.first_mut() {
            first.delay += Duration::from_secs(1);
        }
        table.game = name;
        table.table.play(timeline, cancel.child_token());
    }
}

/// Every stone taken off the board and out of the off-board zones.
fn clearing_steps(readings: &[PointState]) -> Vec<Step> {
    let changes: Vec<(u16, PointState)> = readings
        .iter()
        .enumerate()
        .filter(|(_, state)| **state != PointState::Empty)
        .filter_map(|(i, _)| u16::try_from(i).ok().map(|i| (i, PointState::Empty)))
        .collect();
    let mut steps = Vec::new();
    if !changes.is_empty() {
        steps.push(Step {
            delay: Duration::ZERO,
            act: Act::Board { changes },
            note: "the players clear the board".into(),
        });
    }
    steps.push(Step {
        delay: Duration::ZERO,
        act: Act::Zones {
            black: PointState::Empty,
            white: PointState::Empty,
        },
        note: "the players empty the zones".into(),
    });
    steps
}

/// Asks the board's supervisor for a new game, as an arbiter would; `false` if it refused.
async fn start_game(hub: &Hub, board: &str) -> bool {
    let Some(control) = hub.control_when_ready(board).await else {
        return false;
    };
    let request = ArbiterAct {
        by: DEMO_ARBITER.into(),
        note: Some("demo: next game at this table".into()),
        command: ArbiterCommand::StartGame(GameSetup::default()),
    };
    match control.request(request).await {
        Ok(_) => true,
        Err(err) => {
            tracing::error!(board, cause = %err, "demo: the next game could not start");
            false
        }
    }
}
