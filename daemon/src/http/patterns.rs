//! The regular forms of request strings, one text each for the OpenAPI `pattern` and the server's check.
//!
//! A request the document calls valid is one the server takes, and the other way
//! round: each pattern here is both what `/openapi.json` declares and the first
//! check the server makes (the `regex` crate reads the same text), before the
//! referee's or the rules' own parser. What depends on the board (its size, the
//! game's ruleset and komi) cannot be in a pattern: it is checked against the
//! game and refused with a 409.
//!
//! The texts keep to the part of regular-expression syntax that ECMA-262 (JSON
//! Schema), Python (schemathesis) and Rust read alike: classes, `(?:…)`, `?`,
//! `{m,n}`, `|`, and `^…$` around the whole. (Names and notes refuse control
//! characters: their patterns are `char::is_control` spelled as a class, in bodies.rs.)

use std::sync::LazyLock;

use regex::Regex;

/// A positive whole number as the grammars write it: no leading zero, at most six digits.
const NUMBER: &str = "[1-9][0-9]{0,5}";

/// A count of periods, reserved minutes or moves: 1 to 1000 (the referee's bounds).
const COUNT: &str = "(?:[1-9][0-9]{0,2}|1000)";

/// The largest margin any board allows: 361 points and a komi of 150 (a 19-line board, the
/// API's largest komi). A margin beyond what the game's own board allows is a 409.
const MARGIN: &str =
    "(?:0\\.(?:25|5|75)|(?:[1-9][0-9]?|[1-4][0-9]{2}|50[0-9]|510)(?:\\.(?:25|5|75))?|511)";

/// A non-zero duration: `h`, `m`, `s`, `ms` groups, largest first, each once, none of them 0.
fn positive_duration() -> String {
    let g = |unit: &str| format!("{NUMBER}{unit}");
    let (h, m, s, ms) = (g("h"), g("m"), g("s"), g("ms"));
    format!("(?:{h}(?:{m})?(?:{s})?(?:{ms})?|{m}(?:{s})?(?:{ms})?|{s}(?:{ms})?|{ms})",)
}

/// A duration of a second or more (byo-yomi periods, Canadian blocks): a group in
/// `h`, `m` or `s`, or 1000 ms and more.
fn second_or_more() -> String {
    let g = |unit: &str| format!("{NUMBER}{unit}");
    let (h, m, s, ms) = (g("h"), g("m"), g("s"), g("ms"));
    format!(
        "(?:{h}(?:{m})?(?:{s})?(?:{ms})?|{m}(?:{s})?(?:{ms})?|{s}(?:{ms})?|[1-9][0-9]{{3,5}}ms)",
    )
}

/// The time-control grammar of api.md in the order the daemon itself writes it.
///
/// A subset of what the referee's parser reads (the config takes the parser's whole
/// grammar): keys in the documented order, durations without zero groups (`0s` for none),
/// and Fischer without `max`, whose "at least the main time" no pattern can state.
pub(crate) static TIME_CONTROL: LazyLock<String> = LazyLock::new(|| {
    let (positive, second) = (positive_duration(), second_or_more());
    let any = format!("(?:0(?:h|m|s|ms)|{positive})");
    format!(
        "^(?:none\
         |absolute:main={positive}\
         |byoyomi-cn:main={any},reserve={COUNT}(?:,period={second})?\
         |byoyomi-jp:main={any},periods={COUNT},period={second}\
         |canadian:main={any},moves={COUNT},block={second}\
         |fischer:main={positive},increment={any})$"
    )
});

/// A result in SGF `RE` form as an arbiter gives it: `B+R`, `W+T`, `B+F`, a margin in
/// quarter steps up to [`MARGIN`]'s bound, `0` (draw) or `Void` (no result).
pub(crate) static RESULT: LazyLock<String> =
    LazyLock::new(|| format!("^(?:[BW]\\+(?:R|T|F|{MARGIN})|0|Void)$"));

/// A point in letters and numbers (`D4`, no `I`), either case, on a board of at most 19 lines.
pub(crate) const POINT: &str = "^[A-HJ-Ta-hj-t](?:[1-9]|1[0-9])$";

/// A move of a setup block as the arbiter orders it: a point of [`POINT`]'s form, or `pass`
/// (a move nobody saw may have been one).
pub(crate) const POINT_OR_PASS: &str = "^(?:[A-HJ-Ta-hj-t](?:[1-9]|1[0-9])|pass)$";

/// A compiled pattern of this file.
fn compiled(pattern: &str) -> Regex {
    // Invariant: every pattern is a constant of this file, and its tests compile each one.
    Regex::new(pattern).expect("a pattern of patterns.rs compiles")
}

/// Whether `text` is a time control of [`TIME_CONTROL`]'s form.
pub(crate) fn is_time_control(text: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| compiled(&TIME_CONTROL));
    RE.is_match(text)
}

/// Whether `text` is a result of [`RESULT`]'s form.
pub(crate) fn is_result(text: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| compiled(&RESULT));
    RE.is_match(text)
}

/// Whether `text` is a point of [`POINT`]'s form.
pub(crate) fn is_point(text: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| compiled(POINT));
    RE.is_match(text)
}

/// Whether `text` is a point of [`POINT`]'s form or `pass`.
pub(crate) fn is_point_or_pass(text: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| compiled(POINT_OR_PASS));
    RE.is_match(text)
}

/// The pattern without its `^…$`, as proptest's generator reads it.
#[cfg(test)]
fn unanchored(pattern: &str) -> &str {
    &pattern[1..pattern.len() - 1]
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use goban_referee::clock::TimeControl;
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn every_pattern_compiles() {
        for pattern in [TIME_CONTROL.as_str(), RESULT.as_str(), POINT, POINT_OR_PASS] {
            compiled(pattern);
        }
    }

    #[test]
    fn the_daemon_writes_its_time_controls_in_the_pattern() {
        for text in [
            "none",
            "absolute:main=90m",
            "byoyomi-cn:main=60m,reserve=5",
            "byoyomi-cn:main=0s,reserve=5,period=30s",
            "byoyomi-jp:main=60m,periods=5,period=30s",
            "byoyomi-jp:main=1h30m,periods=3,period=1500ms",
            "canadian:main=60m,moves=15,block=10m",
            "fischer:main=30m,increment=20s",
            "fischer:main=500ms,increment=0s",
        ] {
            let control = TimeControl::from_str(text).expect(text);
            assert!(is_time_control(text), "{text}");
            let printed = control.to_string();
            assert!(is_time_control(&printed), "{printed}");
        }
    }

    #[test]
    fn the_pattern_refuses_what_it_cannot_promise() {
        for text in [
            "",
            " none",
            "none ",
            "sudden death",
            "byoyomi-cn:reserve=5,main=60m",
            "byoyomi-cn:main=60,reserve=5",
            "byoyomi-cn:main=60m,reserve=0",
            "byoyomi-cn:main=60m,reserve=1001",
            "byoyomi-jp:main=60m,periods=5,period=999ms",
            "absolute:main=0s",
            "fischer:main=30m,increment=20s,max=60m",
            "canadian:main=60m,moves=15,block=0s",
            "absolute:main=1m2h",
            "absolute:main=01m",
        ] {
            assert!(!is_time_control(text), "{text}");
        }
    }

    #[test]
    fn results_and_points() {
        for good in [
            "B+R", "W+T", "B+F", "0", "Void", "W+0.25", "B+6.5", "W+511", "B+510.75",
        ] {
            assert!(is_result(good), "{good}");
        }
        for bad in [
            "B+0",
            "W+07",
            "B+511.5",
            "B+1000000",
            "B+6.0",
            "W+Resign",
            "?",
            "B+R ",
        ] {
            assert!(!is_result(bad), "{bad}");
        }
        for good in ["D4", "d4", "T19", "A1", "j10"] {
            assert!(is_point(good), "{good}");
        }
        for bad in ["I5", "D0", "D20", "D04", " D4", "pass"] {
            assert!(!is_point(bad), "{bad}");
        }
    }

    proptest! {
        /// What the pattern admits, the referee's parser reads: the schema never promises
        /// a time control the server then refuses.
        #[test]
        fn every_time_control_of_the_pattern_parses(text in unanchored(&TIME_CONTROL)) {
            prop_assert!(is_time_control(&text), "{}", text);
            prop_assert!(TimeControl::from_str(&text).is_ok(), "{}", text);
        }

        /// Every result of the pattern is one the rules core reads, and not the unknown `?`.
        #[test]
        fn every_result_of_the_pattern_parses(text in unanchored(&RESULT)) {
            prop_assert!(is_result(&text), "{}", text);
            prop_assert!(super::super::grammar::parse_result(&text).is_ok(), "{}", text);
        }
    }
}
