//! Durations with units as config and API write them (`90s`, `5m`, `1h`, `1h30m`, `500ms`), exact to the millisecond.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::DurationError;

const MS_PER_SECOND: u64 = 1_000;
const MS_PER_MINUTE: u64 = 60_000;
const MS_PER_HOUR: u64 = 3_600_000;

/// A span of clock time in whole milliseconds.
///
/// Parses `<number><unit>` groups with units `h`, `m`, `s`, `ms`, largest
/// first, each at most once (`1h30m`, `2m30s`, `1500ms`). Displays in the
/// largest single unit that is exact, minutes at most (`90m`, `45s`,
/// `1500ms`), so the api.md examples print as they are written.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Millis(pub u64);

impl Millis {
    /// Zero.
    pub const ZERO: Self = Self(0);

    /// `n` whole seconds.
    #[must_use]
    pub const fn seconds(n: u64) -> Self {
        Self(n * MS_PER_SECOND)
    }

    /// `n` whole minutes.
    #[must_use]
    pub const fn minutes(n: u64) -> Self {
        Self(n * MS_PER_MINUTE)
    }

    /// The value in milliseconds.
    #[must_use]
    pub const fn as_ms(self) -> u64 {
        self.0
    }

    /// Writes in seconds when exact (`60s`, `30s`), else milliseconds: the
    /// form for byo-yomi periods and increments.
    pub(crate) fn fmt_seconds(self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(MS_PER_SECOND) {
            write!(f, "{}s", self.0 / MS_PER_SECOND)
        } else {
            write!(f, "{}ms", self.0)
        }
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 != 0 && self.0.is_multiple_of(MS_PER_MINUTE) {
            write!(f, "{}m", self.0 / MS_PER_MINUTE)
        } else {
            self.fmt_seconds(f)
        }
    }
}

impl FromStr for Millis {
    type Err = DurationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() {
            return Err(DurationError::Empty);
        }
        let mut rest = s;
        let mut total: u64 = 0;
        // Rank of the last unit seen: units must strictly decrease (h > m > s > ms).
        let mut last_rank = u8::MAX;
        while !rest.is_empty() {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                return Err(DurationError::MissingNumber(rest.to_owned()));
            }
            let (number, tail) = rest.split_at(digits);
            let unit_len = tail.bytes().take_while(u8::is_ascii_alphabetic).count();
            let (unit, tail) = tail.split_at(unit_len);
            let (rank, scale) = unit_scale(unit, number)?;
            if rank >= last_rank {
                return Err(DurationError::UnitOrder(unit.to_owned()));
            }
            last_rank = rank;
            let value: u64 = number.parse().map_err(|_| DurationError::Overflow)?;
            total = value
                .checked_mul(scale)
                .and_then(|v| v.checked_add(total))
                .ok_or(DurationError::Overflow)?;
            rest = tail;
        }
        Ok(Self(total))
    }
}

/// The rank (for ordering) and the size in milliseconds of a unit.
fn unit_scale(unit: &str, number: &str) -> Result<(u8, u64), DurationError> {
    match unit {
        "h" => Ok((3, MS_PER_HOUR)),
        "m" => Ok((2, MS_PER_MINUTE)),
        "s" => Ok((1, MS_PER_SECOND)),
        "ms" => Ok((0, 1)),
        "" => Err(DurationError::MissingUnit(number.to_owned())),
        other => Err(DurationError::UnknownUnit(other.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<u64, DurationError> {
        s.parse::<Millis>().map(Millis::as_ms)
    }

    #[test]
    fn parses_every_unit_and_combinations() {
        assert_eq!(parse("90s"), Ok(90_000));
        assert_eq!(parse("5m"), Ok(300_000));
        assert_eq!(parse("1h"), Ok(3_600_000));
        assert_eq!(parse("1h30m"), Ok(5_400_000));
        assert_eq!(parse("2m30s"), Ok(150_000));
        assert_eq!(parse("1s250ms"), Ok(1_250));
        assert_eq!(parse("1500ms"), Ok(1_500));
        assert_eq!(parse("0s"), Ok(0));
        assert_eq!(parse("1h0m5s"), Ok(3_605_000));
    }

    #[test]
    fn rejects_bad_durations_naming_the_part() {
        assert_eq!(parse(""), Err(DurationError::Empty));
        assert_eq!(parse("90"), Err(DurationError::MissingUnit("90".into())));
        assert_eq!(parse("5x"), Err(DurationError::UnknownUnit("x".into())));
        assert_eq!(parse("m"), Err(DurationError::MissingNumber("m".into())));
        assert_eq!(parse("5m "), Err(DurationError::MissingNumber(" ".into())));
        assert_eq!(
            parse("-5m"),
            Err(DurationError::MissingNumber("-5m".into()))
        );
        assert_eq!(parse("30m1h"), Err(DurationError::UnitOrder("h".into())));
        assert_eq!(parse("5m5m"), Err(DurationError::UnitOrder("m".into())));
        assert_eq!(parse("99999999999999999999s"), Err(DurationError::Overflow));
        assert_eq!(parse("9999999999999999h"), Err(DurationError::Overflow));
    }

    #[test]
    fn displays_the_largest_exact_unit() {
        assert_eq!(Millis(5_400_000).to_string(), "90m");
        assert_eq!(Millis(3_600_000).to_string(), "60m");
        assert_eq!(Millis(90_000).to_string(), "90s");
        assert_eq!(Millis(1_500).to_string(), "1500ms");
        assert_eq!(Millis(0).to_string(), "0s");
    }

    #[test]
    fn display_parses_back_to_the_same_value() {
        for ms in [
            0, 1, 999, 1_000, 59_999, 60_000, 61_000, 3_600_000, 5_400_001,
        ] {
            assert_eq!(parse(&Millis(ms).to_string()), Ok(ms), "{ms}");
        }
    }
}
