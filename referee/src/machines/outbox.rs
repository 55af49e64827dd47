//! The referee's outbox: events numbered by `seq` and device commands, queued until polled.

use std::collections::VecDeque;

use crate::Timestamp;
use crate::command::DeviceCommand;
use crate::event::{Event, EventKind};
use crate::state::SCHEMA_VERSION;

/// What the referee has to say, in order: events with their `seq`, and device commands.
/// Only the next `seq` is state (a checkpoint keeps it); queued outputs were handed out
/// before any checkpoint is taken.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Outbox {
    /// The `seq` of the next event.
    seq: u64,
    #[serde(skip)]
    events: VecDeque<Event>,
    #[serde(skip)]
    commands: VecDeque<DeviceCommand>,
    /// Replaying a journal: outputs are numbered but dropped as they are made.
    #[serde(skip)]
    replaying: bool,
}

impl Outbox {
    /// An empty outbox whose first event gets `first_seq`.
    pub(crate) fn new(first_seq: u64) -> Self {
        Self {
            seq: first_seq,
            events: VecDeque::new(),
            commands: VecDeque::new(),
            replaying: false,
        }
    }

    /// While on, outputs are numbered but dropped (see `Referee::set_replaying`).
    pub(crate) fn set_replaying(&mut self, on: bool) {
        self.replaying = on;
    }

    /// Queues an event of `board` (and `game`) at `at` with the next `seq`.
    pub(crate) fn emit(&mut self, board: &str, game: Option<&str>, at: Timestamp, kind: EventKind) {
        if !self.replaying {
            self.events.push_back(Event {
                v: SCHEMA_VERSION,
                seq: self.seq,
                board: board.to_owned(),
                game: game.map(str::to_owned),
                at: at.to_rfc3339(),
                kind,
            });
        }
        self.seq += 1;
    }

    /// Queues a command for a device.
    pub(crate) fn command(&mut self, command: DeviceCommand) {
        self.commands.push_back(command);
    }

    /// An input was handled: while replaying, the commands it made are dropped (they are few
    /// and cheap to make; dropping them here keeps every maker simple).
    pub(crate) fn handle_input_done(&mut self) {
        if self.replaying {
            self.commands.clear();
        }
    }

    /// The next event, oldest first.
    pub(crate) fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// The next command for a device.
    pub(crate) fn poll_command(&mut self) -> Option<DeviceCommand> {
        self.commands.pop_front()
    }

    /// The `seq` the next event gets.
    pub(crate) fn next_seq(&self) -> u64 {
        self.seq
    }
}
