//! Fischer increment (not in CN2002; common in rapid and online play): time runs down like absolute time, each completed move adds the increment up to the cap.

use super::{MoveCredit, SideTime};
use crate::clock::Millis;

/// Adds the increment after a completed move, never above `max`; time
/// already above the cap (after an arbiter's correction) is left as it is.
pub(super) fn finish_move(
    at_press: SideTime,
    increment: Millis,
    max: Option<Millis>,
) -> (SideTime, MoveCredit) {
    let mut after = at_press;
    let raised = at_press.main_ms.saturating_add(increment.as_ms());
    after.main_ms = match max {
        Some(cap) => raised.min(cap.as_ms()).max(at_press.main_ms),
        None => raised,
    };
    let bonus_ms = after.main_ms - at_press.main_ms;
    (
        after,
        MoveCredit {
            free_ms: 0,
            bonus_ms,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_state(main_ms: u64) -> SideTime {
        SideTime {
            main_ms,
            ..SideTime::default()
        }
    }

    #[test]
    fn increment_is_added_after_the_move() {
        let (after, credit) = finish_move(build_state(1_780_000), Millis::seconds(20), None);
        assert_eq!(after.main_ms, 1_800_000);
        assert_eq!(credit.bonus_ms, 20_000);
    }

    #[test]
    fn the_cap_limits_the_increment() {
        let cap = Some(Millis::minutes(60));
        let (after, credit) = finish_move(build_state(3_590_000), Millis::seconds(20), cap);
        assert_eq!(after.main_ms, 3_600_000);
        assert_eq!(credit.bonus_ms, 10_000);
        let (after, credit) = finish_move(build_state(3_600_000), Millis::seconds(20), cap);
        assert_eq!(after.main_ms, 3_600_000);
        assert_eq!(credit.bonus_ms, 0);
    }

    #[test]
    fn time_above_the_cap_is_not_cut() {
        let cap = Some(Millis::minutes(60));
        let (after, credit) = finish_move(build_state(3_700_000), Millis::seconds(20), cap);
        assert_eq!(after.main_ms, 3_700_000);
        assert_eq!(credit.bonus_ms, 0);
    }
}
