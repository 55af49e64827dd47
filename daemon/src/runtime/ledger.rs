//! A board's pure bookkeeping: the referee epoch, seq numbering, the pending journal batch and archive decisions; no I/O.
//!
//! The ledger turns referee outputs into numbered, serialized messages and
//! decides when they must be committed. The supervisor owns the effects:
//! journal, then publish, then device commands.

use std::sync::Arc;

use goban_referee::checkpoint::CheckpointError;
use goban_referee::{BoardState, DeviceCommand, Input, Phase, RefereeConfig, RefereeError};
use serde::Serialize;

use super::checkpoint_policy::CheckpointPolicy;
use super::engine::Engine;
use super::health::DeviceReport;
use crate::journal::{Batch, CheckpointRecord, GameRecord, InputRecord, Recovered};
use crate::message::{BoardView, Numbered, Payload, Published, Topic};

/// Why a board was not rebuilt from its journal.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RecoverError {
    /// The referee refused its configuration.
    #[error("referee: {0}")]
    Referee(#[from] RefereeError),
    /// The open game's checkpoint was refused (older format, damaged, another config): the
    /// caller replays the whole game instead.
    #[error("checkpoint: {0}")]
    Checkpoint(#[from] CheckpointError),
}

/// When the pending batch must be committed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Urgency {
    /// Nothing to publish: inputs that caused nothing visible wait for the next commit.
    Idle,
    /// Clock readings, their display, device reports: commit along with the next commit of any
    /// board, within the journal's lazy window.
    MayWait,
    /// A change of the game, an alert, a device command: commit now.
    Now,
}

/// What one commit carries: the batch to journal, then what to publish and send.
pub(crate) struct Sealed {
    /// Journal this first.
    pub(crate) batch: Batch,
    /// Then send these to the devices.
    pub(crate) commands: Vec<DeviceCommand>,
}

/// Everything one board numbers and journals.
pub(crate) struct Ledger {
    id: Arc<str>,
    config: RefereeConfig,
    engine: Engine,
    epoch: u64,
    epoch_open: bool,
    next_seq: u64,
    last_at: u64,
    view: Arc<BoardView>,
    state_due: bool,
    archived: Option<(String, String)>,
    batch: Batch,
    commands: Vec<DeviceCommand>,
    /// Something in the batch must be committed now (messages, commands, epoch changes).
    urgent: bool,
    /// Something in the batch is to be published, but nobody waits for it: clock readings and
    /// their display, device reports. It may wait for another commit to go along with.
    may_wait: bool,
    /// When the next batch carries a referee checkpoint.
    checkpoints: CheckpointPolicy,
}

impl Ledger {
    /// Rebuild a board from its journal: restore the open epoch's checkpoint if it has one,
    /// replay the inputs after it, continue its seq (the journal's: the referee keeps none).
    ///
    /// # Errors
    /// [`RecoverError::Checkpoint`] when the checkpoint is refused: recover again without it.
    pub(crate) fn recover(
        config: RefereeConfig,
        recovered: &Recovered,
    ) -> Result<Self, RecoverError> {
        let (mut engine, restored_at) = match &recovered.checkpoint {
            Some(checkpoint) => (Engine::restore(&config, checkpoint)?, checkpoint.at_ms),
            None => (Engine::new(config.clone())?, 0),
        };
        let last_at = engine.replay(&recovered.inputs).max(restored_at);
        if !recovered.inputs.is_empty() || recovered.checkpoint.is_some() {
            tracing::info!(
                inputs = recovered.inputs.len(),
                checkpoint = recovered.checkpoint.is_some(),
                last_seq = recovered.last_seq,
                "board rebuilt from the journal"
            );
        }
        let epoch = recovered.open_epoch.unwrap_or(recovered.last_epoch + 1);
        let id: Arc<str> = Arc::from(config.board.as_str());
        let mut state = engine.state();
        state.seq = recovered.last_seq;
        let archived = finished_key(&state);
        let header = engine.sgf_header().map(Arc::new);
        // The view keeps the seq and bytes of the last state published: the last seq may be a
        // clock reading's, and a state under it would be a second, different message.
        let view = match &recovered.last_state {
            Some((seq, live)) => BoardView::recovered(state, header, *seq, live.clone()),
            None => BoardView::build(state, header),
        };
        // A restored checkpoint's game and phase are those of the view unless the tail changed
        // them; without one the next batch with an input checkpoints.
        let seen = recovered
            .checkpoint
            .as_ref()
            .map(|_| (view.state.game.clone(), view.state.phase));
        let checkpoints = CheckpointPolicy::new(last_at, recovered.inputs.len(), seen);
        Ok(Self {
            batch: Batch::new(&id, epoch),
            id,
            config,
            engine,
            epoch,
            epoch_open: recovered.open_epoch.is_some(),
            next_seq: recovered.last_seq + 1,
            last_at,
            view,
            state_due: false,
            archived,
            commands: Vec::new(),
            urgent: false,
            may_wait: false,
            checkpoints,
        })
    }

    /// Board id.
    pub(crate) fn id(&self) -> &Arc<str> {
        &self.id
    }

    /// The board as of the last state numbered.
    pub(crate) fn view(&self) -> &Arc<BoardView> {
        &self.view
    }

    /// The highest seq numbered so far (0 before the first message).
    pub(crate) fn last_seq(&self) -> u64 {
        self.next_seq - 1
    }

    /// The SGF header of the game in progress, the last view's when it is the same.
    fn sgf_header(&self) -> Option<Arc<goban_referee::SgfHeader>> {
        let header = self.engine.sgf_header()?;
        match self.view.sgf_header() {
            Some(kept) if **kept == header => Some(kept.clone()),
            _ => Some(Arc::new(header)),
        }
    }

    /// Whether a game was ever started in this epoch.
    pub(crate) fn has_game(&self) -> bool {
        self.view.state.game.is_some()
    }

    /// The epoch's number, used in game ids.
    pub(crate) fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Next referee deadline in ms since the epoch.
    pub(crate) fn poll_timeout(&self) -> Option<u64> {
        self.engine.poll_timeout()
    }

    /// Feed one input at `at_ms` (kept monotonic), queueing its input record and numbered outputs.
    pub(crate) fn handle(&mut self, at_ms: u64, input: Input) -> Result<(), RefereeError> {
        let at = at_ms.max(self.last_at);
        self.last_at = at;
        let is_timeout = input == Input::Timeout;
        let json = match serde_json::to_string(&input) {
            Ok(json) => json,
            Err(err) => {
                tracing::error!(cause = %err, "input did not serialize; not applied");
                return Ok(());
            }
        };
        let (result, outputs) = self.engine.handle(at, input);
        let only_ticks = outputs.only_ticks();
        // A timeout that only ticked the clock is rebuilt by the next input's deadlines on replay.
        if !(is_timeout && only_ticks) {
            self.batch.inputs.push(InputRecord { at_ms: at, json });
            self.checkpoints.journaled();
        }
        self.state_due |= outputs.state_changed;
        for (topic, event) in outputs.events {
            let seq = self.take_seq();
            let payload = Payload::json(&Numbered::new(seq, &event));
            self.push(topic, at, seq, payload, only_ticks);
        }
        if only_ticks {
            self.may_wait |= !outputs.commands.is_empty();
        } else {
            self.urgent |= !outputs.commands.is_empty();
        }
        self.commands.extend(outputs.commands);
        result
    }

    /// Queue a daemon-made device message for publication with the next commit.
    pub(crate) fn push_device(&mut self, report: DeviceReport, at_ms: u64) {
        let seq = self.take_seq();
        let payload = Payload::json(&Numbered::new(seq, &report));
        self.push(Topic::Device, at_ms, seq, payload, true);
    }

    /// When the pending batch must be committed; inputs that caused nothing visible may wait
    /// for the next commit (nothing of them was seen, so nothing is lost if they are).
    pub(crate) fn urgency(&self) -> Urgency {
        if self.urgent || self.state_due {
            Urgency::Now
        } else if self.may_wait {
            Urgency::MayWait
        } else {
            Urgency::Idle
        }
    }

    /// Close the batch: number the state if the game changed, decide archiving; `None` when empty.
    pub(crate) fn seal(&mut self) -> Option<Sealed> {
        if self.state_due {
            self.state_due = false;
            self.push_state();
        }
        self.urgent = false;
        self.may_wait = false;
        let mut batch = std::mem::replace(&mut self.batch, Batch::new(&self.id, self.epoch));
        let commands = std::mem::take(&mut self.commands);
        if batch.is_empty() {
            return (!commands.is_empty()).then(|| Sealed { batch, commands });
        }
        if !batch.inputs.is_empty() && !self.epoch_open {
            batch.open_epoch = true;
            self.epoch_open = true;
        }
        batch.checkpoint = self.checkpoint_for(&batch);
        Some(Sealed { batch, commands })
    }

    /// The referee's checkpoint for `batch`, when the policy says one is due: its state after
    /// the batch's last input (and any clock tick since, which a replay would make again).
    fn checkpoint_for(&mut self, batch: &Batch) -> Option<CheckpointRecord> {
        let last = batch.inputs.last()?;
        let (game, phase) = (self.view.state.game.as_deref(), self.view.state.phase);
        if !self
            .checkpoints
            .is_due(batch.inputs.len(), last.at_ms, game, phase)
        {
            return None;
        }
        match self.engine.checkpoint() {
            Ok(state) => {
                self.checkpoints.taken(last.at_ms, game, phase);
                Some(CheckpointRecord {
                    at_ms: last.at_ms,
                    format: goban_referee::checkpoint::FORMAT,
                    state: state.into(),
                })
            }
            Err(err) => {
                // Recovery then replays more inputs; nothing is lost.
                tracing::error!(cause = %err, "the referee did not checkpoint");
                None
            }
        }
    }

    /// Close this epoch and start a fresh referee (a new game after a finished or abandoned one).
    pub(crate) fn rotate(&mut self) -> Option<Sealed> {
        self.batch.close_epoch = self.epoch_open || !self.batch.inputs.is_empty();
        let sealed = self.seal();
        self.epoch += 1;
        self.epoch_open = false;
        self.batch = Batch::new(&self.id, self.epoch);
        self.checkpoints = CheckpointPolicy::new(self.last_at, 0, None);
        // The same config built the first referee, so this cannot fail now.
        if let Ok(engine) = Engine::new(self.config.clone()) {
            self.engine = engine;
        }
        sealed
    }

    fn take_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    fn push(
        &mut self,
        topic: Topic,
        at_ms: u64,
        seq: u64,
        payload: Result<Payload, serde_json::Error>,
        may_wait: bool,
    ) {
        let payload = match payload {
            Ok(payload) => payload,
            Err(err) => {
                tracing::error!(cause = %err, "message did not serialize; not published");
                return;
            }
        };
        if may_wait {
            self.may_wait = true;
        } else {
            self.urgent = true;
        }
        self.batch.events.push(Published {
            board: self.id.clone(),
            seq,
            topic,
            at_ms,
            payload,
            view: None,
        });
    }

    /// The press that completed the last move: no new live state (its time went on `moves` as
    /// the completing correction, and on `clock`), but the full view (`GET /boards/{board}`, the
    /// SGF) takes the move's time at once. The view keeps the seq and bytes of the last live
    /// state, and rides on the newest message of the batch, so that REST, SSE and MQTT (through
    /// the broadcast delay) switch to it when that message is released.
    fn time_the_last_move(&mut self, mut state: BoardState) {
        state.seq = self.view.seq();
        let view = BoardView::with_live(state, self.sgf_header(), self.view.live.clone());
        if let Some(newest) = self.batch.events.last_mut() {
            newest.view = Some(view.clone());
        }
        self.view = view;
    }

    /// Number the new state, build its view; archive a finished game (or a corrected result).
    fn push_state(&mut self) {
        let mut state = self.engine.state();
        if !super::game_change::changes_the_game(&self.view.state, &state) {
            // Only the clock moved (a press, a reading): that goes on `clock`, not `state`.
            if super::game_change::times_the_last_move(&self.view.state, &state) {
                self.time_the_last_move(state);
            }
            return;
        }
        state.seq = self.take_seq();
        let key = finished_key(&state);
        let view = BoardView::build(state, self.sgf_header());
        if key.is_some() && key != self.archived {
            self.archived = key;
            self.batch.game = Some(game_record(&view, self.last_at));
        }
        self.urgent = true;
        self.batch.events.push(Published {
            board: self.id.clone(),
            seq: view.seq(),
            topic: Topic::State,
            at_ms: self.last_at,
            payload: view.live.clone(),
            view: Some(view.clone()),
        });
        self.view = view;
    }
}

/// The `/games` list entry of a finished game.
#[derive(Serialize)]
struct Summary<'a> {
    game: Option<&'a str>,
    board: &'a str,
    black: &'a str,
    white: &'a str,
    ruleset: goban_rules::Ruleset,
    komi: f64,
    size: u8,
    moves: u32,
    result: Option<&'a str>,
    /// The unit of the result's margin (stones under cn2002 and historical).
    result_unit: goban_rules::ScoreUnit,
    finished_at: String,
}

fn game_record(view: &BoardView, finished_ms: u64) -> GameRecord {
    let state = &view.state;
    let summary = Summary {
        game: state.game.as_deref(),
        board: &state.board,
        black: &state.black,
        white: &state.white,
        ruleset: state.ruleset,
        komi: state.komi,
        size: state.size,
        moves: state.move_number,
        result: state.result.as_deref(),
        result_unit: state.result_unit,
        finished_at: goban_referee::Timestamp(finished_ms).to_rfc3339(),
    };
    GameRecord {
        id: state.game.clone().unwrap_or_default(),
        finished_ms,
        summary: Payload::json(&summary).unwrap_or_default(),
        // Not through the view's cache: a finished board would keep its whole game's JSON
        // for as long as it shows the result, whether anyone asks for it or not.
        state: view.full_unkept(),
        sgf: view.sgf_unkept().unwrap_or_else(|err| {
            // The state JSON beside it still holds every move.
            tracing::error!(game = ?state.game, cause = %err, "finished game archived without its SGF");
            String::new()
        }),
    }
}

/// `(game, result)` of a finished game, the archive's identity of a final record.
fn finished_key(state: &BoardState) -> Option<(String, String)> {
    if state.phase != Phase::Finished {
        return None;
    }
    Some((state.game.clone()?, state.result.clone()?))
}
