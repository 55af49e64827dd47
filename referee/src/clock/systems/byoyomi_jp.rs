//! Byo-yomi periods (JK 3; the arithmetic of CN2002 12.3 too): a move within the period keeps it, each full period used costs one, the last one running out loses.

use super::{Milestone, MoveCredit, SideTime, absolute, earliest};
use crate::clock::CountOutCall;

/// After main time, the current period runs down; each full period used
/// costs one (reaching the period's end counts as using it, CN2002 12.3:
/// "达到60秒的视为已使用"); using the last one is a flag fall.
pub(super) fn project(start: &SideTime, e: u64, period: u64) -> SideTime {
    let mut now = *start;
    if e < start.main_ms {
        now.main_ms = start.main_ms - e;
        return now;
    }
    now.main_ms = 0;
    let in_overtime = e - start.main_ms;
    if in_overtime < start.period_ms {
        now.period_ms = start.period_ms - in_overtime;
        return now;
    }
    let over = in_overtime - start.period_ms;
    // `period` is more than zero: the grammar rejects `period=0s`.
    let used = 1 + over / period.max(1);
    if used >= u64::from(start.periods) {
        absolute::flag(&mut now);
        return now;
    }
    // `used < periods`, a u32, so the cast cannot truncate.
    now.periods = start.periods - used as u32;
    now.period_ms = period - over % period.max(1);
    now
}

/// A move within the period keeps it: the next move gets a full period again.
pub(super) fn finish_move(
    start: &SideTime,
    at_press: SideTime,
    e: u64,
    period: u64,
) -> (SideTime, MoveCredit) {
    let mut after = at_press;
    if at_press.main_ms > 0 {
        return (after, MoveCredit::default());
    }
    after.period_ms = period;
    let in_overtime = e.saturating_sub(start.main_ms);
    let used = u64::from(start.periods.saturating_sub(at_press.periods));
    let charged = match used {
        0 => 0,
        n => start
            .period_ms
            .saturating_add((n - 1).saturating_mul(period)),
    };
    (
        after,
        MoveCredit {
            free_ms: in_overtime.saturating_sub(charged),
            bonus_ms: 0,
        },
    )
}

/// Time taken away beyond main time costs whole periods only (CN2002 12.3:
/// only a full period counts as used); taking all of them is a flag fall.
pub(super) fn deduct_excess(state: &mut SideTime, excess: u64, period: u64) {
    let whole = excess / period.max(1);
    if whole >= u64::from(state.periods) {
        absolute::flag(state);
    } else {
        // `whole < periods`, a u32.
        state.periods -= whole as u32;
    }
}

/// Overtime start, then each period's end, without count-out calls.
pub(super) fn next_milestones(
    start: &SideTime,
    from: u64,
    period: u64,
) -> Option<(u64, Vec<Milestone>)> {
    next_with_calls(start, from, period, |_, _| Vec::new())
}

/// The next milestones of a turn in byo-yomi, with `calls(period, last)`
/// giving each period's count-out as `(ms before its end, call)`.
pub(super) fn next_with_calls(
    start: &SideTime,
    from: u64,
    period: u64,
    calls: impl Fn(u64, bool) -> Vec<(u64, CountOutCall)>,
) -> Option<(u64, Vec<Milestone>)> {
    let periods = u64::from(start.periods);
    if periods == 0 {
        // No period left (main time given back after a flag fall): main time is all there is.
        return earliest(vec![(start.main_ms, Milestone::FlagFall)], from);
    }
    let mut candidates = Vec::new();
    if start.main_ms > 0 {
        candidates.push((start.main_ms, Milestone::OvertimeStarted));
    }
    let first_end = start.main_ms.saturating_add(start.period_ms);
    let index = from.saturating_sub(first_end).div_ceil(period.max(1));
    if index < periods {
        let end = first_end.saturating_add(index.saturating_mul(period));
        let length = if index == 0 { start.period_ms } else { period };
        let left = periods - index;
        for (before, call) in calls(period, left == 1) {
            if before < length {
                candidates.push((end - before, Milestone::Call(call)));
            }
        }
        let closing = match left {
            1 => Milestone::FlagFall,
            // `left <= periods`, a u32.
            _ => Milestone::PeriodUsed {
                periods_left: (left - 1) as u32,
            },
        };
        candidates.push((end, closing));
    }
    earliest(candidates, from)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERIOD: u64 = 30_000;

    fn build_start(main_ms: u64, periods: u32) -> SideTime {
        SideTime {
            main_ms,
            periods,
            period_ms: PERIOD,
            ..SideTime::default()
        }
    }

    #[test]
    fn main_time_then_the_first_period() {
        let start = build_start(60_000, 5);
        assert_eq!(project(&start, 59_999, PERIOD).main_ms, 1);
        let entered = project(&start, 60_000, PERIOD);
        assert_eq!(
            (entered.main_ms, entered.periods, entered.period_ms),
            (0, 5, 30_000)
        );
        let later = project(&start, 71_500, PERIOD);
        assert_eq!((later.periods, later.period_ms), (5, 18_500));
    }

    #[test]
    fn overrunning_uses_one_period_per_period_elapsed() {
        let start = build_start(0, 5);
        let one = project(&start, 30_000, PERIOD);
        assert_eq!((one.periods, one.period_ms), (4, 30_000));
        let two = project(&start, 65_000, PERIOD);
        assert_eq!((two.periods, two.period_ms), (3, 25_000));
        let last = project(&start, 149_999, PERIOD);
        assert_eq!((last.periods, last.period_ms, last.flagged), (1, 1, false));
        assert!(project(&start, 150_000, PERIOD).flagged);
    }

    #[test]
    fn a_move_within_the_period_keeps_it_and_counts_as_free() {
        let start = build_start(0, 5);
        let at_press = project(&start, 29_999, PERIOD);
        let (after, credit) = finish_move(&start, at_press, 29_999, PERIOD);
        assert_eq!((after.periods, after.period_ms), (5, 30_000));
        assert_eq!(credit.free_ms, 29_999);
        let at_press = project(&start, 65_000, PERIOD);
        let (after, credit) = finish_move(&start, at_press, 65_000, PERIOD);
        assert_eq!((after.periods, after.period_ms), (3, 30_000));
        assert_eq!(credit.free_ms, 5_000);
    }

    #[test]
    fn deductions_cost_whole_periods_only() {
        let mut state = build_start(0, 5);
        deduct_excess(&mut state, 59_999, PERIOD);
        assert_eq!(state.periods, 4);
        deduct_excess(&mut state, 120_000, PERIOD);
        assert!(state.flagged);
    }

    #[test]
    fn milestones_are_overtime_then_period_ends_then_the_flag() {
        let start = build_start(10_000, 2);
        assert_eq!(
            next_milestones(&start, 0, PERIOD),
            Some((10_000, vec![Milestone::OvertimeStarted]))
        );
        let used = Some((40_000, vec![Milestone::PeriodUsed { periods_left: 1 }]));
        assert_eq!(next_milestones(&start, 10_001, PERIOD), used);
        assert_eq!(
            next_milestones(&start, 40_001, PERIOD),
            Some((70_000, vec![Milestone::FlagFall]))
        );
        assert_eq!(next_milestones(&start, 70_001, PERIOD), None);
    }
}
