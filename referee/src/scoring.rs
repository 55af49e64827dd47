//! Scoring at the end of the game through the rules core, with dead stones and warnings (CN2002 9, 11, 24.1).

use goban_rules::score::{CountInput, DeadStones, Warnings};
use goban_rules::{Game, GameResult, Point};

use crate::state::PerColor;

/// The result of counting `game` with `dead` stones and the warnings given
/// (each costs its player one stone, CN2002 24.1); `None` if the rules core refuses.
pub(crate) fn score(game: &Game, dead: &[Point], warnings: PerColor) -> Option<GameResult> {
    let input = CountInput {
        dead: DeadStones::from_points(dead.iter().copied()),
        warnings: Warnings {
            black: warnings.black,
            white: warnings.white,
        },
        ..CountInput::default()
    };
    game.score(&input).ok().map(|s| s.result)
}
