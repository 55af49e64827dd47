//! One side's time under each system: where it stands after `e` ms of thinking, what a completed move changes, what comes next.
//!
//! Every function is a pure function of the side's state at the start of
//! its turn and the milliseconds it has run since, so a reading, a press
//! and the next deadline always agree, and replay is exact.

mod absolute;
mod byoyomi_cn;
mod byoyomi_jp;
mod canadian;
mod fischer;

use super::{ClockError, CountOutCall, TimeControl};

/// One side's time at an instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct SideTime {
    /// Main time left.
    pub(crate) main_ms: u64,
    /// Byo-yomi periods left (0 for systems without them).
    pub(crate) periods: u32,
    /// Time left in the current byo-yomi period or Canadian block.
    pub(crate) period_ms: u64,
    /// Moves left to make in the Canadian block.
    pub(crate) moves_left: Option<u32>,
    /// The side's time has run out.
    pub(crate) flagged: bool,
}

/// What a completed move gave back: for the ledger that proves no time is lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MoveCredit {
    /// Byo-yomi time used within a period that the move kept (CN2002 12.3: "不足60秒的着手不予计时").
    pub(crate) free_ms: u64,
    /// Time added: a Fischer increment, or a new Canadian block.
    pub(crate) bonus_ms: u64,
}

/// Something that happens at a known offset into a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Milestone {
    /// A count-out call.
    Call(CountOutCall),
    /// Main time ran out; overtime begins.
    OvertimeStarted,
    /// One byo-yomi period used.
    PeriodUsed { periods_left: u32 },
    /// Time is up.
    FlagFall,
}

/// The state before the first move.
pub(crate) fn initial(tc: &TimeControl) -> SideTime {
    let main_ms = tc.main().as_ms();
    match *tc {
        TimeControl::None | TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => {
            SideTime {
                main_ms,
                ..SideTime::default()
            }
        }
        TimeControl::ByoyomiCn {
            reserve: periods,
            period,
            ..
        }
        | TimeControl::ByoyomiJp {
            periods, period, ..
        } => SideTime {
            main_ms,
            periods,
            period_ms: period.as_ms(),
            ..SideTime::default()
        },
        TimeControl::Canadian { moves, block, .. } => SideTime {
            main_ms,
            period_ms: block.as_ms(),
            moves_left: Some(moves),
            ..SideTime::default()
        },
    }
}

/// Where a side stands after running `e` ms from `start`.
pub(crate) fn project(tc: &TimeControl, start: &SideTime, e: u64) -> SideTime {
    if start.flagged {
        return *start;
    }
    match *tc {
        TimeControl::None => *start,
        TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => absolute::project(start, e),
        TimeControl::ByoyomiCn { period, .. } | TimeControl::ByoyomiJp { period, .. } => {
            byoyomi_jp::project(start, e, period.as_ms())
        }
        TimeControl::Canadian { .. } => canadian::project(start, e),
    }
}

/// The state after a move completed `e` ms into a turn that began at `start`
/// (`at_press` is `project(start, e)` and must not be flagged).
pub(crate) fn finish_move(
    tc: &TimeControl,
    start: &SideTime,
    at_press: SideTime,
    e: u64,
) -> (SideTime, MoveCredit) {
    match *tc {
        TimeControl::None | TimeControl::Absolute { .. } => (at_press, MoveCredit::default()),
        TimeControl::Fischer { increment, max, .. } => {
            fischer::finish_move(at_press, increment, max)
        }
        TimeControl::ByoyomiCn { period, .. } | TimeControl::ByoyomiJp { period, .. } => {
            byoyomi_jp::finish_move(start, at_press, e, period.as_ms())
        }
        TimeControl::Canadian { moves, block, .. } => {
            canadian::finish_move(at_press, moves, block.as_ms())
        }
    }
}

/// Takes `ms` off a side's time outside of a turn (a correction or a late
/// start): main time first, then what overtime allows. Reaching zero with
/// no overtime to follow is a flag fall, as on a running clock.
pub(crate) fn deduct(tc: &TimeControl, state: &mut SideTime, ms: u64) {
    if ms < state.main_ms || matches!(tc, TimeControl::None) {
        state.main_ms = state.main_ms.saturating_sub(ms);
        return;
    }
    let excess = ms - state.main_ms;
    state.main_ms = 0;
    match *tc {
        TimeControl::ByoyomiCn { period, .. } | TimeControl::ByoyomiJp { period, .. } => {
            byoyomi_jp::deduct_excess(state, excess, period.as_ms());
        }
        TimeControl::Canadian { .. } => canadian::deduct_excess(state, excess),
        _ => absolute::flag(state),
    }
}

/// The earliest milestones at an offset of at least `from` ms into a turn that began at `start`.
pub(crate) fn next_milestones(
    tc: &TimeControl,
    start: &SideTime,
    from: u64,
) -> Option<(u64, Vec<Milestone>)> {
    if start.flagged {
        return None;
    }
    match *tc {
        TimeControl::None => None,
        TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => {
            absolute::next_milestones(start, from)
        }
        TimeControl::ByoyomiCn { period, .. } => {
            byoyomi_cn::next_milestones(start, from, period.as_ms())
        }
        TimeControl::ByoyomiJp { period, .. } => {
            byoyomi_jp::next_milestones(start, from, period.as_ms())
        }
        TimeControl::Canadian { .. } => canadian::next_milestones(start, from),
    }
}

/// How far into a turn that began at `start` the flag falls, if it can.
pub(crate) fn flag_offset(tc: &TimeControl, start: &SideTime) -> Option<u64> {
    if start.flagged {
        return Some(0);
    }
    match *tc {
        TimeControl::None => None,
        TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => Some(start.main_ms),
        TimeControl::ByoyomiCn { period, .. } | TimeControl::ByoyomiJp { period, .. } => {
            let whole = u64::from(start.periods.saturating_sub(1)).saturating_mul(period.as_ms());
            let overtime = match start.periods {
                0 => 0,
                _ => start.period_ms.saturating_add(whole),
            };
            Some(start.main_ms.saturating_add(overtime))
        }
        TimeControl::Canadian { .. } => Some(start.main_ms.saturating_add(start.period_ms)),
    }
}

/// CN2002 22.5: after a flag fall in the last period, the player may, on
/// the arbiter's ruling, pass instead and keep the same byo-yomi.
pub(crate) fn continue_after_flag(
    tc: &TimeControl,
    state: &SideTime,
) -> Result<SideTime, ClockError> {
    match *tc {
        TimeControl::ByoyomiCn { period, .. } | TimeControl::ByoyomiJp { period, .. } => {
            Ok(SideTime {
                main_ms: 0,
                periods: state.periods.max(1),
                period_ms: period.as_ms(),
                moves_left: None,
                flagged: false,
            })
        }
        _ => Err(ClockError::NoByoYomi),
    }
}

/// The article a flag fall breaks under this system.
pub(crate) fn flag_article(tc: &TimeControl) -> &'static str {
    match tc {
        TimeControl::ByoyomiCn { .. } => "CN2002 12.3, 22.5",
        TimeControl::ByoyomiJp { .. } => "JK 3",
        TimeControl::Canadian { .. } => "CN2002 12.5",
        _ => "CN2002 12.4",
    }
}

/// The milestones of `candidates` at the smallest offset of at least `from`.
fn earliest(candidates: Vec<(u64, Milestone)>, from: u64) -> Option<(u64, Vec<Milestone>)> {
    let at = candidates
        .iter()
        .map(|(o, _)| *o)
        .filter(|o| *o >= from)
        .min()?;
    let due = candidates
        .into_iter()
        .filter(|(o, _)| *o == at)
        .map(|(_, m)| m)
        .collect();
    Some((at, due))
}
