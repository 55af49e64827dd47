//! The one error type of the tournament crate.

/// What can go wrong reading a round or a result.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The OpenGotha file is not well-formed XML or does not follow the DTD.
    #[error("OpenGotha XML: {0}")]
    Xml(String),
    /// A CSV round file could not be read (the line is in the message).
    #[error("CSV round: {0}")]
    Csv(#[from] csv::Error),
    /// A Pairgoth JSON document did not have the documented shape.
    #[error("Pairgoth JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The round names no games for the requested round number.
    #[error("round {0} has no games in this file")]
    EmptyRound(u32),
    /// A game names a player the file does not register.
    #[error("unknown player {0:?}")]
    UnknownPlayer(String),
    /// Two games share one table, or one player sits at two tables.
    #[error("round {round}: {detail}")]
    Inconsistent {
        /// The round number.
        round: u32,
        /// What clashes.
        detail: String,
    },
    /// A result code no target defines.
    #[error("unknown result code {0:?}")]
    UnknownResult(String),
    /// A field value outside its range (handicap over 9, table 0, a bad komi).
    #[error("{field}: {detail}")]
    BadField {
        /// The field (`handicap`, `table`, `komi`, ...).
        field: &'static str,
        /// Why.
        detail: String,
    },
}

impl From<quick_xml::DeError> for TournamentError {
    fn from(err: quick_xml::DeError) -> Self {
        Self::Xml(err.to_string())
    }
}

impl From<quick_xml::Error> for TournamentError {
    fn from(err: quick_xml::Error) -> Self {
        Self::Xml(err.to_string())
    }
}
