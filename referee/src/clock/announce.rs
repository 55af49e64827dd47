//! What the count-out voice says (CN2002 12.3): one typed call code, worded in English and in Chinese.
//!
//! CN2002 12.3 calls "30秒, 40秒, 50秒, 55秒, 58秒", then "1分, 还剩×分" when a
//! reserved minute is used, and "1 … 10" in the last minute. Clients that
//! speak or show the calls take the words from the event (`call`, `call_zh`)
//! or act on the code; nobody parses the words back.

use serde::{Deserialize, Serialize};

use super::{ClockEvent, CountOutCall, TimeControl};

const MINUTE_MS: u64 = 60_000;

/// A count-out call as a code (SSE/MQTT `clock_call.code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CallCode {
    /// "30 seconds" (30秒): seconds used in the current period.
    Elapsed {
        /// Whole seconds used.
        seconds: u64,
    },
    /// The last period's final ten seconds, one by one; at 10 the time is up.
    Count {
        /// 1 to 10.
        n: u8,
    },
    /// Main time is over: byo-yomi periods (or the first Canadian block) begin.
    OvertimeStarted {
        /// Periods reserved (0 under Canadian time).
        periods: u32,
        /// Length of one period (or block), ms.
        period_ms: u64,
        /// Moves to make in the block (Canadian time only).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        moves: Option<u32>,
    },
    /// A whole period was used: "1 minute used, N left" (1分, 还剩×分).
    PeriodUsed {
        /// Periods still reserved.
        periods_left: u32,
        /// Length of one period, ms.
        period_ms: u64,
    },
}

/// A call's code and its words in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Announcement {
    /// The code.
    pub code: CallCode,
    /// English, e.g. "1 minute used, 3 left".
    pub english: String,
    /// Chinese, e.g. "还剩3分钟".
    pub chinese: String,
}

impl CallCode {
    /// The code of a clock event that is spoken; `None` for a flag fall (an alert, not a call).
    #[must_use]
    pub fn of(event: &ClockEvent, tc: &TimeControl) -> Option<Self> {
        let period_ms = period_ms(tc);
        Some(match *event {
            ClockEvent::Call { call, .. } => match call {
                CountOutCall::Elapsed { seconds } => Self::Elapsed { seconds },
                CountOutCall::Count { n } => Self::Count { n },
            },
            ClockEvent::OvertimeStarted { periods, moves, .. } => Self::OvertimeStarted {
                periods,
                period_ms,
                moves,
            },
            ClockEvent::PeriodUsed { periods_left, .. } => Self::PeriodUsed {
                periods_left,
                period_ms,
            },
            ClockEvent::FlagFall { .. } => return None,
        })
    }

    /// The code with its words.
    #[must_use]
    pub fn announce(self) -> Announcement {
        Announcement {
            code: self,
            english: self.english(),
            chinese: self.chinese(),
        }
    }

    /// The call in English.
    #[must_use]
    pub fn english(self) -> String {
        match self {
            Self::Elapsed { seconds } => plural(seconds, "second"),
            Self::Count { n } => n.to_string(),
            Self::OvertimeStarted {
                moves: Some(moves),
                period_ms,
                ..
            } => format!(
                "main time over: {} in {}",
                plural(u64::from(moves), "move"),
                length_en(period_ms)
            ),
            Self::OvertimeStarted {
                periods, period_ms, ..
            } if period_ms == MINUTE_MS => {
                format!(
                    "main time over, {} left",
                    plural(u64::from(periods), "minute")
                )
            }
            Self::OvertimeStarted {
                periods, period_ms, ..
            } => format!(
                "main time over, {} of {} left",
                plural(u64::from(periods), "period"),
                length_en(period_ms)
            ),
            Self::PeriodUsed {
                periods_left,
                period_ms,
            } => format!("{} used, {periods_left} left", length_en(period_ms)),
        }
    }

    /// The call in Chinese (CN2002 12.3).
    #[must_use]
    pub fn chinese(self) -> String {
        match self {
            Self::Elapsed { seconds } => format!("{seconds}秒"),
            Self::Count { n } => n.to_string(),
            Self::OvertimeStarted {
                moves: Some(moves),
                period_ms,
                ..
            } => format!("开始计步，{}内{moves}步", length_zh(period_ms)),
            Self::OvertimeStarted {
                periods, period_ms, ..
            } if period_ms == MINUTE_MS => format!("开始读秒，还剩{periods}分钟"),
            Self::OvertimeStarted { periods, .. } => format!("开始读秒，还剩{periods}次"),
            Self::PeriodUsed {
                periods_left,
                period_ms,
            } if period_ms == MINUTE_MS => format!("还剩{periods_left}分钟"),
            Self::PeriodUsed { periods_left, .. } => format!("还剩{periods_left}次"),
        }
    }
}

/// The length of one byo-yomi period (or Canadian block) of `tc`; 0 when it has none.
fn period_ms(tc: &TimeControl) -> u64 {
    match tc {
        TimeControl::ByoyomiCn { period, .. } | TimeControl::ByoyomiJp { period, .. } => {
            period.as_ms()
        }
        TimeControl::Canadian { block, .. } => block.as_ms(),
        _ => 0,
    }
}

fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// "1 minute", "30 seconds", "10 minutes", "1 minute 30 seconds".
fn length_en(ms: u64) -> String {
    let (min, s) = (ms / MINUTE_MS, ms % MINUTE_MS / 1000);
    match (min, s) {
        (0, s) => plural(s, "second"),
        (m, 0) => plural(m, "minute"),
        (m, s) => format!("{} {}", plural(m, "minute"), plural(s, "second")),
    }
}

/// "1分钟", "30秒", "1分30秒".
fn length_zh(ms: u64) -> String {
    let (min, s) = (ms / MINUTE_MS, ms % MINUTE_MS / 1000);
    match (min, s) {
        (0, s) => format!("{s}秒"),
        (m, 0) => format!("{m}分钟"),
        (m, s) => format!("{m}分{s}秒"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_used(periods_left: u32, period_ms: u64) -> CallCode {
        CallCode::PeriodUsed {
            periods_left,
            period_ms,
        }
    }

    #[test]
    fn a_minute_used_reads_as_cn2002_12_3() {
        let call = build_used(3, MINUTE_MS).announce();
        assert_eq!(call.english, "1 minute used, 3 left");
        assert_eq!(call.chinese, "还剩3分钟");
    }

    #[test]
    fn fast_periods_say_their_length_and_count_periods() {
        let call = build_used(2, 30_000).announce();
        assert_eq!(call.english, "30 seconds used, 2 left");
        assert_eq!(call.chinese, "还剩2次");
    }

    #[test]
    fn overtime_is_worded_without_bad_plurals() {
        let one = CallCode::OvertimeStarted {
            periods: 1,
            period_ms: MINUTE_MS,
            moves: None,
        };
        assert_eq!(one.english(), "main time over, 1 minute left");
        assert_eq!(one.chinese(), "开始读秒，还剩1分钟");
        let jp = CallCode::OvertimeStarted {
            periods: 5,
            period_ms: 30_000,
            moves: None,
        };
        assert_eq!(jp.english(), "main time over, 5 periods of 30 seconds left");
        let canadian = CallCode::OvertimeStarted {
            periods: 0,
            period_ms: 10 * MINUTE_MS,
            moves: Some(15),
        };
        assert_eq!(canadian.english(), "main time over: 15 moves in 10 minutes");
        assert_eq!(canadian.chinese(), "开始计步，10分钟内15步");
    }

    #[test]
    fn seconds_and_counts_in_both_languages() {
        let elapsed = CallCode::Elapsed { seconds: 30 }.announce();
        assert_eq!(
            (elapsed.english.as_str(), elapsed.chinese.as_str()),
            ("30 seconds", "30秒")
        );
        let count = CallCode::Count { n: 7 }.announce();
        assert_eq!((count.english.as_str(), count.chinese.as_str()), ("7", "7"));
    }

    #[test]
    fn codes_come_from_clock_events_with_the_period_length() {
        let tc: TimeControl = "byoyomi-cn:main=60m,reserve=5".parse().unwrap();
        let event = ClockEvent::PeriodUsed {
            side: crate::clock::Color::Black,
            at: crate::Timestamp(0),
            periods_left: 4,
        };
        assert_eq!(CallCode::of(&event, &tc), Some(build_used(4, MINUTE_MS)));
        let fall = ClockEvent::FlagFall {
            side: crate::clock::Color::Black,
            at: crate::Timestamp(0),
            article: String::new(),
        };
        assert_eq!(CallCode::of(&fall, &tc), None);
    }

    #[test]
    fn codes_serialise_with_a_kind() {
        let json = serde_json::to_string(&build_used(4, MINUTE_MS)).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"period_used","periods_left":4,"period_ms":60000}"#
        );
    }
}
