//! The point notation of api.md checked at the door (letters and numbers, I skipped), and
//! results checked against what the game's ruleset and board can produce.
//!
//! The form comes first, by the pattern `/openapi.json` declares (patterns.rs): a
//! string outside it is a 400. Time controls and results are then parsed by the
//! referee's and the rules' own parsers, so the API, the config and the runtime
//! share one grammar. What the board decides (its size, the game's ruleset and
//! komi) is checked against the game: a 409, as the document cannot know it.

use std::str::FromStr;

use goban_referee::clock::TimeControl;
use goban_rules::{GameResult, Ruleset, ScoreUnit, StatedResult, WinBy};
use serde::{Deserialize, Deserializer, de};

use super::patterns;

/// Column letters in wire-protocol order: A..Z without I.
const COLUMNS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Checks a point's form: a letter and a number on a board of at most 19 lines (api.md "Points").
pub(crate) fn check_point(text: &str) -> Result<(), String> {
    if patterns::is_point(text) {
        Ok(())
    } else {
        Err(format!(
            "{text:?} is not a point: a column letter A-T without I and a row 1-19, like D4"
        ))
    }
}

/// Normalises a point like `d4` to `D4`, checking it lies on a `size`×`size` board (api.md "Points").
pub(crate) fn normalise_point(text: &str, size: u32) -> Result<String, String> {
    check_point(text)?;
    let upper = text.to_ascii_uppercase();
    let mut chars = upper.chars();
    let column = chars.next().ok_or_else(|| "empty point".to_owned())?;
    let row_text = chars.as_str();
    let column_index = COLUMNS
        .find(column)
        .ok_or_else(|| format!("{text:?}: column must be a letter A-Z without I"))?;
    let row: u32 = row_text
        .parse()
        .map_err(|_| format!("{text:?}: expected a letter and a number, like D4"))?;
    let on_board = u32::try_from(column_index).is_ok_and(|c| c < size) && (1..=size).contains(&row);
    if !on_board || row_text.starts_with('0') {
        return Err(format!("{text:?} is not on a {size}x{size} board"));
    }
    Ok(upper)
}

/// Reads a result in SGF `RE` form, refusing the unknown result `?`: an arbiter names one.
pub(crate) fn parse_result(text: &str) -> Result<StatedResult, String> {
    let known = "give B+R, W+T, B+F, a margin like W+6.5 (quarter steps, at most 511), \
                 0 (draw) or Void (no result)";
    if !patterns::is_result(text) {
        return Err(format!("{text:?} is not a result: {known}"));
    }
    match text.parse::<StatedResult>() {
        Ok(stated) if stated.in_unit(ScoreUnit::Points) != GameResult::Unknown => Ok(stated),
        _ => Err(format!("{text:?} is not a result: {known}")),
    }
}

/// `result` of a body: read once, at the door, by [`parse_result`].
pub(crate) fn result<'de, D: Deserializer<'de>>(deserializer: D) -> Result<StatedResult, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse_result(&text).map_err(|why| de::Error::custom(format!("result: {why}")))
}

/// Reads a time control of the API: the pattern's form, then the referee's parser.
pub(crate) fn parse_time_control(text: &str) -> Result<TimeControl, String> {
    let parsed = TimeControl::from_str(text).map_err(|why| why.to_string())?;
    if !patterns::is_time_control(text) {
        return Err(format!(
            "{text:?}: write it as api.md does, keys in its order and no zero parts \
             (e.g. {parsed}); a Fischer cap (max=) is set in the config file"
        ));
    }
    Ok(parsed)
}

/// `time_control` of a body: read once, at the door, by [`parse_time_control`].
pub(crate) fn time_control<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<TimeControl>, D::Error> {
    let Some(text) = Option::<String>::deserialize(deserializer)? else {
        return Ok(None);
    };
    parse_time_control(&text)
        .map(Some)
        .map_err(|why| de::Error::custom(format!("time_control: {why}")))
}

/// The step of a margin under `ruleset`, in its unit, the unit's name and the ruleset's.
fn margin_step(ruleset: Ruleset) -> (f64, &'static str, &'static str) {
    match ruleset {
        // CN2002 9, 11: stones, quarter stones through the 3 3/4 komi and half dame.
        Ruleset::Cn2002 => (0.25, "stones", "cn2002"),
        Ruleset::Historical => (0.25, "stones", "historical"),
        // Territory (jk) and Ing area: whole points, half points through komi.
        Ruleset::Jk => (0.5, "points", "jk"),
        Ruleset::Ing => (0.5, "points", "ing"),
    }
}

/// Checks that `result` is one the game's ruleset can produce on a `size` board with `komi` (points).
pub(crate) fn check_result(
    result: &StatedResult,
    ruleset: Ruleset,
    size: u32,
    komi: f64,
) -> Result<(), String> {
    let GameResult::Win {
        by: WinBy::Score(margin),
        ..
    } = result.in_unit(ruleset.score_unit())
    else {
        return Ok(());
    };
    // The number as the arbiter wrote it, in the ruleset's unit (the state's `result` form).
    let margin = margin.value();
    let (step, unit, name) = margin_step(ruleset);
    let points = f64::from(size * size) + komi.abs();
    let largest = if unit == "stones" {
        points / 2.0
    } else {
        points
    };
    if margin <= 0.0 {
        return Err("a margin of 0 is a draw: give 0".into());
    }
    if (margin / step).fract() != 0.0 {
        return Err(format!(
            "{margin} {unit}: under {name} margins come in steps of {step} {unit}"
        ));
    }
    if margin > largest {
        return Err(format!(
            "{margin} {unit} is more than a {size}x{size} board allows ({largest} at most)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, ruleset: Ruleset, size: u32) -> Result<(), String> {
        check_result(&parse_result(text)?, ruleset, size, ruleset.default_komi())
    }

    #[test]
    fn results_follow_the_ruleset_and_the_board() {
        assert!(check("B+0.75", Ruleset::Cn2002, 19).is_ok());
        assert!(check("W+0.25", Ruleset::Cn2002, 19).is_ok());
        assert!(check("B+0.3", Ruleset::Cn2002, 19).is_err());
        assert!(check("W+6.5", Ruleset::Jk, 19).is_ok());
        assert!(check("W+6.25", Ruleset::Jk, 19).is_err());
        assert!(check("W+1000000", Ruleset::Cn2002, 19).is_err());
        assert!(check("B+185", Ruleset::Cn2002, 19).is_err());
        assert!(check("B+176.75", Ruleset::Cn2002, 19).is_ok());
        assert!(check("B+90", Ruleset::Jk, 9).is_err());
        assert!(check("B+0", Ruleset::Jk, 19).is_err());
        assert!(
            check("W+367.5", Ruleset::Jk, 19).is_ok(),
            "361 points and komi"
        );
        for code in ["B+R", "W+T", "B+F", "0", "Void"] {
            assert!(check(code, Ruleset::Jk, 9).is_ok(), "{code}");
        }
        for bad in [
            "?", "", "B+X", "black", "W+-3", "B+inf", "W+Resign", "B+512",
        ] {
            assert!(parse_result(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn points_skip_i_and_respect_size() {
        assert_eq!(normalise_point("d4", 19).unwrap(), "D4");
        assert_eq!(normalise_point("T19", 19).unwrap(), "T19");
        assert!(normalise_point("I5", 19).is_err());
        assert!(normalise_point("T19", 13).is_err());
        assert!(normalise_point("A0", 19).is_err());
        assert!(normalise_point("A05", 19).is_err());
        assert!(normalise_point("A20", 19).is_err());
        assert!(normalise_point("pass", 19).is_err());
        assert!(normalise_point("", 19).is_err());
        assert!(
            normalise_point(" D4", 19).is_err(),
            "the pattern has no spaces"
        );
    }
}
