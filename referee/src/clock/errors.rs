//! Errors of the clock module: time-control strings that do not parse, and clock commands that do not apply.

use thiserror::Error;

use super::Color;

/// Why a duration such as `90s`, `5m` or `1h30m` did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DurationError {
    /// Nothing was given.
    #[error("empty duration (write e.g. 90s, 5m or 1h30m)")]
    Empty,
    /// A number without a unit, e.g. `90`.
    #[error("`{0}` has no unit (use h, m, s or ms)")]
    MissingUnit(String),
    /// A unit other than h, m, s, ms.
    #[error("unknown unit `{0}` (use h, m, s or ms)")]
    UnknownUnit(String),
    /// A unit without a number before it, or a stray character.
    #[error("expected a number at `{0}`")]
    MissingNumber(String),
    /// Units out of order or repeated, e.g. `30m1h` or `5m5m`.
    #[error("unit `{0}` is repeated or out of order (write the largest unit first)")]
    UnitOrder(String),
    /// More milliseconds than a `u64` holds.
    #[error("duration too large")]
    Overflow,
}

/// Why a time-control string (api.md "Time control strings") did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TimeControlError {
    /// The string was empty.
    #[error("empty time control (e.g. `byoyomi-cn:main=60m,reserve=5`)")]
    Empty,
    /// The system before `:` is not one of the grammar's.
    #[error(
        "unknown time system `{0}` (expected none, absolute, byoyomi-cn, byoyomi-jp, canadian or fischer)"
    )]
    UnknownSystem(String),
    /// `none` takes no parameters.
    #[error("`none` takes no parameters, found `{0}`")]
    UnexpectedParameters(String),
    /// A part between commas is not `key=value`.
    #[error("`{0}` is not key=value")]
    Malformed(String),
    /// A key this system does not take.
    #[error("`{system}` takes no parameter `{key}`")]
    UnknownKey {
        /// The time system.
        system: &'static str,
        /// The offending key.
        key: String,
    },
    /// The same key twice.
    #[error("parameter `{0}` given twice")]
    DuplicateKey(String),
    /// A required key is absent.
    #[error("`{system}` needs `{key}=`")]
    MissingKey {
        /// The time system.
        system: &'static str,
        /// The missing key.
        key: &'static str,
    },
    /// A duration value did not parse.
    #[error("`{key}={value}`: {source}")]
    BadDuration {
        /// The key.
        key: &'static str,
        /// The value as written.
        value: String,
        /// Why.
        source: DurationError,
    },
    /// A count value is not a whole number.
    #[error("`{key}={value}`: expected a whole number")]
    BadCount {
        /// The key.
        key: &'static str,
        /// The value as written.
        value: String,
    },
    /// A value parsed but makes no sense for the system.
    #[error("`{key}={value}`: {reason}")]
    OutOfRange {
        /// The key.
        key: &'static str,
        /// The value as written.
        value: String,
        /// The constraint broken.
        reason: &'static str,
    },
}

/// Why a clock command was refused; the clock is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ClockError {
    /// `start` on a clock already started.
    #[error("the clock has already been started")]
    AlreadyStarted,
    /// A command that needs a started clock.
    #[error("the clock has not been started")]
    NotStarted,
    /// A press by the side whose clock is not running.
    #[error("{mover} completed a move but {running}'s clock is running")]
    NotYourTurn {
        /// Who pressed.
        mover: Color,
        /// Whose clock runs.
        running: Color,
    },
    /// A move or pause while the clocks are stopped.
    #[error("the clocks are paused (CN2002 14)")]
    Paused,
    /// `resume` while the clock runs.
    #[error("the clock is not paused")]
    NotPaused,
    /// The mover's time ran out before the press (CN2002 12.4, 22.5).
    #[error("{side}'s time ran out at {at_ms} ms since the epoch (CN2002 12.4, 22.5)")]
    FlagFallen {
        /// Whose flag fell.
        side: Color,
        /// When, in ms since the epoch.
        at_ms: u64,
    },
    /// 22.5 conversion asked for a side whose flag has not fallen.
    #[error("{0}'s flag has not fallen")]
    NoFlagFall(Color),
    /// 22.5 conversion under a system without byo-yomi.
    #[error("only byo-yomi can continue after a flag fall (CN2002 22.5)")]
    NoByoYomi,
    /// A late start declared twice for the same side.
    #[error("a late start has already been recorded for {0}")]
    LateStartTwice(Color),
}
