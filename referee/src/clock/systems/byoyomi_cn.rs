//! Chinese byo-yomi (CN2002 12.3): the period arithmetic of byo-yomi with the arbiter's count-out calls.

use super::{Milestone, SideTime, byoyomi_jp};
use crate::clock::countout;

/// The next milestones: the count-out calls of each period, "1 minute, N left"
/// at each period's end and the flag fall at "10" of the last.
pub(super) fn next_milestones(
    start: &SideTime,
    from: u64,
    period: u64,
) -> Option<(u64, Vec<Milestone>)> {
    byoyomi_jp::next_with_calls(start, from, period, countout::period_calls)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::CountOutCall;

    const MINUTE: u64 = 60_000;

    fn build_offsets(start: &SideTime) -> Vec<(u64, Milestone)> {
        let mut from = 0;
        let mut all = Vec::new();
        while let Some((at, due)) = next_milestones(start, from, MINUTE) {
            all.extend(due.into_iter().map(|m| (at, m)));
            from = at + 1;
        }
        all
    }

    #[test]
    fn the_last_minute_ends_with_ten_then_the_flag() {
        let start = SideTime {
            main_ms: 0,
            periods: 1,
            period_ms: MINUTE,
            ..SideTime::default()
        };
        let all = build_offsets(&start);
        assert_eq!(all.len(), 3 + 10 + 1);
        assert_eq!(
            all[0],
            (
                30_000,
                Milestone::Call(CountOutCall::Elapsed { seconds: 30 })
            )
        );
        assert_eq!(
            all[3],
            (51_000, Milestone::Call(CountOutCall::Count { n: 1 }))
        );
        assert_eq!(
            all[12],
            (60_000, Milestone::Call(CountOutCall::Count { n: 10 }))
        );
        assert_eq!(all[13], (60_000, Milestone::FlagFall));
    }

    #[test]
    fn a_shortened_first_period_drops_calls_before_its_start() {
        // 20 s left in the current minute: only the 50, 55, 58 s calls remain.
        let start = SideTime {
            main_ms: 0,
            periods: 3,
            period_ms: 20_000,
            ..SideTime::default()
        };
        let all = build_offsets(&start);
        let first: Vec<_> = all.iter().take(4).copied().collect();
        assert_eq!(
            first,
            vec![
                (
                    10_000,
                    Milestone::Call(CountOutCall::Elapsed { seconds: 50 })
                ),
                (
                    15_000,
                    Milestone::Call(CountOutCall::Elapsed { seconds: 55 })
                ),
                (
                    18_000,
                    Milestone::Call(CountOutCall::Elapsed { seconds: 58 })
                ),
                (20_000, Milestone::PeriodUsed { periods_left: 2 }),
            ]
        );
    }
}
