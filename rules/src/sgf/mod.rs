//! SGF FF\[4\]: reading real-world records (through `sgf-parse`) and writing ours.

mod read;
mod replay;
mod write;

pub use read::{SgfBytes, SgfEvent, SgfGame, SgfMove, read_sgf, read_sgf_bytes};
pub use replay::{OnIllegal, Played, Replay, Step, Steps};
pub use write::{MoveAnnotation, write_sgf, write_sgf_counted};

/// Game-information properties of a record (SGF root: PB, PW, DT, EV, RO, PC, TM, OT, RE, RU, C).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// Black player's name (`PB`).
    pub black: Option<String>,
    /// White player's name (`PW`).
    pub white: Option<String>,
    /// Date (`DT`, ISO form such as 2026-11-30).
    pub date: Option<String>,
    /// Event (`EV`).
    pub event: Option<String>,
    /// Round (`RO`), e.g. `3` or `3 (final)`.
    pub round: Option<String>,
    /// Place (`PC`).
    pub place: Option<String>,
    /// Each side's main time in seconds (`TM`).
    pub time_limit: Option<f64>,
    /// Overtime after the main time (`OT`), e.g. `3x30 byo-yomi`.
    pub overtime: Option<String>,
    /// The result as written (`RE`).
    pub result: Option<String>,
    /// The ruleset as written (`RU`).
    pub rules: Option<String>,
    /// A root comment (`C`).
    pub comment: Option<String>,
}
