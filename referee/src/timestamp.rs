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
        time::OffsetDateTime::from_unix_timestamp_nanos(nanos)
            .ok()
            .and_then(|t| t.format(RFC3339_MILLIS).ok())
            // Only timestamps beyond year 9999 fail; print them raw rather than panic.
            .unwrap_or_else(|| format!("@{}ms", self.0))
    }
}

/// Reads back what [`Timestamp::to_rfc3339`] wrote: RFC 3339 (any offset, any fraction,
/// cut to the millisecond) or the raw `@<ms>ms` of a time beyond year 9999.
pub(crate) fn parse_rfc3339(text: &str) -> Option<Timestamp> {
    if let Some(raw) = text.strip_prefix('@').and_then(|t| t.strip_suffix("ms")) {
        return raw.parse().ok().map(Timestamp);
    }
    let at =
        time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()?;
    u64::try_from(at.unix_timestamp_nanos() / 1_000_000)
        .ok()
        .map(Timestamp)
}

/// `#[serde(with = ...)]` for a [`Timestamp`] written as RFC 3339 text (api.md's `at`).
pub(crate) mod as_rfc3339 {
    use super::{Timestamp, parse_rfc3339};
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub(crate) fn serialize<S: Serializer>(
        at: &Timestamp,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&at.to_rfc3339())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Timestamp, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        parse_rfc3339(&text)
            .ok_or_else(|| D::Error::custom(format!("not an RFC 3339 time: {text}")))
    }
}

/// RFC 3339 in UTC with exactly three fraction digits and `Z`. `time`'s own
/// `Rfc3339` prints as many fraction digits as the value needs (none for a
/// whole second), and api.md promises milliseconds always.
const RFC3339_MILLIS: &[time::format_description::BorrowedFormatItem<'static>] = time::macros::format_description!(
    "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
);

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
        assert_eq!(
            Timestamp(1_796_029_200_000).to_rfc3339(),
            "2026-11-30T09:00:00.000Z"
        );
        assert_eq!(Timestamp(u64::MAX).to_rfc3339(), format!("@{}ms", u64::MAX));
    }

    #[test]
    fn rfc3339_reads_back_to_the_millisecond() {
        for ms in [0, 1_796_029_200_123, 1_796_029_200_000, u64::MAX] {
            assert_eq!(
                parse_rfc3339(&Timestamp(ms).to_rfc3339()),
                Some(Timestamp(ms))
            );
        }
        assert_eq!(
            parse_rfc3339("2026-11-30T10:00:00.123+01:00"),
            Some(Timestamp(1_796_029_200_123))
        );
        assert_eq!(parse_rfc3339("yesterday"), None);
        assert_eq!(parse_rfc3339(""), None);
    }

    #[test]
    fn arithmetic_saturates() {
        assert_eq!(Timestamp(5).ms_since(Timestamp(9)), 0);
        assert_eq!(Timestamp(u64::MAX).plus_ms(1), Timestamp(u64::MAX));
    }
}
