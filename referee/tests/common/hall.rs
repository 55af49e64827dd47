//! Hall disturbances on the virtual table: an unplugged board, a chattering sensor, moves made meanwhile.

use goban_referee::{
    Button, Device, DeviceAlert, DeviceAlertKind, EventKind, Input, Reading, Referee,
    RefereeConfig, Timestamp,
};
use goban_rules::Color;

use super::table::{Table, stone};

/// A sensor toggling between two readings every `half_ms`.
#[derive(Clone, Copy, Debug)]
pub struct Chatter {
    pub point: usize,
    pub half_ms: u64,
    pub a: Reading,
    pub b: Reading,
    pub until: Timestamp,
    next: Timestamp,
    on_b: bool,
}

impl Chatter {
    /// Chatter at `hz` full cycles per second from now for `for_ms`.
    pub fn new(t: &Table, point: usize, hz: u64, a: Reading, b: Reading, for_ms: u64) -> Self {
        Self {
            point,
            half_ms: 500 / hz,
            a,
            b,
            until: t.now.plus_ms(for_ms),
            next: t.now,
            on_b: false,
        }
    }
}

/// Lets `ms` pass while the sensor chatters (the board keeps its last reading afterwards).
pub fn wait_chattering(t: &mut Table, chatter: &mut Chatter, ms: u64) {
    let end = t.now.plus_ms(ms);
    while chatter.next <= end && chatter.next < chatter.until {
        let step = chatter.next.0.saturating_sub(t.now.0);
        t.wait(step);
        chatter.on_b = !chatter.on_b;
        let r = if chatter.on_b { chatter.b } else { chatter.a };
        t.set(&[(chatter.point, r)]);
        chatter.next = chatter.next.plus_ms(chatter.half_ms);
    }
    if chatter.next >= chatter.until && chatter.on_b {
        // The fault ends with the point back on its true reading.
        chatter.on_b = false;
        let a = chatter.a;
        t.set(&[(chatter.point, a)]);
    }
    let left = end.0.saturating_sub(t.now.0);
    t.wait(left);
}

/// A clean move while a sensor chatters: the stone, `gap_ms`, the press, `after_ms`.
pub fn play_chattering(
    t: &mut Table,
    chatter: &mut Chatter,
    name: &str,
    color: Color,
    gap_ms: u64,
    after_ms: u64,
) {
    t.put(name, color);
    wait_chattering(t, chatter, gap_ms);
    t.press(button(color));
    wait_chattering(t, chatter, after_ms);
}

/// The button of `color` (default mapping).
pub fn button(color: Color) -> Button {
    if color == Color::Black {
        Button::L
    } else {
        Button::R
    }
}

/// The board's cable is pulled out.
pub fn unplug(t: &mut Table) {
    t.send(Input::DeviceDisconnected {
        device: Device::Board,
    });
}

/// The board is plugged in again and answers the referee's `$SNAP?`.
pub fn replug(t: &mut Table) {
    t.send(Input::DeviceConnected {
        device: Device::Board,
    });
    let points: String = t.board.iter().map(|r| r.to_char()).collect();
    t.send(Input::BoardSnapshot { points });
}

/// A stone placed while the board cannot report it.
pub fn put_unseen(t: &mut Table, name: &str, color: Color) {
    let i = t.idx(name);
    t.board[i] = stone(color);
}

/// A stone taken off while the board cannot report it.
pub fn take_unseen(t: &mut Table, name: &str) {
    let i = t.idx(name);
    t.board[i] = Reading::Empty;
}

/// Every device alert of a kind, as the state lists them.
pub fn device_alerts(t: &Table, kind: DeviceAlertKind) -> Vec<DeviceAlert> {
    t.referee
        .state()
        .device
        .alerts
        .into_iter()
        .filter(|a| a.kind == kind)
        .collect()
}

/// Moves the referee announced and never withdrew, from the events (a cross-check of the state).
pub fn phases(t: &Table) -> Vec<String> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Phase { phase } => Some(format!("{phase:?}")),
            _ => None,
        })
        .collect()
}

/// The daemon goes away (its restart marks both devices gone), the players go on, and the
/// daemon comes back: the clock's queued presses arrive at once, then the board answers.
pub fn away_then_back(t: &mut Table, moves: &[(&str, Color)], away_ms: u64) {
    away_then_back_taking(t, moves, &[], away_ms);
}

/// As [`away_then_back`], with `taken` (stones captured meanwhile) off the board when it reads.
pub fn away_then_back_taking(t: &mut Table, moves: &[(&str, Color)], taken: &[&str], away_ms: u64) {
    for device in [Device::Board, Device::Clock] {
        t.send(Input::DeviceDisconnected { device });
    }
    for &(p, c) in moves {
        t.wait(away_ms / (moves.len() as u64 + 1));
        put_unseen(t, p, c);
    }
    for p in taken {
        take_unseen(t, p);
    }
    t.wait(away_ms / (moves.len() as u64 + 1));
    t.send(Input::DeviceConnected {
        device: Device::Clock,
    });
    for &(_, c) in moves {
        t.send(Input::BacklogPress { button: button(c) });
    }
    t.wait(40);
    t.send(Input::DeviceConnected {
        device: Device::Board,
    });
    let points: String = t.board.iter().map(|r| r.to_char()).collect();
    t.send(Input::BoardSnapshot { points });
    t.wait(2_000);
}

/// The numbers of the moves recorded with their order unknown (setup blocks).
pub fn unordered(t: &Table) -> Vec<u32> {
    t.referee
        .state()
        .moves
        .iter()
        .filter(|m| !m.order_known)
        .map(|m| m.number)
        .collect()
}

/// The position of `game` as the state writes it: one of `B`, `W`, `.` per point.
pub fn position_of(game: &goban_rules::Game) -> String {
    super::physical::readings(game)
        .iter()
        .map(|r| r.to_char())
        .collect()
}

/// Asserts that `t`'s referee restores from its checkpoint to the same state (and the same
/// checkpoint), and that a new referee fed `t`'s journal reaches the same state; returns the
/// events of that replay.
pub fn assert_restores_and_replays(t: &Table, config: RefereeConfig) -> Vec<EventKind> {
    let bytes = t.referee.checkpoint().expect("checkpoint");
    let restored = Referee::restore(&config, &bytes).expect("restores");
    assert_eq!(restored.state(), t.referee.state());
    assert_eq!(restored.checkpoint().expect("checkpoint"), bytes);
    let mut again = Referee::new(config).expect("referee");
    let mut events = Vec::new();
    for (at, input) in &t.journal {
        let _ = again.handle(*at, input.clone());
        while let Some(e) = again.poll_event() {
            events.push(e.kind);
        }
    }
    assert_eq!(
        again.state(),
        t.referee.state(),
        "the journal replays to the same state"
    );
    events
}
