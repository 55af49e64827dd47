//! Rulesets and ko rules, with their default komi.

use serde::{Deserialize, Serialize};

/// How whole-board repetition is restricted (CN2002 art. 6 and 20; JK 11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum KoRule {
    /// Only the immediate recapture of a single-stone ko is forbidden (JK basic ko).
    Simple,
    /// No move may recreate an earlier board position.
    Positional,
    /// No move may make the opponent face an earlier position with the same player to
    /// move: the wording of CN2002 art. 6, hence the default.
    #[default]
    Situational,
}

/// The rules a game is played and counted under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Ruleset {
    /// The 2002 Chinese rules: area counting in stones, komi 3¾ stones (CN2002 art. 9, 11).
    #[default]
    Cn2002,
    /// Japanese/Korean rules: territory and prisoners, komi 6.5 points.
    Jk,
    /// Ing (Taiwan) rules: area-like counting, komi 8 points.
    Ing,
    /// Historical Chinese rules: 座子 opening, White first, no komi, 还棋头.
    Historical,
}

impl Ruleset {
    /// Komi in points when no handicap is given: 7.5 (= 3¾ stones), 6.5, 8 or 0.
    #[must_use]
    pub const fn default_komi(self) -> f64 {
        match self {
            Self::Cn2002 => 7.5,
            Self::Jk => 6.5,
            Self::Ing => 8.0,
            Self::Historical => 0.0,
        }
    }

    /// The ko rule used unless the tournament says otherwise: situational superko for
    /// CN2002 (art. 6) and Ing, basic ko for JK (JK 11) and the historical rules.
    #[must_use]
    pub const fn default_ko_rule(self) -> KoRule {
        match self {
            Self::Cn2002 | Self::Ing => KoRule::Situational,
            Self::Jk | Self::Historical => KoRule::Simple,
        }
    }

    /// The unit the ruleset states margins in: stones (子) for CN2002 and the historical
    /// rules, points (目) for JK and Ing.
    #[must_use]
    pub const fn score_unit(self) -> crate::ScoreUnit {
        match self {
            Self::Cn2002 | Self::Historical => crate::ScoreUnit::Stones,
            Self::Jk | Self::Ing => crate::ScoreUnit::Points,
        }
    }

    /// The SGF `RU` value written for this ruleset.
    #[must_use]
    pub const fn sgf_name(self) -> &'static str {
        match self {
            Self::Cn2002 => "Chinese",
            Self::Jk => "Japanese",
            Self::Ing => "GOE",
            Self::Historical => "Historical",
        }
    }

    /// Reads an SGF `RU` value, case-insensitively; unknown names give `None`.
    #[must_use]
    pub fn from_sgf_name(text: &str) -> Option<Self> {
        let lower = text.trim().to_ascii_lowercase();
        match lower.as_str() {
            "chinese" | "cn2002" | "cn" => Some(Self::Cn2002),
            "japanese" | "korean" | "jk" | "jp" => Some(Self::Jk),
            "goe" | "ing" => Some(Self::Ing),
            "historical" => Some(Self::Historical),
            _ => None,
        }
    }

    /// The name used in configuration and JSON.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Cn2002 => "cn2002",
            Self::Jk => "jk",
            Self::Ing => "ing",
            Self::Historical => "historical",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_names() {
        for r in [
            Ruleset::Cn2002,
            Ruleset::Jk,
            Ruleset::Ing,
            Ruleset::Historical,
        ] {
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, format!("\"{}\"", r.as_str()));
            assert_eq!(Ruleset::from_sgf_name(r.sgf_name()), Some(r));
        }
        assert_eq!(
            serde_json::to_string(&KoRule::default()).unwrap(),
            "\"situational\""
        );
    }

    #[test]
    fn cn2002_komi_is_three_and_three_quarter_stones() {
        // CN2002 art. 11: 3¾ stones = 7.5 points.
        assert!((Ruleset::Cn2002.default_komi() / 2.0 - 3.75).abs() < 1e-9);
    }
}
