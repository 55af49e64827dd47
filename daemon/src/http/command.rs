//! The referee command of each arbiter body: the one typed `ArbiterCommand` that travels from HTTP to the runtime.

use std::str::FromStr;

use goban_referee::clock::TimeControl;
use goban_referee::{ArbiterCommand, GameSetup, InfractionId};

use super::bodies::{
    ClockBody, Color, DeadStonesBody, KoRule, ResultBody, Ruleset, RulingAction, RulingBody,
    StartGameBody,
};

impl Color {
    fn referee(self) -> goban_rules::Color {
        match self {
            Self::Black => goban_rules::Color::Black,
            Self::White => goban_rules::Color::White,
        }
    }
}

impl StartGameBody {
    /// `StartGame`; the game id is left to the runtime (the daemon names games).
    pub(crate) fn command(self) -> ArbiterCommand {
        ArbiterCommand::StartGame(GameSetup {
            game: None,
            black: self.black,
            white: self.white,
            ruleset: self.ruleset.map(|r| match r {
                Ruleset::Cn2002 => goban_rules::Ruleset::Cn2002,
                Ruleset::Jk => goban_rules::Ruleset::Jk,
                Ruleset::Ing => goban_rules::Ruleset::Ing,
                Ruleset::Historical => goban_rules::Ruleset::Historical,
            }),
            komi: self.komi,
            handicap: self.handicap,
            free_handicap: None,
            ko_rule: self.ko_rule.map(|k| match k {
                KoRule::Simple => goban_rules::KoRule::Simple,
                KoRule::Positional => goban_rules::KoRule::Positional,
                KoRule::Situational => goban_rules::KoRule::Situational,
            }),
            // Validated by the body's extractor with the same parser.
            time_control: self
                .time_control
                .and_then(|t| TimeControl::from_str(&t).ok()),
            colours_fixed: self.colours_fixed,
            event: self.event,
        })
    }
}

impl RulingBody {
    /// `Ruling` on the alert `id`.
    pub(crate) fn command(self, id: String) -> ArbiterCommand {
        ArbiterCommand::Ruling {
            id: InfractionId(id),
            action: match self.action {
                RulingAction::Confirm => goban_referee::RulingAction::Confirm,
                RulingAction::Sanction => goban_referee::RulingAction::Sanction,
                RulingAction::Dismiss => goban_referee::RulingAction::Dismiss,
                RulingAction::Convert => goban_referee::RulingAction::Convert,
            },
            note: self.note.unwrap_or_default(),
        }
    }
}

impl ClockBody {
    /// `Pause`, `Resume` or `AdjustClock` recorded with `who`.
    pub(crate) fn command(self, who: &str) -> ArbiterCommand {
        match self {
            Self::Pause {} => ArbiterCommand::Pause,
            Self::Resume {} => ArbiterCommand::Resume,
            Self::Adjust { color, delta_ms } => ArbiterCommand::AdjustClock {
                color: color.referee(),
                delta_ms,
                by: who.to_owned(),
            },
        }
    }
}

impl DeadStonesBody {
    /// `MarkDead`.
    pub(crate) fn command(self) -> ArbiterCommand {
        ArbiterCommand::MarkDead {
            points: self.points,
            dead: self.dead,
        }
    }
}

impl ResultBody {
    /// `SetResult`.
    pub(crate) fn command(self) -> ArbiterCommand {
        ArbiterCommand::SetResult {
            result: self.result,
        }
    }
}

/// The metric label of a command.
pub(crate) fn kind_of(command: &ArbiterCommand) -> &'static str {
    match command {
        ArbiterCommand::StartGame(_) => "game",
        ArbiterCommand::Ruling { .. } => "ruling",
        ArbiterCommand::Pause | ArbiterCommand::Resume | ArbiterCommand::AdjustClock { .. } => {
            "clock"
        }
        ArbiterCommand::MarkDead { .. } => "dead_stones",
        ArbiterCommand::SetResult { .. } => "result",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_map_to_commands() {
        let body = ClockBody::Adjust {
            color: Color::Black,
            delta_ms: -60_000,
        };
        assert!(matches!(
            body.command("arbiter#1"),
            ArbiterCommand::AdjustClock { delta_ms: -60_000, ref by, .. } if by == "arbiter#1"
        ));
        let game = StartGameBody {
            black: Some("Lee".into()),
            time_control: Some("byoyomi-cn:main=60m,reserve=5".into()),
            ..StartGameBody::default()
        };
        let ArbiterCommand::StartGame(setup) = game.command() else {
            panic!("not a start")
        };
        assert_eq!(setup.black.as_deref(), Some("Lee"));
        assert!(setup.time_control.is_some());
        assert!(setup.game.is_none());
    }
}
