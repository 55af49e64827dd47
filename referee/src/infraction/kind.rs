//! The infraction kinds of the digest's table and the article each ruleset cites for them.

use goban_rules::Ruleset;
use serde::{Deserialize, Serialize};

/// The ids of the infraction table in rules-digest.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum InfractionKind {
    /// A stone on a suicide point (CN2002 19, JK 10).
    ForbiddenPoint,
    /// An immediate ko retake or a superko repetition (CN2002 18.3, 20.1; JK 11.1).
    KoViolation,
    /// A stone on a point the game says is occupied (CN2002 2.3).
    OccupiedPoint,
    /// The same colour twice without a pass (CN2002 17.2; JK 8.1).
    DoubleMove,
    /// The players hold each other's colours (CN2002 17.1).
    WrongColour,
    /// Captured stones still on the board at the press (CN2002 18.2, 22.6).
    MissedCapture,
    /// Stones with liberties removed (CN2002 18.1; JK 9).
    WrongCapture,
    /// The clock pressed before the stone was placed (CN2002 17.4).
    PrematurePress,
    /// A completed move's stone lifted and put elsewhere (CN2002 17.3; JK 8.2).
    Takeback,
    /// A stone on the board moved or vanished without a capture (CN2002 17.5; JK 8.3).
    DisplacedStones,
    /// Many stones moved or vanished at once (CN2002 17.6; JK 8.4).
    BoardDisturbed,
    /// The last period or absolute time ran out (CN2002 12.4, 22.5).
    TimeForfeit,
    /// The player was absent when the clock started (CN2002 22.1-22.4).
    LateStart,
}

impl InfractionKind {
    /// Every kind, in the table's order.
    pub const ALL: [Self; 13] = [
        Self::ForbiddenPoint,
        Self::KoViolation,
        Self::OccupiedPoint,
        Self::DoubleMove,
        Self::WrongColour,
        Self::MissedCapture,
        Self::WrongCapture,
        Self::PrematurePress,
        Self::Takeback,
        Self::DisplacedStones,
        Self::BoardDisturbed,
        Self::TimeForfeit,
        Self::LateStart,
    ];

    /// The id as api.md and the digest write it.
    pub fn id(self) -> &'static str {
        match self {
            Self::ForbiddenPoint => "forbidden_point",
            Self::KoViolation => "ko_violation",
            Self::OccupiedPoint => "occupied_point",
            Self::DoubleMove => "double_move",
            Self::WrongColour => "wrong_colour",
            Self::MissedCapture => "missed_capture",
            Self::WrongCapture => "wrong_capture",
            Self::PrematurePress => "premature_press",
            Self::Takeback => "takeback",
            Self::DisplacedStones => "displaced_stones",
            Self::BoardDisturbed => "board_disturbed",
            Self::TimeForfeit => "time_forfeit",
            Self::LateStart => "late_start",
        }
    }

    /// The kind in words, as an arbiter reads it in an SGF comment or the audit trail.
    pub fn words(self) -> &'static str {
        match self {
            Self::ForbiddenPoint => "stone on a forbidden point",
            Self::KoViolation => "ko retaken too soon",
            Self::OccupiedPoint => "stone on an occupied point",
            Self::DoubleMove => "two moves in a row",
            Self::WrongColour => "players holding the wrong colours",
            Self::MissedCapture => "captured stones not removed",
            Self::WrongCapture => "stones removed that were not captured",
            Self::PrematurePress => "clock pressed before the stone was placed",
            Self::Takeback => "move taken back",
            Self::DisplacedStones => "stones moved or removed",
            Self::BoardDisturbed => "board disturbed",
            Self::TimeForfeit => "time ran out",
            Self::LateStart => "late arrival",
        }
    }

    /// The article to cite under `ruleset`: `jk` cites the JK article where the
    /// digest gives one; every other case cites CN2002 (the digest's table).
    pub fn article(self, ruleset: Ruleset) -> &'static str {
        match self.jk_article() {
            Some(jk) if ruleset == Ruleset::Jk => jk,
            _ => self.cn2002_article(),
        }
    }

    fn cn2002_article(self) -> &'static str {
        match self {
            Self::ForbiddenPoint => "CN2002 19",
            Self::KoViolation => "CN2002 18.3, 20.1",
            Self::OccupiedPoint => "CN2002 2.3",
            Self::DoubleMove => "CN2002 17.2",
            Self::WrongColour => "CN2002 17.1",
            Self::MissedCapture => "CN2002 18.2, 22.6",
            Self::WrongCapture => "CN2002 18.1",
            Self::PrematurePress => "CN2002 17.4",
            Self::Takeback => "CN2002 17.3",
            Self::DisplacedStones => "CN2002 17.5",
            Self::BoardDisturbed => "CN2002 17.6",
            Self::TimeForfeit => "CN2002 12.4, 22.5",
            Self::LateStart => "CN2002 22.1-22.4",
        }
    }

    fn jk_article(self) -> Option<&'static str> {
        match self {
            Self::ForbiddenPoint => Some("JK 10"),
            Self::KoViolation => Some("JK 11.1"),
            Self::DoubleMove => Some("JK 8.1"),
            Self::WrongCapture => Some("JK 9"),
            Self::Takeback => Some("JK 8.2"),
            Self::DisplacedStones => Some("JK 8.3"),
            Self::BoardDisturbed => Some("JK 8.4"),
            _ => None,
        }
    }

    /// Whether applying the sanction gives the offender a warning (CN2002 24),
    /// given the ruleset.
    pub fn sanction_warns(self, ruleset: Ruleset) -> bool {
        match self {
            // CN2002 18.3: void, counts as a pass, plus a warning.
            Self::KoViolation => ruleset != Ruleset::Jk,
            // CN2002 17.2: second move void, one warning (JK 8.1: loss instead).
            Self::DoubleMove => ruleset != Ruleset::Jk,
            Self::MissedCapture | Self::WrongCapture | Self::PrematurePress | Self::Takeback => {
                true
            }
            _ => false,
        }
    }
}

impl std::fmt::Display for InfractionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// A text that is none of the digest's ids.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown infraction kind {text:?}; the kinds of rules-digest.md are {}",
    kind_ids()
)]
pub struct UnknownKind {
    /// The text.
    pub text: String,
}

/// Every id, comma-separated, in the table's order.
fn kind_ids() -> String {
    InfractionKind::ALL.map(InfractionKind::id).join(", ")
}

impl std::str::FromStr for InfractionKind {
    type Err = UnknownKind;

    /// Reads an id of the digest's table (`missed_capture`), exactly as [`InfractionKind::id`] writes it.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.id() == text)
            .ok_or_else(|| UnknownKind {
                text: text.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_match_serde_names() {
        for kind in InfractionKind::ALL {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.id()));
        }
    }

    #[test]
    fn ids_parse_back_and_strangers_are_named() {
        for kind in InfractionKind::ALL {
            assert_eq!(kind.id().parse(), Ok(kind));
        }
        let error = "missed-capture".parse::<InfractionKind>().unwrap_err();
        assert!(error.to_string().contains("\"missed-capture\""), "{error}");
        assert!(error.to_string().contains("late_start"), "{error}");
    }

    #[test]
    fn articles_follow_the_ruleset() {
        assert_eq!(InfractionKind::WrongCapture.article(Ruleset::Jk), "JK 9");
        assert_eq!(
            InfractionKind::WrongCapture.article(Ruleset::Cn2002),
            "CN2002 18.1"
        );
        // No JK article in the digest for a missed capture: CN2002 18.2 stands.
        assert_eq!(
            InfractionKind::MissedCapture.article(Ruleset::Jk),
            "CN2002 18.2, 22.6"
        );
    }
}
