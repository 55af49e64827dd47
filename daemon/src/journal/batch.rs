//! What one board hands the journal in one go: inputs, the messages they caused, epoch and game changes.

use crate::message::{Payload, Published};

/// One referee input as journaled: host receive time and the input's JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputRecord {
    /// Host time in ms since the epoch.
    pub at_ms: u64,
    /// The serialized referee input.
    pub json: String,
}

/// A referee checkpoint committed with the batch: the referee's state after the batch's last input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointRecord {
    /// The time of the last journaled input it includes (ms since the epoch).
    pub at_ms: u64,
    /// `goban_referee::checkpoint::FORMAT` of `state`.
    pub format: u32,
    /// The referee's checkpoint bytes (JSON); the writer packs them.
    pub state: std::sync::Arc<[u8]>,
}

/// A finished game as archived under `/games`.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game id, e.g. `2026-11-30-table-1-1`.
    pub id: String,
    /// Host time it was archived.
    pub finished_ms: u64,
    /// The `/games` list entry.
    pub summary: Payload,
    /// The final board state.
    pub state: Payload,
    /// The game record.
    pub sgf: String,
}

/// Writes of one board committed atomically, before anything in it is published.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// Board id.
    pub board: String,
    /// Epoch the inputs belong to.
    pub epoch: u64,
    /// Open this epoch first (a new referee lifetime).
    pub open_epoch: bool,
    /// Referee inputs, in order.
    pub inputs: Vec<InputRecord>,
    /// Messages to publish once committed.
    pub events: Vec<Published>,
    /// The referee's state after the last of `inputs` (ignored without inputs): replaces the
    /// epoch's checkpoint, so a restart replays only the inputs after it.
    pub checkpoint: Option<CheckpointRecord>,
    /// A game to archive (insert or replace, e.g. a corrected result).
    pub game: Option<GameRecord>,
    /// Close the epoch after this batch.
    pub close_epoch: bool,
}

impl Batch {
    /// An empty batch for `board` in `epoch`.
    pub fn new(board: &str, epoch: u64) -> Self {
        Self {
            board: board.to_owned(),
            epoch,
            ..Self::default()
        }
    }

    /// Nothing to write.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
            && self.events.is_empty()
            && self.game.is_none()
            && !self.open_epoch
            && !self.close_epoch
    }
}
