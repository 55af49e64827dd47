//! The game clock state machine: starts on the arbiter's command, switches on presses that complete a move, announces what falls due.

use serde::{Deserialize, Serialize};

use super::events::ClockEvent;
use super::reading::{ClockReading, MoveTime, Show, SideReading};
use super::systems::{self, Milestone, SideTime};
use super::venue::Venue;
use super::{ClockError, Color, TimeControl};
use crate::Timestamp;

/// Where the clock stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Phase {
    /// Before the arbiter's start.
    NotStarted,
    /// The side to move's clock runs.
    Running,
    /// An arbiter stopped both clocks (CN2002 14).
    Paused,
    /// A flag fell; the clocks stand until the arbiter rules (CN2002 22.5).
    Flagged { side: Color, at: Timestamp },
}

/// The turn being timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Turn {
    /// Whose turn.
    pub(crate) side: Color,
    /// When the current stretch of running began.
    pub(crate) run_from: Timestamp,
    /// Milliseconds this turn ran before `run_from` (earlier stretches, before a pause).
    pub(crate) elapsed_before: u64,
    /// Milestones at offsets of at least this have not been announced yet.
    pub(crate) next_from: u64,
    /// Events are never stamped earlier than this (the last correction).
    pub(crate) floor: Timestamp,
}

impl Turn {
    pub(crate) fn begin(side: Color, now: Timestamp) -> Self {
        Self {
            side,
            run_from: now,
            elapsed_before: 0,
            next_from: 0,
            floor: now,
        }
    }

    /// The instant offset `offset` of this turn falls due while running.
    fn instant_of(&self, offset: u64) -> Timestamp {
        self.run_from
            .plus_ms(offset.saturating_sub(self.elapsed_before))
            .max(self.floor)
    }
}

/// One side's time accounts, from which conservation of time can be checked:
/// everything the clock ran is either charged (main time, whole periods,
/// block time) or free (byo-yomi moves within the period).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    /// Time the side's clock ran in finished stretches (the running stretch is not included).
    pub used_ms: u64,
    /// Byo-yomi time used by moves within their period, which costs nothing (CN2002 12.3).
    pub free_ms: u64,
    /// Time granted: Fischer increments, new Canadian blocks (CN2002 12.5).
    pub bonus_ms: u64,
}

/// Why the arbiter changed a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdjustmentReason {
    /// A clock fault or a wrong reading corrected (CN2002 22.8-22.9).
    Correction,
    /// Double deduction of a late player's absence (CN2002 22.1-22.2).
    LateStart,
}

/// A recorded change of a clock, with who made it (CN2002 22.8: a one-sided change needs the chief arbiter).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjustment {
    /// When.
    pub at: Timestamp,
    /// Whose clock.
    pub side: Color,
    /// Milliseconds added (negative: taken away), as requested.
    pub delta_ms: i64,
    /// Who made it.
    pub by: String,
    /// Why.
    pub reason: AdjustmentReason,
    /// The side's clock afterwards.
    pub after: SideReading,
}

/// A stretch of one side's clock running, kept for the first hour of the game only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct RunSegment {
    pub(crate) side: Color,
    pub(crate) from: Timestamp,
    pub(crate) to: Timestamp,
}

/// The game clock: time-control arithmetic over host timestamps, sans-IO.
///
/// Inputs: [`start`](Self::start), [`complete_move`](Self::complete_move),
/// [`pause`](Self::pause), [`resume`](Self::resume), [`adjust`](Self::adjust),
/// [`late_start`](Self::late_start),
/// [`convert_forfeit_to_pass`](Self::convert_forfeit_to_pass) and
/// [`handle_timeout`](Self::handle_timeout) at the instant
/// [`poll_timeout`](Self::poll_timeout) named.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Clock {
    pub(crate) tc: TimeControl,
    pub(crate) venue: Venue,
    pub(crate) phase: Phase,
    /// Each side's time; for the side to move, as it stood when its turn began.
    pub(crate) sides: [SideTime; 2],
    pub(crate) ledger: [Ledger; 2],
    pub(crate) turn: Option<Turn>,
    pub(crate) started_at: Option<Timestamp>,
    pub(crate) pending: Vec<ClockEvent>,
    pub(crate) adjustments: Vec<Adjustment>,
    pub(crate) run_log: Vec<RunSegment>,
    pub(crate) late_recorded: [bool; 2],
}

impl Clock {
    /// A clock for `tc`, not started, for a venue where players lodge on site (15 min late limit).
    #[must_use]
    pub fn new(tc: TimeControl) -> Self {
        let initial = systems::initial(&tc);
        Self {
            tc,
            venue: Venue::default(),
            phase: Phase::NotStarted,
            sides: [initial; 2],
            ledger: [Ledger::default(); 2],
            turn: None,
            started_at: None,
            pending: Vec::new(),
            adjustments: Vec::new(),
            run_log: Vec::new(),
            late_recorded: [false; 2],
        }
    }

    /// The same clock for another venue setting (CN2002 22.1-22.2 late limits).
    #[must_use]
    pub fn with_venue(mut self, venue: Venue) -> Self {
        self.venue = venue;
        self
    }

    /// The time control.
    #[must_use]
    pub fn time_control(&self) -> &TimeControl {
        &self.tc
    }

    /// Starts `first`'s clock on the arbiter's start command.
    pub fn start(&mut self, now: Timestamp, first: Color) -> Result<(), ClockError> {
        if self.phase != Phase::NotStarted {
            return Err(ClockError::AlreadyStarted);
        }
        self.started_at = Some(now);
        self.turn = Some(Turn::begin(first, now));
        self.phase = Phase::Running;
        Ok(())
    }

    /// A press that completes `mover`'s move: charges the move, applies the
    /// system's rule (period kept, increment, block count) and starts the
    /// opponent's clock. Returns the time for the move record.
    ///
    /// Events that fell due before `now` are queued for the next
    /// `handle_timeout` (count-out calls that were not announced in time are
    /// dropped). If `mover`'s flag fell before `now`, nothing is charged and
    /// [`ClockError::FlagFallen`] says when.
    pub fn complete_move(&mut self, now: Timestamp, mover: Color) -> Result<MoveTime, ClockError> {
        let turn = self.running_turn()?;
        if mover != turn.side {
            return Err(ClockError::NotYourTurn {
                mover,
                running: turn.side,
            });
        }
        self.catch_up(now, false);
        self.running_turn()?;
        let e = self.elapsed(&turn, now);
        let start = self.sides[mover.index()];
        let at_press = systems::project(&self.tc, &start, e);
        let (after, credit) = systems::finish_move(&self.tc, &start, at_press, e);
        let ledger = &mut self.ledger[mover.index()];
        ledger.used_ms = ledger.used_ms.saturating_add(e);
        ledger.free_ms = ledger.free_ms.saturating_add(credit.free_ms);
        ledger.bonus_ms = ledger.bonus_ms.saturating_add(credit.bonus_ms);
        let used = ledger.used_ms;
        self.sides[mover.index()] = after;
        self.close_stretch(&turn, now);
        self.turn = Some(Turn::begin(mover.opponent(), now));
        Ok(MoveTime {
            side: mover,
            used_ms: e,
            left: SideReading::from_state(&at_press, used),
            after: SideReading::from_state(&after, used),
        })
    }

    /// The next instant at which something falls due: a count-out call, a
    /// period's end, overtime starting, a flag fall; or the instant of an
    /// event already queued and not yet handled. `None` while stopped.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        if let Some(queued) = self.pending.first() {
            // Already due: a press or correction caught up with unhandled time.
            return Some(queued.at());
        }
        let turn = self.turn.filter(|_| self.phase == Phase::Running)?;
        let start = &self.sides[turn.side.index()];
        let (offset, _) = systems::next_milestones(&self.tc, start, turn.next_from)?;
        Some(turn.instant_of(offset))
    }

    /// Everything due by `now`, in order, each stamped with the instant it fell due.
    pub fn handle_timeout(&mut self, now: Timestamp) -> Vec<ClockEvent> {
        self.catch_up(now, true);
        std::mem::take(&mut self.pending)
    }

    /// The next queued event, if a press, pause or correction caught up
    /// with time that nobody handled (`handle_timeout` drains them too).
    pub fn poll_event(&mut self) -> Option<ClockEvent> {
        (!self.pending.is_empty()).then(|| self.pending.remove(0))
    }

    /// The api.md `clock` object at `now`.
    #[must_use]
    pub fn reading(&self, now: Timestamp) -> ClockReading {
        let side_at = |side: Color| {
            let (state, used) = self.live_state(side, now);
            SideReading::from_state(&state, used)
        };
        let running = self
            .turn
            .filter(|_| self.phase == Phase::Running)
            .map(|t| t.side);
        ClockReading {
            running,
            black: side_at(Color::Black),
            white: side_at(Color::White),
            to_move: self.turn.map(|t| t.side),
            paused: self.phase == Phase::Paused,
            flag_fallen: self.flag_fallen(),
            time_control: self.tc,
        }
    }

    /// The fields of the wire `$SHOW` frame at `now`.
    #[must_use]
    pub fn show(&self, now: Timestamp) -> Show {
        Show::from(&self.reading(now))
    }

    /// One side's time accounts (finished stretches only).
    #[must_use]
    pub fn ledger(&self, side: Color) -> Ledger {
        self.ledger[side.index()]
    }

    /// Every correction and late-start deduction, oldest first (CN2002 22.8-22.9).
    #[must_use]
    pub fn adjustments(&self) -> &[Adjustment] {
        &self.adjustments
    }

    /// Whether a side's clock is running (started, not paused, no flag down).
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.phase == Phase::Running && self.turn.is_some()
    }

    /// Whose flag fell, while the clock stands on it.
    #[must_use]
    pub fn flag_fallen(&self) -> Option<Color> {
        match self.phase {
            Phase::Flagged { side, .. } => Some(side),
            _ => None,
        }
    }

    /// The running turn, or why there is none.
    pub(crate) fn running_turn(&self) -> Result<Turn, ClockError> {
        match (self.phase, self.turn) {
            (Phase::Running, Some(turn)) => Ok(turn),
            (Phase::Paused, _) => Err(ClockError::Paused),
            (Phase::Flagged { side, at }, _) => Err(ClockError::FlagFallen { side, at_ms: at.0 }),
            _ => Err(ClockError::NotStarted),
        }
    }

    /// Milliseconds `turn` has run by `now`.
    pub(crate) fn elapsed(&self, turn: &Turn, now: Timestamp) -> u64 {
        match self.phase {
            Phase::Running => turn
                .elapsed_before
                .saturating_add(now.ms_since(turn.run_from)),
            _ => turn.elapsed_before,
        }
    }

    /// A side's time at `now` and the total its clock has run.
    pub(crate) fn live_state(&self, side: Color, now: Timestamp) -> (SideTime, u64) {
        let start = self.sides[side.index()];
        let used = self.ledger[side.index()].used_ms;
        match self.turn {
            Some(turn)
                if turn.side == side && matches!(self.phase, Phase::Running | Phase::Paused) =>
            {
                let e = self.elapsed(&turn, now);
                // A flag that fell but is not handled yet stops the count at the fall.
                let e = systems::flag_offset(&self.tc, &start).map_or(e, |fall| e.min(fall));
                (
                    systems::project(&self.tc, &start, e),
                    used.saturating_add(e),
                )
            }
            _ => (start, used),
        }
    }

    /// Announces the running turn's milestones due by `now`; a flag fall stops the clock.
    pub(crate) fn catch_up(&mut self, now: Timestamp, with_calls: bool) {
        let Some(mut turn) = self.turn.filter(|_| self.phase == Phase::Running) else {
            return;
        };
        let e = self.elapsed(&turn, now);
        let side = turn.side;
        let start = self.sides[side.index()];
        while let Some((offset, due)) = systems::next_milestones(&self.tc, &start, turn.next_from) {
            if offset > e {
                break;
            }
            turn.next_from = offset.saturating_add(1);
            self.turn = Some(turn);
            let at = turn.instant_of(offset);
            for milestone in due {
                self.announce(side, &start, offset, at, milestone, with_calls);
            }
            // Past a flag fall nothing more happens; past u64::MAX nothing can.
            if matches!(self.phase, Phase::Flagged { .. }) || offset == u64::MAX {
                return;
            }
        }
    }

    fn announce(
        &mut self,
        side: Color,
        start: &SideTime,
        offset: u64,
        at: Timestamp,
        m: Milestone,
        calls: bool,
    ) {
        let event = match m {
            Milestone::Call(call) if calls => ClockEvent::Call { side, at, call },
            Milestone::Call(_) => return,
            Milestone::OvertimeStarted => {
                let state = systems::project(&self.tc, start, offset);
                ClockEvent::OvertimeStarted {
                    side,
                    at,
                    periods: state.periods,
                    moves: state.moves_left,
                }
            }
            Milestone::PeriodUsed { periods_left } => ClockEvent::PeriodUsed {
                side,
                at,
                periods_left,
            },
            Milestone::FlagFall => {
                self.fall(side, offset, at);
                let article = systems::flag_article(&self.tc).to_owned();
                ClockEvent::FlagFall { side, at, article }
            }
        };
        self.pending.push(event);
    }

    /// The running side's flag fell `offset` ms into its turn: charge up to there and stop.
    fn fall(&mut self, side: Color, offset: u64, at: Timestamp) {
        let start = self.sides[side.index()];
        self.sides[side.index()] = systems::project(&self.tc, &start, offset);
        let ledger = &mut self.ledger[side.index()];
        ledger.used_ms = ledger.used_ms.saturating_add(offset);
        if let Some(turn) = self.turn {
            self.close_stretch(&turn, at);
        }
        self.phase = Phase::Flagged { side, at };
    }
}
