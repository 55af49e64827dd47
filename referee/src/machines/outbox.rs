//! The referee's outbox: events and device commands, queued until polled.

use std::collections::VecDeque;

use crate::Timestamp;
use crate::command::DeviceCommand;
use crate::event::{Event, EventKind};

/// What the referee has to say, in order: events and device commands. Events carry no number:
/// the daemon's ledger numbers every message of a board, the referee's and its own, with one
/// `seq`. Nothing of it is state: queued outputs were handed out before any checkpoint is
/// taken, so a checkpoint keeps none of it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outbox {
    events: VecDeque<Event>,
    commands: VecDeque<DeviceCommand>,
    /// Replaying a journal: outputs are dropped as they are made.
    replaying: bool,
}

impl Outbox {
    /// While on, outputs are dropped as they are made (see `Referee::set_replaying`).
    pub(crate) fn set_replaying(&mut self, on: bool) {
        self.replaying = on;
    }

    /// Queues an event of `board` (and `game`) at `at`.
    pub(crate) fn emit(&mut self, board: &str, game: Option<&str>, at: Timestamp, kind: EventKind) {
        if !self.replaying {
            self.events.push_back(Event {
                board: board.to_owned(),
                game: game.map(str::to_owned),
                at: at.to_rfc3339(),
                kind,
            });
        }
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
}
