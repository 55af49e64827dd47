//! A virtual-time table in the style of quinn's `Pair`: a physical board, a clock and the referee, driven by scripted hands.

use goban_referee::{
    ArbiterCommand, Button, ClockKey, DeviceCommand, Event, EventKind, GameSetup, Infraction,
    Input, PointChange, Reading, Referee, RefereeConfig, Timestamp,
};
use goban_rules::{BoardSize, Color, Point};

/// The start of virtual time: 2026-11-30T09:00:00Z.
pub const T0: u64 = 1_796_029_200_000;

/// A referee, the physical board it watches and a journal of every input.
pub struct Table {
    pub referee: Referee,
    pub now: Timestamp,
    pub board: Vec<Reading>,
    pub size: BoardSize,
    pub journal: Vec<(Timestamp, Input)>,
    pub events: Vec<Event>,
    pub commands: Vec<DeviceCommand>,
}

impl Table {
    /// A table whose referee has heard nothing yet: no device connected, no reading.
    pub fn unread(config: RefereeConfig) -> Self {
        let size = BoardSize::new(config.size).unwrap();
        let referee = Referee::new(config).unwrap();
        Self {
            referee,
            now: Timestamp(T0),
            board: vec![Reading::Empty; size.points()],
            size,
            journal: Vec::new(),
            events: Vec::new(),
            commands: Vec::new(),
        }
    }

    /// A table with an empty board of the configured size, devices connected.
    pub fn new(config: RefereeConfig) -> Self {
        let mut table = Self::unread(config);
        table.send(Input::DeviceConnected {
            device: goban_referee::Device::Board,
        });
        table.send(Input::DeviceConnected {
            device: goban_referee::Device::Clock,
        });
        let points: String = table.board.iter().map(|r| r.to_char()).collect();
        table.send(Input::BoardSnapshot { points });
        table.wait(1_000);
        table
    }

    /// A 9x9 cn2002 table with defaults and a started game.
    pub fn nine() -> Self {
        Self::started(RefereeConfig {
            size: 9,
            ..RefereeConfig::default()
        })
    }

    /// A 9x9 game on a Fischer clock (10 minutes, 5 s a move) with E5 and C3 played.
    pub fn timed_nine() -> Self {
        let mut t = Self::new(RefereeConfig {
            size: 9,
            ..RefereeConfig::default()
        });
        t.arbiter(ArbiterCommand::StartGame(GameSetup {
            time_control: Some("fischer:main=10m,increment=5s".parse().unwrap()),
            ..GameSetup::default()
        }));
        t.play("E5", Color::Black, &[]);
        t.play("C3", Color::White, &[]);
        t
    }

    /// A table with a started game under `config`'s defaults.
    pub fn started(config: RefereeConfig) -> Self {
        let mut t = Self::new(config);
        t.arbiter(ArbiterCommand::StartGame(GameSetup::default()));
        t
    }

    /// Delivers one input now, after any deadline that fell due; records it in the journal.
    /// A 9x9 game of `setup` whose free handicap stones are put on `stones`, read and settled.
    pub fn with_free_handicap(setup: GameSetup, stones: &[&str]) -> Self {
        let mut t = Self::new(RefereeConfig {
            size: 9,
            ..RefereeConfig::default()
        });
        t.arbiter(ArbiterCommand::StartGame(GameSetup {
            handicap: Some(u8::try_from(stones.len()).unwrap()),
            free_handicap: Some(true),
            ..setup
        }));
        for p in stones {
            t.put(p, Color::Black);
            t.wait(800);
        }
        t.wait(3_000);
        t
    }

    pub fn send(&mut self, input: Input) {
        self.deliver_timeouts(self.now);
        self.journal.push((self.now, input.clone()));
        let _ = self.referee.handle(self.now, input);
        self.drain();
    }

    /// Delivers an input and returns the referee's answer.
    pub fn try_send(&mut self, input: Input) -> Result<(), goban_referee::RefereeError> {
        self.deliver_timeouts(self.now);
        self.journal.push((self.now, input.clone()));
        let r = self.referee.handle(self.now, input);
        self.drain();
        r
    }

    fn deliver_timeouts(&mut self, until: Timestamp) {
        while let Some(t) = self.referee.poll_timeout() {
            if t > until {
                break;
            }
            let at = t.max(self.journal.last().map_or(t, |j| j.0));
            self.journal.push((at, Input::Timeout));
            let _ = self.referee.handle(at, Input::Timeout);
            self.drain();
        }
    }

    fn drain(&mut self) {
        while let Some(e) = self.referee.poll_event() {
            self.events.push(e);
        }
        while let Some(c) = self.referee.poll_device_command() {
            self.commands.push(c);
        }
    }

    /// Lets `ms` of virtual time pass, handling deadlines on the way.
    pub fn wait(&mut self, ms: u64) {
        let until = self.now.plus_ms(ms);
        self.deliver_timeouts(until);
        self.now = until;
    }

    /// The wire index of "D4".
    pub fn idx(&self, name: &str) -> usize {
        Point::parse_human(name, self.size).unwrap().index()
    }

    /// Sets raw readings now (one DIFF frame).
    pub fn set(&mut self, changes: &[(usize, Reading)]) {
        let mut frame = Vec::new();
        for &(i, r) in changes {
            if self.board[i] != r {
                self.board[i] = r;
                frame.push(PointChange {
                    index: i as u16,
                    state: r,
                });
            }
        }
        if !frame.is_empty() {
            self.send(Input::BoardDiff { changes: frame });
        }
    }

    /// A stone of `color` lands on `name`.
    pub fn put(&mut self, name: &str, color: Color) {
        let i = self.idx(name);
        self.set(&[(i, stone(color))]);
    }

    /// The stone on `name` is taken off.
    pub fn take(&mut self, name: &str) {
        let i = self.idx(name);
        self.set(&[(i, Reading::Empty)]);
    }

    /// A clock button.
    pub fn press(&mut self, button: Button) {
        self.send(Input::ClockPress { button });
    }

    /// Black's default button.
    pub fn press_black(&mut self) {
        self.press(Button::L);
    }

    /// White's default button.
    pub fn press_white(&mut self) {
        self.press(Button::R);
    }

    /// A clock key.
    pub fn key(&mut self, key: ClockKey) {
        self.send(Input::ClockKey { key });
    }

    /// An arbiter command.
    pub fn arbiter(&mut self, command: ArbiterCommand) {
        self.send(Input::Arbiter(command));
    }

    /// A clean move: stone, captures off one by one, press, then a pause.
    pub fn play(&mut self, name: &str, color: Color, captures: &[&str]) {
        self.put(name, color);
        self.wait(400);
        for c in captures {
            self.take(c);
            self.wait(350);
        }
        self.press(if color == Color::Black {
            Button::L
        } else {
            Button::R
        });
        self.wait(1_000);
    }

    /// Every alert raised so far.
    pub fn alerts(&self) -> Vec<Infraction> {
        self.referee.state().infractions
    }

    /// Moves announced, as "D4"/"pass" after corrections, from the state.
    pub fn moves(&self) -> Vec<String> {
        self.referee
            .state()
            .moves
            .into_iter()
            .map(|m| m.point.to_string())
            .collect()
    }

    /// Every event of a kind matching `f`.
    pub fn events_where(&self, f: impl Fn(&EventKind) -> bool) -> Vec<&Event> {
        self.events.iter().filter(|e| f(&e.kind)).collect()
    }
}

/// The reading of a stone of `color`.
pub fn stone(color: Color) -> Reading {
    match color {
        Color::Black => Reading::Black,
        Color::White => Reading::White,
    }
}
