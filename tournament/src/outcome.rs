//! A confirmed result and its mapping from the referee's result onto OpenGotha's and Pairgoth's codes.

use std::fmt;

use goban_rules::{Color, GameResult, WinBy};
use serde::{Deserialize, Serialize};

use crate::TournamentError;

/// Who got what, in the terms every pairing program shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Black won.
    BlackWins,
    /// White won.
    WhiteWins,
    /// A draw (jigo, or ruled a draw by the arbiter, CN2002 20.3).
    Draw,
    /// Neither scores: CN2002 20.3's "no result", or both absent.
    BothLose,
    /// Both score a win (an arbiter's ruling; unusual).
    BothWin,
    /// Not decided yet.
    Unknown,
    /// The game is cancelled and counts for nothing (Pairgoth `X`; OpenGotha has no such code).
    Cancelled,
}

/// A result as the arbiter confirmed it: the outcome, and whether it was
/// decided without the game being played (OpenGotha's `_BYDEF` forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Decision {
    /// Who got what.
    pub outcome: Outcome,
    /// True when the game was not played: a forfeit for absence (CN2002 22.1-22.4),
    /// or an arbiter's decision before the first move.
    #[serde(default)]
    pub by_default: bool,
}

impl Decision {
    /// A played game's decision.
    #[must_use]
    pub const fn played(outcome: Outcome) -> Self {
        Self {
            outcome,
            by_default: false,
        }
    }

    /// The decision for a game the referee ended with `result` after
    /// `moves` moves. A loss on time (12.4, 22.5), by resignation or by the
    /// count is a played game. A forfeit (`WinBy::Forfeit`) is "by default"
    /// only when no move was made, i.e. the 22.x absences; a game lost by
    /// a ruling during play (a second warning, 24.2) was played. A "no
    /// result" (20.3) scores for neither side.
    #[must_use]
    pub fn from_game(result: &GameResult, moves: u32) -> Self {
        match *result {
            GameResult::Win { winner, by } => Self {
                outcome: Outcome::win_for(winner),
                by_default: matches!(by, WinBy::Forfeit) && moves == 0,
            },
            GameResult::Draw => Self::played(Outcome::Draw),
            GameResult::NoResult => Self::played(Outcome::BothLose),
            GameResult::Unknown => Self::played(Outcome::Unknown),
        }
    }

    /// The OpenGotha `result` attribute (`RESULT_BLACKWINS_BYDEF`, ...).
    /// A cancelled game is written `RESULT_UNKNOWN`, the only code
    /// OpenGotha has for a game that counts for nothing yet.
    #[must_use]
    pub const fn opengotha_code(self) -> &'static str {
        use Outcome::*;
        match (self.outcome, self.by_default) {
            (BlackWins, false) => "RESULT_BLACKWINS",
            (BlackWins, true) => "RESULT_BLACKWINS_BYDEF",
            (WhiteWins, false) => "RESULT_WHITEWINS",
            (WhiteWins, true) => "RESULT_WHITEWINS_BYDEF",
            (Draw, false) => "RESULT_EQUAL",
            (Draw, true) => "RESULT_EQUAL_BYDEF",
            (BothLose, false) => "RESULT_BOTHLOSE",
            (BothLose, true) => "RESULT_BOTHLOSE_BYDEF",
            (BothWin, false) => "RESULT_BOTHWIN",
            (BothWin, true) => "RESULT_BOTHWIN_BYDEF",
            (Unknown | Cancelled, _) => "RESULT_UNKNOWN",
        }
    }

    /// Reads an OpenGotha `result` attribute. Also accepts `RESULT_BOTHLOOSE`,
    /// the spelling some converters write.
    ///
    /// # Errors
    /// [`TournamentError::UnknownResult`] for any other text.
    pub fn parse_opengotha(code: &str) -> Result<Self, TournamentError> {
        let (base, by_default) = match code.strip_suffix("_BYDEF") {
            Some(base) => (base, true),
            None => (code, false),
        };
        let outcome = match base {
            "RESULT_BLACKWINS" => Outcome::BlackWins,
            "RESULT_WHITEWINS" => Outcome::WhiteWins,
            "RESULT_EQUAL" => Outcome::Draw,
            "RESULT_BOTHLOSE" | "RESULT_BOTHLOOSE" => Outcome::BothLose,
            "RESULT_BOTHWIN" => Outcome::BothWin,
            "RESULT_UNKNOWN" if !by_default => Outcome::Unknown,
            _ => return Err(TournamentError::UnknownResult(code.to_owned())),
        };
        Ok(Self {
            outcome,
            by_default,
        })
    }

    /// The Pairgoth `res` code (`b`, `w`, `=`, `X`, `?`, `#`, `0`).
    /// Pairgoth has no "by default" flag; the outcome is what it records.
    #[must_use]
    pub const fn pairgoth_code(self) -> &'static str {
        match self.outcome {
            Outcome::BlackWins => "b",
            Outcome::WhiteWins => "w",
            Outcome::Draw => "=",
            Outcome::Cancelled => "X",
            Outcome::Unknown => "?",
            Outcome::BothWin => "#",
            Outcome::BothLose => "0",
        }
    }

    /// Reads a Pairgoth `res` code.
    ///
    /// # Errors
    /// [`TournamentError::UnknownResult`] for any other text.
    pub fn parse_pairgoth(code: &str) -> Result<Self, TournamentError> {
        let outcome = match code {
            "b" => Outcome::BlackWins,
            "w" => Outcome::WhiteWins,
            "=" => Outcome::Draw,
            "X" => Outcome::Cancelled,
            "?" => Outcome::Unknown,
            "#" => Outcome::BothWin,
            "0" => Outcome::BothLose,
            _ => return Err(TournamentError::UnknownResult(code.to_owned())),
        };
        Ok(Self::played(outcome))
    }

    /// Whether the result is final (anything but unknown).
    #[must_use]
    pub const fn is_known(self) -> bool {
        !matches!(self.outcome, Outcome::Unknown)
    }
}

impl Outcome {
    /// The outcome where `winner` won.
    #[must_use]
    pub const fn win_for(winner: Color) -> Self {
        match winner {
            Color::Black => Self::BlackWins,
            Color::White => Self::WhiteWins,
        }
    }

    /// CN2002 art. 27 points for `side`: win 2, draw 1, loss 0; `None` when
    /// the game does not count (unknown or cancelled).
    #[must_use]
    pub const fn points(self, side: Color) -> Option<u32> {
        match (self, side) {
            (Self::BlackWins, Color::Black)
            | (Self::WhiteWins, Color::White)
            | (Self::BothWin, _) => Some(2),
            (Self::Draw, _) => Some(1),
            (Self::BlackWins | Self::WhiteWins | Self::BothLose, _) => Some(0),
            (Self::Unknown | Self::Cancelled, _) => None,
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.opengotha_code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Outcome; 7] = [
        Outcome::BlackWins,
        Outcome::WhiteWins,
        Outcome::Draw,
        Outcome::BothLose,
        Outcome::BothWin,
        Outcome::Unknown,
        Outcome::Cancelled,
    ];

    #[test]
    fn opengotha_codes_round_trip_with_and_without_bydef() {
        for outcome in ALL
            .into_iter()
            .filter(|o| !matches!(o, Outcome::Unknown | Outcome::Cancelled))
        {
            for by_default in [false, true] {
                let d = Decision {
                    outcome,
                    by_default,
                };
                assert_eq!(Decision::parse_opengotha(d.opengotha_code()).unwrap(), d);
            }
        }
        assert_eq!(
            Decision::parse_opengotha("RESULT_BOTHLOOSE")
                .unwrap()
                .outcome,
            Outcome::BothLose
        );
        assert!(Decision::parse_opengotha("RESULT_UNKNOWN_BYDEF").is_err());
        assert!(Decision::parse_opengotha("1-0").is_err());
    }

    #[test]
    fn pairgoth_codes_round_trip() {
        for outcome in ALL {
            let d = Decision::played(outcome);
            assert_eq!(Decision::parse_pairgoth(d.pairgoth_code()).unwrap(), d);
        }
        assert!(Decision::parse_pairgoth("B").is_err());
    }

    #[test]
    fn the_referees_endings_map_onto_codes() {
        let time = GameResult::Win {
            winner: Color::White,
            by: WinBy::Time,
        };
        assert_eq!(
            Decision::from_game(&time, 120).opengotha_code(),
            "RESULT_WHITEWINS"
        );
        let absent = GameResult::Win {
            winner: Color::Black,
            by: WinBy::Forfeit,
        };
        assert_eq!(
            Decision::from_game(&absent, 0).opengotha_code(),
            "RESULT_BLACKWINS_BYDEF"
        );
        assert_eq!(Decision::from_game(&absent, 0).pairgoth_code(), "b");
        // A game lost on a second warning (24.2) after play is not "by default".
        assert_eq!(
            Decision::from_game(&absent, 40).opengotha_code(),
            "RESULT_BLACKWINS"
        );
        assert_eq!(
            Decision::from_game(&GameResult::NoResult, 80).pairgoth_code(),
            "0"
        );
        assert_eq!(
            Decision::from_game(&GameResult::Draw, 200).pairgoth_code(),
            "="
        );
    }

    #[test]
    fn points_are_two_one_nothing() {
        assert_eq!(Outcome::BlackWins.points(Color::Black), Some(2));
        assert_eq!(Outcome::BlackWins.points(Color::White), Some(0));
        assert_eq!(Outcome::Draw.points(Color::White), Some(1));
        assert_eq!(Outcome::BothWin.points(Color::White), Some(2));
        assert_eq!(Outcome::Cancelled.points(Color::Black), None);
    }
}
