//! Config values that parse into valid values: durations with units, board ids, and the rules' and referee's own types read from the file.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use goban_rules::BoardSize;
use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

/// A duration written with units in the config: `"250ms"`, `"90s"`, `"5m"`, `"1h30m"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Span(pub Duration);

impl Span {
    /// Milliseconds, saturating at `u64::MAX`.
    pub fn as_ms(self) -> u64 {
        u64::try_from(self.0.as_millis()).unwrap_or(u64::MAX)
    }
}

impl FromStr for Span {
    type Err = String;

    /// The grammar is humantime's (`"90s"`, `"5m"`, `"1h30m"`, `"1h 30m"`, `"250ms"`,
    /// `"2min"`); we only add the hint for an empty value and refuse sub-millisecond
    /// precision, which nothing in the daemon can honour.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if text.is_empty() {
            return Err(
                "empty duration; write e.g. \"90s\", \"5m\", \"1h30m\" or \"250ms\"".into(),
            );
        }
        let duration =
            humantime::parse_duration(text).map_err(|err| format!("duration {text:?}: {err}"))?;
        if duration.subsec_nanos() % 1_000_000 != 0 {
            return Err(format!(
                "duration {text:?} is finer than a millisecond; use ms, s, m or h"
            ));
        }
        Ok(Self(duration))
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.as_ms();
        if ms.is_multiple_of(3_600_000) && ms > 0 {
            write!(f, "{}h", ms / 3_600_000)
        } else if ms.is_multiple_of(60_000) && ms > 0 {
            write!(f, "{}m", ms / 60_000)
        } else if ms.is_multiple_of(1_000) {
            write!(f, "{}s", ms / 1_000)
        } else {
            write!(f, "{ms}ms")
        }
    }
}

/// Serde through `FromStr`/`Display`, so a bad value is reported at its own span.
macro_rules! serde_via_str {
    ($ty:ty) => {
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                text.parse().map_err(de::Error::custom)
            }
        }
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }
    };
}
pub(crate) use serde_via_str;

serde_via_str!(Span);

/// `[journal] retention`: how long a finished game's inputs and events stay in the journal.
///
/// Its SGF, summary and final state (alerts and audit included) stay for ever;
/// only the rows that replay and resume it go, and only once its board has
/// started another game (the game on a board is never compacted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Retention {
    /// `"end-of-day"` (default): until the local midnight that follows the game's end.
    #[default]
    EndOfDay,
    /// A duration (`"2h"`, `"30m"`, `"0s"`): until that long after the game's end.
    After(Span),
    /// `"never"`: nothing is compacted.
    Never,
}

impl FromStr for Retention {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim() {
            "end-of-day" => Ok(Self::EndOfDay),
            "never" => Ok(Self::Never),
            other => other.parse().map(Self::After).map_err(|err| {
                format!(
                    "retention {other:?}: expected \"end-of-day\", \"never\" or a duration \
                     such as \"2h\" or \"30m\" ({err})"
                )
            }),
        }
    }
}

impl fmt::Display for Retention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::EndOfDay => f.write_str("end-of-day"),
            Self::After(span) => span.fmt(f),
            Self::Never => f.write_str("never"),
        }
    }
}

serde_via_str!(Retention);

/// A board id: `[a-z0-9-]{1,32}` (api.md "Configuration").
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BoardId(String);

impl BoardId {
    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for BoardId {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let valid_chars = text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if text.is_empty() || text.len() > 32 || !valid_chars {
            return Err(format!(
                "board id {text:?} must be 1 to 32 characters of a-z, 0-9 and '-'"
            ));
        }
        Ok(Self(text.to_owned()))
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

serde_via_str!(BoardId);

/// `size`: the rules' board size, restricted to the sizes the wire protocol knows
/// (wire-protocol.md "Coordinates"): 9, 13 or 19.
pub(crate) fn board_size<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<BoardSize, D::Error> {
    let size = i64::deserialize(deserializer)?;
    match size {
        9 => Ok(BoardSize::NINE),
        13 => Ok(BoardSize::THIRTEEN),
        19 => Ok(BoardSize::NINETEEN),
        other => Err(de::Error::custom(format!(
            "size {other}: a board is 9, 13 or 19 lines"
        ))),
    }
}

/// The default `size`: 19.
pub(crate) fn default_board_size() -> BoardSize {
    BoardSize::NINETEEN
}

/// A list of values read through their owner's `FromStr`, each reported at its own span.
///
/// The owners (the referee's `InfractionKind`) derive their serde form for the journal;
/// the config takes the texts people write and the owner's words for a bad one.
pub(crate) fn parsed_list<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    let items: Vec<Parsed<T>> = Vec::deserialize(deserializer)?;
    Ok(items.into_iter().map(|item| item.0).collect())
}

/// [`parsed_list`] for an optional list.
pub(crate) fn parsed_optional_list<'de, D, T>(deserializer: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    let items: Option<Vec<Parsed<T>>> = Option::deserialize(deserializer)?;
    Ok(items.map(|items| items.into_iter().map(|item| item.0).collect()))
}

/// One value of a [`parsed_list`]: a string, parsed where it stands.
struct Parsed<T>(T);

impl<'de, T> Deserialize<'de> for Parsed<T>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map(Self).map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_parse_units_and_sums() {
        assert_eq!("250ms".parse::<Span>().map(Span::as_ms), Ok(250));
        assert_eq!("90s".parse::<Span>().map(Span::as_ms), Ok(90_000));
        assert_eq!("1h30m".parse::<Span>().map(Span::as_ms), Ok(5_400_000));
        assert!("90".parse::<Span>().is_err(), "a unit is required");
        assert!("5x".parse::<Span>().is_err());
        assert!("s".parse::<Span>().is_err());
        assert!("99999999999999999999h".parse::<Span>().is_err());
        assert_eq!("1h 30m".parse::<Span>().map(Span::as_ms), Ok(5_400_000));
        assert_eq!("2min".parse::<Span>().map(Span::as_ms), Ok(120_000));
    }

    #[test]
    fn span_errors_say_what_to_write() {
        let message = |text: &str| text.parse::<Span>().expect_err(text);
        assert!(message("90").contains("unit"), "{}", message("90"));
        assert!(message("5x").contains("\"x\""), "{}", message("5x"));
        assert!(message("5x").contains("ms"), "{}", message("5x"));
        assert!(message("").contains("1h30m"), "{}", message(""));
        assert!(
            message("1500us").contains("millisecond"),
            "{}",
            message("1500us")
        );
    }

    #[test]
    fn spans_display_round_trips() {
        for text in ["250ms", "90s", "5m", "2h", "0s"] {
            let span: Span = text.parse().expect("valid");
            assert_eq!(span.to_string(), text);
        }
    }

    #[test]
    fn board_ids_follow_the_pattern() {
        assert!("table-1".parse::<BoardId>().is_ok());
        assert!("Table-1".parse::<BoardId>().is_err());
        assert!("".parse::<BoardId>().is_err());
        assert!("a".repeat(33).parse::<BoardId>().is_err());
    }

    #[test]
    fn kinds_are_the_digest_ids() {
        #[derive(Debug, Deserialize)]
        struct Kinds {
            #[serde(deserialize_with = "parsed_list")]
            kinds: Vec<goban_referee::InfractionKind>,
        }
        let read = |text: &str| toml::from_str::<Kinds>(text).map(|k| k.kinds);
        let kinds = read("kinds = [\"missed_capture\"]").expect("a digest id");
        assert_eq!(kinds, [goban_referee::InfractionKind::MissedCapture]);
        let error = read("kinds = [\"missed-capture\"]")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("unknown infraction kind \"missed-capture\""),
            "{error}"
        );
    }
}
