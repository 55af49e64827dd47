//! Canadian / stepped time (定时限步制, CN2002 12.5): after main time, K moves in each block of T; time left after the K moves carries over.

use super::{Milestone, MoveCredit, SideTime, absolute, earliest};

/// Main time runs down, then the block's time; the block running out is a flag fall.
pub(super) fn project(start: &SideTime, e: u64) -> SideTime {
    let mut now = *start;
    if e < start.main_ms {
        now.main_ms = start.main_ms - e;
        return now;
    }
    now.main_ms = 0;
    let in_block = e - start.main_ms;
    if in_block >= start.period_ms {
        absolute::flag(&mut now);
    } else {
        now.period_ms = start.period_ms - in_block;
    }
    now
}

/// A move made in overtime counts towards the block; after the K-th, a new
/// block begins with the unused time carried over (CN2002 12.5: "节余时间可延至下一节使用").
pub(super) fn finish_move(at_press: SideTime, moves: u32, block: u64) -> (SideTime, MoveCredit) {
    let mut after = at_press;
    if at_press.main_ms > 0 {
        return (after, MoveCredit::default());
    }
    let left = at_press.moves_left.unwrap_or(moves).saturating_sub(1);
    if left == 0 {
        after.moves_left = Some(moves);
        after.period_ms = at_press.period_ms.saturating_add(block);
        return (
            after,
            MoveCredit {
                free_ms: 0,
                bonus_ms: block,
            },
        );
    }
    after.moves_left = Some(left);
    (after, MoveCredit::default())
}

/// Time taken away beyond main time comes off the block.
pub(super) fn deduct_excess(state: &mut SideTime, excess: u64) {
    if excess >= state.period_ms {
        absolute::flag(state);
    } else {
        state.period_ms -= excess;
    }
}

/// Overtime starts when main time is used up; the flag falls when the block is.
pub(super) fn next_milestones(start: &SideTime, from: u64) -> Option<(u64, Vec<Milestone>)> {
    let mut candidates = Vec::new();
    if start.main_ms > 0 {
        candidates.push((start.main_ms, Milestone::OvertimeStarted));
    }
    candidates.push((
        start.main_ms.saturating_add(start.period_ms),
        Milestone::FlagFall,
    ));
    earliest(candidates, from)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLOCK: u64 = 600_000;

    fn build_start(main_ms: u64, moves_left: u32, period_ms: u64) -> SideTime {
        SideTime {
            main_ms,
            period_ms,
            moves_left: Some(moves_left),
            ..SideTime::default()
        }
    }

    #[test]
    fn block_time_runs_after_main_time() {
        let start = build_start(5_000, 15, BLOCK);
        assert_eq!(project(&start, 4_000).main_ms, 1_000);
        let in_block = project(&start, 65_000);
        assert_eq!((in_block.main_ms, in_block.period_ms), (0, 540_000));
        assert!(project(&start, 605_000).flagged);
    }

    #[test]
    fn the_kth_move_carries_unused_time_into_the_next_block() {
        let at_press = build_start(0, 1, 123_456);
        let (after, credit) = finish_move(at_press, 15, BLOCK);
        assert_eq!(after.moves_left, Some(15));
        assert_eq!(after.period_ms, 723_456);
        assert_eq!(credit.bonus_ms, BLOCK);
        let (after, credit) = finish_move(build_start(0, 7, 200_000), 15, BLOCK);
        assert_eq!(
            (after.moves_left, after.period_ms, credit.bonus_ms),
            (Some(6), 200_000, 0)
        );
    }

    #[test]
    fn moves_in_main_time_do_not_count() {
        let (after, _) = finish_move(build_start(1, 15, BLOCK), 15, BLOCK);
        assert_eq!(after.moves_left, Some(15));
    }

    #[test]
    fn milestones_are_overtime_then_the_flag() {
        let start = build_start(5_000, 15, BLOCK);
        assert_eq!(
            next_milestones(&start, 0),
            Some((5_000, vec![Milestone::OvertimeStarted]))
        );
        assert_eq!(
            next_milestones(&start, 5_001),
            Some((605_000, vec![Milestone::FlagFall]))
        );
    }
}
