//! A board's time control as written in the config: the referee's own type, read with the config's words for a bad one.

use goban_referee::clock::TimeControl;
use serde::{Deserialize, Deserializer, de};

/// `time_control`: api.md's grammar, parsed by the referee once, when the file is read.
pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<TimeControl, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse(&text).map_err(de::Error::custom)
}

/// The referee's parse, its error prefixed with the text.
fn parse(text: &str) -> Result<TimeControl, String> {
    text.parse()
        .map_err(|err| format!("time control {text:?}: {err}"))
}

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
            assert!(parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "blitz:main=5m",
            "absolute:main=90",
            "byoyomi-cn:main=60m",
            "fischer:main=1m,increment=x",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
