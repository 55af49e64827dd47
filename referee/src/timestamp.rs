//! Host receive time as passed into the referee: milliseconds since the Unix epoch.

use serde::{Deserialize, Serialize};

/// A host timestamp in milliseconds since the Unix epoch (UTC).
///
/// The referee never reads a clock: every input carries one of these, stamped
/// by the daemon when the bytes arrived, so replaying a journal reproduces
/// every decision to the millisecond.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Timestamp(pub u64);

impl Timestamp {
    /// This instant plus `ms` milliseconds (saturating).
    pub fn plus_ms(self, ms: u64) -> Self {
        Self(self.0.saturating_add(ms))
    }

    /// Milliseconds from `earlier` to `self`, zero if `earlier` is later.
    pub fn ms_since(self, earlier: Self) -> u64 {
        self.0.saturating_sub(earlier.0)
    }

    /// RFC 3339 UTC with milliseconds, as api.md writes times ("2026-11-30T09:00:00.000Z").
    pub fn to_rfc3339(self) -> String {
        let nanos = i128::from(self.0) * 1_000_000;
        match time::OffsetDateTime::from_unix_timestamp_nanos(nanos) {
            Ok(t) => format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
                t.year(),
                u8::from(t.month()),
                t.day(),
                t.hour(),
                t.minute(),
                t.second(),
                t.millisecond()
            ),
            // Only timestamps beyond year 9999 fail; print them raw rather than panic.
            Err(_) => format!("@{}ms", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_rfc3339_with_millis() {
        assert_eq!(Timestamp(0).to_rfc3339(), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            Timestamp(1_796_029_200_123).to_rfc3339(),
            "2026-11-30T09:00:00.123Z"
        );
    }

    #[test]
    fn arithmetic_saturates() {
        assert_eq!(Timestamp(5).ms_since(Timestamp(9)), 0);
        assert_eq!(Timestamp(u64::MAX).plus_ms(1), Timestamp(u64::MAX));
    }
}
