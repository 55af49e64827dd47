//! The rules game as a checkpoint holds it: its setup, opening stones, moves and setup blocks, played again on restore and checked.

use goban_rules::{Color, Game, GameSetup, GameState, Move, Point, SetupBlock};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The rules game as a checkpoint holds it: enough to play it again.
#[derive(Serialize, Deserialize)]
struct GameImage {
    setup: GameSetup,
    /// The stones before the first move (fixed or free handicap, 座子), point order.
    initial: Vec<(Point, Color)>,
    /// Free handicap stones still to be placed.
    handicap_pending: bool,
    /// Every move: colour, move, played out of turn, its captures (a setup block's moves too).
    moves: Vec<(Color, Move, bool, Vec<Point>)>,
    /// The setup blocks (moves whose order is unknown), each with its first move's number;
    /// absent in checkpoints written before blocks existed, which had none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    blocks: Vec<(usize, SetupBlock)>,
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
            blocks: game
                .setup_blocks()
                .map(|(first, block)| (first, block.clone()))
                .collect(),
            counting: game.state() == GameState::Counting,
            hash: game.board().hash(),
        }
    }

    /// The game played again; `Err` in words when it differs from the image in any way.
    fn rebuild(&self) -> Result<Game, String> {
        let mut game = crate::replay::opening(self.setup, &self.initial, self.handicap_pending)?;
        let mut blocks = self.blocks.iter().peekable();
        let mut block_end = 0;
        for (number, (color, mv, _, _)) in (1..).zip(&self.moves) {
            if number <= block_end {
                continue;
            }
            if let Some((first, block)) = blocks.next_if(|(first, _)| *first == number) {
                block_end = first + block.len() - 1;
                game.play_setup_block(block.clone())
                    .map_err(|err| format!("the setup block of move {first}: {err}"))?;
                continue;
            }
            let number = u32::try_from(number).unwrap_or(u32::MAX);
            crate::replay::play_again(&mut game, number, *color, *mv)?;
        }
        if !self.counting && game.state() == GameState::Counting {
            game.resume().map_err(|err| err.to_string())?;
        }
        let again = Self::of(&game);
        if again.initial != self.initial
            || again.handicap_pending != self.handicap_pending
            || again.moves != self.moves
            || again.blocks != self.blocks
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
