//! What a game's SGF holds besides its board state: the rules setup, the stones before the
//! first move, and the game information at the root. It changes only when a game starts or its
//! free handicap is placed, so a view keeps one and writes its SGF when someone asks for it.

use goban_rules::{Color, Game, GameSetup, Point};

use crate::clock::TimeControl;
use crate::replay;

/// The parts of a game's SGF that its [`crate::BoardState`] does not carry; small, and the
/// same from view to view of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfHeader {
    /// The rules setup (size, ruleset, komi, handicap, ko rule, opening).
    pub setup: GameSetup,
    /// The stones before the first move (fixed or free handicap, 座子), point order.
    pub initial: Vec<(Point, Color)>,
    /// Free handicap stones still to be placed.
    pub handicap_pending: bool,
    /// The event (SGF `EV`).
    pub event: Option<String>,
    /// The round (SGF `RO`).
    pub round: Option<String>,
    /// The place (SGF `PC`).
    pub place: Option<String>,
    /// The day the game started, `YYYY-MM-DD` (SGF `DT`).
    pub date: Option<String>,
    /// The time system (SGF `TM`, `OT`).
    pub time_control: Option<TimeControl>,
}

impl SgfHeader {
    /// A game of `setup` with its opening stones and no game information (no event, round,
    /// place, date or clock).
    ///
    /// # Errors
    /// The rules core refuses the setup.
    pub fn of_setup(setup: GameSetup) -> Result<Self, goban_rules::RulesError> {
        Ok(Self::of_game(&Game::new(setup)?))
    }

    /// The header of `game` as the rules core holds it, without game information.
    pub(crate) fn of_game(game: &Game) -> Self {
        Self {
            setup: *game.setup(),
            initial: replay::opening_stones(game),
            handicap_pending: game.handicap_pending(),
            event: None,
            round: None,
            place: None,
            date: None,
            time_control: None,
        }
    }
}
