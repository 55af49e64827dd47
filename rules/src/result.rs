//! Game results: SGF `RE` always in points ("B+48.5", "W+R", "0", "Void"), and the rules'
//! own wording, in stones under CN2002 ("B+24.25").

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Color, RulesError, ScoreUnit};

/// A margin with its unit, so that a margin in stones cannot be written as points.
///
/// ```
/// use goban_rules::Margin;
/// let m = Margin::Stones(24.25);
/// assert_eq!(m.points(), 48.5);
/// assert_eq!(m.to_string(), "24.25 stones");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(
        description = "A margin keyed by its unit: `{\"stones\": -3.75}` (CN2002 and the \
        historical rules, 1 stone = 2 points) or `{\"points\": 6.5}` (JK, Ing)."
    )
)]
pub enum Margin {
    /// 子 (CN2002 and the historical rules); 1 stone = 2 points.
    Stones(f64),
    /// 目, points (JK, Ing, and every SGF `RE`).
    Points(f64),
}

impl Margin {
    /// `value` in `unit`.
    #[must_use]
    pub const fn new(value: f64, unit: ScoreUnit) -> Self {
        match unit {
            ScoreUnit::Stones => Self::Stones(value),
            ScoreUnit::Points => Self::Points(value),
        }
    }

    /// The margin in points (stones count double).
    #[must_use]
    pub fn points(self) -> f64 {
        match self {
            Self::Stones(s) => s * 2.0,
            Self::Points(p) => p,
        }
    }

    /// The margin in its own unit.
    #[must_use]
    pub const fn value(self) -> f64 {
        match self {
            Self::Stones(v) | Self::Points(v) => v,
        }
    }

    /// Its unit.
    #[must_use]
    pub const fn unit(self) -> ScoreUnit {
        match self {
            Self::Stones(_) => ScoreUnit::Stones,
            Self::Points(_) => ScoreUnit::Points,
        }
    }
}

impl std::fmt::Display for Margin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let unit = match self {
            Self::Stones(_) => "stones",
            Self::Points(_) => "points",
        };
        write!(f, "{} {unit}", format_margin(self.value()))
    }
}

/// How the winner won.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WinBy {
    /// By the count, in the ruleset's unit (stones under CN2002 and historical, points
    /// otherwise).
    Score(Margin),
    /// The opponent resigned (CN2002 art. 7).
    Resignation,
    /// The opponent lost on time (CN2002 12.4, 22.5).
    Time,
    /// The opponent forfeited or was ruled lost by an arbiter (CN2002 13.1, 24.2).
    Forfeit,
}

/// The outcome of a game. Serialised as its SGF `RE` string (points).
///
/// ```
/// use goban_rules::{Color, GameResult, Margin, WinBy};
/// let r = GameResult::Win { winner: Color::Black, by: WinBy::Score(Margin::Stones(24.25)) };
/// assert_eq!(r.to_sgf(), "B+48.5"); // SGF RE: points, as every SGF tool reads it
/// assert_eq!(r.to_rules_string(), "B+24.25"); // CN2002 speaks stones
/// assert_eq!(r.to_string(), "B+24.25 stones");
/// ```
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

    /// The result a count gives: `lead` is Black's (negative when White leads), its margin in
    /// the lead's unit; no lead is a draw.
    ///
    /// ```
    /// use goban_rules::{GameResult, Margin};
    /// assert_eq!(GameResult::of_lead(Margin::Stones(-3.75)).to_rules_string(), "W+3.75");
    /// assert_eq!(GameResult::of_lead(Margin::Points(0.0)), GameResult::Draw);
    /// ```
    #[must_use]
    pub fn of_lead(lead: Margin) -> Self {
        let value = lead.value();
        let winner = if value > 0.0 {
            Color::Black
        } else if value < 0.0 {
            Color::White
        } else {
            return Self::Draw;
        };
        Self::Win {
            winner,
            by: WinBy::Score(Margin::new(value.abs(), lead.unit())),
        }
    }

    /// The SGF `RE` value: the margin always in points, as other SGF tools read it.
    #[must_use]
    pub fn to_sgf(&self) -> String {
        self.text(|m| format_margin(m.points()))
    }

    /// The result as the rules state it, the margin in the ruleset's unit: stones under
    /// CN2002 and the historical rules ("B+24.25"), points otherwise. For the live state,
    /// SGF comments and pages; never for SGF `RE` (use [`GameResult::to_sgf`]).
    #[must_use]
    pub fn to_rules_string(&self) -> String {
        self.text(|m| format_margin(m.value()))
    }

    fn text(&self, margin: impl Fn(Margin) -> String) -> String {
        match self {
            Self::Win { winner, by } => {
                let how = match by {
                    WinBy::Score(m) => margin(*m),
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

    /// Reads an SGF `RE` value (margin in points), accepting the long forms real files use
    /// (`B+Resign`, `W+Time`, `Draw`, `Jigo`).
    ///
    /// # Errors
    /// [`RulesError::BadResult`] for anything else.
    pub fn parse_sgf(text: &str) -> Result<Self, RulesError> {
        Self::parse_in(text, ScoreUnit::Points)
    }

    /// Reads a result written as [`GameResult::parse_sgf`] accepts, its margin in `unit`:
    /// what [`GameResult::to_rules_string`] wrote for a ruleset of that unit.
    ///
    /// # Errors
    /// [`RulesError::BadResult`] for anything else.
    pub fn parse_in(text: &str, unit: ScoreUnit) -> Result<Self, RulesError> {
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
            m => WinBy::Score(Margin::new(
                m.parse::<f64>()
                    .ok()
                    .filter(|m| m.is_finite() && *m >= 0.0)
                    .ok_or_else(bad)?,
                unit,
            )),
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

/// The rules' wording with the unit spelled out: "B+24.25 stones", "W+6.5 points", "B+R".
impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_rules_string())?;
        match self {
            Self::Win {
                by: WinBy::Score(m),
                ..
            } => write!(
                f,
                " {}",
                if m.unit() == ScoreUnit::Stones {
                    "stones"
                } else {
                    "points"
                }
            ),
            _ => Ok(()),
        }
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

/// A result as an arbiter states it, before the game it ends is at hand: SGF `RE` form with
/// the margin a bare number in the unit of whatever ruleset the game is counted under
/// (stones under CN2002). Read once, by [`str::parse`] (the forms of
/// [`GameResult::parse_in`]); [`StatedResult::in_unit`] gives the [`GameResult`] once the
/// unit is known. Serialised as the text it was read from.
///
/// ```
/// use goban_rules::{GameResult, Margin, ScoreUnit, StatedResult, WinBy, Color};
/// let stated: StatedResult = "B+0.75".parse()?;
/// let win = GameResult::Win { winner: Color::Black, by: WinBy::Score(Margin::Stones(0.75)) };
/// assert_eq!(stated.in_unit(ScoreUnit::Stones), win);
/// assert_eq!(stated.as_str(), "B+0.75");
/// # Ok::<(), goban_rules::RulesError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct StatedResult {
    /// The text as it came.
    text: String,
    /// The result read from it, a margin read as points until [`StatedResult::in_unit`] says.
    result: GameResult,
}

impl StatedResult {
    /// The text it was read from.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The result, its margin in `unit`: the unit of the ruleset the game is counted under.
    #[must_use]
    pub fn in_unit(&self, unit: ScoreUnit) -> GameResult {
        self.result.with_margin_unit(unit)
    }
}

impl std::str::FromStr for StatedResult {
    type Err = RulesError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(Self {
            result: GameResult::parse_in(text, ScoreUnit::Points)?,
            text: text.to_owned(),
        })
    }
}

/// A result of the rules' own, stated as [`GameResult::to_rules_string`] writes it.
impl From<GameResult> for StatedResult {
    fn from(result: GameResult) -> Self {
        Self {
            text: result.to_rules_string(),
            result: result.with_margin_unit(ScoreUnit::Points),
        }
    }
}

impl GameResult {
    /// The same result, a margin's number kept and read in `unit`.
    const fn with_margin_unit(self, unit: ScoreUnit) -> Self {
        match self {
            Self::Win {
                winner,
                by: WinBy::Score(margin),
            } => Self::Win {
                winner,
                by: WinBy::Score(Margin::new(margin.value(), unit)),
            },
            other => other,
        }
    }
}

impl std::fmt::Display for StatedResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for StatedResult {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for StatedResult {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
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
    fn stones_are_written_as_points_in_re_only() {
        let r = GameResult::Win {
            winner: Color::White,
            by: WinBy::Score(Margin::Stones(24.25)),
        };
        assert_eq!(r.to_sgf(), "W+48.5");
        assert_eq!(r.to_rules_string(), "W+24.25");
        assert_eq!(
            GameResult::parse_in("W+24.25", ScoreUnit::Stones).unwrap(),
            r
        );
        assert_eq!(GameResult::parse_sgf("W+48.5").unwrap().to_sgf(), "W+48.5");
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
    fn a_stated_result_takes_the_unit_of_its_game_and_keeps_its_text() {
        let stated: StatedResult = "W+6.5".parse().unwrap();
        let points = GameResult::Win {
            winner: Color::White,
            by: WinBy::Score(Margin::Points(6.5)),
        };
        assert_eq!(stated.in_unit(ScoreUnit::Points), points);
        assert_eq!(stated.in_unit(ScoreUnit::Stones).to_sgf(), "W+13");
        let resign: StatedResult = "b+resign".parse().unwrap();
        assert_eq!(serde_json::to_string(&resign).unwrap(), "\"b+resign\"");
        assert!("B+X".parse::<StatedResult>().is_err());
        let stones = GameResult::Win {
            winner: Color::Black,
            by: WinBy::Score(Margin::Stones(0.75)),
        };
        let stated = StatedResult::from(stones);
        assert_eq!(
            (stated.as_str(), stated.in_unit(ScoreUnit::Stones)),
            ("B+0.75", stones)
        );
    }

    #[test]
    fn serde_is_the_sgf_string() {
        let r = GameResult::Win {
            winner: Color::Black,
            by: WinBy::Score(Margin::Stones(0.75)),
        };
        assert_eq!(serde_json::to_string(&r).unwrap(), "\"B+1.5\"");
    }
}
