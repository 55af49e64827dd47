//! The byo-yomi count-out calls of CN2002 12.3, generalised to the fast periods it allows (30, 20, 10 s).
//!
//! CN2002 12.3 for a 60 s period: "30秒, 40秒, 50秒, 55秒, 58秒, 1分, 还剩×分"; in
//! the last minute "30秒, 40秒, 50秒", then every second "1, 2, … 10", and a
//! player who has not moved when "10" is called has used the minute, which
//! is the time forfeit of 12.4 / 22.5. The text leaves fast periods to the
//! venue "on the same principle"; this module keeps the calls at the same
//! distance from the end of the period: 30, 20, 10, 5 and 2 s before the end
//! (the last period: 30, 20, 10 s before, then the ten seconds), dropping
//! those that would fall at or before the period's start. For a 30 s period
//! that is 10, 20, 25, 28 s (last: 10, 20 s, then 1..10 over the final ten
//! seconds); for a 10 s period 5, 8 s (last: 1..10 every second).

use std::fmt;

use serde::{Deserialize, Serialize};

const SECOND: u64 = 1_000;

/// Calls in an ordinary period, as milliseconds before its end (CN2002 12.3: 30, 40, 50, 55, 58 s of 60).
const ORDINARY_BEFORE_END: [u64; 5] = [
    30 * SECOND,
    20 * SECOND,
    10 * SECOND,
    5 * SECOND,
    2 * SECOND,
];

/// The "N seconds" calls of the last period, before its end (CN2002 12.3: 30, 40, 50 s of 60).
const LAST_BEFORE_END: [u64; 3] = [30 * SECOND, 20 * SECOND, 10 * SECOND];

/// One call of the byo-yomi count-out (CN2002 12.3).
///
/// The "1 minute used, N left" call (1分, 还剩×分) is the clock event
/// `PeriodUsed`; reaching "10" in the last period is followed by `FlagFall`.
/// [`super::CallCode`] words every call in English and Chinese.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum CountOutCall {
    /// "30秒": seconds used so far in the current period.
    Elapsed {
        /// Whole seconds used in the period.
        seconds: u64,
    },
    /// The last period's final ten seconds, called one by one: 1, 2, … 10.
    Count {
        /// 1 to 10; at 10 the time is up.
        n: u8,
    },
}

impl fmt::Display for CountOutCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Elapsed { seconds } => write!(f, "{seconds} seconds"),
            Self::Count { n } => write!(f, "{n}"),
        }
    }
}

/// The calls of one period as `(ms before the period's end, call)`, earliest first.
///
/// `period_ms` is the period's full length (labels count from its start);
/// `last` selects the last-period pattern.
pub(crate) fn period_calls(period_ms: u64, last: bool) -> Vec<(u64, CountOutCall)> {
    let elapsed = |before: u64| CountOutCall::Elapsed {
        seconds: (period_ms - before) / SECOND,
    };
    let pattern: &[u64] = if last {
        &LAST_BEFORE_END
    } else {
        &ORDINARY_BEFORE_END
    };
    let mut calls: Vec<(u64, CountOutCall)> = pattern
        .iter()
        .filter(|b| **b < period_ms)
        .map(|b| (*b, elapsed(*b)))
        .collect();
    if last {
        calls.extend(
            (1..=10u8)
                .map(|n| ((10 - u64::from(n)) * SECOND, CountOutCall::Count { n }))
                .filter(|(before, _)| *before < period_ms),
        );
    }
    calls
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls as (seconds into the period, call) for readability.
    fn build_schedule(period_s: u64, last: bool) -> Vec<(u64, CountOutCall)> {
        period_calls(period_s * SECOND, last)
            .into_iter()
            .map(|(before, call)| (period_s - before / SECOND, call))
            .collect()
    }

    fn elapsed(seconds: u64) -> CountOutCall {
        CountOutCall::Elapsed { seconds }
    }

    #[test]
    fn sixty_second_period_follows_cn2002_12_3() {
        let got = build_schedule(60, false);
        let want: Vec<_> = [30, 40, 50, 55, 58].map(|s| (s, elapsed(s))).into();
        assert_eq!(got, want);
    }

    #[test]
    fn last_minute_counts_one_to_ten_after_fifty() {
        let got = build_schedule(60, true);
        let mut want: Vec<_> = [30, 40, 50].map(|s| (s, elapsed(s))).into();
        want.extend((1..=10u8).map(|n| (50 + u64::from(n), CountOutCall::Count { n })));
        assert_eq!(got, want);
        assert_eq!(got.last(), Some(&(60, CountOutCall::Count { n: 10 })));
    }

    #[test]
    fn fast_periods_keep_the_distance_to_the_end() {
        let thirty: Vec<_> = [10, 20, 25, 28].map(|s| (s, elapsed(s))).into();
        assert_eq!(build_schedule(30, false), thirty);
        assert_eq!(
            build_schedule(20, false),
            [10, 15, 18].map(|s| (s, elapsed(s))).to_vec()
        );
        assert_eq!(
            build_schedule(10, false),
            [5, 8].map(|s| (s, elapsed(s))).to_vec()
        );
        let ten_last: Vec<_> = (1..=10u8)
            .map(|n| (u64::from(n), CountOutCall::Count { n }))
            .collect();
        assert_eq!(build_schedule(10, true), ten_last);
        let twenty_last = build_schedule(20, true);
        assert_eq!(twenty_last[0], (10, elapsed(10)));
        assert_eq!(twenty_last[1], (11, CountOutCall::Count { n: 1 }));
        assert_eq!(twenty_last.len(), 11);
    }

    #[test]
    fn a_five_second_period_calls_only_the_last_five() {
        let got = build_schedule(5, true);
        let want: Vec<_> = (6..=10u8)
            .map(|n| (u64::from(n) - 5, CountOutCall::Count { n }))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn calls_serialise_with_a_tag() {
        let json = serde_json::to_string(&CountOutCall::Count { n: 3 }).unwrap();
        assert_eq!(json, r#"{"call":"count","n":3}"#);
    }
}
