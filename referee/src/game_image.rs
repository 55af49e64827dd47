//! The rules game as a checkpoint holds it: its setup, opening stones and moves, played again on restore and checked.

use goban_rules::{Color, Game, GameSetup, GameState, Move, Point};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The rules game as a checkpoint holds it: enough to play it again.
#[derive(Serialize, Deserialize)]
struct GameImage {
    setup: GameSetup,
    /// The stones before the first move (fixed or free handicap, 座子), point order.
    initial: Vec<(Point, Color)>,
    /// Free handicap stones still to be placed.
    handicap_pending: bool,
    /// Every move: colour, move, played out of turn, its captures.
    moves: Vec<(Color, Move, bool, Vec<Point>)>,
    /// Two passes stopped play and it was not resumed.
    counting: bool,
    /// The position's hash, to check the rebuilt game.
    hash: u64,
}

impl GameImage {
    fn of(game: &Game) -> Self {
        Self {
            setup: *game.setup(),
            initial: crate::replay::opening_stones(game),
            handicap_pending: game.handicap_pending(),
            moves: game
                .moves()
                .iter()
                .map(|m| (m.color, m.mv, m.out_of_turn, m.captured.to_vec()))
                .collect(),
            counting: game.state() == GameState::Counting,
            hash: game.board().hash(),
        }
    }

    /// The game played again; `Err` in words when it differs from the image in any way.
    fn rebuild(&self) -> Result<Game, String> {
        let mut game = crate::replay::opening(self.setup, &self.initial, self.handicap_pending)?;
        for (number, (color, mv, _, _)) in (1..).zip(&self.moves) {
            crate::replay::play_again(&mut game, number, *color, *mv)?;
        }
        if !self.counting && game.state() == GameState::Counting {
            game.resume().map_err(|err| err.to_string())?;
        }
        let again = Self::of(&game);
        if again.initial != self.initial
            || again.handicap_pending != self.handicap_pending
            || again.moves != self.moves
            || again.counting != self.counting
            || again.hash != self.hash
        {
            return Err("the game played again differs from the one checkpointed".into());
        }
        Ok(game)
    }
}

/// `#[serde(with = "crate::game_image")]` for the rules game inside the match.
pub(crate) fn serialize<S: Serializer>(game: &Game, serializer: S) -> Result<S::Ok, S::Error> {
    GameImage::of(game).serialize(serializer)
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Game, D::Error> {
    GameImage::deserialize(deserializer)?
        .rebuild()
        .map_err(serde::de::Error::custom)
}
