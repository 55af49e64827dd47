//! The desk's only contact with the board runtime: start a seated game, read a board's end of game and warnings.
//!
//! Everything that knows the hub's shape is here, so a change of the
//! runtime's interface touches this file only.

use goban_referee::Phase;
use goban_tournament::{Pairing, Round};
use serde::{Deserialize, Serialize};

use crate::hub::{ArbiterRequest, Hub, Published, Topic};

/// The `POST /boards/{b}/game` body for a seated table (api.md).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct SeatSetup {
    pub(crate) black: String,
    pub(crate) white: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) komi: Option<f64>,
    pub(crate) handicap: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) time_control: Option<String>,
    pub(crate) colours_fixed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) event: Option<String>,
}

impl SeatSetup {
    /// The setup of `pairing` in `round`. One handicap stone is an even game
    /// without komi (Black simply moves first), the way pairing programs mean it.
    pub(crate) fn new(round: &Round, pairing: &Pairing, event: Option<&str>) -> Self {
        let (handicap, komi) = match pairing.handicap {
            1 => (0, Some(0.0)),
            h => (h, pairing.komi),
        };
        Self {
            black: round.display_name(&pairing.black).to_owned(),
            white: round.display_name(&pairing.white).to_owned(),
            komi,
            handicap,
            time_control: pairing.time_control.map(|t| t.to_string()),
            colours_fixed: pairing.colors_known,
            event: event.map(|e| format!("{e}, round {}", round.number)),
        }
    }
}

/// The fields of a board state the desk reads; the rest is skipped unread.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct StateView {
    pub(crate) board: String,
    #[serde(default)]
    pub(crate) game: Option<String>,
    pub(crate) phase: Phase,
    #[serde(default)]
    pub(crate) result: Option<String>,
    #[serde(default)]
    pub(crate) move_number: u32,
    #[serde(default)]
    pub(crate) warnings: Warnings,
}

/// Warnings per colour as the state carries them.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub(crate) struct Warnings {
    #[serde(default)]
    pub(crate) black: u32,
    #[serde(default)]
    pub(crate) white: u32,
}

/// Whether `board` is a board of this daemon.
pub(crate) fn exists(hub: &Hub, board: &str) -> bool {
    hub.control(board).is_some()
}

/// Starts the game on `board`; answers the new game id.
pub(crate) async fn start(
    hub: &Hub,
    board: &str,
    setup: &SeatSetup,
) -> Result<Option<String>, String> {
    let control = hub
        .control(board)
        .ok_or_else(|| format!("unknown board {board}"))?;
    let body = serde_json::to_value(setup).map_err(|e| e.to_string())?;
    let state = control
        .request(ArbiterRequest::StartGame(body), "tournament".to_owned())
        .await
        .map_err(|e| e.to_string())?;
    let view = StateView::deserialize(&state).map_err(|e| e.to_string())?;
    Ok(view.game)
}

/// The board's current state as the desk reads it.
pub(crate) fn current(hub: &Hub, board: &str) -> Option<StateView> {
    let state = hub.state(board)?;
    StateView::deserialize(state.as_ref()).ok()
}

/// The state carried by a published message, if it is one.
pub(crate) fn state_of(message: &Published) -> Option<StateView> {
    (message.topic == Topic::State)
        .then(|| StateView::deserialize(message.payload.as_ref()).ok())?
}

/// The hub's bus, for the watcher.
pub(crate) fn subscribe(hub: &Hub) -> tokio::sync::broadcast::Receiver<Published> {
    hub.subscribe()
}
