//! The time-control grammar of api.md ("Time control strings"): parse, validate and print back.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{Millis, TimeControlError};

/// The CN2002 12.3 byo-yomi period when `period=` is not given: 60 seconds.
pub const DEFAULT_CN_PERIOD: Millis = Millis::seconds(60);

/// The most periods, reserved minutes or moves per block a time control may set.
const MAX_COUNT: u32 = 1_000;

/// A time control, as written in config and the API (api.md).
///
/// Serialised as its string, e.g. `"byoyomi-cn:main=60m,reserve=5"`.
/// `to_string` gives a canonical form that parses back to the same value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum TimeControl {
    /// `none`: no clock.
    None,
    /// `absolute:main=90m`: 包干用时制, running out loses (CN2002 12.4).
    Absolute {
        /// Main time.
        main: Millis,
    },
    /// `byoyomi-cn:main=60m,reserve=5[,period=60s]`: Chinese byo-yomi (CN2002 12.3).
    ByoyomiCn {
        /// Main time before the reserved periods.
        main: Millis,
        /// Reserved periods ("还剩×分").
        reserve: u32,
        /// Length of one period, 60 s unless a fast game says otherwise.
        period: Millis,
    },
    /// `byoyomi-jp:main=60m,periods=5,period=30s`: Japanese byo-yomi (JK 3).
    ByoyomiJp {
        /// Main time.
        main: Millis,
        /// Number of periods.
        periods: u32,
        /// Length of one period.
        period: Millis,
    },
    /// `canadian:main=60m,moves=15,block=10m`: 定时限步制 (CN2002 12.5), carry-over of unused time.
    Canadian {
        /// Main time.
        main: Millis,
        /// Moves to make in each block.
        moves: u32,
        /// Time for one block.
        block: Millis,
    },
    /// `fischer:main=30m,increment=20s[,max=60m]`: Fischer increment (an extension, not in the texts).
    Fischer {
        /// Starting time.
        main: Millis,
        /// Added after each completed move.
        increment: Millis,
        /// Cap on the time after an increment, if any.
        max: Option<Millis>,
    },
}

impl TimeControl {
    /// The time each side starts with before any overtime.
    #[must_use]
    pub fn main(&self) -> Millis {
        match *self {
            Self::None => Millis::ZERO,
            Self::Absolute { main }
            | Self::ByoyomiCn { main, .. }
            | Self::ByoyomiJp { main, .. }
            | Self::Canadian { main, .. }
            | Self::Fischer { main, .. } => main,
        }
    }

    /// The system's name as the grammar writes it.
    #[must_use]
    pub fn system(&self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Absolute { .. } => "absolute",
            Self::ByoyomiCn { .. } => "byoyomi-cn",
            Self::ByoyomiJp { .. } => "byoyomi-jp",
            Self::Canadian { .. } => "canadian",
            Self::Fischer { .. } => "fischer",
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.system())?;
        match *self {
            Self::None => Ok(()),
            Self::Absolute { main } => write!(f, ":main={main}"),
            Self::ByoyomiCn {
                main,
                reserve,
                period,
            } => {
                write!(f, ":main={main},reserve={reserve}")?;
                if period != DEFAULT_CN_PERIOD {
                    f.write_str(",period=")?;
                    period.fmt_seconds(f)?;
                }
                Ok(())
            }
            Self::ByoyomiJp {
                main,
                periods,
                period,
            } => {
                write!(f, ":main={main},periods={periods},period=")?;
                period.fmt_seconds(f)
            }
            Self::Canadian { main, moves, block } => {
                write!(f, ":main={main},moves={moves},block={block}")
            }
            Self::Fischer {
                main,
                increment,
                max,
            } => {
                write!(f, ":main={main},increment=")?;
                increment.fmt_seconds(f)?;
                match max {
                    Some(max) => write!(f, ",max={max}"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() {
            return Err(TimeControlError::Empty);
        }
        let (system, params) = match s.split_once(':') {
            Some((system, params)) => (system, Some(params)),
            None => (s, None),
        };
        if system == "none" {
            return match params {
                None => Ok(Self::None),
                Some(p) => Err(TimeControlError::UnexpectedParameters(p.to_owned())),
            };
        }
        let name = system_name(system)?;
        let mut params = Params::parse(name, params.unwrap_or(""))?;
        let tc = build(name, &mut params)?;
        params.finish()?;
        Ok(tc)
    }
}

impl TryFrom<String> for TimeControl {
    type Error = TimeControlError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> Self {
        tc.to_string()
    }
}

/// The grammar's spelling of a known system, as a `'static` name for errors.
fn system_name(system: &str) -> Result<&'static str, TimeControlError> {
    [
        "absolute",
        "byoyomi-cn",
        "byoyomi-jp",
        "canadian",
        "fischer",
    ]
    .into_iter()
    .find(|known| *known == system)
    .ok_or_else(|| TimeControlError::UnknownSystem(system.to_owned()))
}

/// Builds one system from its parameters, checking the values make sense.
fn build(system: &'static str, p: &mut Params<'_>) -> Result<TimeControl, TimeControlError> {
    let main = p.duration("main")?;
    Ok(match system {
        "absolute" => TimeControl::Absolute {
            main: positive("main", main)?,
        },
        "byoyomi-cn" => TimeControl::ByoyomiCn {
            main,
            reserve: p.count("reserve")?,
            period: a_second_or_more(
                "period",
                p.optional_duration("period")?.unwrap_or(DEFAULT_CN_PERIOD),
            )?,
        },
        "byoyomi-jp" => TimeControl::ByoyomiJp {
            main,
            periods: p.count("periods")?,
            period: a_second_or_more("period", p.duration("period")?)?,
        },
        "canadian" => TimeControl::Canadian {
            main,
            moves: p.count("moves")?,
            block: a_second_or_more("block", p.duration("block")?)?,
        },
        _ => {
            let main = positive("main", main)?;
            let increment = p.duration("increment")?;
            let max = p.optional_duration("max")?;
            if let Some(cap) = max.filter(|cap| *cap < main) {
                return Err(TimeControlError::OutOfRange {
                    key: "max",
                    value: cap.to_string(),
                    reason: "the cap must be at least the main time",
                });
            }
            TimeControl::Fischer {
                main,
                increment,
                max,
            }
        }
    })
}

/// Periods and blocks of at least a second: a clock cannot count out less,
/// and it bounds the work of catching up after a long silence.
fn a_second_or_more(key: &'static str, value: Millis) -> Result<Millis, TimeControlError> {
    if value < Millis::seconds(1) {
        return Err(TimeControlError::OutOfRange {
            key,
            value: value.to_string(),
            reason: "must be at least 1s",
        });
    }
    Ok(value)
}

fn positive(key: &'static str, value: Millis) -> Result<Millis, TimeControlError> {
    if value == Millis::ZERO {
        return Err(TimeControlError::OutOfRange {
            key,
            value: value.to_string(),
            reason: "must be more than zero",
        });
    }
    Ok(value)
}

/// The `key=value` pairs after the colon, consumed one by one so leftovers can be reported.
struct Params<'a> {
    system: &'static str,
    pairs: BTreeMap<&'a str, &'a str>,
}

impl<'a> Params<'a> {
    fn parse(system: &'static str, text: &'a str) -> Result<Self, TimeControlError> {
        let mut pairs = BTreeMap::new();
        for part in text.split(',').filter(|_| !text.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| TimeControlError::Malformed(part.to_owned()))?;
            if pairs.insert(key, value).is_some() {
                return Err(TimeControlError::DuplicateKey(key.to_owned()));
            }
        }
        Ok(Self { system, pairs })
    }

    fn required(&mut self, key: &'static str) -> Result<&'a str, TimeControlError> {
        self.pairs.remove(key).ok_or(TimeControlError::MissingKey {
            system: self.system,
            key,
        })
    }

    fn duration(&mut self, key: &'static str) -> Result<Millis, TimeControlError> {
        let value = self.required(key)?;
        parse_duration(key, value)
    }

    fn optional_duration(&mut self, key: &'static str) -> Result<Option<Millis>, TimeControlError> {
        self.pairs
            .remove(key)
            .map(|value| parse_duration(key, value))
            .transpose()
    }

    /// A whole number from 1 to [`MAX_COUNT`].
    fn count(&mut self, key: &'static str) -> Result<u32, TimeControlError> {
        let value = self.required(key)?;
        let bad = || TimeControlError::BadCount {
            key,
            value: value.to_owned(),
        };
        if !value.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let n: u32 = value.parse().map_err(|_| bad())?;
        if !(1..=MAX_COUNT).contains(&n) {
            return Err(TimeControlError::OutOfRange {
                key,
                value: value.to_owned(),
                reason: "must be from 1 to 1000",
            });
        }
        Ok(n)
    }

    /// Fails on the first key no system parameter consumed.
    fn finish(self) -> Result<(), TimeControlError> {
        match self.pairs.into_keys().next() {
            Some(key) => Err(TimeControlError::UnknownKey {
                system: self.system,
                key: key.to_owned(),
            }),
            None => Ok(()),
        }
    }
}

fn parse_duration(key: &'static str, value: &str) -> Result<Millis, TimeControlError> {
    value
        .parse()
        .map_err(|source| TimeControlError::BadDuration {
            key,
            value: value.to_owned(),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::DurationError;

    fn parse(s: &str) -> Result<TimeControl, TimeControlError> {
        s.parse()
    }

    #[test]
    fn parses_every_api_example() {
        assert_eq!(parse("none"), Ok(TimeControl::None));
        assert_eq!(
            parse("absolute:main=90m"),
            Ok(TimeControl::Absolute {
                main: Millis::minutes(90)
            })
        );
        assert_eq!(
            parse("byoyomi-cn:main=60m,reserve=5"),
            Ok(TimeControl::ByoyomiCn {
                main: Millis::minutes(60),
                reserve: 5,
                period: Millis::seconds(60)
            })
        );
        assert_eq!(
            parse("byoyomi-cn:main=10m,reserve=3,period=30s"),
            Ok(TimeControl::ByoyomiCn {
                main: Millis::minutes(10),
                reserve: 3,
                period: Millis::seconds(30)
            })
        );
        assert_eq!(
            parse("byoyomi-jp:main=60m,periods=5,period=30s"),
            Ok(TimeControl::ByoyomiJp {
                main: Millis::minutes(60),
                periods: 5,
                period: Millis::seconds(30)
            })
        );
        assert_eq!(
            parse("canadian:main=60m,moves=15,block=10m"),
            Ok(TimeControl::Canadian {
                main: Millis::minutes(60),
                moves: 15,
                block: Millis::minutes(10)
            })
        );
        assert_eq!(
            parse("fischer:main=30m,increment=20s,max=60m"),
            Ok(TimeControl::Fischer {
                main: Millis::minutes(30),
                increment: Millis::seconds(20),
                max: Some(Millis::minutes(60)),
            })
        );
        assert_eq!(
            parse("fischer:main=30m,increment=20s"),
            Ok(TimeControl::Fischer {
                main: Millis::minutes(30),
                increment: Millis::seconds(20),
                max: None
            })
        );
    }

    #[test]
    fn canonical_strings_round_trip_exactly() {
        for s in [
            "none",
            "absolute:main=90m",
            "byoyomi-cn:main=60m,reserve=5",
            "byoyomi-cn:main=10m,reserve=3,period=30s",
            "byoyomi-cn:main=0s,reserve=1,period=1500ms",
            "byoyomi-jp:main=60m,periods=5,period=30s",
            "byoyomi-jp:main=60m,periods=5,period=60s",
            "canadian:main=60m,moves=15,block=10m",
            "fischer:main=30m,increment=20s,max=60m",
            "fischer:main=5m30s,increment=0s",
        ] {
            let tc = parse(s).unwrap();
            let again = tc.to_string();
            assert_eq!(parse(&again), Ok(tc), "{s} -> {again}");
            if s != "fischer:main=5m30s,increment=0s" {
                assert_eq!(again, s);
            }
        }
    }

    #[test]
    fn other_spellings_parse_to_the_same_value() {
        let canonical = parse("byoyomi-cn:main=90m,reserve=5").unwrap();
        assert_eq!(
            parse(" byoyomi-cn:reserve=5,main=1h30m,period=60s "),
            Ok(canonical)
        );
        assert_eq!(canonical.to_string(), "byoyomi-cn:main=90m,reserve=5");
    }

    #[test]
    fn errors_name_the_bad_part() {
        use TimeControlError as E;
        assert_eq!(parse(""), Err(E::Empty));
        assert_eq!(
            parse("blitz:main=5m"),
            Err(E::UnknownSystem("blitz".into()))
        );
        assert_eq!(
            parse("none:main=5m"),
            Err(E::UnexpectedParameters("main=5m".into()))
        );
        assert_eq!(
            parse("absolute"),
            Err(E::MissingKey {
                system: "absolute",
                key: "main"
            })
        );
        assert_eq!(parse("absolute:main"), Err(E::Malformed("main".into())));
        assert_eq!(parse("absolute:main=5m,"), Err(E::Malformed(String::new())));
        assert_eq!(
            parse("absolute:main=5m,main=6m"),
            Err(E::DuplicateKey("main".into()))
        );
        assert_eq!(
            parse("absolute:main=5m,reserve=5"),
            Err(E::UnknownKey {
                system: "absolute",
                key: "reserve".into()
            })
        );
        assert_eq!(
            parse("byoyomi-cn:main=60m"),
            Err(E::MissingKey {
                system: "byoyomi-cn",
                key: "reserve"
            })
        );
        assert_eq!(
            parse("byoyomi-cn:main=60,reserve=5"),
            Err(E::BadDuration {
                key: "main",
                value: "60".into(),
                source: DurationError::MissingUnit("60".into())
            })
        );
        assert_eq!(
            parse("byoyomi-cn:main=60m,reserve=five"),
            Err(E::BadCount {
                key: "reserve",
                value: "five".into()
            })
        );
        assert_eq!(
            parse("byoyomi-cn:main=60m,reserve=+5"),
            Err(E::BadCount {
                key: "reserve",
                value: "+5".into()
            })
        );
        assert!(matches!(
            parse("byoyomi-jp:main=60m,periods=0,period=30s"),
            Err(E::OutOfRange { key: "periods", .. })
        ));
        assert!(matches!(
            parse("byoyomi-jp:main=60m,periods=5,period=0s"),
            Err(E::OutOfRange { key: "period", .. })
        ));
        assert!(matches!(
            parse("byoyomi-cn:main=60m,reserve=1001"),
            Err(E::OutOfRange { key: "reserve", .. })
        ));
        assert!(matches!(
            parse("byoyomi-cn:main=60m,reserve=5,period=999ms"),
            Err(E::OutOfRange { key: "period", .. })
        ));
        assert!(matches!(
            parse("canadian:main=60m,moves=15,block=500ms"),
            Err(E::OutOfRange { key: "block", .. })
        ));
        assert!(matches!(
            parse("canadian:main=60m,moves=0,block=10m"),
            Err(E::OutOfRange { key: "moves", .. })
        ));
        assert!(matches!(
            parse("absolute:main=0s"),
            Err(E::OutOfRange { key: "main", .. })
        ));
        assert!(matches!(
            parse("fischer:main=30m,increment=20s,max=10m"),
            Err(E::OutOfRange { key: "max", .. })
        ));
        assert_eq!(
            parse("Absolute:main=5m"),
            Err(E::UnknownSystem("Absolute".into()))
        );
    }

    #[test]
    fn error_messages_quote_the_input() {
        let err = parse("byoyomi-cn:main=60x,reserve=5").unwrap_err();
        assert_eq!(
            err.to_string(),
            "`main=60x`: unknown unit `x` (use h, m, s or ms)"
        );
    }

    #[test]
    fn serde_uses_the_string() {
        let tc = parse("canadian:main=60m,moves=15,block=10m").unwrap();
        let json = serde_json::to_string(&tc).unwrap();
        assert_eq!(json, "\"canadian:main=60m,moves=15,block=10m\"");
        assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), tc);
        let bad = serde_json::from_str::<TimeControl>("\"absolute:main=5\"").unwrap_err();
        assert!(bad.to_string().contains("main=5"), "{bad}");
    }
}
