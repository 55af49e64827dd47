//! Scoring at the end of the game through the rules core, with dead stones, warnings and seki rulings (CN2002 9, 11, 21.2, 24.1).

use goban_rules::score::{CountInput, DeadStones, Score, SekiMarks, Warnings};
use goban_rules::{Game, Point};

use crate::state::PerColor;

/// The count of `game` with `dead` stones, the warnings given (each costs its player one
/// stone, CN2002 24.1) and the arbiter's seki rulings; `None` if the rules core refuses.
///
/// A seki ruling on a stone now marked dead is left out: the dead-stone mark is the later word.
pub(crate) fn score(
    game: &Game,
    dead: &[Point],
    warnings: PerColor,
    seki: &SekiMarks,
) -> Option<Score> {
    let mut living = seki.clone();
    for p in dead {
        living.clear(*p);
    }
    let input = CountInput {
        dead: DeadStones::from_points(dead.iter().copied()),
        warnings: Warnings {
            black: warnings.black,
            white: warnings.white,
        },
        seki: living,
    };
    game.score(&input).ok()
}
