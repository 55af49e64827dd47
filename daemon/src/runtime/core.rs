//! A board's runtime state: referee epoch, seq numbering, the pending journal batch, state and archive bookkeeping.

use std::sync::{Arc, RwLock};

use goban_referee::{DeviceCommand, Input, RefereeConfig, RefereeError};

use super::engine::{Engine, Outputs};
use crate::hub::{Hub, Published, Topic};
use crate::journal::{Batch, GameRecord, InputRecord, Journal, JournalError, Recovered};

/// Everything one board supervisor owns besides its channels and links.
pub struct BoardCore {
    /// Board id.
    pub id: String,
    config: RefereeConfig,
    engine: Engine,
    epoch: u64,
    epoch_open: bool,
    next_seq: u64,
    last_at: u64,
    last_state: serde_json::Value,
    archived: Option<(String, String)>,
    batch: Batch,
    commands: Vec<DeviceCommand>,
    journal: Journal,
    hub: Hub,
    sgf: Arc<RwLock<String>>,
}

impl BoardCore {
    /// Rebuild a board from its journal: replay the open epoch's inputs, continue its seq.
    pub fn recover(
        config: RefereeConfig,
        recovered: Recovered,
        journal: Journal,
        hub: Hub,
        sgf: Arc<RwLock<String>>,
    ) -> Result<Self, RefereeError> {
        let mut engine = Engine::new(config.clone())?;
        let mut last_at = 0;
        for input in &recovered.inputs {
            if let Err(err) = engine.replay(input.at_ms, &input.json) {
                tracing::error!(cause = %err, "skipping an unreadable journaled input");
            }
            last_at = last_at.max(input.at_ms);
        }
        if !recovered.inputs.is_empty() {
            tracing::info!(
                inputs = recovered.inputs.len(),
                last_seq = recovered.last_seq,
                "board rebuilt from the journal"
            );
        }
        let epoch = recovered.open_epoch.unwrap_or(recovered.last_epoch + 1);
        let id = config.board.clone();
        let mut core = Self {
            batch: Batch::new(&id, epoch),
            id,
            config,
            engine,
            epoch,
            epoch_open: recovered.open_epoch.is_some(),
            next_seq: recovered.last_seq + 1,
            last_at,
            last_state: serde_json::Value::Null,
            archived: None,
            commands: Vec::new(),
            journal,
            hub,
            sgf,
        };
        core.last_state = strip_seq(core.engine.state());
        core.archived = finished_key(&core.last_state);
        core.write_sgf();
        Ok(core)
    }

    /// The live state with the last published seq.
    pub fn state(&self) -> serde_json::Value {
        let mut state = self.last_state.clone();
        if let serde_json::Value::Object(map) = &mut state {
            map.insert("seq".into(), self.next_seq.saturating_sub(1).into());
        }
        state
    }

    /// Whether a game was ever started in this epoch.
    pub fn has_game(&self) -> bool {
        self.last_state.get("game").is_some_and(|g| !g.is_null())
    }

    /// Whether the referee holds no game or a finished one (a new game may start).
    pub fn game_over(&self) -> bool {
        self.last_state.get("phase").and_then(|p| p.as_str()) == Some("finished")
    }

    /// The epoch's number, used in game ids.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Next referee deadline in ms since the epoch.
    pub fn poll_timeout(&self) -> Option<u64> {
        self.engine.poll_timeout()
    }

    /// Host time of the newest input (inputs are kept monotonic).
    pub fn last_at(&self) -> u64 {
        self.last_at
    }

    /// Feed one input at `at_ms`, journaling it into the pending batch with its outputs.
    pub fn handle(&mut self, at_ms: u64, input: Input) -> Result<(), RefereeError> {
        let at = at_ms.max(self.last_at);
        self.last_at = at;
        let json = match serde_json::to_string(&input) {
            Ok(json) => json,
            Err(err) => {
                tracing::error!(cause = %err, "input did not serialize; not applied");
                return Ok(());
            }
        };
        let (result, Outputs { events, commands }) = self.engine.handle(at, input);
        self.batch.inputs.push(InputRecord { at_ms: at, json });
        for (topic, payload) in events {
            self.push_event(topic, payload, at);
        }
        self.commands.extend(commands);
        result
    }

    /// Queue a daemon-made message (device health) for publication with the next commit.
    pub fn push_event(&mut self, topic: Topic, mut payload: serde_json::Value, at_ms: u64) {
        let seq = self.next_seq;
        self.next_seq += 1;
        if let serde_json::Value::Object(map) = &mut payload {
            map.insert("v".into(), 1.into());
            map.insert("seq".into(), seq.into());
            map.insert("board".into(), self.id.clone().into());
        }
        self.batch.events.push(Published {
            board: self.id.clone(),
            seq,
            topic,
            at_ms,
            payload: Arc::new(payload),
        });
    }

    /// Close this epoch and start a fresh referee (a new game after a finished or abandoned one).
    pub async fn rotate(&mut self) -> Result<(), JournalError> {
        self.batch.close_epoch = self.epoch_open || !self.batch.inputs.is_empty();
        self.commit().await?;
        self.epoch += 1;
        self.epoch_open = false;
        self.batch = Batch::new(&self.id, self.epoch);
        self.engine = match Engine::new(self.config.clone()) {
            Ok(engine) => engine,
            // The same config built the first referee, so this cannot fail now.
            Err(err) => return Err(JournalError::Json(format!("referee config refused: {err}"))),
        };
        Ok(())
    }

    /// Journal everything pending, then publish it and send the device commands.
    pub async fn commit(&mut self) -> Result<Vec<DeviceCommand>, JournalError> {
        self.refresh_state();
        let mut batch = std::mem::replace(&mut self.batch, Batch::new(&self.id, self.epoch));
        let commands = std::mem::take(&mut self.commands);
        if batch.is_empty() {
            return Ok(commands);
        }
        if !batch.inputs.is_empty() && !self.epoch_open {
            batch.open_epoch = true;
            self.epoch_open = true;
        }
        let events = batch.events.clone();
        self.journal.write(batch).await?;
        for event in events {
            self.hub.publish(event);
        }
        Ok(commands)
    }

    /// Publish the state if it changed; archive a finished game (or a corrected result).
    fn refresh_state(&mut self) {
        let state = strip_seq(self.engine.state());
        if state == self.last_state {
            return;
        }
        self.last_state = state.clone();
        self.write_sgf();
        let key = finished_key(&state);
        if key.is_some() && key != self.archived {
            self.archived = key;
            self.batch.game = Some(self.game_record(&state));
        }
        self.push_event(Topic::State, state, self.last_at);
    }

    fn game_record(&self, state: &serde_json::Value) -> GameRecord {
        let pick = |key: &str| state.get(key).cloned().unwrap_or(serde_json::Value::Null);
        let summary = serde_json::json!({
            "game": pick("game"), "board": self.id, "black": pick("black"), "white": pick("white"),
            "ruleset": pick("ruleset"), "komi": pick("komi"), "size": pick("size"),
            "moves": pick("move_number"), "result": pick("result"),
            "finished_at": goban_referee::Timestamp(self.last_at).to_rfc3339(),
        });
        GameRecord {
            id: state
                .get("game")
                .and_then(|g| g.as_str())
                .unwrap_or_default()
                .to_owned(),
            finished_ms: self.last_at,
            summary,
            state: state.clone(),
            sgf: self.sgf.read().unwrap_or_else(|e| e.into_inner()).clone(),
        }
    }

    fn write_sgf(&self) {
        let text = self.engine.sgf();
        *self.sgf.write().unwrap_or_else(|e| e.into_inner()) = text;
    }
}

fn strip_seq(mut state: serde_json::Value) -> serde_json::Value {
    if let serde_json::Value::Object(map) = &mut state {
        map.remove("seq");
    }
    state
}

/// `(game, result)` of a finished game, the archive's identity of a final record.
fn finished_key(state: &serde_json::Value) -> Option<(String, String)> {
    let finished = state.get("phase").and_then(|p| p.as_str()) == Some("finished");
    let game = state.get("game").and_then(|g| g.as_str())?;
    let result = state.get("result").and_then(|r| r.as_str())?;
    finished.then(|| (game.to_owned(), result.to_owned()))
}
