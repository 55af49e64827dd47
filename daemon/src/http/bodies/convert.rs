//! Bodies into the referee's typed `ArbiterCommand`: the one place the API's words become commands.

use goban_referee::{ArbiterCommand, GameSetup, InfractionId};

use super::{
    ClockBody, DeadStonesBody, LateStartBody, ResultBody, ResumePlayBody, RulingBody, StartGameBody,
};

impl StartGameBody {
    /// The referee's game setup; the game id is left to the runtime, which names games.
    pub(crate) fn setup(&self) -> GameSetup {
        GameSetup {
            game: None,
            black: self.black.clone(),
            white: self.white.clone(),
            ruleset: self.ruleset,
            komi: self.komi,
            handicap: self.handicap,
            free_handicap: self.free_handicap,
            ko_rule: self.ko_rule,
            time_control: self.time_control,
            colours_fixed: self.colours_fixed,
            event: self.event.clone(),
            round: None,
            place: None,
        }
    }

    /// `POST /game`: the event, when the body names none, and the place are `[tournament]`'s.
    pub(crate) fn command(&self, event: Option<&str>, place: Option<&str>) -> ArbiterCommand {
        let mut setup = self.setup();
        setup.event = setup.event.or_else(|| event.map(str::to_owned));
        setup.place = place.map(str::to_owned);
        ArbiterCommand::StartGame(setup)
    }
}

impl RulingBody {
    /// `POST /infractions/{id}/ruling`.
    pub(crate) fn command(&self, id: String) -> ArbiterCommand {
        ArbiterCommand::Ruling {
            id: InfractionId(id),
            action: self.action,
            note: self.note.clone().unwrap_or_default(),
        }
    }
}

impl ClockBody {
    /// `POST /clock`; `by` is recorded with an adjustment (CN2002 22.8-22.9).
    pub(crate) fn command(&self, by: &str) -> ArbiterCommand {
        match self {
            Self::Pause { .. } => ArbiterCommand::Pause,
            Self::Resume { .. } => ArbiterCommand::Resume,
            Self::Adjust {
                color, delta_ms, ..
            } => ArbiterCommand::AdjustClock {
                color: *color,
                delta_ms: *delta_ms,
                by: by.to_owned(),
            },
        }
    }

    /// The note, whichever the action.
    pub(crate) fn note(&self) -> Option<String> {
        match self {
            Self::Pause { note } | Self::Resume { note } | Self::Adjust { note, .. } => {
                note.clone()
            }
        }
    }
}

impl DeadStonesBody {
    /// `POST /dead-stones` (points already normalised).
    pub(crate) fn command(&self) -> ArbiterCommand {
        ArbiterCommand::MarkDead {
            points: self.points.clone(),
            dead: self.dead,
        }
    }
}

impl ResultBody {
    /// `POST /result`.
    pub(crate) fn command(&self) -> ArbiterCommand {
        ArbiterCommand::SetResult {
            result: self.result.clone(),
            force: self.force == Some(true),
        }
    }
}

impl LateStartBody {
    /// `POST /late-start`.
    pub(crate) fn command(&self) -> ArbiterCommand {
        ArbiterCommand::LateStart {
            color: self.color,
            absent_ms: self.absent_ms,
        }
    }
}

impl ResumePlayBody {
    /// `POST /resume-play`.
    pub(crate) fn command(&self) -> ArbiterCommand {
        ArbiterCommand::ResumePlay { first: self.first }
    }
}
