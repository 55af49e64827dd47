//! Game results in SGF `RE` form: "B+0.75", "W+R", "B+T", "0", "Void".

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Color, RulesError};

/// How the winner won.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WinBy {
    /// By the count; the margin is in the ruleset's unit (stones under CN2002, points
    /// otherwise).
    Score(f64),
    /// The opponent resigned (CN2002 art. 7).
    Resignation,
    /// The opponent lost on time (CN2002 12.4, 22.5).
    Time,
    /// The opponent forfeited or was ruled lost by an arbiter (CN2002 13.1, 24.2).
    Forfeit,
}

/// The outcome of a game. Serialised as its SGF `RE` string.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GameResult {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// How.
        by: WinBy,
    },
    /// A draw (jigo; CN2002 art. 9: exactly at par; or ruled by an arbiter, art. 20.3).
    Draw,
    /// No result (a cycle under JK, or an arbiter's "no result", CN2002 20.3).
    NoResult,
    /// Unknown result (SGF `?`).
    Unknown,
}

impl GameResult {
    /// The winner, if any.
    #[must_use]
    pub const fn winner(&self) -> Option<Color> {
        match self {
            Self::Win { winner, .. } => Some(*winner),
            _ => None,
        }
    }

    /// The SGF `RE` value.
    #[must_use]
    pub fn to_sgf(&self) -> String {
        match self {
            Self::Win { winner, by } => {
                let how = match by {
                    WinBy::Score(m) => format_margin(*m),
                    WinBy::Resignation => "R".to_owned(),
                    WinBy::Time => "T".to_owned(),
                    WinBy::Forfeit => "F".to_owned(),
                };
                format!("{}+{how}", winner.sgf_letter())
            }
            Self::Draw => "0".to_owned(),
            Self::NoResult => "Void".to_owned(),
            Self::Unknown => "?".to_owned(),
        }
    }

    /// Reads an SGF `RE` value, accepting the long forms real files use
    /// (`B+Resign`, `W+Time`, `Draw`, `Jigo`).
    ///
    /// # Errors
    /// [`RulesError::BadResult`] for anything else.
    pub fn parse_sgf(text: &str) -> Result<Self, RulesError> {
        let t = text.trim();
        let bad = || RulesError::BadResult(text.to_owned());
        match t.to_ascii_lowercase().as_str() {
            "0" | "draw" | "jigo" => return Ok(Self::Draw),
            "void" => return Ok(Self::NoResult),
            "?" | "" => return Ok(Self::Unknown),
            _ => {}
        }
        let (who, how) = t.split_once('+').ok_or_else(bad)?;
        let winner = match who.to_ascii_uppercase().as_str() {
            "B" => Color::Black,
            "W" => Color::White,
            _ => return Err(bad()),
        };
        let by = match how.to_ascii_lowercase().as_str() {
            "r" | "resign" | "resignation" => WinBy::Resignation,
            "t" | "time" => WinBy::Time,
            "f" | "forfeit" => WinBy::Forfeit,
            m => WinBy::Score(
                m.parse::<f64>()
                    .ok()
                    .filter(|m| m.is_finite() && *m >= 0.0)
                    .ok_or_else(bad)?,
            ),
        };
        Ok(Self::Win { winner, by })
    }
}

/// A margin without useless zeros: 0.75, 6.5, 3.
fn format_margin(m: f64) -> String {
    let s = format!("{m:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_owned()
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_sgf())
    }
}

impl Serialize for GameResult {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_sgf())
    }
}

impl<'de> Deserialize<'de> for GameResult {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Self::parse_sgf(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_forms_round_trip() {
        for text in [
            "B+0.75", "W+0.25", "W+6.5", "B+3", "B+R", "W+T", "B+F", "0", "Void", "?",
        ] {
            assert_eq!(GameResult::parse_sgf(text).unwrap().to_sgf(), text);
        }
    }

    #[test]
    fn long_forms_are_read() {
        let r = GameResult::parse_sgf("W+Resign").unwrap();
        assert_eq!(
            r,
            GameResult::Win {
                winner: Color::White,
                by: WinBy::Resignation
            }
        );
        assert_eq!(GameResult::parse_sgf("Jigo").unwrap(), GameResult::Draw);
        assert!(GameResult::parse_sgf("X+1").is_err());
        assert!(GameResult::parse_sgf("B+-1").is_err());
    }

    #[test]
    fn serde_is_the_sgf_string() {
        let r = GameResult::Win {
            winner: Color::Black,
            by: WinBy::Score(0.75),
        };
        assert_eq!(serde_json::to_string(&r).unwrap(), "\"B+0.75\"");
    }
}
