//! Turns a recorded game, a human profile and a fault script into a seeded timeline of physical acts.

use crate::error::HardwareError;
use crate::sim::game::{SimGame, play_record};
use crate::sim::player::{HumanProfile, Plan};
use crate::sim::script::{Fault, FaultScript};
use crate::sim::timeline::{Act, Timeline};
use goban_protocol::{Button, Key, PointState};
use goban_rules::{Color, Game, Move, Point};
use rand::Rng;
use std::time::Duration;

/// Everything a table's timeline is built from.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The game to replay.
    pub game: SimGame,
    /// How the players behave.
    pub profile: HumanProfile,
    /// What goes wrong.
    pub script: FaultScript,
    /// RNG seed: the same seed gives the same timeline.
    pub seed: u64,
}

/// The state of the replay while its timeline is built.
pub(crate) struct Builder {
    pub(crate) plan: Plan,
    pub(crate) game: Game,
    /// Colours swapped at the clock from a `wrong_colour` on (CN2002 17.1).
    pub(crate) swapped: bool,
    /// Staged faults waiting for a move where they can happen (e.g. a ko to retake).
    pub(crate) pending: Vec<(u32, Fault)>,
    pub(crate) skipped: Vec<String>,
    /// Acts at absolute times (a stuck sensor's recovery), merged in at the end.
    pub(crate) deferred: Vec<(Duration, Act, String)>,
}

/// Per-move flags set by the script.
#[derive(Debug, Default)]
struct MoveFlags {
    premature_press: bool,
    wrong_capture: bool,
    think_ms: Option<u64>,
    after: Vec<Fault>,
    chatter: Vec<Fault>,
}

/// A state on the wire for a colour.
pub(crate) fn stone(color: Color) -> PointState {
    match color {
        Color::Black => PointState::Black,
        Color::White => PointState::White,
    }
}

impl Scenario {
    /// Builds the timeline. Errors only for a game the rules reject (an illegal recorded move
    /// or a board size protocol v1 does not know).
    pub fn build(&self) -> Result<Timeline, HardwareError> {
        if !matches!(self.game.size, 9 | 13 | 19) {
            return Err(self.game.error(format!(
                "board size {} is not 9, 13 or 19 (wire protocol v1)",
                self.game.size
            )));
        }
        let mut b = Builder {
            plan: Plan::new(self.game.size, self.profile, self.seed),
            game: self.game.start()?,
            swapped: false,
            pending: Vec::new(),
            skipped: Vec::new(),
            deferred: Vec::new(),
        };
        b.place_setup(&self.game);
        for (i, &(color, mv)) in self.game.moves.iter().enumerate() {
            let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let faults: Vec<Fault> = self.script.at(n).cloned().collect();
            b.handle_move(n, color, mv, faults)
                .map_err(|e| self.game.error(format!("move {n}: {e}")))?;
        }
        if let Some(loser) = self.game.resigned {
            b.resign(loser);
        }
        for (n, fault) in std::mem::take(&mut b.pending) {
            b.skipped.push(format!(
                "{fault:?} from move {n}: no move of the game allowed staging it"
            ));
        }
        Ok(b.finish())
    }
}

impl Builder {
    fn place_setup(&mut self, game: &SimGame) {
        if game.setup.is_empty() {
            return;
        }
        // Black puts the handicap stones down one at a time.
        for &(p, c) in &game.setup {
            self.plan.wait(300, 900);
            self.plan
                .board(vec![(p.0, stone(c))], "setup stone (handicap)");
        }
    }

    /// The clock button of a colour: L is Black's by default (wire protocol v1, "Clock to host").
    pub(crate) fn button(&self, color: Color) -> Button {
        match (color, self.swapped) {
            (Color::Black, false) | (Color::White, true) => Button::L,
            _ => Button::R,
        }
    }

    fn handle_move(
        &mut self,
        n: u32,
        color: Color,
        mv: Move,
        faults: Vec<Fault>,
    ) -> Result<(), String> {
        let mut flags = MoveFlags::default();
        for fault in faults {
            self.handle_fault(n, fault, &mut flags);
        }
        for fault in std::mem::take(&mut flags.chatter) {
            self.stage_chatter(n, mv, fault);
        }
        self.try_pending(n, color);
        match flags.think_ms {
            Some(ms) => self.plan.wait_literal(ms),
            None if self.plan.roll_instant() => self.plan.instant(),
            None => {
                self.plan.think(n);
                self.plan.reach();
            }
        }
        let note = format!("move {n}");
        let captured = play_record(&mut self.game, color, mv)
            .map_err(|e| format!("illegal recorded move: {e}"))?;
        let captured: Vec<u16> = captured.iter().map(|p| p.0).collect();
        match mv {
            Move::Pass => self
                .plan
                .press(self.button(color), &format!("{note} (pass)")),
            Move::Play(p) => self.play_stone(n, color, p.0, &captured, &flags),
        }
        for fault in flags.after {
            self.stage_after(n, color, mv, fault);
        }
        Ok(())
    }

    fn handle_fault(&mut self, n: u32, fault: Fault, flags: &mut MoveFlags) {
        match fault {
            Fault::LateStart { absent_ms } => self.plan.wait_literal(absent_ms),
            Fault::TimeForfeit { think_ms } => flags.think_ms = Some(think_ms),
            Fault::WrongColour => self.swapped = !self.swapped,
            Fault::PrematurePress => flags.premature_press = true,
            Fault::WrongCapture => flags.wrong_capture = true,
            Fault::DoubleMove { .. } | Fault::Takeback { .. } => flags.after.push(fault),
            Fault::Chatter { .. } => flags.chatter.push(fault),
            Fault::MissedCapture
            | Fault::ForbiddenPoint
            | Fault::KoViolation
            | Fault::OccupiedPoint
            | Fault::DisplacedStones { .. }
            | Fault::BoardDisturbed { .. } => self.pending.push((n, fault)),
            device_fault => self.handle_device_fault(n, device_fault),
        }
    }

    /// Faults of the devices and the line rather than of the players.
    fn handle_device_fault(&mut self, n: u32, fault: Fault) {
        let (act, note) = match fault {
            Fault::Garbage { device, bytes } => {
                let bytes = (0..bytes).map(|_| self.noise_byte()).collect();
                (
                    Act::Garbage {
                        device: device.kind(),
                        bytes,
                    },
                    "line noise",
                )
            }
            Fault::CrcError { device, count } => (
                Act::CorruptNext {
                    device: device.kind(),
                    count,
                },
                "CRC errors",
            ),
            Fault::DropFrames { device, count } => (
                Act::DropNext {
                    device: device.kind(),
                    count,
                },
                "frames lost",
            ),
            Fault::Unplug { device, down_ms } => (
                Act::Unplug {
                    device: device.kind(),
                    down_ms,
                },
                "cable pulled",
            ),
            Fault::ClockKey { key } => match wire_key(&key) {
                Some(key) => (Act::Key { key }, "clock key"),
                None => {
                    self.skipped
                        .push(format!("clock_key at move {n}: unknown key {key:?}"));
                    return;
                }
            },
            Fault::StuckSensor {
                point,
                state,
                duration_ms,
            } => {
                return self.stuck(n, point, state, duration_ms);
            }
            // Player faults are handled by `handle_fault`.
            _ => return,
        };
        self.plan.emit(act, format!("move {n}: {note}"));
    }

    /// A noise byte: anything but `$` (which would open a frame) and LF.
    fn noise_byte(&mut self) -> u8 {
        loop {
            let b: u8 = self.plan.rng.random();
            if b != b'$' && b != b'\n' {
                return b;
            }
        }
    }

    fn stuck(&mut self, n: u32, point: u16, state: Option<char>, duration_ms: u64) {
        let state = state
            .and_then(|c| u8::try_from(c).ok())
            .and_then(PointState::from_byte)
            .unwrap_or(PointState::Unknown);
        self.plan.emit(
            Act::Stuck {
                point,
                state: Some(state),
            },
            format!("move {n}: sensor {point} stuck"),
        );
        let at = self.plan.elapsed() + self.plan.scaled_ms(duration_ms);
        self.deferred.push((
            at,
            Act::Stuck { point, state: None },
            format!("sensor {point} recovers"),
        ));
    }

    /// An ordinary move, or one with a premature press, a missed or a wrong capture.
    fn play_stone(&mut self, n: u32, color: Color, p: u16, captured: &[u16], flags: &MoveFlags) {
        let note = format!("move {n}");
        let button = self.button(color);
        if flags.premature_press {
            self.plan.press(
                button,
                &format!("{note}: premature press before the stone (CN2002 17.4)"),
            );
        }
        self.plan.hover(p, stone(color), &note);
        self.plan.place(p, stone(color), &note);
        if self.take_missed_capture(captured) {
            self.plan.press(
                button,
                &format!(
                    "{note}: press with captured stones still on the board (CN2002 18.2, 22.6)"
                ),
            );
            self.plan
                .remove_one_by_one(captured, &format!("{note}: late"));
            return;
        }
        let wrongly = flags
            .wrong_capture
            .then(|| self.stage_wrong_capture(n, color))
            .flatten();
        self.plan.remove_one_by_one(captured, &note);
        if !flags.premature_press {
            self.plan.press(button, &note);
        }
        if let Some((q, state)) = wrongly {
            self.plan.wait(2_000, 6_000);
            self.plan.board(
                vec![(q, state)],
                format!("{note}: arbiter puts the wrongly removed stone back (CN2002 18.1)"),
            );
        }
    }

    /// Whether a pending `missed_capture` applies to a move that captures.
    fn take_missed_capture(&mut self, captured: &[u16]) -> bool {
        if captured.is_empty() {
            return false;
        }
        let Some(at) = self
            .pending
            .iter()
            .position(|(_, f)| *f == Fault::MissedCapture)
        else {
            return false;
        };
        self.pending.remove(at);
        true
    }

    /// Removes an opponent stone that is not captured; returns it to put back later.
    fn stage_wrong_capture(&mut self, n: u32, color: Color) -> Option<(u16, PointState)> {
        let opponent = stone(color.opponent());
        let victims: Vec<u16> = (0..self.plan.readings.len())
            .filter_map(|i| u16::try_from(i).ok())
            .filter(|&q| self.game.board().get(Point(q)) == Some(color.opponent()))
            .collect();
        if victims.is_empty() {
            self.skipped.push(format!(
                "wrong_capture at move {n}: no opponent stone on the board"
            ));
            return None;
        }
        let q = victims[self.plan.rng.random_range(0..victims.len())];
        self.plan.wait(300, 900);
        self.plan.board(
            vec![(q, PointState::Empty)],
            format!("move {n}: a stone with liberties removed (CN2002 18.1)"),
        );
        Some((q, opponent))
    }

    /// The loser resigns on the clock: the RESIGN key on their side (CN2002 7).
    fn resign(&mut self, loser: Color) {
        let key = match self.button(loser) {
            Button::L => Key::ResignL,
            Button::R => Key::ResignR,
        };
        self.plan.think(u32::MAX);
        self.plan
            .emit(Act::Key { key }, format!("{loser} resigns (CN2002 7)"));
    }

    fn finish(mut self) -> Timeline {
        let final_position = self.plan.readings.clone();
        let steps = self.plan.merge_deferred(std::mem::take(&mut self.deferred));
        Timeline {
            size: self.plan.size,
            steps,
            skipped: self.skipped,
            final_position,
        }
    }
}

/// A clock key from its wire spelling.
fn wire_key(text: &str) -> Option<Key> {
    [
        Key::Pause,
        Key::Resume,
        Key::ResignL,
        Key::ResignR,
        Key::DoneL,
        Key::DoneR,
    ]
    .into_iter()
    .find(|k| k.as_str() == text)
}
