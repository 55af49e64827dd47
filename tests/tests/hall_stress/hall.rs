//! One simulated table in virtual time: the simulator's board and clock, each port's lag, and the real referee fed in arrival order (v1) or in device-time order (SYNC).

use std::collections::BTreeMap;

use goban_hardware::ClockMap;
use goban_hardware::sim::{Act, BoardIdentity, BoardModel};
use goban_protocol::{BoardSize, DeviceKind, Frame, PointState, Text};
use goban_referee::{
    ArbiterCommand, Button, ClockKey, Device, DeviceCommand, EventKind, GameSetup, Input,
    PointChange, Reading, Referee, RefereeConfig, Timestamp,
};

use crate::tally::{GameLog, Noted};

/// An arbitrary wall-clock origin (ms since the epoch) for the virtual time.
const ORIGIN_MS: u64 = 1_800_000_000_000;
/// From replug to the link's `Connected` and the board's SNAP (handshake and backoff).
const HANDSHAKE_MS: u64 = 300;
/// Host to device, for a `$SNAP?`.
const DOWNLINK_MS: u64 = 2;
/// How long inputs are held back to be put in device-time order under SYNC: more than the
/// largest skew between the ports.
const SYNC_HOLD_MS: u64 = 400;
/// How often the host sends `$SYNC` to each device.
const SYNC_EVERY_MS: u64 = 5_000;
/// The devices' clocks: power-up before the session (ms) and drift (ppm), board and clock.
const DEVICE_CLOCKS: [(u64, f64); 2] = [(3_000, 80.0), (7_000, -60.0)];

/// How the two ports reach the host.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Wiring {
    /// Board frames reach the host this much later than the clock's (negative: earlier).
    pub(crate) skew_ms: i64,
    /// v1.1 SYNC: inputs carry the host time at which they happened on the device (device
    /// `ms` mapped through the SYNC echoes) and are delivered in that order.
    pub(crate) sync: bool,
    /// The referee's `port_skew_ms` as an operator would set it for v1 devices on a lagging
    /// port (`[referee] port_skew`); `None`: the default.
    pub(crate) port_skew_ms: Option<u64>,
}

/// What happens at the table at a given time.
#[derive(Clone, Debug)]
pub(crate) enum Cue {
    /// A physical act of the simulator.
    Act(Act),
    /// The arbiter starts a game.
    Start(GameSetup),
    /// Another arbiter command (e.g. recording the result).
    Arbiter(ArbiterCommand),
    /// A device is plugged in for the first time (or after an `Unplug` act, by itself).
    Plug(DeviceKind),
    /// The host (the daemon) is down for this many ms while the table plays on (issue 39.7):
    /// the device lines keep what was sent meanwhile, read in one burst when it is back (the
    /// clock's presses as a backlog, the board's frames dropped for a fresh SNAP).
    HostAway(u64),
    /// The host is back (scheduled by `HostAway`).
    HostBack,
}

enum Ev {
    Cue(Cue),
    SnapQuery,
    /// The replugged board's handshake is over: its frames flow again, starting with the
    /// SNAP of the board as it is then (stones placed during the handshake included).
    BoardUp,
    Deliver {
        stamp: u64,
        input: Input,
    },
    Deadline(u64),
    /// A `$SYNC` to device `.0`, of the tick chain `.1` (a replug starts a new one).
    SyncTick(usize, u32),
    Echo {
        device: usize,
        token: u32,
        device_ms: u32,
    },
}

/// The table, the referee and what each game produced.
pub(crate) struct Hall {
    referee: Referee,
    board: BoardModel,
    wiring: Wiring,
    up: [bool; 2],
    /// Frames still to be lost on the line, per device.
    to_lose: [u32; 2],
    /// A frame was lost since the last delivered one, per device.
    gap: [bool; 2],
    /// Board diffs withheld after a reported gap, until a SNAP.
    withholding: bool,
    /// The referee's time, ms from the session start (inputs never go back in time).
    now_ms: u64,
    /// The host is down (`Cue::HostAway`): presses wait on the clock's line.
    host_away: bool,
    /// Presses made while the host was down, in order.
    backlog: Vec<Button>,
    /// The last arrival on each port: a serial line keeps its order.
    last_arrival: [u64; 2],
    queue: BTreeMap<(u64, u64), Ev>,
    next_id: u64,
    deadline: Option<u64>,
    /// The host's map of each device's `ms` (SYNC only).
    maps: [ClockMap; 2],
    sync_chain: [u32; 2],
    /// No `$SYNC` after this time (the end of the cues).
    sync_until: u64,
    pub(crate) games: Vec<GameLog>,
}

/// The `ms` of device `i` at host time `host_ms` (from the session start).
fn device_ms(i: usize, host_ms: u64) -> u32 {
    let (before, ppm) = DEVICE_CLOCKS[i];
    let ms = (host_ms + before) as f64 * (1.0 + ppm / 1e6);
    // The wire's u32 counter wraps.
    (ms as u64 % (1 << 32)) as u32
}

fn slot(kind: DeviceKind) -> usize {
    match kind {
        DeviceKind::Board => 0,
        DeviceKind::Clock => 1,
    }
}

fn reading(state: PointState) -> Reading {
    match state {
        PointState::Empty => Reading::Empty,
        PointState::Black => Reading::Black,
        PointState::White => Reading::White,
        PointState::Unknown => Reading::Unknown,
    }
}

impl Hall {
    /// A 19x19 table with both devices unplugged and no game.
    pub(crate) fn new(wiring: Wiring) -> Self {
        let defaults = RefereeConfig::default();
        let config = RefereeConfig {
            size: 19,
            clock_tick_ms: 0,
            port_skew_ms: wiring.port_skew_ms.unwrap_or(defaults.port_skew_ms),
            ..defaults
        };
        let identity = BoardIdentity {
            firmware: Text::new("stress-1").expect("text"),
            serial: Text::new("STRESS-B1").expect("text"),
            diffs: true,
        };
        Self {
            referee: Referee::new(config).expect("referee"),
            board: BoardModel::new(BoardSize::NINETEEN, identity),
            wiring,
            up: [false; 2],
            to_lose: [0; 2],
            gap: [false; 2],
            withholding: false,
            now_ms: 0,
            host_away: false,
            backlog: Vec::new(),
            last_arrival: [0; 2],
            queue: BTreeMap::new(),
            next_id: 0,
            deadline: None,
            maps: [ClockMap::new(), ClockMap::new()],
            sync_chain: [0; 2],
            sync_until: 0,
            games: Vec::new(),
        }
    }

    /// Plays cues at their times (ms from the session start), then lets every deadline run
    /// out for a minute; the last game's log is closed.
    pub(crate) fn run(&mut self, cues: Vec<(u64, Cue)>) {
        let mut end = 0;
        for (at, cue) in cues {
            end = end.max(at);
            self.push(at, Ev::Cue(cue));
        }
        self.sync_until = end;
        while let Some(((at, _), ev)) = self.queue.pop_first() {
            self.handle(at, ev);
        }
        let last = self.now_ms.max(end) + 60_000;
        self.feed(last, Input::Timeout);
        self.close_game();
    }

    fn push(&mut self, at: u64, ev: Ev) {
        self.next_id += 1;
        self.queue.insert((at, self.next_id), ev);
    }

    fn lag(&self, kind: DeviceKind) -> u64 {
        let skew = self.wiring.skew_ms;
        1 + match kind {
            DeviceKind::Board => u64::try_from(skew.max(0)).unwrap_or(0),
            DeviceKind::Clock => u64::try_from((-skew).max(0)).unwrap_or(0),
        }
    }

    /// An input from a device port, which happened at `at` on the device.
    fn send(&mut self, kind: DeviceKind, at: u64, input: Input) {
        let i = slot(kind);
        let arrival = (at + self.lag(kind)).max(self.last_arrival[i] + 1);
        self.last_arrival[i] = arrival;
        // Under SYNC the stamp is the device's ms mapped by the host's `ClockMap`.
        let (stamp, key) = if self.wiring.sync {
            let stamp = self.maps[i]
                .map(device_ms(i, at), arrival)
                .unwrap_or(arrival);
            (stamp, stamp + SYNC_HOLD_MS)
        } else {
            (arrival, arrival)
        };
        self.push(key, Ev::Deliver { stamp, input });
    }

    /// An input made on the host at `at` (arbiter, link state): same order rules.
    fn send_host(&mut self, at: u64, input: Input) {
        let key = if self.wiring.sync {
            at + SYNC_HOLD_MS
        } else {
            at
        };
        self.push(key, Ev::Deliver { stamp: at, input });
    }

    fn handle(&mut self, at: u64, ev: Ev) {
        match ev {
            Ev::Cue(cue) => self.handle_cue(at, cue),
            Ev::BoardUp => {
                self.up[0] = true;
                self.board.reboot();
                let frame = self.board.snap(0);
                self.send_frame(at, frame);
            }
            Ev::SnapQuery => {
                if self.up[0] {
                    let frame = self.board.snap(0);
                    self.send_frame(at, frame);
                }
            }
            Ev::Deliver { stamp, input } => {
                if matches!(input, Input::Arbiter(ArbiterCommand::StartGame(_))) {
                    self.close_game();
                    self.rotate(stamp);
                    self.games.push(GameLog::default());
                }
                self.feed(stamp, input);
                self.after_feed(at);
            }
            Ev::SyncTick(i, chain) if chain == self.sync_chain[i] => self.sync_tick(at, i),
            Ev::SyncTick(..) => {}
            Ev::Echo {
                device,
                token,
                device_ms,
            } => {
                self.maps[device].handle_echo(token, device_ms, at);
            }
            Ev::Deadline(d) => {
                if self
                    .referee
                    .poll_timeout()
                    .is_some_and(|t| t.0 <= ORIGIN_MS + d)
                {
                    self.feed(d, Input::Timeout);
                }
                self.deadline = None;
                self.after_feed(at);
            }
        }
    }

    fn handle_cue(&mut self, at: u64, cue: Cue) {
        match cue {
            Cue::Start(setup) => {
                self.send_host(at, Input::Arbiter(ArbiterCommand::StartGame(setup)))
            }
            Cue::Arbiter(command) => self.send_host(at, Input::Arbiter(command)),
            Cue::Plug(kind) => self.plug(at, kind),
            Cue::Act(act) => self.handle_act(at, act),
            Cue::HostAway(down_ms) => self.host_away(at, down_ms),
            Cue::HostBack => self.host_back(at),
        }
    }

    /// The daemon goes down; its referee, recovered from the journal, knows nothing of it.
    fn host_away(&mut self, at: u64, down_ms: u64) {
        if self.host_away {
            return;
        }
        self.host_away = true;
        self.up[0] = false;
        self.push(at + down_ms, Ev::Cue(Cue::HostBack));
    }

    /// The daemon is back: the clock's link reads its line's backlog at once (after its
    /// handshake), then the board's link asks for a SNAP of the board as it is then.
    fn host_back(&mut self, at: u64) {
        self.host_away = false;
        let connected = at + HANDSHAKE_MS;
        self.send_host(
            connected,
            Input::DeviceConnected {
                device: Device::Clock,
            },
        );
        for button in std::mem::take(&mut self.backlog) {
            self.send_host(connected, Input::BacklogPress { button });
        }
        self.last_arrival[1] = self.last_arrival[1].max(connected);
        self.plug(at, DeviceKind::Board);
    }

    /// The host writes `$SYNC`; the device echoes it with its `ms` on arrival.
    fn sync_tick(&mut self, at: u64, i: usize) {
        if self.up[i] {
            let frame = self.maps[i].handle_send(at);
            if let Frame::Sync { token } = frame {
                let received = at + DOWNLINK_MS;
                let device_ms = device_ms(i, received);
                let kind = [DeviceKind::Board, DeviceKind::Clock][i];
                let arrival = (received + self.lag(kind)).max(self.last_arrival[i] + 1);
                self.last_arrival[i] = arrival;
                let echo = Ev::Echo {
                    device: i,
                    token,
                    device_ms,
                };
                self.push(arrival, echo);
            }
        }
        if at < self.sync_until {
            self.push(at + SYNC_EVERY_MS, Ev::SyncTick(i, self.sync_chain[i]));
        }
    }

    fn plug(&mut self, at: u64, kind: DeviceKind) {
        let i = slot(kind);
        if self.wiring.sync {
            // A rebooted device: a new map, synchronised as soon as it answers.
            self.maps[i].reset();
            self.sync_chain[i] += 1;
            // Right after the handshake (and the board's `BoardUp`).
            self.push(at + HANDSHAKE_MS + 1, Ev::SyncTick(i, self.sync_chain[i]));
        }
        let connected = (at + HANDSHAKE_MS + self.lag(kind)).max(self.last_arrival[i] + 1);
        self.last_arrival[i] = connected;
        // The board's frames count from the end of its handshake (`BoardUp`).
        self.up[i] = kind != DeviceKind::Board;
        self.gap[i] = false;
        let device = match kind {
            DeviceKind::Board => Device::Board,
            DeviceKind::Clock => Device::Clock,
        };
        self.send_host(connected, Input::DeviceConnected { device });
        if kind == DeviceKind::Board {
            // The board sends a SNAP after its HELLO, of the board as it is then.
            self.push(at + HANDSHAKE_MS, Ev::BoardUp);
        }
    }

    fn unplug(&mut self, at: u64, kind: DeviceKind, down_ms: u64) {
        let i = slot(kind);
        if !self.up[i] {
            return;
        }
        self.up[i] = false;
        // The port closes after what was already on its way.
        let gone = (at + 1).max(self.last_arrival[i] + 1);
        self.last_arrival[i] = gone;
        let device = match kind {
            DeviceKind::Board => Device::Board,
            DeviceKind::Clock => Device::Clock,
        };
        self.send_host(gone, Input::DeviceDisconnected { device });
        self.push(at + down_ms, Ev::Cue(Cue::Plug(kind)));
    }

    fn handle_act(&mut self, at: u64, act: Act) {
        match act {
            Act::Board { changes } => {
                if let Some(frame) = self.board.apply(&changes, 0) {
                    self.send_frame(at, frame);
                }
            }
            Act::Stuck { point, state } => {
                if let Some(frame) = self.board.set_stuck(point, state, 0) {
                    self.send_frame(at, frame);
                }
            }
            Act::Zones { black, white } => {
                if let Some(frame) = self.board.set_zones(black, white, 0) {
                    self.send_frame(at, frame);
                }
            }
            Act::Press { button } => {
                let button = match button {
                    goban_protocol::Button::L => Button::L,
                    goban_protocol::Button::R => Button::R,
                };
                if self.host_away {
                    self.backlog.push(button);
                } else {
                    self.send_clock(at, Input::ClockPress { button });
                }
            }
            Act::Key { key } => self.send_clock(
                at,
                Input::ClockKey {
                    key: clock_key(key),
                },
            ),
            Act::Garbage { .. } => {}
            Act::CorruptNext { device, count } | Act::DropNext { device, count } => {
                self.to_lose[slot(device)] += count;
            }
            Act::Unplug { device, down_ms } => self.unplug(at, device, down_ms),
        }
    }

    /// A board frame leaves the board at `at` (if it is powered and the line keeps it).
    fn send_frame(&mut self, at: u64, frame: Frame) {
        if !self.up[0] {
            return;
        }
        if self.to_lose[0] > 0 {
            self.to_lose[0] -= 1;
            self.gap[0] = true;
            return;
        }
        let input = match frame {
            Frame::Snap { points, .. } => {
                self.gap[0] = false;
                self.withholding = false;
                let points = points.iter().map(|&s| reading(s).to_char()).collect();
                Input::BoardSnapshot { points }
            }
            // The link saw the sequence gap: it reports it and withholds diffs until a SNAP.
            Frame::Diff { .. } if std::mem::take(&mut self.gap[0]) => {
                self.withholding = true;
                Input::BoardGap
            }
            Frame::Diff { .. } if self.withholding => return,
            Frame::Diff { changes, .. } => Input::BoardDiff {
                changes: changes
                    .iter()
                    .map(|c| PointChange {
                        index: c.point.0,
                        state: reading(c.state),
                    })
                    .collect(),
            },
            _ => return,
        };
        self.send(DeviceKind::Board, at, input);
    }

    fn send_clock(&mut self, at: u64, input: Input) {
        if !self.up[1] {
            return;
        }
        if self.to_lose[1] > 0 {
            self.to_lose[1] -= 1;
            self.gap[1] = true;
            return;
        }
        if std::mem::take(&mut self.gap[1]) {
            self.send(DeviceKind::Clock, at, Input::ClockGap);
        }
        self.send(DeviceKind::Clock, at, input);
    }

    /// What the daemon does before a game that is not the board's first
    /// (`daemon/src/runtime/supervisor.rs` `start_game`): a fresh referee epoch, told which
    /// devices answer, and a `$SNAP?` to the board; the start follows at once.
    fn rotate(&mut self, stamp: u64) {
        if self.games.is_empty() {
            return;
        }
        self.referee = Referee::new(self.referee.config().clone()).expect("referee");
        self.deadline = None;
        for (i, device) in [Device::Board, Device::Clock].into_iter().enumerate() {
            if self.up[i] {
                self.feed(stamp, Input::DeviceConnected { device });
            }
        }
        // Commands of the new referee (its own `$SNAP?`) are sent with the start's.
    }

    /// Hands an input to the referee at `stamp` and records what came out.
    fn feed(&mut self, stamp: u64, input: Input) {
        self.now_ms = self.now_ms.max(stamp);
        if tracing() {
            eprintln!("trace {} in {input:?}", self.now_ms);
        }
        let _ = self
            .referee
            .handle(Timestamp(ORIGIN_MS + self.now_ms), input);
        self.drain();
    }

    /// Device commands and the next deadline, after an input handled at host time `at`.
    fn after_feed(&mut self, at: u64) {
        let mut snap = false;
        while let Some(cmd) = self.referee.poll_device_command() {
            snap |= matches!(cmd, DeviceCommand::SnapRequest);
        }
        if snap {
            self.push(at + DOWNLINK_MS, Ev::SnapQuery);
        }
        if let Some(t) = self.referee.poll_timeout() {
            let d = t.0.saturating_sub(ORIGIN_MS);
            let key = if self.wiring.sync {
                d + SYNC_HOLD_MS
            } else {
                d
            };
            if self.deadline != Some(key) {
                self.deadline = Some(key);
                self.push(key.max(at), Ev::Deadline(d));
            }
        }
    }

    fn drain(&mut self) {
        while let Some(event) = self.referee.poll_event() {
            if tracing() {
                eprintln!("trace {} out {:?}", self.now_ms, event.kind);
            }
            let noted = match event.kind {
                EventKind::InfractionRaised { infraction } => Noted::Infraction {
                    kind: infraction.kind,
                    text: format!(
                        "{} ({}) move {} player {} points {:?}",
                        infraction.kind.id(),
                        infraction.article,
                        infraction.move_number,
                        infraction
                            .player
                            .map_or_else(|| "none".to_owned(), |c| format!("{c:?}")),
                        infraction.points
                    ),
                },
                EventKind::Device { device } => {
                    // Device events repeat the alert list: note each ask-the-arbiter alert once.
                    let Some(log) = self.games.last_mut() else {
                        continue;
                    };
                    for alert in device.alerts {
                        let asks = alert.kind == goban_referee::DeviceAlertKind::BoardUnavailable;
                        let seen = log
                            .noted
                            .iter()
                            .any(|n| matches!(n, Noted::Ask { id } if *id == alert.id));
                        if asks && !seen && alert.resolved_at.is_none() {
                            log.noted.push(Noted::Ask { id: alert.id });
                        }
                    }
                    continue;
                }
                _ => continue,
            };
            if let Some(log) = self.games.last_mut() {
                log.noted.push(noted);
            }
        }
    }

    /// Records the referee's moves and position into the current game's log.
    fn close_game(&mut self) {
        let state = self.referee.state();
        if let Some(log) = self.games.last_mut() {
            log.moves = state.moves.iter().map(|m| m.point.to_string()).collect();
            log.order_known = state.moves.iter().map(|m| m.order_known).collect();
            log.position = state.position.clone();
        }
    }
}

/// `GOBAN_STRESS_TRACE=1`: every input and event on stderr, to follow a failing game.
fn tracing() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("GOBAN_STRESS_TRACE").is_some())
}

fn clock_key(k: goban_protocol::Key) -> ClockKey {
    use goban_protocol::Key;
    match k {
        Key::Pause => ClockKey::Pause,
        Key::Resume => ClockKey::Resume,
        Key::ResignL => ClockKey::ResignL,
        Key::ResignR => ClockKey::ResignR,
        Key::DoneL => ClockKey::DoneL,
        Key::DoneR => ClockKey::DoneR,
    }
}
