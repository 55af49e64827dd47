//! What the tournament routes and the MQTT messages say: seating, results, standings, typed once for serde and OpenAPI.

use goban_tournament::standings::Standing;
use goban_tournament::{Decision, Outcome};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One table of the current round.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct TableView {
    /// Table number.
    pub table: u32,
    /// The board it is seated on, or null when no sensor board stands there.
    pub board: Option<String>,
    /// Black's key in the pairing program.
    pub black: String,
    /// White's key.
    pub white: String,
    /// Black's name.
    pub black_name: String,
    /// White's name.
    pub white_name: String,
    /// Black's rank as the pairing program writes it ("3k", "1d"), when it gives one.
    #[serde(default)]
    pub black_rank: Option<String>,
    /// White's rank, when the pairing program gives one.
    #[serde(default)]
    pub white_rank: Option<String>,
    /// Black's club, when the pairing program gives one (OpenGotha, Pairgoth).
    #[serde(default)]
    pub black_club: Option<String>,
    /// White's club, when the pairing program gives one.
    #[serde(default)]
    pub white_club: Option<String>,
    /// Black's country code, when the pairing program gives one.
    #[serde(default)]
    pub black_country: Option<String>,
    /// White's country code, when the pairing program gives one.
    #[serde(default)]
    pub white_country: Option<String>,
    /// Handicap stones.
    pub handicap: u8,
    /// Komi in points, when the round sets one.
    pub komi: Option<f64>,
    /// Time control in the api.md grammar, when the round sets one.
    pub time_control: Option<String>,
    /// The board's game id once started.
    pub game: Option<String>,
    /// `waiting`, `started`, `finished` (result confirmed) or `off_board`.
    pub status: String,
    /// The confirmed result, if any.
    pub result: Option<ResultView>,
}

/// The current round: number, source, tables and byes.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RoundView {
    /// Round number.
    pub round: u32,
    /// The event's name (`[tournament] event`), for pages and overlays.
    #[serde(default)]
    pub event: Option<String>,
    /// `opengotha`, `opengotha-file`, `csv` or `pairgoth:<tid>`.
    pub source: String,
    /// Tables in order.
    pub tables: Vec<TableView>,
    /// Players with a bye.
    pub byes: Vec<String>,
}

/// A confirmed result, with each target's code (MQTT `<prefix>/tournament/results`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ResultView {
    /// Message schema version (1).
    pub v: u8,
    /// Round.
    pub round: u32,
    /// Table.
    pub table: u32,
    /// Black's key.
    pub black: String,
    /// White's key.
    pub white: String,
    /// `black_wins`, `white_wins`, `draw`, `both_lose`, `both_win`, `unknown`, `cancelled`.
    #[schema(value_type = String, example = "black_wins")]
    pub outcome: Outcome,
    /// Decided without play (OpenGotha `_BYDEF`).
    pub by_default: bool,
    /// OpenGotha's code.
    #[schema(example = "RESULT_BLACKWINS")]
    pub opengotha: String,
    /// Pairgoth's code.
    #[schema(example = "b")]
    pub pairgoth: String,
    /// Warnings given to Black in this game (CN2002 24).
    pub warnings_black: u32,
    /// Warnings given to White in this game.
    pub warnings_white: u32,
    /// The board's game id, when played on a board.
    pub game: Option<String>,
}

impl ResultView {
    /// The view of a stored result.
    pub fn new(stored: &super::store::StoredResult) -> Self {
        let Decision {
            outcome,
            by_default,
        } = stored.decision;
        Self {
            v: 1,
            round: stored.round,
            table: stored.table.0,
            black: stored.black.clone(),
            white: stored.white.clone(),
            outcome,
            by_default,
            opengotha: stored.decision.opengotha_code().to_owned(),
            pairgoth: stored.decision.pairgoth_code().to_owned(),
            warnings_black: stored.warnings[0],
            warnings_white: stored.warnings[1],
            game: stored.game.clone(),
        }
    }
}

/// One line of the standings (MQTT `<prefix>/tournament/standings`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct StandingView {
    /// Place; tied players share it.
    pub place: u32,
    /// Whether the place is shared (CN2002 27 C is the organiser's).
    pub shared: bool,
    /// Player key.
    pub player: String,
    /// Player name, when known.
    pub name: String,
    /// Points: win 2, draw 1, loss 0.
    pub points: u32,
    /// 胜者小分 (round robin second criterion).
    pub defeated_points: f64,
    /// 对手分 (Swiss second criterion).
    pub opponents_points: f64,
    /// Warnings over the event, from the referee's record.
    pub warnings: u32,
    /// Games counted.
    pub games: u32,
}

/// The standings with the system that ordered them.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct StandingsView {
    /// Message schema version (1).
    pub v: u8,
    /// `swiss` or `round_robin`.
    pub system: String,
    /// Best first.
    pub standings: Vec<StandingView>,
}

impl StandingView {
    /// A line with the player's name.
    pub fn new(s: &Standing, name: String) -> Self {
        Self {
            place: s.place,
            shared: s.shared,
            player: s.player.to_string(),
            name,
            points: s.points,
            defeated_points: s.defeated_points,
            opponents_points: s.opponents_points,
            warnings: s.warnings,
            games: s.games,
        }
    }
}
