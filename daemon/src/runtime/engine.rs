//! One board's referee behind a JSON-journalable face: build it from config, feed inputs, drain and classify outputs.

use goban_referee::checkpoint::CheckpointError;
use goban_referee::{
    BoardState, DeviceCommand, Event, EventKind, Input, Referee, RefereeConfig, RefereeError,
    Timestamp,
};

use crate::config::{BoardConfig, RefereeDefaults};
use crate::journal::{InputRecord, StoredCheckpoint};
use crate::message::Topic;

/// What one input produced, ready to be numbered and published.
#[derive(Debug, Default)]
pub(crate) struct Outputs {
    /// Events with their topic, not numbered yet: the ledger numbers them as it publishes.
    pub(crate) events: Vec<(Topic, Event)>,
    /// Commands for the devices.
    pub(crate) commands: Vec<DeviceCommand>,
    /// The game changed (anything but a clock reading): the live state is due.
    pub(crate) state_changed: bool,
}

impl Outputs {
    /// Only clock readings (or nothing): replaying the input is not needed to rebuild the referee,
    /// because the next input's deadlines reproduce it at the same instants.
    pub(crate) fn only_ticks(&self) -> bool {
        !self.state_changed
            && self
                .events
                .iter()
                .all(|(_, e)| matches!(e.kind, EventKind::Clock { .. }))
            && self
                .commands
                .iter()
                .all(|c| matches!(c, DeviceCommand::Show { .. }))
    }
}

/// A board's referee plus what the daemon needs around it.
pub(crate) struct Engine {
    referee: Referee,
    alerts: crate::telemetry::AlertMeter,
}

/// Map the daemon's board config onto the referee's.
pub(crate) fn referee_config(board: &BoardConfig, defaults: &RefereeDefaults) -> RefereeConfig {
    RefereeConfig {
        board: board.id.as_str().to_owned(),
        size: board.size.lines(),
        settle_ms: board.settle_time(defaults).as_ms(),
        port_skew_ms: defaults.port_skew.as_ms(),
        auto_sanction: board.auto_sanction(defaults).iter().copied().collect(),
        black_button: board.black_button,
        ruleset: board.ruleset,
        // Only a komi the config names: otherwise the game's own ruleset gives it (jk 6.5, ing 8).
        komi: board.komi,
        time_control: Some(board.time_control),
        black: board.black.clone(),
        white: board.white.clone(),
        resignation_signal: defaults.resignation_signal,
        venue: defaults.late_venue(),
        ..RefereeConfig::default()
    }
}

impl Engine {
    /// A fresh referee.
    pub(crate) fn new(config: RefereeConfig) -> Result<Self, RefereeError> {
        Ok(Self {
            referee: Referee::new(config)?,
            alerts: crate::telemetry::AlertMeter::default(),
        })
    }

    /// The referee a stored checkpoint was taken of, under `config` (refused if taken under another).
    pub(crate) fn restore(
        config: &RefereeConfig,
        checkpoint: &StoredCheckpoint,
    ) -> Result<Self, CheckpointError> {
        if !goban_referee::checkpoint::reads(checkpoint.format) {
            // Not even decoded: the referee would refuse it after reading it whole.
            return Err(CheckpointError::Format {
                found: checkpoint.format,
                supported: goban_referee::checkpoint::FORMAT,
            });
        }
        Ok(Self {
            referee: Referee::restore(config, &checkpoint.state)?,
            alerts: crate::telemetry::AlertMeter::default(),
        })
    }

    /// The referee's state now, for the journal: restoring it and replaying the inputs after it
    /// gives what replaying every input gives.
    pub(crate) fn checkpoint(&self) -> Result<Vec<u8>, CheckpointError> {
        self.referee.checkpoint()
    }

    /// Feed one input; outputs are collected even when the referee refuses it.
    pub(crate) fn handle(
        &mut self,
        now_ms: u64,
        input: Input,
    ) -> (Result<(), RefereeError>, Outputs) {
        self.alerts.prime(|| self.referee.state().device.alerts);
        let result = self.referee.handle(Timestamp(now_ms), input);
        (result, self.drain())
    }

    /// Replay journaled inputs in order; their outputs were published before the restart, so the
    /// referee does not even make them. Returns the latest input time (0 for none).
    pub(crate) fn replay(&mut self, inputs: &[InputRecord]) -> u64 {
        self.referee.set_replaying(true);
        let mut last_at = 0;
        for record in inputs {
            match serde_json::from_str::<Input>(&record.json) {
                Ok(input) => {
                    let _ = self.referee.handle(Timestamp(record.at_ms), input);
                }
                Err(err) => tracing::error!(
                    cause = %err,
                    input = %record.json,
                    "skipping an unreadable journaled input"
                ),
            }
            last_at = last_at.max(record.at_ms);
        }
        self.referee.set_replaying(false);
        last_at
    }

    /// The next instant at which a timeout input is due, in ms since the epoch.
    pub(crate) fn poll_timeout(&self) -> Option<u64> {
        self.referee.poll_timeout().map(|t| t.0)
    }

    /// The api.md board state.
    pub(crate) fn state(&self) -> BoardState {
        self.referee.state()
    }

    /// What the SGF of the game in progress holds besides its state (`None` before a game).
    pub(crate) fn sgf_header(&self) -> Option<goban_referee::SgfHeader> {
        self.referee.sgf_header()
    }

    fn drain(&mut self) -> Outputs {
        let mut out = Outputs::default();
        let mut last_tick = None;
        while let Some(event) = self.referee.poll_event() {
            super::story::log(&event.kind);
            self.alerts.count(&event);
            out.state_changed |= !matches!(
                event.kind,
                EventKind::Clock { .. } | EventKind::ClockCall { .. }
            );
            let Some(topic) = topic_of(&event.kind) else {
                continue;
            };
            if matches!(event.kind, EventKind::Clock { .. }) {
                // Readings of one input are coalesced: only the newest is news (a late timer, a restart).
                if let Some(at) = last_tick.replace(out.events.len()) {
                    out.events.remove(at);
                    last_tick = Some(out.events.len());
                }
            }
            out.events.push((topic, event));
        }
        while let Some(command) = self.referee.poll_device_command() {
            out.commands.push(command);
        }
        out
    }
}

/// The topic an event goes to; `None` for those only visible through the state topic.
pub(crate) fn topic_of(kind: &EventKind) -> Option<Topic> {
    match kind {
        // A correction with `was == now` is the completing update of a move shown before
        // its press (`time_left_ms`, `periods_left`): on `moves` (QoS 1) with the move, so
        // a subscriber to `moves` alone has every move's clock (issue 15).
        EventKind::MovePlayed { .. }
        | EventKind::Correction { .. }
        | EventKind::SetupBlock { .. } => Some(Topic::Moves),
        EventKind::InfractionRaised { .. } | EventKind::InfractionChanged { .. } => {
            Some(Topic::Infractions)
        }
        EventKind::Clock { .. } | EventKind::ClockCall { .. } | EventKind::FlagFall { .. } => {
            Some(Topic::Clock)
        }
        EventKind::Device { .. } => Some(Topic::Device),
        // Also in the state (`audit`) and at GET /boards/{board}/audit.
        EventKind::ArbiterAction { .. } => Some(Topic::Audit),
        EventKind::Phase { .. }
        | EventKind::Result { .. }
        | EventKind::Guidance { .. }
        | EventKind::StateChanged => None,
    }
}
