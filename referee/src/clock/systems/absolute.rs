//! Absolute time (包干用时制, CN2002 12.4): main time only; reaching zero loses. Fischer shares this arithmetic.

use super::{Milestone, SideTime, earliest};

/// Main time runs down; reaching zero is a flag fall (as the "10" of CN2002 12.3: reaching the limit is over it).
pub(super) fn project(start: &SideTime, e: u64) -> SideTime {
    let mut now = *start;
    if e >= start.main_ms {
        flag(&mut now);
    } else {
        now.main_ms = start.main_ms - e;
    }
    now
}

/// Time is up: nothing left anywhere.
pub(super) fn flag(state: &mut SideTime) {
    *state = SideTime {
        moves_left: state.moves_left,
        flagged: true,
        ..SideTime::default()
    };
}

/// The flag falls when main time reaches zero.
pub(super) fn next_milestones(start: &SideTime, from: u64) -> Option<(u64, Vec<Milestone>)> {
    earliest(vec![(start.main_ms, Milestone::FlagFall)], from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_start(main_ms: u64) -> SideTime {
        SideTime {
            main_ms,
            ..SideTime::default()
        }
    }

    #[test]
    fn main_time_runs_down_to_the_millisecond() {
        let start = build_start(5_400_000);
        assert_eq!(project(&start, 0).main_ms, 5_400_000);
        assert_eq!(project(&start, 1_234).main_ms, 5_398_766);
        assert_eq!(project(&start, 5_399_999).main_ms, 1);
        assert!(!project(&start, 5_399_999).flagged);
    }

    #[test]
    fn reaching_zero_is_a_flag_fall_cn2002_12_4() {
        let start = build_start(90_000);
        let at_limit = project(&start, 90_000);
        assert!(at_limit.flagged);
        assert_eq!(at_limit.main_ms, 0);
        assert!(project(&start, 1_000_000).flagged);
        assert_eq!(
            next_milestones(&start, 0),
            Some((90_000, vec![Milestone::FlagFall]))
        );
        assert_eq!(
            next_milestones(&start, 90_000),
            Some((90_000, vec![Milestone::FlagFall]))
        );
        assert_eq!(next_milestones(&start, 90_001), None);
    }
}
