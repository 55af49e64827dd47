//! The analysis of one position as published (api.md "Analysis"): score lead, win rate and candidate moves, always from Black's side.

use goban_rules::Color;
use serde::{Deserialize, Serialize};

/// Schema version of the `analysis` message.
pub const ANALYSIS_VERSION: u8 = 1;

/// Which engine gave an analysis and how much it was allowed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EngineInfo {
    /// The engine's own name and version (GTP `name`/`version`, or KataGo's `query_version`).
    pub name: String,
    /// Its budget in words with units: `"5s per position"`, `"200 visits, 5s per position"`.
    pub budget: String,
}

/// One move the engine considers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Candidate {
    /// The point, `"D4"` (letters without I, numbers from Black's side), or `"pass"`.
    pub point: String,
    /// Search visits (KataGo, Leela Zero); absent for GNU Go.
    pub visits: Option<u32>,
    /// Black's win probability after this move, 0..1; absent for GNU Go.
    pub winrate: Option<f64>,
    /// Black's lead after this move in points; absent for GNU Go.
    pub score_lead: Option<f64>,
    /// GNU Go's own value of the move (`top_moves`), in its points; absent for other engines.
    pub value: Option<f64>,
    /// The principal variation starting with this move (empty when the engine gives none).
    pub pv: Vec<String>,
}

/// The analysis of one board's position as of one `seq`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Analysis {
    /// Schema version (1).
    pub v: u8,
    /// The `seq` of the `state` message whose position this analyses: it is published only
    /// once that state is public (after the broadcast delay). An analysis is not a numbered
    /// message of its own (it is not journaled), so it carries no `seq`: a consumer that
    /// drops the seqs it has seen would drop it.
    pub position_seq: u64,
    /// Board id.
    pub board: String,
    /// Game id.
    pub game: Option<String>,
    /// Moves played in the analysed position.
    pub move_number: u32,
    /// The side to move in it.
    #[schema(value_type = String)]
    pub to_move: Color,
    /// Black's lead in points (negative: White leads), komi included. Points whatever the
    /// ruleset: under CN2002 a result is in stones (one stone is two points).
    pub score_lead: Option<f64>,
    /// Black's win probability, 0..1 (engines with a value network only).
    pub winrate: Option<f64>,
    /// The engine's best moves for the side to move, best first.
    pub candidates: Vec<Candidate>,
    /// Who analysed it and with what budget.
    pub engine: EngineInfo,
    /// Host time the analysis finished, milliseconds since the Unix epoch.
    pub analysed_ms: u64,
}

/// What an engine answered about one position, before the daemon stamps it with board and seq.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Verdict {
    /// Black's lead in points.
    pub score_lead: Option<f64>,
    /// Black's win probability.
    pub winrate: Option<f64>,
    /// Best moves, best first.
    pub candidates: Vec<Candidate>,
}

/// A value the engine gives from `side`'s view, turned to Black's.
pub(crate) fn for_black(value: f64, side: Color) -> f64 {
    match side {
        Color::Black => value,
        Color::White => -value,
    }
}

/// A win probability the engine gives for `side`, turned to Black's.
pub(crate) fn winrate_for_black(winrate: f64, side: Color) -> f64 {
    match side {
        Color::Black => winrate,
        Color::White => 1.0 - winrate,
    }
}

/// A move as the engines write it, as the daemon names it: `"D4"` or `"pass"`.
pub(crate) fn vertex_name(word: &str) -> String {
    if word.eq_ignore_ascii_case("pass") {
        "pass".to_owned()
    } else {
        word.to_ascii_uppercase()
    }
}
