//! The desk's only contact with the board runtime: start a seated game, read a board's end of game and warnings.
//!
//! Everything that knows the hub's shape is here, so a change of the
//! runtime's interface touches this file only.

use goban_referee::clock::TimeControl;
use goban_referee::{ArbiterCommand, BoardState, GameSetup, Phase};
use goban_tournament::{Pairing, Round};

use crate::message::{Published, Topic};
use crate::publish::hub::{ArbiterRequest, Hub, Readiness};

/// The referee's game setup for a seated table: the round's number is the SGF `RO`, the
/// config's event and place its `EV` and `PC`. One handicap stone is an even game
/// without komi (Black simply moves first), the way pairing programs mean it.
pub(crate) fn setup(
    round: &Round,
    pairing: &Pairing,
    event: Option<&str>,
    place: Option<&str>,
) -> GameSetup {
    let (handicap, komi) = match pairing.handicap {
        1 => (0, Some(0.0)),
        h => (h, pairing.komi),
    };
    GameSetup {
        black: Some(round.display_name(&pairing.black).to_owned()),
        white: Some(round.display_name(&pairing.white).to_owned()),
        komi,
        handicap: Some(handicap),
        time_control: pairing.time_control.map(|t: TimeControl| t),
        colours_fixed: Some(pairing.colors_known),
        event: event.map(str::to_owned),
        round: Some(round.number.to_string()),
        place: place.map(str::to_owned),
        ..GameSetup::default()
    }
}

/// The fields of a board state the desk reads.
#[derive(Clone, Debug)]
pub(crate) struct StateView {
    pub(crate) board: String,
    pub(crate) game: Option<String>,
    pub(crate) phase: Phase,
    pub(crate) result: Option<String>,
    pub(crate) move_number: u32,
    pub(crate) warnings: [u32; 2],
}

impl StateView {
    fn of(state: &BoardState) -> Self {
        Self {
            board: state.board.clone(),
            game: state.game.clone(),
            phase: state.phase,
            result: state.result.clone(),
            move_number: state.move_number,
            warnings: [state.warnings.black, state.warnings.white],
        }
    }
}

/// Whether `board` is a board of this daemon (served, or still recovering after a restart).
pub(crate) fn exists(hub: &Hub, board: &str) -> bool {
    hub.control(board).is_some() || hub.readiness(board) == Some(Readiness::Recovering)
}

/// Starts the game on `board`; answers the new game id.
pub(crate) async fn start(
    hub: &Hub,
    board: &str,
    setup: GameSetup,
) -> Result<Option<String>, String> {
    // Right after a restart the board may still be recovering: its game starts once it is ready.
    let control =
        hub.control_when_ready(board)
            .await
            .ok_or_else(|| match hub.readiness(board) {
                Some(Readiness::Failed(why)) => {
                    format!("board {board} could not be recovered: {why}")
                }
                _ => format!("unknown board {board}"),
            })?;
    let request = ArbiterRequest {
        command: ArbiterCommand::StartGame(setup),
        by: "tournament".to_owned(),
        note: None,
    };
    let view = control.request(request).await.map_err(|e| e.to_string())?;
    Ok(view.state.game.clone())
}

/// The board's current state as the desk reads it.
pub(crate) fn current(hub: &Hub, board: &str) -> Option<StateView> {
    hub.view(board).map(|view| StateView::of(&view.state))
}

/// The state carried by a live published message, if it is one.
pub(crate) fn state_of(message: &Published) -> Option<StateView> {
    if message.topic != Topic::State {
        return None;
    }
    message.view.as_ref().map(|view| StateView::of(&view.state))
}

/// The hub's bus, for the watcher.
pub(crate) fn subscribe(hub: &Hub) -> tokio::sync::broadcast::Receiver<Published> {
    hub.subscribe()
}
