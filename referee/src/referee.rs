//! The sans-IO referee: `handle` inputs with their time, `poll_*` events, device commands and the next deadline.

use goban_rules::BoardSize;

use crate::command::DeviceCommand;
use crate::config::RefereeConfig;
use crate::debounce::Feed;
use crate::error::RefereeError;
use crate::event::{Event, EventKind};
use crate::input::{ClockKey, Device, Input, Reading};
use crate::machines::devices::Devices;
use crate::machines::outbox::Outbox;
use crate::machines::sight::Sight;
use crate::match_state::Match;
use crate::state::Link;
use crate::timeline::Timeline;
use crate::{Timestamp, guidance::Guidance};

/// The referee of one board: a deterministic state machine (referee-notes.md).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Referee {
    pub(crate) config: RefereeConfig,
    pub(crate) size: BoardSize,
    /// Events and device commands not polled yet (a checkpoint keeps none of it).
    #[serde(skip)]
    pub(crate) outbox: Outbox,
    /// The debounced board and whether it can see.
    #[serde(flatten)]
    pub(crate) sight: Sight,
    /// The devices' links, counters and alerts.
    #[serde(flatten)]
    pub(crate) devices: Devices,
    pub(crate) game: Option<Match>,
    pub(crate) games_started: u32,
    /// The time of the input (or deadline) being handled.
    pub(crate) now: Timestamp,
    pub(crate) guidance: Guidance,
    /// Recent steady readings and presses, for alerts' evidence.
    pub(crate) timeline: Timeline,
    /// The board port's lag behind the clock's, measured from play (issue 39.5).
    pub(crate) port_lag: crate::port_lag::PortLag,
    /// The physical end signals: resignation stones, off-board zones (CN2002 终局).
    pub(crate) ending: crate::machines::ending::Ending,
    /// Resignation and DONE keys pressed while the board was still settling: they wait for
    /// the stones placed before them (a resignation right after the last moves).
    pub(crate) waiting_keys: Vec<ClockKey>,
}

/// Which internal deadline is due next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Due {
    Settle,
    Clock,
    Tick,
    Grace,
    Pass,
    Zone,
    Claims,
}

impl Referee {
    /// A referee for one board.
    ///
    /// # Errors
    /// [`RefereeError::BadSize`] for sizes outside 2..=25.
    pub fn new(config: RefereeConfig) -> Result<Self, RefereeError> {
        let size = BoardSize::new(config.size).map_err(|_| RefereeError::BadSize(config.size))?;
        let points = size.points();
        Ok(Self {
            outbox: Outbox::default(),
            sight: Sight::new(
                points,
                config.settle_ms,
                crate::debounce::ChatterRule {
                    flips: config.chatter_flips,
                    window_ms: config.chatter_window_ms,
                    clear_ms: config.chatter_clear_ms,
                },
            ),
            size,
            config,
            devices: Devices::default(),
            game: None,
            games_started: 0,
            now: Timestamp(0),
            guidance: Guidance::default(),
            timeline: Timeline::default(),
            port_lag: crate::port_lag::PortLag::default(),
            waiting_keys: Vec::new(),
            ending: crate::machines::ending::Ending::default(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &RefereeConfig {
        &self.config
    }

    /// While on, events and device commands are dropped as they are made: for replaying a
    /// journal whose outputs were published before a restart, without building the thousands
    /// of clock readings and their timestamps again. The referee's state and deadlines are
    /// the same as with outputs on; only
    /// [`Referee::poll_event`] and [`Referee::poll_device_command`] have nothing to give.
    pub fn set_replaying(&mut self, on: bool) {
        self.outbox.set_replaying(on);
    }

    /// Handles one input received at `now`. Inputs must come in time order;
    /// deadlines that passed before `now` are handled first, at their own time.
    ///
    /// # Errors
    /// The input was refused; nothing changed apart from deadlines that fell due.
    pub fn handle(&mut self, now: Timestamp, input: Input) -> Result<(), RefereeError> {
        self.advance(now);
        self.now = now.max(self.now);
        let result = self.dispatch(input);
        self.advance(now);
        self.outbox.handle_input_done();
        result
    }

    fn dispatch(&mut self, input: Input) -> Result<(), RefereeError> {
        match input {
            Input::BoardSnapshot { points } => self.handle_snapshot(&points),
            Input::BoardDiff { changes } => match self.sight.handle_diff(self.now, &changes) {
                Feed::Accepted => Ok(()),
                Feed::Rejected => {
                    self.devices.handle_rejected(1);
                    Err(RefereeError::BadDiff)
                }
            },
            Input::BoardGap => {
                self.go_blind();
                self.devices.handle_gap();
                self.outbox.command(DeviceCommand::SnapRequest);
                self.emit_device();
                Ok(())
            }
            Input::FramesRejected { frames } => {
                self.devices.handle_rejected(frames);
                self.emit_device();
                Ok(())
            }
            Input::ClockGap => {
                self.devices.handle_gap();
                self.emit_device();
                Ok(())
            }
            Input::ClockPress { button } => {
                self.handle_press(button);
                Ok(())
            }
            Input::BacklogPress { button } => {
                self.handle_backlog_press(button);
                Ok(())
            }
            Input::ClockKey { key } => {
                let ends = !matches!(key, ClockKey::Pause | ClockKey::Resume);
                if ends
                    && self.game.is_some()
                    && self.sight.debouncer().earliest_pending().is_some()
                {
                    // The last moves may still be settling: they come first (order of events).
                    self.waiting_keys.push(key);
                    return Ok(());
                }
                self.handle_key(key)
            }
            Input::DeviceConnected { device } => {
                self.set_link(device, Link::Connected);
                Ok(())
            }
            Input::DeviceDisconnected { device } => {
                self.set_link(device, Link::Disconnected);
                Ok(())
            }
            Input::Timeout => Ok(()),
            Input::BoardZones { black, white } => {
                self.handle_zones(black, white);
                Ok(())
            }
            Input::Arbiter(command) => self.handle_act(crate::input::ArbiterAct {
                by: "arbiter".into(),
                note: None,
                command: self.confirming_resignation(command),
            }),
            Input::ArbiterAct(mut act) => {
                act.command = self.confirming_resignation(act.command);
                self.handle_act(act)
            }
        }
    }

    fn handle_snapshot(&mut self, points: &str) -> Result<(), RefereeError> {
        let readings: Vec<Reading> = points.chars().filter_map(Reading::from_char).collect();
        let expected = self.size.points();
        if readings.len() != expected || points.chars().count() != expected {
            self.devices.handle_rejected(1);
            return Err(RefereeError::BadSnapshot {
                got: readings.len(),
                expected,
            });
        }
        let _ = self.sight.handle_snapshot(self.now, &readings);
        Ok(())
    }

    fn set_link(&mut self, device: Device, link: Link) {
        if self.devices.handle_link(device, link) {
            match (device, link) {
                (Device::Board, Link::Connected) => self.outbox.command(DeviceCommand::SnapRequest),
                // Frames may be lost while the board is away: trust nothing until a snapshot.
                (Device::Board, Link::Disconnected) => {
                    self.go_blind();
                }
                (Device::Clock, Link::Disconnected) => self.note_clock_away(),
                _ => {}
            }
            self.emit_device();
        }
    }

    /// Handles every internal deadline up to `now`, each at its own instant.
    fn advance(&mut self, now: Timestamp) {
        // Each step clears or moves its deadline; the bound only guards against a logic slip.
        for _ in 0..10_000 {
            let Some((at, due)) = self.next_due() else {
                return;
            };
            if at > now {
                return;
            }
            self.now = at.max(self.now);
            match due {
                Due::Settle => {
                    if let Some(quiet) = self.sight.poll_quiet(at) {
                        self.handle_quiet(quiet);
                        self.review_end_signal();
                    }
                }
                Due::Clock => self.handle_clock_due(at),
                // A reading for MQTT `clock` and the `$SHOW` display while the clock runs (api.md).
                Due::Tick => self.emit_clock(),
                Due::Grace => self.handle_grace_due(),
                Due::Pass => self.handle_pass_due(),
                Due::Zone => self.handle_zones_due(),
                Due::Claims => self.handle_claims_due(),
            }
        }
    }

    fn next_due(&self) -> Option<(Timestamp, Due)> {
        // The earliest candidate, ties to the lower `Due`; no list is built (this runs at
        // every step of `advance`, every clock tick of a replay).
        let mut best: Option<(Timestamp, Due)> = None;
        let mut offer = |candidate: (Timestamp, Due)| {
            if best.is_none_or(|known| candidate < known) {
                best = Some(candidate);
            }
        };
        if let Some(t) = self.sight.poll_timeout() {
            offer((t, Due::Settle));
        }
        if let Some(t) = self.ending.poll_timeout(self.config.settle_ms) {
            offer((t, Due::Zone));
        }
        if let Some(m) = &self.game {
            if let Some(t) = m.clock.poll_timeout() {
                offer((t, Due::Clock));
            }
            if let Some(t) = m.tick_timeout(self.config.clock_tick_ms) {
                offer((t, Due::Tick));
            }
            if let Some(t) = m.grace_timeout(self.config.grace_ms) {
                offer((t, Due::Grace));
            }
            if let Some(t) = m.claims_timeout() {
                offer((t, Due::Claims));
            }
            if let Some(t) = m.pass_timeout(self.config.pass_decision_ms) {
                offer((t, Due::Pass));
            }
        }
        best
    }

    /// The next instant at which the referee has something to do; deliver `Input::Timeout` then.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        self.next_due().map(|(t, _)| t)
    }

    /// The next event, oldest first.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.outbox.poll_event()
    }

    /// The next command for a device.
    pub fn poll_device_command(&mut self) -> Option<DeviceCommand> {
        self.outbox.poll_command()
    }

    /// Queues an event.
    pub(crate) fn emit(&mut self, kind: EventKind) {
        let game = self.game.as_ref().map(Match::id);
        self.outbox.emit(&self.config.board, game, self.now, kind);
    }

    pub(crate) fn emit_device(&mut self) {
        self.devices.handle_interpretation(self.interpretation());
        self.emit(EventKind::Device {
            device: self.devices.state().clone(),
        });
        self.emit(EventKind::StateChanged);
    }
}
