//! A board's time control as written in the config, checked against the api.md grammar when it is read.

use std::fmt;
use std::str::FromStr;

use super::types::serde_via_str;
use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

/// A time-control string known to be valid (api.md "Time control strings").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControlSpec(String);

impl TimeControlSpec {
    /// The parsed time control for the referee.
    pub fn parsed(&self) -> Option<goban_referee::clock::TimeControl> {
        // Only valid texts are ever stored (FromStr above), so this is always Some.
        goban_referee::clock::TimeControl::from_str(&self.0).ok()
    }

    /// The canonical text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for TimeControlSpec {
    fn default() -> Self {
        Self("none".into())
    }
}

impl FromStr for TimeControlSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let parsed = goban_referee::clock::TimeControl::from_str(text)
            .map_err(|err| format!("time control {text:?}: {err}"))?;
        Ok(Self(parsed.to_string()))
    }
}

impl fmt::Display for TimeControlSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

serde_via_str!(TimeControlSpec);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_api_examples_and_rejects_junk() {
        for ok in [
            "none",
            "absolute:main=90m",
            "byoyomi-cn:main=60m,reserve=5",
            "byoyomi-jp:main=60m,periods=5,period=30s",
            "canadian:main=60m,moves=15,block=10m",
            "fischer:main=30m,increment=20s,max=60m",
        ] {
            assert!(ok.parse::<TimeControlSpec>().is_ok(), "{ok}");
        }
        for bad in [
            "",
            "blitz:main=5m",
            "absolute:main=90",
            "byoyomi-cn:main=60m",
            "fischer:main=1m,increment=x",
        ] {
            assert!(bad.parse::<TimeControlSpec>().is_err(), "{bad}");
        }
    }
}
