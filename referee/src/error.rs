//! The referee's error type: inputs it refuses, with the state left unchanged.

use thiserror::Error;

/// Why an input was refused. The state is unchanged when one of these is returned.
#[derive(Debug, Error)]
pub enum RefereeError {
    /// The configured or requested board size is not supported.
    #[error("board size {0} is not supported (2..=25)")]
    BadSize(u8),
    /// A snapshot did not have size*size valid point characters.
    #[error("snapshot has {got} valid points, expected {expected}")]
    BadSnapshot {
        /// Points read.
        got: usize,
        /// Points expected.
        expected: usize,
    },
    /// A diff named a point outside the board or arrived before any snapshot.
    #[error("diff rejected: out of range or waiting for a snapshot after a gap")]
    BadDiff,
    /// The command needs a running game.
    #[error("no game is running")]
    NoGame,
    /// The command is not allowed in this phase.
    #[error("not allowed now: {0}")]
    WrongPhase(&'static str),
    /// No alert has this id.
    #[error("no infraction with id {0}")]
    UnknownInfraction(String),
    /// The ruling does not apply to this alert.
    #[error("ruling {0} does not apply to this infraction")]
    BadRuling(String),
    /// The alert was already ruled on: one alert, one ruling.
    #[error(
        "infraction {id} was already ruled on by {by} (now {status}); a ruling is final — \
         correct its effects with the clock, void/restore or result commands"
    )]
    AlreadyRuled {
        /// The alert.
        id: String,
        /// Its status now.
        status: crate::infraction::InfractionStatus,
        /// Who ruled.
        by: String,
    },
    /// Another arbiter already took the alert ("on my way"); taking it over needs `force`.
    #[error(
        "infraction {id} is already taken by {by}, who is on the way; acknowledge with \"take_over\": true to take it over"
    )]
    Taken {
        /// The alert.
        id: String,
        /// Who took it.
        by: String,
    },
    /// A point name could not be read.
    #[error("bad point {0:?}")]
    BadPoint(String),
    /// The move named cannot be voided or restored: no such move, a pass, already voided
    /// (or not voided, for a restore), or the game is not in play.
    #[error(
        "move {0} cannot be changed: no such stone, not in that state, or the game is not in play"
    )]
    BadMove(u32),
    /// Voiding or restoring a move would make a later move illegal; nothing was changed.
    #[error("changing move {number} would make move {broken} illegal ({why}); nothing changed")]
    ReplayBreaks {
        /// The move to void or restore.
        number: u32,
        /// The first move that no longer replays.
        broken: u32,
        /// The rules core's reason.
        why: String,
    },
    /// A result string is not SGF `RE` form.
    #[error("bad result {0:?}")]
    BadResult(String),
    /// The rules core refused a game setup.
    #[error("rules: {0}")]
    Rules(#[from] goban_rules::RulesError),
    /// The clock refused an operation.
    #[error("clock: {0}")]
    Clock(#[from] crate::clock::ClockError),
}
